"""What ``serve`` is asked: the options of the command, typed."""

from __future__ import annotations

import importlib.util
import ipaddress
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from grader.strategy.hierarchy import Hierarchy

#: The modules the ``web`` extra brings, by the name they are imported as.
WEB_MODULES = ("fastapi", "uvicorn", "jinja2")
#: Request bodies larger than this are refused (413) before they are read.
MAX_BODY = 256 * 1024
#: Seconds a worker may spend on one request (explaining a grid).
TIME_LIMIT = 10.0
#: Seconds a request may wait for a free worker (the others busy with other
#: requests) before the answer is 503.
QUEUE_TIME = 30.0
#: Seconds a connection may stay open without a request (before its first
#: one, and between two: HTTP keep-alive).
IDLE_TIMEOUT = 5.0
#: Seconds a client has to send a whole request (its headers and its body),
#: from its first byte: a half-sent request is closed then (408).
READ_TIMEOUT = 10.0
#: Worker processes by default: one per usable CPU, at most this many.
DEFAULT_JOBS = 4


class StartupError(Exception):
    """The server cannot start: the ``web`` extra is missing, or the grid it
    should open with cannot be read (the message says which)."""


def missing_extra() -> str | None:
    """The first module of the ``web`` extra that is not installed, or None."""
    for name in WEB_MODULES:
        if importlib.util.find_spec(name) is None:
            return name
    return None


def worker_count(jobs: int) -> int:
    """The worker processes to start for ``--jobs jobs``: capped as ``grade -j``
    is (:func:`grader.bulk.capacity.plan_jobs`: the usable CPUs, the memory);
    0 is one per usable CPU, at most :data:`DEFAULT_JOBS` (a page needs little)."""
    from grader.bulk.capacity import plan_jobs

    n, _ = plan_jobs(jobs)
    return n if jobs > 0 else min(DEFAULT_JOBS, n)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address to listen on, or a Host header's name) is
    the loopback: ``localhost``, 127.x.x.x or ``::1`` (with or without brackets)."""
    name = host.strip().lower().rstrip(".")
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class ServeOptions:
    """Everything ``serve`` is asked.

    ``grid``: the grid the page opens on (a grid, pencil marks, or a file of
    grids with ``index``), None for an empty page.  ``port`` 0: a free port.
    ``jobs``: worker processes (capped: :func:`worker_count`);
    ``time_limit``: seconds of work per request (the deadline of grading,
    :class:`grader.bulk.task.Deadline`) before the answer is a timeout (504);
    ``queue_time``: seconds a request may wait for a free worker before the
    answer is 503 (0: no limit); ``idle_timeout``: seconds a
    connection may stay open without a request; ``read_timeout``: seconds a
    client has to send a whole request; ``max_body``: the largest request
    body, in bytes; ``hierarchy``: the table of rules (None: the book's)."""

    grid: str | None = None
    index: int = 1
    box: str | None = None
    input_format: str = "auto"
    host: str = "127.0.0.1"
    port: int = 0
    jobs: int = 0
    time_limit: float = TIME_LIMIT
    queue_time: float = QUEUE_TIME
    idle_timeout: float = IDLE_TIMEOUT
    read_timeout: float = READ_TIMEOUT
    max_body: int = MAX_BODY
    hierarchy: Hierarchy | None = None
    open_browser: bool = False

    @property
    def workers(self) -> int:
        return worker_count(self.jobs)

    @property
    def queue_limit(self) -> float | None:
        """Seconds a request may wait for a worker (None: no limit)."""
        return self.queue_time or None
