"""Explanations: every deduction in words and pictures.

``grader.explain`` is both this package and a function::

    import grader
    grid = "64.5.98......3..7.3.8.1...4.....7...4..965..7...3.....8...9.4.3.2..5......36.4.92"
    steps = grader.explain(grid)
    print(steps[3].explain())           # one line, the book's notation
    print(steps[3].explain("teach"))    # the reasoning, in full sentences
    print(grader.explain.hint(steps[3], "technique"))  # or "where", "full"

Modules: :mod:`.svg` (``grid_svg``: a standalone SVG drawing of a board),
:mod:`.textgrid` (the candidate grid drawn with rich), :mod:`.model` (the
JSON models), :mod:`.html`, :mod:`.markdown`, :mod:`.hints`,
:mod:`.position` (pencil-mark grids, moves), :mod:`.walker` (``--step``),
:mod:`.trials` (teach templates of the trial families and the text of
their chains), :mod:`.chainsvg` (a trial branch's chain drawn on the grid),
:mod:`.request` (the ``explain`` command as a library call: ``ExplainOptions``).
"""

from __future__ import annotations

import sys
import types
from typing import Any

from . import trials as _trials  # noqa: F401  (registers the trial teach templates)
from .core import ExplainError, Walkthrough, explain_grid, walkthrough
from .hints import HINT_LEVELS, hint

__all__ = ["HINT_LEVELS", "ExplainError", "Walkthrough", "explain_grid", "hint", "walkthrough"]


class _CallableModule(types.ModuleType):
    """Lets ``grader.explain(grid)`` call :func:`grader.api.explain` while
    ``grader.explain`` stays the package (``grader.explain.svg`` ...)."""

    def __call__(self, grid: Any, hierarchy: Any = None, max_level: int | None = None,
                 **options: Any) -> Any:
        from ..api import explain

        return explain(grid, hierarchy, max_level, **options)


sys.modules[__name__].__class__ = _CallableModule
