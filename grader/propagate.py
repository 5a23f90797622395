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
from functools import lru_cache

from . import native
from .board import Board
from .rule import Rule
from .steps import Conflict, Step

SINGLES = ("single-position", "single-candidate")


@lru_cache(maxsize=256)
def _native_descs(
        rules: tuple[Rule, ...]) -> tuple[tuple[int, ...], tuple[tuple[int, int, int], ...]]:
    """Positions and native descriptions of the non-trial rules the
    accelerator knows."""
    idx: list[int] = []
    descs: list[tuple[int, int, int]] = []
    for i, r in enumerate(rules):
        if r.kind == "trial":
            continue
        d = r.accelerated()
        if d is not None:
            idx.append(i)
            descs.append((int(d[0]), int(d[1]), int(d[2])))
    return tuple(idx), tuple(descs)


def plan(board: Board, rules: tuple[Rule, ...]) -> tuple[list[int], bool]:
    """Which rules to try, in order, to find the next step: the accelerator
    tells which of the rules it knows is the first that can make progress,
    so the others need not search.  Rules it does not know are always tried.
    Returns (positions, pruned); when ``pruned`` is False every rule is listed."""
    everything = list(range(len(rules)))
    if not native.available():
        return everything, False
    idx, descs = _native_descs(rules)
    if not descs:
        return everything, False
    f = native.first_progress(board, descs)
    first = idx[f] if f >= 0 else -1
    known = set(idx)
    return [i for i in everything if i not in known or i == first], True


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


@lru_cache(maxsize=256)
def _tail(rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
    return rules[1:]


def next_step_of(board: Board, rules: tuple[Rule, ...]) -> Step | None:
    """The first step, in the order of ``rules``, that makes progress."""
    if not rules:
        return None
    # the first rule is tried directly: it is the one that applies most often
    for step in rules[0].find(board):
        if board.progress(step):
            return step
    rest = _tail(rules)
    order, pruned = plan(board, rest)
    rules = rest
    for i in order:
        for step in rules[i].find(board):
            if board.progress(step):
                return step
    if pruned:  # pragma: no cover - the accelerator and the rules disagree
        for rule in rules:
            for step in rule.find(board):
                if board.progress(step):
                    return step
    return None


def record_chain(board: Board, rules: Sequence[Rule],
                 stop: Callable[[Board], bool] | None = None,
                 limit: int = 10_000) -> tuple[list[Step], Conflict | None]:
    """Minimal-level propagation that records its steps (mutates ``board``).

    Stops at the first contradiction, when ``stop(board)`` holds, or at the
    fixpoint."""
    steps: list[Step] = []
    ordered = tuple(sorted(rules, key=lambda r: r.level))
    while len(steps) < limit:
        c = board.contradiction()
        if c is not None:
            return steps, Conflict(c.reason, c.cells, c.region, c.value)
        if stop is not None and stop(board):
            return steps, None
        step = next_step_of(board, ordered)
        if step is None:
            return steps, None
        board.apply(step)
        steps.append(step)
    return steps, None
