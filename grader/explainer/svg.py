"""A standalone SVG drawing of a board, as in the book's figures.

Givens in bold black, values placed since in blue, candidates small in each
empty cell at a fixed place (value ``v`` at row ``(v-1) // b``, column
``(v-1) % b`` of an ``a x b`` mini-grid, like the 3x3 keypad of the book's
marked grids).  With a step, the pattern is highlighted by role (see
:mod:`grader.explainer.style`), the value the step places is circled in green
and the candidates it removes are struck out in red.  A pattern's links
(:class:`~grader.core.steps.Arc`) join the candidates they link: a strong
link solid, a weak one dashed, each end ringed.

>>> from grader.core.board import Board
>>> svg = grid_svg(Board.from_string("3.2....1....42.."))
>>> svg.startswith("<svg")
True
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from xml.sax.saxutils import escape

from grader.core.board import Board
from grader.core.geometry import Geometry
from grader.core.steps import Arc, Step
from grader.explainer.marks import CellMarks, step_marks
from grader.explainer.style import (
    CANDIDATE,
    ELIMINATION,
    GIVEN,
    LINKED,
    PATTERN_VALUE,
    PLACED,
    PLACEMENT,
    cell_style,
    region_style,
)

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


def _f(x: float) -> str:
    """Compact, deterministic number formatting."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return s if s != "-0" else "0"


@dataclass(frozen=True)
class Layout:
    """Where things are in the drawing (drawing units, ``cs`` per cell)."""

    geo: Geometry
    off: float
    cs: float = 100.0

    def cell_xy(self, c: int) -> tuple[float, float]:
        """Top-left corner of cell ``c``."""
        return self.off + self.geo.cell_col[c] * self.cs, self.off + self.geo.cell_row[c] * self.cs

    def cand_xy(self, c: int, v: int) -> tuple[float, float]:
        """Centre of candidate ``v`` of cell ``c``."""
        x, y = self.cell_xy(c)
        a, b = self.geo.a, self.geo.b
        return x + ((v - 1) % b + 0.5) * self.cs / b, y + ((v - 1) // b + 0.5) * self.cs / a

    @property
    def sub(self) -> float:
        """Size of a candidate's place."""
        return min(self.cs / self.geo.b, self.cs / self.geo.a)


#: the id of the page's shared grid frame (see :func:`frame_svg`), while a
#: page that defines it is drawn; None: every drawing has its own lines
PAGE_FRAME: ContextVar[str | None] = ContextVar("PAGE_FRAME", default=None)
#: whether the page fills in the plain candidates itself (on demand, from a
#: short code: see :func:`cands_code` and the page's script)
PAGE_DEFER: ContextVar[bool] = ContextVar("PAGE_DEFER", default=False)
#: the digits of the candidates' code (base 62: letters and digits only, so
#: that no rewriting of the page's notation, ``R1`` or ``r1c2``, can match in it)
CODE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
#: the positions a page has drawn already, as ``id(board) -> element id``:
#: a chain drawn on a position drawn before uses that drawing (``shared``)
PAGE_BASES: ContextVar[dict[int, str] | None] = ContextVar("PAGE_BASES", default=None)
#: the cells whose values (the givens) the page's frame draws
PAGE_GIVENS: ContextVar[frozenset[int]] = ContextVar("PAGE_GIVENS", default=frozenset())


def layout(geo: Geometry, labels: bool = True) -> Layout:
    return Layout(geo, (0.6 if labels else 0.08) * 100.0)


def grid_svg(board: Board, step: Step | None = None, *, size_px: int = 360,
             givens: Collection[int] | None = None, labels: bool = True,
             title: str | None = None, fills: Mapping[int, str] | None = None,
             overlay: Sequence[str] = (), frame: str | None = None,
             only: Collection[int] | None = None, shared: bool = False) -> str:
    """The board as a standalone ``<svg>`` element (a string).

    ``step``: highlight its pattern and effects (the board should be the
    position *before* the step).  ``givens``: the cells to draw as givens
    (others placed values are drawn as placed later); by default every
    placed value is drawn as a given.  ``labels``: row and column numbers
    around the grid.  ``size_px``: the drawing's width and height.
    ``fills``: background colours of cells (over the pattern's); ``overlay``:
    SVG elements drawn last (see :func:`layout` for their coordinates).
    ``frame``: the id of the grid's lines and labels drawn once in the page
    (:func:`frame_svg`), used instead of drawing them again.  ``only``: draw
    the candidates of these cells alone (a single rests on values, not on
    the pencil marks).  ``shared`` (a drawing without a step: a chain's): in a
    page, the position's values and candidates are drawn once, as an element
    the other drawings of that position use (:data:`PAGE_BASES`)."""
    lay = layout(board.geo, labels)
    drawn: frozenset[int] = frozenset()
    if frame is None and labels:
        frame = PAGE_FRAME.get()
        drawn = PAGE_GIVENS.get() if frame is not None else drawn
    margin = 0.6 if labels else 0.08  # in cell units
    total = (board.geo.n + 2 * margin) * lay.cs
    marks = step_marks(step)
    label = title or ("Sudoku grid" if step is None else step.summary())
    if frame is not None and PAGE_DEFER.get():  # in a page: its CSS sets the font and white
        parts = [f'<svg width="{size_px}" height="{size_px}" viewBox="0 0 {_f(total)} '
                 f'{_f(total)}" role="img">', f"<title>{escape(label)}</title>"]
    else:
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{size_px}" height="{size_px}" '
            f'viewBox="0 0 {_f(total)} {_f(total)}" role="img" font-family="{FONT}">',
            f"<title>{escape(label)}</title>",
            f'<rect x="0" y="0" width="{_f(total)}" height="{_f(total)}" fill="#ffffff"/>',
        ]
    parts += _backgrounds(lay, marks, fills)
    if frame is not None:
        parts.append(f'<use href="#{frame}"/>')
    else:
        parts += _grid_lines(lay)
        if labels:
            parts += _labels(lay)
    bases = PAGE_BASES.get() if shared and step is None and frame is not None else None
    base = None if bases is None else bases.get(id(board))
    if base is not None:
        parts.append(f'<use href="#{base}"/>')
    else:
        if bases is not None:  # the first drawing of this position: named, for the others
            base = f"pos-{len(bases) + 1}"
            bases[id(board)] = base
            parts.append(f'<g id="{base}">')
        # in a page, the values placed since the givens travel with the candidates' code
        placed = ({c: v for c, v in enumerate(board.values) if v and c not in drawn}
                  if PAGE_DEFER.get() and frame is not None and labels else None)
        if placed is None:
            parts += _values(lay, board, set(givens) if givens is not None else None, drawn)
        cands, marks_svg = _candidates(lay, board, marks, None if only is None else set(only),
                                       placed)
        parts += cands
        parts.extend(marks_svg)
        if bases is not None:
            parts.append("</g>")
    if step is not None:
        parts += links_svg(lay, step)
    parts.extend(overlay)
    parts.append("</svg>")
    return "\n".join(parts)


