"""Detecting the format of an input from its first lines: every line votes for
the formats it fits, the format that explains the most lines wins."""

from __future__ import annotations

import csv
import re
from math import isqrt

from grader.formats.decode import BadLine, _content
from grader.formats.grid import (
    _BOX_CHARS,
    _GRID_CHARS,
    _SPLIT,
    JSON_KEYS,
    _looks_like_grid,
    _nt_token,
    valid_side,
)


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
    if not (valid_side(k) and all(ch in _GRID_CHARS for ch in compact)):
        return False
    # k symbols on a row: a block row, unless it is a whole small grid
    # (4x4 = 16, 6x6 = 36 symbols) written on one line without separators
    whole_grid = isqrt(k) ** 2 == k and valid_side(isqrt(k))
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

