"""A worker's job: one grader, one grid graded at a time, and the one way a
grid is timed out.

Whatever the pool (this process, worker processes, a Dask cluster), a grid
is graded by a :class:`Worker`: it builds one :class:`~grader.strategy.grading.Grader`
from a :class:`GradeConfig`, answers each :data:`Task` with the result dict
and, when the run writes JSON Lines or CSV, the result's line of output
already encoded (so that the parent only writes it), and gives up on a grid
after ``timeout`` seconds: a :class:`Deadline` raises :class:`GridTimeout`
inside the grading thread and the grid gets the verdict ``timeout``.  (The
exception is delivered between two Python bytecodes; a pool of processes
also stops a worker stuck in one native call, see
:mod:`grader.bulk.processes`.)
"""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from grader.bulk.clock import running
from grader.bulk.codec import Encoder, Result
from grader.core.errors import GraderError
from grader.core.geometry import geometry
from grader.core.prints import rules_print_to_stderr
from grader.core.rule import RuleError
from grader.formats import Grid, Record
from grader.strategy.grading import Grader, GradeResult
from grader.strategy.hierarchy import Hierarchy

#: A task sent to a worker: (index, line, a, b, values).
Task = tuple[int, int, int, int, tuple[int, ...]]
#: A worker's answer: the result, and its line of output when the run encodes in workers.
Answer = tuple[Result, str | None]


@dataclass(frozen=True)
class GradeConfig:
    """Everything a worker needs to build its grader (picklable).

    ``encode``: ``jsonl`` or ``csv`` when workers encode the output lines
    (``fields``: the CSV columns), None when the parent does."""

    hierarchy: Hierarchy | None = None
    check: bool = False
    engine: str | None = None
    with_solution: bool = False
    canonical: bool = False
    encode: str | None = None
    fields: tuple[str, ...] | None = None
    se: str = "fast"  # how deep ``se`` searches Sudoku Explainer's nested chains

    #: What the fork server of a pool of processes imports once (see
    #: :class:`grader.bulk.processes.Job`).
    preload: ClassVar[tuple[str, ...]] = ("grader.bulk.task", "grader.strategy.grading")

    def start(self, timeout: float | None) -> Worker:
        """The worker of a process of the pool."""
        return Worker(self, timeout)

    def failed(self, task: Task, verdict: str, message: str, seconds: float) -> Answer:
        """The answer of a grid whose worker died or stayed silent."""
        if verdict == "timeout":
            return timeout_result(task, seconds, self.with_solution), None
        return special_result(task, verdict, message, seconds, self.with_solution), None


class EngineUnavailable(GraderError, RuntimeError):
    """``--check-engine`` names an engine that cannot be used here."""


def engine_solver(name: str) -> Any:
    """The exact-solver callable ``(geo, values, limit) -> SolveResult`` of a named
    engine of :mod:`grader.exact`."""
    try:
        from grader import exact as engines
    except ImportError as e:
        raise EngineUnavailable(
            f"exact-solver engines are not available in this installation ({e})") from e
    try:
        eng = engines.get_engine(name)
    except Exception as e:  # noqa: BLE001 - any failure is reported to the user
        raise EngineUnavailable(f"engine {name!r}: {e}") from e
    solver = eng if callable(eng) else getattr(eng, "solve", None)
    if not callable(solver):
        raise EngineUnavailable(f"engine {name!r} has no solve function")
    return solver


def make_grader(cfg: GradeConfig) -> Grader:
    solver = engine_solver(cfg.engine) if cfg.engine else None
    return Grader(cfg.hierarchy, check=cfg.check, solver=solver, se=cfg.se)


#: How many graders (configurations) a thread keeps for :func:`shared_grader`.
SHARED_GRADERS = 8
_shared = threading.local()


def shared_grader(cfg: GradeConfig) -> Grader:
    """The grader of ``cfg`` for this thread, built once and reused (the API's
    ``grade`` builds none per call): one per configuration (the hierarchy's
    content, ``check``, the engine, ``se``), the :data:`SHARED_GRADERS` last
    used kept; installing a plugin (:func:`grader.strategy.plugins.reset`)
    forgets them."""
    from grader.strategy import plugins

    cache: dict[Any, Grader] | None = getattr(_shared, "graders", None)
    if cache is None or getattr(_shared, "generation", None) != plugins.generation():
        cache = _shared.graders = {}
        _shared.generation = plugins.generation()
    h = cfg.hierarchy
    key = (None if h is None else h.model_dump_json(), cfg.check, cfg.engine, cfg.se)
    grader = cache.pop(key, None)
    if grader is None:
        grader = make_grader(cfg)
        while len(cache) >= SHARED_GRADERS:
            del cache[next(iter(cache))]
    cache[key] = grader  # the most recently used last
    return grader


def task_of(rec: Record) -> Task:
    assert rec.grid is not None
    geo = rec.grid.geo
    return (rec.index, rec.line, geo.a, geo.b, rec.grid.values)


