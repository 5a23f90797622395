"""The ``line`` and ``nt`` formats: one grid per line."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from grader.formats.decode import BadLine, _bad, _content
from grader.formats.detect import is_header_row
from grader.formats.grid import _SPLIT, Record, _clip, parse_line


def _iter_line(lines: Iterable[tuple[int, str]], source: str, box: tuple[int, int] | None,
               force_nt: bool = False, index: int = 0, first: bool = True) -> Iterator[Record]:
    """One record per line that is neither blank nor a comment (a first line that
    is a column header naming the grid column is a header).  ``index``: the
    records before these lines; ``first``: no line holding something yet
    (False: the lines start after the file's first such line)."""
    for lineno, raw in lines:
        if not _content(raw):
            continue
        if isinstance(raw, BadLine):
            index += 1
            first = False
            yield _bad(index, lineno, source, raw, "line")
            continue
        if first:
            first = False
            if is_header_row(raw):
                continue
        tok, grid, err, fmt = parse_line(raw, box)
        if force_nt and fmt != "nt":
            tokens = [t for t in _SPLIT.split(raw.strip()) if t]
            err = err or "expected the \"N T\" format: block order, a space, N**4 symbols"
            grid = None
            tok = tok or (tokens[1] if len(tokens) > 1 else raw.strip())
        if not tok and err is None:
            err = "no grid on this line"
            tok = raw.strip()
        index += 1
        rest = raw.strip()
        yield Record(index, lineno, source, tok if grid is not None else _clip(tok), grid, err,
                     fmt, {"rest": rest} if rest != tok else {})



def _as_line(index: int, lineno: int, source: str, raw: str,
             box: tuple[int, int] | None) -> Record | None:
    """A line of a file in another format that holds a whole grid on its own
    (a plain grid among JSON lines, CSV rows or blocks): read as a line, so
    that a good grid is never lost to a wrong guess of the format."""
    tok, grid, _, fmt = parse_line(raw, box)
    if grid is None:
        return None
    rest = raw.strip()
    return Record(index, lineno, source, tok, grid, None, fmt,
                  {"rest": rest} if rest != tok else {})


