"""The candidate grid drawn with rich, as in the book's marked figures.

Each empty cell shows its candidates at fixed places (value ``v`` at row
``(v-1) // b``, column ``(v-1) % b`` of an ``a x b`` mini-grid); a filled cell
shows its value in the middle.  Blocks are separated by heavy lines, cells
by light ones.  With a step, the pattern is highlighted by role (see
:mod:`grader.explainer.style`), the value the step places is marked ``*`` and
the candidates it removes ``-`` and the candidates at the ends of a
pattern's links ``+`` (also in colour), so the marks survive plain-text
output; the legend reads the links in order (``=`` strong, ``-`` weak).

Without colour (a pipe, a file, ``--color never``, ``NO_COLOR``) the
highlighting is drawn with characters instead (:class:`Drawing` chooses): the
letter of a pattern cell's role in its top-right corner (``T`` target, ``X``
excluder, ...), the letter of a highlighted region in the bottom-right corner
of its cells (``r`` region, ``a`` also, ...), values placed earlier in
parentheses, givens bare; the legend names the letters.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

from rich.style import Style
from rich.text import Span, Text

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


NONE = Style()


class _Builder:
    """Text with styled runs, adjacent runs of one style merged (a grid has
    thousands of pieces: one span per piece would make rich slow)."""

    def __init__(self) -> None:
        self.chunks: list[str] = []
        self.spans: list[Span] = []
        self.pos = 0
        self._combined: dict[tuple[int, int], Style] = {}

    def add(self, text: str, style: Style = NONE) -> None:
        if not text:
            return
        end = self.pos + len(text)
        if style:
            last = self.spans[-1] if self.spans else None
            if last is not None and last.end == self.pos and last.style is style:
                self.spans[-1] = Span(last.start, end, style)
            else:
                self.spans.append(Span(self.pos, end, style))
        self.chunks.append(text)
        self.pos = end

    def combine(self, bg: Style, fg: Style) -> Style:
        key = (id(bg), id(fg))
        st = self._combined.get(key)
        if st is None:
            st = self._combined[key] = bg + fg
        return st

    def text(self) -> Text:
        plain = "".join(self.chunks).rstrip()
        size = len(plain)
        spans = [sp if sp.end <= size else Span(sp.start, size, sp.style)
                 for sp in self.spans if sp.start < size]
        return Text(plain, spans=spans, no_wrap=True, overflow="ignore")


_STYLE_CACHE: dict[str, Style] = {}


def _style(spec: str) -> Style:
    st = _STYLE_CACHE.get(spec)
    if st is None:
        st = _STYLE_CACHE[spec] = Style.parse(spec)
    return st


# Borders, labels and plain candidates share one style, so an unmarked stretch
# of the grid is a single run.
BORDER = LABEL = _style(CANDIDATE.rich)


def _background(m: CellMarks | None) -> Style:
    if m is None:
        return NONE
    if m.cell_role is not None:
        return _style(cell_style(m.cell_role, m.technique).rich)
    if m.region_role is not None:
        return _style(region_style(m.region_role, m.technique).rich)
    return NONE


def _corner(m: CellMarks | None, sub: int, last: int, plain: bool) -> str:
    """The last character of a cell's sub-line: a role letter in plain text."""
    if not plain or m is None:
        return " "
    if sub == 0 and m.cell_role is not None:
        return cell_style(m.cell_role, m.technique).letter or "C"
    if sub == last and m.region_role is not None:
        return region_style(m.region_role, m.technique).letter or "g"
    return " "


def grid_text(board: Board, step: Step | None = None, givens: Collection[int] | None = None,
              *, labels: bool = True, plain: bool = False) -> Text:
    """The board as a rich :class:`~rich.text.Text` (several lines).

    ``step``: highlight its pattern and effects on this board (the position
    before the step).  ``givens``: cells drawn as givens (default: every
    filled cell).  ``plain``: also mark, with characters, what colours show
    (role letters in the cell corners, values placed earlier in parentheses),
    for text without colour."""
    return _Painter(board, step_marks(step), set(givens) if givens is not None else None,
                    labels, plain).paint()


