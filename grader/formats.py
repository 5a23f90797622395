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
"""

from __future__ import annotations

import csv
import io
import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain
from math import isqrt
from pathlib import Path
from typing import TextIO

from .board import Board
from .errors import GraderError
from .geometry import EMPTY_SYMBOLS, SYMBOLS, Geometry, default_box, geometry

FORMATS = ("auto", "line", "nt", "block", "csv", "jsonl")
JSON_KEYS = ("puzzle", "quizzes", "grid")
MAX_SIDE = len(SYMBOLS)
_GRID_CHARS = frozenset(SYMBOLS + EMPTY_SYMBOLS)
_SPLIT = re.compile(r"[\s,;\"']+")
_BOX_CHARS = str.maketrans("", "", " \t|+-=")


class MalformedGrid(GraderError, ValueError):
    """A grid that cannot be read: wrong length or symbol."""

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


class InputError(GraderError, OSError):
    """An input that cannot be opened or read at all."""


@dataclass(frozen=True)
class Grid:
    """A parsed grid: its geometry and values (0 for empty)."""

    geo: Geometry
    values: tuple[int, ...]

    def board(self) -> Board:
        return Board.from_values(self.geo, self.values)

    def normalised(self, empty: str = ".") -> str:
        sym = self.geo.symbols
        return "".join(sym[v - 1] if v else empty for v in self.values)

    @property
    def size(self) -> int:
        return self.geo.n

    @property
    def givens(self) -> int:
        return sum(1 for v in self.values if v)


@dataclass(frozen=True)
class Record:
    """One grid of an input, parsed or not.

    ``index`` counts records from 1 in input order; ``line`` is the 1-based
    line where the record starts; ``text`` the raw grid text; ``grid`` is
    None when ``error`` says why it could not be read."""

    index: int
    line: int
    source: str
    text: str
    grid: Grid | None
    error: str | None = None
    format: str = "line"
    extra: dict[str, str] = field(default_factory=dict)


def _valid_side(n: int) -> bool:
    if n < 4 or n > MAX_SIDE:
        return False
    a, _ = default_box(n)
    return a >= 2


def _expected_lengths() -> str:
    return ", ".join(str(n * n) for n in (4, 6, 8, 9, 12, 16, 25))


def parse_grid_token(token: str, box: tuple[int, int] | None = None,
                     side: int | None = None) -> Grid:
    """Parse n*n symbols into a :class:`Grid` or raise :class:`MalformedGrid`."""
    length = len(token)
    n = side if side is not None else isqrt(length)
    if n * n != length or not _valid_side(n):
        if box is not None:
            want = (box[0] * box[1]) ** 2
            raise MalformedGrid(
                f"{length} symbols, expected {want} for a {box[0] * box[1]}x{box[0] * box[1]} grid")
        raise MalformedGrid(
            f"{length} symbols: a grid has n*n symbols ({_expected_lengths()}, ...)")
    if box is not None:
        a, b = box
        if a * b != n:
            raise MalformedGrid(f"a {n}x{n} grid does not have {a}x{b} blocks")
    else:
        a, b = default_box(n)
    geo = geometry(a, b)
    lookup = _lookup(n)
    try:
        return Grid(geo, tuple([lookup[ch] for ch in token]))
    except KeyError:
        pass  # find and name the first bad symbol
    values = []
    for i, ch in enumerate(token):
        v = lookup.get(ch)
        if v is None:
            raise MalformedGrid(
                f"symbol {ch!r} at position {i + 1} (row {i // n + 1}, column {i % n + 1}) "
                f"is not valid in a {n}x{n} grid (use {geo.symbols[0]}-{geo.symbols[-1]}, "
                f"and . or 0 for empty)", position=i + 1)
        values.append(v)
    return Grid(geo, tuple(values))


_LOOKUPS: dict[int, dict[str, int]] = {}


def _lookup(n: int) -> dict[str, int]:
    t = _LOOKUPS.get(n)
    if t is None:
        t = {ch: 0 for ch in EMPTY_SYMBOLS}
        for v in range(1, n + 1):
            t[SYMBOLS[v - 1]] = v
            if SYMBOLS[v - 1].isalpha():
                t[SYMBOLS[v - 1].lower()] = v
        _LOOKUPS[n] = t
    return t


_DROP_GRID_CHARS = str.maketrans("", "", "".join(_GRID_CHARS))


def _looks_like_grid(token: str) -> bool:
    if len(token) < 16:
        return False
    good = len(token) - len(token.translate(_DROP_GRID_CHARS))
    return good * 2 >= len(token)


def _nt_token(tokens: list[str]) -> tuple[int, str] | None:
    if len(tokens) >= 2 and len(tokens[0]) == 1 and tokens[0] in "23456":
        order = int(tokens[0])
        if len(tokens[1]) == order ** 4:
            return order, tokens[1]
    return None


def parse_line(text: str, box: tuple[int, int] | None = None,
               ) -> tuple[str, Grid | None, str | None, str]:
    """Find and parse the grid on one line: (token, grid, error, format).

    Returns an empty token and no error when the line holds no grid at all."""
    tokens = [t for t in _SPLIT.split(text.strip()) if t]
    nt = _nt_token(tokens)
    if nt is not None:
        order, tok = nt
        try:
            return tok, parse_grid_token(tok, box=box or (order, order)), None, "nt"
        except MalformedGrid as e:
            return tok, None, e.message, "nt"
    for tok in tokens:
        if _looks_like_grid(tok):
            try:
                return tok, parse_grid_token(tok, box=box), None, "line"
            except MalformedGrid as e:
                return tok, None, e.message, "line"
    return "", None, None, "line"


def _is_comment(line: str) -> bool:
    s = line.lstrip()
    return s.startswith("#") or s.startswith("//")


def detect_format(lines: list[str]) -> str:
    """Guess the format from the first lines of an input."""
    content = [ln for ln in lines if ln.strip() and not _is_comment(ln)]
    if not content:
        return "line"
    first = content[0].strip()
    if first.startswith("{"):
        return "jsonl"
    tokens = [t for t in _SPLIT.split(first) if t]
    if _nt_token(tokens) is not None:
        return "nt"
    if "," in first and not any(_looks_like_grid(t) for t in first.split(",")[1:]):
        fields = next(csv.reader([first]))
        names = [f.strip().lower() for f in fields]
        if "puzzle" in names or "quizzes" in names or not _looks_like_grid(fields[0].strip()):
            return "csv"
    compact = first.translate(_BOX_CHARS)
    if not compact:  # a separator line: look further
        rows = [ln.strip() for ln in content if ln.strip().translate(_BOX_CHARS)]
        return "block" if rows and _valid_side(len(rows[0].translate(_BOX_CHARS))) else "line"
    k = len(compact)
    if _valid_side(k) and all(ch in _GRID_CHARS for ch in compact):
        # k symbols on a row: a block row, unless it is a whole small grid
        # (4x4 = 16, 6x6 = 36 symbols) written on one line without separators
        whole_grid = isqrt(k) ** 2 == k and _valid_side(isqrt(k))
        if compact != first or not whole_grid:
            return "block"
    return "line"


def _iter_line(lines: Iterable[tuple[int, str]], source: str, box: tuple[int, int] | None,
               force_nt: bool = False) -> Iterator[Record]:
    index = 0
    seen_grid = False
    for lineno, raw in lines:
        if not raw.strip() or _is_comment(raw):
            continue
        tok, grid, err, fmt = parse_line(raw, box)
        if force_nt and fmt != "nt":
            tokens = [t for t in _SPLIT.split(raw.strip()) if t]
            err = err or "expected the \"N T\" format: block order, a space, N**4 symbols"
            grid = None
            tok = tok or (tokens[1] if len(tokens) > 1 else raw.strip())
        if not tok and err is None:
            if not seen_grid:
                continue  # a title or header line before the first grid
            err = "no grid on this line"
            tok = raw.strip()[:100]
        seen_grid = True
        index += 1
        rest = raw.strip()
        yield Record(index, lineno, source, tok, grid, err, fmt,
                     {"rest": rest} if rest != tok else {})


def _iter_block(lines: Iterable[tuple[int, str]], source: str,
                box: tuple[int, int] | None) -> Iterator[Record]:
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
            return Record(index, start, source, token, None, err, "block")
        try:
            return Record(index, start, source, token, parse_grid_token(token, box=box), None,
                          "block")
        except MalformedGrid as e:
            return Record(index, start, source, token, None, e.message, "block")

    for lineno, raw in lines:
        if _is_comment(raw):
            continue
        if not raw.strip():
            rec = flush()
            if rec is not None:
                yield rec
            rows = []
            continue
        compact = raw.strip().translate(_BOX_CHARS)
        if not compact:
            continue  # box drawing
        if not rows:
            start = lineno
        rows.append(compact)
        if len(rows) == len(rows[0]) and _valid_side(len(rows[0])):
            rec = flush()
            if rec is not None:
                yield rec
            rows = []
    rec = flush()
    if rec is not None:
        yield rec


def _iter_csv(lines: Iterable[tuple[int, str]], source: str, box: tuple[int, int] | None,
              column: str | None = None) -> Iterator[Record]:
    it = iter(lines)
    header: list[str] | None = None
    for _lineno, raw in it:
        if raw.strip() and not _is_comment(raw):
            header = next(csv.reader([raw]))
            break
    if header is None:
        return
    names = [h.strip() for h in header]
    lower = [h.lower() for h in names]
    if column is not None:
        if column.lower() not in lower:
            raise InputError(f"{source}: no column named {column!r} (columns: {', '.join(names)})")
        col = lower.index(column.lower())
    elif "puzzle" in lower:
        col = lower.index("puzzle")
    elif "quizzes" in lower:
        col = lower.index("quizzes")
    else:
        col = 0
    index = 0
    for lineno, raw in it:
        if not raw.strip():
            continue
        row = next(csv.reader([raw]))
        index += 1
        extra = {names[i]: row[i] for i in range(min(len(names), len(row))) if i != col}
        if col >= len(row):
            yield Record(index, lineno, source, raw.strip(), None,
                         f"row has {len(row)} columns, no {names[col]!r} column", "csv", extra)
            continue
        tok = row[col].strip()
        try:
            yield Record(index, lineno, source, tok, parse_grid_token(tok, box=box), None, "csv",
                         extra)
        except MalformedGrid as e:
            yield Record(index, lineno, source, tok, None, e.message, "csv", extra)


def _iter_jsonl(lines: Iterable[tuple[int, str]], source: str, box: tuple[int, int] | None,
                column: str | None = None) -> Iterator[Record]:
    keys = (column,) if column else JSON_KEYS
    index = 0
    for lineno, raw in lines:
        if not raw.strip() or _is_comment(raw):
            continue
        index += 1
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as e:
            yield Record(index, lineno, source, raw.strip()[:100], None,
                         f"not valid JSON: {e.msg} (column {e.colno})", "jsonl")
            continue
        if not isinstance(obj, dict):
            yield Record(index, lineno, source, raw.strip()[:100], None,
                         "expected a JSON object", "jsonl")
            continue
        key = next((k for k in keys if k in obj), None)
        extra = {k: v if isinstance(v, str) else json.dumps(v) for k, v in obj.items()
                 if k != key}
        if key is None or not isinstance(obj[key], str):
            yield Record(index, lineno, source, raw.strip()[:100], None,
                         f"no {' or '.join(repr(k) for k in keys)} key holding a grid", "jsonl",
                         extra)
            continue
        tok = obj[key].strip()
        try:
            yield Record(index, lineno, source, tok, parse_grid_token(tok, box=box), None,
                         "jsonl", extra)
        except MalformedGrid as e:
            yield Record(index, lineno, source, tok, None, e.message, "jsonl", extra)


def iter_text(stream: TextIO, source: str, fmt: str = "auto",
              box: tuple[int, int] | None = None, column: str | None = None) -> Iterator[Record]:
    """Records of a text stream, read lazily (only a few lines are peeked at
    to detect the format)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown input format {fmt!r} (choose from {', '.join(FORMATS)})")
    numbered = enumerate(stream, start=1)
    head: list[tuple[int, str]] = []
    if fmt == "auto":
        for pair in numbered:
            head.append(pair)
            content = [ln for _, ln in head if ln.strip() and not _is_comment(ln)]
            if len(content) >= 3:
                break
        fmt = detect_format([ln for _, ln in head])
    lines = chain(head, numbered)
    if fmt == "csv":
        yield from _iter_csv(lines, source, box, column)
    elif fmt == "jsonl":
        yield from _iter_jsonl(lines, source, box, column)
    elif fmt == "block":
        yield from _iter_block(lines, source, box)
    else:
        yield from _iter_line(lines, source, box, force_nt=(fmt == "nt"))


