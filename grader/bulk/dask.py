"""The pool on a Dask distributed cluster (``grade --dask ADDRESS``).

:class:`DaskPool` answers the :class:`~grader.bulk.pool.Pool` protocol like the
local pools: grids go to the cluster in chunks, answers come back in any
order and the run puts them back in input order, so the output, the summary
and ``--resume`` are exactly those of a local run.

What a chunk costs is kept small:

* the run's configuration goes to each worker once, as a worker plugin
  (:mod:`grader.bulk.dask_worker`); a chunk is the run's name and its grids;
* a chunk's size follows the measured cost of a grid (:class:`ChunkSize`): a
  chunk takes about :data:`CHUNK_SECONDS` on its worker, whether the grids
  are easy or hard, so that the scheduler's work per chunk stays far below
  the grading's;
* the answers come back with their output lines already encoded, and are
  gathered in one call per round;
* no more than :data:`SLOTS_PER_THREAD` chunks a worker thread are in flight
  (enough to keep every thread busy across a round trip), so memory stays
  bounded whatever the length of the input.

``--dask local`` starts a :class:`distributed.LocalCluster` of ``--jobs``
single-threaded worker processes on this machine (:mod:`grader.bulk.dask_local`);
any other address is an existing scheduler (``tcp://host:8786``), whose
workers need the same sudoku-grader and rule plugins installed (checked when
the run starts).  A worker that dies has its chunks graded again elsewhere by
the scheduler; a chunk whose workers keep dying is split, and the grid that
kills them gets the verdict ``error``.  A lost scheduler stops the run with
:class:`ClusterLost`: what was written is kept, and ``--resume`` continues.
``--time-limit`` on a cluster is the deadline of :mod:`grader.bulk.task`, as
everywhere.
"""

from __future__ import annotations

import contextlib
import pickle
import uuid
from typing import Any

from grader.bulk.pool import WINDOW, ClusterLost
from grader.bulk.task import Answer, GradeConfig, Task, special_result

#: A chunk takes about this long on a worker, once a grid's cost is measured ...
CHUNK_SECONDS = 0.08
#: ... starting from chunks of this many grids, and never more than this many.
FIRST_CHUNK = 8
MAX_CHUNK = 2048
#: Chunks in flight per worker thread (one graded, one waiting: no idle round trip).
SLOTS_PER_THREAD = 2
#: The grids in flight on the whole cluster, at most (it bounds the chunk size).
MAX_IN_FLIGHT = 32768
#: How often a blocked wait looks whether the client is still connected.
POLL_SECONDS = 1.0



class ChunkSize:
    """How many grids a chunk holds: :data:`CHUNK_SECONDS` worth at the
    measured cost of a grid (a moving average of the chunks' own timings)."""

    def __init__(self, cap: int) -> None:
        self.cap = max(1, cap)
        self.cost: float | None = None  # seconds per grid
        self.size = min(FIRST_CHUNK, self.cap)

    def measured(self, grids: int, seconds: float) -> None:
        if grids <= 0:
            return
        cost = max(seconds / grids, 1e-6)
        self.cost = cost if self.cost is None else 0.7 * self.cost + 0.3 * cost
        self.size = max(1, min(self.cap, int(CHUNK_SECONDS / self.cost)))


