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
from typing import BinaryIO, TextIO

from .board import Board
from .errors import GraderError
from .geometry import EMPTY_SYMBOLS, SYMBOLS, Geometry
from .tokens import MAX_SIDE as MAX_SIDE  # re-exported
from .tokens import MalformedGrid, _valid_side, parse_values

FORMATS = ("auto", "line", "nt", "block", "csv", "jsonl")
JSON_KEYS = ("puzzle", "quizzes", "grid")
_GRID_CHARS = frozenset(SYMBOLS + EMPTY_SYMBOLS)
_SPLIT = re.compile(r"[\s,;\"']+")
_BOX_CHARS = str.maketrans("", "", " \t|+-=")


class InputError(GraderError, OSError):
    """An input that cannot be opened or read at all."""


#: A line longer than this (in bytes) is a ``malformed`` record of its own; the
#: rest of it is read and dropped in pieces, so memory stays bounded.
MAX_LINE_BYTES = 1 << 20
#: A NUL byte in this many first bytes makes an input binary, not text.
BINARY_SNIFF_BYTES = 8192
#: Malformed records show at most this many characters of what was read.
MAX_SHOWN = 2000


class BadLine(str):
    """A line that could not be decoded (or is too long): the text holds what
    could be read, ``error`` says what is wrong.  Every reader turns it into a
    ``malformed`` record of its own."""

    error: str

    def __new__(cls, text: str, error: str) -> BadLine:
        obj = super().__new__(cls, text)
        obj.error = error
        return obj


def _clip(text: str) -> str:
    text = text.strip()
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "..."


def _decode(raw: bytes, lineno: int) -> str:
    if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]  # a byte order mark is not a symbol
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        text = raw.decode("utf-8", errors="replace")
        return BadLine(text, f"not UTF-8: byte 0x{raw[e.start]:02x} at column {e.start + 1} "
                             f"({e.reason})")


def _split_cr(text: str) -> list[str]:
    """A line of an old Mac file (lone carriage returns) as its lines."""
    parts = re.split(r"\r(?!\n|$)", text)
    if isinstance(text, BadLine):
        return [BadLine(part, text.error) for part in parts]
    return parts


def binary_lines(stream: BinaryIO, source: str) -> Iterator[tuple[int, str]]:
    """The numbered lines of a byte stream, decoded one by one.

    A line that is not UTF-8, or is longer than :data:`MAX_LINE_BYTES`, comes
    as a :class:`BadLine` (the reading goes on).  A NUL byte among the first
    :data:`BINARY_SNIFF_BYTES` bytes raises :class:`InputError` ("not a text
    file of grids"); a later one makes its line malformed."""
    lineno = 0
    seen = 0
    while True:
        try:
            raw = stream.readline(MAX_LINE_BYTES + 1)
        except OSError as e:
            raise InputError(f"{source}: cannot read after line {lineno}: "
                             f"{e.strerror or e}") from e
        if not raw:
            return
        if seen < BINARY_SNIFF_BYTES and b"\0" in raw[:BINARY_SNIFF_BYTES - seen]:
            at = seen + raw.index(b"\0") + 1
            raise InputError(f"{source}: not a text file of grids (binary data: a NUL byte "
                             f"at byte {at})")
        seen += len(raw)
        lineno += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):  # drop the rest of the line
                raw = stream.readline(MAX_LINE_BYTES)
                seen += len(raw)
            yield lineno, BadLine("", f"line longer than {MAX_LINE_BYTES // 1024} KiB")
            continue
        if b"\0" in raw:
            yield lineno, BadLine("", "binary data (NUL bytes) on this line")
            continue
        text = _decode(raw, lineno)
        if "\r" in text.rstrip("\r\n"):
            for k, part in enumerate(_split_cr(text)):
                if k:
                    lineno += 1
                yield lineno, part
        else:
            yield lineno, text


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


