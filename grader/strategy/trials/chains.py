"""Minimal chains of trial branches, drawn from the recorded propagation.

The engine decides which trial step to apply (Python or the C accelerator,
with the same result); for an explanation each branch's propagation is then
recorded one rule application at a time (:func:`grader.strategy.propagate.record_chain`).
:func:`build_chain` replays that trace once, in Python, and records for every
candidate the branch removes the line (and the effect of that line) that
removed it: the assumption is line 0, the sub-steps follow.  Each sub-step
*uses* the lines that removed the candidates its pattern needs absent (its
rule's :meth:`~grader.core.rule.Rule.support`; a trial nested in the branch uses
what its own chains rest on).  The chain keeps only the ancestors of the end
(the contradiction, or the conclusions every live branch reaches), in trace
order, so every line uses only lines above it.  Candidates already absent
before the assumption are premises, not lines.

The replay is deterministic and only reads the trace, so the chains are the
same whichever kernel decided the steps.  Which derivation a branch's chain
is drawn from (breadth first, or with inner trials chosen by what the end
needs) is :func:`grader.strategy.trials.nested.short_chain`'s choice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from grader.core.board import Board
from grader.core.geometry import values_of
from grader.core.steps import Chain, Conflict, Effect, Link, Step, support_of

if TYPE_CHECKING:
    from grader.core.rule import Rule

#: Where a fact comes from: (line, effect index within the line); line 0 is
#: the assumption, effects are numbered placements first.
Source = tuple[int, int]
#: A conclusion a branch must reach: (placed, cell, value).
Target = tuple[bool, int, int]


def default_support(step: Step) -> list[Effect]:
    """Every candidate of the pattern's cells and regions: the conservative
    support of a rule that declares none."""
    geo = step.geo
    cells = {c for c, _ in step.pattern.cells}
    for r, _ in step.pattern.regions:
        cells.update(geo.regions[r])
    return [(c, w) for c in sorted(cells) for w in range(1, geo.n + 1)]


def trial_support(step: Step) -> list[Effect] | None:
    """What a trial step rests on: the premises of its branches' chains, and
    for a pivot the absences that make its alternatives exhaustive."""
    out: set[Effect] = set()
    for b in step.branches:
        if b.chain is None:
            return None
        out.update(b.chain.premises)
    if step.family == "disjunctive-construction":
        geo = step.geo
        pivots = step.pattern.regions_with("pivot")
        alts = {(b.cell, b.value) for b in step.branches}
        if pivots:
            v = step.pattern.values[0]
            out.update((c, v) for c in geo.regions[pivots[0]] if (c, v) not in alts)
        elif step.branches:
            cell = step.branches[0].cell
            out.update((cell, w) for w in range(1, geo.n + 1) if (cell, w) not in alts)
    return sorted(out)


def support(step: Step) -> Iterable[Effect]:
    """The candidates whose absence ``step`` relies on."""
    got: Iterable[Effect] | None = None
    if step.branches:
        got = trial_support(step)
    else:
        got = support_of(step)
    return default_support(step) if got is None else got


class _Replay:
    """The branch's board with, for every candidate removed, its source."""

    def __init__(self, board: Board) -> None:
        self.start = board
        self.board = board.copy()
        self.why: dict[Effect, Source] = {}
        self.placed: dict[int, Source] = {}

    def place(self, cell: int, value: int, src: Source) -> None:
        b, why = self.board, self.why
        self.placed[cell] = src
        for w in values_of(b.cands[cell]):
            why[(cell, w)] = src
        bit = 1 << (value - 1)
        for p in b.geo.peers[cell]:
            if b.cands[p] & bit:
                why[(p, value)] = src
        b.place(cell, value)

    def apply(self, line: int, step: Step) -> None:
        """As :meth:`Board.apply`, recording sources."""
        b = self.board
        for e, (c, v) in enumerate(step.placements):
            if not b.values[c]:
                self.place(c, v, (line, e))
        base = len(step.placements)
        for e, (c, v) in enumerate(step.eliminations):
            if b.cands[c] >> (v - 1) & 1:
                self.why[(c, v)] = (line, base + e)
                b.cands[c] &= ~(1 << (v - 1))

    def sources(self, absent: Iterable[Effect]) -> tuple[set[Source], set[Effect]]:
        """(sources, premises) of candidates known absent now."""
        srcs: set[Source] = set()
        premises: set[Effect] = set()
        why, start = self.why, self.start
        for c, v in absent:
            s = why.get((c, v))
            if s is not None:
                srcs.add(s)
            elif not start.values[c] and start.cands[c] >> (v - 1) & 1:
                continue  # still a candidate: not something the step relied on
            else:
                premises.add((c, v))
        return srcs, premises


