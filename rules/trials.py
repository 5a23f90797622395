"""Trials: disjunctive construction (section 4.3.1, level 13) and reductio ad
absurdum (section 4.3.2, level 14).

Both assume something and propagate with the rules the engine hands them
(``context.propagation``: levels 1-12 by default, the singles only when the
hierarchy says so, and lower-depth trials when trials nest).  Deciding what a
branch reaches uses the fast fixpoint; for an explanation the steps of a
trial that works are then recorded one at a time (the full trace), and each
branch gets its minimal chain (:mod:`grader.strategy.trials.chains`): only the facts its
contradiction or its conclusions need, each with the facts it comes from.

To keep chains short, propagation is tried in phases of growing strength:
the singles first, then every non-trial rule, then (when nesting) the
trials.  A conclusion reached with fewer rules is also reached with more, so
each phase is sound; the phases only fix the order in which steps are found.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from typing import NamedTuple

from grader.core.board import Board
from grader.core.geometry import values_of
from grader.core.rule import Rule
from grader.core.steps import Branch, Pattern, Step
from grader.core.table import Family, NativeRule
from grader.core.trial_text import assumed, teach_trial
from grader.kernel import Kernel, default_kernel
from grader.strategy.trials.branches import (
    UNRECORDED,
    after,
    closures,
    conclusions_of,
    gives,
    phases,
    record_branch,
    refuted,
    solution_hint,
    trial_name,
)
from grader.strategy.trials.chains import Target

_COUNT_WORDS = {2: "two", 3: "three", 4: "four"}


def _trial_area(step: Step) -> str:
    """Where a trial starts, without its pivot: the pivot region, or the
    block of the pivot cell."""
    geo = step.geo
    if step.pattern.regions:
        return geo.region_long_name(step.pattern.regions[0][0])
    cell = step.pattern.cells_with("pivot")[0]
    return geo.region_long_name(2 * geo.n + geo.cell_block[cell])


class Choice(NamedTuple):
    """A step a trial rule can take, before its chains are drawn."""

    #: What the step concludes.
    conclusions: list[Target]
    #: The assumptions its branches start from: (cell, value).
    branches: tuple[tuple[int, int], ...]
    #: Builds the step (with its chains when the rule records them).
    build: Callable[[], Step]


class _Trial(Rule):
    kind = "trial"

    @staticmethod
    def teach(step: Step) -> str:
        return teach_trial(step)

    @staticmethod
    def common_name(step: Step) -> str | None:
        """What players call the trial: forcing chains, a contradiction
        forcing chain (nested ...)."""
        return step.pattern_name or None

    @property
    def depth(self) -> int:
        return self.context.depth

    def native(self) -> NativeRule:
        kind = (Family.DISJUNCTION if self.family == "disjunctive-construction"
                else Family.REDUCTIO)
        return NativeRule.of(kind, depth=self.depth,
                             max_alternatives=int(self.context.options.get("max_alternatives", 2)))

    @property
    def kernel(self) -> Kernel:
        """The kernel the engine chose (the default one outside an engine)."""
        return self.context.kernel or default_kernel()

    def _phases(self) -> list[tuple[Rule, ...]]:
        """The propagation sets steps are searched with (see :func:`phases`):
        for an explanation, the weakest first (shorter chains); for a grade,
        the rule's own propagation only (any step of the rule will do)."""
        found = phases(self.context.propagation, self.depth)
        return found if self.context.options.get("explain", True) else found[-1:]


