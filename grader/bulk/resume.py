"""Reading an output back, and ``--resume``.

Results are written in input order, so an output file is always a prefix of
the run (up to grids the selection dropped).  :class:`ResumeCursor` reads an
existing output alongside the input and skips every grid up to the last one
written, checking that each grid written is the same grid at the same index
of the input; :func:`resume_settings` are what a resumed run must share with
the run that wrote the output.

An output damaged outside the run (a copy that crashed, an editor, two
files joined) is refused, naming the file and line, unless it can be
repaired without losing anything:

- a last line cut short is dropped (the run was killed while writing it);
- a line repeated exactly (same index, same result) is dropped;
- lines in another order are kept (``--sort`` sorts a finished output);
- refused: a line that is not a result of ``grade``, an index below 1, one
  index twice with different results, a grid that is not the input's grid
  at that index, an index beyond the input, and, in an output in input
  order of a run that keeps every grid (no ``--where``, ``--min-level``,
  ``--max-level``, ``--dedupe``, and not cut to ``--top``), a missing index.
"""

from __future__ import annotations

import csv
import hashlib
import os
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from grader.bulk.codec import DecodeError, Result, decode_csv_row, decode_json_line
from grader.bulk.sources import expected_puzzle
from grader.core.errors import GraderError
from grader.formats import Record
from grader.formats.files import AtomicOutput
from grader.strategy.hierarchy import Hierarchy

#: How a resumed output that cannot be used ends: what to do about it.
ADVICE = "repair or remove it, or start afresh with --overwrite"


#: The message of a grid written as failed because its worker was stopped from
#: outside (earlier versions did so when the process group was signalled):
#: not the grid's result, so ``--resume`` grades it again.
STOPPED_WORKER = re.compile(
    r"^the worker process died \((exit 255|signal (1|2|15))\) on this grid$")


class ResumeError(GraderError, ValueError):
    """An existing output that does not belong to this input."""


def read_output(path: Path, truncate: bool = False) -> Iterator[Result]:
    """The results of an existing output file (JSONL or CSV by extension).

    A last line cut short (the run was killed while writing it, or the
    machine went down) is dropped, and with ``truncate`` removed from the
    file so that appending continues cleanly."""
    for _, d in numbered_output(path, truncate):
        yield d


def numbered_output(path: Path, truncate: bool = False) -> Iterator[tuple[int, Result]]:
    """``(line, result)`` of each result of an output file (see :func:`read_output`)."""
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


def _read_output(path: Path) -> Iterator[tuple[int, Result]]:
    is_csv = path.suffix.lower() == ".csv"
    with path.open("r", encoding="utf-8", newline="") as fh:
        if is_csv:
            reader = csv.DictReader(fh)
            for row in reader:
                lineno = reader.line_num
                try:
                    yield lineno, decode_csv_row(row)
                except ValueError as e:  # a DecodeError, or a cell of the wrong type
                    raise ResumeError(f"{path}:{lineno}: not a row of grade's CSV output "
                                      f"({e})") from e
        else:
            for lineno, raw in enumerate(fh, start=1):
                if not raw.strip():
                    continue
                try:
                    yield lineno, decode_json_line(raw)
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


def _drop_lines(path: Path, drop: set[int]) -> None:
    """Rewrite ``path`` without the lines (CSV: rows ending on the lines) in
    ``drop``, atomically: a crash leaves the old file or the new one."""
    is_csv = path.suffix.lower() == ".csv"
    with path.open("r", encoding="utf-8", newline="") as src, \
            AtomicOutput(path, newline="") as dst:
        if is_csv:
            reader, writer = csv.reader(src), csv.writer(dst, lineterminator="\n")
            for row in reader:
                if reader.line_num not in drop:
                    writer.writerow(row)
        else:
            for lineno, raw in enumerate(src, start=1):
                if lineno not in drop:
                    dst.write(raw)


