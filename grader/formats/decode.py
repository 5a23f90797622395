"""Bytes to numbered lines: decoding line by line, binary inputs refused, lines
that cannot be decoded (or are too long) kept as :class:`BadLine`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import BinaryIO

from grader.formats.grid import InputError, Record, _clip

#: A line longer than this (in bytes) is a ``malformed`` record of its own; the
#: rest of it is read and dropped in pieces, so memory stays bounded.
MAX_LINE_BYTES = 1 << 20
#: A NUL byte in this many first bytes makes an input binary, not text.
BINARY_SNIFF_BYTES = 8192


class BadLine(str):
    """A line that could not be decoded (or is too long): the text holds what
    could be read, ``error`` says what is wrong.  Every reader turns it into a
    ``malformed`` record of its own."""

    error: str

    def __new__(cls, text: str, error: str) -> BadLine:
        obj = super().__new__(cls, text)
        obj.error = error
        return obj



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
    for parts, _ in physical_lines(stream, source):
        yield from parts


def physical_lines(stream: BinaryIO, source: str, lineno: int = 0,
                   seen: int = 0) -> Iterator[tuple[list[tuple[int, str]], int]]:
    """:func:`binary_lines` one line of the file at a time: the numbered lines
    it holds (more than one where lone carriage returns split it) and its
    length in bytes.  ``lineno``, ``seen``: the lines and bytes before the
    stream's position, when it starts inside a file (a worker's byte range,
    see :mod:`grader.bulk.ranges`): the numbering and the checks go on as if
    the file had been read from its start."""
    while True:
        try:
            raw = stream.readline(MAX_LINE_BYTES + 1)
        except OSError as e:
            raise InputError(f"{source}: cannot read after line {lineno}: "
                             f"{e.strerror or e}") from e
        if not raw:
            return
        size = len(raw)
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
                size += len(raw)
            yield [(lineno, BadLine("", f"line longer than {MAX_LINE_BYTES // 1024} KiB"))], size
            continue
        if b"\0" in raw:
            yield [(lineno, BadLine("", "binary data (NUL bytes) on this line"))], size
            continue
        text = _decode(raw, lineno)
        if "\r" in text.rstrip("\r\n"):
            parts = []
            for k, part in enumerate(_split_cr(text)):
                if k:
                    lineno += 1
                parts.append((lineno, part))
            yield parts, size
        else:
            yield [(lineno, text)], size



def _is_comment(line: str) -> bool:
    s = line.lstrip()
    return s.startswith("#") or s.startswith("//")


def _content(line: str) -> bool:
    """Whether a line gives a record (it is neither blank nor a comment)."""
    if isinstance(line, BadLine):
        return not _is_comment(line)
    return bool(line.strip()) and not _is_comment(line)




def _bad(index: int, lineno: int, source: str, raw: str, fmt: str) -> Record:
    assert isinstance(raw, BadLine)
    return Record(index, lineno, source, _clip(raw), None, raw.error, fmt)

