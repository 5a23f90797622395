"""Many grids, serially or on several processes, always in task order.

Grid number ``i`` of a run is made by its own random generator, seeded from
the run's seed and ``i`` (:func:`grader.generator.search.task_rng`), so the
grids do not depend on how many workers there are nor on which finishes
first: ``--jobs 4`` writes exactly what ``--jobs 1`` writes.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass

from .search import Generated, Generator, Settings, task_rng
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


def _init_worker(settings: Settings) -> None:
    global _WORKER
    _WORKER = Generator(settings)


def _work(task: Task, deadline: float | None) -> Generated | None:
    assert _WORKER is not None
    return run_task(_WORKER, task, deadline)


def run(settings: Settings, tasks: Sequence[Task], jobs: int = 1,
        timeout: float | None = None,
        on_done: Callable[[Task, Generated | None], None] | None = None,
        ) -> Iterator[tuple[Task, Generated | None]]:
    """Make the grid of every task; yield ``(task, grid or None)`` in task
    order.  ``on_done`` is called as each task finishes (in any order), for
    progress displays.  ``timeout`` (seconds) bounds the whole run: the
    tasks still running then give up and yield None."""
    deadline = None if timeout is None else time.time() + timeout
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
