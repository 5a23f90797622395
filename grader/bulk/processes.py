"""A pool of worker processes (``grade --jobs N``).

The parent sends grids in chunks of :data:`SEND_TASKS` (one pipe message
each) and each worker sends its answers back in batches (an
:class:`_Outbox`), the output lines already encoded: the parent's work per
grid is a few microseconds, so that it is never the bottleneck.

A grid is timed out inside its worker (:class:`~grader.bulk.task.Deadline`);
a worker that does not answer within ``timeout`` + :data:`KILL_GRACE` (stuck
inside one native call, or a plugin in a system call) is killed and replaced,
its grid answered with the same verdict ``timeout``.  A worker that dies
answers its grid with the verdict ``error`` and is replaced; the grids queued
behind either go to the replacement.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import selectors
import signal
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Protocol

from ..orphans import exit_with_parent
from .pool import WINDOW, WorkerFailed

#: A worker sends its answers at once when no grid waits for it, else when a
#: grid is done and the oldest unsent answer is this old ...
BATCH_SECONDS = 0.05
#: ... or, while a slow grid is being graded, when it is this old.
HOLD_SECONDS = 0.2
#: The parent sends grids to a worker this many at a time (or fewer, when it waits).
SEND_TASKS = 32
#: A worker silent this long past the timeout is stuck where the deadline cannot
#: reach (one native call): it is killed.
KILL_GRACE = 1.0


class Job(Protocol):
    """What the workers of a :class:`ProcessPool` do (picklable: it travels to
    each worker).  :class:`~grader.bulk.task.GradeConfig` grades grids;
    :class:`grader.generator.run.GenerateJob` makes grids.

    ``preload``: modules the fork server imports once for every worker.
    ``start(timeout)``, in a worker: the object whose ``answer(task)`` answers
    each task.  ``failed(task, verdict, message, seconds)``, in the parent: the
    answer of a task whose worker died (verdict ``error``) or stayed silent
    past the time limit (``timeout``)."""

    @property
    def preload(self) -> tuple[str, ...]: ...

    def start(self, timeout: float | None) -> Any: ...

    def failed(self, task: Any, verdict: str, message: str, seconds: float) -> Any: ...


class _Outbox:
    """A worker's answers not yet sent.

    They travel together (sparing the parent most of its wake-ups and pipe
    reads).  The grading thread sends them when a grid is done; a timer
    thread sends them at most :data:`HOLD_SECONDS` after the oldest was done
    while the next grid is still being graded, so a slow grid never holds
    back the answers done before it (they are written, and kept if the run
    is interrupted)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.lock = threading.Lock()
        self.pending: list[Any] = []
        self.since = 0.0
        self.busy = threading.Event()  # set while answers are pending
        self.closed = False
        self.thread = threading.Thread(target=self._timer, name="outbox", daemon=True)
        self.thread.start()

    def add(self, answer: Any, now: bool) -> None:
        """Queue ``answer``; send everything pending if ``now`` or it is due."""
        with self.lock:
            if not self.pending:
                self.since = time.monotonic()
                self.busy.set()
            self.pending.append(answer)
            if now or time.monotonic() - self.since >= BATCH_SECONDS:
                self._send()

    def _send(self) -> None:
        """Send what is pending (the caller holds the lock)."""
        if self.pending:
            batch, self.pending = self.pending, []
            self.busy.clear()
            self.conn.send(batch)

    def _timer(self) -> None:
        try:
            while self.busy.wait() and not self.closed:
                with self.lock:
                    due = self.since + HOLD_SECONDS - time.monotonic()
                    if self.pending and due <= 0:
                        self._send()
                if due > 0:
                    time.sleep(due)
        except (OSError, ValueError):
            pass  # the parent has gone: the grading thread finds out too

    def close(self) -> None:
        self.closed = True
        self.busy.set()


