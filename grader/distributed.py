"""Grading on a Dask distributed cluster (``grade --dask ADDRESS``).

:class:`DaskPool` is a pool for :func:`grader.batch.run` like the local
ones: grids go to the cluster in chunks (a task per grid would cost more in
scheduling than in grading), results come back in any order and the run puts
them back in input order, so the output, the summary and ``--resume`` are
exactly those of a local run.  Every Dask worker builds one grader per
configuration and keeps it.

``--dask local`` starts a :class:`distributed.LocalCluster` of ``--jobs``
single-threaded worker processes on this machine; any other address is an
existing scheduler (``tcp://host:8786``), whose workers need sudoku-grader
installed.

``--timeout`` on a cluster: Dask runs tasks in worker threads, which cannot be
killed, so a grid past its time is interrupted inside its thread (an
exception raised between two Python bytecodes, see
:func:`grader.batch.call_with_deadline`) and gets the verdict ``timeout``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from .batch import (
    GradeConfig,
    Grader,
    GridTimeout,
    Result,
    Task,
    call_with_deadline,
    grade_task,
    make_grader,
    special_result,
)

_GRADERS: dict[str, Grader] = {}


def grade_chunk(cfg: GradeConfig, tasks: list[Task], timeout: float | None) -> list[Result]:
    """Grade a chunk of tasks on a Dask worker (one grader per configuration)."""
    key = repr(cfg)
    grader = _GRADERS.get(key)
    if grader is None:
        grader = _GRADERS[key] = make_grader(cfg)
    out = []
    for task in tasks:

        def one(t: Task = task, g: Grader = grader) -> Result:
            return grade_task(g, cfg, t)

        try:
            d = call_with_deadline(one, timeout)
        except GridTimeout:
            d = special_result(task, "timeout", f"not graded within {timeout:g} s",
                               float(timeout or 0), cfg.with_solution)
        out.append(d)
    return out


class DaskPool:
    """Grades on a Dask cluster, ``chunk`` grids per task."""

    def __init__(self, cfg: GradeConfig, address: str, jobs: int = 1,
                 timeout: float | None = None, chunk: int = 16) -> None:
        from distributed import Client, LocalCluster, as_completed

        self.cfg = cfg
        self.timeout = timeout
        self.chunk = chunk
        self.cluster: Any = None
        if address == "local":
            self.cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                        dashboard_address=None, silence_logs=logging.ERROR)
            self.client = Client(self.cluster)
        else:
            try:
                self.client = Client(address, timeout="10s")
            except OSError as e:
                raise OSError(f"cannot reach the Dask scheduler at {address}: {e}") from e
        threads = sum(self.client.nthreads().values()) or jobs
        self.jobs = threads
        self.capacity = max(4 * chunk, 3 * threads * chunk)
        self.window = max(256, 2 * self.capacity)
        self._pending: list[Task] = []
        self._futures: dict[Any, list[Task]] = {}
        self._done = as_completed()
        self._count = 0

    def free(self) -> int:
        return self.capacity - self._count

    def outstanding(self) -> int:
        return self._count

    def submit(self, task: Task) -> None:
        self._pending.append(task)
        self._count += 1
        if len(self._pending) >= self.chunk:
            self._flush()

    def _flush(self) -> None:
        if not self._pending:
            return
        tasks, self._pending = self._pending, []
        fut = self.client.submit(grade_chunk, self.cfg, tasks, self.timeout, pure=False)
        self._futures[fut] = tasks
        self._done.add(fut)

    def _results(self, fut: Any, tasks: list[Task]) -> Iterator[Result]:
        try:
            yield from fut.result()
        except Exception as e:  # noqa: BLE001 - a lost worker: every grid of the chunk
            for task in tasks:
                yield special_result(task, "error", f"the Dask task failed: "
                                     f"{type(e).__name__}: {e}", 0.0, self.cfg.with_solution)

    def wait(self, block: bool = True) -> list[Result]:
        self._flush()
        if not self._futures:
            return []
        batch = self._done.next_batch(block=block)
        out: list[Result] = []
        for fut in batch:
            tasks = self._futures.pop(fut)
            self._count -= len(tasks)
            out.extend(self._results(fut, tasks))
        return out

    def close(self, kill: bool = False) -> None:
        for fut in list(self._futures):
            fut.cancel()
        self._futures.clear()
        try:
            self.client.close()
        finally:
            if self.cluster is not None:
                self.cluster.close()
