"""``sat``: Sudoku as propositional satisfiability, solved with PySAT.

The encodings (``classic``, ``extended``, ``reduced``) and DIMACS files live
in :mod:`grader.exact.cnf` (re-exported here); this module runs a PySAT
solver on them under a time limit.

Uniqueness is decided by a blocking clause: after a solution, the clause
"not this assignment" is added and the solver is asked again.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import Any

from pysat.solvers import Solver, SolverNames  # type: ignore[import-untyped]

from grader.core.geometry import Geometry
from grader.exact.base import Deadline, EngineError, EngineResult, ExactEngine, result
from grader.exact.cnf import (
    CACHE_MAX_SIDE,
    ENCODINGS,
    Encoding,
    LazyClauses,
    base_clauses,
    classic_size,
    encode,
    read_dimacs_map,
    write_dimacs,
)

__all__ = [
    "CACHE_MAX_SIDE", "DEFAULT_SOLVER", "ENCODINGS", "SOLVER_ALIASES", "Encoding",
    "LazyClauses", "SatEngine", "base_clauses", "classic_size", "encode", "read_dimacs_map",
    "resolve_solver", "solver_names", "write_dimacs",
]

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
