"""A worker process's side of the pool of processes
(:mod:`grader.bulk.processes`): its main loop and its outbox.

A worker answers the grids it is sent one at a time, in order, and sends the
answers back in batches (an :class:`_Outbox`).  It ignores Ctrl-C (the
parent's business: the parent collects what is done, then stops it) and
ends when the command ends, even while busy (:mod:`grader.bulk.orphans`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

from grader.bulk.orphans import exit_with_parent

#: A worker sends its answers at once when no grid waits for it, else when a
#: grid is done and the oldest unsent answer is this old ...
BATCH_SECONDS = 0.05
#: ... or, while a slow grid is being graded, when it is this old.
HOLD_SECONDS = 0.2


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


def worker_main(conn: Connection, job: Any, timeout: float | None,
                lifeline: Connection) -> None:
    """A worker process: one worker of ``job``, one task at a time, until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's business
    exit_with_parent(lifeline)  # a killed command ends its workers, even one busy
    with contextlib.suppress(OSError):  # what a plugin prints never mixes with the results
        os.dup2(2, 1)
    try:
        worker = job.start(timeout)
    except BaseException as e:  # noqa: BLE001 - even a plugin's sys.exit() is reported
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
