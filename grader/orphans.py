"""Worker processes end with their parent.

A worker started by ``grade`` or ``generate`` must not outlive the command:
when the parent is killed (``kill -9``, an out-of-memory kill), nothing tells
a worker busy on a long search, which would go on using a core.  Each worker
calls :func:`exit_with_parent` once; a daemon thread then notices that the
parent has gone (the worker was adopted by another process) and ends the
worker at once.
"""

from __future__ import annotations

import os
import threading
import time

#: Seconds between two looks at the parent.
INTERVAL = 0.5


def exit_with_parent(interval: float = INTERVAL) -> threading.Thread:
    """Start the watcher thread for this process (a worker) and return it."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(interval)
            if os.getppid() != parent:
                os._exit(1)

    thread = threading.Thread(target=watch, name="exit-with-parent", daemon=True)
    thread.start()
    return thread
