"""Writing generated grids in the core's formats.

Every format can be read back by ``grade`` (and by the core's readers):

``line``   the grid on one line (``.`` for empty), then a ``#`` comment with
           its rating, level, hardest technique, score and number of givens
           (``--with-solution``: the solution after the grid);
``nt``     the one-line "N T" format (block order, a space, ``0`` for empty),
           square blocks only, with the same comment;
``block``  a comment line, then ``n`` rows with spaces and ``|`` between the
           blocks, ``-`` lines between the bands, a blank line after the grid
           (no solution: a second block would read as another grid);
``csv``    a header, then the fields of the JSON Lines contract and the solution;
``jsonl``  the core's JSON Lines contract plus ``solution``.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
from typing import Any

from grader.core.geometry import Geometry
from grader.core.textsafe import spreadsheet_cell
from grader.generator.search import Generated
from grader.strategy.grading import CONTRACT_FIELDS
from grader.strategy.hierarchy import Hierarchy

#: Output formats, as ``--format`` spells them (declared once: the command's
#: choices and the request's check derive from it); ``text``: a grid a line,
#: with a ``#`` comment
OUTPUT_FORMATS: tuple[str, ...] = ("text", "nt", "block", "csv", "jsonl")
DEFAULT_FORMAT = "text"
#: old names of ``--format`` values, still accepted (not listed), and what each means
FORMAT_ALIASES = {"line": "text"}
CSV_FIELDS: tuple[str, ...] = (*CONTRACT_FIELDS, "solution")


def grid_text(geo: Geometry, values: tuple[int, ...] | list[int], empty: str = ".") -> str:
    sym = geo.symbols
    return "".join(sym[v - 1] if v else empty for v in values)


def comment(g: Generated, h: Hierarchy) -> str:
    """``very difficult, level 9 (X-Wing), score 91.2, 26 givens``."""
    r = g.result
    hardest = r.hardest
    if hardest is not None:
        with contextlib.suppress(KeyError):
            hardest = h.spec(hardest).name
    depth = f", trials nested to depth {r.depth}" if r.depth and r.depth > 1 else ""
    se = ""
    if g.target is not None and g.target.by_se:
        # asked by Sudoku Explainer's ratings: say them
        se = "".join(f", {name} {v:.1f}" for name, v in (
            ("SE", r.se), ("EP", getattr(r, "ep", None)), ("ED", getattr(r, "ed", None)))
            if v is not None)
    return (f"{r.rating}, level {r.level} ({hardest}{depth}), score {r.score:.2f}{se}, "
            f"{g.givens} givens")


def record(g: Generated, index: int) -> dict[str, Any]:
    """The JSON Lines contract of a generated grid, with its solution."""
    rec = g.result.model_copy(update={"index": index}).contract(with_solution=True)
    return rec


def format_grid(g: Generated, index: int, fmt: str, h: Hierarchy,
                with_solution: bool = False) -> str:
    """One grid in a text format (``text``, ``nt``, ``block`` or ``jsonl``),
    ending with a newline.  CSV needs a header: use :class:`CsvWriter`."""
    geo = g.geo
    fmt = FORMAT_ALIASES.get(fmt, fmt)
    if fmt == "jsonl":
        return json.dumps(record(g, index)) + "\n"
    note = comment(g, h)
    if fmt == "text":
        text = grid_text(geo, g.puzzle)
        if with_solution:
            text += " " + grid_text(geo, g.solution)
        return f"{text}  # {note}\n"
    if fmt == "nt":
        if geo.a != geo.b:
            raise ValueError(f"the \"N T\" format needs square blocks, not {geo.a}x{geo.b}")
        text = f"{geo.a} {grid_text(geo, g.puzzle, '0')}"
        if with_solution:
            text += " " + grid_text(geo, g.solution)
        return f"{text}  # {note}\n"
    if fmt == "block":
        out = [f"# grid {index}: {note}"]
        out.extend(block_rows(geo, g.puzzle))
        return "\n".join(out) + "\n\n"
    raise ValueError(f"unknown output format {fmt!r}")


def block_rows(geo: Geometry, values: tuple[int, ...] | list[int]) -> list[str]:
    """The grid as ``n`` rows: blocks separated by `` | ``, bands by a rule."""
    n, a, b = geo.n, geo.a, geo.b
    sym = geo.symbols
    rows: list[str] = []
    for r in range(n):
        if r and r % a == 0:
            rows.append("-+-".join("-" * (2 * b - 1) for _ in range(n // b)))
        cells = [sym[values[r * n + c] - 1] if values[r * n + c] else "." for c in range(n)]
        rows.append(" | ".join(" ".join(cells[k:k + b]) for k in range(0, n, b)))
    return rows


class CsvWriter:
    """CSV output: a header, then one row per grid (techniques as ``code=count;...``)."""

    def __init__(self) -> None:
        self.header_done = False

    def rows(self, g: Generated, index: int) -> str:
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=list(CSV_FIELDS), lineterminator="\n")
        if not self.header_done:
            w.writeheader()
            self.header_done = True
        row = record(g, index)
        row["techniques"] = ";".join(f"{k}={v}" for k, v in g.result.techniques.items())
        # names from a hierarchy file never start a spreadsheet formula (OWASP)
        w.writerow({k: spreadsheet_cell(v) if isinstance(v, str) else v for k, v in row.items()})
        return buf.getvalue()
