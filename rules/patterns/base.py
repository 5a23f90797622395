"""What every pattern family shares: the step it makes from a hint of the
expert walk, and the words players use (``r4c9``, ``row 4``, ``r4c46<>8``).

A family class presents the hints of the names it lists (``names``): its
:meth:`PatternFamily.step` turns a hint (what the walk found, see
:class:`grader.strategy.expert.hint.Hint`) into a :class:`~grader.core.steps.Step`
whose pattern holds the cells with their roles and the links (arcs) that
make it; its ``summarize``, ``teach`` and ``where`` read that step alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from grader.core.board import Board
from grader.core.geometry import Geometry
from grader.core.phrases import join_and
from grader.core.steps import Arc, Pattern, Step
from grader.strategy.engine import Engine
from grader.strategy.expert.hint import Hint

KIND_WORDS = ("row", "column", "box")


class PatternFamily:
    """The base of the families of the expert walk (see the module's doc)."""

    #: the family's key (the step's ``family``)
    family: ClassVar[str] = ""
    #: the hint names (the walk's ``se_pattern``) this class presents
    names: ClassVar[tuple[str, ...]] = ()
    #: the book's level of the trial the pattern stands for: a disjunctive
    #: construction whose branches meet (13) or a reductio (14)
    level: ClassVar[int] = 13
    #: roles of its cells (see :mod:`grader.core.roles`)
    roles: ClassVar[dict[str, Any]] = {}

    @classmethod
    def step(cls, hint: Hint, board: Board, engine: Engine | None = None) -> Step:
        """The step of ``hint`` on ``board`` (the position it was found on);
        ``engine``: the explanation's (trials use its rules)."""
        return cls.make(hint, board, Pattern(cells=tuple((c, "pattern") for c in hint.cells)))

    @classmethod
    def make(cls, hint: Hint, board: Board, pattern: Pattern) -> Step:
        return Step(rule=hint.family.replace(" ", "-").lower(), name=hint.family,
                    level=cls.level, family=cls.family,
                    placements=tuple(hint.placements), eliminations=tuple(hint.eliminations),
                    pattern=pattern, geo=board.geo, se=hint.rating / 10, technique=cls)

    @staticmethod
    def summarize(step: Step) -> str:
        """The reason part of the one-line summary (the step adds its name
        before and its conclusions after)."""
        return f"on {cells(step.geo, (c for c, _ in step.pattern.cells))}"

    @staticmethod
    def teach(step: Step) -> str | None:
        return None

    @staticmethod
    def where(step: Step) -> str | None:
        return None

    @staticmethod
    def support(step: Step) -> Iterable[tuple[int, int]] | None:
        return None


# -- the words players use ------------------------------------------------------
def rc(geo: Geometry, cell: int) -> str:
    """``r4c9``."""
    return f"r{geo.cell_row[cell] + 1}c{geo.cell_col[cell] + 1}"


def cells(geo: Geometry, cs: Iterable[int]) -> str:
    """``r4c4, r4c6 and r6c7``."""
    return join_and([rc(geo, c) for c in dict.fromkeys(cs)])


def unit(geo: Geometry, region: int) -> str:
    """``row 4``, ``column 9``, ``box 6``."""
    return f"{KIND_WORDS[geo.region_kind[region]]} {geo.region_index[region] + 1}"


def cand(geo: Geometry, cell: int, value: int, on: bool = True) -> str:
    """``r4c9=8`` (or ``r4c9<>8``)."""
    return f"{rc(geo, cell)}{'=' if on else '<>'}{geo.symbol(value)}"


def group(geo: Geometry, cs: Sequence[int]) -> str:
    """``r7c78`` or ``r13c9``: the cells of a group (a segment of a line),
    compactly; one cell: ``r7c8``."""
    cs = sorted(dict.fromkeys(cs))
    rows = dict.fromkeys(geo.cell_row[c] + 1 for c in cs)
    cols = dict.fromkeys(geo.cell_col[c] + 1 for c in cs)
    if len(rows) == 1 or len(cols) == 1:
        return f"r{''.join(map(str, rows))}c{''.join(map(str, cols))}"
    return ",".join(rc(geo, c) for c in cs)


def end(geo: Geometry, arc: Arc, first: bool) -> str:
    """An end of ``arc``: ``r4c9=8``, or a group's ``r7c78=8``."""
    cell, value = arc.a if first else arc.b
    cs = arc.a_cells if first else arc.b_cells
    return f"{group(geo, cs)}={geo.symbol(value)}"


def compact(geo: Geometry, effects: Sequence[tuple[int, int]], placed: bool) -> str:
    """``r4c46,r6c7<>8`` (eliminations grouped by value, then row) or ``r4c9=8``."""
    if placed:
        return ", ".join(cand(geo, c, v) for c, v in effects)
    by_value: dict[int, list[int]] = {}
    for c, v in effects:
        by_value.setdefault(v, []).append(c)
    parts = []
    for v, cs in by_value.items():
        rows: dict[int, list[int]] = {}
        for c in sorted(cs):
            rows.setdefault(geo.cell_row[c], []).append(geo.cell_col[c] + 1)
        parts.append(",".join(f"r{r + 1}c{''.join(str(k) for k in ks)}"
                              for r, ks in rows.items()) + f"<>{geo.symbol(v)}")
    return "; ".join(parts)


def conclusion(step: Step) -> str:
    """What the step proves, compactly: ``r4c46,r6c7<>8``."""
    geo = step.geo
    parts = []
    if step.placements:
        parts.append(compact(geo, step.placements, True))
    if step.eliminations:
        parts.append(compact(geo, step.eliminations, False))
    return "; ".join(parts)


def chain_text(geo: Geometry, arcs: Sequence[Arc]) -> str:
    """``r4c9=8 = r7c9=8 - r7c5=8 = r6c5=8``: the arcs read in order, ``=``
    for a strong link and ``-`` for a weak one (an arc starts where the one
    before it ended)."""
    if not arcs:
        return ""
    out = [end(geo, arcs[0], True)]
    for arc in arcs:
        out.append(("=" if arc.strong else "-") + " " + end(geo, arc, False))
    return " ".join(out)


# -- links and why they hold ----------------------------------------------------
def shared_units(geo: Geometry, a: int, b: int) -> list[int]:
    return [r for r in geo.cell_regions[a] if r in geo.cell_regions[b]]


def conjugate_unit(board: Board, a: int, b: int, d: int) -> int:
    """A unit where ``d`` has exactly the places ``a`` and ``b`` (-1: none)."""
    bit = 1 << (d - 1)
    for r in shared_units(board.geo, a, b):
        if [c for c in board.geo.regions[r] if board.cands[c] & bit] == sorted((a, b)):
            return r
    return -1


def strong(board: Board, a: int, da: int, b: int, db: int) -> Arc:
    """A strong link: a cell's two values, or a value's two places in a unit."""
    u = -1 if a == b else conjugate_unit(board, a, b, da)
    return Arc((a, da), (b, db), True, u)


def weak(board: Board, a: int, da: int, b: int, db: int) -> Arc:
    """A weak link: two values of one cell, or one value in two cells that
    see each other."""
    common = shared_units(board.geo, a, b) if a != b else []
    return Arc((a, da), (b, db), False, common[0] if common else -1)


def arc_reason(geo: Geometry, arc: Arc) -> str:
    """Why ``arc`` holds, in a clause: ``8 has only these two places in
    column 9``, ``r5c5 holds only 3 and 7``, ``they share row 7``."""
    (a, da), (b, db) = arc.a, arc.b
    if a == b:
        if arc.strong:
            return f"{rc(geo, a)} holds only {geo.symbol(da)} and {geo.symbol(db)}"
        return "a cell holds one value"
    where = f" in {unit(geo, arc.unit)}" if arc.unit >= 0 else ""
    if arc.strong and arc.grouped:
        return f"{geo.symbol(da)} has no other place{where}"
    if arc.strong:
        return f"{geo.symbol(da)} has only these two places{where}"
    return f"they share {unit(geo, arc.unit)}" if arc.unit >= 0 else "they see each other"


def arc_sentence(geo: Geometry, arc: Arc) -> str:
    """``r4c9=8 and r7c9=8 are strongly linked (8 has only these two places
    in column 9): one of them is true``."""
    x, y = end(geo, arc, True), end(geo, arc, False)
    if arc.strong:
        return (f"{x} and {y} are strongly linked ({arc_reason(geo, arc)}): at least one "
                f"of them is true")
    return (f"{x} and {y} are weakly linked ({arc_reason(geo, arc)}): at most one of "
            f"them is true")
