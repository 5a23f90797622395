"""Propagation to a fixpoint, as trials (levels 13-14) need it.

Two modes compute the same closure (the rules are monotonic):

* :func:`fixpoint` is the fast one, used to *decide* what a branch reaches.
  Singles run in a tight queue-driven loop; other rules apply every step they
  find in one pass, then singles run again.
* :func:`record_chain` applies one step at a time with the minimal-level
  strategy and records the steps, for the explanation of a trial that worked.

A contradiction is an empty cell with no candidate, a value with no place
left in a region, or a value placed twice in a region.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .board import Board
from .rule import Rule
from .steps import Conflict, Step

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
                conflict = board.contradiction()
                if conflict is not None:
                    return Conflict(conflict.reason, conflict.cells, conflict.region,
                                    conflict.value)
                break
        if not progress:
            if not fast:
                conflict = board.contradiction()
                if conflict is not None:
                    return Conflict(conflict.reason, conflict.cells, conflict.region,
                                    conflict.value)
            return None


def record_chain(board: Board, rules: Sequence[Rule],
                 stop: Callable[[Board], bool] | None = None,
                 limit: int = 10_000) -> tuple[list[Step], Conflict | None]:
    """Minimal-level propagation that records its steps (mutates ``board``).

    Stops at the first contradiction, when ``stop(board)`` holds, or at the
    fixpoint."""
    steps: list[Step] = []
    ordered = sorted(rules, key=lambda r: r.level)
    while len(steps) < limit:
        c = board.contradiction()
        if c is not None:
            return steps, Conflict(c.reason, c.cells, c.region, c.value)
        if stop is not None and stop(board):
            return steps, None
        for rule in ordered:
            applied = False
            for step in rule.find(board):
                if board.progress(step):
                    board.apply(step)
                    steps.append(step)
                    applied = True
                    break
            if applied:
                break
        else:
            return steps, None
    return steps, None
