"""``sat``: Sudoku as propositional satisfiability, solved with PySAT.

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

import contextlib
import threading
import time
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, islice
from pathlib import Path
from typing import IO, Any

from pysat.solvers import Solver, SolverNames  # type: ignore[import-untyped]

from ..geometry import Geometry
from .base import Deadline, EngineError, EngineResult, ExactEngine, given_conflict, result

ENCODINGS = ("classic", "extended", "reduced")
#: short names accepted for ``--sat-solver``
SOLVER_ALIASES = {"cadical": "cadical153", "glucose": "glucose4", "minisat": "minisat22",
                  "lingeling": "lingeling", "maplesat": "maplesat"}
DEFAULT_SOLVER = "cadical153"


def solver_names() -> list[str]:
    """The SAT solvers PySAT offers here (their long names)."""
    return sorted(k for k in vars(SolverNames) if not k.startswith("_"))


def resolve_solver(name: str) -> str:
    """A PySAT solver name from a long name, an abbreviation or an alias."""
    key = SOLVER_ALIASES.get(name.lower(), name.lower())
    for long in solver_names():
        if key == long or key in getattr(SolverNames, long):
            return long
    raise EngineError(f"unknown SAT solver {name!r} (choose from "
                      f"{', '.join(sorted(set(SOLVER_ALIASES) | set(solver_names())))})")


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
    enc = encode(geo, values, kind)
    with open(path, "w", encoding="ascii") as fh:
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


#: CaDiCaL under a time limit: the first slice's conflict budget, then slices
#: sized to last about this long (the deadline is checked between slices).
FIRST_CONFLICT_BUDGET = 2000
SLICE_SECONDS = 0.1
#: Clauses are loaded into a solver this many at a time (the deadline is
#: checked between chunks).
LOAD_CHUNK = 50_000


class _Interrupter:
    """Interrupts a PySAT solver when a deadline passes (where it can be
    interrupted: CaDiCaL cannot, it runs in conflict-budget slices instead)."""

    def __init__(self, solver: Solver, seconds: float | None) -> None:
        self.timer: threading.Timer | None = None
        self.fired = False
        if seconds is not None:
            self.timer = threading.Timer(seconds, self._fire, args=(solver,))
            self.timer.daemon = True
            self.timer.start()

    def _fire(self, solver: Solver) -> None:
        self.fired = True
        with contextlib.suppress(NotImplementedError, AttributeError):
            solver.interrupt()

    def cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()


def _feed(s: Solver, clauses: Iterator[Sequence[int]], deadline: Deadline) -> bool:
    """Add ``clauses`` to ``s`` in chunks of :data:`LOAD_CHUNK` until they are all
    in (True) or the deadline passes (False: the rest stay in the iterator)."""
    while not deadline.expired():
        chunk = list(islice(clauses, LOAD_CHUNK))
        if not chunk:
            return True
        s.append_formula(chunk)
    return False


class SatEngine(ExactEngine):
    """PySAT on one of :data:`ENCODINGS`.

    ``incremental`` (``classic`` and ``extended`` only): keep one solver per
    grid shape, loaded once with the clauses that do not depend on the grid;
    each grid's givens are passed as assumptions (its unit clauses, for that
    call only) and its blocking clauses are guarded by a fresh activation
    literal, switched off when the grid is done.  Same answers, several times
    faster on a batch than loading a fresh solver per grid."""

    name = "sat"
    title = "classic CNF encoding, PySAT"

    def __init__(self, solver: str = DEFAULT_SOLVER, encoding: str = "classic",
                 incremental: bool = True) -> None:
        self.solver_name = resolve_solver(solver)
        if encoding not in ENCODINGS:
            raise EngineError(f"unknown encoding {encoding!r} (choose from "
                              f"{', '.join(ENCODINGS)})")
        self.encoding = encoding
        self.incremental = incremental and encoding != "reduced"
        self.interruptible = not self.solver_name.startswith("cadical")
        # geo -> [solver, next free variable, clauses still to load (None: all loaded)]
        self._solvers: dict[Geometry, list[Any]] = {}

    def encode(self, geo: Geometry, values: Sequence[int]) -> Encoding:
        return encode(geo, values, self.encoding)

    def close(self) -> None:
        for slot in self._solvers.values():
            slot[0].delete()
        self._solvers.clear()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at interpreter shutdown
            self.close()

    def _call(self, s: Solver, assumptions: list[int], deadline: Deadline,
              limited: bool) -> bool | None:
        """One SAT call; None when interrupted by the deadline."""
        if not limited:
            return bool(s.solve(assumptions=assumptions))
        if not self.interruptible:
            return self._call_in_slices(s, assumptions, deadline)
        intr = _Interrupter(s, deadline.remaining())
        try:
            sat = s.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            intr.cancel()
        if sat is None:
            s.clear_interrupt()
        return sat

    def _load(self, clauses: Iterable[Sequence[int]], deadline: Deadline) -> Solver | None:
        """A new solver holding ``clauses``, loaded in chunks so that a deadline
        is kept even for large grids (a 36x36 grid has over 3 million clauses);
        None when the deadline passed first."""
        s = Solver(name=self.solver_name)
        if not _feed(s, iter(clauses), deadline):
            s.delete()
            return None
        return s

    @staticmethod
    def _call_in_slices(s: Solver, assumptions: list[int], deadline: Deadline) -> bool | None:
        """One SAT call of a solver that cannot be interrupted (CaDiCaL): run in
        slices bounded by a conflict budget, each sized from the measured rate to
        last about :data:`SLICE_SECONDS`, until an answer or the deadline."""
        budget = FIRST_CONFLICT_BUDGET
        while True:
            left = deadline.remaining() or 0.0
            if left <= 0:
                return None
            before = int((s.accum_stats() or {}).get("conflicts", 0))
            t1 = time.perf_counter()
            s.conf_budget(budget)
            sat = s.solve_limited(assumptions=assumptions)
            if sat is not None:
                return bool(sat)
            spent = max(time.perf_counter() - t1, 1e-4)
            done = max(int((s.accum_stats() or {}).get("conflicts", 0)) - before, 1)
            rate = done / spent
            left = deadline.remaining() or 0.0
            budget = max(100, int(rate * min(SLICE_SECONDS, left)))

    def solve(self, geo: Geometry, values: Sequence[int], limit: int = 2,
              time_limit: float | None = None) -> EngineResult:
        t0 = time.perf_counter()
        deadline = Deadline(time_limit)
        limited = time_limit is not None
        enc = self.encode(geo, values)
        stats: dict[str, Any] = {"encoding": enc.kind, "variables": enc.nvars,
                                 "clauses": enc.nclauses, "solver": self.solver_name}
        if enc.unsatisfiable:
            return result(self.name, 0, (), 0, limit, t0, **stats, calls=0)
        if self.incremental:
            slot = self._solvers.get(geo)
            if slot is None:
                slot = [Solver(name=self.solver_name), enc.nvars + 1, iter(enc.base)]
                self._solvers[geo] = slot
            if slot[2] is not None:
                # the clauses common to every grid of this shape: loading goes on
                # where the last grid's deadline stopped it
                if not _feed(slot[0], slot[2], deadline):
                    return result(self.name, 0, (), 0, limit, t0, timed_out=True, **stats,
                                  calls=0)
                slot[2] = None
            s = slot[0]
            act = slot[1]
            slot[1] += 1
            assumptions = [u[0] for u in enc.units] + [act]
            before = s.accum_stats() or {}
        else:
            loaded = self._load(enc.base, deadline)
            if loaded is None:
                return result(self.name, 0, (), 0, limit, t0, timed_out=True, **stats, calls=0)
            s = loaded
            s.append_formula(enc.units)
            act = 0
            assumptions = []
            before = {}
        found: list[tuple[int, ...]] = []
        calls = 0
        timed_out = False
        try:
            while len(found) < limit:
                if deadline.expired():
                    timed_out = True
                    break
                calls += 1
                sat = self._call(s, assumptions, deadline, limited)
                if sat is None:
                    timed_out = True
                    break
                if not sat:
                    break
                sol = enc.decode(s.get_model())
                found.append(sol)
                block = enc.blocking_clause(sol)
                if not block:  # nothing left to vary: the grid was full
                    break
                s.add_clause([-act, *block] if act else block)
            acc = s.accum_stats() or {}
        finally:
            if act:
                s.add_clause([-act])  # retire this grid's blocking clauses
            else:
                s.delete()
        decisions = int(acc.get("decisions", 0)) - int(before.get("decisions", 0))
        stats.update(calls=calls,
                     conflicts=int(acc.get("conflicts", 0)) - int(before.get("conflicts", 0)),
                     decisions=decisions)
        return result(self.name, len(found), found, decisions, limit, t0,
                      timed_out=timed_out, **stats)