def parse_grid_token(token: str, box: tuple[int, int] | None = None,
                     side: int | None = None) -> Grid:
    """Parse n*n symbols into a :class:`Grid` or raise :class:`MalformedGrid`."""
    return Grid(*parse_values(token, box, side))


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


def _content(line: str) -> bool:
    """Whether a line gives a record (it is neither blank nor a comment)."""
    if isinstance(line, BadLine):
        return not _is_comment(line)
    return bool(line.strip()) and not _is_comment(line)


def is_header_row(line: str) -> bool:
    """A column header (tab or comma separated) that names the grid column, e.g.
    ``id,puzzle,rating``: read as a header, not as a grid."""
    sep = "\t" if "\t" in line else ","
    fields = [f.strip().strip("\"'").lower() for f in line.strip().split(sep)]
    return (any(f in JSON_KEYS for f in fields)
            and not any(_looks_like_grid(f) for f in fields))


def _block_row(line: str) -> bool:
    """Whether a line reads as a row (or box drawing) of a grid in blocks."""
    s = line.strip()
    compact = s.translate(_BOX_CHARS)
    if not compact:
        return True  # a separator line
    k = len(compact)
    if not (_valid_side(k) and all(ch in _GRID_CHARS for ch in compact)):
        return False
    # k symbols on a row: a block row, unless it is a whole small grid
    # (4x4 = 16, 6x6 = 36 symbols) written on one line without separators
    whole_grid = isqrt(k) ** 2 == k and _valid_side(isqrt(k))
    return compact != s or not whole_grid


def _text_line(line: str) -> bool:
    """In a file of blocks: a line of words (a title), not a row of symbols."""
    compact = line.strip().translate(_BOX_CHARS)
    return bool(_WORD.search(line)) or any(
        ch not in _GRID_CHARS and not ch.isalpha() for ch in compact)


_WORD = re.compile(r"[a-z]{2,}")


def _csv_header(line: str) -> list[str] | None:
    """The fields of a CSV header line, or None when the line is not one."""
    if "," not in line or any(_looks_like_grid(t) for t in line.split(",")[1:]):
        return None
    try:
        fields = next(csv.reader([line]))
    except (csv.Error, StopIteration):
        return None
    names = [f.strip().lower() for f in fields]
    if "puzzle" in names or "quizzes" in names or not _looks_like_grid(fields[0].strip()):
        return names
    return None


def _csv_column(names: list[str], column: str | None) -> int | None:
    if column is not None:
        return names.index(column.lower()) if column.lower() in names else None
    for key in ("puzzle", "quizzes"):
        if key in names:
            return names.index(key)
    return 0


def _csv_fit(content: list[str], column: str | None) -> set[int]:
    """The lines a CSV reading explains (by position in ``content``): the header
    and the rows whose grid column holds something like a grid."""
    names = _csv_header(content[0])
    if names is None:
        return set()
    col = _csv_column(names, column)
    if col is None:
        return {0}
    fit = {0}
    for k, line in enumerate(content[1:], start=1):
        try:
            row = next(csv.reader([line]))
        except csv.Error:
            if "," in line:  # a CSV row the csv module cannot read (a field too long)
                fit.add(k)
            continue
        except StopIteration:
            continue
        if col < len(row) and _looks_like_grid(row[col].strip()):
            fit.add(k)
    return fit


#: When two formats explain as many lines, the first of these wins.
_PRIORITY = ("jsonl", "csv", "nt", "line", "block")


