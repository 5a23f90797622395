"""Sudoku as CNF: the three encodings of the ``sat`` engine, DIMACS files.

Encodings (``encoding=``):

``classic``
    One variable ``x(r, c, v)`` per cell and value, numbered
    ``((r - 1) * n + (c - 1)) * n + v`` (rows, columns, values from 1), so a
    blank ``n x n`` grid has ``n**3`` variables.  Clauses: at least one value
    per cell (``n**2``), at most one value per cell, each value at most once
    in each row, column and block (pairwise, ``n**2 * n(n-1)/2`` clauses for
    each of the four families), and one unit clause per given.  In all
    ``n**2 + 2 n**3 (n - 1) + givens`` clauses.
``extended``
    ``classic`` plus "each value at least once in each row, column and block"
    (``3 n**2`` more clauses): redundant, but it lets unit propagation find
    hidden singles.
``reduced``
    The givens simplified away before encoding: no variable for a given cell,
    nor for a value that a given peer already holds; the clauses of
    ``classic`` restricted to the remaining variables, no unit clauses.

Uniqueness is decided by a blocking clause: after a solution, the clause
"not this assignment" is added and the solver is asked again.
"""
from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from pathlib import Path
from typing import IO

from grader.core.geometry import Geometry
from grader.exact.base import EngineError, given_conflict

ENCODINGS = ("classic", "extended", "reduced")


@dataclass
class Encoding:
    """A CNF for one grid and the map from its variables to (cell, value).

    ``base`` holds the clauses shared by every grid of the shape (or all of
    them for ``reduced``), ``units`` the givens' unit clauses."""

    kind: str
    geo: Geometry
    values: tuple[int, ...]
    nvars: int
    base: Collection[Sequence[int]]
    units: Sequence[Sequence[int]]
    #: variable -> (cell, value); index 0 unused
    var_cell: Sequence[tuple[int, int]]
    _index: dict[tuple[int, int], int] | None = None

    @property
    def nclauses(self) -> int:
        return len(self.base) + len(self.units)

    @property
    def clauses(self) -> Iterator[Sequence[int]]:
        yield from self.base
        yield from self.units

    @property
    def unsatisfiable(self) -> bool:
        """Whether the CNF holds the empty clause (reduced: givens in conflict
        or a cell left without candidates)."""
        return self.kind == "reduced" and any(not cl for cl in self.base)

    def var(self, cell: int, value: int) -> int | None:
        """The variable of ``cell`` holding ``value`` (None: simplified away)."""
        if self.kind != "reduced":
            return cell * self.geo.n + value
        if self._index is None:
            self._index = {cv: i for i, cv in enumerate(self.var_cell) if i}
        return self._index.get((cell, value))


    def decode(self, model: Sequence[int]) -> tuple[int, ...]:
        """The grid a model describes (givens included)."""
        vals = list(self.values)
        vc = self.var_cell
        top = len(vc)
        for lit in model:
            if 0 < lit < top:
                c, v = vc[lit]
                vals[c] = v
        return tuple(vals)

    def blocking_clause(self, solution: Sequence[int]) -> list[int]:
        """"Not this solution": the negation of its true variables in empty cells."""
        lits = []
        for c, v in enumerate(solution):
            if not self.values[c]:
                x = self.var(c, v)
                if x is not None:
                    lits.append(-x)
        return lits

    def write_dimacs(self, out: IO[str], title: str = "") -> None:
        """The CNF in DIMACS format, with a comment header mapping every
        variable to its (row, column, value), all counted from 1."""
        geo = self.geo
        n = geo.n
        w = out.write
        w(f"c Sudoku {n}x{n} (blocks {geo.a}x{geo.b}), {self.kind} encoding\n")
        if title:
            w(f"c {title}\n")
        puzzle = "".join(geo.symbols[v - 1] if v else "." for v in self.values)
        w(f"c puzzle {puzzle}\n")
        w(f"c {self.nvars} variables, {self.nclauses} clauses\n")
        if self.kind == "reduced":
            w("c givens simplified away: variables only for the remaining candidates\n")
        else:
            w(f"c x(r, c, v) = ((r - 1) * {n} + (c - 1)) * {n} + v; "
              f"the givens are the last {len(self.units)} clauses (units)\n")
        w("c a true variable means: cell (row, column) holds value (values 1..n, A = 10)\n")
        w("c map: each line 'c var X ROW COLUMN VALUE' below names one variable\n")
        for x in range(1, self.nvars + 1):
            c, v = self.var_cell[x]
            w(f"c var {x} {c // n + 1} {c % n + 1} {v}\n")
        w(f"p cnf {self.nvars} {self.nclauses}\n")
        for cl in self.clauses:
            if cl:
                w(" ".join(map(str, cl)))
                w(" 0\n")
            else:
                w("0\n")


def _pairs_amo(lits: Sequence[int]) -> Iterator[tuple[int, int]]:
    for x, y in combinations(lits, 2):
        yield (-x, -y)


