"""Chains and cycles: X-chains (6.6 + length), forcing chains (7.0 +
length) and Y-cycles (6.5 + length).

A chain is read from an assumption to its own negation.  Facts alternate:
an ON fact (a cell holds a value) switches OFF what it sees through a weak
link (the same value in a cell it sees, another value of the same cell); an
OFF fact switches ON the other end of a strong link (the value's only other
place in a unit, the cell's only other value).  Assuming a candidate true
and reaching its negation removes it; assuming it false and reaching it
true places it.  An X-chain stays on one value; a forcing chain also turns
inside cells.  A Y-cycle is a loop of cells with two values each: every
link of the loop is then strong both ways, and each link's value leaves the
cells that see both of its ends.
"""

from __future__ import annotations

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
    weak,
)

#: The expert families this module presents, declared once: the walk's order
#: (``order``), its finder, whether the engine consults it to choose trials,
#: and its C twin (number, calls, hint codes).  Pure data: setup.py reads it
#: without importing the package, to write grader/kernel/_families.h.
#: ``"walk": "python"``: the walk runs the finder, Sudoku Explainer's own
#: producer (which calls C itself), not the C twin (still built: hint codes).
FAMILIES = (
    {"name": "chains and cycles", "order": 160, "consulted": False,
     "finder": "grader.strategy.expert.families:producer", "uses": ["board", "kernel"],
     "args": ["cycles"], "walk": "python",
     "c": {"index": 12, "run": ["x_and_forcing(P, G)", "y_cycles(P)"], "graph": True,
           "hints": [["X-chain", "N_XCHAIN"], ["forcing chain", "N_FORCING"],
                     ["Y-cycle", "N_YCYCLE"]]}},
)

ROLES: dict[str, Any] = {"start": ("where the chain starts", "#d0bfff", "on dark_magenta"),
                         "link": ("cell of the chain", "#ffe066", "on dark_goldenrod")}


class Chain(PatternFamily):
    """X-chains and forcing chains: from an assumption to its negation."""

    family = "chain"
    names = ("X-chain", "forcing chain")
    #: A chain is a disjunctive construction on its first strong link: one
    #: end of the link is the assumption's neighbour by a weak link (or the
    #: assumption itself), the other leads along the chain to the same
    #: conclusion, so both alternatives of the pivot prove it (level 13).
    level = 13
    roles: ClassVar[dict[str, Any]] = ROLES

    @classmethod
    def step(cls, hint: Hint, board: Board, engine: Engine | None = None) -> Step:
        path = hint.links
        arcs = []
        for (a, da, on), (b, db, _) in zip(path, path[1:], strict=False):
            arcs.append(weak(board, a, da, b, db) if on else strong(board, a, da, b, db))
        start = path[0][0]
        roles = tuple((c, "start" if c == start else "link") for c in hint.cells)
        values = tuple(dict.fromkeys(d for _, d, _ in path))
        return cls.make(hint, board, Pattern(cells=roles, values=values, arcs=tuple(arcs)))

    @staticmethod
    def summarize(step: Step) -> str:
        return _read(step)

    @staticmethod
    def teach(step: Step) -> str:
        geo = step.geo
        arcs = step.pattern.arcs
        first = arcs[0].a
        removes = bool(step.eliminations)
        assume = cand(geo, *first, on=removes)
        lines = [f"Assume {assume} and follow the links ({step.name}):"]
        on = removes
        for arc in arcs:
            nxt = cand(geo, *arc.b, on=not on)
            why = arc_sentence(geo, arc)
            lines.append(f"- so {nxt}: {why};")
            on = not on
        verdict = (f"{assume} leads to its own negation, so it is false: {conclusion(step)}"
                   if removes else
                   f"assuming {cand(geo, *first, on=False)} leads to {cand(geo, *first)}, "
                   f"so it is true: {conclusion(step)}")
        lines.append(f"The chain ends where it started: {verdict}.")
        return "\n".join(lines)

    @staticmethod
    def where(step: Step) -> str:
        geo = step.geo
        first = step.pattern.arcs[0].a
        kind = "one value" if step.name == "X-chain" else "values"
        return (f"start from {geo.symbol(first[1])} in {rc(geo, first[0])} and follow "
                f"strong and weak links on {kind}")


