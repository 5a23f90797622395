"""Reading a run's input: records lazily, in input order, and line counts."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from grader.formats import Record, iter_sources


def records(sources: Iterable[str], input_format: str = "auto",
            box: tuple[int, int] | None = None, column: str | None = None) -> Iterator[Record]:
    """Every record of every source, renumbered across sources in input order."""
    return iter_sources(sources, input_format, box, column)


def expected_puzzle(rec: Record) -> str:
    """What the ``puzzle`` field of a record's result will be."""
    return rec.grid.normalised() if rec.grid is not None else rec.text


def count_lines(path: str) -> int | None:
    """Number of lines of a file (for the progress bar), or None for stdin/grids."""
    p = Path(path)
    if path == "-" or not p.is_file():
        return None
    n = 0
    last = b"\n"
    with p.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            n += chunk.count(b"\n")
            last = chunk[-1:]
    return n + (last != b"\n")


class Head:
    """The first records of an input, read ahead (to choose where to grade and
    to learn the input's columns), then the rest, lazily."""

    def __init__(self, recs: Iterator[Record], peek: int) -> None:
        self._rest = recs
        self.records: list[Record] = []
        for rec in recs:
            self.records.append(rec)
            if len(self.records) > peek:
                break
        #: the whole input is in ``records``
        self.small = len(self.records) <= peek

    def __iter__(self) -> Iterator[Record]:
        yield from self.records
        if not self.small:
            yield from self._rest

    def columns(self, keep_columns: bool) -> set[str]:
        """The input's own columns, as far as the head shows them."""
        from grader.bulk.codec import extra_columns

        columns = {k for rec in self.records for k in rec.extra}
        if any(rec.format in ("line", "nt") for rec in self.records):
            columns.add("rest")  # the rest of a line, where there is more than the grid
        if keep_columns:
            columns |= set(extra_columns(dict.fromkeys(columns, "")))
        return columns