def frame_svg(geo: Geometry, frame: str, labels: bool = True, board: Board | None = None,
              givens: Collection[int] = ()) -> str:
    """A hidden ``<svg>`` defining once, as ``frame``, the grid's lines and
    labels and the values of ``givens`` on ``board``, for the drawings of a
    page (``grid_svg(..., frame=...)``, or :data:`PAGE_FRAME` and
    :data:`PAGE_GIVENS` while the page is drawn)."""
    lay = layout(geo, labels)
    n, cs = geo.n, lay.cs
    small = min(cs / geo.b, cs / geo.a) * (0.72 if n <= 9 else 0.62)
    syms = "".join(geo.symbol(w) for w in range(1, n + 1))
    data = (f'data-n="{n}" data-a="{geo.a}" data-b="{geo.b}" data-off="{_f(lay.off)}" '
            f'data-cs="{_f(cs)}" data-dy="{_f(small * 0.36)}" data-k="{-(-(n + 1) // 6)}" '
            f'data-s="{escape(syms)}" data-big="{_f(cs * 0.62)}" data-placed="{PLACED.fill}"')
    inner = _grid_lines(lay) + (_labels(lay) if labels else [])
    if board is not None:
        inner += _values(lay, board, set(givens), only=frozenset(givens))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" '
            f'style="position:absolute" aria-hidden="true" font-family="{FONT}"><defs>'
            f'<g id="{frame}" {data}>' + "".join(inner) + "</g></defs></svg>")


