"""Reading an output back, and ``--resume``.

Results are written in input order, so an output file is always a prefix of
the run (up to grids the selection dropped).  :class:`ResumeCursor` reads an
existing output alongside the input and skips every grid up to the last one
written, checking that each grid written is the same grid at the same index
of the input; :func:`resume_settings` are what a resumed run must share with
the run that wrote the output.
"""

from __future__ import annotations

import csv
import hashlib
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..errors import GraderError
from ..formats import Record
from ..hierarchy import Hierarchy
from .codec import DecodeError, Result, decode_csv_row, decode_json_line
from .sources import expected_puzzle


class ResumeError(GraderError, ValueError):
    """An existing output that does not belong to this input."""


def read_output(path: Path, truncate: bool = False) -> Iterator[Result]:
    """The results of an existing output file (JSONL or CSV by extension).

    A last line cut short (the run was killed while writing it, or the
    machine went down) is dropped, and with ``truncate`` removed from the
    file so that appending continues cleanly."""
    if not path.exists() or path.stat().st_size == 0:
        return
    if truncate:
        _drop_partial_line(path)
    try:
        yield from _read_output(path)
    except UnicodeDecodeError as e:
        raise ResumeError(f"{path}: not an output of grade (not UTF-8: {e.reason} at byte "
                          f"{e.start})") from e
    except csv.Error as e:
        raise ResumeError(f"{path}: not an output of grade (CSV: {e})") from e


def _read_output(path: Path) -> Iterator[Result]:
    is_csv = path.suffix.lower() == ".csv"
    with path.open("r", encoding="utf-8", newline="") as fh:
        if is_csv:
            for lineno, row in enumerate(csv.DictReader(fh), start=2):
                try:
                    yield decode_csv_row(row)
                except ValueError as e:  # a DecodeError, or a cell of the wrong type
                    raise ResumeError(f"{path}:{lineno}: not a row of grade's CSV output "
                                      f"({e})") from e
        else:
            for lineno, raw in enumerate(fh, start=1):
                if not raw.strip():
                    continue
                try:
                    yield decode_json_line(raw)
                except DecodeError as e:
                    raise ResumeError(f"{path}:{lineno}: {e}") from e


def _drop_partial_line(path: Path) -> None:
    with path.open("rb+") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        if size == 0:
            return
        fh.seek(size - 1)
        if fh.read(1) == b"\n":
            return
        # find the last newline and cut after it
        pos = size
        step = 4096
        cut = 0
        while pos > 0:
            start = max(0, pos - step)
            fh.seek(start)
            chunk = fh.read(pos - start)
            k = chunk.rfind(b"\n")
            if k >= 0:
                cut = start + k + 1
                break
            pos = start
        fh.truncate(cut)


class ResumeCursor:
    """Walks an existing output alongside the input.

    ``skip(rec)`` says whether a record was already handled (its index is not
    after the last index written) and returns the stored result when the
    record was written.  A stored grid that is not the input's grid at that
    index raises :class:`ResumeError`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        rows = read_output(path, truncate=True)
        self.last = 0
        self.count = 0
        # usually the output is in input order: stream it; a sorted output is loaded
        self._rows: dict[int, Result] = {}
        prev = 0
        ordered = True
        for d in rows:
            i = int(d["index"])
            if i <= prev:
                ordered = False
            prev = i
            self.last = max(self.last, i)
            self.count += 1
        self._ordered = ordered
        self._iter: Iterator[Result] = read_output(path)
        self._next: Result | None = None
        if not ordered:
            self._rows = {int(d["index"]): d for d in read_output(path)}
        else:
            self._next = next(self._iter, None)

    def skip(self, rec: Record) -> tuple[bool, Result | None]:
        if rec.index > self.last:
            return False, None
        if self._ordered:
            while self._next is not None and int(self._next["index"]) < rec.index:
                self._next = next(self._iter, None)  # pragma: no cover - defensive
            row = self._next if (self._next is not None
                                 and int(self._next["index"]) == rec.index) else None
            if row is not None:
                self._next = next(self._iter, None)
        else:
            row = self._rows.pop(rec.index, None)
        if row is not None and row.get("puzzle") != expected_puzzle(rec):
            raise ResumeError(
                f"{self.path}: grid {rec.index} is {row.get('puzzle')!r} there but "
                f"{expected_puzzle(rec)!r} at {rec.source}:{rec.line}: this output was "
                f"written from another input (or other options)")
        return True, row


#: What a resumed run must share with the run that wrote the output (recorded
#: beside it by :func:`grader.files.write_settings`), with the option that sets each.
SETTING_LABELS = {
    "inputs": "another input", "input_format": "--input-format", "box": "--box",
    "column": "--column", "hierarchy": "--hierarchy/--propagation (the rule table)",
    "with_solution": "--with-solution", "dedupe": "--dedupe", "keep_columns": "--keep-columns",
    "where": "--where", "min_level": "--min-level", "max_level": "--max-level",
}


def resume_settings(inputs: Iterable[str], input_format: str, box: str | None,
                    column: str | None, hierarchy: Hierarchy, with_solution: bool,
                    dedupe: bool, keep_columns: bool, where: str | None,
                    min_level: int | None, max_level: int | None) -> dict[str, Any]:
    """The settings that decide what a run writes (see :data:`SETTING_LABELS`)."""
    from ..files import input_names

    table = hashlib.blake2b(hierarchy.model_dump_json().encode(), digest_size=8).hexdigest()
    return {"inputs": input_names(inputs), "input_format": input_format, "box": box,
            "column": column, "hierarchy": f"fingerprint {table}",
            "with_solution": with_solution, "dedupe": dedupe, "keep_columns": keep_columns,
            "where": where, "min_level": min_level, "max_level": max_level}


