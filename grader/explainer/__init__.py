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

from grader.explainer.core import ExplainError, Walkthrough, explain_grid, walkthrough
from grader.explainer.hints import HINT_LEVELS, hint

__all__ = ["HINT_LEVELS", "ExplainError", "Walkthrough", "explain_grid", "hint", "walkthrough"]