def looks_like_grid_argument(arg: str) -> bool:
    """Whether a command-line argument is a grid rather than a file name."""
    try:
        if Path(arg).exists():
            return False
    except OSError:  # e.g. a 16x16 grid is longer than a file name may be
        pass
    tok = [t for t in _SPLIT.split(arg.strip()) if t]
    if _nt_token(tok) is not None:
        return True
    return len(tok) == 1 and _looks_like_grid(tok[0]) and "/" not in arg and not arg.endswith(
        (".txt", ".sdm", ".csv", ".tsv", ".jsonl"))


def iter_source(arg: str, fmt: str = "auto", box: tuple[int, int] | None = None,
                column: str | None = None) -> Iterator[Record]:
    """Records of a file name, ``-`` (standard input) or a grid given inline.

    Raises :class:`InputError` when a file cannot be opened or decoded."""
    if arg == "-":
        yield from iter_text(sys.stdin, "<stdin>", fmt, box, column)
        return
    if looks_like_grid_argument(arg):
        yield from iter_text(io.StringIO(arg), "<argument>", fmt, box, column)
        return
    path = Path(arg)
    try:
        fh = path.open("r", encoding="utf-8-sig", newline="")  # a BOM is not a symbol
    except OSError as e:
        raise InputError(f"{arg}: cannot open: {e.strerror or e}") from e
    with fh:
        try:
            yield from iter_text(fh, arg, fmt, box, column)
        except UnicodeDecodeError as e:
            raise InputError(f"{arg}: not a UTF-8 text file ({e.reason} at byte {e.start})") from e


def iter_sources(sources: Iterable[str], fmt: str = "auto", box: tuple[int, int] | None = None,
                 column: str | None = None) -> Iterator[Record]:
    """Every record of every source, renumbered across sources in input order."""
    index = 0
    for src in sources:
        for rec in iter_source(src, fmt, box, column):
            index += 1
            if rec.index != index:
                rec = Record(index, rec.line, rec.source, rec.text, rec.grid, rec.error,
                             rec.format, rec.extra)
            yield rec


def read_grid(arg: str, box: tuple[int, int] | None = None, index: int = 1) -> Record:
    """The ``index``-th record (1-based) of a file, ``-`` or inline grid."""
    for rec in iter_source(arg, box=box):
        if rec.index == index:
            return rec
    raise InputError(f"{arg}: no grid number {index}")