def detect_format(lines: list[str], column: str | None = None) -> str:
    """Guess the format from the first lines of an input.

    Every line votes for the formats it fits (a JSON object, an "N T" line, a
    line holding a grid, a row of a block, CSV rows under a header); the format
    that explains the most lines wins.  So one odd line (a title, a stray
    ``123456789``, a JSON comment) does not decide how the rest is read: it
    becomes a ``malformed`` record of its own."""
    content = [ln for ln in lines if _content(ln) and not isinstance(ln, BadLine)]
    if not content:
        return "line"
    if column is not None and _csv_header(content[0]) is not None:
        return "csv"  # --column names a column of this header (or says it has none)
    votes = dict.fromkeys(_PRIORITY, 0)
    csv_rows = _csv_fit(content, column)
    votes["csv"] = len(csv_rows)
    for k, ln in enumerate(content):
        s = ln.strip()
        if s.startswith("{") and s.endswith("}"):
            votes["jsonl"] += 1
            continue  # a JSON object, whatever it holds
        if k in csv_rows:
            continue  # a CSV row under a header
        tokens = [t for t in _SPLIT.split(s) if t]
        if _nt_token(tokens) is not None:
            votes["nt"] += 1
        if any(_looks_like_grid(t) for t in tokens):
            votes["line"] += 1
        if _block_row(ln):
            votes["block"] += 1
    if all(not ln.strip().translate(_BOX_CHARS) for ln in content):
        votes["block"] = 0  # box drawing alone is no grid
    if votes["line"] and not votes["csv"] and is_header_row(content[0]):
        votes["line"] += 1  # a header over one-grid-per-line rows (e.g. a TSV)
    best = max(_PRIORITY, key=lambda f: (votes[f], -_PRIORITY.index(f)))
    return best if votes[best] else "line"


def _bad(index: int, lineno: int, source: str, raw: str, fmt: str) -> Record:
    assert isinstance(raw, BadLine)
    return Record(index, lineno, source, _clip(raw), None, raw.error, fmt)


def _iter_line(lines: Iterable[tuple[int, str]], source: str, box: tuple[int, int] | None,
               force_nt: bool = False) -> Iterator[Record]:
    """One record per line that is neither blank nor a comment (a first line that
    is a column header naming the grid column is a header)."""
    index = 0
    first = True
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


def _json_object(raw: str) -> tuple[dict[str, object] | None, str | None]:
    """A JSON line as an object, or why it is not one (never raises: deep nesting
    and huge numbers are errors of that line)."""
    try:
        obj = json.loads(raw)
    except json.JSONDecodeError as e:
        return None, f"not valid JSON: {e.msg} (column {e.colno})"
    except RecursionError:
        return None, "not valid JSON here: nested too deeply"
    except ValueError as e:  # e.g. an integer of more than 4300 digits
        return None, f"not valid JSON here: {str(e)[:120]}"
    if not isinstance(obj, dict):
        return None, "expected a JSON object"
    return obj, None


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


def _jsonl_record(index: int, lineno: int, source: str, raw: str,
                  box: tuple[int, int] | None, keys: tuple[str, ...]) -> Record:
    obj, err = _json_object(raw)
    if obj is None:
        plain = not raw.lstrip().startswith(("{", "["))  # not meant as JSON: a plain grid?
        return ((_as_line(index, lineno, source, raw, box) if plain else None)
                or Record(index, lineno, source, _clip(raw[:100]), None, err, "jsonl"))
    key = next((k for k in keys if k in obj), None)
    try:
        extra = {k: v if isinstance(v, str) else json.dumps(v) for k, v in obj.items()
                 if k != key}
    except (RecursionError, ValueError):
        extra = {}
    value = obj[key] if key is not None else None
    if not isinstance(value, str):
        return Record(index, lineno, source, _clip(raw[:100]), None,
                      f"no {' or '.join(repr(k) for k in keys)} key holding a grid", "jsonl",
                      extra)
    tok = value.strip()
    try:
        return Record(index, lineno, source, tok, parse_grid_token(tok, box=box), None,
                      "jsonl", extra)
    except MalformedGrid as e:
        return Record(index, lineno, source, _clip(tok), None, e.message, "jsonl", extra)


