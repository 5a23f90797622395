"""The clock of time limits: :func:`running`, seconds while this process runs.

A run stopped with Ctrl-Z or ``kill -STOP`` (a scheduler pausing a job, a
debugger) and continued later must not find every grid in flight past its
``--time-limit``: the time spent stopped is nobody's.  ``time.monotonic``
counts it; :func:`running` does not.  A daemon thread ticks every
:data:`TICK` seconds; a tick that comes more than :data:`STOPPED_SECONDS`
late means the process was stopped, and that gap is taken off.  Between two
ticks the clock moves at most :data:`STOPPED_SECONDS` past the last one, so it
never jumps by a stop that the ticking thread has not yet seen.  (The heavy
work of the C accelerator releases the GIL, so the thread keeps ticking while
a grid is graded.)
"""

from __future__ import annotations

import os
import threading
import time

#: How often the clock's thread ticks.
TICK = 0.25
#: A tick this much later than due means the process was stopped meanwhile.
STOPPED_SECONDS = 1.0


class _Clock:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pid: int | None = None
        self.state = (time.monotonic(), 0.0)  # (the last tick, the seconds stopped before it)

    def _tick(self) -> None:
        while True:
            time.sleep(TICK)
            last, stopped = self.state
            now = time.monotonic()
            gap = now - last - TICK
            self.state = (now, stopped + gap if gap > STOPPED_SECONDS else stopped)

    def now(self) -> float:
        if self.pid != os.getpid():  # the first use in this process (or a forked child)
            with self.lock:
                if self.pid != os.getpid():
                    self.pid = os.getpid()
                    self.state = (time.monotonic(), 0.0)
                    threading.Thread(target=self._tick, name="running-clock",
                                     daemon=True).start()
        last, stopped = self.state
        since = min(time.monotonic() - last, TICK + STOPPED_SECONDS)
        return last - stopped + since


_CLOCK = _Clock()


def running() -> float:
    """Seconds on a monotonic clock that stands still while this process is
    stopped (see the module's docstring)."""
    return _CLOCK.now()
