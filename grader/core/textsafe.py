"""Text from outside (file names, grid lines, rule names, messages) shown
safely, on any terminal and in any encoding.  Cheap to import (no rich).

- :func:`escape_controls`: control characters shown as ``\\x1b``, never sent
  to the terminal raw (an escape sequence in a file name would retitle the
  window or clear the screen); also the invisible bidirectional overrides
  and, from a file name that is not UTF-8, the undecodable bytes.
- :func:`tolerant_streams`: standard output and error never fail on a
  character their encoding lacks (``PYTHONIOENCODING=ascii``, a Latin-1
  terminal): box drawing becomes ``+-|``, arrows ``->``, accents go, anything
  else is ``?``.
- :func:`env_flag`: the one reading of the project's on/off environment
  variables (``SUDOKU_GRADER_DEBUG``, ``SUDOKU_GRADER_PURE``): on for 1, true,
  yes, on (any case); off for anything else, 0 and empty included.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import re
import sys
import unicodedata

#: Values of an on/off environment variable that mean on.
ENV_ON = frozenset({"1", "true", "yes", "on"})


def env_flag(name: str) -> bool:
    """Whether the environment variable ``name`` is on (see :data:`ENV_ON`)."""
    return os.environ.get(name, "").strip().lower() in ENV_ON


# C0 controls but newline and tab, DEL, C1 controls, bidirectional controls,
# lone surrogates (bytes of a file name that is not UTF-8)
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                     "\u2066-\u2069\ud800-\udfff]")
_UNSAFE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                          "\u2066-\u2069\ud800-\udfff]")


def _code(m: re.Match[str]) -> str:
    ch = m.group()
    o = ord(ch)
    if 0xDC80 <= o <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{o - 0xDC00:02x}"
    return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}"


def escape_controls(text: str, newlines: bool = True) -> str:
    """``text`` with every control character written as an escape (``\\x1b``);
    newlines and tabs are kept unless ``newlines`` is False (a one-line field
    such as a file name)."""
    pattern = _UNSAFE if newlines else _UNSAFE_LINE
    return pattern.sub(_code, text) if pattern.search(text) else text


def shown(text: object) -> str:
    """A one-line value from outside (a file name, a line of input) as it may
    be printed: control characters escaped, newlines included."""
    return escape_controls(str(text), newlines=False)


# --------------------------------------------------------------------------- spreadsheets

#: What a spreadsheet reads as the start of a formula (OWASP, CSV injection),
#: and the apostrophe that marks a cell as text.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "'")


def spreadsheet_cell(text: str) -> str:
    """A text cell of a CSV output that no spreadsheet runs as a formula: one
    that starts with ``= + - @``, a tab or a carriage return gets the
    apostrophe that marks text (OWASP's CSV-injection advice), and so does
    one that starts with an apostrophe, so that :func:`spreadsheet_text`
    gives every cell back exactly.  Numbers are not text: they are written
    as they are (a negative score stays a number)."""
    return "'" + text if text.startswith(FORMULA_START) else text


def spreadsheet_text(cell: str) -> str:
    """The text of a cell written by :func:`spreadsheet_cell`."""
    return cell[1:] if cell.startswith("'") else cell


# --------------------------------------------------------------------------- encodings

#: Characters of the drawings and sentences, and what replaces them where the
#: output's encoding lacks them.
_ASCII = {"·": ".", "…": "...", "→": "->", "←": "<-", "⇒": "=>", "⇐": "<=", "≠": "!=",
          "≤": "<=", "≥": ">=", "×": "x", "•": "*", "—": "-", "–": "-", "“": '"', "”": '"',
          "‘": "'", "’": "'", "✓": "v", "✗": "x", "✔": "v", "✘": "x", "░": "#", "▒": "#",
          "▓": "#", "█": "#", "▏": "|", "▕": "|", "⁺": "+", "⁻": "-", "°": "o", "¬": "!",
          "∧": "&", "∨": "|", "⊕": "+", "µ": "u", "\u00a0": " "}

ERROR_HANDLER = "sudoku-grader-fallback"


def _fallback(ch: str) -> str:
    o = ord(ch)
    if 0xDC80 <= o <= 0xDCFF:
        return f"\\x{o - 0xDC00:02x}"
    if ch in _ASCII:
        return _ASCII[ch]
    name = unicodedata.name(ch, "")
    if name.startswith("BOX DRAWINGS"):  # a corner or a junction names its arms
        words = set(name.split())
        if words & {"AND", "UP", "DOWN", "LEFT", "RIGHT", "ARC", "DIAGONAL"}:
            return "+"
        return "-" if "HORIZONTAL" in words else "|" if "VERTICAL" in words else "+"
    if name.startswith(("LEFT ", "RIGHT ", "UPPER ", "LOWER ")) and "BLOCK" in name:
        return "#"
    plain = "".join(c for c in unicodedata.normalize("NFKD", ch) if ord(c) < 128)
    return plain or "?"


def _handle(err: UnicodeError) -> tuple[str, int]:
    if not isinstance(err, UnicodeEncodeError):
        raise err
    text = err.object[err.start:err.end]
    out = "".join(_fallback(ch) for ch in text)
    # what replaces a character must itself be encodable
    try:
        out.encode(err.encoding)
    except (UnicodeError, LookupError):
        out = out.encode("ascii", "replace").decode("ascii")
    return out, err.end


codecs.register_error(ERROR_HANDLER, _handle)


def tolerant_streams() -> None:
    """Standard output and error write every character: one their encoding
    lacks is replaced (see the module's docstring) instead of failing."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError, LookupError):
            stream.reconfigure(errors=ERROR_HANDLER)  # type: ignore[union-attr]
