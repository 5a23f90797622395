"""Explanations: every deduction in words and pictures.

The library's explanations (``grader.explain(grid)`` is the API's function)::

    import grader
    grid = "64.5.98......3..7.3.8.1...4.....7...4..965..7...3.....8...9.4.3.2..5......36.4.92"
    steps = grader.explain(grid)
    print(steps[3].explain())           # one line, the book's notation
    print(steps[3].explain("teach"))    # the reasoning, in full sentences
    print(grader.explainer.hint(steps[3], "technique"))  # or "where", "full"

Modules: :mod:`.svg` (``grid_svg``: a standalone SVG drawing of a board),
:mod:`.textgrid` (the candidate grid drawn with rich), :mod:`.model` (the
JSON models), :mod:`.html`, :mod:`.markdown`, :mod:`.hints`,
:mod:`.position` (pencil-mark grids, moves), :mod:`.walker` (``--step``),
:mod:`.trials` (teach templates of the trial families and the text of
their chains), :mod:`.chainsvg` (a trial branch's chain drawn on the grid),
:mod:`.request` (the ``explain`` command as a library call: ``ExplainOptions``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from grader.explainer.choices import HINT_LEVELS
    from grader.explainer.core import ExplainError, Walkthrough, explain_grid, walkthrough
    from grader.explainer.hints import hint

__all__ = ["HINT_LEVELS", "ExplainError", "Walkthrough", "explain_grid", "hint", "walkthrough"]

#: public name -> module that defines it: imported on first use, so that the
#: command line reads :mod:`.choices` without loading the engine
_LAZY = {"HINT_LEVELS": "choices", "ExplainError": "core", "Walkthrough": "core",
         "explain_grid": "core", "walkthrough": "core", "hint": "hints"}


def __getattr__(name: str) -> Any:
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module 'grader.explainer' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value
