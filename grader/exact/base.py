"""What every exact engine shares: the result type, the engine protocol,
deadlines and an independent check of a claimed solution."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from grader.core.errors import GraderError
from grader.core.geometry import Geometry
from grader.kernel import SolveResult


@dataclass(frozen=True)
class EngineResult(SolveResult):
    """A :class:`grader.kernel.SolveResult` with what an engine can add.

    ``timed_out``: the search stopped at its time limit, so ``count`` is only
    a lower bound (and ``solutions`` may be empty although one exists).
    ``seconds``: wall time of the call.  ``stats``: engine-specific figures
    (variables and clauses, conflicts, AC-3 revisions, ...)."""

    timed_out: bool = False
    seconds: float = 0.0
    engine: str = ""
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        """Whether ``count`` is exact: all solutions up to ``limit`` were looked for."""
        return not self.timed_out


class EngineError(GraderError, RuntimeError):
    """An engine that cannot run here (missing optional dependency, bad option)."""


class Deadline:
    """A point in time after which a search gives up (``None``: never)."""

    __slots__ = ("at",)

    def __init__(self, seconds: float | None) -> None:
        self.at = None if seconds is None else time.perf_counter() + seconds

    def expired(self) -> bool:
        return self.at is not None and time.perf_counter() >= self.at

    def remaining(self) -> float | None:
        return None if self.at is None else max(0.0, self.at - time.perf_counter())


class ExactEngine(ABC):
    """An exact solver: finds up to ``limit`` solutions of a grid.

    Instances are callables ``(geo, values, limit) -> SolveResult`` so that
    ``grader.strategy.grading.Grader(solver=engine)`` uses them for its verdicts."""

    #: registry name (``--engine NAME``)
    name: ClassVar[str] = ""
    #: one line for ``--help`` and tables
    title: ClassVar[str] = ""

    @abstractmethod
    def solve(self, geo: Geometry, values: Sequence[int], limit: int = 2,
              time_limit: float | None = None) -> EngineResult:
        """Look for up to ``limit`` solutions of ``values`` (0 = empty).

        Solutions are returned in a deterministic order (the same input gives
        the same result).  A grid whose givens repeat a value in a region has
        no solution.  ``time_limit`` (seconds) bounds the search: the result
        then has ``timed_out`` set and ``count`` is a lower bound."""

    def __call__(self, geo: Geometry, values: Sequence[int], limit: int = 2) -> EngineResult:
        return self.solve(geo, values, limit)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def is_solution(geo: Geometry, values: Sequence[int], solution: Sequence[int]) -> bool:
    """Whether ``solution`` is a complete, valid grid that keeps every given of
    ``values``: checked from scratch, independently of any engine."""
    if len(solution) != geo.ncells or len(values) != geo.ncells:
        return False
    if any(v and v != s for v, s in zip(values, solution, strict=True)):
        return False
    want = set(range(1, geo.n + 1))
    return all({solution[c] for c in cells} == want for cells in geo.regions)


def given_conflict(geo: Geometry, values: Sequence[int]) -> bool:
    """Whether some value is given twice in one region."""
    for cells in geo.regions:
        seen = 0
        for c in cells:
            v = values[c]
            if v:
                bit = 1 << (v - 1)
                if seen & bit:
                    return True
                seen |= bit
    return False


def result(engine: str, count: int, solutions: Sequence[Sequence[int]], nodes: int, limit: int,
           t0: float, timed_out: bool = False, **stats: Any) -> EngineResult:
    """Build an :class:`EngineResult`, solutions sorted for determinism."""
    sols = tuple(sorted(tuple(s) for s in solutions))
    return EngineResult(count, sols, nodes, limit, timed_out=timed_out,
                        seconds=time.perf_counter() - t0, engine=engine, stats=dict(stats))
