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
from .propagate import fixpoint, singles_fixpoint
from .rule import Rule


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


def _solver_rules() -> tuple[Rule, ...]:
    """The propagation of the search on grids of 12x12 and more: singles,
    candidate lines, naked and hidden pairs (as the C solver)."""
    from .hierarchy import RuleSpec
    from .plugins import rule_class

    specs = [RuleSpec(code="single-position", level=1),
             RuleSpec(code="single-candidate", level=2),
             RuleSpec(code="candidate-lines", level=3),
             RuleSpec(code="naked-pair", level=5, plugin="naked-subset",
                      params={"min_size": 2, "max_size": 2}),
             RuleSpec(code="hidden-pair", level=7, plugin="hidden-subset",
                      params={"min_size": 2, "max_size": 2})]
    return tuple(rule_class(s.plugin)(s) for s in specs)


#: Grids from this side on propagate with lines and pairs during the search.
BIG = 12


def solve_python(geo: Geometry, values: Sequence[int], limit: int = 2,
                 max_nodes: int | None = None) -> SolveResult:
    """The pure-Python implementation of :func:`solve`: the same search as
    the C one (same propagation, same branching, same order of solutions)."""
    init = _initial(geo, values)
    if init is None:
        return SolveResult(0, (), 0, limit)
    vals, cands = init
    rules = _solver_rules() if geo.n >= BIG else None
    regions = geo.regions
    found: list[tuple[int, ...]] = []
    nodes = 0
    stack = [(vals, cands)]
    while stack:
        vals, cands = stack.pop()
        nodes += 1
        if max_nodes is not None and nodes > max_nodes:
            break
        if rules is not None:
            if fixpoint(Board(geo, vals, cands), rules) is not None:
                continue
        elif not _propagate(geo, vals, cands):
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
