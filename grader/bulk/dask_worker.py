"""The worker side of ``grade --dask``: what runs inside a Dask worker.

A run's configuration reaches each worker once, as a Dask worker plugin
(:class:`GradePlugin`, registered under a name of its own: several runs can
share a cluster); the scheduler also hands it to every worker that joins
later.  Its :meth:`~GradePlugin.setup` checks that the worker runs the same
sudoku-grader, with the same rule plugins, as the command (:func:`identity`),
and builds a grader once, so that a plugin that fails to load is reported
before any grid is sent.  A chunk of grids then travels as the run's name and
the grids only (:func:`grade_chunk`), and comes back as the answers, each
with its output line already encoded, and the time the chunk took.
"""

from __future__ import annotations

import pickle
import threading
import time
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

from grader.bulk.task import Answer, GradeConfig, Task, Worker
from grader.core.errors import GraderError


class WorkerMismatch(GraderError, RuntimeError):
    """A Dask worker cannot grade for this command: another sudoku-grader
    version, other rule plugins, a plugin that fails to load."""


def identity() -> tuple[str, tuple[str, ...]]:
    """This installation's sudoku-grader version and rule plugins (each with
    the distribution and version that ship it)."""
    from grader.about import plugin_lines, version

    return version(), tuple(plugin_lines())


def mismatch(where: str, want: tuple[str, tuple[str, ...]],
             have: tuple[str, tuple[str, ...]]) -> str | None:
    """What differs between the command's installation ``want`` and the
    worker's ``have``, in one sentence; None when they agree."""
    if want[0] != have[0]:
        return (f"the Dask worker {where} runs sudoku-grader {have[0]}, this command "
                f"{want[0]}: install the same version on every worker")
    missing = sorted(set(want[1]) - set(have[1]))
    extra = sorted(set(have[1]) - set(want[1]))
    if missing or extra:
        what = (f"lacks {missing[0]}" if missing else f"has {extra[0]}, which this command lacks")
        return (f"the Dask worker {where} {what} (rule plugins differ: install the same "
                f"ones on every worker)")
    return None


class _Run:
    """A run's configuration on a worker, and one :class:`Worker` per thread
    (the deadline interrupts the thread that made it)."""

    def __init__(self, cfg: GradeConfig, timeout: float | None) -> None:
        self.cfg = cfg
        self.timeout = timeout
        self.local = threading.local()

    def worker(self) -> Worker:
        w: Worker | None = getattr(self.local, "worker", None)
        if w is None:
            w = self.local.worker = Worker(self.cfg, self.timeout)
        return w


#: This worker process's runs, by name; why a run could not be set up here.
_RUNS: dict[str, _Run] = {}
_FAILED: dict[str, str] = {}


class GradePlugin(WorkerPlugin):
    """A run's configuration, sent once to every worker (and to those that join)."""

    def __init__(self, name: str, cfg: GradeConfig, timeout: float | None,
                 origin: tuple[str, tuple[str, ...]]) -> None:
        self.name = name
        self.cfg = cfg
        self.timeout = timeout
        self.origin = origin

    def setup(self, worker: Any) -> None:
        where = str(getattr(worker, "address", "?"))
        problem = mismatch(where, self.origin, identity())
        if problem is None:
            try:
                Worker(self.cfg, None)  # loads the hierarchy's rules: fail here, not per grid
            except Exception as e:  # noqa: BLE001 - reported to the command
                problem = f"the Dask worker {where} cannot build a grader: {type(e).__name__}: {e}"
        if problem is not None:
            _FAILED[self.name] = problem
            raise WorkerMismatch(problem)
        _RUNS[self.name] = _Run(self.cfg, self.timeout)

    def teardown(self, worker: Any) -> None:
        _RUNS.pop(self.name, None)
        _FAILED.pop(self.name, None)


def grade_chunk(name: str, packed: bytes) -> tuple[list[Answer], float]:
    """Grade a chunk of the run ``name`` (its tasks pickled by the command) on
    a Dask worker thread: the answers, in the chunk's order, and the seconds
    they took."""
    run = _RUNS.get(name)
    if run is None:
        raise WorkerMismatch(_FAILED.get(name) or "a Dask worker has not received the "
                             "run's configuration (its plugin did not set up)")
    worker = run.worker()
    tasks: list[Task] = pickle.loads(packed)
    t0 = time.perf_counter()
    out = [worker.answer(task) for task in tasks]
    return out, time.perf_counter() - t0