def _conflict_absences(board: Board, conflict: Conflict) -> list[Effect]:
    geo = board.geo
    if conflict.region is None:
        return [(c, w) for c in conflict.cells for w in range(1, geo.n + 1)]
    v = conflict.value or 0
    return [(c, v) for c in geo.regions[conflict.region]]


def _end(r: _Replay, conflict: Conflict | None,
         targets: Sequence[Target]) -> tuple[set[Source], set[Effect]]:
    if conflict is not None:
        if conflict.region is not None and len(conflict.cells) == 2:
            # a value placed twice in a region: the two placements
            srcs = {r.placed[c] for c in conflict.cells if c in r.placed}
            return srcs, set()
        return r.sources(_conflict_absences(r.board, conflict))
    found: set[Source] = set()
    premises: set[Effect] = set()
    for placed, c, v in targets:
        if placed:
            if c in r.placed:
                found.add(r.placed[c])
        else:
            s, p = r.sources([(c, v)])
            found |= s
            premises |= p
    return found, premises


def build_chain(board: Board, cell: int, value: int, steps: Sequence[Step],
                conflict: Conflict | None, targets: Sequence[Target] = ()) -> Chain:
    """The minimal chain of the branch ``cell <- value`` from ``board`` whose
    propagation applied ``steps`` and ended in ``conflict`` (or reached
    ``targets``)."""
    r = _Replay(board)
    r.place(cell, value, (0, 0))
    uses: list[set[Source]] = [set()]
    premises: list[set[Effect]] = [set()]
    for line, step in enumerate(steps, start=1):
        s, p = r.sources(support(step))
        uses.append(s)
        premises.append(p)
        r.apply(line, step)
    end, end_premises = _end(r, conflict, targets)
    # the ancestors of the end: which effects of which lines are needed
    needed: dict[int, set[int]] = {}
    todo = list(end)
    while todo:
        line, e = todo.pop()
        got = needed.setdefault(line, set())
        if e in got:
            continue
        got.add(e)
        if len(got) == 1:
            todo.extend(uses[line])
    number = {0: 0}
    links: list[Link] = []
    chain_premises = set(end_premises)
    for line in sorted(k for k in needed if k):
        step = steps[line - 1]
        effects = needed[line]
        npl = len(step.placements)
        number[line] = len(links) + 1
        chain_premises |= premises[line]
        links.append(Link(
            index=len(links) + 1, step=step,
            placements=tuple(x for i, x in enumerate(step.placements) if i in effects),
            eliminations=tuple(x for i, x in enumerate(step.eliminations) if i + npl in effects),
            uses=tuple(sorted({number[k] for k, _ in uses[line]}))))
    return Chain(links=tuple(links), end=tuple(sorted({number[k] for k, _ in end})),
                 premises=tuple(sorted(chain_premises)), steps=tuple(steps), conflict=conflict)


# -- a short derivation to draw the chain from ---------------------------------------
def conflicts(board: Board) -> list[Conflict]:
    """Every contradiction on ``board``: values placed twice, cells without a
    candidate, values without a place (regions in order, values ascending)."""
    geo = board.geo
    vals, cands = board.values, board.cands
    out: list[Conflict] = []
    dup = board.conflicts()
    if dup is not None:
        out.append(Conflict(dup.reason, dup.cells, dup.region, dup.value))
    for c in range(geo.ncells):
        if not vals[c] and not cands[c]:
            out.append(Conflict(f"cell {geo.cell_name(c)} has no candidate left", cells=(c,)))
    for r, cells in enumerate(geo.regions):
        have = 0
        for c in cells:
            have |= cands[c] | (1 << (vals[c] - 1) if vals[c] else 0)
        for v in values_of(geo.full & ~have):
            out.append(Conflict(f"{geo.symbol(v)} has no place left in "
                                f"{geo.region_long_name(r)}", region=r, value=v))
    return out


def holds(board: Board, target: Target) -> bool:
    placed, c, v = target
    if placed:
        return board.values[c] == v
    return board.values[c] != v and not board.cands[c] >> (v - 1) & 1


def _fits(board: Board, step: Step) -> bool:
    """Whether ``step`` can be applied now: it makes progress, what it places
    is still a candidate, and (a trial found elsewhere) what it rests on holds."""
    if not board.progress(step):
        return False
    for c, v in step.placements:
        if not board.values[c] and not board.cands[c] >> (v - 1) & 1:
            return False
    if step.branches:
        return all(not board.cands[c] >> (v - 1) & 1 for c, v in support(step))
    return True


