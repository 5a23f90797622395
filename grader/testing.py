"""Helpers for testing rules, the project's own and plugins alike.

A plugin's test suite imports these (``from grader.testing import ...``):
they build positions, run one rule the way the engine does, and check every
step it makes against the grid's solution and between the two kernels (the C
accelerator and pure Python)::

    from grader.testing import assert_sound, make_rule, pencil, steps_of

    rule = make_rule("xy-wing", hierarchy)
    board = pencil({(1, 1): [1, 2], (1, 5): [1, 3], (5, 1): [2, 3], (5, 5): [3, 4]})
    (step,) = steps_of(rule, board)
    assert step.eliminations == ((cell(5, 5), 3),)
    assert_sound(hierarchy, grids)     # every step of every grid true of its solution
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from grader.core.board import Board
from grader.core.geometry import Geometry, geometry
from grader.core.rule import Rule, RuleContext
from grader.core.steps import Step
from grader.formats import Grid, parse_grid_token
from grader.kernel import PYTHON, Kernel, c_kernel
from grader.kernel import c as native
from grader.strategy.engine import SoundnessError
from grader.strategy.grading import Grader, GradeResult
from grader.strategy.hierarchy import Hierarchy, default_hierarchy
from grader.strategy.plugins import rule_class

__all__ = ["G9", "assert_kernels_agree", "assert_sound", "cell", "make_rule", "pencil",
           "steps_of", "SoundnessError"]

#: The 9x9 geometry.
G9 = geometry(3, 3)


def cell(row: int, col: int, geo: Geometry = G9) -> int:
    """The index of cell (row, col), 1-based as the book writes it."""
    return (row - 1) * geo.n + (col - 1)


def pencil(marks: Mapping[tuple[int, int], Iterable[int]], geo: Geometry = G9) -> Board:
    """A position where the cells of ``marks`` (1-based (row, col)) hold only
    those candidates and every other cell holds every value: the smallest
    position that shows a pattern."""
    full = geo.full
    cands = [full] * geo.ncells
    for (r, c), values in marks.items():
        m = 0
        for v in values:
            m |= 1 << (v - 1)
        cands[cell(r, c, geo)] = m
    return Board(geo, [0] * geo.ncells, cands)


def make_rule(code: str, hierarchy: Hierarchy | None = None) -> Rule:
    """The rule ``code`` of ``hierarchy`` (the book's by default), built as the
    engine builds it (its level, name and parameters from the table)."""
    h = hierarchy or default_hierarchy()
    spec = h.spec(code)
    return rule_class(spec.plugin)(spec, RuleContext())


def steps_of(rule: Rule, board: Board) -> list[Step]:
    """Every step ``rule`` finds on ``board``, checking that finding leaves the
    board untouched and gives the same steps twice (determinism)."""
    before = (tuple(board.values), tuple(board.cands))
    steps = list(rule.find(board))
    if (tuple(board.values), tuple(board.cands)) != before:
        raise AssertionError(f"{rule!r}.find() changed the board")
    again = list(rule.find(board))
    if again != steps:
        raise AssertionError(f"{rule!r}.find() is not deterministic")
    return steps


def _grid(g: str | Grid) -> Grid:
    return g if isinstance(g, Grid) else parse_grid_token(g.strip())


def assert_sound(hierarchy: Hierarchy | None, grids: Iterable[str | Grid]) -> list[GradeResult]:
    """Grade every grid with every step checked against its solution (raises
    :class:`~grader.strategy.engine.SoundnessError` at the first false step); returns
    the results."""
    grader = Grader(hierarchy, check=True)
    return [grader.grade_grid(_grid(g), i) for i, g in enumerate(grids, 1)]


def assert_kernels_agree(hierarchy: Hierarchy | None,
                         grids: Sequence[str | Grid]) -> list[GradeResult]:
    """Grade ``grids`` with the C accelerator and with pure Python and check
    that both give the same verdicts, levels, scores and step counts (a no-op
    comparison when the accelerator is not built).  Returns the results."""
    def run(kernel: Kernel) -> list[GradeResult]:
        g = Grader(hierarchy, kernel=kernel)
        return [g.grade_grid(_grid(x), i) for i, x in enumerate(grids, 1)]

    pure = run(PYTHON)
    fast = run(c_kernel()) if native.built() else pure
    for a, b in zip(pure, fast, strict=True):
        da, db = a.model_dump(exclude={"seconds"}), b.model_dump(exclude={"seconds"})
        if da != db:
            raise AssertionError(f"the kernels disagree on grid {a.index}: "
                                 f"pure Python {da} != accelerator {db}")
    return fast
