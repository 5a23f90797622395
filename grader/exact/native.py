"""``native``: the core's bitmask solver (:func:`grader.kernel.solve`).

Naked and hidden singles, then minimum-remaining-values branching.  It is
called only through its public signature, so it keeps working whatever the
core does to make it faster."""

from __future__ import annotations

import time
from collections.abc import Sequence

from grader.core.geometry import Geometry
from grader.exact.base import Deadline, EngineResult, ExactEngine, given_conflict, result
from grader.kernel import solve as core_solve

#: first node budget when a time limit is set; doubled until the time is up
_FIRST_BUDGET = 4096


class NativeEngine(ExactEngine):
    name = "native"
    title = "bitmask backtracking with singles (the core's solver)"

    def solve(self, geo: Geometry, values: Sequence[int], limit: int = 2,
              time_limit: float | None = None) -> EngineResult:
        t0 = time.perf_counter()
        if given_conflict(geo, values):
            return result(self.name, 0, (), 0, limit, t0)
        if time_limit is None:
            r = core_solve(geo, values, limit)
            return result(self.name, r.count, r.solutions, r.nodes, limit, t0)
        # The core solver bounds its search by nodes, not time: run it with a
        # node budget that grows (doubling, but never beyond what the measured
        # speed allows in the time left) until it finishes or the time is up.
        deadline = Deadline(time_limit)
        budget = _FIRST_BUDGET
        total = 0
        while True:
            t1 = time.perf_counter()
            r = core_solve(geo, values, limit, max_nodes=budget)
            total += min(r.nodes, budget)
            if r.nodes <= budget:  # finished within the budget
                return result(self.name, r.count, r.solutions, total, limit, t0)
            left = deadline.remaining() or 0.0
            affordable = int(left * budget / max(time.perf_counter() - t1, 1e-6))
            if affordable <= budget:  # no time left to search further than this run
                return result(self.name, r.count, r.solutions, total, limit, t0, timed_out=True)
            budget = min(2 * budget, affordable)
