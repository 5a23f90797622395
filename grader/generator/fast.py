"""A fast, exact shortcut for the easy part of a grade.

Single position (level 1) and single candidate (level 2) only place values,
and placing values only removes candidates, so applying them in any order
reaches the same fixpoint.  Hence:

* the hidden-single closure solves a grid  <=>  its level is 1;
* the closure of both singles solves it     <=>  its level is <= 2;
* otherwise the minimal-level strategy reaches exactly that closure before
  its first step of level 3 or more, so grading the closure gives the same
  level as grading the grid.

The generator uses this to grade most of the grids it looks at without
running the full engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from grader.core.board import Board
from grader.core.geometry import Geometry
from grader.core.rule import Rule
from grader.kernel import c as native
from grader.kernel.c import Program
from grader.strategy.engine import Engine
from grader.strategy.propagate import fixpoint


def singles_closure(geo: Geometry, values: Sequence[int]) -> tuple[int, list[int], int]:
    """``(level, values, filled_by_level_1)``: the level (0 solved, 1 or 2)
    when the singles solve the grid, else 3 (meaning "3 or more") with the
    values of the closure; -1 on a contradiction.  ``filled_by_level_1``
    counts the cells the hidden singles alone fill."""
    vals = list(values)
    full = geo.full
    peers, regions = geo.peers, geo.regions
    cands = [0 if v else full for v in vals]
    for c, v in enumerate(vals):
        if v:
            nb = ~(1 << (v - 1))
            for p in peers[c]:
                cands[p] &= nb
    empty = sum(1 for v in vals if not v)
    if empty == 0:
        return 0, vals, 0

    def place(c: int, bit: int) -> bool:
        vals[c] = bit.bit_length()
        cands[c] = 0
        nb = ~bit
        for p in peers[c]:
            if cands[p] & bit:
                cands[p] &= nb
                if not cands[p] and not vals[p]:
                    return False
        return True

    def hidden_pass() -> int:
        placed = 0
        for cells in regions:
            once = twice = 0
            for c in cells:
                m = cands[c]
                twice |= once & m
                once |= m
            hidden = once & ~twice
            while hidden:
                bit = hidden & -hidden
                hidden ^= bit
                for c in cells:
                    if cands[c] & bit:
                        if not place(c, bit):
                            return -1
                        placed += 1
                        break
        return placed

    left = empty
    while left:
        k = hidden_pass()
        if k < 0:
            return -1, vals, 0
        if k == 0:
            break
        left -= k
    by_level1 = empty - left
    if not left:
        return 1, vals, by_level1
    while left:
        k = 0
        for c in range(geo.ncells):
            m = cands[c]
            if m and not m & (m - 1):
                if not place(c, m):
                    return -1, vals, by_level1
                k += 1
        h = hidden_pass()
        if h < 0:
            return -1, vals, by_level1
        k += h
        if k == 0:
            break
        left -= k
    return (2 if not left else 3), vals, by_level1


class Closures:
    """Fixpoints of the non-trial rules up to a level, on a grid's givens.

    The rules are monotonic, so the minimal-level strategy solves a grid
    with levels ``<= L`` exactly when the fixpoint of the rules of levels
    ``<= L`` is solved; the grid's level is the smallest such ``L``.  The
    fixpoint runs in the core's C accelerator when it is built
    (:func:`grader.kernel.c.program`), else in :func:`grader.strategy.propagate.fixpoint`.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.plain = tuple(r for r in engine.rules(1) if r.kind != "trial")
        self.levels = sorted({r.level for r in self.plain})
        self._cache: dict[int, tuple[tuple[Rule, ...], Program | None]] = {}

    def covers(self, cap: int) -> bool:
        """Whether the rules up to ``cap`` are all plain (no trials)."""
        return all(r.kind != "trial" for r in self.engine.rules(1) if r.level <= cap)

    def _rules(self, cap: int) -> tuple[tuple[Rule, ...], Program | None]:
        got = self._cache.get(cap)
        if got is None:
            rules = tuple(r for r in self.plain if r.level <= cap)
            got = (rules, native.program(rules))
            self._cache[cap] = got
        return got

    def fixpoint(self, geo: Geometry, values: Sequence[int], cap: int) -> tuple[Board, bool]:
        """The board at the fixpoint of levels ``<= cap``, and whether it
        holds a contradiction."""
        board = Board.from_values(geo, values)
        rules, prog = self._rules(cap)
        if prog is not None:
            return board, prog.closure(board)
        return board, fixpoint(board, rules) is not None

    def run(self, geo: Geometry, values: Sequence[int], cap: int) -> tuple[bool, int]:
        """``(solved, empty cells left)`` at the fixpoint of levels ``<= cap``."""
        board, conflict = self.fixpoint(geo, values, cap)
        left = sum(1 for v in board.values if not v)
        return (left == 0 and not conflict), left

    def level(self, geo: Geometry, values: Sequence[int], lo: int, hi: int) -> int | None:
        """The grid's level if it lies in ``lo..hi`` (levels of plain rules),
        else None; the caller knows the level is at least ``lo``."""
        for cap in self.levels:
            if lo <= cap <= hi and self.run(geo, values, cap)[0]:
                return cap
        return None