def malformed_result(rec: Record, with_solution: bool = False) -> Result:
    r = GradeResult(index=rec.index, line=rec.line, puzzle=rec.text, size=None,
                    verdict="malformed", message=rec.error)
    return r.contract(with_solution)


def special_result(task: Task, verdict: str, message: str, seconds: float,
                   with_solution: bool = False) -> Result:
    index, line, a, b, values = task
    puzzle = Grid(geometry(a, b), values).normalised()
    r = GradeResult(index=index, line=line, puzzle=puzzle, size=a * b,
                    verdict=verdict, message=message, seconds=round(seconds, 6))  # type: ignore[arg-type]
    return r.contract(with_solution)


def timeout_result(task: Task, seconds: float, with_solution: bool = False) -> Result:
    """The result of a grid not graded within ``seconds`` (every pool's)."""
    return special_result(task, "timeout", f"not graded within {seconds:g} s", seconds,
                          with_solution)


def grade_task(grader: Grader, cfg: GradeConfig, task: Task) -> Result:
    """Grade one task; never raises (an unexpected failure is the verdict ``error``)."""
    index, line, a, b, values = task
    t0 = time.perf_counter()
    grid: Grid | None = Grid(geometry(a, b), values)
    try:
        assert grid is not None
        d = grader.grade_grid(grid, index, line).contract(cfg.with_solution)
    except GridTimeout:
        raise
    except RuleError as e:  # a rule plugin failed: named, and the run goes on
        d = special_result(task, "rule-error", str(e), time.perf_counter() - t0,
                           cfg.with_solution)
        grid = None
    except Exception as e:  # noqa: BLE001 - reported per grid, the run goes on
        d = special_result(task, "error", f"{type(e).__name__}: {e}",
                           time.perf_counter() - t0, cfg.with_solution)
        grid = None
    if cfg.canonical:
        from grader.formats.canonical import canonical_form

        d["canonical"] = canonical_form(grid) if grid is not None else d["puzzle"]
    return d


class GridTimeout(BaseException):
    """Raised inside the grading thread when its grid ran past the deadline."""


class Deadline:
    """Interrupts the thread that made it, ``seconds`` after :meth:`run` began.

    One watcher thread per grading thread, armed and disarmed per grid (no
    thread per grid); it wakes when a deadline is due, not at every grid."""

    def __init__(self) -> None:
        self.tid = threading.get_ident()
        self.cond = threading.Condition()
        self.expiry: float | None = None
        self.fired = False
        self.idle = True  # the watcher waits without a time limit
        threading.Thread(target=self._watch, name="deadline", daemon=True).start()

    def _watch(self) -> None:
        with self.cond:
            while True:
                if self.expiry is None:
                    self.idle = True
                    self.cond.wait()
                    continue
                self.idle = False
                left = self.expiry - running()
                if left > 0:
                    self.cond.wait(left)
                    continue
                self.expiry = None
                self.fired = True
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.tid),
                                                           ctypes.py_object(GridTimeout))

    def interrupt(self) -> bool:
        """End the run under way now, as if its deadline had come (its ``fn``
        raises :class:`GridTimeout`); False when none is under way."""
        with self.cond:
            if self.expiry is None:
                return False
            self.expiry = running()
            self.cond.notify()
            return True

    def run(self, fn: Callable[[], Result], seconds: float | None) -> Result:
        """``fn()``, or :class:`GridTimeout` after ``seconds`` (None, ``inf`` or a
        year and more: no limit)."""
        if not seconds or not seconds < 3e7:
            return fn()
        with self.cond:
            self.expiry = running() + seconds
            self.fired = False
            if self.idle:
                self.cond.notify()
        try:
            return fn()
        finally:
            with self.cond:
                self.expiry = None
                if self.fired:  # it may still be pending if it fired at the very end
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.tid), None)


class Worker:
    """What grades, wherever it runs: a grader, the deadline, the encoder."""

    def __init__(self, cfg: GradeConfig, timeout: float | None = None) -> None:
        self.cfg = cfg
        self.timeout = timeout
        self.grader = make_grader(cfg)
        self.deadline = Deadline() if timeout else None
        self.encoder = Encoder(cfg.encode, cfg.fields) if cfg.encode else None

    def grade(self, task: Task) -> Result:
        if self.deadline is None:
            return grade_task(self.grader, self.cfg, task)
        try:
            return self.deadline.run(lambda: grade_task(self.grader, self.cfg, task),
                                     self.timeout)
        except GridTimeout:
            self.grader = make_grader(self.cfg)  # nothing half-done is kept
            return timeout_result(task, self.timeout or 0.0, self.cfg.with_solution)

    def answer(self, task: Task) -> Answer:
        with rules_print_to_stderr():  # in this process too (InlinePool): results stay clean
            d = self.grade(task)
        return d, (self.encoder.encode(d) if self.encoder is not None else None)
