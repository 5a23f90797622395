"""The pure-Python reference of what the C accelerator computes.

The :class:`~grader.kernel.PythonKernel` runs these; the C kernel computes
the same results (the tests compare both on every grid size):

* :func:`fixpoint`: propagation of rules to a fixpoint (singles in a tight
  queue-driven loop, other rules applying every step they find in a pass);
* :func:`reductio_first` and :func:`disjunction_first`: the trial searches;
* :func:`solve_python`: the exact solver.

A contradiction is an empty cell with no candidate, a value with no place
left in a region, or a value placed twice in a region.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from grader.core.board import Board
from grader.core.geometry import Geometry
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


@dataclass(frozen=True)
class SolveResult:
    """``count`` solutions found (stopped at ``limit``); ``solutions`` holds
    them (values per cell) in the order found; ``nodes`` is the number of
    search nodes visited."""

    count: int
    solutions: tuple[tuple[int, ...], ...]
    nodes: int
    limit: int

    @property
    def solution(self) -> tuple[int, ...] | None:
        return self.solutions[0] if self.solutions else None

    @property
    def unique(self) -> bool:
        return self.count == 1


def _initial(geo: Geometry, values: Sequence[int]) -> tuple[list[int], list[int]] | None:
    full = geo.full
    vals = list(values)
    cands = [0 if v else full for v in vals]
    peers = geo.peers
    for c, v in enumerate(vals):
        if v:
            bit = 1 << (v - 1)
            for p in peers[c]:
                if vals[p] == v:
                    return None
                cands[p] &= ~bit
    return vals, cands


def _propagate(geo: Geometry, vals: list[int], cands: list[int]) -> bool:
    """Naked and hidden singles to a fixpoint; False on a contradiction."""
    return singles_fixpoint(Board(geo, vals, cands)) is None


def _lines_and_pairs(geo: Geometry, cands: list[int]) -> bool:
    """One pass of candidate lines (both directions), naked pairs and hidden
    pairs, every deduction applied: the propagation the C solver adds on
    grids of 12x12 and more.  True when a candidate went."""
    before = cands[:]
    rows, cols, blk_of = geo.cell_row, geo.cell_col, geo.cell_block
    for r, cells in enumerate(geo.regions):
        for v_bit in _bits(_union(cands, cells)):
            pos = [c for c in cells if cands[c] & v_bit]
            if geo.region_kind[r] == 2:  # a block: confined to a row or a column
                for line_of, lines in ((rows, geo.rows), (cols, geo.cols)):
                    if len({line_of[c] for c in pos}) == 1:
                        for c in lines[line_of[pos[0]]]:
                            if blk_of[c] != blk_of[pos[0]]:
                                cands[c] &= ~v_bit
            elif len({blk_of[c] for c in pos}) == 1:  # a line: confined to a block
                for c in geo.blocks[blk_of[pos[0]]]:
                    if c not in geo.region_set[r]:
                        cands[c] &= ~v_bit
        _pairs(cells, cands)
    return cands != before


def _union(cands: list[int], cells: Sequence[int]) -> int:
    u = 0
    for c in cells:
        u |= cands[c]
    return u


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def _pairs(cells: Sequence[int], cands: list[int]) -> None:
    """Naked pairs, then hidden pairs, in one region."""
    two = [c for c in cells if cands[c].bit_count() == 2]
    for i, a in enumerate(two):
        for b in two[i + 1:]:
            if cands[a] == cands[b]:
                for c in cells:
                    if c not in (a, b):
                        cands[c] &= ~cands[a]
    places: dict[tuple[int, ...], int] = {}
    for v_bit in _bits(_union(cands, cells)):
        pos = tuple(c for c in cells if cands[c] & v_bit)
        if len(pos) == 2:
            places[pos] = places.get(pos, 0) | v_bit
    for pos, vm in places.items():
        if vm.bit_count() == 2:
            for c in pos:
                cands[c] &= vm


def _solver_fixpoint(geo: Geometry, vals: list[int], cands: list[int]) -> bool:
    """Singles, candidate lines and pairs to a fixpoint; False on a contradiction."""
    while True:
        if singles_fixpoint(Board(geo, vals, cands)) is not None:
            return False
        if not _lines_and_pairs(geo, cands):
            return True


#: Grids from this side on propagate with lines and pairs during the search.
BIG = 12


def solve_python(geo: Geometry, values: Sequence[int], limit: int = 2,
                 max_nodes: int | None = None) -> SolveResult:
    """The pure-Python implementation of :func:`grader.kernel.solve`: the same search as
    the C one (same propagation, same branching, same order of solutions)."""
    init = _initial(geo, values)
    if init is None:
        return SolveResult(0, (), 0, limit)
    vals, cands = init
    big = geo.n >= BIG
    regions = geo.regions
    found: list[tuple[int, ...]] = []
    nodes = 0
    stack = [(vals, cands)]
    while stack:
        vals, cands = stack.pop()
        nodes += 1
        if max_nodes is not None and nodes > max_nodes:
            break
        if not (_solver_fixpoint(geo, vals, cands) if big else _propagate(geo, vals, cands)):
            continue
        # branch on the cell with fewest candidates, or on the value with
        # fewest places in a region when that is fewer
        best = -1
        best_n = 99
        for c, m in enumerate(cands):
            if m:
                k = m.bit_count()
                if k < best_n:
                    best, best_n = c, k
                    if k == 2:
                        break
        if best < 0:
            found.append(tuple(vals))
            if len(found) >= limit:
                break
            continue
        breg = -1
        bbit = 0
        if best_n > 2:
            for r, cells in enumerate(regions):
                if best_n <= 2:
                    break
                uni = 0
                for c in cells:
                    uni |= cands[c]
                while uni:
                    bit = uni & -uni
                    uni ^= bit
                    k = sum(1 for c in cells if cands[c] & bit)
                    if k < best_n:
                        best_n, breg, bbit = k, r, bit
                        if k == 2:
                            break
        children: list[tuple[int, int]] = []  # (cell, bit) in the order to explore
        if breg >= 0:
            children = [(c, bbit) for c in regions[breg] if cands[c] & bbit]
        else:
            m = cands[best]
            while m:
                bit = m & -m
                m ^= bit
                children.append((best, bit))
        for c, bit in reversed(children):  # the stack pops the first child first
            nv = vals[:]
            nc = cands[:]
            nc[c] = bit
            stack.append((nv, nc))
    return SolveResult(len(found), tuple(found), nodes, limit)


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
