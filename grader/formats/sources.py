"""Sources of records: files, standard input and grids given inline, read
lazily, the format detected from the first lines."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable, Iterator
from itertools import chain
from pathlib import Path
from typing import BinaryIO, TextIO

from grader.formats.block import _iter_block
from grader.formats.csv_rows import _iter_csv
from grader.formats.decode import _content, binary_lines, bom_encoding
from grader.formats.detect import detect_format
from grader.formats.grid import _SPLIT, FORMATS, InputError, Record, _looks_like_grid, _nt_token
from grader.formats.jsonl import _iter_jsonl
from grader.formats.line import _iter_line

#: Format detection reads this many lines holding something (or this many
#: lines in all, blank lines and comments included), whichever comes first.
DETECT_LINES = 20
DETECT_MAX_LINES = 500


def iter_lines(lines: Iterable[tuple[int, str]], source: str, fmt: str = "auto",
               box: tuple[int, int] | None = None,
               column: str | None = None) -> Iterator[Record]:
    """Records of numbered lines, read lazily (the first :data:`DETECT_LINES`
    lines holding something are peeked at to detect the format)."""
    numbered = iter(lines)
    fmt, head = _detected(numbered, fmt, column)
    lines = chain(head, numbered)
    if fmt == "csv":
        yield from _iter_csv(lines, source, box, column)
    elif fmt == "jsonl":
        yield from _iter_jsonl(lines, source, box, column)
    elif fmt == "block":
        yield from _iter_block(lines, source, box)
    else:
        yield from _iter_line(lines, source, box, force_nt=(fmt == "nt"))


def _detected(numbered: Iterator[tuple[int, str]], fmt: str,
              column: str | None) -> tuple[str, list[tuple[int, str]]]:
    """The format to read ``numbered`` in (``auto-nt``: "N T" lines, read as
    lines), and the lines read to detect it."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown input format {fmt!r} (choose from {', '.join(FORMATS)})")
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
    return fmt, head


def line_format(path: str, fmt: str = "auto", column: str | None = None) -> str | None:
    """How the file ``path`` is read when it holds one grid per line: "line",
    or "nt" (every line must be in the "N T" format); None when it is read
    another way (CSV, JSON Lines, blocks) or is not a regular file."""
    if path == "-" or looks_like_grid_argument(path) or not Path(path).is_file():
        return None
    with Path(path).open("rb") as fh:
        if bom_encoding(fh.read(4)) is not None:
            return None  # UTF-16 or UTF-32: read whole, never in byte ranges
        fh.seek(0)
        got, _ = _detected(binary_lines(fh, path), fmt, column)
    return {"line": "line", "auto-nt": "line", "nt": "nt"}.get(got)


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
