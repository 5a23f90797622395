"""sudoku-grader: solve Sudoku the way a person does, explain every deduction,
and rate grids by N. Jussien's technique hierarchy (*A-Z of Sudoku*).

The API mirrors the commands (see :mod:`grader.api`)::

    import grader
    grid = "64.5.98......3..7.3.8.1...4.....7...4..965..7...3.....8...9.4.3.2..5......36.4.92"
    r = grader.grade(grid)
    steps = grader.explain(grid)
    report = grader.solve(r.puzzle)
    results = list(grader.rate([grid, grid], jobs=1))       # grids held in memory
    results = list(grader.rate_file("puzzles/book-calibration.txt"))
    made = grader.generate("easy", number=2, seed=1)

Every error raised for bad input is a :class:`grader.core.errors.GraderError`.

``import grader`` is cheap: names are imported on first use (module
``__getattr__``), so ``--version`` and ``--help`` do not load the engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from grader.about import FALLBACK_VERSION as __version__
from grader.core.errors import GraderError

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from grader.api import (
        PairPuzzle,
        PairSolution,
        SolveReport,
        explain,
        explanation,
        generate,
        grade,
        pair_generate,
        pair_solve,
        rate,
        rate_file,
        read_grid,
        solve,
    )
    from grader.core.board import Board, Contradiction
    from grader.core.errors import ArgumentError
    from grader.core.geometry import Geometry, geometry, geometry_for_size
    from grader.core.rule import Rule, RuleContext
    from grader.core.steps import Branch, Conflict, Pattern, Step
    from grader.formats import Grid, Record, iter_source, parse_grid_token
    from grader.strategy.engine import Engine, Trace
    from grader.strategy.grading import Grader, GradeResult
    from grader.strategy.hierarchy import Hierarchy, RuleSpec, load_hierarchy

#: public name -> module that defines it
_LAZY = {
    "grade": "api", "explain": "api", "rate": "api", "rate_file": "api", "solve": "api",
    "generate": "api",
    "explanation": "api", "read_grid": "api", "SolveReport": "api",
    "pair_solve": "api", "pair_generate": "api", "PairSolution": "api", "PairPuzzle": "api",
    "ArgumentError": "core.errors",
    "Board": "core.board", "Contradiction": "core.board",
    "Engine": "strategy.engine", "Trace": "strategy.engine",
    "Grid": "formats", "Record": "formats", "iter_source": "formats",
    "parse_grid_token": "formats",
    "Geometry": "core.geometry", "geometry": "core.geometry",
    "geometry_for_size": "core.geometry",
    "Grader": "strategy.grading", "GradeResult": "strategy.grading",
    "Hierarchy": "strategy.hierarchy", "RuleSpec": "strategy.hierarchy",
    "load_hierarchy": "strategy.hierarchy",
    "Rule": "core.rule", "RuleContext": "core.rule",
    "Branch": "core.steps", "Conflict": "core.steps", "Pattern": "core.steps", "Step": "core.steps",
}

__all__ = [
    "ArgumentError", "Board", "Branch", "Conflict", "Contradiction", "Engine", "Geometry",
    "GradeResult", "Grader", "GraderError", "Grid", "Hierarchy", "PairPuzzle", "PairSolution",
    "Pattern", "Record", "Rule", "RuleContext", "RuleSpec", "SolveReport", "Step", "Trace",
    "__version__", "explain", "explanation", "generate", "geometry", "geometry_for_size",
    "grade", "iter_source", "load_hierarchy", "pair_generate", "pair_solve",
    "parse_grid_token", "rate", "rate_file", "read_grid", "solve",
]


def __getattr__(name: str) -> Any:
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module 'grader' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
