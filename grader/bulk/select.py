"""What a run keeps and in what order, in one place: ``--min-level`` and
``--max-level``, ``--where``, ``--dedupe``, ``--sort`` and ``--top``.

:class:`Selection` decides, result by result in input order, whether a
result is kept (a duplicate is counted apart); sorting needs every kept
result: :class:`TopN` holds them (the ``--top`` first only, in bounded
memory) when they go to standard output, and :func:`sort_output_file` sorts
an output file in place when the run is over.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import heapq
from collections.abc import Callable
from pathlib import Path
from typing import Any

from grader.bulk.codec import Encoder, Result
from grader.bulk.resume import read_output
from grader.bulk.where import Where, WhereError
from grader.core.textsafe import spreadsheet_text
from grader.formats.files import AtomicOutput

#: What :meth:`Selection.judge` says of a result.
KEEP, DROP, DUPLICATE = "keep", "drop", "duplicate"


class Selection:
    """The kept results of a run: levels, ``--where``, ``--dedupe`` (by the
    canonical form; 16 bytes per distinct grid kept)."""

    def __init__(self, where: Where | None = None, min_level: int | None = None,
                 max_level: int | None = None, dedupe: bool = False,
                 box: tuple[int, int] | None = None) -> None:
        self.where = where
        self.min_level = min_level
        self.max_level = max_level
        self.dedupe = dedupe
        self.box = box
        self.seen: set[bytes] = set()
        #: whether some result may be left out
        self.filtering = (where is not None or dedupe or min_level is not None
                          or max_level is not None)

    def judge(self, d: Result, extra: dict[str, str], source: str, resumed: bool) -> str:
        """KEEP, DROP or DUPLICATE.  A --where that cannot be evaluated on this
        result raises :class:`WhereError`."""
        if not self._levels(d):
            return DROP
        if self.where is not None and not self.where({**extra, **d, "source": source}):
            return DROP
        if self.dedupe:
            key = digest(str(self._canonical(d, resumed) or d.get("puzzle")))
            if key in self.seen:
                return DUPLICATE
            self.seen.add(key)
        return KEEP

    def _levels(self, d: Result) -> bool:
        if self.min_level is None and self.max_level is None:
            return True
        lvl = d.get("level")
        if d.get("verdict") != "ok" or lvl is None:
            return False
        if self.min_level is not None and lvl < self.min_level:
            return False
        return not (self.max_level is not None and lvl > self.max_level)

    def _canonical(self, d: Result, resumed: bool) -> Any:
        canon = d.get("canonical")
        if canon is None and resumed and d.get("size") and d.get("verdict") != "malformed":
            from grader.formats.canonical import canonical_key  # an output written without --dedupe

            with contextlib.suppress(ValueError):
                canon = canonical_key(str(d["puzzle"]), self.box)
        return canon


def digest(key: str) -> bytes:
    return hashlib.blake2b(key.encode(), digest_size=16).digest()


SORT_KEYS = ("score", "level", "steps", "depth", "seconds", "index")


def sort_key(key: str) -> Callable[[Result], tuple[Any, ...]]:
    """Hardest (or slowest) first; grids without the field last; ties by index."""
    if key == "index":
        return lambda d: (d["index"],)

    def k(d: Result) -> tuple[Any, ...]:
        v = d.get(key)
        return (v is None, -(v or 0), d["index"])

    return k


class TopN:
    """The first ``n`` results by a sort key, in bounded memory."""

    def __init__(self, key: str, n: int | None) -> None:
        self.key = sort_key(key)
        self.n = n
        self.items: list[Result] = []
        self._heap: list[tuple[Any, int, Result]] = []
        self._count = 0

    def add(self, d: Result) -> None:
        if self.n is None:
            self.items.append(d)
            return
        self._count += 1
        k = self.key(d)
        neg = _Neg(k)
        if len(self._heap) < self.n:
            heapq.heappush(self._heap, (neg, self._count, d))
        elif neg > self._heap[0][0]:
            heapq.heapreplace(self._heap, (neg, self._count, d))

    def result(self) -> list[Result]:
        if self.n is None:
            return sorted(self.items, key=self.key)
        return sorted((d for _, _, d in self._heap), key=self.key)


class _Neg:
    """Reverses an ordering (for a max-heap of the smallest keys)."""

    __slots__ = ("k",)

    def __init__(self, k: tuple[Any, ...]) -> None:
        self.k = k

    def __lt__(self, other: _Neg) -> bool:
        return self.k > other.k

    def __gt__(self, other: _Neg) -> bool:
        return self.k < other.k

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Neg) and self.k == other.k

    def __hash__(self) -> int:  # pragma: no cover - not used
        return hash(self.k)


def existing_csv_header(path: Path) -> list[str] | None:
    if not path.exists() or path.stat().st_size == 0:
        return None
    with path.open("r", encoding="utf-8", errors="replace", newline="") as fh:
        try:
            header = next(csv.reader(fh), None)
            return None if header is None else [spreadsheet_text(h) for h in header]
        except csv.Error:
            return None


def sort_output_file(path: Path, key: str, top: int | None) -> int:
    """Rewrite an output file sorted by ``key`` (keeping the ``top`` first); returns
    the number of results written.  Atomic: a temporary file is renamed over it."""
    keep = TopN(key, top)
    for d in read_output(path):
        keep.add(d)
    rows = keep.result()
    is_csv = path.suffix.lower() == ".csv"
    header = existing_csv_header(path) if is_csv else None
    enc = Encoder("csv" if is_csv else "jsonl", header)
    with AtomicOutput(path, newline="") as fh:
        if is_csv and (rows or header):
            fh.write(enc.header(rows[0] if rows else None))
        fh.writelines(enc.encode(d) for d in rows)
    return len(rows)


__all__ = ["DROP", "DUPLICATE", "KEEP", "SORT_KEYS", "Selection", "TopN", "WhereError",
           "digest", "existing_csv_header", "sort_key", "sort_output_file"]
