"""Bytes to numbered lines: decoding line by line, binary inputs refused, lines
that cannot be decoded (or are too long) kept as :class:`BadLine`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, BinaryIO

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


#: Byte-order marks of the encodings read besides UTF-8 (UTF-32 first: its
#: little-endian mark starts with UTF-16's).
BOMS = ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"),
        (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))


def bom_encoding(head: bytes) -> str | None:
    """``utf-16`` or ``utf-32`` when ``head`` (the first bytes of an input)
    starts with their byte-order mark, as Windows writes "Unicode" text; None
    otherwise (UTF-8, with or without its mark)."""
    return next((enc for bom, enc in BOMS if head.startswith(bom)), None)


def utf16_guess(sample: bytes) -> str | None:
    """``UTF-16LE`` or ``UTF-16BE`` when ``sample`` (without a byte-order
    mark) looks like it: a NUL byte at most odd (or even) places; else None."""
    sample = sample[:512]
    half = len(sample) // 2
    if half < 4:
        return None
    odd = sample[1::2].count(0) / half
    even = sample[0::2].count(0) / half
    if odd > 0.6 and even < 0.1:
        return "UTF-16LE"
    if even > 0.6 and odd < 0.1:
        return "UTF-16BE"
    return None


def binary_error(source: str, data: bytes, at: int) -> InputError:
    """The error of a binary input (a NUL byte at ``at``, 1-based), saying
    how to convert it when it looks like UTF-16 without a byte-order mark."""
    guess = utf16_guess(data)
    if guess is not None:
        import shlex

        src = "" if source.startswith("<") else f" {shlex.quote(source)}"
        return InputError(f"{source}: looks like {guess} text without a byte-order mark: "
                          f"convert it to UTF-8 (iconv -f {guess} -t UTF-8{src} > "
                          f"grids.txt) or save it as UTF-8")
    return InputError(f"{source}: not a text file of grids (binary data: a NUL byte at "
                      f"byte {at})")


def _head(stream: Any) -> bytes:
    """The first bytes of a stream, left in it (b"" when they cannot be seen)."""
    peek = getattr(stream, "peek", None)
    if peek is not None:
        try:
            return bytes(peek(4))[:4]
        except (OSError, ValueError):
            return b""
    try:
        if stream.seekable():
            at = stream.tell()
            head = stream.read(4)
            stream.seek(at)
            return bytes(head)
    except (OSError, ValueError, AttributeError):
        pass
    return b""


class _Recoded:
    """A UTF-16 or UTF-32 byte stream read as UTF-8 lines (``readline``), so
    that the rest of the reading is the same; a byte sequence that is not
    valid there becomes U+FFFD (its grid is then malformed)."""

    def __init__(self, stream: Any, encoding: str) -> None:
        import codecs

        self.stream = stream
        self.decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        self.buffer = b""
        self.done = False

    def readline(self, limit: int = -1) -> bytes:
        while not self.done and b"\n" not in self.buffer and (
                limit < 0 or len(self.buffer) < limit):
            chunk = self.stream.read(1 << 16)
            text = self.decoder.decode(chunk or b"", final=not chunk)
            self.buffer += text.encode("utf-8", errors="surrogatepass")
            self.done = not chunk
        end = self.buffer.find(b"\n") + 1 or len(self.buffer)
        if 0 <= limit < end:
            end = limit
        line, self.buffer = self.buffer[:end], self.buffer[end:]
        return line


def binary_lines(stream: BinaryIO, source: str) -> Iterator[tuple[int, str]]:
    """The numbered lines of a byte stream, decoded one by one.

    UTF-8 (with or without a byte-order mark), and UTF-16 or UTF-32 with
    theirs (Windows' "Unicode" text), are read alike.  A line that cannot be
    decoded, or is longer than :data:`MAX_LINE_BYTES`, comes as a
    :class:`BadLine` (the reading goes on).  A NUL byte among the first
    :data:`BINARY_SNIFF_BYTES` bytes raises :class:`InputError` ("not a text
    file of grids", or how to convert UTF-16 without its mark); a later one
    makes its line malformed."""
    encoding = bom_encoding(_head(stream))
    if encoding is not None:
        stream = _Recoded(stream, encoding)  # type: ignore[assignment]
    for parts, _ in physical_lines(stream, source):
        yield from parts


def physical_lines(stream: BinaryIO, source: str, lineno: int = 0,
                   seen: int = 0) -> Iterator[tuple[list[tuple[int, str]], int]]:
    """:func:`binary_lines` one line of the file at a time: the numbered lines
    it holds (more than one where lone carriage returns split it) and its
    length in bytes.  ``lineno``, ``seen``: the lines and bytes before the
    stream's position, when it starts inside a file (a worker's byte range,
    see :mod:`grader.bulk.ranges`): the numbering and the checks go on as if
    the file had been read from its start.  (A UTF-16 or UTF-32 file is
    never read in byte ranges: see :func:`bom_encoding`.)"""
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
            raise binary_error(source, raw, seen + raw.index(b"\0") + 1)
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

