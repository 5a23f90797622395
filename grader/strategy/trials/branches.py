"""Following the branches of a trial: the propagation phases, the closure
of an assumption, what a pivot's branches agree on, and a branch recorded
with its minimal chain (:mod:`grader.strategy.trials.chains`).  Shared by the two trial
rules of :mod:`grader.rules.trials`.
"""

from __future__ import annotations

from collections.abc import Sequence

from grader.core.board import Board
from grader.core.geometry import values_of
from grader.core.rule import Rule
from grader.core.steps import Branch, Conflict
from grader.kernel import Kernel
from grader.strategy.propagate import SINGLES, record_chain
from grader.strategy.trials.chains import Target, holds
from grader.strategy.trials.nested import short_chain

__all__ = ["UNRECORDED", "after", "closures", "common", "conclusions_of", "gives", "phases",
           "record_branch", "refuted", "solution_hint", "trial_name"]


def phases(rules: Sequence[Rule], depth: int) -> list[tuple[Rule, ...]]:
    """Propagation sets of growing strength.

    At depth 1: the singles, then every rule handed over (levels 1-12).  At
    depth 2 and more only the full set (plain rules and the inner trials):
    the weaker sets were already tried, and failed, at the depth below."""
    ordered = tuple(sorted(rules, key=lambda r: r.level))
    if depth > 1:
        return [ordered]
    singles = tuple(r for r in ordered if r.family in SINGLES)
    out: list[tuple[Rule, ...]] = []
    for phase in (singles, ordered):
        if phase and (not out or len(phase) > len(out[-1])):
            out.append(phase)
    return out


def record_branch(board: Board, cell: int, value: int, rules: Sequence[Rule],
                   targets: Sequence[Target] = ()) -> Branch:
    """Replay a branch step by step, stopping at the contradiction or once
    every one of ``targets`` holds; then draw its minimal chain."""
    b = board.copy()
    b.place(cell, value)

    def reached(bd: Board) -> bool:
        return bool(targets) and all(holds(bd, t) for t in targets)

    steps, conflict = record_chain(b, rules, stop=reached)
    chain, end = short_chain(board, cell, value, rules, targets)
    return Branch(cell=cell, value=value, steps=tuple(steps), conflict=end, chain=chain,
                  trace_conflict=conflict)


def common(board: Board, survivors: Sequence[Board]) -> list[Target]:
    """Every conclusion the surviving branches agree on: common placements in
    cell order, then the common eliminations those placements do not imply
    (cell order, values ascending)."""
    geo = board.geo
    vals, cands = board.values, board.cands
    places: list[Target] = []
    for c in range(geo.ncells):
        if vals[c]:
            continue
        v = survivors[0].values[c]
        if v and all(s.values[c] == v for s in survivors[1:]):
            places.append((True, c, v))
    placed = {c for _, c, _ in places}
    implied = {(p, v) for _, c, v in places for p in geo.peers[c]}
    elims: list[Target] = []
    for c in range(geo.ncells):
        m = cands[c]
        if not m or c in placed:
            continue
        for s in survivors:
            m &= ~s.cands[c]
            if s.values[c]:
                m &= ~(1 << (s.values[c] - 1))
            if not m:
                break
        elims.extend((False, c, v) for v in values_of(m) if (c, v) not in implied)
    return places + elims


def closures(board: Board, alts: Sequence[tuple[int, int]], live: Sequence[int],
             rules: Sequence[Rule], kernel: Kernel, hint: tuple[int, ...] | None,
             ) -> list[Board]:
    """The closures of the live alternatives (``kernel``'s); with one
    live alternative none is needed (it is the conclusion), a placeholder
    stands for it.  The solution hint only helps the alternative it agrees
    with (a false branch may contradict anywhere)."""
    if len(live) <= 1:
        return [board] * len(live)
    out = []
    for i in live:
        cell, v = alts[i]
        trial = board.copy()
        trial.place(cell, v)
        kernel.closure(trial, rules, hint if hint is not None and hint[cell] == v else None)
        out.append(trial)
    return out


def conclusions_of(board: Board, alts: Sequence[tuple[int, int]],
                    survivors: Sequence[Board], alive: Sequence[int]) -> list[Target]:
    """What a pivot proves: nothing (empty), the survivor when every other
    alternative ends in a contradiction, else every common conclusion."""
    if not survivors:
        # every alternative is impossible: the position is contradictory,
        # so anything follows; report the first alternative as excluded.
        return [(False, alts[0][0], alts[0][1])]
    if len(survivors) == 1:
        cell, v = alts[alive[0]]
        return [(True, cell, v)]
    return common(board, survivors)


def solution_hint(board: Board) -> tuple[int, ...] | None:
    """The solution the engine attached to ``board`` (see
    :meth:`grader.strategy.engine.Engine.attach_solution`): an assumption that agrees
    with it can never end in a contradiction, so trials skip it.  It only
    saves work; the steps found are the same without it."""
    return board.solution


def after(board: Board, cell: int, v: int, rules: Sequence[Rule],
          kernel: Kernel) -> Board | None:
    """The closure (``kernel``'s) of ``board`` with ``cell <- v``, or None when
    it ends in a contradiction."""
    trial = board.copy()
    trial.place(cell, v)
    hint = solution_hint(board)
    bad = kernel.closure(trial, rules, hint if hint is not None and hint[cell] == v else None)
    return None if bad else trial


def refuted(board: Board, cell: int, v: int, rules: Sequence[Rule], kernel: Kernel) -> bool:
    return after(board, cell, v, rules, kernel) is None


def gives(board: Board, conclusions: Sequence[Target], targets: Sequence[Target]) -> bool:
    """Whether applying ``conclusions`` to ``board`` makes one of ``targets`` hold."""
    after = board.copy()
    for placed, c, v in conclusions:
        if placed:
            after.place(c, v)
        else:
            after.cands[c] &= ~(1 << (v - 1))
    return any(holds(after, t) for t in targets)


def trial_name(depth: int, name: str) -> str:
    """The name players give a trial: forcing chains (from a cell's or a
    region's alternatives) or a contradiction forcing chain (from one
    assumption), nested when the chains themselves use trials.  The engine
    names a trial after the pattern it shows when one does (an XY-Wing...)."""
    return f"nested {name}" if depth > 1 else name


#: The conflict of a branch whose chain was not recorded.
UNRECORDED = Conflict("a contradiction")
