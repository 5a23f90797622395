"""Sets the book's levels leave to the walk: naked and hidden quads (5.0,
5.4) and the jellyfish, a fish of four lines (5.2)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from grader.core.board import Board
from grader.core.geometry import values_of
from grader.core.steps import Pattern, Step
from grader.strategy.engine import Engine
from grader.strategy.expert.hint import Hint

from .base import PatternFamily, cells, conclusion, unit

#: The expert families this module presents, declared once: the walk's order
#: (``order``), its finder, whether the engine consults it to choose trials,
#: and its C twin (number, calls, hint codes).  Pure data: setup.py reads it
#: without importing the package, to write grader/kernel/_families.h.
FAMILIES = (
    {"name": "naked quad", "order": 60, "consulted": True,
     "finder": "grader.strategy.expert.rectangles:naked_quads", "uses": ["pos"],
     "c": {"index": 17, "run": ["naked_quads(P)"], "hints": [["naked quad", "N_NQUAD"]]}},
    {"name": "jellyfish", "order": 70, "consulted": True,
     "finder": "grader.strategy.expert.rectangles:jellyfish", "uses": ["pos"],
     "c": {"index": 4, "run": ["jellyfish(P)"], "hints": [["jellyfish", "N_JELLY"]]}},
    {"name": "hidden quad", "order": 80, "consulted": True,
     "finder": "grader.strategy.expert.rectangles:hidden_quads", "uses": ["pos"],
     "c": {"index": 18, "run": ["hidden_quads(P)"], "hints": [["hidden quad", "N_HQUAD"]]}},
)

ROLES: dict[str, Any] = {"subset": ("cell of the set", "#ffc078", "on dark_orange3"),
                         "base": ("base cell of the fish", "#ffe066", "on dark_goldenrod")}


class Quad(PatternFamily):
    """Naked quad: four cells of a unit hold four values between them, which
    leave the unit's other cells.  Hidden quad: four values of a unit have
    the same four places, which lose their other values."""

    family = "quad"
    names = ("naked quad", "hidden quad")
    roles: ClassVar[dict[str, Any]] = ROLES

    @classmethod
    def step(cls, hint: Hint, board: Board, engine: Engine | None = None) -> Step:
        region, union = _quad(board, hint)
        step = cls.make(hint, board, Pattern(cells=tuple((c, "subset") for c in hint.cells),
                                             regions=((region, "region"),),
                                             values=tuple(values_of(union))))
        # the book's own rules, not a trial in disguise: naked tuples (rule
        # 3.3) are level 10, hidden tuples (rule 3.5) level 11
        return replace(step, level=10 if hint.family == "naked quad" else 11)

    @staticmethod
    def summarize(step: Step) -> str:
        geo = step.geo
        vs = "".join(geo.symbol(v) for v in step.pattern.values)
        where = unit(geo, step.pattern.regions[0][0])
        return f"{vs} in {where}, {cells(geo, step.pattern.cells_with('subset'))}"

    @staticmethod
    def teach(step: Step) -> str:
        geo = step.geo
        vs = ", ".join(geo.symbol(v) for v in step.pattern.values)
        cs = cells(geo, step.pattern.cells_with("subset"))
        where = unit(geo, step.pattern.regions[0][0])
        if step.name == "naked quad":
            return (f"In {where}, the four cells {cs} can only hold values among {vs}: four "
                    f"cells for four values, so they take them all, and no other cell of "
                    f"{where} can hold them: {conclusion(step)}.")
        return (f"In {where}, the four values {vs} can only go in {cs}: four values for four "
                f"cells, so these cells hold exactly them and nothing else: "
                f"{conclusion(step)}.")

    @staticmethod
    def where(step: Step) -> str:
        return f"look at {unit(step.geo, step.pattern.regions[0][0])}: four cells, four values"


def _quad(board: Board, hint: Hint) -> tuple[int, int]:
    """(unit, values) of a quad: the values the four cells hold (naked), or
    the four values whose places in a unit they share are these cells (hidden)."""
    geo, cs = board.geo, set(hint.cells)
    units = [r for r in geo.cell_regions[hint.cells[0]]
             if all(r in geo.cell_regions[c] for c in cs)]
    if hint.family == "naked quad":
        union = 0
        for c in cs:
            union |= board.cands[c]
        return units[0], union
    for r in units:
        inside = 0
        for v in range(1, geo.n + 1):
            places = set(board.positions(r, v))
            if places and places <= cs:
                inside |= 1 << (v - 1)
        if inside.bit_count() == 4:
            return r, inside
    return units[0], 0


class Jellyfish(PatternFamily):
    """A fish of four lines: in four rows (columns) the value's places lie in
    four columns (rows), which it leaves everywhere else."""

    family = "jellyfish"
    names = ("jellyfish",)
    roles: ClassVar[dict[str, Any]] = ROLES

    @classmethod
    def step(cls, hint: Hint, board: Board, engine: Engine | None = None) -> Step:
        geo = board.geo
        d = hint.eliminations[0][1]
        cols = {geo.cell_col[c] for c in hint.cells}
        rows_base = all(geo.cell_col[c] in cols for c, _ in hint.eliminations)
        base = sorted({geo.cell_row[c] if rows_base else geo.n + geo.cell_col[c]
                       for c in hint.cells})
        cover = sorted({geo.n + geo.cell_col[c] if rows_base else geo.cell_row[c]
                        for c in hint.cells})
        regions = tuple((r, "base") for r in base) + tuple((r, "cover") for r in cover)
        return cls.make(hint, board, Pattern(cells=tuple((c, "base") for c in hint.cells),
                                             regions=regions, values=(d,)))

    @staticmethod
    def summarize(step: Step) -> str:
        geo, d = step.geo, step.pattern.values[0]
        base = ", ".join(unit(geo, r) for r in step.pattern.regions_with("base"))
        cover = ", ".join(unit(geo, r) for r in step.pattern.regions_with("cover"))
        return f"on {geo.symbol(d)}, {base} / {cover}"

    @staticmethod
    def teach(step: Step) -> str:
        geo, d = step.geo, step.pattern.values[0]
        sv = geo.symbol(d)
        base = ", ".join(unit(geo, r) for r in step.pattern.regions_with("base"))
        cover = ", ".join(unit(geo, r) for r in step.pattern.regions_with("cover"))
        return (f"In {base}, {sv} can only go in {cover}: four lines that each need a {sv}, "
                f"all of them within four cross lines.  Those four {sv} fill the cross lines, "
                f"so {sv} leaves the rest of them: {conclusion(step)}.")

    @staticmethod
    def where(step: Step) -> str:
        return f"look at {step.geo.symbol(step.pattern.values[0])} in four lines"
