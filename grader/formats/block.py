"""The ``block`` format: n rows of n symbols, grids separated by blank lines."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from grader.formats.decode import BadLine, _bad, _is_comment
from grader.formats.detect import _block_row, _text_line
from grader.formats.grid import (
    _BOX_CHARS,
    MalformedGrid,
    Record,
    _clip,
    parse_grid_token,
    valid_side,
)
from grader.formats.line import _as_line


def _iter_block(lines: Iterable[tuple[int, str]], source: str,
                box: tuple[int, int] | None) -> Iterator[Record]:
    """Grids as n rows of n symbols, separated by blank lines; a line of words
    (or one that cannot be decoded) is a ``malformed`` record of its own."""
    index = 0
    rows: list[str] = []
    start = 0

    def flush() -> Record | None:
        nonlocal index
        if not rows:
            return None
        index += 1
        token = "".join(rows)
        n = len(rows[0])
        if any(len(r) != n for r in rows) or len(rows) != n:
            lens = sorted({len(r) for r in rows})
            err = (f"block of {len(rows)} rows with {', '.join(map(str, lens))} symbols per row; "
                   f"expected n rows of n symbols")
            return Record(index, start, source, _clip(token), None, err, "block")
        try:
            return Record(index, start, source, token, parse_grid_token(token, box=box), None,
                          "block")
        except MalformedGrid as e:
            return Record(index, start, source, _clip(token), None, e.message, "block")

    for lineno, raw in lines:
        if _is_comment(raw) and not isinstance(raw, BadLine):
            continue
        if (not raw.strip() or isinstance(raw, BadLine) or _text_line(raw)
                or (not _block_row(raw) and _as_line(0, lineno, source, raw, box))):
            rec = flush()
            if rec is not None:
                yield rec
            rows = []
            if isinstance(raw, BadLine):
                index += 1
                yield _bad(index, lineno, source, raw, "block")
            elif raw.strip():
                index += 1
                yield (_as_line(index, lineno, source, raw, box)
                       or Record(index, lineno, source, _clip(raw), None,
                                 "no grid on this line (expected a row of a grid)", "block"))
            continue
        compact = raw.strip().translate(_BOX_CHARS)
        if not compact:
            continue  # box drawing
        if not rows:
            start = lineno
        rows.append(compact)
        if len(rows) == len(rows[0]) and valid_side(len(rows[0])):
            rec = flush()
            if rec is not None:
                yield rec
            rows = []
    rec = flush()
    if rec is not None:
        yield rec