class DaskPool:
    """Grades on a Dask cluster, in chunks sized by :class:`ChunkSize`."""

    replaced = 0
    stopping = False

    def __init__(self, cfg: GradeConfig, address: str, jobs: int = 1,
                 timeout: float | None = None) -> None:
        from grader.bulk.dask_local import connect

        self.cfg = cfg
        self.address = address
        self.client, self.cluster = connect(address, jobs)
        try:
            self.name = f"sudoku-grader-{uuid.uuid4().hex}"
            self._register(timeout)
        except BaseException:
            self._shutdown()
            raise
        threads = sum(self.client.nthreads().values()) or max(1, jobs)
        self.jobs = threads
        self.slots = SLOTS_PER_THREAD * threads + 1
        self.chunks = ChunkSize(min(MAX_CHUNK, MAX_IN_FLIGHT // self.slots))
        self.window = max(WINDOW, 2 * self.slots * self.chunks.cap)
        self._pending: list[Task] = []
        self._futures: dict[Any, list[Task]] = {}
        self._count = 0
        self._lost: ClusterLost | None = None
        self._fetch_failures = 0

    def _register(self, timeout: float | None) -> None:
        from grader.bulk.dask_worker import GradePlugin, WorkerMismatch, identity

        plugin = GradePlugin(self.name, self.cfg, timeout, identity())
        try:
            self.client.register_plugin(plugin, name=self.name)
        except BaseException as e:
            with contextlib.suppress(Exception):  # not left for the workers that join
                self.client.unregister_worker_plugin(self.name)
            if isinstance(e, WorkerMismatch | KeyboardInterrupt | OSError):
                raise
            if isinstance(e, ImportError) or "No module named" in str(e):
                raise WorkerMismatch(f"the Dask workers cannot load sudoku-grader ({e}): "
                                     "install the same version on every worker") from None
            raise WorkerMismatch(f"the Dask workers cannot set up the run: "
                                 f"{type(e).__name__}: {e}") from None

    # -- the Pool protocol ---------------------------------------------------
    def free(self) -> int:
        return max(0, (self.slots - len(self._futures)) * self.chunks.size - len(self._pending))

    def outstanding(self) -> int:
        return self._count

    def submit(self, task: Task) -> None:
        self._pending.append(task)
        self._count += 1
        if len(self._pending) >= self.chunks.size:
            self._flush()

    def _flush(self) -> None:
        if self._pending:
            tasks, self._pending = self._pending, []
            self._send(tasks)

    def interrupt(self) -> None:
        """The run is stopping: a chunk that fails from now on is left
        ungraded (for ``--resume``), not counted as its grids' failure."""
        self.stopping = True
        self._count -= len(self._pending)
        self._pending = []

    def _send(self, tasks: list[Task]) -> None:
        from grader.bulk.dask_worker import grade_chunk

        # one bytes object: Dask would walk a list of tuples, every value of every grid
        packed = pickle.dumps(tasks, protocol=pickle.HIGHEST_PROTOCOL)
        fut = self.client.submit(grade_chunk, self.name, packed, pure=False)
        self._futures[fut] = tasks

    def wait(self, block: bool = True) -> list[Answer]:
        self._flush()
        if self._lost is not None:
            raise self._lost
        if not self._futures:
            return []
        done = [f for f in self._futures if f.done()]
        while block and not done:
            self._wait_some()
            done = [f for f in self._futures if f.done()]
        return self._collect(done)

    def _wait_some(self) -> None:
        """Until a chunk is done (or the client lost its scheduler)."""
        from distributed import wait

        with contextlib.suppress(Exception):  # a timeout, cancelled chunks: looked at below
            wait(list(self._futures), timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
        if self.client.status not in ("running", "newly-created"):
            self._lost = self._lost or self._gone()
            raise self._lost

    def _collect(self, done: list[Any]) -> list[Answer]:
        out: list[Answer] = []
        # each future's status read once: the client's thread changes it meanwhile (a
        # stopped scheduler cancels a chunk that was "finished" a moment before)
        status = {f: f.status for f in done}
        finished = [f for f in done if status[f] == "finished"]
        if finished:
            try:
                results = self.client.gather(finished)  # one round trip for them all
                self._fetch_failures = 0
            except Exception as e:  # noqa: BLE001 - looked at again on the next round
                results = None
                self._fetch_failed(e)
            if results is not None:
                for fut, (answers, seconds) in zip(finished, results, strict=True):
                    self._done(fut)
                    self.chunks.measured(len(answers), seconds)
                    out.extend(answers)
        for fut in done:
            if status[fut] not in ("finished", "pending") and fut in self._futures:
                self._failed(fut, out)
        if self._lost is not None and not out:
            raise self._lost
        return out

    def _fetch_failed(self, e: Exception) -> None:
        """Results that could not be fetched stay in flight: a worker that held
        them died (the scheduler computes them again, or they fail), unless the
        scheduler is gone or they keep failing."""
        self._fetch_failures += 1
        if self.client.status != "running":
            self._lost = self._lost or self._gone()
        elif self._fetch_failures >= 3:
            self._lost = self._lost or ClusterLost(
                f"cannot fetch results from the Dask cluster at {self.address}: "
                f"{type(e).__name__}: {e}")

    def _done(self, fut: Any) -> list[Task]:
        tasks = self._futures.pop(fut)
        self._count -= len(tasks)
        return tasks

    def _failed(self, fut: Any, out: list[Answer]) -> None:
        """A chunk that did not finish: its worker died (again and again), or
        the cluster cannot go on (the answers already in ``out`` are kept)."""
        from distributed.scheduler import KilledWorker

        from grader.bulk.dask_worker import WorkerMismatch

        exc = None
        if fut.status == "error":
            with contextlib.suppress(Exception):
                exc = fut.exception()
        tasks = self._done(fut)
        if self.stopping:
            return  # lost to the stopping, not the grids' failure: left for --resume
        if isinstance(exc, KilledWorker):
            if len(tasks) > 1:  # find the grid that kills its workers
                for task in tasks:
                    self._count += 1
                    self._send([task])
                return
            out.append((special_result(tasks[0], "error", "the Dask workers died on this "
                                       "grid", 0.0, self.cfg.with_solution), None))
            return
        if exc is None:  # cancelled: the client lost its scheduler
            self._lost = self._lost or self._gone()
        elif isinstance(exc, WorkerMismatch):
            self._lost = self._lost or ClusterLost(str(exc))
        elif "No module named" in str(exc):  # a worker without sudoku-grader joined
            self._lost = self._lost or ClusterLost(
                f"a Dask worker cannot load sudoku-grader ({exc}): install the same version "
                "on every worker")
        else:
            self._lost = self._lost or ClusterLost(
                f"a Dask task failed: {type(exc).__name__}: {exc}")

    def _gone(self) -> ClusterLost:
        return ClusterLost(f"lost the connection to the Dask scheduler at {self.address}")

    # -- the end -------------------------------------------------------------
    def close(self, kill: bool = False) -> None:
        futures, self._futures = list(self._futures), {}
        live = self.client.status == "running" and self._lost is None
        if live and futures:
            with contextlib.suppress(Exception):
                self.client.cancel(futures)
        if live and self.cluster is None:  # a shared cluster: forget this run
            with contextlib.suppress(Exception):
                self.client.unregister_worker_plugin(self.name)
        self._shutdown()

    def _shutdown(self) -> None:
        from grader.bulk.dask_local import disconnect

        disconnect(self.client, self.cluster)
