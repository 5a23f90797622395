"""Worker processes for the server: the work on grids never runs on the
event loop, and no grid can hang the server.

Each job runs in a worker under the deadline of grading
(:class:`grader.bulk.task.Deadline`: the worker answers ``timeout`` itself and
goes on).  A worker that stays silent past the deadline and a grace (stuck in
one native call) is killed and replaced; one that dies is replaced.  Jobs
wait for a free worker in arrival order, at most ``queue_limit`` seconds
(then :class:`QueueTimeout`); past ``max_waiting`` waiting jobs the pool
answers :class:`PoolBusy` at once.  A job whose request is cancelled (its
client left) leaves the queue, or, when it runs, is cancelled in its worker
(through a pipe of its own, read by a thread of the worker: the deadline ends
the job at once), and the worker is free again; a worker that does not stop
within the grace is killed and replaced.  Workers run at a lower priority
(``nice``), so that the server answers its other requests while they work.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing as mp
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from grader.web.options import ServeOptions

#: Seconds a worker may stay silent past the deadline before it is killed.
GRACE = 2.0
#: How much lower the workers' priority is than the server's.
NICENESS = 5


class JobTimeout(Exception):
    """The job ran past the deadline."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"not done within {seconds:g} s")
        self.seconds = seconds


class PoolBusy(Exception):
    """Too many jobs are waiting already."""


class QueueTimeout(PoolBusy):
    """The job waited longer than the queue limit for a free worker."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"waited {seconds:g} s for a free worker (--queue-time) while the "
                         f"others worked on other requests; try again later, or start the "
                         f"server with a longer --queue-time or more --jobs")
        self.seconds = seconds


class JobFailed(Exception):
    """The job failed: the worker died, or something unexpected went wrong."""


class JobRefused(Exception):
    """The job cannot be done as asked (bad input): ``kind`` and ``message``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def _worker_main(conn: Connection, cancels: Connection, options: ServeOptions) -> None:
    """A worker process: answer each job sent until the pipe closes; a job
    number that comes on ``cancels`` stops that job if it runs."""
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    from grader.web.work import Worker

    worker = Worker(options.hierarchy, options.time_limit)

    def listen() -> None:
        while True:
            try:
                number = cancels.recv()
            except (EOFError, OSError):
                return
            worker.cancel(number)

    threading.Thread(target=listen, name="cancels", daemon=True).start()
    conn.send(("ready",))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if job is None:
            return
        number, name, args = job
        try:
            conn.send(worker.answer(name, args, number))
        except (OSError, KeyboardInterrupt):
            return


@dataclass
class _Proc:
    process: Any
    conn: Connection
    cancels: Connection


