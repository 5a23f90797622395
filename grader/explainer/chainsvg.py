"""A trial branch's chain drawn on the grid (for the HTML page).

On the position the trial starts from: the assumption circled in violet
(badge ``A``), every fact of the chain numbered as in the text (a placement
circled in green, an elimination struck out in red, the number in a badge
beside it), thin arrows from the facts a line uses to the line, and the end
marked: the cell left without a candidate or the region left without a place
for a value outlined in red, or the conclusions outlined in green.
Everything comes from the branch's chain; nothing is searched.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from grader.core.board import Board
from grader.core.steps import Branch, Step
from grader.explainer.style import ELIMINATION, PLACEMENT
from grader.explainer.svg import Layout, _f, grid_svg, layout

ASSUME = "#7048e8"
ASSUME_FILL = "#e5dbff"
CONFLICT = "#c92a2a"
ARROW = "#495057"



def _defs(uid: str) -> str:
    return (f'<defs><marker id="{uid}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" '
            f'markerHeight="5" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" '
            f'fill="{ARROW}"/></marker></defs>')


def _badge(lay: Layout, c: int, v: int, label: str, colour: str) -> str:
    x, y = lay.cand_xy(c, v)
    r = lay.sub * 0.3
    bx, by = x + lay.sub * 0.36, y - lay.sub * 0.36
    fs = r * (1.45 if len(label) == 1 else 1.15)
    return (f'<circle cx="{_f(bx)}" cy="{_f(by)}" r="{_f(r)}" fill="{colour}"/>'
            f'<text x="{_f(bx)}" y="{_f(by + fs * 0.36)}" font-size="{_f(fs)}" '
            f'text-anchor="middle" fill="#ffffff" font-weight="bold">{escape(label)}</text>')


def _fact(lay: Layout, c: int, v: int, placed: bool, label: str, colour: str) -> list[str]:
    x, y = lay.cand_xy(c, v)
    r = lay.sub * 0.46
    w = _f(lay.cs * 0.035)
    if placed:
        mark = (f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill="none" stroke="{colour}" '
                f'stroke-width="{w}"/>')
    else:
        d = lay.sub * 0.38
        mark = (f'<path d="M{_f(x - d)} {_f(y + d)}L{_f(x + d)} {_f(y - d)}" stroke="{colour}" '
                f'stroke-width="{w}"/>')
    return [mark, _badge(lay, c, v, label, colour)]


def _arrow(lay: Layout, a: tuple[int, int], b: tuple[int, int], uid: str) -> str:
    x1, y1 = lay.cand_xy(*a)
    x2, y2 = lay.cand_xy(*b)
    dx, dy = x2 - x1, y2 - y1
    dist = (dx * dx + dy * dy) ** 0.5
    if dist < 1:
        return ""
    cut = lay.sub * 0.5
    ux, uy = dx / dist, dy / dist
    # a slight bend, so that arrows along one line stay apart
    mx, my = (x1 + x2) / 2 - uy * dist * 0.12, (y1 + y2) / 2 + ux * dist * 0.12
    return (f'<path d="M{_f(x1 + ux * cut)} {_f(y1 + uy * cut)}Q{_f(mx)} {_f(my)} '
            f'{_f(x2 - ux * cut)} {_f(y2 - uy * cut)}" fill="none" stroke="{ARROW}" '
            f'stroke-opacity=".55" stroke-width="{_f(lay.cs * 0.025)}" marker-end="url(#{uid})"/>')


def _outline(lay: Layout, cells: list[int], colour: str) -> str:
    geo = lay.geo
    rows = [geo.cell_row[c] for c in cells]
    cols = [geo.cell_col[c] for c in cells]
    x, y = lay.off + min(cols) * lay.cs, lay.off + min(rows) * lay.cs
    w = (max(cols) - min(cols) + 1) * lay.cs
    h = (max(rows) - min(rows) + 1) * lay.cs
    pad = lay.cs * 0.05
    return (f'<rect x="{_f(x + pad)}" y="{_f(y + pad)}" width="{_f(w - 2 * pad)}" '
            f'height="{_f(h - 2 * pad)}" fill="none" stroke="{colour}" '
            f'stroke-width="{_f(lay.cs * 0.08)}" rx="{_f(lay.cs * 0.08)}"/>')


def chain_overlay(step: Step, b: Branch, lay: Layout, uid: str = "arrow") -> list[str]:
    """The SVG elements drawing the chain of branch ``b`` of trial ``step``
    (``uid``: the id of the arrow head, unique in the page)."""
    geo = step.geo
    out = [_defs(uid)]
    where: dict[int, tuple[int, int]] = {0: (b.cell, b.value)}
    facts: list[str] = []
    arrows: list[str] = []
    links = b.chain.links if b.chain is not None else ()
    for link in links:
        first = link.effects[0]
        where[link.index] = (first[0], first[1])
        for c, v, placed in link.effects:
            facts += _fact(lay, c, v, placed, str(link.index),
                           PLACEMENT.fill if placed else ELIMINATION.fill)
        for u in link.uses:
            if u in where:
                arrows.append(_arrow(lay, where[u], where[link.index], uid))
    k = b.conflict
    if k is not None:
        if k.region is not None and k.value is not None:
            out.append(_outline(lay, list(geo.regions[k.region]), CONFLICT))
        for c in k.cells:
            out.append(_outline(lay, [c], CONFLICT))
    else:
        for c, _ in (*step.placements, *step.eliminations):
            out.append(_outline(lay, [c], PLACEMENT.fill))
    out += [a for a in arrows if a]
    out += _fact(lay, b.cell, b.value, True, "A", ASSUME)
    out += facts
    return out


def chain_svg(board: Board, step: Step, b: Branch, *, size_px: int = 480,
              givens: set[int] | frozenset[int] | None = None, uid: str = "arrow") -> str:
    """The position ``board`` (before the trial ``step``) with the chain of
    branch ``b`` drawn on it (``uid``: an id unique in the page)."""
    lay = layout(board.geo)
    geo = board.geo
    title = (f"assume {geo.cell_name(b.cell)} <- {geo.symbol(b.value)}: "
             + ("contradiction" if b.conflict is not None else "conclusion"))
    return grid_svg(board, None, size_px=size_px, givens=givens, title=title,
                    fills={b.cell: ASSUME_FILL}, overlay=chain_overlay(step, b, lay, uid),
                    shared=True)