def _iter_jsonl(lines: Iterable[tuple[int, str]], source: str, box: tuple[int, int] | None,
                column: str | None = None) -> Iterator[Record]:
    """One record per line that is neither blank nor a comment."""
    keys = (column,) if column else JSON_KEYS
    index = 0
    for lineno, raw in lines:
        if not _content(raw):
            continue
        index += 1
        if isinstance(raw, BadLine):
            yield _bad(index, lineno, source, raw, "jsonl")
        else:
            yield _jsonl_record(index, lineno, source, raw, box, keys)


#: Format detection reads this many lines holding something (or this many
#: lines in all, blank lines and comments included), whichever comes first.
DETECT_LINES = 20
DETECT_MAX_LINES = 500


def iter_lines(lines: Iterable[tuple[int, str]], source: str, fmt: str = "auto",
               box: tuple[int, int] | None = None,
               column: str | None = None) -> Iterator[Record]:
    """Records of numbered lines, read lazily (the first :data:`DETECT_LINES`
    lines holding something are peeked at to detect the format)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown input format {fmt!r} (choose from {', '.join(FORMATS)})")
    numbered = iter(lines)
    head: list[tuple[int, str]] = []
    if fmt == "auto":
        content = 0
        for pair in numbered:
            head.append(pair)
            content += _content(pair[1])
            if content >= DETECT_LINES or len(head) >= DETECT_MAX_LINES:
                break
        fmt = detect_format([ln for _, ln in head], column)
        if fmt == "nt":
            fmt = "auto-nt"  # read as lines: a line in another format is still read
    lines = chain(head, numbered)
    if fmt == "csv":
        yield from _iter_csv(lines, source, box, column)
    elif fmt == "jsonl":
        yield from _iter_jsonl(lines, source, box, column)
    elif fmt == "block":
        yield from _iter_block(lines, source, box)
    else:
        yield from _iter_line(lines, source, box, force_nt=(fmt == "nt"))


def _first_line(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    for lineno, line in enumerate(lines, start=1):
        yield lineno, (line[1:] if lineno == 1 and line.startswith("\ufeff") else line)


def iter_text(stream: TextIO, source: str, fmt: str = "auto",
              box: tuple[int, int] | None = None, column: str | None = None) -> Iterator[Record]:
    """Records of a text stream, read lazily."""
    return iter_lines(_first_line(stream), source, fmt, box, column)


def iter_binary(stream: BinaryIO, source: str, fmt: str = "auto",
                box: tuple[int, int] | None = None,
                column: str | None = None) -> Iterator[Record]:
    """Records of a byte stream, decoded line by line (see :func:`binary_lines`)."""
    return iter_lines(binary_lines(stream, source), source, fmt, box, column)


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

    Raises :class:`InputError` when a file cannot be opened or read, or is not
    text; a line that cannot be decoded is a ``malformed`` record."""
    if arg == "-":
        buf = getattr(sys.stdin, "buffer", None)
        if buf is not None:
            yield from iter_binary(buf, "<stdin>", fmt, box, column)
        else:
            yield from iter_text(sys.stdin, "<stdin>", fmt, box, column)
        return
    if looks_like_grid_argument(arg):
        yield from iter_text(io.StringIO(arg), "<argument>", fmt, box, column)
        return
    try:
        fh = Path(arg).open("rb")  # noqa: SIM115 - closed by the with below
    except OSError as e:
        raise InputError(f"{arg}: cannot open: {e.strerror or e}") from e
    with fh:
        yield from iter_binary(fh, arg, fmt, box, column)


def check_sources(sources: Iterable[str]) -> None:
    """Raise :class:`InputError` for the first input that is missing, a
    directory or unreadable: checked before any work starts."""
    for src in sources:
        if src == "-" or looks_like_grid_argument(src):
            continue
        p = Path(src)
        try:
            if p.is_dir():
                raise InputError(f"{src}: cannot open: Is a directory")
            with p.open("rb"):
                pass
        except InputError:
            raise
        except OSError as e:
            raise InputError(f"{src}: cannot open: {e.strerror or e}") from e


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
