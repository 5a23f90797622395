"""The exact solver in pure Python: bitmask backtracking with naked and
hidden singles (and, from 12x12 on, candidate lines and pairs), branching on
the fewest candidates, counting solutions up to a limit.  The same search as
the C kernel's (same propagation, same branching, same order of solutions,
the same nodes)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from grader.core.board import Board
from grader.core.geometry import Geometry
from grader.kernel.python import singles_fixpoint


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