def _read(step: Step) -> str:
    """``r1c2<>3 = r1c5=3 - r4c5<>3``: the chain with each fact's state."""
    geo = step.geo
    arcs = step.pattern.arcs
    on = bool(step.eliminations)
    out = [cand(geo, *arcs[0].a, on=on)]
    for arc in arcs:
        on = not on
        out.append(("-" if not on else "=") + " " + cand(geo, *arc.b, on=on))
    return " ".join(out)


class YCycle(PatternFamily):
    """A loop of bivalue cells, each pair of neighbours sharing the value that
    links them: every link is then strong both ways, and each link's value
    leaves the cells that see both of its ends."""

    family = "y-cycle"
    names = ("Y-cycle",)
    roles: ClassVar[dict[str, Any]] = ROLES

    @classmethod
    def step(cls, hint: Hint, board: Board, engine: Engine | None = None) -> Step:
        if not hint.links:  # a producer's cycle: the explainer finds its links
            raise ValueError(f"the walk's {hint.family} names no links")
        if len(hint.links) > len(hint.cells):
            return cls.facts_step(hint, board)
        loop = hint.cells
        k = len(loop)
        arcs: list[Arc] = []
        for i, c in enumerate(loop):
            d_in = hint.links[i - 1][2]
            d_out = hint.links[i][2]
            nxt = loop[(i + 1) % k]
            arcs.append(strong(board, c, d_in, c, d_out))
            arcs.append(weak(board, c, d_out, nxt, d_out))
        values = tuple(dict.fromkeys(d for _, _, d in hint.links))
        roles = tuple((c, "link") for c in loop)
        return cls.make(hint, board, Pattern(cells=roles, values=values, arcs=tuple(arcs)))

    @classmethod
    def facts_step(cls, hint: Hint, board: Board) -> Step:
        """A cycle of Sudoku Explainer's search, its ``links`` the facts
        ``(cell, digit, on)`` from its assumption round to itself (one more
        than its cells): an on fact switches the next off by a weak link, an
        off fact the next on by a strong link (X, Y or both)."""
        facts = hint.links
        if facts[0] != facts[-1] or not facts[0][2]:
            raise ValueError(f"the walk's {hint.family} is not a loop")
        arcs = tuple(weak(board, a, da, b, db) if on else strong(board, a, da, b, db)
                     for (a, da, on), (b, db, _) in zip(facts, facts[1:], strict=False))
        values = tuple(dict.fromkeys(d for _, d, _ in facts))
        roles = tuple((c, "link") for c in hint.cells)
        return cls.make(hint, board, Pattern(cells=roles, values=values, arcs=arcs))

    @staticmethod
    def summarize(step: Step) -> str:
        return chain_text(step.geo, step.pattern.arcs)

    @staticmethod
    def teach(step: Step) -> str:
        geo = step.geo
        loop = step.pattern.cells_with("link")
        if not step.pattern.arcs[0].strong:  # a cycle of Sudoku Explainer's search
            lines = [f"The links close a loop through {cells(geo, loop)}, strong and weak "
                     f"by turns:"]
            lines += [f"- {arc_sentence(geo, a)};" for a in step.pattern.arcs]
            lines.append(
                "Each weak link of the loop is then strong too: whichever end of it is "
                "false, the links round the loop make the other true.  So either every "
                "candidate that starts a weak link is true, or every one that ends one is, "
                "and a cell that sees one of each holding the same value cannot hold it: "
                f"{conclusion(step)}.")
            return "\n".join(lines)
        lines = [f"The cells {cells(geo, loop)} hold two values each and form a loop: each "
                 f"cell sees the next, and they share the value that links them:"]
        lines += [f"- {arc_sentence(geo, a)};" for a in step.pattern.arcs]
        lines.append(
            "Follow the loop from any cell: whichever of its two values it holds, the values "
            "of all the others follow, one way round or the other.  So each link holds its "
            "value in one of its two cells, and a cell that sees both cannot hold it: "
            f"{conclusion(step)}.")
        return "\n".join(lines)

    @staticmethod
    def where(step: Step) -> str:
        return (f"look at the cells with two candidates around "
                f"{rc(step.geo, step.pattern.cells_with('link')[0])}: they close a loop")