class ReductioAdAbsurdum(_Trial):
    """Assume ``(i, j) <- v`` and propagate; a contradiction proves
    ``(i, j) != v``.

    Order: by propagation phase (see :func:`phases`), then candidates in
    cell order, values ascending."""

    family = "reductio"
    default_name = "reductio ad absurdum"
    default_reference = "section 4.3.2"

    def find(self, board: Board) -> Iterator[Step]:
        for choice in self.choices(board):
            yield choice.build()

    def choices(self, board: Board) -> Iterator[Choice]:
        """What each step of :meth:`find` concludes, in the same order, and
        how to build it: the engine compares steps by their conclusions
        without drawing their chains."""
        done: set[tuple[int, int]] = set()
        for rules in self._phases():
            for cell, v in self._contradictions(board, rules):
                if (cell, v) in done:
                    continue
                done.add((cell, v))
                yield Choice([(False, cell, v)], ((cell, v),),
                             partial(self._step, board, cell, v, rules))

    def find_for(self, board: Board, targets: Sequence[Target],
                 cells: Sequence[int] = ()) -> Iterator[Step]:
        """Steps that refute a candidate ``targets`` remove (an elimination,
        or another candidate of a cell a target fills), in the order of
        ``targets``, by propagation phase.  ``cells`` is not used: a reductio
        has no pivot to choose."""
        hint = solution_hint(board)
        wanted: list[tuple[int, int]] = []
        for placed, c, d in targets:
            if board.values[c]:
                continue
            if placed:
                wanted.extend((c, v) for v in board.candidates(c) if v != d)
            elif board.cands[c] >> (d - 1) & 1:
                wanted.append((c, d))
        wanted = [(c, v) for c, v in dict.fromkeys(wanted)
                  if hint is None or hint[c] != v]
        done: set[tuple[int, int]] = set()
        for rules in self._phases():
            for cell, v in wanted:
                if (cell, v) not in done and refuted(board, cell, v, rules, self.kernel):
                    done.add((cell, v))
                    yield self._step(board, cell, v, rules)

    def _step(self, board: Board, cell: int, v: int, rules: Sequence[Rule]) -> Step:
        if not self.record:
            branch = Branch(cell=cell, value=v, steps=(), conflict=UNRECORDED)
        else:
            branch = record_branch(board, cell, v, rules)
        if branch.conflict is None:  # pragma: no cover - the two paths disagree
            raise RuntimeError(
                f"reductio: the replay of {board.geo.cell_name(cell)} <- {v} found no "
                "contradiction; please report this grid")
        step = self.make(
            board, eliminations=((cell, v),),
            pattern=Pattern(cells=((cell, "pivot"),), values=(v,)),
            branches=(branch,), depth=self.depth)
        return replace(step, pattern_name=trial_name(self.depth, "contradiction forcing chain"))

    def _contradictions(self, board: Board, rules: Sequence[Rule]) -> Iterator[tuple[int, int]]:
        """Assumptions that end in a contradiction, in cell and value order."""
        hint = solution_hint(board)
        start = 0
        while True:
            hit = self.kernel.reductio_first(board, rules, hint, start)
            if hit is None:
                return
            yield hit
            start = hit[0] * 64 + hit[1] + 1

    @staticmethod
    def where(step: Step) -> str:
        return (f"look at {_trial_area(step)}: one candidate of one of its cells, once assumed, "
                f"leads to a contradiction")

    @staticmethod
    def summarize(step: Step) -> str:
        geo = step.geo
        (branch,) = step.branches
        why = branch.conflict.reason if branch.conflict else "a contradiction"
        k = len(branch.chain.links) if branch.chain is not None else len(branch.steps)
        when = "at once" if not k else f"in {k} step{'s' if k > 1 else ''}"
        return (f"assuming {geo.cell_name(branch.cell)} <- {geo.symbol(branch.value)} leads "
                f"{when} to a contradiction ({why})")