def _backgrounds(lay: Layout, marks: Mapping[int, CellMarks],
                 fills: Mapping[int, str] | None) -> list[str]:
    """Cell backgrounds: ``fills``, else the cell's role colour, else its region's tint."""
    cs = lay.cs
    parts: list[str] = []
    fills_of: dict[int, str] = {}
    for c in sorted(set(marks) | set(fills or ())):
        cm = marks.get(c)
        fill = None
        if fills and c in fills:
            fill = fills[c]
        elif cm is None:
            pass
        elif cm.cell_role is not None:
            fill = cell_style(cm.cell_role, cm.technique).fill
        elif cm.region_role is not None:
            fill = region_style(cm.region_role, cm.technique).fill
        if fill:
            fills_of[c] = fill
    # runs of one colour along a row, then runs of equal runs down the rows:
    # a row, a column or a box is one or a few rectangles
    n = lay.geo.n
    runs: list[list[int]] = []  # [row, col, width, height, fill index]
    colours: list[str] = []
    for r in range(n):
        col = 0
        while col < n:
            c = r * n + col
            fill = fills_of.get(c) if lay.geo.ncells == n * n else None
            if fill is None:
                col += 1
                continue
            w = 1
            while col + w < n and fills_of.get(c + w) == fill:
                w += 1
            if fill not in colours:
                colours.append(fill)
            k = colours.index(fill)
            above = next((u for u in runs if u[0] + u[3] == r and u[1] == col and u[2] == w
                          and u[4] == k), None)
            if above is not None:
                above[3] += 1
            else:
                runs.append([r, col, w, 1, k])
            col += w
    for r, col, w, h, k in runs:
        x, y = lay.cell_xy(r * n + col)
        parts.append(f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(cs * w)}" '
                     f'height="{_f(cs * h)}" fill="{colours[k]}"/>')
    return parts


def _grid_lines(lay: Layout) -> list[str]:
    """Thin lines between cells, thick between blocks (one path each)."""
    n, a, b, cs, off = lay.geo.n, lay.geo.a, lay.geo.b, lay.cs, lay.off
    thin_d: list[str] = []
    thick_d: list[str] = []
    span = _f(n * cs)
    for i in range(n + 1):
        q = _f(off + i * cs)
        (thick_d if i % a == 0 else thin_d).append(f"M{_f(off)} {q}h{span}")
        (thick_d if i % b == 0 else thin_d).append(f"M{q} {_f(off)}v{span}")
    return [f'<path d="{"".join(thin_d)}" stroke="#495057" '
            f'stroke-width="{_f(cs * 0.02)}" fill="none"/>',
            f'<path d="{"".join(thick_d)}" stroke="#212529" '
            f'stroke-width="{_f(cs * 0.07)}" stroke-linecap="square" fill="none"/>']


def _labels(lay: Layout) -> list[str]:
    """Row and column numbers around the grid."""
    cs, off = lay.cs, lay.off
    fs = cs * 0.32
    parts = [f'<g font-size="{_f(fs)}" text-anchor="middle" fill="#868e96">']
    for i in range(lay.geo.n):
        p = off + (i + 0.5) * cs
        parts.append(f'<text x="{_f(p)}" y="{_f(off - cs * 0.18)}">{i + 1}</text>')
        parts.append(f'<text x="{_f(off - cs * 0.3)}" y="{_f(p + fs * 0.35)}">{i + 1}</text>')
    parts.append("</g>")
    return parts


def _values(lay: Layout, board: Board, given_set: set[int] | None,
            drawn: frozenset[int] = frozenset(), only: frozenset[int] | None = None) -> list[str]:
    """The placed values: givens in bold black, the others in blue, one
    element per line of the grid and kind; ``drawn``: cells left out (the
    page's frame draws them); ``only``: just these cells."""
    geo, cs = lay.geo, lay.cs
    big = cs * 0.62
    parts = [f'<g font-size="{_f(big)}" text-anchor="middle">']
    runs: dict[tuple[str, str], list[tuple[float, str]]] = {}
    for c in range(geo.ncells):
        v = board.values[c]
        if not v or c in drawn or only is not None and c not in only:
            continue
        x, y = lay.cell_xy(c)
        if given_set is None or c in given_set:
            attrs = f'font-weight="bold" fill="{GIVEN.fill}"'
        else:
            attrs = f'fill="{PLACED.fill}"'
        runs.setdefault((attrs, _f(y + cs / 2 + big * 0.36)), []).append(
            (x + cs / 2, geo.symbol(v)))
    for (attrs, ys), glyphs in runs.items():
        xs = " ".join(_f(x) for x, _ in glyphs)
        parts.append(f'<text x="{xs}" y="{ys}" {attrs}>'
                     f'{escape("".join(g for _, g in glyphs))}</text>')
    parts.append("</g>")
    return parts


