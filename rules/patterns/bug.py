"""Bivalue universal graves: BUG+1 (5.6) and BUG type 2 (5.7).

When every open cell holds two values and every value has two places in
each unit (a BUG), the values could be swapped along the whole grid: two
solutions.  The puzzles rated here have one, so the cells that break the
pattern keep it broken.
"""

from __future__ import annotations

from typing import Any, ClassVar

from grader.core.board import Board
from grader.core.steps import Pattern, Step
from grader.strategy.engine import Engine
from grader.strategy.expert.hint import Hint

from .base import PatternFamily, cells, conclusion, rc

#: The expert families this module presents, declared once: the walk's order
#: (``order``), its finder, whether the engine consults it to choose trials,
#: and its C twin (number, calls, hint codes).  Pure data: setup.py reads it
#: without importing the package, to write grader/kernel/_families.h.
FAMILIES = (
    {"name": "BUG", "order": 110, "consulted": False,
     "finder": "grader.strategy.expert.wings:bugs", "uses": ["pos"],
     "c": {"index": 7, "run": ["bug_plus_one(P)", "bug_type2(P)"],
           "hints": [["BUG+1", "N_BUG"], ["BUG type 2", "N_BUG2"]]}},
)


class Bug(PatternFamily):
    """BUG+1: one cell with three values, every other open cell bivalue; the
    value that appears three times in each of its units goes there.  BUG type
    2: several cells with three values sharing one extra value, which stays
    among them."""

    family = "bug"
    names = ("BUG+1", "BUG type 2")
    roles: ClassVar[dict[str, Any]] = {"extra": ("breaks the grave", "#ffc9c9", "on dark_red")}

    @classmethod
    def step(cls, hint: Hint, board: Board, engine: Engine | None = None) -> Step:
        d = (hint.placements or hint.eliminations)[0][1]
        return cls.make(hint, board, Pattern(cells=tuple((c, "extra") for c in hint.cells),
                                             values=(d,)))

    @staticmethod
    def summarize(step: Step) -> str:
        return f"{cells(step.geo, step.pattern.cells_with('extra'))} break the grave"

    @staticmethod
    def teach(step: Step) -> str:
        geo = step.geo
        extra = step.pattern.cells_with("extra")
        sv = geo.symbol(step.pattern.values[0])
        grave = ("Every open cell but {x} holds exactly two values.  Without its extra "
                 "value, every value would have two places in each unit and could be "
                 "swapped with another along the whole grid: two solutions.")
        if step.name == "BUG+1":
            return (grave.format(x=rc(geo, extra[0])) + f"  The puzzle has one, so "
                    f"{rc(geo, extra[0])} holds the value that would otherwise have three "
                    f"places in its units: {sv}, {conclusion(step)}.")
        return (grave.format(x=cells(geo, extra)) + f"  The puzzle has one, so {sv}, the "
                f"extra value they share, is in one of them, and a cell that sees them all "
                f"cannot hold it: {conclusion(step)}.")

    @staticmethod
    def where(step: Step) -> str:
        return "look at the cells with more than two candidates: almost every open cell " \
               "has exactly two"
