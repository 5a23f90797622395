"""A daily pack: one grid of each rating, with solutions and a page to print
(``pack.html``, a Jinja2 template with autoescaping on)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from markupsafe import Markup

from grader.core.board import Board
from grader.generator.output import comment, grid_text, record
from grader.generator.search import Generated
from grader.strategy.hierarchy import Hierarchy

PACK_FILES = ("pack.txt", "solutions.txt", "pack.jsonl", "pack.html")

_CSS = """
body { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; margin: 2em; color: #212529; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
p.meta { color: #6c757d; margin-top: 0; }
section.puzzles, section.solutions { display: flex; flex-wrap: wrap; gap: 2em 3em; }
section.puzzles figure { width: 340px; }
section.solutions figure { width: 200px; }
figure { margin: 0; break-inside: avoid; page-break-inside: avoid; }
figcaption { margin-top: 0.4em; font-size: 0.95em; }
figcaption .rating { font-weight: bold; text-transform: capitalize; }
section.solutions figure svg { width: 200px; height: 200px; }
h2.solutions { page-break-before: always; break-before: page; }
@page { size: A4; margin: 12mm; }
@media print {
  body { margin: 0; }
  h1 { font-size: 16pt; margin: 0 0 1mm 0; }
  p.meta { font-size: 8pt; margin-bottom: 4mm; }
  section.puzzles, section.solutions { gap: 5mm 14mm; }
  section.puzzles figure { width: 72mm; }
  section.puzzles figure svg { width: 72mm; height: 72mm; }
  section.solutions figure { width: 52mm; }
  section.solutions figure svg { width: 52mm; height: 52mm; }
  figcaption { font-size: 9pt; margin-top: 1mm; }
  h2.solutions { margin-top: 0; }
}
"""


def _svg(board: Board, size_px: int, title: str, givens: set[int] | None = None) -> Markup:
    """A grid drawn by ``explain``'s :func:`~grader.explainer.svg.grid_svg` (markup
    the package writes itself: it goes into the page as it is)."""
    from grader.explainer.svg import grid_svg

    return Markup(grid_svg(board, size_px=size_px, givens=givens, labels=False, title=title))


def _clean(g: Generated, values: tuple[int, ...]) -> Board:
    """A board of ``values`` without pencil marks (a printed grid has none)."""
    geo = g.geo
    return Board(geo, list(values), [0] * geo.ncells)


def pack_html(grids: Sequence[Generated], h: Hierarchy, title: str, meta: str) -> str:
    """The printable page, from the template ``templates/pack.html.j2``
    (autoescaping on): the grids, then (on a new page) their solutions."""
    from grader.explainer.templating import environment

    rows = [{"number": i, "rating": g.result.rating,
             "caption": comment(g, h).split(", ", 1)[1],
             "puzzle": _svg(_clean(g, g.puzzle), 340, f"Grid {i}: {g.result.rating}"),
             "solution": _svg(_clean(g, g.solution), 200, f"Solution of grid {i}",
                              {c for c, v in enumerate(g.puzzle) if v})}
            for i, g in enumerate(grids, 1)]
    return environment("grader.generator").get_template("pack.html.j2").render(
        title=title, meta=meta, css=Markup(_CSS), grids=rows)


def write_pack(directory: Path, grids: Sequence[Generated], h: Hierarchy, title: str,
               meta: str) -> list[Path]:
    """Write ``pack.txt`` (the grids, one per line with their rating),
    ``solutions.txt``, ``pack.jsonl`` (the contract plus the solution) and
    ``pack.html`` (to print) into ``directory``; return their paths."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = [directory / name for name in PACK_FILES]
    txt, sol, jsonl, html = paths
    header = f"# {title}\n# {meta}\n"
    from grader.formats.files import write_output  # each file whole or not at all

    write_output(txt, header + "".join(
        f"{grid_text(g.geo, g.puzzle)}  # {i}. {comment(g, h)}\n" for i, g in enumerate(grids, 1)))
    write_output(sol, header + "".join(
        f"{grid_text(g.geo, g.solution)}  # solution of grid {i} ({g.result.rating})\n"
        for i, g in enumerate(grids, 1)))
    write_output(jsonl, "".join(json.dumps(record(g, i)) + "\n" for i, g in enumerate(grids, 1)))
    write_output(html, pack_html(grids, h, title, meta))
    return paths
