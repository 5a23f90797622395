"""Reading grids: every input format, detected automatically, read lazily.

Formats (``--input-format``):

``line``
    One grid per line: n*n symbols, empty cells as ``.``, ``0``, ``-``, ``*``
    or ``_``.  The grid is the first token that looks like one; text around it
    (an id before it, a ``#`` comment or a rating after it, CSV-like columns)
    is ignored.  Lines starting with ``#`` are comments.  HoDoKu/SE ``.sdm``
    lists are this format.
``nt``
    The one-line "N T" format: block order N, a space, N**4 symbols with 0
    for empty (``3 000400009020980030...``).  Also recognised line by line in
    ``line`` files.
``block``
    n rows of n symbols; spaces, ``|``, ``+``, ``-`` and ``=`` box drawing are
    ignored; grids are separated by blank lines.
``csv``
    CSV with a header row: the column named ``puzzle`` or ``quizzes``, else
    the first.  Other columns are kept in :attr:`Record.extra`.
``jsonl``
    One JSON object per line; the grid is its ``puzzle``, ``quizzes`` or
    ``grid`` key (or ``--column``).  Other keys are kept in ``extra``.

Symbols: ``1..n`` for n <= 9; for larger grids ``1-9`` then ``A, B, C...``
(A = 10), upper case.

The package, one module a part: :mod:`~grader.formats.grid` (symbols, one grid,
the grid on a line), :mod:`~grader.formats.decode` (bytes to numbered lines),
:mod:`~grader.formats.detect` (guessing the format), one module per format
(:mod:`~grader.formats.line`, :mod:`~grader.formats.block`,
:mod:`~grader.formats.csv_rows`, :mod:`~grader.formats.jsonl`) and
:mod:`~grader.formats.sources` (files, standard input, inline grids).
Everything is importable from ``grader.formats`` itself, as before.
"""

from __future__ import annotations

from grader.formats.decode import BINARY_SNIFF_BYTES, MAX_LINE_BYTES, BadLine, binary_lines
from grader.formats.detect import detect_format, is_header_row
from grader.formats.grid import (
    EMPTY_SYMBOLS,
    FORMATS,
    JSON_KEYS,
    MAX_SHOWN,
    MAX_SIDE,
    Grid,
    InputError,
    MalformedGrid,
    Record,
    parse_grid_token,
    parse_line,
)
from grader.formats.sources import (
    DETECT_LINES,
    DETECT_MAX_LINES,
    check_sources,
    iter_binary,
    iter_lines,
    iter_source,
    iter_sources,
    iter_text,
    looks_like_grid_argument,
    read_grid,
)

__all__ = [
    "BINARY_SNIFF_BYTES", "DETECT_LINES", "DETECT_MAX_LINES", "EMPTY_SYMBOLS", "FORMATS",
    "JSON_KEYS", "MAX_LINE_BYTES", "MAX_SHOWN", "MAX_SIDE", "BadLine", "Grid", "InputError",
    "MalformedGrid", "Record", "binary_lines", "check_sources", "detect_format",
    "is_header_row", "iter_binary", "iter_lines", "iter_source", "iter_sources", "iter_text",
    "looks_like_grid_argument", "parse_grid_token", "parse_line", "read_grid",
]