class ResumeCursor:
    """Walks an existing output alongside the input.

    ``skip(rec)`` says whether a record was already handled (its index is not
    after the last index written) and returns the stored result when the
    record was written.  A stored grid that is not the input's grid at that
    index raises :class:`ResumeError`; so does :meth:`finish` when the output
    holds an index the input does not have.  ``complete``: the run writes a
    line for every grid (no selection), so a missing index is a lost line.
    ``finished``: the run that wrote it was complete (it sorted the output):
    every grid is done.  ``repaired``: the lines repeated exactly that were
    dropped from the file; ``retried``: the lines of grids written as failed
    because their worker was stopped (by earlier versions, see
    :data:`STOPPED_WORKER`), dropped and graded again."""

    def __init__(self, path: Path, complete: bool = False, finished: bool = False) -> None:
        self.path = path
        self.last = 0
        self.count = 0
        self.repaired: list[int] = []
        self.retried: list[int] = []
        self._retry: set[int] = set()
        ordered, seen = self._scan(complete)
        for i in self._retry:
            seen.pop(i, None)
        self.count -= len(self._retry)
        if finished:
            self.last = sys.maxsize
        if self.repaired or self.retried:
            _drop_lines(path, set(self.repaired) | set(self.retried))
        self._ordered = ordered
        self._rows: dict[int, tuple[int, Result]] = {}
        self._iter: Iterator[tuple[int, Result]] = iter(())
        self._next: tuple[int, Result] | None = None
        if ordered:  # usually the output is in input order: stream it
            self._iter = numbered_output(path)
            self._next = next(self._iter, None)
        else:  # a sorted output is loaded
            self._rows = seen

    def _scan(self, complete: bool) -> tuple[bool, dict[int, tuple[int, Result]]]:
        """Read the output once: its last index, whether it is in input order,
        what is wrong with it; the rows, by index, once one is out of order."""
        path = self.path
        gap: str | None = None
        kept = shuffled = False
        seen: dict[int, tuple[int, Result]] = {}
        for lineno, d in numbered_output(path, truncate=True):
            i = d["index"]
            if i < 1:
                raise ResumeError(f"{path}:{lineno}: grid index {i}: indices start at 1 "
                                  f"(not an output of this run): {ADVICE}")
            if d.get("verdict") == "error" and STOPPED_WORKER.search(str(d.get("message"))):
                self._retry.add(i)
                self.retried.append(lineno)
            if i <= self.last:
                if not kept:  # the first row out of order: from now on every row is kept
                    kept, seen = True, self._load(lineno)
                if i in seen:
                    self._repeat(seen[i], lineno, d)
                    continue
                shuffled = True
            elif complete and gap is None and i != self.last + 1:
                gap = (f"{path}:{lineno}: grid {self.last + 1} is missing (line {lineno} holds "
                       f"grid {i}): a line was lost or removed: {ADVICE}")
            if kept:
                seen[i] = (lineno, d)
            self.last = max(self.last, i)
            self.count += 1
        if gap is not None and not shuffled:
            raise ResumeError(gap)
        if complete and shuffled and len(seen) != self.last:
            lost = next(i for i in range(1, self.last + 1) if i not in seen)
            raise ResumeError(f"{path}: grid {lost} is missing (the output holds grids up to "
                              f"{self.last}): a line was lost or removed: {ADVICE}")
        return not shuffled, seen

    def _load(self, upto: int) -> dict[int, tuple[int, Result]]:
        """The rows before line ``upto`` (in order, so no repeats among them)."""
        return {d["index"]: (n, d) for n, d in numbered_output(self.path) if n < upto}

    def _repeat(self, first: tuple[int, Result], lineno: int, d: Result) -> None:
        """Grid ``d["index"]`` again on ``lineno``: dropped when it repeats
        ``first`` exactly, else refused."""
        if first[1] != d:
            raise ResumeError(f"{self.path}:{lineno}: grid {d['index']} is written twice, with "
                              f"different results (lines {first[0]} and {lineno}): {ADVICE}")
        self.repaired.append(lineno)

    def skip(self, rec: Record) -> tuple[bool, Result | None]:
        if rec.index > self.last or rec.index in self._retry:
            self._retry.discard(rec.index)
            return False, None
        found: tuple[int, Result] | None
        if self._ordered:
            while self._next is not None and self._next[1]["index"] < rec.index:
                self._next = next(self._iter, None)  # pragma: no cover - defensive
            found = self._next if (self._next is not None
                                   and self._next[1]["index"] == rec.index) else None
            if found is not None:
                self._next = next(self._iter, None)
        else:
            found = self._rows.pop(rec.index, None)
        row = found[1] if found is not None else None
        if found is not None and found[1].get("puzzle") != expected_puzzle(rec):
            raise ResumeError(
                f"{self.path}:{found[0]}: grid {rec.index} is {found[1].get('puzzle')!r} there "
                f"but {expected_puzzle(rec)!r} at {rec.source}:{rec.line}: this output was "
                f"written from another input (or other options)")
        return True, row

    def finish(self, read: int) -> None:
        """The input has ended after ``read`` records: refuse an output that
        holds more grids than that (it was written from another input)."""
        left = self._next if self._ordered else (
            min(self._rows.values(), key=lambda v: v[0]) if self._rows else None)
        if left is not None and left[1]["index"] > read:
            raise ResumeError(f"--resume: {self.path}:{left[0]}: grid {left[1]['index']} is not "
                              f"in the input (it has {read} grids): this output was written "
                              f"from another input")


#: What a resumed run must share with the run that wrote the output (recorded
#: beside it by :func:`grader.formats.files.write_settings`), with the option that sets each.
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
    from grader.formats.files import input_names

    table = hashlib.blake2b(hierarchy.model_dump_json().encode(), digest_size=8).hexdigest()
    return {"inputs": input_names(inputs), "input_format": input_format, "box": box,
            "column": column, "hierarchy": f"fingerprint {table}",
            "with_solution": with_solution, "dedupe": dedupe, "keep_columns": keep_columns,
            "where": where, "min_level": min_level, "max_level": max_level}


