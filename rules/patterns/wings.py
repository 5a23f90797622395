"""Wings: XY-Wing (4.2), XYZ-Wing (4.4) and the ALS-wings WXYZ, VWXYZ,
UVWXYZ and TUVWXYZ (5.5-7.5).

A wing is a disjunctive construction whose branches meet: whichever value
its pivot takes, one of its pincers holds the same digit z, so z leaves the
cells that see every z of the pattern.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from grader.core.board import Board
from grader.core.geometry import values_of
from grader.core.steps import Pattern, Step
from grader.strategy.engine import Engine
from grader.strategy.expert.hint import Hint

from .base import (
    PatternFamily,
    arc_sentence,
    cand,
    cells,
    conclusion,
    rc,
    strong,
    weak,
)

#: The expert families this module presents, declared once: the walk's order
#: (``order``), its finder, whether the engine consults it to choose trials,
#: and its C twin (number, calls, hint codes).  Pure data: setup.py reads it
#: without importing the package, to write grader/kernel/_families.h.
FAMILIES = (
    {"name": "XYZ-Wing", "order": 40, "consulted": True,
     "finder": "grader.strategy.expert.wings:xyz_wings", "uses": ["pos"],
     "c": {"index": 2, "run": ["xyz_wings(P)"], "hints": [["XYZ-Wing", "N_XYZ"]]}},
    {"name": "WXYZ-Wing", "order": 100, "consulted": True,
     "finder": "grader.strategy.expert.wings:als_wings", "uses": ["pos"], "args": [4],
     "c": {"index": 6, "run": ["als_wings(P, 4)"], "hints": [["WXYZ-Wing", "N_WXYZ"]]}},
    {"name": "VWXYZ-Wing", "order": 130, "consulted": True,
     "finder": "grader.strategy.expert.wings:als_wings", "uses": ["pos"], "args": [5],
     "c": {"index": 9, "run": ["als_wings(P, 5)"], "hints": [["VWXYZ-Wing", "N_VWXYZ"]]}},
    {"name": "UVWXYZ-Wing", "order": 150, "consulted": True,
     "finder": "grader.strategy.expert.wings:als_wings", "uses": ["pos"], "args": [6],
     "c": {"index": 11, "run": ["als_wings(P, 6)"], "hints": [["UVWXYZ-Wing", "N_UVWXYZ"]]}},
    {"name": "TUVWXYZ-Wing", "order": 170, "consulted": False,
     "finder": "grader.strategy.expert.wings:als_wings", "uses": ["pos"], "args": [7],
     "c": {"index": 16, "run": ["als_wings(P, 7)"], "hints": [["TUVWXYZ-Wing", "N_TUVWXYZ"]]}},
)

ROLES: dict[str, Any] = {"pivot": ("pivot of the wing", "#d0bfff", "on dark_magenta"),
                         "pincer": ("pincer", "#b2f2bb", "on dark_green"),
                         "als": ("almost locked set", "#ffe066", "on dark_goldenrod")}


class Wing(PatternFamily):
    """XYZ-Wing (and, through :class:`~grader.rules.patterns.xy_wing.XyWing`,
    XY-Wing): a pivot and two bivalue pincers among its peers."""

    family = "wing"
    names = ("XYZ-Wing",)
    roles: ClassVar[dict[str, Any]] = ROLES

    @classmethod
    def step(cls, hint: Hint, board: Board, engine: Engine | None = None) -> Step:
        p, q1, q2 = hint.cells
        z = hint.eliminations[0][1]
        cands = board.cands
        x = next(v for v in values_of(cands[q1]) if v != z)
        y = next(v for v in values_of(cands[q2]) if v != z)
        arcs = (strong(board, q1, z, q1, x), weak(board, q1, x, p, x),
                strong(board, p, x, p, y) if cands[p].bit_count() == 2
                else weak(board, p, x, p, y),
                weak(board, p, y, q2, y), strong(board, q2, y, q2, z))
        roles = ((p, "pivot"), (q1, "pincer"), (q2, "pincer"))
        return cls.make(hint, board, Pattern(cells=roles, values=(x, y, z), arcs=arcs))

    @staticmethod
    def summarize(step: Step) -> str:
        geo = step.geo
        p, q1, q2 = (c for c, _ in step.pattern.cells)
        z = geo.symbol(step.pattern.values[2])
        return f"pivot {rc(geo, p)}, pincers {rc(geo, q1)} and {rc(geo, q2)}, on {z}"

    @staticmethod
    def teach(step: Step) -> str:
        geo = step.geo
        p, q1, q2 = (c for c, _ in step.pattern.cells)
        x, y, z = step.pattern.values
        sx, sy, sz = geo.symbol(x), geo.symbol(y), geo.symbol(z)
        three = step.name == "XYZ-Wing"
        pivot = (f"The pivot {rc(geo, p)} holds {sx}, {sy} or {sz}" if three else
                 f"The pivot {rc(geo, p)} holds {sx} or {sy}")
        lines = [f"{pivot}; its pincers {rc(geo, q1)} ({sx} or {sz}) and {rc(geo, q2)} "
                 f"({sy} or {sz}) see it:"]
        lines += [f"- {arc_sentence(geo, a)};" for a in step.pattern.arcs]
        lines.append(
            f"If the pivot is {sx}, {rc(geo, q1)} is {sz}; if it is {sy}, {rc(geo, q2)} is "
            f"{sz}" + (f"; if it is {sz} itself, the pivot holds it" if three else "") +
            f".  So {sz} is in {cells(geo, [q1, q2] + ([p] if three else []))}, and a cell "
            f"that sees {'all three' if three else 'both pincers'} cannot hold it: "
            f"{conclusion(step)}.")
        return "\n".join(lines)

    @staticmethod
    def where(step: Step) -> str:
        geo = step.geo
        p = step.pattern.cells_with("pivot")[0]
        return f"look at the cells around {rc(geo, p)} with two or three candidates"


class AlsWing(PatternFamily):
    """ALS-wings: n - 1 cells of a unit holding n digits together (an almost
    locked set) and a bivalue cell {x,z} outside that sees every x of them."""

    family = "als-wing"
    names = ("WXYZ-Wing", "VWXYZ-Wing", "UVWXYZ-Wing", "TUVWXYZ-Wing")
    roles: ClassVar[dict[str, Any]] = ROLES

    @classmethod
    def step(cls, hint: Hint, board: Board, engine: Engine | None = None) -> Step:
        *group, w = hint.cells
        # z: an eliminated value of the pivot (a doubly linked wing removes x,
        # z and the set's other values, by value: the first need not be z;
        # where it removes only the set's other values, either of the pivot's)
        z = next((d for _, d in hint.eliminations if board.cands[w] >> (d - 1) & 1),
                 None)
        if z is None:
            z = next(d for d in values_of(board.cands[w]) if doubly_linked(board, group, w, d))
        x = next(v for v in values_of(board.cands[w]) if v != z)
        xs = [c for c in group if board.cands[c] >> (x - 1) & 1]
        arcs = (strong(board, w, z, w, x), *(weak(board, w, x, c, x) for c in xs))
        if doubly_linked(board, group, w, z):  # z restricted too: its links to the set
            arcs += tuple(weak(board, w, z, c, z) for c in group
                          if board.cands[c] >> (z - 1) & 1)
        roles = tuple((c, "als") for c in group) + ((w, "pincer"),)
        return cls.make(hint, board, Pattern(cells=roles, values=(x, z), arcs=arcs))

    @staticmethod
    def summarize(step: Step) -> str:
        geo = step.geo
        group = step.pattern.cells_with("als")
        w = step.pattern.cells_with("pincer")[0]
        x, z = step.pattern.values
        if any(not a.strong and a.a[1] == z for a in step.pattern.arcs):
            return (f"{cells(geo, group)} with {rc(geo, w)} (doubly linked by "
                    f"{geo.symbol(x)} and {geo.symbol(z)})")
        return (f"{cells(geo, group)} with {rc(geo, w)} (linked by {geo.symbol(x)}, on "
                f"{geo.symbol(z)})")

    @staticmethod
    def teach(step: Step) -> str:
        geo = step.geo
        group = step.pattern.cells_with("als")
        w = step.pattern.cells_with("pincer")[0]
        x, z = step.pattern.values
        sx, sz = geo.symbol(x), geo.symbol(z)
        k = len(group)
        doubly = any(not a.strong and a.a[1] == z for a in step.pattern.arcs)
        lines = [f"The {k} cells {cells(geo, group)} share one unit and hold {k + 1} values "
                 f"between them (an almost locked set).  {rc(geo, w)} holds {sx} or {sz} and "
                 f"sees every {sx}" + (f" and every {sz}" if doubly else "") + " of the set:"]
        lines += [f"- {arc_sentence(geo, a)};" for a in step.pattern.arcs]
        if doubly:
            lines.append(
                f"Whichever of {sx} and {sz} {rc(geo, w)} holds, the set loses it: {k} cells "
                f"are left for {k} values, so they hold each of them once.  So every other "
                f"value of the set is in the set, and {sx} and {sz} are each in the set or in "
                f"{rc(geo, w)} (a doubly linked wing).  A cell outside them that sees every "
                f"place of a value there (in the set, and for {sx} and {sz} in "
                f"{rc(geo, w)} too) cannot hold it: {conclusion(step)}.")
            return "\n".join(lines)
        lines.append(
            f"If {cand(geo, w, x)}, no cell of the set holds {sx}: {k} cells are left for "
            f"{k} values, so they hold all of them, {sz} among them.  Otherwise "
            f"{cand(geo, w, z)}.  Either way {sz} is in the set or in {rc(geo, w)}, and a "
            f"cell that sees all of those {sz} cannot hold it: {conclusion(step)}.")
        return "\n".join(lines)

    @staticmethod
    def where(step: Step) -> str:
        geo = step.geo
        w = step.pattern.cells_with("pincer")[0]
        return (f"look at {rc(geo, w)} and a group of "
                f"{len(step.pattern.cells_with('als'))} cells of one unit it sees")


def doubly_linked(board: Board, group: Sequence[int], w: int, z: int) -> bool:
    """Whether every z of the set sees the bivalue cell ``w`` (both of its
    values link it to the set: SukakuExplainer's doubly linked wing)."""
    zs = [c for c in group if board.cands[c] >> (z - 1) & 1]
    return bool(zs) and all(c != w and any(r in board.geo.cell_regions[w]
                                           for r in board.geo.cell_regions[c]) for c in zs)
