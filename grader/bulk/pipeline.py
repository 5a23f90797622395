"""The ordered run loop: read records lazily, send the grids to a pool, hand the
results back **in input order**.

At most ``window`` records are in flight at a time (read but not yet handed
back), so memory stays flat whatever the size of the collection.  A record
that is not a grid is answered here (the verdict ``malformed``); one already
in the output of an earlier run is handed back from there (``--resume``).
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from grader.bulk.codec import Result
from grader.bulk.interrupts import atomic
from grader.bulk.pool import Pool
from grader.bulk.resume import ResumeCursor
from grader.bulk.task import Answer, malformed_result, task_of
from grader.formats import Record

#: On Ctrl-C, how long the answers already done are waited for.
INTERRUPT_GRACE = 0.5


@dataclass(slots=True)
class Entry:
    """A record in flight: its metadata and, once graded, its result (and the
    result's line of output when a worker encoded it)."""

    index: int
    line: int
    source: str
    extra: dict[str, str]
    result: Result | None = None
    text: str | None = None


@dataclass
class RunStats:
    read: int = 0
    graded: int = 0
    resumed: int = 0
    interrupted: bool = False
    seconds: float = 0.0
    replaced: int = 0


Emit = Callable[[Entry, bool], None]


class _Flight:
    """The records between reading and handing back, in input order."""

    def __init__(self, emit: Emit, stats: RunStats,
                 progress: Callable[[Entry], None] | None,
                 settled: Callable[[], None] | None) -> None:
        self.queue: deque[Entry] = deque()
        self.by_index: dict[int, Entry] = {}
        self.emit = emit
        self.stats = stats
        self.progress = progress
        self.settled = settled

    def settle(self, answers: list[Answer]) -> None:
        by_index = self.by_index
        for res, text in answers:
            entry = by_index.pop(res["index"], None)
            if entry is not None:
                entry.result = res
                entry.text = text

    def flush(self) -> None:
        """Hand back every entry done at the head of the queue.  A stop signal
        waits for the end of the round: an entry taken from the queue is always
        written, so an interrupted output never skips a grid."""
        queue, emit, progress = self.queue, self.emit, self.progress
        n = 0
        with atomic():
            while queue and queue[0].result is not None:
                e = queue.popleft()
                n += 1
                emit(e, False)
                if progress is not None:
                    progress(e)
        self.stats.graded += n
        if n and self.settled is not None:
            self.settled()


def run(recs: Iterable[Record], pool: Pool, emit: Emit, *, with_solution: bool = False,
        window: int | None = None, cursor: ResumeCursor | None = None,
        progress: Callable[[Entry], None] | None = None,
        settled: Callable[[], None] | None = None) -> RunStats:
    """Grade ``recs`` on ``pool`` and call ``emit(entry, resumed)`` in input order
    (``settled()`` after each round of them: the time to flush an output).

    At most ``window`` (default: the pool's) records are held between reading
    and emitting.  An input that fails while it is read (an ``OSError`` or
    ``ValueError`` from ``recs``) stops the reading: every record read before
    it is still graded and emitted, then the error is raised.
    KeyboardInterrupt stops the run cleanly: the results already done are
    emitted (in order, up to the first grid not done), the workers are
    stopped, and the stats say ``interrupted``."""
    stats = RunStats()
    t0 = time.perf_counter()
    flight = _Flight(emit, stats, progress, settled)
    failed: list[BaseException] = []  # reading failed: finish what was read, then raise
    try:
        _loop(iter(recs), pool, flight, window or pool.window, cursor, with_solution, failed)
    except KeyboardInterrupt:
        stats.interrupted = True
        pool.interrupt()  # a worker that dies now is not a grid's failure
        with contextlib.suppress(Exception, KeyboardInterrupt):
            # results already done (or done within a batch's delay) are kept
            deadline = time.monotonic() + INTERRUPT_GRACE
            while pool.outstanding() and time.monotonic() < deadline:
                got = pool.wait(block=False)
                flight.settle(got)
                if not got:
                    time.sleep(0.01)
            flight.flush()
        pool.close(kill=True)
    except BaseException:
        pool.close(kill=True)
        raise
    else:
        pool.close()
    stats.replaced = getattr(pool, "replaced", 0)
    stats.seconds = time.perf_counter() - t0
    if failed and not stats.interrupted:
        raise failed[0]  # every record read before the failure has its result
    return stats


def _loop(it: Iterator[Record], pool: Pool, flight: _Flight, window: int,
          cursor: ResumeCursor | None, with_solution: bool,
          failed: list[BaseException]) -> None:
    stats, queue, by_index = flight.stats, flight.queue, flight.by_index
    exhausted = False
    while True:
        while not exhausted and len(queue) < window and pool.free() > 0:
            try:
                rec = next(it, None)
            except (OSError, ValueError) as exc:  # e.g. an input that cannot be read
                rec = None
                failed.append(exc)
            if rec is None:
                exhausted = True
                break
            stats.read += 1
            if cursor is not None and _resumed(rec, cursor, flight):
                continue
            e = Entry(rec.index, rec.line, rec.source, rec.extra)
            if rec.grid is None:
                e.result = malformed_result(rec, with_solution)
            else:
                pool.submit(task_of(rec))
                by_index[rec.index] = e
            queue.append(e)
            if len(queue) == 1:
                flight.flush()
        flight.flush()
        if exhausted and not queue:
            return
        if pool.outstanding():
            flight.settle(pool.wait(block=True))
            flight.flush()


def _resumed(rec: Record, cursor: ResumeCursor, flight: _Flight) -> bool:
    """Whether ``rec`` was handled by the earlier run (handed back if written)."""
    done, row = cursor.skip(rec)
    if done and row is not None:
        flight.stats.resumed += 1
        e = Entry(rec.index, rec.line, rec.source, rec.extra, row)
        flight.emit(e, True)
        if flight.progress is not None:
            flight.progress(e)
    return done
