"""Many grids, serially or on several processes, always in task order.

Grid number ``i`` of a run is made by its own random generator, seeded from
the run's seed and ``i`` (:func:`grader.generator.search.task_rng`), so the
grids do not depend on how many workers there are nor on which finishes
first: ``--jobs 4`` writes exactly what ``--jobs 1`` writes.
"""

from __future__ import annotations

import itertools
import multiprocessing
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from ..orphans import exit_with_parent
from .climb import QUOTA, Climber, Counters, climbs
from .diverse import NearIndex, bundled
from .search import Generated, GenerationError, Generator, Settings, task_rng
from .targets import Target


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


_WORKER: Generator | None = None


_COUNTERS: Any = None


def _init_worker(settings: Settings, shared: Any = None) -> None:
    global _WORKER, _COUNTERS
    exit_with_parent()
    _WORKER = Generator(settings)
    _COUNTERS = shared


def _work(task: Task, deadline: float | None) -> Generated | None:
    assert _WORKER is not None
    return run_task(_WORKER, task, deadline)


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
            made = run_task(generator, task, deadline)
            if on_done is not None:
                on_done(task, made)
            yield task, made
        return
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), mp_context=ctx,
                             initializer=_init_worker, initargs=(settings,)) as pool:
        try:
            futures: list[Future[Generated | None]] = [
                pool.submit(_work, task, deadline) for task in tasks]
            where = {f: i for i, f in enumerate(futures)}
            done: dict[int, Generated | None] = {}
            pending = set(futures)
            nxt = 0
            while nxt < len(tasks):
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in sorted(finished, key=where.__getitem__):
                    i = where[f]
                    done[i] = f.result()
                    if on_done is not None:
                        on_done(tasks[i], done[i])
                while nxt in done:
                    yield tasks[nxt], done.pop(nxt)
                    nxt += 1
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _stream(target: Target, seed: int | str, k: int, deadline: float | None,
            quota: int) -> list[Generated]:
    """Stream ``k`` of the hard search, in a worker."""
    assert _WORKER is not None
    climber = Climber(_WORKER, target, Counters(_COUNTERS))
    return climber.stream(task_rng(seed, k, target.label + "/stream"), deadline, quota)


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
    shared = counters.shared if counters is not None else None
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_init_worker,
                             initargs=(settings, shared)) as pool:
        try:
            ahead: dict[int, Future[list[Generated]]] = {}
            nxt = 1
            for k in itertools.count(1):
                while len(ahead) < jobs:
                    ahead[nxt] = pool.submit(_stream, target, seed, nxt, deadline, quota)
                    nxt += 1
                yield from take(ahead.pop(k).result())
                if kept >= count or late():
                    break
        finally:
            # the streams computed ahead are not needed: stop them now
            for proc in list(getattr(pool, "_processes", {}).values()):
                proc.terminate()
            pool.shutdown(wait=False, cancel_futures=True)