def _iter_base(geo: Geometry, kind: str) -> Iterator[tuple[int, ...]]:
    n = geo.n
    for c in range(geo.ncells):  # at least one value per cell
        yield tuple(range(c * n + 1, c * n + n + 1))
    for c in range(geo.ncells):  # at most one value per cell
        yield from _pairs_amo(range(c * n + 1, c * n + n + 1))
    for cells in geo.regions:  # each value at most once per row, column, block
        for v in range(1, n + 1):
            yield from _pairs_amo([c * n + v for c in cells])
    if kind == "extended":  # each value at least once per row, column, block
        for cells in geo.regions:
            for v in range(1, n + 1):
                yield tuple(c * n + v for c in cells)


class LazyClauses(Collection[tuple[int, ...]]):
    """The clauses of a large grid's encoding, generated again at each use
    instead of being kept in memory (a 36x36 grid has over 3 million)."""

    def __init__(self, geo: Geometry, kind: str) -> None:
        self.geo = geo
        self.kind = kind

    def __len__(self) -> int:
        n = self.geo.n
        return classic_size(n)[1] + (3 * n * n if self.kind == "extended" else 0)

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return _iter_base(self.geo, self.kind)

    def __contains__(self, clause: object) -> bool:
        return any(cl == clause for cl in self)


#: grids up to this side keep their base clauses in memory
CACHE_MAX_SIDE = 16


@lru_cache(maxsize=16)
def _cached_base(geo: Geometry, kind: str) -> tuple[tuple[int, ...], ...]:
    return tuple(_iter_base(geo, kind))


def base_clauses(geo: Geometry, kind: str = "classic") -> Collection[tuple[int, ...]]:
    """The clauses of the ``classic`` (or ``extended``) encoding that do not
    depend on the givens: computed once per shape up to 16x16, generated
    on demand for larger grids."""
    if geo.n <= CACHE_MAX_SIDE:
        return _cached_base(geo, kind)
    return LazyClauses(geo, kind)


@lru_cache(maxsize=16)
def _classic_var_cell(geo: Geometry) -> tuple[tuple[int, int], ...]:
    n = geo.n
    return ((-1, 0),) + tuple((c, v) for c in range(geo.ncells) for v in range(1, n + 1))


def encode(geo: Geometry, values: Sequence[int], kind: str = "classic") -> Encoding:
    """The CNF of the grid ``values`` in one of :data:`ENCODINGS`."""
    if kind not in ENCODINGS:
        raise EngineError(f"unknown encoding {kind!r} (choose from {', '.join(ENCODINGS)})")
    vals = tuple(values)
    if kind == "reduced":
        return _encode_reduced(geo, vals)
    n = geo.n
    units = [(c * n + v,) for c, v in enumerate(vals) if v]  # the givens
    return Encoding(kind, geo, vals, geo.ncells * n, base_clauses(geo, kind), units,
                    _classic_var_cell(geo))


def _encode_reduced(geo: Geometry, vals: tuple[int, ...]) -> Encoding:
    n = geo.n
    cands = [0 if v else geo.full for v in vals]
    for c, v in enumerate(vals):
        if v:
            bit = 1 << (v - 1)
            for p in geo.peers[c]:
                cands[p] &= ~bit
    var_cell: list[tuple[int, int]] = [(-1, 0)]
    index: dict[tuple[int, int], int] = {}
    for c in range(geo.ncells):
        m = cands[c]
        for v in range(1, n + 1):
            if m >> (v - 1) & 1:
                index[(c, v)] = len(var_cell)
                var_cell.append((c, v))
    clauses: list[Sequence[int]] = []
    if given_conflict(geo, vals):
        clauses.append(())  # the givens already contradict each other
    for c in range(geo.ncells):
        if vals[c]:
            continue
        lits = [index[(c, v)] for v in range(1, n + 1) if (c, v) in index]
        clauses.append(lits)  # at least one (empty when no candidate is left)
        clauses.extend(_pairs_amo(lits))  # at most one
    for cells in geo.regions:
        for v in range(1, n + 1):
            lits = [index[(c, v)] for c in cells if (c, v) in index]
            clauses.extend(_pairs_amo(lits))
    return Encoding("reduced", geo, vals, len(var_cell) - 1, clauses, (), var_cell)


def classic_size(n: int, givens: int = 0) -> tuple[int, int]:
    """(variables, clauses) of the classic encoding of an ``n x n`` grid."""
    return n ** 3, n * n + 2 * n ** 3 * (n - 1) + givens


def write_dimacs(geo: Geometry, values: Sequence[int], path: str | Path,
                 kind: str = "classic", title: str = "") -> Encoding:
    """Write the CNF of a grid to ``path`` (DIMACS) and return its encoding."""
    from grader.formats.files import open_output

    enc = encode(geo, values, kind)
    with open_output(Path(path), encoding="ascii") as fh:
        enc.write_dimacs(fh, title)
    return enc


def read_dimacs_map(path: str | Path) -> dict[int, tuple[int, int, int]]:
    """The ``c var X ROW COLUMN VALUE`` comments of a DIMACS file written here."""
    out: dict[int, tuple[int, int, int]] = {}
    with open(path, encoding="ascii") as fh:
        for line in fh:
            if line.startswith("c var ") and line[6:7].isdigit():
                x, r, c, v = map(int, line.split()[2:6])
                out[x] = (r, c, v)
            elif line.startswith("p "):
                break
    return out


