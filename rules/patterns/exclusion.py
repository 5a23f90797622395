"""Aligned exclusions: pairs (6.2) and triplets (7.5) of cells whose
combinations of values are cut down by the cells that see them all.

Excluders are cells that see every cell of the group and hold two (or three)
values: a combination of the group's values that would empty an excluder,
or put one value twice in a unit, is impossible; a value of a group cell in
no possible combination leaves it."""

from __future__ import annotations

from typing import Any, ClassVar

from grader.core.board import Board
from grader.core.steps import Pattern, Step
from grader.strategy.engine import Engine
from grader.strategy.expert.hint import Hint

from .base import PatternFamily, cells, conclusion

#: The expert families this module presents, declared once: the walk's order
#: (``order``), its finder, whether the engine consults it to choose trials,
#: and its C twin (number, calls, hint codes).  Pure data: setup.py reads it
#: without importing the package, to write grader/kernel/_families.h.
FAMILIES = (
    {"name": "aligned pair exclusion", "order": 140, "consulted": False,
     "finder": "grader.strategy.expert.wings:aligned_pair_exclusions", "uses": ["pos"],
     "c": {"index": 10, "run": ["aligned_pairs(P)"],
           "hints": [["aligned pair exclusion", "N_APE"]]}},
    {"name": "aligned triplet exclusion", "order": 180, "consulted": False,
     "finder": "grader.strategy.expert.wings:aligned_triplet_exclusions", "uses": ["pos"],
     "c": {"index": 19, "run": ["aligned_triplets(P)"],
           "hints": [["aligned triplet exclusion", "N_ATE"]]}},
)


class AlignedExclusion(PatternFamily):
    """Aligned pair and triplet exclusion."""

    family = "aligned-exclusion"
    names = ("aligned pair exclusion", "aligned triplet exclusion")
    roles: ClassVar[dict[str, Any]] = {"group": ("cell of the group", "#ffc078",
                                                 "on dark_orange3"),
                                       "excluder": ("excluder", "#a5d8ff", "on dark_blue")}

    @classmethod
    def step(cls, hint: Hint, board: Board, engine: Engine | None = None) -> Step:
        k = 2 if hint.family.startswith("aligned pair") else 3
        roles = tuple((c, "group") for c in hint.cells[:k]) + tuple(
            (c, "excluder") for c in hint.cells[k:])
        return cls.make(hint, board, Pattern(cells=roles))

    @staticmethod
    def summarize(step: Step) -> str:
        geo = step.geo
        return (f"{cells(geo, step.pattern.cells_with('group'))} against "
                f"{cells(geo, step.pattern.cells_with('excluder'))}")

    @staticmethod
    def teach(step: Step) -> str:
        geo = step.geo
        group = step.pattern.cells_with("group")
        excl = step.pattern.cells_with("excluder")
        return (f"Try every combination of values for {cells(geo, group)}.  The cells "
                f"{cells(geo, excl)} see all of them: a combination that takes every value "
                f"one of them has left is impossible, and so is one that puts a value twice "
                f"in a unit.  The values that appear in no possible combination go: "
                f"{conclusion(step)}.")

    @staticmethod
    def where(step: Step) -> str:
        return (f"look at {cells(step.geo, step.pattern.cells_with('group'))} and the cells "
                f"with few candidates that see them all")
