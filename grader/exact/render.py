"""Writing solved grids: in the input's own format, or drawn."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from grader.core.geometry import Geometry
from grader.formats import Record


def token(geo: Geometry, values: Sequence[int], empty: str = ".") -> str:
    """The ``n*n`` symbols of a grid on one line."""
    sym = geo.symbols
    return "".join(sym[v - 1] if v else empty for v in values)


def nt_line(geo: Geometry, values: Sequence[int]) -> str:
    """The one-line "N T" format: block order, a space, the symbols, 0 for empty."""
    return f"{geo.a} {token(geo, values, '0')}"


def block_lines(geo: Geometry, values: Sequence[int], empty: str = ".") -> list[str]:
    """``n`` rows, blocks separated by spaces (readable back as a block)."""
    n, b = geo.n, geo.b
    sym = geo.symbols
    rows = []
    for r in range(n):
        cells = [sym[v - 1] if v else empty for v in values[r * n:(r + 1) * n]]
        rows.append(" ".join("".join(cells[j:j + b]) for j in range(0, n, b)))
    return rows


def in_record_format(rec: Record, values: Sequence[int]) -> str:
    """A grid written like the record it came from (no trailing newline).

    ``nt``: the "N T" line; ``block``: ``n`` rows; ``line``: the input line
    with its grid replaced (an id before it or a comment after it stay); csv
    and jsonl: the grid symbols alone."""
    assert rec.grid is not None
    geo = rec.grid.geo
    if rec.format == "nt":
        return nt_line(geo, values)
    empty = "0" if "0" in rec.text and "." not in rec.text else "."
    if rec.format == "block":
        return "\n".join(block_lines(geo, values, empty))
    tok = token(geo, values, empty)
    rest = rec.extra.get("rest") if rec.format == "line" else None
    if rest and rec.text and rest.count(rec.text) == 1:
        head, tail = rest.split(rec.text, 1)
        return head + tok + _drop_solution_column(tail, len(rec.text))
    return tok


def _drop_solution_column(tail: str, length: int) -> str:
    """A "puzzle solution" line: the text after the puzzle starts with a full grid
    of the same length (the input's own solution), which the solved grid replaces."""
    stripped = tail.lstrip(" \t,;")
    first = stripped.split(None, 1)[0] if stripped.strip() else ""
    if len(first) == length and not any(ch in first for ch in ".0-*_"):
        return stripped[len(first):]
    return tail


def draw(geo: Geometry, values: Sequence[int], givens: Sequence[int] | None = None,
         empty: str = ".") -> str:
    """A drawn grid in plain ASCII (``+``, ``-``, ``|``), which the block
    reader reads back."""
    return draw_rich(geo, values, givens, empty).plain


def draw_rich(geo: Geometry, values: Sequence[int], givens: Sequence[int] | None = None,
              empty: str = ".") -> Text:
    """The drawn grid as rich text: givens bold, found values plain."""
    n, a, b = geo.n, geo.a, geo.b
    sym = geo.symbols
    rule = "+" + "+".join("-" * (2 * b + 1) for _ in range(n // b)) + "+"
    out = Text()
    for r in range(n):
        if r % a == 0:
            out.append(rule + "\n", style="dim")
        out.append("|", style="dim")
        for c in range(n):
            v = values[r * n + c]
            ch = sym[v - 1] if v else empty
            style = ""
            if givens is not None:
                style = "bold" if givens[r * n + c] else "cyan"
            out.append(" ")
            out.append(ch, style=style)
            if c % b == b - 1:
                out.append(" |", style="dim")
        out.append("\n")
    out.append(rule, style="dim")
    return out


def side_by_side(left: str, right: str, gap: str = "    ") -> str:
    """Two drawn grids next to each other."""
    ll = left.splitlines()
    rl = right.splitlines()
    width = max(len(s) for s in ll)
    rows = max(len(ll), len(rl))
    ll += [""] * (rows - len(ll))
    rl += [""] * (rows - len(rl))
    return "\n".join(f"{x:<{width}}{gap}{y}".rstrip() for x, y in zip(ll, rl, strict=True))
