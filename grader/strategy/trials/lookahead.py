"""The trial that leaves the least to explain.

Where trials nest, or where trials of depth 1 leave much to do, the engine
does not apply the first step of the trial rule the strategy needs: it
compares that rule's first :data:`AHEAD` steps by what explaining each one,
and every trial after it, would take, and takes the cheapest
(:meth:`LookAhead.best`).  The estimate runs the strategy ahead with trials
of depth 1 (a probe engine that neither records nor looks ahead itself): in
each branch of the step until its contradiction or its conclusions, and
after the step until the grid is solved.  Only the choice among the rule's
steps changes, never the rule or the depth, so levels, depths, ratings and
scores are the strategy's; the estimate depends on the position only, so
grading and explaining, with either kernel, take the same steps.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from itertools import islice
from typing import Any, Protocol

from grader.core.board import Board
from grader.core.rule import Rule
from grader.core.steps import Step
from grader.strategy.trials.chains import Target, holds


class Engine(Protocol):
    """What the look-ahead asks of the engine it runs (a probe made by
    :class:`grader.strategy.engine.Engine`: trials of depth 1, nothing recorded)."""

    kernel: Any

    def rules(self, depth: int = 1) -> tuple[Rule, ...]: ...
    def next_step(self, board: Board, max_level: int | None = None) -> Step | None: ...
    def plain_top(self) -> int | None: ...

#: How many steps of the trial rule the strategy needs are compared.
AHEAD = 24
#: A position of depth 1 is hard (and looked ahead on) when trials of depth
#: 1 leave it unsolved or need more than this many trial steps.
HARD = 4
#: The lines a trial of depth 1 is estimated to need.
TRIAL_LINES = 14
#: How many positions :meth:`LookAhead.finish` remembers (about 0.4 kB each
#: on 9x9) before it forgets them all.
REST_CACHE = 50_000


class LookAhead:
    """Estimates for one engine; ``probe`` builds the engine that runs ahead
    (the same table and kernel, trials of depth 1, nothing recorded)."""

    def __init__(self, probe: Callable[[], Engine]) -> None:
        self._make_probe = probe
        self._probe: Engine | None = None
        self._plain: list[Rule] = []
        self._rest: dict[bytes, tuple[int, int]] = {}

    @property
    def probe(self) -> Engine:
        if self._probe is None:
            self._probe = self._make_probe()
            self._plain = [r for r in self._probe.rules(1) if r.kind != "trial"]
        return self._probe

    def hard(self, board: Board) -> bool:
        """Whether trials of depth 1 leave ``board`` unsolved or need more
        than :data:`HARD` trial steps."""
        left, trials = self.finish(with_facts(board, (), board.solution))
        return left > 0 or trials > HARD

    def best(self, board: Board, depth: int, rule: Rule) -> Step | None:
        """The step of ``rule`` (the trial the strategy needs, nested to
        ``depth``) that leaves the least to explain: of its first
        :data:`AHEAD` steps, the one with the smallest :meth:`cost`, the
        first of equals."""
        best: tuple[tuple[int, int], Callable[[], Step]] | None = None
        for choice in islice(rule.choices(board), AHEAD):  # type: ignore[attr-defined]
            cost = self.cost(board, depth, choice.conclusions, choice.branches)
            if best is None or cost < best[0]:
                best = (cost, choice.build)
        if best is None:
            return None
        step = best[1]()
        return step if board.progress(step) else None

    def cost(self, board: Board, depth: int, conclusions: Sequence[Target],
             branches: Sequence[tuple[int, int]]) -> tuple[int, int]:
        """What explaining a trial step of ``depth`` with these ``branches``
        and ``conclusions`` would take, and every trial after it: (cells
        trials of depth 1 leave empty after it, estimated lines).  A branch
        runs the strategy (with trials of depth 1 inside a step of depth 2,
        else without trials) until its contradiction or the conclusions;
        each step it applies is a line, each trial :data:`TRIAL_LINES`
        more; the trials of depth 1 that solve the grid after the step are
        counted the same way."""
        inner = 1 if depth > 1 else None
        lines = 0
        for c, v in branches:
            _, trials, steps = self.run(with_facts(board, [(True, c, v)], None), conclusions, inner)
            lines += steps + TRIAL_LINES * trials
        left, trials = self.finish(with_facts(board, conclusions, board.solution))
        return left, lines + TRIAL_LINES * trials

    def finish(self, work: Board) -> tuple[int, int]:
        """Run the strategy with trials of depth 1 on ``work`` (whose
        solution is known) until it is solved or stuck: (empty cells left,
        trial steps).  The plain rules run to their fixpoint at once (the
        same position, whatever the order: they are monotonic), so only the
        trials are taken one by one, as :meth:`run` would take them.  What
        is left from each position a trial is taken on is remembered: the
        strategy's step there depends on the position only."""
        probe, plain = self.probe, self._plain
        path: list[bytes] = []
        known: tuple[int, int] | None = None
        while not probe.kernel.closure(work, plain, work.solution) and not work.is_solved():
            key = position_key(work)
            known = self._rest.get(key)
            if known is not None:
                break
            step = probe.next_step(work)
            if step is None:
                break
            path.append(key)
            work.apply(step)
        if known is None:
            known = (sum(1 for v in work.values if not v), 0)
        left, trials = known[0], known[1] + len(path)
        if len(self._rest) > REST_CACHE:
            self._rest.clear()
        for i, key in enumerate(path):
            self._rest[key] = (left, trials - i)
        return left, trials

    def run(self, work: Board, goal: Sequence[Target], depth: int | None) -> tuple[int, int, int]:
        """Run the strategy on ``work``, with trials of ``depth`` 1 or none
        (None), one step at a time, until it is solved, stuck, contradictory
        or ``goal`` holds (when given): (empty cells left, trial steps, steps)."""
        probe = self.probe
        plain = None if depth else probe.plain_top()
        trials = steps = 0
        contradiction = probe.kernel.contradiction
        while contradiction(work) is None and not work.is_solved():
            if goal and all(holds(work, t) for t in goal):
                break
            step = probe.next_step(work, plain)
            if step is None:
                break
            work.apply(step)
            trials += step.depth > 0
            steps += 1
        return sum(1 for v in work.values if not v), trials, steps


def position_key(board: Board) -> bytes:
    """The position, compactly: values, then candidate masks."""
    code = "I" if board.geo.n <= 32 else "Q"
    return bytes(board.values) + array(code, board.cands).tobytes()


def with_facts(board: Board, facts: Sequence[Target],
               solution: tuple[int, ...] | None) -> Board:
    """A copy of ``board`` where ``facts`` hold, with ``solution`` attached."""
    work = board.copy()
    work.solution = solution
    for placed, c, v in facts:
        if placed:
            if not work.values[c]:
                work.place(c, v)
        else:
            work.cands[c] &= ~(1 << (v - 1))
    return work
