"""Uniqueness: unique rectangles (types 1-4, 4.5-4.8) and unique loops
(4.6-4.9).

Four cells in two rows, two columns and two boxes (or a longer loop of
cells, each unit holding two of them) that all held only the values a and
b would let the two values swap: the puzzle would have two solutions.  The
puzzles rated here have one, so the pattern must not close: the step keeps
another value alive where it must.
"""

from __future__ import annotations

from typing import Any, ClassVar

from grader.core.board import Board
from grader.core.geometry import values_of
from grader.core.steps import Pattern, Step
from grader.strategy.engine import Engine
from grader.strategy.expert.hint import Hint

from .base import PatternFamily, cells, conclusion

#: The expert families this module presents, declared once: the walk's order
#: (``order``), its finder, whether the engine consults it to choose trials,
#: and its C twin (number, calls, hint codes).  Pure data: setup.py reads it
#: without importing the package, to write grader/kernel/_families.h.
FAMILIES = (
    {"name": "unique rectangle", "order": 50, "consulted": False,
     "finder": "grader.strategy.expert.rectangles:unique_rectangles", "uses": ["pos"],
     "c": {"index": 3, "run": ["unique_rectangles(P)", "unique_loops(P)"],
           "hints": [["unique rectangle type 1", "N_UR1"], ["unique rectangle type 2", "N_UR2"],
                     ["unique rectangle type 3", "N_UR3"], ["unique rectangle type 4", "N_UR4"],
                     ["unique loop type 1", "N_UL1"], ["unique loop type 2", "N_UL2"],
                     ["unique loop type 4", "N_UL4"]]}},
)

ROLES: dict[str, Any] = {"floor": ("holds only the two values", "#a5d8ff", "on dark_blue"),
                         "roof": ("holds more", "#ffc078", "on dark_orange3"),
                         "extra": ("in the naked set", "#ffe066", "on dark_goldenrod")}


class UniqueRectangle(PatternFamily):
    """Unique rectangles of types 1 to 4 and unique loops of types 1, 2, 4."""

    family = "unique-rectangle"
    names = ("unique rectangle type 1", "unique rectangle type 2", "unique rectangle type 3",
             "unique rectangle type 4", "unique loop type 1", "unique loop type 2",
             "unique loop type 4")
    roles: ClassVar[dict[str, Any]] = ROLES

    @classmethod
    def step(cls, hint: Hint, board: Board, engine: Engine | None = None) -> Step:
        loop = hint.cells[:4] if "rectangle" in hint.family else hint.cells
        extra = hint.cells[4:] if "rectangle" in hint.family else ()
        common = board.geo.full
        for c in loop:
            common &= board.cands[c]
        pair = [c for c in loop if board.cands[c].bit_count() == 2]
        ab = board.cands[pair[0]] if pair else common
        a, b = values_of(ab)[:2]
        roles = tuple((c, "floor" if board.cands[c] == ab else "roof") for c in loop) + tuple(
            (c, "extra") for c in extra)
        return cls.make(hint, board, Pattern(cells=roles, values=(a, b)))

    @staticmethod
    def holds(step: Step, board: Board) -> bool:
        """Every cell of the loop still holds both values (what the text
        states), and the floor cells nothing else."""
        bits = sum(1 << (v - 1) for v in step.pattern.values)
        return all(not board.values[c] and board.cands[c] & bits == bits
                   and (r != "floor" or board.cands[c] == bits)
                   for c, r in step.pattern.cells if r != "extra")

    @staticmethod
    def summarize(step: Step) -> str:
        geo = step.geo
        a, b = (geo.symbol(v) for v in step.pattern.values)
        loop = [c for c, r in step.pattern.cells if r != "extra"]
        return f"on {a}{b}, {cells(geo, loop)}"

    @staticmethod
    def teach(step: Step) -> str:
        geo = step.geo
        a, b = (geo.symbol(v) for v in step.pattern.values)
        loop = [c for c, r in step.pattern.cells if r != "extra"]
        roof = step.pattern.cells_with("roof")
        shape = ("lie in two rows, two columns and two boxes" if len(loop) == 4 else
                 "form a loop in which every row, column and box holds two of them")
        why = {
            "1": f"only {cells(geo, roof)} can still hold something else, so it must",
            "2": f"one of {cells(geo, roof)} must hold its extra value, so that value "
                 f"cannot be in a cell that sees them both",
            "3": f"the extra values of {cells(geo, roof)} act as one more cell of a naked set "
                 f"with {cells(geo, step.pattern.cells_with('extra'))}",
            "4": f"one of {a} and {b} is confined to {cells(geo, roof)} in a unit they "
                 f"share, so the other value cannot be in both and leaves them",
        }[step.name[-1]]
        return (f"The cells {cells(geo, loop)} {shape}, and all of them can hold {a} and {b}.  "
                f"If none of them held anything else, {a} and {b} could be swapped in them "
                f"and the puzzle would have two solutions; it has one, so the pattern must "
                f"not close: {why}: {conclusion(step)}.")

    @staticmethod
    def where(step: Step) -> str:
        geo = step.geo
        a, b = (geo.symbol(v) for v in step.pattern.values)
        shape = "four" if "rectangle" in step.name else "a loop of"
        return f"look for {shape} cells holding {a} and {b}"
