"""The ``csv`` format: a header row, the grid in the column named ``puzzle`` or
``quizzes`` (or ``--column``), other columns kept in :attr:`Record.extra`."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator
from itertools import chain

from grader.formats.decode import BadLine, _bad, _content
from grader.formats.detect import _csv_column
from grader.formats.grid import (
    JSON_KEYS,
    InputError,
    MalformedGrid,
    Record,
    _clip,
    _looks_like_grid,
    parse_grid_token,
)
from grader.formats.line import _as_line


def _iter_csv(lines: Iterable[tuple[int, str]], source: str, box: tuple[int, int] | None,
              column: str | None = None) -> Iterator[Record]:
    """A header, then one record per row that is not blank.  A row that the csv
    module cannot read (a field over its size limit, ...) is ``malformed``."""
    it = iter(lines)
    header: list[str] | None = None
    index = 0
    first: tuple[int, str] | None = None  # a first row that is data, not a header
    for lineno, raw in it:
        if isinstance(raw, BadLine) and _content(raw):
            index += 1
            yield _bad(index, lineno, source, raw, "csv")
        elif _content(raw):
            try:
                header = next(csv.reader([raw]))
            except csv.Error as e:
                raise InputError(f"{source}:{lineno}: cannot read the CSV header: {e}") from e
            if column is None and any(_looks_like_grid(f.strip()) for f in header) \
                    and not any(f.strip().lower() in JSON_KEYS for f in header):
                # no header: the first row holds a grid, so the columns are unnamed
                first = (lineno, raw)
                header = [f"column{i + 1}" for i in range(len(header))]
            break
    if header is None:
        return
    if first is not None:
        it = chain([first], it)
    names = [h.strip() for h in header]
    lower = [h.lower() for h in names]
    if column is not None and column.lower() not in lower:
        raise InputError(f"{source}: no column named {column!r} (columns: {', '.join(names)})")
    col = _csv_column(lower, column)
    assert col is not None
    if first is not None:  # the grid column of a file without a header
        row = next(csv.reader([first[1]]))
        col = next((i for i, f in enumerate(row) if _looks_like_grid(f.strip())), 0)
    for lineno, raw in it:
        if not raw.strip() and not isinstance(raw, BadLine):
            continue
        index += 1
        if isinstance(raw, BadLine):
            yield _bad(index, lineno, source, raw, "csv")
            continue
        try:
            row = next(csv.reader([raw]))
        except csv.Error as e:
            yield Record(index, lineno, source, _clip(raw), None,
                         f"cannot read this CSV row: {e}", "csv")
            continue
        extra = {names[i]: row[i] for i in range(min(len(names), len(row))) if i != col}
        if col >= len(row):
            yield (_as_line(index, lineno, source, raw, box)
                   or Record(index, lineno, source, _clip(raw), None,
                             f"row has {len(row)} columns, no {names[col]!r} column", "csv",
                             extra))
            continue
        tok = row[col].strip()
        try:
            yield Record(index, lineno, source, tok, parse_grid_token(tok, box=box), None, "csv",
                         extra)
        except MalformedGrid as e:
            yield Record(index, lineno, source, _clip(tok), None, e.message, "csv", extra)


