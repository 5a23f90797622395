"""A pool of worker processes (``grade --jobs N``).

The parent sends grids in chunks (one pipe message each) sized by the
measured cost of a grid, at most :data:`SEND_TASKS`, and each worker sends
its answers back in batches (an :class:`_Outbox`), the output lines already
encoded: the parent's work per grid is a few microseconds, so that it is
never the bottleneck, and a short input of slow grids still reaches every
worker.

A grid is timed out inside its worker (:class:`~grader.bulk.task.Deadline`);
a worker that does not answer within ``timeout`` + :data:`KILL_GRACE` (stuck
inside one native call, or a plugin in a system call) is killed and replaced,
its grid answered with the same verdict ``timeout``.

A worker that dies is replaced and its grids go to the replacement, which
takes them **one at a time** (so that a death is pinned on one grid).  A
death is a grid's fault only when that grid was alone in flight: a crash
(a signal such as SIGSEGV, or an exit status) answers it with the verdict
``error``; SIGKILL (the out-of-memory killer, or ``kill -9``) does so the
second time only; a stop signal (SIGTERM, SIGINT, SIGHUP: a scheduler, a
closed terminal, the run's own stopping) never does, the grid is graded
again.  Once the run is stopping (:meth:`ProcessPool.interrupt`), a worker
that dies is not replaced and its grids are left unanswered: an interrupted
run writes only what was graded, and ``--resume`` grades the rest.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import selectors
import signal
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Protocol

from grader.bulk.clock import running
from grader.bulk.interrupts import start_helpers
from grader.bulk.outbox import worker_main
from grader.bulk.pool import WINDOW, WorkerFailed

#: The parent sends grids to a worker at most this many at a time (or fewer,
#: when it waits) ...
SEND_TASKS = 32
#: ... starting with chunks of this many, then about :data:`CHUNK_SECONDS` of
#: work each at the measured cost of a grid: cheap grids travel 32 to a pipe
#: message, costly ones one by one, so that every worker gets a share of a
#: short or slow input.
FIRST_CHUNK = 4
CHUNK_SECONDS = 0.05
#: A worker silent this long past the timeout is stuck where the deadline cannot
#: reach (one native call): it is killed.
KILL_GRACE = 1.0
#: The longest the parent waits in one call (a time limit of a year is no limit).
MAX_WAIT = 3600.0
#: Exit statuses of a worker stopped from outside, never a grid's fault: the
#: stop signals, and 255 (the fork server is gone, so the status is unknown).
STOPPED = frozenset([255, *(-getattr(signal, n) for n in ("SIGTERM", "SIGINT", "SIGHUP")
                            if hasattr(signal, n))])
#: SIGKILL: the out-of-memory killer (a grid's fault when it happens twice).
KILLED = -getattr(signal, "SIGKILL", 9)


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


@dataclass
class _Proc:
    proc: Any
    conn: Connection
    queue: deque[Any] = field(default_factory=deque)  # sent, not answered, in order
    held: deque[Any] = field(default_factory=deque)  # a dead worker's grids, sent one by one
    careful: bool = False  # takes a dead worker's grids: nothing else until they are done
    last: float = 0.0  # when it last answered (or was handed work while idle)
    answered: bool = False
    ready: bool = False
    gone: bool = False  # died while the run was stopping: not replaced


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
        start_helpers(forkserver="forkserver" in methods)  # SIGHUP is the command's to handle
        self.selector = selectors.DefaultSelector()
        # never written to: it closes when this process ends (grader.bulk.orphans)
        self.lifeline, self.lifeline_out = self.ctx.Pipe(duplex=False)
        self.workers: list[_Proc] = []
        self.pending: list[Any] = []
        self.count = 0  # tasks submitted and not answered
        self.replaced = 0
        self.failures = 0  # deaths in a row of workers that never answered
        self.strikes: dict[int, tuple[Any, int]] = {}  # id(task) -> (task, SIGKILLs alone)
        self.stopping = False
        self.chunk = FIRST_CHUNK
        self.cost: float | None = None  # seconds a grid, measured from the answers
        for _ in range(max(1, jobs)):
            self.workers.append(self._start())
        self.jobs = len(self.workers)
        self.window = max(WINDOW, 2 * self.jobs * self.depth)

    def _start(self) -> _Proc:
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=worker_main,
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

    def interrupt(self) -> None:
        """The run is stopping: from now on no task is sent, and a worker that
        dies is neither replaced nor answered for (its grids stay ungraded)."""
        self.stopping = True
        self.count -= len(self.pending)
        self.pending.clear()

    def _open(self) -> list[_Proc]:
        """The workers that take new grids (not one taking a dead worker's)."""
        return [w for w in self.workers if not w.careful and not w.gone]

    def submit(self, task: Any) -> None:
        """Queue ``task``; it leaves with the next chunk (at the latest when
        :meth:`wait` is called)."""
        self.pending.append(task)
        self.count += 1
        if len(self.pending) >= self.chunk:
            open_ = self._open()
            if open_:
                self._send(min(open_, key=lambda w: len(w.queue)), self.pending)
                self.pending = []

    def _measured(self, grids: int, seconds: float) -> None:
        """A worker answered ``grids`` grids in ``seconds`` (since its last
        answer, or since it was handed work while idle): the chunk follows."""
        if grids <= 0:
            return
        cost = max(seconds / grids, 1e-6)
        self.cost = cost if self.cost is None else 0.8 * self.cost + 0.2 * cost
        self.chunk = max(1, min(SEND_TASKS, int(CHUNK_SECONDS / self.cost)))

    def _dispatch(self) -> None:
        """Spread what is pending over the workers that run low (fewer than
        :data:`SEND_TASKS` grids queued), the least busy first: the others
        get it in whole chunks, one pipe message per chunk."""
        open_ = self._open()
        while self.pending and open_ and not self.stopping:
            w = min(open_, key=lambda w: len(w.queue))
            if len(w.queue) >= SEND_TASKS:
                return
            share = max(1, -(-len(self.pending) // len(open_)))
            self._send(w, self.pending[:share])
            del self.pending[:share]

    @staticmethod
    def _send(w: _Proc, tasks: list[Any]) -> None:
        if not w.queue:
            w.last = running()
        w.queue.extend(tasks)
        with contextlib.suppress(OSError):
            w.conn.send(tasks)  # a dead worker is found and replaced by wait()

    def _feed(self, w: _Proc) -> None:
        """A careful worker gets its next held grid alone, once the last is answered."""
        if w.careful and not w.queue:
            if w.held:
                self._send(w, [w.held.popleft()])
            else:
                w.careful = False

    def _bury(self, w: _Proc) -> None:
        """Forget a worker that has ended (or been killed)."""
        w.proc.join(5)
        for h in (w.conn, w.proc.sentinel):
            with contextlib.suppress(KeyError, ValueError, OSError):
                self.selector.unregister(h)
        with contextlib.suppress(OSError):
            w.conn.close()

    def _replace(self, w: _Proc, tasks: list[Any]) -> None:
        """A fresh worker in the place of ``w``, taking ``tasks`` one at a time."""
        fresh = self._start()
        self.replaced += 1
        self.workers[self.workers.index(w)] = fresh
        if tasks:
            fresh.held.extend(tasks)
            fresh.careful = True
            self._feed(fresh)

    def wait(self, block: bool = True, timeout: float | None = None) -> list[Any]:
        """The answers that came (``block``: waiting for one, at most
        ``timeout`` seconds when given)."""
        self._dispatch()
        busy = [w for w in self.workers if w.queue]
        if not busy:
            return []
        wait_for: float | None = (None if timeout is None else max(0.0, timeout)) if block \
            else 0.0
        timed = [w for w in busy if w.ready]
        if self.timeout is not None and timed:
            due = min(w.last for w in timed) + self.timeout + KILL_GRACE - running()
            wait_for = max(0.0, due) if wait_for is None else min(wait_for, max(0.0, due))
        if wait_for is not None:
            wait_for = min(wait_for, MAX_WAIT)
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
                    self._measured(len(msg), running() - w.last)
                    for _ in msg:
                        task = w.queue.popleft()
                        if self.strikes:
                            self.strikes.pop(id(task), None)
                    self.count -= len(msg)
                    out.extend(msg)
                w.answered = True
                self.failures = 0
                w.last = running()
                self._feed(w)
            except (EOFError, OSError):
                dead = True
        if not dead and w.queue and exited and not readable and not w.proc.is_alive():
            dead = True
        if dead:
            self._died(w, out)
        elif (self.timeout is not None and w.queue and w.ready and not self.stopping
              and running() - w.last >= self.timeout + KILL_GRACE):
            task = w.queue.popleft()
            self.count -= 1
            out.append(self.job.failed(task, "timeout", f"not graded within {self.timeout:g} s",
                                       self.timeout))
            if w.proc.is_alive():
                w.proc.kill()
            self._bury(w)
            self._replace(w, [*w.queue, *w.held])

    def _died(self, w: _Proc, out: list[Any]) -> None:
        """Worker ``w`` died: its grids go to a replacement (see the module's
        docstring for when the grid alone in flight is answered ``error``)."""
        self._bury(w)
        tasks = [*w.queue, *w.held]
        if self.stopping:
            self.count -= len(tasks)
            w.queue.clear()
            w.held.clear()
            w.gone = True
            return
        code = w.proc.exitcode
        outside = code is None or code in STOPPED
        if len(w.queue) == 1 and not outside:  # the grid alone in flight killed it
            task = tasks[0]
            _, before = self.strikes.get(id(task), (task, 0))
            if code != KILLED or before:
                self.strikes.pop(id(task), None)
                how = f"signal {-code}" if code < 0 else f"exit {code}"
                message = f"the worker process died ({how}) on this grid"
                out.append(self.job.failed(task, "error", message, running() - w.last))
                self.count -= 1
                tasks = tasks[1:]
            else:
                self.strikes[id(task)] = (task, before + 1)
        if not w.answered and not outside:
            self.failures += 1
            if self.failures >= 3:
                raise WorkerFailed("the worker processes die as soon as they start "
                                   f"(exit {code})")
        self._replace(w, tasks)

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