class WorkerPool:
    """``jobs`` worker processes; :meth:`run` sends one job and awaits its answer."""

    def __init__(self, options: ServeOptions, max_waiting: int = 256) -> None:
        self.options = options
        self.size = options.workers
        self.time_limit = options.time_limit
        self.queue_limit = options.queue_limit
        self.max_waiting = max_waiting
        self.waiting = 0
        self.cancelled = 0  # jobs cancelled in their worker, so far
        self._ctx = mp.get_context("spawn")
        self._idle: asyncio.Queue[_Proc] = asyncio.Queue()
        self._all: list[_Proc] = []
        self._threads = ThreadPoolExecutor(max_workers=self.size + 2,
                                           thread_name_prefix="pool-reader")
        self._tasks: set[asyncio.Task[Any]] = set()
        self._numbers = itertools.count(1)

    @property
    def busy(self) -> int:
        """Workers at work (or being replaced)."""
        return max(0, self.size - self._idle.qsize())

    # -- the processes -------------------------------------------------
    def _spawn(self) -> _Proc:
        parent, child = self._ctx.Pipe()
        cancel_read, cancel_write = self._ctx.Pipe(duplex=False)
        process = self._ctx.Process(target=_worker_main,
                                    args=(child, cancel_read, self.options),
                                    name="grader-web-worker", daemon=True)
        process.start()
        child.close()
        cancel_read.close()
        proc = _Proc(process, parent, cancel_write)
        if not parent.poll(120) or parent.recv() != ("ready",):
            self._kill(proc)
            raise JobFailed("a worker process did not start")
        return proc

    def _kill(self, proc: _Proc) -> None:
        with contextlib.suppress(Exception):
            proc.process.kill()
        with contextlib.suppress(Exception):
            proc.process.join(5)
        for conn in (proc.conn, proc.cancels):
            with contextlib.suppress(Exception):
                conn.close()
        if proc in self._all:
            self._all.remove(proc)

    async def _add(self) -> None:
        proc = await asyncio.get_running_loop().run_in_executor(self._threads, self._spawn)
        self._all.append(proc)
        self._idle.put_nowait(proc)

    async def start(self) -> None:
        await asyncio.gather(*(self._add() for _ in range(self.size)))

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for proc in list(self._all):
            with contextlib.suppress(Exception):
                proc.conn.send(None)
            self._kill(proc)
        self._threads.shutdown(wait=False, cancel_futures=True)

    def _replace_later(self) -> None:
        task = asyncio.get_running_loop().create_task(self._add())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- the jobs ------------------------------------------------------
    async def run(self, name: str, *args: Any) -> Any:
        """The answer of job ``name(*args)`` in a worker.  Raises
        :class:`JobTimeout`, :class:`JobRefused` (bad input),
        :class:`PoolBusy` (:class:`QueueTimeout`) or :class:`JobFailed`.
        Cancelled (its client left), the job leaves the queue or is cancelled
        in its worker."""
        if self.waiting >= self.max_waiting:
            raise PoolBusy(f"{self.waiting} requests are waiting already; try again later")
        self.waiting += 1
        try:
            async with asyncio.timeout(self.queue_limit):
                proc = await self._idle.get()
        except TimeoutError:
            raise QueueTimeout(self.queue_limit or 0.0) from None
        finally:
            self.waiting -= 1
        number = next(self._numbers)
        stop = asyncio.Event()
        # the job gives its worker back even if the request is cancelled
        task = asyncio.get_running_loop().create_task(self._job(proc, (number, name, args), stop))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        try:
            answer = await asyncio.shield(task)
        except asyncio.CancelledError:
            stop.set()  # nobody waits for the answer: the worker stops the job
            raise
        kind = answer[0]
        if kind == "ok":
            return answer[1]
        if kind == "bad":
            raise JobRefused(answer[1], answer[2])
        if kind == "timeout":
            raise JobTimeout(float(answer[1]))
        raise JobFailed(str(answer[1]) if len(answer) > 1 else kind)

    async def _job(self, proc: _Proc, job: tuple[int, str, tuple[Any, ...]],
                   stop: asyncio.Event) -> tuple[Any, ...]:
        loop = asyncio.get_running_loop()
        limit = self.time_limit + GRACE if self.time_limit else None
        deadline = None if limit is None else loop.time() + limit
        stopping = loop.create_task(stop.wait())
        try:
            proc.conn.send(job)
            reading = loop.run_in_executor(self._threads, proc.conn.recv)
            while not reading.done():
                left = None if deadline is None else max(0.0, deadline - loop.time())
                waits: set[asyncio.Future[Any]] = {reading, stopping} if not stopping.done() \
                    else {reading}
                done, _ = await asyncio.wait(waits, timeout=left,
                                             return_when=asyncio.FIRST_COMPLETED)
                if not done:
                    raise TimeoutError
                if stopping in done and not reading.done():
                    proc.cancels.send(job[0])
                    self.cancelled += 1
                    stopped = loop.time() + GRACE
                    deadline = stopped if deadline is None else min(deadline, stopped)
            answer: tuple[Any, ...] = reading.result()
        except TimeoutError:
            self._kill(proc)  # stuck where the deadline cannot reach: its reader ends too
            self._replace_later()
            return ("timeout", self.time_limit)
        except (EOFError, OSError) as e:
            self._kill(proc)
            self._replace_later()
            return ("error", f"the worker process died ({type(e).__name__})")
        finally:
            stopping.cancel()
        self._idle.put_nowait(proc)
        return answer
