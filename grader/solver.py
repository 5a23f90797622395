"""The fast exact solver: bitmask backtracking with naked and hidden singles,
minimum-remaining-values branching, counting solutions up to a limit.

This is the ``native`` engine: the grader uses it to give every grid its
verdict before grading, and the debug mode checks every step against the
solution it finds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import native
from .board import Board
from .geometry import Geometry
from .propagate import singles_fixpoint


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


def solve(geo: Geometry, values: Sequence[int], limit: int = 2,
          max_nodes: int | None = None) -> SolveResult:
    """Count the solutions of the grid ``values`` (0 = empty) up to ``limit``.

    ``max_nodes`` bounds the search (``count`` is then a lower bound and
    ``nodes`` exceeds it)."""
    fast = native.solve(geo, values, limit, max_nodes)
    if fast is not None:
        count, sols, nodes = fast
        return SolveResult(count, tuple(tuple(s) for s in sols), nodes, limit)
    return solve_python(geo, values, limit, max_nodes)


def solve_python(geo: Geometry, values: Sequence[int], limit: int = 2,
                 max_nodes: int | None = None) -> SolveResult:
    """The pure-Python implementation of :func:`solve`."""
    init = _initial(geo, values)
    if init is None:
        return SolveResult(0, (), 0, limit)
    vals, cands = init
    found: list[tuple[int, ...]] = []
    nodes = 0
    stack = [(vals, cands)]
    while stack:
        vals, cands = stack.pop()
        nodes += 1
        if max_nodes is not None and nodes > max_nodes:
            break
        if not _propagate(geo, vals, cands):
            continue
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
        m = cands[best]
        # push in reverse so that smaller values are explored first
        opts = []
        while m:
            bit = m & -m
            m ^= bit
            opts.append(bit)
        for bit in reversed(opts):
            nv = vals[:]
            nc = cands[:]
            nc[best] = bit
            stack.append((nv, nc))
    return SolveResult(len(found), tuple(found), nodes, limit)