def _worker_main(conn: Connection, job: Job, timeout: float | None,
                 lifeline: Connection) -> None:
    """A worker process: one worker of ``job``, one task at a time, until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's business
    exit_with_parent(lifeline)  # a killed command ends its workers, even one busy
    try:
        worker = job.start(timeout)
    except Exception as e:  # noqa: BLE001
        with contextlib.suppress(OSError):
            conn.send(("fatal", f"{type(e).__name__}: {e}"))
        return
    outbox: _Outbox | None = None
    try:
        conn.send(("ready", os.getpid()))
        outbox = _Outbox(conn)
        while True:
            tasks = conn.recv()  # a list of grids, in the order of the parent's queue
            if tasks is None:
                break
            for i, task in enumerate(tasks):
                outbox.add(worker.answer(task), now=i + 1 == len(tasks) and not conn.poll())
    except (EOFError, OSError):
        pass  # the parent has gone: stop quietly
    finally:
        if outbox is not None:
            outbox.close()


@dataclass
class _Proc:
    proc: Any
    conn: Connection
    queue: deque[Any] = field(default_factory=deque)
    last: float = 0.0  # when it last answered (or was handed work while idle)
    answered: bool = False
    ready: bool = False


class ProcessPool:
    """``jobs`` worker processes doing ``job`` (grading grids unless said),
    each with ``depth`` tasks queued at most.  The one pool of worker
    processes: ``grade`` and ``generate`` both run on it."""

    def __init__(self, job: Job, jobs: int, timeout: float | None = None,
                 depth: int | None = None, name: str = "grade-worker") -> None:
        self.job = job
        self.name = name
        self.timeout = timeout
        self.depth = depth if depth is not None else 4 * SEND_TASKS
        methods = mp.get_all_start_methods()
        self.ctx: Any = mp.get_context("forkserver" if "forkserver" in methods else "spawn")
        if "forkserver" in methods:
            self.ctx.set_forkserver_preload(list(job.preload))
        self.selector = selectors.DefaultSelector()
        # never written to: it closes when this process ends (grader.orphans)
        self.lifeline, self.lifeline_out = self.ctx.Pipe(duplex=False)
        self.workers: list[_Proc] = []
        self.pending: list[Any] = []
        self.count = 0  # tasks submitted and not answered
        self.replaced = 0
        self.failures = 0  # deaths in a row of workers that never answered
        for _ in range(max(1, jobs)):
            self.workers.append(self._start())
        self.jobs = len(self.workers)
        self.window = max(WINDOW, 2 * self.jobs * self.depth)

    def _start(self) -> _Proc:
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker_main,
                                args=(child, self.job, self.timeout, self.lifeline),
                                daemon=True, name=self.name)
        proc.start()
        child.close()
        w = _Proc(proc, parent)
        self.selector.register(parent, selectors.EVENT_READ, w)
        self.selector.register(proc.sentinel, selectors.EVENT_READ, w)
        return w

    def free(self) -> int:
        return self.jobs * self.depth - self.count

    def outstanding(self) -> int:
        return self.count

    def submit(self, task: Any) -> None:
        """Queue ``task``; it leaves with the next chunk (at the latest when
        :meth:`wait` is called)."""
        self.pending.append(task)
        self.count += 1
        if len(self.pending) >= SEND_TASKS:
            self._send(min(self.workers, key=lambda w: len(w.queue)), self.pending)
            self.pending = []

    def _dispatch(self) -> None:
        """Spread what is pending over the workers that run low (fewer than
        :data:`SEND_TASKS` grids queued), the least busy first: the others
        get it in whole chunks, one pipe message per chunk."""
        while self.pending:
            w = min(self.workers, key=lambda w: len(w.queue))
            if len(w.queue) >= SEND_TASKS:
                return
            share = max(1, -(-len(self.pending) // len(self.workers)))
            self._send(w, self.pending[:share])
            del self.pending[:share]

    @staticmethod
    def _send(w: _Proc, tasks: list[Any]) -> None:
        if not w.queue:
            w.last = time.monotonic()
        w.queue.extend(tasks)
        with contextlib.suppress(OSError):
            w.conn.send(tasks)  # a dead worker is found and replaced by wait()

    def _replace(self, w: _Proc, kill: bool) -> None:
        if kill and w.proc.is_alive():
            w.proc.kill()
        w.proc.join(5)
        for h in (w.conn, w.proc.sentinel):
            with contextlib.suppress(KeyError, ValueError, OSError):
                self.selector.unregister(h)
        with contextlib.suppress(OSError):
            w.conn.close()
        if not w.answered and not kill:
            self.failures += 1
            if self.failures >= 3:
                raise WorkerFailed("the worker processes die as soon as they start "
                                   f"(exit {w.proc.exitcode})")
        fresh = self._start()
        self.replaced += 1
        self.workers[self.workers.index(w)] = fresh
        if w.queue:
            self._send(fresh, list(w.queue))

    def wait(self, block: bool = True) -> list[Any]:
        self._dispatch()
        busy = [w for w in self.workers if w.queue]
        if not busy:
            return []
        wait_for: float | None = None if block else 0.0
        timed = [w for w in busy if w.ready]
        if self.timeout is not None and timed:
            due = min(w.last for w in timed) + self.timeout + KILL_GRACE - time.monotonic()
            wait_for = max(0.0, due) if wait_for is None else min(wait_for, max(0.0, due))
        events = self.selector.select(wait_for)
        readable = {id(key.data) for key, _ in events if key.fileobj is key.data.conn}
        exited = {id(key.data) for key, _ in events if key.fileobj is not key.data.conn}
        out: list[Any] = []
        for w in busy:
            self._collect(w, id(w) in readable, id(w) in exited, out)
        return out

    def _collect(self, w: _Proc, readable: bool, exited: bool, out: list[Any]) -> None:
        """What worker ``w`` has to say: answers, its death, or its silence."""
        dead = False
        if readable:
            # one message per wake-up: the selector is level-triggered, so a
            # second message already waiting wakes the next call at once
            try:
                msg = w.conn.recv()
                if isinstance(msg, tuple):
                    if msg[0] == "fatal":
                        raise WorkerFailed(f"a worker could not start: {msg[1]}")
                    w.ready = True  # ("ready", pid): the clock starts now
                else:  # a list of answers, in the order of the queue
                    for _ in msg:
                        w.queue.popleft()
                    self.count -= len(msg)
                    out.extend(msg)
                w.answered = True
                self.failures = 0
                w.last = time.monotonic()
            except (EOFError, OSError):
                dead = True
        if not dead and w.queue and exited and not readable and not w.proc.is_alive():
            dead = True
        if dead:
            task = w.queue.popleft()
            self.count -= 1
            w.proc.join(5)
            code = w.proc.exitcode
            how = f"signal {-code}" if code is not None and code < 0 else f"exit {code}"
            message = f"the worker process died ({how}) on this grid"
            out.append(self.job.failed(task, "error", message, time.monotonic() - w.last))
            self._replace(w, kill=False)
        elif (self.timeout is not None and w.queue and w.ready
              and time.monotonic() - w.last >= self.timeout + KILL_GRACE):
            task = w.queue.popleft()
            self.count -= 1
            out.append(self.job.failed(task, "timeout", f"not graded within {self.timeout:g} s",
                                       self.timeout))
            self._replace(w, kill=True)

    def close(self, kill: bool = False) -> None:
        self.selector.close()
        for w in self.workers:
            if kill:
                w.proc.kill()
            else:
                with contextlib.suppress(OSError):
                    w.conn.send(None)
        for w in self.workers:
            w.proc.join(2 if not kill else 5)
            if w.proc.is_alive():
                w.proc.kill()
                w.proc.join(5)
            with contextlib.suppress(OSError):
                w.conn.close()
        for end in (self.lifeline, self.lifeline_out):
            end.close()
