"""Strong-link chains on one digit (skyscraper, two-string kite, turbot
fish, chains of 3 and 4 strong links) and the empty rectangle.

A strong link is a conjugate pair: a unit where the digit has exactly two
places, so one of them holds it.  Strong links joined end to start by weak
links (cells that see each other) form a chain whose two free ends cannot
both be free of the digit: every cell that sees both ends loses it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from grader.core.board import Board
from grader.core.steps import Arc, Pattern, Step
from grader.strategy.engine import Engine
from grader.strategy.expert.hint import Hint

from .base import (
    PatternFamily,
    arc_sentence,
    cand,
    cells,
    chain_text,
    conclusion,
    rc,
    strong,
    unit,
    weak,
)

#: The expert families this module presents, declared once: the walk's order
#: (``order``), its finder, whether the engine consults it to choose trials,
#: and its C twin (number, calls, hint codes).  Pure data: setup.py reads it
#: without importing the package, to write grader/kernel/_families.h.
FAMILIES = (
    {"name": "strong-link chain, 2 links", "order": 10, "consulted": True,
     "finder": "grader.strategy.expert.links:strong_link_chains", "uses": ["pos"], "args": [2],
     "c": {"index": 0, "run": ["strong_links(P, 2)"],
           "hints": [["skyscraper", "N_SKYSCRAPER"], ["two-string kite", "N_KITE"],
                     ["turbot fish", "N_TURBOT"]]}},
    {"name": "empty rectangle", "order": 30, "consulted": True,
     "finder": "grader.strategy.expert.links:empty_rectangles", "uses": ["pos"],
     "c": {"index": 20, "run": ["empty_rectangles(P)"], "hints": [["empty rectangle", "N_ER"]]}},
    {"name": "strong-link chain, 3 links", "order": 90, "consulted": True,
     "finder": "grader.strategy.expert.links:strong_link_chains", "uses": ["pos"], "args": [3],
     "c": {"index": 5, "run": ["strong_links(P, 3)"],
           "hints": [["strong-link chain (3 links)", "N_SLC3"]]}},
    {"name": "strong-link chain, 4 links", "order": 120, "consulted": True,
     "finder": "grader.strategy.expert.links:strong_link_chains", "uses": ["pos"], "args": [4],
     "c": {"index": 8, "run": ["strong_links(P, 4)"],
           "hints": [["strong-link chain (4 links)", "N_SLC4"]]}},
)


class StrongLinkChain(PatternFamily):
    """Skyscraper, two-string kite, turbot fish, and chains of 3 or 4 strong
    links (SE 4.0-6.0)."""

    family = "strong-link-chain"
    names = ("skyscraper", "two-string kite", "turbot fish", "strong-link chain (3 links)",
             "strong-link chain (4 links)")
    roles: ClassVar[dict[str, Any]] = {"end": ("end of the chain", "#b2f2bb", "on dark_green"),
                                       "link": ("inner cell of the chain", "#ffe066",
                                                "on dark_goldenrod")}

    @classmethod
    def step(cls, hint: Hint, board: Board, engine: Engine | None = None) -> Step:
        d = hint.links[0][2]
        arcs: list[Arc] = []
        for i, (a, b, _) in enumerate(hint.links):
            if i:
                arcs.append(weak(board, hint.links[i - 1][1], d, a, d))
            arcs.append(strong(board, a, d, b, d))
        ends = (hint.links[0][0], hint.links[-1][1])
        roles = tuple((c, "end" if c in ends else "link") for c in hint.cells)
        return cls.make(hint, board, Pattern(cells=roles, values=(d,), arcs=tuple(arcs)))

    @staticmethod
    def summarize(step: Step) -> str:
        geo, d = step.geo, step.pattern.values[0]
        return f"on {geo.symbol(d)}, {chain_text(geo, step.pattern.arcs)}"

    @staticmethod
    def teach(step: Step) -> str:
        geo, arcs = step.geo, step.pattern.arcs
        sv = geo.symbol(step.pattern.values[0])
        first, last = arcs[0].a[0], arcs[-1].b[0]
        nstrong = sum(1 for a in arcs if a.strong)
        lines = [f"A chain of {nstrong} strong links on {sv} ({step.name}):"]
        lines += [f"- {arc_sentence(geo, a)};" for a in arcs]
        lines.append(
            f"Read from the start: if {rc(geo, first)} is not {sv}, the strong links and the "
            f"weak links between them force {sv} into {rc(geo, last)}.  So {sv} is in "
            f"{rc(geo, first)} or in {rc(geo, last)}, and no cell that sees both can hold it: "
            f"{conclusion(step)}.")
        return "\n".join(lines)

    @staticmethod
    def where(step: Step) -> str:
        geo = step.geo
        units = [unit(geo, a.unit) for a in step.pattern.arcs if a.strong and a.unit >= 0]
        return f"look at {geo.symbol(step.pattern.values[0])} in {_units(units)}"


def _units(names: list[str]) -> str:
    """``columns 5 and 9`` or ``row 3 and column 7``."""
    kinds = {n.split()[0] for n in names}
    if len(kinds) == 1:
        kind = kinds.pop()
        nums = [n.split()[1] for n in dict.fromkeys(names)]
        return f"{kind}s {' and '.join(nums)}" if len(nums) > 1 else f"{kind} {nums[0]}"
    return " and ".join(dict.fromkeys(names))


class EmptyRectangle(PatternFamily):
    """The empty rectangle (SE 4.3): in a box the digit lies on one row and
    one column of it (a grouped strong link), and a conjugate pair outside
    the box sees that row: the cell where the pair's other end meets the
    box's column loses the digit."""

    family = "empty-rectangle"
    names = ("empty rectangle",)
    roles: ClassVar[dict[str, Any]] = {"box": ("the box's places for the value", "#ffe066",
                                               "on dark_goldenrod"),
                                       "pair": ("conjugate pair", "#b2f2bb", "on dark_green")}

    @classmethod
    def step(cls, hint: Hint, board: Board, engine: Engine | None = None) -> Step:
        (p, q, d), = hint.links
        box = hint.cells[:-2]
        target = hint.eliminations[0][0]
        geo = board.geo
        # a pair in a column sees the box along p's row, and the box's
        # column runs through the target (rows and columns swapped for a pair
        # in a row)
        line = geo.cell_col if geo.cell_col[p] == geo.cell_col[q] else geo.cell_row
        cross = geo.cell_row if line is geo.cell_col else geo.cell_col
        # the two groups of the box's places, each shown by a cell off the
        # crossing of the two lines where the box has one
        near = min((c for c in box if cross[c] == cross[p]),
                   key=lambda c: line[c] == line[target])
        far = min((c for c in box if line[c] == line[target]),
                  key=lambda c: cross[c] == cross[p])
        # the two ends of the grouped strong link: the box's places on p's
        # row (column) and those on the target's column (row)
        near_group = tuple(c for c in box if cross[c] == cross[p])
        far_group = tuple(c for c in box if line[c] == line[target])
        arcs = (strong(board, q, d, p, d),
                replace(weak(board, p, d, near, d), b_group=near_group),
                Arc((near, d), (far, d), True, 2 * geo.n + geo.cell_block[box[0]],
                    a_group=near_group, b_group=far_group),
                replace(weak(board, far, d, target, d), a_group=far_group))
        roles = tuple((c, "box") for c in box) + ((p, "pair"), (q, "pair"))
        return cls.make(hint, board, Pattern(cells=roles, values=(d,), arcs=arcs))

    @staticmethod
    def summarize(step: Step) -> str:
        geo, d = step.geo, step.pattern.values[0]
        box = [c for c, r in step.pattern.cells if r == "box"]
        pair = [c for c, r in step.pattern.cells if r == "pair"]
        return (f"on {geo.symbol(d)}, box {geo.cell_block[box[0]] + 1} with the conjugate pair "
                f"{cells(geo, pair)}")

    @staticmethod
    def teach(step: Step) -> str:
        geo, d = step.geo, step.pattern.values[0]
        sv = geo.symbol(d)
        q_arc, p_near, box_arc, far_t = step.pattern.arcs
        q, p = q_arc.a[0], q_arc.b[0]
        target = far_t.b[0]
        box = geo.cell_block[box_arc.a[0]] + 1
        row, col = unit(geo, p_near.unit), unit(geo, far_t.unit)
        return (f"In box {box} the places of {sv} all lie on one row and one column of it (an "
                f"empty rectangle: the rest of the box is empty of {sv}), so the box's {sv} "
                f"is in {row} or in {col}: a grouped strong link.\n"
                f"- {arc_sentence(geo, q_arc)};\n"
                f"- {arc_sentence(geo, p_near)}: if {cand(geo, p, d)}, the box's {sv} is not "
                f"in {row}, so it is in {col};\n"
                f"- {arc_sentence(geo, far_t)}: then {rc(geo, target)} cannot hold {sv};\n"
                f"- if {cand(geo, q, d)} instead, {rc(geo, target)} sees it.\n"
                f"Either way {rc(geo, target)} cannot hold {sv}: {conclusion(step)}.")

    @staticmethod
    def where(step: Step) -> str:
        geo = step.geo
        box = next(c for c, r in step.pattern.cells if r == "box")
        return (f"look at {geo.symbol(step.pattern.values[0])} in box "
                f"{geo.cell_block[box] + 1} and the lines outside it")
