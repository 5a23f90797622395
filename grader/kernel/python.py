"""The pure-Python reference of what the C accelerator computes.

The :class:`~grader.kernel.PythonKernel` runs these; the C kernel computes
the same results (the tests compare both on every grid size):

* :func:`fixpoint`: propagation of rules to a fixpoint (singles in a tight
  queue-driven loop, other rules applying every step they find in a pass);
* :func:`reductio_first` and :func:`disjunction_first`: the trial searches;
* the exact solver is :mod:`grader.kernel.solver`.

A contradiction is an empty cell with no candidate, a value with no place
left in a region, or a value placed twice in a region.
"""

from __future__ import annotations

from collections.abc import Sequence

from grader.core.board import Board
from grader.core.rule import Rule
from grader.core.steps import Conflict

SINGLES = ("single-position", "single-candidate")


def has_fast_singles(rules: Sequence[Rule]) -> bool:
    fams = {r.family for r in rules}
    return all(f in fams for f in SINGLES)


def _cell_conflict(board: Board, cell: int) -> Conflict:
    return Conflict(f"cell {board.geo.cell_name(cell)} has no candidate left", cells=(cell,))


def _region_conflict(board: Board, region: int, missing: int) -> Conflict:
    geo = board.geo
    v = (missing & -missing).bit_length()
    return Conflict(f"{geo.symbol(v)} has no place left in {geo.region_long_name(region)}",
                    region=region, value=v)


def singles_fixpoint(board: Board) -> Conflict | None:
    """Apply naked and hidden singles until none is left (mutates ``board``)."""
    geo = board.geo
    vals, cands = board.values, board.cands
    peers, regions, cell_regions = geo.peers, geo.regions, geo.cell_regions
    full = geo.full
    nreg = len(regions)
    dirty = [True] * nreg
    stack = [c for c in range(geo.ncells) if not vals[c] and not cands[c] & (cands[c] - 1)]
    while True:
        while stack:
            c = stack.pop()
            if vals[c]:
                continue
            m = cands[c]
            if not m:
                return _cell_conflict(board, c)
            v = m.bit_length()
            vals[c] = v
            cands[c] = 0
            r0, r1, r2 = cell_regions[c]
            dirty[r0] = dirty[r1] = dirty[r2] = True
            for p in peers[c]:
                pm = cands[p]
                if pm & m:
                    pm ^= m
                    cands[p] = pm
                    if not pm & (pm - 1):
                        if not pm:
                            return _cell_conflict(board, p)
                        stack.append(p)
                    q0, q1, q2 = cell_regions[p]
                    dirty[q0] = dirty[q1] = dirty[q2] = True
        found = False
        for r in range(nreg):
            if not dirty[r]:
                continue
            dirty[r] = False
            once = twice = placed = 0
            cells = regions[r]
            for c in cells:
                m = cands[c]
                if m:
                    twice |= once & m
                    once |= m
                else:
                    v = vals[c]
                    if v:
                        b = 1 << (v - 1)
                        if placed & b:
                            return Conflict(
                                f"{geo.symbol(v)} is placed twice in {geo.region_long_name(r)}",
                                region=r, value=v)
                        placed |= b
                    else:
                        return _cell_conflict(board, c)
            missing = full & ~(once | placed)
            if missing:
                return _region_conflict(board, r, missing)
            hidden = once & ~twice
            while hidden:
                bit = hidden & -hidden
                hidden ^= bit
                for c in cells:
                    if cands[c] & bit:
                        # place through the naked-single path
                        cands[c] = bit
                        stack.append(c)
                        found = True
                        break
            if found:
                break
        if not found and not stack:
            return None


def fixpoint(board: Board, rules: Sequence[Rule]) -> Conflict | None:
    """Apply ``rules`` to a fixpoint (mutates ``board``); the first
    contradiction reached, or None."""
    fast = has_fast_singles(rules)
    others = [r for r in rules if not (fast and r.family in SINGLES)]
    while True:
        if fast:
            conflict = singles_fixpoint(board)
            if conflict is not None:
                return conflict
        progress = False
        for rule in others:
            if rule.kind == "trial":
                for step in rule.find(board):
                    if board.progress(step):
                        board.apply(step)
                        progress = True
                        break
            else:
                steps = list(rule.find(board))
                for step in steps:
                    if board.progress(step):
                        board.apply(step)
                        progress = True
            if progress:
                bad = board.contradiction()
                if bad is not None:
                    return Conflict(bad.reason, bad.cells, bad.region, bad.value)
                break
        if not progress:
            if not fast:
                bad = board.contradiction()
                if bad is not None:
                    return Conflict(bad.reason, bad.cells, bad.region, bad.value)
            return None