class _Costs:
    """The ancestors of every line of a derivation being recorded (a bitmask
    of line numbers, the line itself included): what drawing its chain would
    keep if it ended at that line."""

    def __init__(self, board: Board, cell: int, value: int) -> None:
        self.replay = _Replay(board)
        self.replay.place(cell, value, (0, 0))
        self.anc = [1]

    def _mask(self, step: Step) -> int:
        srcs, _ = self.replay.sources(support(step))
        m = 0
        for line, _e in srcs:
            m |= self.anc[line]
        return m

    def cost(self, step: Step) -> int:
        """How many lines ``step`` would rest on, itself included."""
        return self._mask(step).bit_count() + 1

    def add(self, step: Step) -> None:
        line = len(self.anc)
        self.anc.append(self._mask(step) | 1 << line)
        self.replay.apply(line, step)


def _moving(b: Board, plain: tuple[Rule, ...]) -> list[Rule]:
    """The rules of ``plain`` that may make progress on ``b``: those the
    kernel probes and finds moving, and every rule it does not probe."""
    from grader.strategy.propagate import plan

    out: list[Rule] = []
    rest = plain
    while rest:
        order, first = plan(b, rest)
        if first is None:
            out.extend(rest)
            break
        out.extend(rest[i] for i in order)
        if first < 0:
            break
        rest = rest[first + 1:]
    return sorted(dict.fromkeys(out), key=plain.index)


def _cheapest_plain(b: Board, plain: tuple[Rule, ...], costs: _Costs) -> Step | None:
    """The step of a plain rule resting on the fewest lines (the first of
    equals, rules by level)."""
    found = [s for r in _moving(b, plain) for s in r.find(b) if b.progress(s)]
    return min(found, key=costs.cost) if found else None


def record_rounds(board: Board, cell: int, value: int, rules: Sequence[Rule],
                  targets: Sequence[Target] = (), kept: Sequence[Step] | None = None,
                  limit: int = 10_000) -> tuple[list[Step], Board]:
    """Propagate the assumption breadth first (mutates nothing): every single
    the position offers is applied in one round, those resting on fewer lines
    first; when there is none, the step of another plain rule that rests on
    the fewest lines (see :class:`_Costs`); when the plain rules are stuck, the trial steps
    (with ``kept``: only those of ``kept`` whose premises hold, in order).
    Stops at a contradiction or once every one of ``targets`` holds.
    Returns the steps and the final board."""
    from grader.kernel import kernel_of
    from grader.strategy.propagate import SINGLES, next_step_of

    b = board.copy()
    b.place(cell, value)
    costs = _Costs(board, cell, value)
    contradiction = kernel_of(rules).contradiction
    ordered = sorted(rules, key=lambda r: r.level)
    singles = [r for r in ordered if r.family in SINGLES]
    plain = tuple(r for r in ordered if r.family not in SINGLES and r.kind != "trial")
    trials = tuple(r for r in ordered if r.kind == "trial")
    steps: list[Step] = []
    pending = list(kept) if kept is not None else []
    while len(steps) < limit:
        if contradiction(b) is not None or targets and all(holds(b, t) for t in targets):
            break
        found = sorted((s for r in singles for s in r.find(b)), key=costs.cost)
        applied = False
        for s in found:
            if _fits(b, s):
                b.apply(s)
                costs.add(s)
                steps.append(s)
                applied = True
                if contradiction(b) is not None:
                    break
        if applied:
            continue
        step = _cheapest_plain(b, plain, costs) if plain else None
        if step is None and kept is not None:
            step = next((s for s in pending if _fits(b, s)), None)
            if step is not None:
                pending.remove(step)
        elif step is None and trials:
            step = next_step_of(b, trials)
        if step is None:
            break
        b.apply(step)
        costs.add(step)
        steps.append(step)
    return steps, b


def _best(board: Board, cell: int, value: int, steps: Sequence[Step], final: Board,
          targets: Sequence[Target]) -> tuple[Chain, Conflict | None]:
    """The shortest chain over the contradictions ``final`` shows (or to
    ``targets`` when it shows none)."""
    found = conflicts(final)
    if not found:
        return build_chain(board, cell, value, steps, None, targets), None
    best: tuple[Chain, Conflict] | None = None
    for k in found:
        chain = build_chain(board, cell, value, steps, k)
        if best is None or len(chain.links) < len(best[0].links):
            best = (chain, k)
    assert best is not None
    return best
