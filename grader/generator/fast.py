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
running the full engine (:meth:`Closures.singles`, stepped by the kernel).
"""

from __future__ import annotations

from collections.abc import Sequence

from grader.core.board import Board
from grader.core.geometry import Geometry
from grader.core.rule import Rule
from grader.kernel import c as native
from grader.kernel.c import Program
from grader.strategy.engine import Engine
from grader.strategy.propagate import SINGLES, fixpoint


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
        #: single position, then single candidate: the steps of levels 1 and 2
        self._singles = tuple(sorted((r for r in self.plain if r.family in SINGLES),
                                     key=lambda r: r.level))
        self._cache: dict[int, tuple[tuple[Rule, ...], Program | None]] = {}

    def singles(self, geo: Geometry, values: Sequence[int]) -> tuple[int, list[int], int]:
        """``(level, values, filled_by_level_1)``: the level (0 solved, 1 or 2)
        when the singles solve the grid, else 3 (meaning "3 or more") with the
        values of the closure of the singles; -1 on a contradiction.
        ``filled_by_level_1`` counts the cells single position alone fills.
        The engine's kernel steps the two rules (C or Python)."""
        board = Board.from_values(geo, values)
        if all(board.values):
            return 0, board.values, 0
        if board.conflicts() is not None or any(
                not v and not m for v, m in zip(board.values, board.cands, strict=True)):
            return -1, board.values, 0
        kernel = self.engine.kernel
        by_level1 = len(kernel.steps(board, self._singles[:1], 100_000))
        if board.is_solved():
            return 1, board.values, by_level1
        kernel.steps(board, self._singles, 100_000)
        if kernel.contradiction(board) is not None:
            return -1, board.values, by_level1
        return (2 if board.is_solved() else 3), board.values, by_level1

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
