"""sudoku-grader: solve Sudoku the way a person does, explain every deduction,
and rate grids by N. Jussien's technique hierarchy (*A-Z of Sudoku*)."""

from __future__ import annotations

from . import explain  # callable: grader.explain(grid) -> steps
from .board import Board, Contradiction
from .engine import Engine, Trace
from .formats import Grid, Record, iter_source, parse_grid_token
from .geometry import Geometry, geometry, geometry_for_size
from .grading import Grader, GradeResult
from .hierarchy import Hierarchy, RuleSpec, load_hierarchy
from .rule import Rule, RuleContext
from .steps import Branch, Conflict, Pattern, Step

__version__ = "0.1.0"

__all__ = [
    "Board", "Branch", "Conflict", "Contradiction", "Engine", "Geometry", "GradeResult",
    "Grader", "Grid", "Hierarchy", "Pattern", "Record", "Rule", "RuleContext", "RuleSpec",
    "Step", "Trace", "explain", "geometry", "geometry_for_size", "grade", "iter_source",
    "load_hierarchy", "parse_grid_token",
]


def grade(grid: str, hierarchy: Hierarchy | None = None) -> GradeResult:
    """Grade one grid given as text (any one-line format)."""
    return Grader(hierarchy).grade_grid(parse_grid_token(grid.strip()))
