"""``cp``: constraint programming with OR-Tools CP-SAT.

One integer variable per cell with domain ``1..n`` (a given is fixed), and
an ``AllDifferent`` constraint on every row, column and block: the model of
the book's chapter 5.  Solutions are enumerated up to the limit by a
solution callback (one search worker, so runs are deterministic).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from ortools.sat.python import cp_model

from grader.core.geometry import Geometry
from grader.exact.base import EngineResult, ExactEngine, result


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, cells: list[Any], limit: int) -> None:
        super().__init__()
        self.cells = cells
        self.limit = limit
        self.solutions: list[tuple[int, ...]] = []

    def on_solution_callback(self) -> None:
        self.solutions.append(tuple(int(self.value(x)) for x in self.cells))
        if len(self.solutions) >= self.limit:
            self.stop_search()


def build_model(geo: Geometry, values: Sequence[int]) -> tuple[Any, list[Any]]:
    """The CP-SAT model of a grid and its cell variables."""
    n = geo.n
    model = cp_model.CpModel()
    cells = []
    for c, v in enumerate(values):
        if v:
            cells.append(model.new_int_var(v, v, f"x{c // n + 1}_{c % n + 1}"))
        else:
            cells.append(model.new_int_var(1, n, f"x{c // n + 1}_{c % n + 1}"))
    for region in geo.regions:
        model.add_all_different([cells[c] for c in region])
    return model, cells


class CpEngine(ExactEngine):
    name = "cp"
    title = "OR-Tools CP-SAT with all-different constraints"

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers

    def solve(self, geo: Geometry, values: Sequence[int], limit: int = 2,
              time_limit: float | None = None) -> EngineResult:
        t0 = time.perf_counter()
        model, cells = build_model(geo, values)
        solver = cp_model.CpSolver()
        params = solver.parameters
        params.enumerate_all_solutions = True
        params.num_search_workers = self.workers
        if time_limit is not None:
            params.max_time_in_seconds = max(0.001, time_limit - (time.perf_counter() - t0))
        collector = _Collector(cells, limit)
        status = solver.solve(model, collector)
        found = collector.solutions[:limit]
        timed_out = (status == cp_model.UNKNOWN
                     or (status == cp_model.FEASIBLE and len(found) < limit))
        return result(self.name, len(found), found, int(solver.num_branches), limit, t0,
                      timed_out=timed_out, status=solver.status_name(status),
                      conflicts=int(solver.num_conflicts), branches=int(solver.num_branches))
