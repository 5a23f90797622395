"""The pool on a Dask distributed cluster (``grade --dask ADDRESS``).

:class:`DaskPool` answers the :class:`~grader.bulk.pool.Pool` protocol like the
local pools: grids go to the cluster in chunks (a task per grid would cost
more in scheduling than in grading), answers come back in any order and the
run puts them back in input order, so the output, the summary and
``--resume`` are exactly those of a local run.  Every Dask worker thread
keeps one :class:`~grader.bulk.task.Worker` per configuration.

``--dask local`` starts a :class:`distributed.LocalCluster` of ``--jobs``
single-threaded worker processes on this machine; any other address is an
existing scheduler (``tcp://host:8786``), whose workers need sudoku-grader
installed.  ``--time-limit`` on a cluster is the deadline of
:mod:`grader.bulk.task`, as everywhere.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from typing import Any

from grader.bulk.pool import WINDOW
from grader.bulk.task import Answer, GradeConfig, Task, Worker, special_result

_LOCAL = threading.local()  # a Dask worker thread's Workers, by configuration


def grade_chunk(cfg: GradeConfig, tasks: list[Task], timeout: float | None) -> list[Answer]:
    """Grade a chunk of tasks on a Dask worker thread."""
    workers: dict[str, Worker] = getattr(_LOCAL, "workers", None) or {}
    _LOCAL.workers = workers
    key = repr((cfg, timeout))
    worker = workers.get(key)
    if worker is None:
        worker = workers[key] = Worker(cfg, timeout)
    return [worker.answer(task) for task in tasks]


class DaskPool:
    """Grades on a Dask cluster, ``chunk`` grids per task."""

    replaced = 0
    stopping = False

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
        self.window = max(WINDOW, 2 * self.capacity)
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

    def interrupt(self) -> None:
        """The run is stopping: a chunk that fails from now on is left ungraded."""
        self.stopping = True
        self._count -= len(self._pending)
        self._pending = []

    def _answers(self, fut: Any, tasks: list[Task]) -> Iterator[Answer]:
        try:
            yield from fut.result()
        except Exception as e:  # noqa: BLE001 - a lost worker: every grid of the chunk
            if self.stopping:
                return  # lost to the stopping, not the grids' failure: left for --resume
            for task in tasks:
                yield special_result(task, "error", f"the Dask task failed: "
                                     f"{type(e).__name__}: {e}", 0.0,
                                     self.cfg.with_solution), None

    def wait(self, block: bool = True) -> list[Answer]:
        self._flush()
        if not self._futures:
            return []
        batch = self._done.next_batch(block=block)
        out: list[Answer] = []
        for fut in batch:
            tasks = self._futures.pop(fut)
            self._count -= len(tasks)
            out.extend(self._answers(fut, tasks))
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
