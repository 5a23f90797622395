"""What a step marks on the grid, cell by cell, from the step's data alone."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from grader.core.steps import Step


@dataclass
class CellMarks:
    """The marks of one cell: its pattern role (cells) and region role
    (regions of the pattern it lies in; the first listed wins), the value
    the step places there and the candidates it removes."""

    cell_role: str | None = None
    region_role: str | None = None
    #: the technique that made the step (its roles' styles)
    technique: Any = None
    placed: int = 0
    eliminated: set[int] = field(default_factory=set)
    values: tuple[int, ...] = ()
    #: candidates at an end of one of the pattern's links (see
    #: :class:`grader.core.steps.Arc`)
    linked: set[int] = field(default_factory=set)


def step_marks(step: Step | None) -> dict[int, CellMarks]:
    """Cell -> marks for every cell the step touches (empty without a step)."""
    out: dict[int, CellMarks] = {}
    if step is None:
        return out
    geo = step.geo

    def get(c: int) -> CellMarks:
        m = out.get(c)
        if m is None:
            m = out[c] = CellMarks(technique=step.technique)
        return m

    for region, role in step.pattern.regions:
        for c in geo.regions[region]:
            m = get(c)
            if m.region_role is None:
                m.region_role = role
    for c, role in step.pattern.cells:
        m = get(c)
        if m.cell_role is None:
            m.cell_role = role
            m.values = step.pattern.values
    for arc in step.pattern.arcs:
        for cs, v in ((arc.a_cells, arc.a[1]), (arc.b_cells, arc.b[1])):
            for c in cs:
                get(c).linked.add(v)
    for c, v in step.placements:
        get(c).placed = v
    for c, v in step.eliminations:
        get(c).eliminated.add(v)
    return out