def _candidates(lay: Layout, board: Board, marks: Mapping[int, CellMarks],
                only: set[int] | None = None, placed: Mapping[int, int] | None = None
                ) -> tuple[list[str], list[str]]:
    """The candidates, small, at fixed places; and the marks drawn over them
    (the placement circled, the eliminations struck out).  ``placed``: the
    values placed since the givens, drawn by the page with the candidates."""
    geo, cs = lay.geo, lay.cs
    n, a, b = geo.n, geo.a, geo.b
    sub_w = cs / b
    sub_h = cs / a
    small = min(sub_w, sub_h) * (0.72 if n <= 9 else 0.62)
    parts = [f'<g class="cand" font-size="{_f(small)}" text-anchor="middle" '
             f'fill="{CANDIDATE.fill}">']
    marks_svg: list[str] = []
    runs: dict[str, list[tuple[float, str]]] = {}
    plain: dict[int, int] = {}
    marked: dict[tuple[str, str], list[tuple[float, str]]] = {}
    for c in range(geo.ncells):
        if board.values[c] or only is not None and c not in only:
            continue
        x, y = lay.cell_xy(c)
        m = marks.get(c)
        mask = board.cands[c]
        for w in range(1, n + 1):
            if not mask >> (w - 1) & 1:
                continue
            cx = x + ((w - 1) % b + 0.5) * sub_w
            cy = y + ((w - 1) // b + 0.5) * sub_h
            attrs = ""
            if m is not None and m.cell_role is not None and w in m.values:
                attrs = f' font-weight="bold" fill="{PATTERN_VALUE.fill}"'
            if m is not None and m.placed == w:
                r = min(sub_w, sub_h) * 0.46
                marks_svg.append(f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(r)}" fill="none" '
                                 f'stroke="{PLACEMENT.fill}" stroke-width="{_f(cs * 0.035)}"/>')
                attrs = f' font-weight="bold" fill="{PLACEMENT.fill}"'
            if m is not None and w in m.eliminated:
                attrs = f' font-weight="bold" fill="{ELIMINATION.fill}"'
                d = min(sub_w, sub_h) * 0.38
                marks_svg.append(f'<path d="M{_f(cx - d)} {_f(cy + d)}L{_f(cx + d)} '
                                 f'{_f(cy - d)}" stroke="{ELIMINATION.fill}" '
                                 f'stroke-width="{_f(cs * 0.03)}"/>')
            if attrs:
                marked.setdefault((attrs, _f(cy + small * 0.36)), []).append(
                    (cx, geo.symbol(w)))
            else:  # plain candidates of one line of the grid: one element
                plain[c] = plain.get(c, 0) | 1 << (w - 1)
                runs.setdefault(str(round(cy + small * 0.36)), []).append((cx, geo.symbol(w)))
    for (attrs, ys), glyphs in marked.items():
        xs = " ".join(_f(x) for x, _ in glyphs)
        parts.append(f'<text x="{xs}" y="{ys}"{attrs}>{escape("".join(g for _, g in glyphs))}'
                     f'</text>')
    if PAGE_DEFER.get() and lay.off > 10:
        # the page draws the plain candidates when the drawing is shown
        per = -(-(n + 1) // 6)  # n bits of candidates and the flag
        flag = 1 << (6 * per - 1)  # a placed value, not a set of candidates
        code = "".join(_code(flag | placed[c] if placed and c in placed else plain.get(c, 0),
                             per) for c in range(geo.ncells))
        syms = "".join(geo.symbol(w) for w in range(1, n + 1))
        # the layout (n, a, b, off, cs, dy, k, symbols) is on the page's frame
        del syms
        parts.append(f'<g class="cands" data-c="{code}"></g>')
        runs = {}
    # one <text> per line of candidates, a position per glyph: a third of the size
    for ys, glyphs in runs.items():
        xs = " ".join(str(round(x)) for x, _ in glyphs)
        parts.append(f'<text x="{xs}" y="{ys}">{escape("".join(g for _, g in glyphs))}</text>')
    parts.append("</g>")
    return parts, marks_svg


def _code(mask: int, per: int) -> str:
    """``mask`` in ``per`` digits of :data:`CODE62` (``per`` = ceil((n + 1) / 6):
    a mask of n bits and the flag ``1 << (6 * per - 1)`` fit)."""
    out = ""
    for _ in range(per):
        mask, digit = divmod(mask, 62)
        out = CODE62[digit] + out
    return out


def links_svg(lay: Layout, step: Step) -> list[str]:
    """The step's links (see the module's doc), in one group."""
    arcs = step.pattern.arcs
    if not arcs:
        return []
    r = lay.sub * 0.44
    width = _f(lay.cs * 0.035)
    parts = [f'<g class="links" fill="none" stroke="{LINKED.fill}" stroke-width="{width}" '
             f'stroke-linecap="round">']
    # an end is a candidate (a ring) or a group of them (one rounded box
    # around the group's candidates, drawn once)
    def key(arc: Arc, first: bool) -> tuple[tuple[int, ...], int]:
        return (arc.a_cells if first else arc.b_cells), (arc.a if first else arc.b)[1]

    ends = dict.fromkeys(key(arc, f) for arc in arcs for f in (True, False))
    centre: dict[tuple[tuple[int, ...], int], tuple[float, float]] = {}
    for cs, v in ends:
        pts = [lay.cand_xy(c, v) for c in cs]
        x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
        y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
        centre[(cs, v)] = ((x0 + x1) / 2, (y0 + y1) / 2)
        if len(cs) == 1:
            parts.append(f'<circle cx="{_f(x0)}" cy="{_f(y0)}" r="{_f(r)}"/>')
        else:
            parts.append(f'<rect class="group" x="{_f(x0 - r)}" y="{_f(y0 - r)}" '
                         f'width="{_f(x1 - x0 + 2 * r)}" height="{_f(y1 - y0 + 2 * r)}" '
                         f'rx="{_f(r)}"/>')
    def anchor(k: tuple[tuple[int, ...], int], towards: tuple[float, float],
               other: tuple[int, ...]) -> tuple[float, float]:
        """Where a link leaves an end: the group's candidate nearest ``towards``
        (of its cells outside the other end's group, where it has some)."""
        cs, v = k
        own = [c for c in cs if c not in other] or list(cs)
        return min((lay.cand_xy(c, v) for c in own),
                   key=lambda p: (p[0] - towards[0]) ** 2 + (p[1] - towards[1]) ** 2)

    for arc in arcs:
        ka, kb = key(arc, True), key(arc, False)
        pa = anchor(ka, centre[kb], kb[0])
        d = _curve(pa, anchor(kb, pa, ka[0]), r, lay.cs)
        if d:
            gap = f"{_f(lay.cs * 0.09)} {_f(lay.cs * 0.07)}"
            dash = "" if arc.strong else f' stroke-dasharray="{gap}"'
            parts.append(f'<path class="{arc.kind}" d="{d}"{dash}/>')
    parts.append("</g>")
    return parts


def _curve(p: tuple[float, float], q: tuple[float, float], r: float, cs: float) -> str:
    """A path from the ring around ``p`` to the one around ``q``, bent a
    little to one side (so links along a line stay apart from the candidates
    between their ends); empty when the rings touch."""
    (x1, y1), (x2, y2) = p, q
    dx, dy = x2 - x1, y2 - y1
    dist = (dx * dx + dy * dy) ** 0.5
    if dist <= 2 * r:
        return ""
    ux, uy = dx / dist, dy / dist
    bend = min(dist * 0.18, cs * 0.5)
    mx, my = (x1 + x2) / 2 - uy * bend, (y1 + y2) / 2 + ux * bend
    # leave the rings where the curve heads: towards the control point
    def start(x: float, y: float) -> tuple[float, float]:
        vx, vy = mx - x, my - y
        n = (vx * vx + vy * vy) ** 0.5 or 1.0
        return x + vx / n * r, y + vy / n * r

    sx, sy = start(x1, y1)
    ex, ey = start(x2, y2)
    return f"M{_f(sx)} {_f(sy)}Q{_f(mx)} {_f(my)} {_f(ex)} {_f(ey)}"