# -- trial searches ------------------------------------------------------------
def reductio_first(board: Board, rules: Sequence[Rule], solution: Sequence[int] | None,
                   start: int) -> tuple[int, int] | None:
    """First candidate (cell order, values ascending) at or after position
    ``start`` (``cell * 64 + value``) whose assumption ends in a contradiction
    when ``rules`` propagate it; candidates agreeing with ``solution`` are
    skipped (they never can)."""
    vals, cands = board.values, board.cands
    for cell in range(start // 64, board.geo.ncells):
        if vals[cell]:
            continue
        m = cands[cell]
        while m:
            bit = m & -m
            m ^= bit
            v = bit.bit_length()
            if cell * 64 + v < start or (solution is not None and solution[cell] == v):
                continue
            trial = board.copy()
            trial.place(cell, v)
            if fixpoint(trial, rules) is not None:
                return cell, v
    return None


Pivot = tuple[int, tuple[tuple[int, int], ...]]


def pivots(board: Board, max_alt: int) -> list[Pivot]:
    """(region or -1, alternatives) of every pivot: by number of alternatives
    (2 to ``max_alt``), cells (cell order) before region values (regions in
    order, values ascending), the same alternatives only once."""
    geo = board.geo
    vals, cands = board.values, board.cands
    out: list[Pivot] = []
    for k in range(2, max_alt + 1):
        for cell in range(geo.ncells):
            if not vals[cell] and cands[cell].bit_count() == k:
                out.append((-1, tuple((cell, v) for v in board.candidates(cell))))
        seen: set[tuple[tuple[int, int], ...]] = set()
        for r, cells in enumerate(geo.regions):
            for v in range(1, geo.n + 1):
                bit = 1 << (v - 1)
                alts = tuple((c, v) for c in cells if cands[c] & bit)
                if len(alts) == k and alts not in seen:
                    seen.add(alts)
                    out.append((r, alts))
    return out


def first_conclusion(board: Board, alts: Sequence[tuple[int, int]], alive: Sequence[int],
                     survivors: Sequence[Board]) -> tuple[str, int, int] | None:
    """The first thing a pivot proves, from the closures of its ``alive``
    alternatives: ("elim", first alternative) when every alternative ends in
    a contradiction, ("place", the survivor) when one is left, else the first
    placement every survivor makes (cell order), else the first candidate
    every survivor removes (cell order, smallest value); None: nothing."""
    if not survivors:
        return "elim", alts[0][0], alts[0][1]
    if len(survivors) == 1:
        return "place", alts[alive[0]][0], alts[alive[0]][1]
    vals, cands = board.values, board.cands
    for c in range(board.geo.ncells):
        v = survivors[0].values[c]
        if not vals[c] and v and all(s.values[c] == v for s in survivors[1:]):
            return "place", c, v
    for c in range(board.geo.ncells):
        m = cands[c]
        for s in survivors:
            m &= ~s.cands[c]
            if s.values[c]:
                m &= ~(1 << (s.values[c] - 1))
        if m:
            return "elim", c, (m & -m).bit_length()
    return None


def disjunction_first(board: Board, rules: Sequence[Rule], solution: Sequence[int] | None,
                      max_alt: int, start: int,
                      ) -> tuple[int, str, int, int, int, list[tuple[int, int]], int, None] | None:
    """First pivot at or after index ``start`` (see :func:`pivots`) whose
    branches, propagated with ``rules``, prove something: (index, "place" |
    "elim", cell, value, region or -1, alternatives, bitmask of the
    alternatives that end in a contradiction).  ``solution`` only saves work."""
    del solution  # the C kernel uses it to skip work; the answer is the same
    found = pivots(board, max_alt)
    for idx in range(start, len(found)):
        region, alts = found[idx]
        survivors: list[Board] = []
        alive: list[int] = []
        for i, (cell, v) in enumerate(alts):
            trial = board.copy()
            trial.place(cell, v)
            if fixpoint(trial, rules) is None:
                survivors.append(trial)
                alive.append(i)
        first = first_conclusion(board, alts, alive, survivors)
        if first is not None:
            kind, cell, value = first
            dead = sum(1 << i for i in range(len(alts)) if i not in alive)
            return idx, kind, cell, value, region, list(alts), dead, None
    return None
