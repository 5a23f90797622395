"""What ``serve`` is asked: the options of the command, typed."""

from __future__ import annotations

import importlib.util
import os
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


class StartupError(Exception):
    """The server cannot start: the ``web`` extra is missing, or the grid it
    should open with cannot be read (the message says which)."""


def missing_extra() -> str | None:
    """The first module of the ``web`` extra that is not installed, or None."""
    for name in WEB_MODULES:
        if importlib.util.find_spec(name) is None:
            return name
    return None


def default_jobs() -> int:
    """Worker processes: one per core, at most 4 (a page needs little)."""
    return max(1, min(4, os.cpu_count() or 1))


@dataclass(frozen=True)
class ServeOptions:
    """Everything ``serve`` is asked.

    ``grid``: the grid the page opens on (a grid, pencil marks, or a file of
    grids with ``index``), None for an empty page.  ``port`` 0: a free port.
    ``jobs``: worker processes; ``time_limit``: seconds of work per request
    (the deadline of grading, :class:`grader.bulk.task.Deadline`) before the
    answer is a timeout; ``max_body``: the largest request body, in bytes;
    ``hierarchy``: the table of rules (None: the book's)."""

    grid: str | None = None
    index: int = 1
    box: str | None = None
    input_format: str = "auto"
    host: str = "127.0.0.1"
    port: int = 0
    jobs: int = 0
    time_limit: float = TIME_LIMIT
    max_body: int = MAX_BODY
    hierarchy: Hierarchy | None = None
    open_browser: bool = False

    @property
    def workers(self) -> int:
        return self.jobs or default_jobs()
