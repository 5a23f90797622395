"""Many grids, serially or on several processes, always in task order.

Grid number ``i`` of a run is made by its own random generator, seeded from
the run's seed and ``i`` (:func:`grader.generator.search.task_rng`), so the
grids do not depend on how many workers there are nor on which finishes
first: ``--jobs 4`` writes exactly what ``--jobs 1`` writes.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from grader.bulk.processes import ProcessPool
from grader.core.prints import rules_print_to_stderr
from grader.generator.climb import QUOTA, Climber, Counters, climbs
from grader.generator.diverse import NearIndex, bundled
from grader.generator.search import Generated, GenerationError, Generator, Settings, task_rng
from grader.generator.targets import Target


@dataclass(frozen=True)
class Task:
    """Grid number ``index`` (from 1) of a run: its target and seed."""

    index: int
    target: Target
    seed: int | str


def plan_tasks(targets: Sequence[Target], count: int, seed: int | str) -> list[Task]:
    """``count`` tasks cycling over ``targets`` (one target: all the same)."""
    return [Task(i + 1, targets[i % len(targets)], seed) for i in range(count)]


def run_task(generator: Generator, task: Task, deadline: float | None) -> Generated | None:
    """Make the grid of one task (None when ``deadline`` passes first)."""
    rng = task_rng(task.seed, task.index, task.target.label)
    return generator.generate(task.target, rng, deadline)


@dataclass(frozen=True)
class GenerateJob:
    """The job of ``generate``'s worker processes on the one pool of processes
    (:class:`grader.bulk.processes.ProcessPool`): a task is a grid to make,
    ``("grid", position, task, deadline)``, or a stream of the hard search,
    ``("stream", k, target, seed, deadline, quota)``; the answer is
    ``(position or k, what was made)``.  ``shared``: the hard search's
    progress counters (a ``multiprocessing`` array) or None."""

    settings: Settings
    shared: Any = None
    preload: ClassVar[tuple[str, ...]] = ("grader.generator.run",)

    def start(self, timeout: float | None) -> GenerateWorker:
        return GenerateWorker(self)

    def failed(self, task: Any, verdict: str, message: str, seconds: float) -> Any:
        """A worker died: the run stops with the reason (a grid is not lost
        silently)."""
        raise GenerationError(f"a generate worker process stopped: {message}")


class GenerateWorker:
    """One generator in a worker process."""

    def __init__(self, job: GenerateJob) -> None:
        self.generator = Generator(job.settings)
        self.shared = job.shared

    def answer(self, task: tuple[Any, ...]) -> tuple[int, Any]:
        with rules_print_to_stderr():  # what a plugin prints never mixes with the grids
            return self._answer(task)

    def _answer(self, task: tuple[Any, ...]) -> tuple[int, Any]:
        if task[0] == "grid":
            _, pos, grid_task, deadline = task
            return pos, run_task(self.generator, grid_task, deadline)
        _, k, target, seed, deadline, quota = task
        climber = Climber(self.generator, target, Counters(self.shared))
        return k, climber.stream(task_rng(seed, k, target.label + "/stream"), deadline, quota)


def _pool(settings: Settings, jobs: int, shared: Any = None) -> ProcessPool:
    """``jobs`` worker processes making grids, one task queued each at most."""
    return ProcessPool(GenerateJob(settings, shared), jobs, depth=1, name="generate-worker")


def run(settings: Settings, tasks: Sequence[Task], jobs: int = 1,
        timeout: float | None = None,
        on_done: Callable[[Task, Generated | None], None] | None = None,
        counters: Counters | None = None,
        ) -> Iterator[tuple[Task, Generated | None]]:
    """Make the grid of every task; yield ``(task, grid or None)`` in task
    order.  ``on_done`` is called as each task finishes (in any order), for
    progress displays.  ``timeout`` (seconds) bounds the whole run: the
    tasks still running then give up and yield None.  ``counters``: the
    hard search counts its moves and grids found there, for progress.

    The hard search (:func:`grader.generator.climb.climbs`) takes one
    target; see :func:`run_hard`."""
    deadline = None if timeout is None else time.time() + timeout
    if tasks and climbs(Generator(settings), tasks[0].target):
        targets = {t.target for t in tasks}
        if len(targets) > 1:
            raise GenerationError("level 14, nested trials, a score at the top and --like "
                                  "take one rating or level at a time (not a list)")
        hard = run_hard(settings, tasks[0].target, len(tasks), tasks[0].seed, jobs, timeout,
                        counters)
        for task, g in itertools.zip_longest(tasks, hard):
            if on_done is not None:
                on_done(task, g)
            yield task, g
        return
    if jobs <= 1 or len(tasks) <= 1:
        generator = Generator(settings)
        for task in tasks:
            with rules_print_to_stderr():  # what a plugin prints never mixes with the grids
                made = run_task(generator, task, deadline)
            if on_done is not None:
                on_done(task, made)
            yield task, made
        return
    yield from _run_on_pool(_pool(settings, min(jobs, len(tasks))), tasks, deadline, on_done)


def _run_on_pool(pool: ProcessPool, tasks: Sequence[Task], deadline: float | None,
                 on_done: Callable[[Task, Generated | None], None] | None,
                 ) -> Iterator[tuple[Task, Generated | None]]:
    """The tasks on ``pool``, yielded in task order (the pool is closed at the end)."""
    todo = iter(enumerate(tasks))
    done: dict[int, Generated | None] = {}
    nxt = 0
    try:
        while nxt < len(tasks):
            for pos, task in itertools.islice(todo, max(0, pool.free())):
                if deadline is not None and time.time() >= deadline:
                    done[pos] = None  # too late to start: not sent to a worker
                    if on_done is not None:
                        on_done(task, None)
                else:
                    pool.submit(("grid", pos, task, deadline))
            for pos, made in pool.wait():
                done[pos] = made
                if on_done is not None:
                    on_done(tasks[pos], made)
            while nxt in done:
                yield tasks[nxt], done.pop(nxt)
                nxt += 1
    except BaseException:
        pool.close(kill=True)
        raise
    pool.close()


def run_hard(settings: Settings, target: Target, count: int, seed: int | str, jobs: int = 1,
             timeout: float | None = None, counters: Counters | None = None,
             ) -> Iterator[Generated]:
    """``count`` grids of the hard search, in a fixed order whatever ``jobs``.

    Stream ``k`` (1, 2, ...) is a climb with its own random generator, seeded
    from the run's seed and ``k``, that makes up to
    :data:`grader.generator.climb.QUOTA` grids (fewer when ``count`` is
    smaller; see
    :meth:`~grader.generator.climb.Climber.stream`).  The run takes the
    streams in order, and their grids in order, keeping each grid that
    differs in at least :data:`grader.generator.diverse.DISTANCE` cells from
    those kept and from the project's grids, until it has ``count``.
    Workers compute the next streams ahead; the grids are the serial ones.
    ``timeout`` (seconds) bounds the run: the grids found by then are kept."""
    deadline = None if timeout is None else time.time() + timeout
    # a stream's grids are a prefix of what it makes with a larger quota
    quota = min(QUOTA, count)
    near = NearIndex(settings.a * settings.a * settings.b * settings.b)
    avoid = bundled(near.ncells)
    kept = 0

    def take(grids: list[Generated]) -> Iterator[Generated]:
        nonlocal kept
        for g in grids:
            if kept < count and not near.near(g.puzzle) and not avoid.near(g.puzzle):
                near.add(g.puzzle)
                kept += 1
                yield g

    def late() -> bool:
        return deadline is not None and time.time() >= deadline

    if jobs <= 1:
        climber = Climber(Generator(settings), target, counters)
        for k in itertools.count(1):
            rng = task_rng(seed, k, target.label + "/stream")
            yield from take(climber.stream(rng, deadline, quota))
            if kept >= count or late():
                return
    pool = _pool(settings, jobs, counters.shared if counters is not None else None)
    try:
        ahead: dict[int, list[Generated]] = {}
        nxt = 1
        for k in itertools.count(1):
            while k not in ahead:
                # a worker that is done starts the next stream at once, even
                # while an earlier one still runs
                while pool.free() > 0:
                    pool.submit(("stream", nxt, target, seed, deadline, quota))
                    nxt += 1
                ahead.update(pool.wait())
            yield from take(ahead.pop(k))
            if kept >= count or late():
                break
    finally:
        pool.close(kill=True)  # the streams computed ahead are not needed: stop them now
