"""Keeping the grids of a run apart: no two closer than ``DISTANCE`` cells.

Two grids of one size differ in a cell when one has a given there and the
other not, or both have different givens.  Grids found by exploring around
a hard grid are near-copies of it, so the hard search keeps a grid only
when it differs in at least ``DISTANCE`` cells from every grid kept before
in the run and from every grid of the project's own files
(``puzzles/*.txt``, when the source tree is there).

The index is exact and fast by pigeonhole: the cells are cut into
``DISTANCE`` parts, and two grids that differ in fewer than ``DISTANCE``
cells agree on at least one whole part; so only the grids that share a part
with the candidate are compared cell by cell.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path

#: the fewest cells in which two grids of one run differ
DISTANCE = 10

#: the project's own grid files (a source checkout; an installed package has none)
PUZZLES = Path(__file__).resolve().parent.parent.parent / "puzzles"


def distance(a: Sequence[int], b: Sequence[int]) -> int:
    """In how many cells two grids of one size differ."""
    return sum(map(operator.ne, a, b))


class NearIndex:
    """Grids of one size; :meth:`near` says whether a grid is closer than
    ``radius`` cells to one of them."""

    def __init__(self, ncells: int, radius: int = DISTANCE) -> None:
        self.ncells = ncells
        self.radius = radius
        step = -(-ncells // radius)
        self.parts = [(i, min(i + step, ncells)) for i in range(0, ncells, step)]
        self.grids: list[bytes] = []
        self.buckets: list[dict[bytes, list[int]]] = [{} for _ in self.parts]

    def __len__(self) -> int:
        return len(self.grids)

    def add(self, values: Sequence[int]) -> None:
        g = bytes(values)
        k = len(self.grids)
        self.grids.append(g)
        for (lo, hi), bucket in zip(self.parts, self.buckets, strict=True):
            bucket.setdefault(g[lo:hi], []).append(k)

    def near(self, values: Sequence[int]) -> bool:
        """Whether some grid of the index differs from ``values`` in fewer
        than ``radius`` cells."""
        g = bytes(values)
        seen: set[int] = set()
        for (lo, hi), bucket in zip(self.parts, self.buckets, strict=True):
            for k in bucket.get(g[lo:hi], ()):
                if k not in seen:
                    seen.add(k)
                    if distance(g, self.grids[k]) < self.radius:
                        return True
        return False


def index_of(grids: Iterable[Sequence[int]], ncells: int) -> NearIndex:
    idx = NearIndex(ncells)
    for g in grids:
        if len(g) == ncells:
            idx.add(g)
    return idx


@lru_cache(maxsize=8)
def bundled(ncells: int, folder: Path = PUZZLES) -> NearIndex:
    """The index of the grids of ``folder/*.txt`` with ``ncells`` cells
    (empty when the folder is not there); built once per process."""
    from grader.formats import InputError, iter_source

    idx = NearIndex(ncells)
    if not folder.is_dir():
        return idx
    for path in sorted(folder.glob("*.txt")):
        try:
            for rec in iter_source(str(path)):
                if rec.grid is not None and rec.grid.geo.ncells == ncells:
                    idx.add(rec.grid.values)
        except (InputError, ValueError):  # pragma: no cover - a broken file is skipped
            continue
    return idx
