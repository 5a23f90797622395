"""sudoku-grader: solve Sudoku the way a person does, explain every deduction,
and rate grids by N. Jussien's technique hierarchy (*A-Z of Sudoku*).

The API mirrors the commands (see :mod:`grader.api`)::

    import grader
    grid = "64.5.98......3..7.3.8.1...4.....7...4..965..7...3.....8...9.4.3.2..5......36.4.92"
    r = grader.grade(grid)
    steps = grader.explain(grid)
    report = grader.solve(r.puzzle)
    results = list(grader.rate_file("puzzles/book-calibration.txt"))
    made = grader.generate("easy", count=2, seed=1)

Every error raised for bad input is a :class:`grader.errors.GraderError`.

``import grader`` is cheap: names are imported on first use (module
``__getattr__``), so ``--version`` and ``--help`` do not load the engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .about import FALLBACK_VERSION as __version__
from .errors import GraderError

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from . import explain as explain
    from .api import SolveReport, explanation, generate, grade, rate_file, read_grid, solve
    from .board import Board, Contradiction
    from .engine import Engine, Trace
    from .formats import Grid, Record, iter_source, parse_grid_token
    from .geometry import Geometry, geometry, geometry_for_size
    from .grading import Grader, GradeResult
    from .hierarchy import Hierarchy, RuleSpec, load_hierarchy
    from .rule import Rule, RuleContext
    from .steps import Branch, Conflict, Pattern, Step

#: public name -> module that defines it
_LAZY = {
    "grade": "api", "rate_file": "api", "solve": "api", "generate": "api",
    "explanation": "api", "read_grid": "api", "SolveReport": "api",
    "Board": "board", "Contradiction": "board",
    "Engine": "engine", "Trace": "engine",
    "Grid": "formats", "Record": "formats", "iter_source": "formats",
    "parse_grid_token": "formats",
    "Geometry": "geometry", "geometry": "geometry", "geometry_for_size": "geometry",
    "Grader": "grading", "GradeResult": "grading",
    "Hierarchy": "hierarchy", "RuleSpec": "hierarchy", "load_hierarchy": "hierarchy",
    "Rule": "rule", "RuleContext": "rule",
    "Branch": "steps", "Conflict": "steps", "Pattern": "steps", "Step": "steps",
}

__all__ = [
    "Board", "Branch", "Conflict", "Contradiction", "Engine", "Geometry", "GradeResult",
    "Grader", "GraderError", "Grid", "Hierarchy", "Pattern", "Record", "Rule", "RuleContext",
    "RuleSpec", "SolveReport", "Step", "Trace", "__version__", "explain", "explanation",
    "generate", "geometry", "geometry_for_size", "grade", "iter_source", "load_hierarchy",
    "parse_grid_token", "rate_file", "read_grid", "solve",
]


def __getattr__(name: str) -> Any:
    if name == "explain":  # the package grader.explain, callable: grader.explain(grid)
        return importlib.import_module(".explain", __name__)
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module 'grader' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