class DisjunctiveConstruction(_Trial):
    """Choose a pivot with few alternatives (a cell with two candidates, or a
    value with two positions in a region; up to ``max_alternatives``), follow
    every alternative, and keep what all the branches that do not end in a
    contradiction agree on.  When every alternative but one ends in a
    contradiction, the step places that alternative; otherwise it takes every
    conclusion the live branches share at once (placements, then the
    eliminations they do not imply), so the same split is never repeated for
    the next conclusion.

    Order: by propagation phase, then by number of alternatives, then cells
    (cell order) before regions (R, C, B), values ascending."""

    family = "disjunctive-construction"
    default_name = "disjunctive construction"
    default_reference = "section 4.3.1"

    def _pivots(self, board: Board, within: set[int] | None = None,
                ) -> list[tuple[str, int, tuple[tuple[int, int], ...]]]:
        """Every pivot in order (kind, cell or region, alternatives); with
        ``within``, only those whose alternatives all lie in these cells."""
        geo = board.geo
        vals, cands = board.values, board.cands
        max_alt = int(self.context.options.get("max_alternatives", 2))
        cells = range(geo.ncells) if within is None else sorted(within)
        out: list[tuple[int, int, str, int, tuple[tuple[int, int], ...]]] = []
        seen: set[tuple[tuple[int, int], ...]] = set()
        for cell in cells:
            cnt = cands[cell].bit_count()
            if not vals[cell] and 2 <= cnt <= max_alt:
                alts = tuple((cell, v) for v in board.candidates(cell))
                seen.add(alts)
                out.append((cnt, 0, "cell", cell, alts))
        if within is None:
            regions: Iterable[int] = range(len(geo.regions))
        else:
            regions = sorted({r for c in within for r in geo.cell_regions[c]})
        for r in regions:
            if within is None:
                wanted = (1 << geo.n) - 1
            else:
                wanted = 0
                for c in geo.regions[r]:
                    if c in within:
                        wanted |= cands[c]
            for v in values_of(wanted):
                bit = 1 << (v - 1)
                pos = [c for c in geo.regions[r] if cands[c] & bit]
                if not 2 <= len(pos) <= max_alt:
                    continue
                alts = tuple((c, v) for c in pos)
                if alts in seen or (within is not None and not within.issuperset(pos)):
                    continue
                seen.add(alts)
                out.append((len(pos), 1, "region", r, alts))
        out.sort(key=lambda t: (t[0], t[1]))
        return [(kind, where, alts) for _, _, kind, where, alts in out]

    def find(self, board: Board) -> Iterator[Step]:
        for choice in self.choices(board):
            yield choice.build()

    def choices(self, board: Board) -> Iterator[Choice]:
        """What each step of :meth:`find` concludes, in the same order, and
        how to build it (see :meth:`ReductioAdAbsurdum.choices`)."""
        done: set[Target] = set()
        for rules in self._phases():
            for kind, where, alts, targets, dead, _ in self._conclusions(board, rules):
                if all(t in done for t in targets):
                    continue
                done.update(targets)
                yield Choice(targets, alts, partial(self._step, board, kind, where, alts,
                                                    targets, dead, rules))

    def find_for(self, board: Board, targets: Sequence[Target],
                 cells: Sequence[int] = ()) -> Iterator[Step]:
        """Steps whose conclusions give one of ``targets`` (on the board they
        lead to, the target holds), from the pivots that lie in ``cells`` and
        the targets' cells (a pattern's cells: its own pivots), in pivot order,
        by propagation phase.  Each step takes all its pivot's conclusions."""
        pivots = self._pivots(board, set(cells) | {c for _, c, _ in targets})
        for rules in self._phases():
            for kind, where, alts in pivots:
                ends = [after(board, c, v, rules, self.kernel) for c, v in alts]
                alive = [i for i, b in enumerate(ends) if b is not None]
                if not alive:
                    continue
                got = conclusions_of(board, alts, [b for b in ends if b is not None], alive)
                if not got or not gives(board, got, targets):
                    continue
                dead = sum(1 << i for i, b in enumerate(ends) if b is None)
                yield self._step(board, kind, where, alts, got, dead, rules)

    def pivots(self, board: Board) -> list[tuple[str, int, tuple[tuple[int, int], ...]]]:
        """Every pivot of ``board`` in order: (kind, cell or region, alternatives)."""
        return self._pivots(board)

    def split(self, board: Board, alts: Sequence[tuple[int, int]],
              ) -> tuple[list[Target], int] | None:
        """What the pivot ``alts`` proves with the whole propagation (every
        conclusion at once) and the bitmask of its dead alternatives; None
        when it proves nothing."""
        rules = self.context.propagation
        ends = [after(board, c, v, rules, self.kernel) for c, v in alts]
        alive = [i for i, b in enumerate(ends) if b is not None]
        got = conclusions_of(board, alts, [b for b in ends if b is not None], alive)
        if not alive or not got:
            return None
        return got, sum(1 << i for i, b in enumerate(ends) if b is None)

    def step_at(self, board: Board, kind: str, where: int, alts: tuple[tuple[int, int], ...],
                ) -> Step | None:
        """The step of the pivot ``alts`` (see :meth:`split`), with every
        conclusion it proves; None when it proves nothing."""
        got = self.split(board, alts)
        if got is None:
            return None
        return self._step(board, kind, where, alts, got[0], got[1], self.context.propagation)

    def _step(self, board: Board, kind: str, where: int, alts: tuple[tuple[int, int], ...],
              targets: list[Target], dead: int, rules: Sequence[Rule]) -> Step:
        if self.record:
            branches = tuple(record_branch(board, c, v, rules, targets) for c, v in alts)
        else:
            branches = tuple(
                Branch(cell=c, value=v, steps=(),
                       conflict=UNRECORDED if dead >> i & 1 else None)
                for i, (c, v) in enumerate(alts))
        pattern = Pattern(
            cells=tuple((c, "pivot") for c in dict.fromkeys(c for c, _ in alts)),
            regions=((where, "pivot"),) if kind == "region" else (),
            values=tuple(sorted({v for _, v in alts})),
        )
        step = self.make(
            board,
            placements=tuple((c, v) for placed, c, v in targets if placed),
            eliminations=tuple((c, v) for placed, c, v in targets if not placed),
            pattern=pattern, branches=branches, depth=self.depth)
        return replace(step, pattern_name=trial_name(self.depth, f"{kind} forcing chains"))

    def first_from(self, board: Board, start: int) -> tuple[Step, int] | None:
        """For grading: the step of the first pivot at or after index
        ``start`` that proves something, else of the first before it (the
        scan wraps around), with the pivot's index; None when none does.
        The strategy resumes each search where the last one found its step:
        the pivots before it, which proved nothing there, seldom prove
        something one step later.  Any step of the rule gives the same
        level and depth (the closure does not depend on the order)."""
        rules = self._phases()[-1]
        for first in ((start, 0) if start else (0,)):
            for kind, where, alts, targets, dead, idx in self._conclusions(board, rules, first):
                return self._step(board, kind, where, alts, targets, dead, rules), idx
        return None

    def _conclusions(self, board: Board, rules: Sequence[Rule], start: int = 0,
                     ) -> Iterator[tuple[str, int, tuple[tuple[int, int], ...],
                                         list[Target], int, int]]:
        """(pivot kind, cell or region, alternatives, conclusions, bitmask of
        the alternatives that end in a contradiction, pivot index) for each
        pivot from index ``start``, in pivot order, whose branches agree on
        something."""
        hint = solution_hint(board)
        max_alt = int(self.context.options.get("max_alternatives", 2))
        while True:
            hit = self.kernel.disjunction_first(board, rules, hint, max_alt, start)
            if hit is None:
                return
            idx, kind, cell, value, region, nalts, dead, found = hit
            alts = tuple(nalts)
            # the kernel names the first conclusion, and the C one all of them;
            # else they come from the closures of the live alternatives
            live = [i for i in range(len(alts)) if not dead >> i & 1]
            targets = [(bool(p), c, v) for p, c, v in found] if found is not None else (
                conclusions_of(board, alts, closures(board, alts, live, rules, self.kernel, hint),
                               live))
            if (kind == "place", cell, value) not in targets:  # pragma: no cover
                raise RuntimeError("disjunctive construction: the kernel's search and the "
                                   "closures disagree; please report this grid")
            yield (("cell", alts[0][0], alts, targets, dead, idx) if region < 0
                   else ("region", region, alts, targets, dead, idx))
            start = idx + 1

    @staticmethod
    def where(step: Step) -> str:
        k = len(step.branches) or len(step.pattern.cells_with("pivot")) or 2
        n = _COUNT_WORDS.get(k, str(k))
        follow = ("try each of them with the simpler rules, and keep what the ones that do not "
                  "end in a contradiction agree on")
        if step.pattern.regions:
            return (f"look at {_trial_area(step)}: one value has only {n} possible cells there; "
                    f"{follow}")
        return f"look at {_trial_area(step)}: one of its cells has only {n} candidates; {follow}"

    @staticmethod
    def summarize(step: Step) -> str:
        geo = step.geo
        name = partial(assumed, step)
        alts = " or ".join(name(b) for b in step.branches)
        dead = [b for b in step.branches if b.conflict is not None]
        live = [b for b in step.branches if b.conflict is None]
        if step.pattern.regions:
            region = geo.region_long_name(step.pattern.regions[0][0])
            where = f"{geo.symbol(step.pattern.values[0])} goes in {region} at {alts}"
        else:
            where = f"either {alts}"
        if dead and len(live) <= 1:
            why = "; ".join(f"{name(b)} leads to a contradiction" for b in dead)
            return f"{where}; {why}"
        if dead:
            why = "; ".join(f"{name(b)} leads to a contradiction" for b in dead)
            return f"{where}; {why}, and every other branch reaches the same result"
        every = "both branches reach" if len(step.branches) == 2 else "every branch reaches"
        return f"{where}; {every} the same result"