class _Painter:
    """Draws one board: borders, labels, and each cell as ``a`` sub-lines of
    ``b`` candidates (a value on the middle one)."""

    def __init__(self, board: Board, marks: dict[int, CellMarks], given_set: set[int] | None,
                 labels: bool, plain: bool) -> None:
        geo = self.geo = board.geo
        self.board, self.marks, self.given_set = board, marks, given_set
        self.labels, self.plain = labels, plain
        self.n, self.a, self.b = geo.n, geo.a, geo.b
        self.spaced = geo.n <= 9
        self.width = 2 * geo.b + 1 if self.spaced else geo.b + 2
        self.lw = len(str(geo.n)) + 1 if labels else 0
        self.cand_style = _style(CANDIDATE.rich)
        self.out = _Builder()

    def paint(self) -> Text:
        n, a, b, add = self.n, self.a, self.b, self.out.add
        if self.labels:
            add(" " * (self.lw + 1))
            for j in range(n):
                add(str(j + 1).center(self.width) + " ", LABEL)
            add("\n")
        for i in range(n):
            self.hline(i)
            for sub in range(a):
                if self.labels:
                    add((str(i + 1) if sub == a // 2 else "").rjust(self.lw - 1) + " ", LABEL)
                for j in range(n):
                    add(("┃" if j % b == 0 else "│"), BORDER)
                    self.cell_line(i * n + j, sub)
                add("┃", BORDER)
                add("\n")
        self.hline(n)
        return self.out.text()

    def hline(self, i: int) -> None:
        n, b, add = self.n, self.b, self.out.add
        heavy_h = i % self.a == 0
        seg = (_HEAVY if heavy_h else _LIGHT)["h"] * self.width
        if self.labels:
            add(" " * self.lw)
        for j in range(n + 1):
            add(_junction(i, j, n, heavy_h, j % b == 0), BORDER)
            if j < n:
                add(seg, BORDER)
        add("\n")

    def cell_line(self, c: int, sub: int) -> None:
        m = self.marks.get(c)
        v = self.board.values[c]
        if m is None and not v:
            self._plain_candidates(c, sub)
            return
        bg = _background(m) or self.cand_style  # blank areas join the surrounding run
        if v:
            self._value(c, sub, v, bg)
        else:
            self._marked_candidates(c, sub, m, bg)
        self.out.add(_corner(m, sub, self.a - 1, self.plain), bg)

    def _plain_candidates(self, c: int, sub: int) -> None:
        b, geo = self.b, self.geo
        mask = self.board.cands[c]
        syms = [geo.symbol(w) if mask >> (w - 1) & 1 else " "
                for w in range(sub * b + 1, sub * b + b + 1)]
        self.out.add((" " + " ".join(syms) + " ") if self.spaced else (" " + "".join(syms) + " "),
                     self.cand_style)

    def _value(self, c: int, sub: int, v: int, bg: Style) -> None:
        """A filled cell: its value on the middle sub-line, bold for a given."""
        add, width = self.out.add, self.width
        if sub != self.a // 2:
            add(" " * (width - 1), bg)
            return
        is_given = self.given_set is None or c in self.given_set
        style = self.out.combine(bg, _style(GIVEN.rich if is_given else PLACED.rich))
        sym = self.geo.symbol(v)
        if self.plain and not is_given:
            sym = f"({sym})"
        left = (width - len(sym)) // 2
        add(" " * left, bg)
        add(sym, style)
        add(" " * (width - left - len(sym) - 1), bg)

    def _marked_candidates(self, c: int, sub: int, m: CellMarks | None, bg: Style) -> None:
        """An empty cell of the step's pattern: its candidates coloured by role,
        the placement marked ``*``, the eliminations ``-``."""
        add, combine, n = self.out.add, self.out.combine, self.n
        mask = self.board.cands[c]
        if not self.spaced:
            add(" ", bg)
        for q in range(self.b):
            w = sub * self.b + q + 1
            has = w <= n and mask >> (w - 1) & 1
            sym = self.geo.symbol(w) if has else " "
            marker = " "
            style = self.cand_style
            if has and m is not None:
                if m.cell_role is not None and w in m.values:
                    style = _style(PATTERN_VALUE.rich)
                if w in m.linked:
                    marker, style = "+", _style(LINKED.rich)
                if m.placed == w:
                    marker, style = "*", _style(PLACEMENT.rich)
                elif w in m.eliminated:
                    marker, style = "-", _style(ELIMINATION.rich)
            fg = combine(bg, style)
            if self.spaced:
                add(marker, fg if marker != " " else bg)
            add(sym, fg if has else bg)


def legend(step: Step | None, *, plain: bool = False, placed_earlier: bool = False) -> Text:
    """One line naming the styles the step uses (``plain``: the letters that
    stand for them; ``placed_earlier``: also the parentheses of values placed
    earlier)."""
    t = Text()
    items: list[tuple[Style, str, str]] = []
    for _, role in step.pattern.cells if step is not None else ():
        st = cell_style(role, step.technique if step is not None else None)
        items.append((Style.parse(st.rich), (st.letter or "C") if plain else "  ", role))
    for _, role in step.pattern.regions if step is not None else ():
        rst = region_style(role, step.technique if step is not None else None)
        items.append((Style.parse(rst.rich), (rst.letter or "g") if plain else "  ",
                      f"{role} region" if role not in ("region", "also") else role))
    if step is not None and step.pattern.arcs:
        items.append((Style.parse(LINKED.rich), "+v", "linked"))
    if step is not None and step.placements:
        items.append((Style.parse(PLACEMENT.rich), "*v", "placed"))
    if step is not None and step.eliminations:
        items.append((Style.parse(ELIMINATION.rich), "-v", "eliminated"))
    if plain and placed_earlier:
        items.append((Style.parse(PLACED.rich), "(v)", "placed earlier; bare values are givens"))
    seen: set[str] = set()
    for style, swatch, label in items:
        if label in seen:
            continue
        seen.add(label)
        if len(t):
            t.append("   ")
        t.append(swatch, style)
        t.append(f" {label}")
    if step is not None and step.pattern.arcs:
        t.append(f"\nlinks (= strong, - weak): {links_text(step)}")
    return t


def links_text(step: Step) -> str:
    """The step's links read in order: ``r6c5=8 = r7c5=8 - r7c9=8``; a link
    that does not start where the one before ended starts a new piece
    (``;``)."""
    geo = step.geo

    def end(geo: Geometry, arc: Arc, first: bool) -> str:
        cs = sorted(arc.a_cells if first else arc.b_cells)
        v = (arc.a if first else arc.b)[1]
        rows = "".join(dict.fromkeys(str(geo.cell_row[c] + 1) for c in cs))
        cols = "".join(dict.fromkeys(str(geo.cell_col[c] + 1) for c in cs))
        if len(rows) > 1 and len(cols) > 1:
            return ",".join(f"r{geo.cell_row[c] + 1}c{geo.cell_col[c] + 1}"
                            for c in cs) + f"={geo.symbol(v)}"
        return f"r{rows}c{cols}={geo.symbol(v)}"

    out: list[str] = []
    last = None
    for arc in step.pattern.arcs:
        if (arc.a, arc.a_cells) != last:
            out.append(("; " if out else "") + end(geo, arc, True))
        out.append(f" {'=' if arc.strong else '-'} {end(geo, arc, False)}")
        last = (arc.b, arc.b_cells)
    return "".join(out)


class Drawing:
    """The grid (and the legend of a step) as a rich renderable that picks, when
    it is printed, colours for a colour console and :func:`grid_text`'s
    ``plain`` marks otherwise, so a pipe or a file keeps the information."""

    def __init__(self, board: Board, step: Step | None = None,
                 givens: Collection[int] | None = None, *, with_legend: bool = True) -> None:
        self.board, self.step, self.givens = board, step, givens
        self.with_legend = with_legend

    def __rich_console__(self, console: Any, options: Any) -> Iterator[Text]:
        plain = bool(console.no_color or console.color_system is None)
        yield grid_text(self.board, self.step, self.givens, plain=plain)
        if not self.with_legend:
            return
        given_set = set(self.givens) if self.givens is not None else None
        earlier = given_set is not None and any(
            v and c not in given_set for c, v in enumerate(self.board.values))
        line = legend(self.step, plain=plain, placed_earlier=earlier)
        if len(line):
            yield line
