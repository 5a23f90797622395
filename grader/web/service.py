"""The server's work, in front of the worker pool: computed paths are kept
(a step, a hint or a move from a known position is answered at once, without
a worker), and the same position asked twice at the same time is computed
once.  A computation nobody waits for any more (every client that asked for
it left) is cancelled, in the queue or in its worker.  Drawing a step
(:mod:`.views`) happens in a thread, off the event loop.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from grader.web import views
from grader.web.options import ServeOptions
from grader.web.pool import WorkerPool
from grader.web.work import Query, Solved

#: How many walked positions the server keeps.
CACHE_SIZE = 48

T = TypeVar("T")


class Service:
    """The pool, the cache of walked positions, and the views drawn from them."""

    def __init__(self, options: ServeOptions) -> None:
        self.options = options
        self.pool = WorkerPool(options)
        self._cache: OrderedDict[Query, Solved] = OrderedDict()
        self._running: dict[tuple[Query, int | None], asyncio.Task[Solved]] = {}
        self._waiters: dict[asyncio.Task[Solved], int] = {}

    async def start(self) -> None:
        await self.pool.start()

    async def close(self) -> None:
        await self.pool.close()

    # -- paths ---------------------------------------------------------
    def _known(self, q: Query, upto: int | None) -> Solved | None:
        s = self._cache.get(q)
        if s is None:
            return None
        if s.complete or (upto is not None and len(s.steps) >= upto):
            self._cache.move_to_end(q)
            return s
        return None

    def _keep(self, s: Solved) -> None:
        old = self._cache.get(s.query)
        if old is not None and old.complete and not s.complete:
            return
        self._cache[s.query] = s
        self._cache.move_to_end(s.query)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    async def solved(self, q: Query, upto: int | None = None) -> Solved:
        """The walked path of ``q``: whole, or at least up to step ``upto``."""
        known = self._known(q, upto)
        if known is not None:
            return known
        key = (q, upto)
        task = self._running.get(key) or self._running.get((q, None))
        if task is None:  # one computation, for everyone who asks while it runs
            task = asyncio.get_running_loop().create_task(self._walk(q, upto))
            self._running[key] = task
            task.add_done_callback(lambda t: self._done(key, t))
        self._waiters[task] = self._waiters.get(task, 0) + 1
        try:
            return await asyncio.shield(task)
        finally:
            if not task.done():  # this request was cancelled: its client left
                self._leave(task)

    def _leave(self, task: asyncio.Task[Solved]) -> None:
        """One request fewer waits for ``task``; with none left, it is cancelled
        (and forgotten at once: a new request starts a new one)."""
        left = self._waiters.get(task, 1) - 1
        if left > 0:
            self._waiters[task] = left
            return
        self._waiters.pop(task, None)
        for k in [k for k, t in self._running.items() if t is task]:
            del self._running[k]
        task.cancel()

    async def _walk(self, q: Query, upto: int | None) -> Solved:
        s: Solved = await self.pool.run("explain", q, upto)
        self._keep(s)
        return s

    def _done(self, key: tuple[Query, int | None], task: asyncio.Task[Solved]) -> None:
        if self._running.get(key) is task:
            del self._running[key]
        self._waiters.pop(task, None)
        if not task.cancelled():
            task.exception()  # retrieved: no warning when nobody waited for it

    async def grade(self, q: Query) -> dict[str, Any]:
        answer: dict[str, Any] = await self.pool.run("grade", q)
        return answer

    # -- views ---------------------------------------------------------
    async def view(self, s: Solved, what: str, k: int, make: Callable[[], T]) -> T:
        """``make()`` (a view of ``s`` at frame ``k``), drawn in a thread, kept
        with the path."""
        key = (what, k)
        if key not in s.views:
            s.views[key] = await asyncio.to_thread(make)
        got: T = s.views[key]
        return got

    async def explain(self, q: Query) -> dict[str, Any]:
        s = await self.solved(q)
        return await self.view(s, "summary", 0, lambda: views.summary(s))

    async def step(self, q: Query, number: int) -> dict[str, Any]:
        s = await self.solved(q, number + 1)
        views.check_frame(s, number)
        return await self.view(s, "step", number, lambda: views.frame(s, number))

    async def hint(self, q: Query, after: int, level: str) -> dict[str, Any]:
        s = await self.solved(q, after + 1)
        views.check_frame(s, after)
        return await self.view(s, "hint-" + level, after, lambda: views.hint(s, after, level))

    async def move(self, q: Query, after: int, move: str) -> dict[str, Any]:
        s = await self.solved(q, after + 1)
        views.check_frame(s, after)
        return await asyncio.to_thread(views.move, s, after, move)
