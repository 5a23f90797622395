"""The candidate grid drawn with rich, as in the book's marked figures.

Each empty cell shows its candidates at fixed places (value ``v`` at row
``(v-1) // b``, column ``(v-1) % b`` of an ``a x b`` mini-grid); a filled cell
shows its value in the middle.  Blocks are separated by heavy lines, cells
by light ones.  With a step, the pattern is highlighted by role (see
:mod:`grader.explain.style`), the value the step places is marked ``*`` and
the candidates it removes ``-`` (also in colour), so the marks survive
plain-text output.
"""

from __future__ import annotations

from collections.abc import Collection

from rich.style import Style
from rich.text import Text

from ..board import Board
from ..steps import Step
from .marks import CellMarks, step_marks
from .style import (
    CANDIDATE,
    ELIMINATION,
    GIVEN,
    PATTERN_VALUE,
    PLACED,
    PLACEMENT,
    cell_style,
    region_style,
)

BORDER = Style(color="grey50")
LABEL = Style(color="grey50")

# junctions: (top, bottom, left edge, right edge) handled by _junction
_LIGHT = {"h": "─", "v": "│"}
_HEAVY = {"h": "━", "v": "┃"}


def _junction(i: int, j: int, n: int, heavy_h: bool, heavy_v: bool) -> str:
    """The box-drawing character where horizontal line ``i`` meets vertical
    line ``j`` (0..n each)."""
    top, bottom, left, right = i == 0, i == n, j == 0, j == n
    if top and left:
        return "┏"
    if top and right:
        return "┓"
    if bottom and left:
        return "┗"
    if bottom and right:
        return "┛"
    if top:
        return "┳" if heavy_v else "┯"
    if bottom:
        return "┻" if heavy_v else "┷"
    if left:
        return "┣" if heavy_h else "┠"
    if right:
        return "┫" if heavy_h else "┨"
    if heavy_h and heavy_v:
        return "╋"
    if heavy_h:
        return "┿"
    if heavy_v:
        return "╂"
    return "┼"


def _background(m: CellMarks | None) -> Style:
    if m is None:
        return Style()
    if m.cell_role is not None:
        return Style.parse(cell_style(m.cell_role).rich)
    if m.region_role is not None:
        return Style.parse(region_style(m.region_role).rich)
    return Style()


def grid_text(board: Board, step: Step | None = None, givens: Collection[int] | None = None,
              *, labels: bool = True) -> Text:
    """The board as a rich :class:`~rich.text.Text` (several lines).

    ``step``: highlight its pattern and effects on this board (the position
    before the step).  ``givens``: cells drawn as givens (default: every
    filled cell)."""
    geo = board.geo
    n, a, b = geo.n, geo.a, geo.b
    spaced = n <= 9
    width = 2 * b + 1 if spaced else b + 2
    marks = step_marks(step)
    given_set = set(givens) if givens is not None else None
    given_style = Style.parse(GIVEN.rich)
    placed_style = Style.parse(PLACED.rich)
    cand_style = Style.parse(CANDIDATE.rich)
    pat_style = Style.parse(PATTERN_VALUE.rich)
    place_style = Style.parse(PLACEMENT.rich)
    elim_style = Style.parse(ELIMINATION.rich)
    lw = len(str(n)) + 1 if labels else 0
    out = Text(no_wrap=True, overflow="ignore")

    if labels:
        out.append(" " * (lw + 1))
        for j in range(n):
            out.append(str(j + 1).center(width), LABEL)
            out.append(" ")
        out.append("\n")

    def hline(i: int) -> None:
        heavy_h = i % a == 0
        seg = (_HEAVY if heavy_h else _LIGHT)["h"] * width
        if labels:
            out.append(" " * lw)
        for j in range(n + 1):
            out.append(_junction(i, j, n, heavy_h, j % b == 0), BORDER)
            if j < n:
                out.append(seg, BORDER)
        out.append("\n")

    def cell_line(c: int, sub: int) -> None:
        m = marks.get(c)
        bg = _background(m)
        v = board.values[c]
        if v:
            if sub == a // 2:
                is_given = given_set is None or c in given_set
                style = given_style if is_given else placed_style
                sym = geo.symbol(v)
                left = (width - len(sym)) // 2
                out.append(" " * left, bg)
                out.append(sym, bg + style)
                out.append(" " * (width - left - len(sym)), bg)
            else:
                out.append(" " * width, bg)
            return
        mask = board.cands[c]
        if not spaced:
            out.append(" ", bg)
        for q in range(b):
            w = sub * b + q + 1
            has = w <= n and mask >> (w - 1) & 1
            sym = geo.symbol(w) if has else " "
            marker = " "
            style = cand_style
            if has and m is not None:
                if m.cell_role is not None and w in m.values:
                    style = pat_style
                if m.placed == w:
                    marker, style = "*", place_style
                elif w in m.eliminated:
                    marker, style = "-", elim_style
            if spaced:
                out.append(marker, bg + style if marker != " " else bg)
            out.append(sym, bg + style)
        out.append(" ", bg)

    for i in range(n):
        hline(i)
        for sub in range(a):
            if labels:
                out.append((str(i + 1) if sub == a // 2 else "").rjust(lw - 1) + " ", LABEL)
            for j in range(n):
                out.append(("┃" if j % b == 0 else "│"), BORDER)
                cell_line(i * n + j, sub)
            out.append("┃", BORDER)
            out.append("\n")
    hline(n)
    out.rstrip()
    return out


def legend(step: Step | None) -> Text:
    """One line naming the styles the step uses."""
    t = Text()
    if step is None:
        return t
    items: list[tuple[Style, str, str]] = []
    for _, role in step.pattern.cells:
        st = cell_style(role)
        items.append((Style.parse(st.rich), "  ", role))
    for _, role in step.pattern.regions:
        rst = region_style(role)
        items.append((Style.parse(rst.rich), "  ", f"{role} region" if role not in
                      ("region", "also") else role))
    if step.placements:
        items.append((Style.parse(PLACEMENT.rich), "*v", "placed"))
    if step.eliminations:
        items.append((Style.parse(ELIMINATION.rich), "-v", "eliminated"))
    seen: set[str] = set()
    for style, swatch, label in items:
        if label in seen:
            continue
        seen.add(label)
        if len(t):
            t.append("   ")
        t.append(swatch, style)
        t.append(f" {label}")
    return t
