"""Expert score: the rating of grids that need a trial (levels 13-14) on
Sudoku Explainer's scale, by the easiest patterns and chains along an
easiest-first path.  See :mod:`grader.strategy.expert.walker`.

The package imports its modules on first use: the families
(:mod:`grader.strategy.expert.families`) sit below the engine, which consults them,
and the walk (:mod:`grader.strategy.expert.walker`) sits above it.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "FAMILIES": "families", "first_family": "families", "easiest_hints": "families",
    "Hint": "hint", "Position": "hint", "length_tenths": "hint",
    "RATED_SIZES": "walker", "Move": "walker", "Rater": "walker", "Walk": "walker",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'grader.strategy.expert' has no attribute {name!r}")
    return getattr(importlib.import_module(f"grader.strategy.expert.{module}"), name)
