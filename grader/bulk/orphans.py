"""Worker processes end with the command that started them.

A worker started by ``grade`` or ``generate`` must not outlive the command:
when the command is killed (``kill -9``, an out-of-memory kill), nothing tells
a worker busy on a long search, which would go on using a core.  The pool
keeps the writing end of a *lifeline* pipe that it never writes to; each
worker calls :func:`exit_with_parent` with the reading end, and a daemon
thread waits on it: the pipe reads as closed only once every writer is gone,
that is when the command has ended, and the worker ends at once.  (A worker's
parent process may be a fork server rather than the command, so watching
the parent's pid would not do.)
"""

from __future__ import annotations

import contextlib
import os
import threading
from multiprocessing.connection import Connection


def exit_with_parent(lifeline: Connection) -> threading.Thread:
    """Start the thread that ends this process (a worker) when ``lifeline``
    (the reading end of its pool's lifeline pipe) closes; return it."""

    def watch() -> None:
        with contextlib.suppress(OSError, ValueError):
            lifeline.poll(None)  # nothing is ever sent: this returns at end of file
        os._exit(1)

    thread = threading.Thread(target=watch, name="exit-with-parent", daemon=True)
    thread.start()
    return thread
