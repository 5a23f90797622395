"""Where grids are graded: the :class:`Pool` protocol and the inline pool.

Three pools answer the protocol: :class:`InlinePool` (this process),
:class:`~grader.bulk.processes.ProcessPool` (worker processes) and
:class:`~grader.bulk.dask.DaskPool` (a Dask cluster).  Each grades with
:class:`~grader.bulk.task.Worker` and answers a task with a
:data:`~grader.bulk.task.Answer`; :func:`grader.bulk.pipeline.run` puts the
answers back in input order.
"""

from __future__ import annotations

from typing import Protocol

from grader.bulk.task import Answer, GradeConfig, Task, Worker
from grader.core.errors import GraderError
from grader.strategy.grading import Grader

#: How many records a run holds between reading and writing, at least.
WINDOW = 256


class Pool(Protocol):
    """Where grids are graded.  ``submit`` only when ``free() > 0``.

    ``jobs``: how many grids it grades at once; ``window``: how many records
    the run may hold in flight for it; ``replaced``: workers replaced."""

    jobs: int
    window: int
    replaced: int

    def free(self) -> int: ...

    def outstanding(self) -> int: ...

    def submit(self, task: Task) -> None: ...

    def wait(self, block: bool = True) -> list[Answer]: ...

    def interrupt(self) -> None:
        """The run is stopping: no task whose worker dies from now on is answered."""

    def close(self, kill: bool = False) -> None: ...


class WorkerFailed(GraderError, RuntimeError):
    """A worker could not even start (e.g. a plugin fails to load)."""


class ClusterLost(GraderError, RuntimeError):
    """The run cannot go on: the scheduler is gone, or a worker cannot grade
    for this command.  What was written is kept (``--resume`` continues).
    (Here, not in :mod:`grader.bulk.dask`: a run without Dask imports none of it.)"""


class InlinePool:
    """Grades in this process, one grid at a time (``--jobs 1`` without a timeout)."""

    jobs = 1
    window = WINDOW
    replaced = 0

    def __init__(self, cfg: GradeConfig, timeout: float | None = None) -> None:
        self.cfg = cfg
        self.worker = Worker(cfg, timeout)
        self.done: list[Answer] = []

    @property
    def grader(self) -> Grader:
        return self.worker.grader

    def free(self) -> int:
        return 1 - len(self.done)

    def outstanding(self) -> int:
        return len(self.done)

    def submit(self, task: Task) -> None:
        self.done.append(self.worker.answer(task))

    def wait(self, block: bool = True) -> list[Answer]:
        done, self.done = self.done, []
        return done

    def interrupt(self) -> None:
        pass

    def close(self, kill: bool = False) -> None:
        pass
