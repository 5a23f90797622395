"""Workers that do not wait on the parent: ``grade FILE -j N`` in byte ranges.

For files of one grid per line (the ``line`` and ``nt`` formats) written as
JSON Lines or CSV (``-o FILE``, or ``-f jsonl|csv`` to standard output), the
parent hands each worker process a *range*: a slice of an input file's
bytes, cut at line ends, and the indices of the records it holds.  The worker
reads the slice itself, grades every grid of it, applies ``--where``,
``--min-level`` and ``--max-level``, writes the kept results to a *part*
file of its own and counts them in a :class:`~grader.bulk.summary.Summary`;
the parent only plans the ranges (one pass over the lines, counting records:
no grid is parsed there), appends the parts to the output in input order
(``os.copy_file_range``, else ``os.sendfile`` or reads and writes) and merges
the summaries.  The output is byte for byte what ``-j 1`` writes (but for
``seconds``).

Each part has a *side* file: the index of the grid being graded, and how
many bytes and grids of the part are done.  The parent follows the range at
the head of the input order through it (the output grows grid by grid, as
with one job; an interrupted run keeps every grid done up to the first one
not done), and a range whose worker died goes to a replacement that
continues after the last grid done: a range is never lost nor written twice.
A worker that crashes (a signal, an exit status) on a range alone pins the
crash on the grid it was grading (the side file says which): that grid gets
the verdict ``error`` as with one grid a task (SIGKILL: the second time), the
rest of the range is graded.

``--resume``: the grids already in the output are handed back by the parent
as before (read and checked against the input); ranges start after them.

``--dask local`` runs the same ranges as Dask tasks (:class:`DaskRanges`,
:func:`grade_range`): its workers share this machine's files.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import shutil
import struct
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from grader.bulk.codec import DecodeError, Encoder, Result, decode_csv_row, decode_json_line
from grader.bulk.interrupts import atomic
from grader.bulk.pipeline import INTERRUPT_GRACE, RunStats
from grader.bulk.processes import ProcessPool
from grader.bulk.summary import Summary
from grader.bulk.task import GradeConfig, Worker, malformed_result, special_result, task_of
from grader.formats import InputError, Record
from grader.formats.decode import BadLine, _content, physical_lines
from grader.formats.detect import is_header_row
from grader.formats.line import _iter_line

#: A side file: the index of the grid being graded, then the bytes, the last
#: index and the last line of the part that are done.
SIDE = struct.Struct("<qqqq")
#: A range is about this many seconds of work at the measured cost of a grid ...
RANGE_SECONDS = 0.25
#: ... the first ones this many grids (the cost is not known yet), never more
#: than :data:`MAX_RANGE`, and never more than a share of what is left, so
#: that the workers end together.
FIRST_RANGE = 4
MAX_RANGE = 8192
#: Ranges queued per worker.
DEPTH = 2
#: How long the parent waits for a worker before it looks at the head range
#: (on a Dask cluster: each wait costs the client a round of its event loop).
POLL_SECONDS = 0.1
DASK_POLL_SECONDS = 0.5


@dataclass(frozen=True)
class RangeTask:
    """A worker's range: the bytes ``start``-``end`` of ``source``, after
    ``lineno`` lines and ``index`` records (``first``: the file's first line
    holding something is in it, or after it: its header check is pending);
    the records ``lo`` < index <= ``hi`` are graded into ``part``."""

    key: int
    source: str
    start: int
    end: int
    lineno: int
    index: int
    first: bool
    lo: int
    hi: int
    nt: bool
    part: str

    @property
    def side(self) -> str:
        return self.part + ".at"


@dataclass
class RangeDone:
    """A worker's answer for a range: what it wrote and counted."""

    key: int
    summary: Summary
    bad: bool
    nbytes: int
    index: int
    line: int
    graded: int
    seconds: float
    where_error: str | None = None


@dataclass
class RangeFailed:
    """A range whose worker crashed on it alone (see the module's docstring)."""

    task: RangeTask
    message: str
    seconds: float


class _Slice:
    """``readline`` over ``left`` bytes of a file, from where it stands."""

    def __init__(self, fh: BinaryIO, left: int) -> None:
        self.fh = fh
        self.left = left

    def readline(self, n: int = -1) -> bytes:
        if self.left <= 0:
            return b""
        raw = self.fh.readline(self.left if n < 0 else min(n, self.left))
        self.left -= len(raw)
        return raw


def iter_range(rt: RangeTask, box: tuple[int, int] | None, after: int | None = None,
               ) -> Iterator[Record]:
    """The records of a range graded by it (those after index ``after`` when
    given), read as the whole file is read."""
    lo = rt.lo if after is None else max(rt.lo, after)
    with open(rt.source, "rb") as fh:
        fh.seek(rt.start)
        sliced: Any = _Slice(fh, rt.end - rt.start)
        lines = (pair for parts, _ in physical_lines(sliced, rt.source, rt.lineno, rt.start)
                 for pair in parts)
        for rec in _iter_line(lines, rt.source, box, rt.nt, rt.index, rt.first):
            if rec.index > rt.hi:
                return
            if rec.index > lo:
                yield rec


def read_side(path: str) -> tuple[int, int, int, int] | None:
    try:
        with open(path, "rb") as fh:
            raw = fh.read(SIDE.size)
    except OSError:
        return None
    if len(raw) != SIDE.size:
        return None
    started, nbytes, index, line = SIDE.unpack(raw)
    return started, nbytes, index, line


# --------------------------------------------------------------------------- the worker


@dataclass(frozen=True)
class RangeJob:
    """What the workers of a range run do (see :class:`grader.bulk.processes.Job`)."""

    cfg: GradeConfig
    box: tuple[int, int] | None
    where: str | None
    min_level: int | None
    max_level: int | None

    @property
    def preload(self) -> tuple[str, ...]:
        return (*self.cfg.preload, "grader.bulk.ranges")

    def start(self, timeout: float | None) -> RangeWorker:
        return RangeWorker(self)

    def failed(self, task: RangeTask, verdict: str, message: str, seconds: float) -> RangeFailed:
        return RangeFailed(task, message, seconds)


def _selection(job: RangeJob) -> Any:
    from grader.bulk.select import Selection
    from grader.bulk.where import Where

    where = Where(job.where) if job.where is not None else None
    return Selection(where, job.min_level, job.max_level, False, job.box)


def decode_part(path: str, nbytes: int, fields: tuple[str, ...] | None,
                fmt: str) -> Iterator[Result]:
    """The results of the first ``nbytes`` bytes of a part."""
    with open(path, "rb") as fh:
        text = fh.read(nbytes).decode("utf-8")
    if fmt == "csv":
        for row in csv.DictReader(io.StringIO(text, newline=""), fieldnames=list(fields or ())):
            with contextlib.suppress(ValueError):
                yield decode_csv_row(row)
    else:
        for line in text.splitlines():
            with contextlib.suppress(DecodeError):
                yield decode_json_line(line)


class RangeWorker:
    """A worker process's side: grades whole ranges into their parts."""

    def __init__(self, job: RangeJob) -> None:
        self.job = job
        self.worker = Worker(job.cfg, None)
        self.selection = _selection(job)

    def answer(self, rt: RangeTask) -> RangeDone:
        cfg, sel = self.job.cfg, self.selection
        t0 = time.perf_counter()
        summary = Summary(None)  # type: ignore[arg-type]
        bad = False
        side = read_side(rt.side)
        nbytes, index, line = (side[1], side[2], side[3]) if side else (0, rt.lo, 0)
        fd = os.open(rt.part, os.O_WRONLY | os.O_CREAT, 0o600)
        sfd = os.open(rt.side, os.O_WRONLY | os.O_CREAT, 0o600)
        graded = 0
        where_error: str | None = None
        try:
            if side is not None:  # a worker before this one died on the range: go on after it
                os.ftruncate(fd, nbytes)
                for d in decode_part(rt.part, nbytes, cfg.fields, cfg.encode or "jsonl"):
                    summary.add(d, rt.source)
                    summary.selected += 1
                    bad = bad or d.get("verdict") != "ok"
            os.lseek(fd, nbytes, os.SEEK_SET)
            encode = Encoder(cfg.encode or "jsonl", cfg.fields).encode
            for rec in iter_range(rt, self.job.box, index):
                os.pwrite(sfd, SIDE.pack(rec.index, nbytes, index, line), 0)
                if rec.grid is None:
                    d = malformed_result(rec, cfg.with_solution)
                    text = encode(d)
                else:
                    d, text0 = self.worker.answer(task_of(rec))
                    text = text0 if text0 is not None else encode(d)
                graded += 1
                summary.add(d, rec.source)
                bad = bad or d.get("verdict") != "ok"
                keep = True
                if sel.filtering:
                    from grader.bulk.select import KEEP
                    from grader.bulk.where import WhereError

                    try:
                        keep = sel.judge(d, rec.extra, rec.source, False) == KEEP
                    except WhereError as e:
                        where_error = str(e)
                        break
                if keep:
                    summary.selected += 1
                    data = text.encode("utf-8")
                    nbytes += len(data)
                    while data:
                        data = data[os.write(fd, data):]
                index, line = rec.index, rec.line
                os.pwrite(sfd, SIDE.pack(0, nbytes, index, line), 0)
        finally:
            os.close(fd)
            os.close(sfd)
        return RangeDone(rt.key, summary, bad, nbytes, index, line, graded,
                         time.perf_counter() - t0, where_error)


# --------------------------------------------------------------------------- the plan


class Planner:
    """The ranges of the inputs, planned lazily in input order: one pass over
    the lines, counting records as the reader does (no grid parsed).
    ``after``: records up to this index are handed back by the parent
    (``--resume``); no range holds only such records."""

    def __init__(self, sources: list[tuple[str, bool]], parts: str, jobs: int,
                 after: int = 0) -> None:
        self.sources = sources
        self.parts = parts
        self.jobs = jobs
        self.after = after
        self.cost: float | None = None  # seconds a grid, measured
        self.bytes_left = sum(os.path.getsize(p) for p, _ in sources)
        self.error: BaseException | None = None
        self.total = 0  # records seen
        self._gen = self._ranges()

    def measured(self, grids: int, seconds: float) -> None:
        if grids > 0:
            cost = max(seconds / grids, 1e-6)
            self.cost = cost if self.cost is None else 0.7 * self.cost + 0.3 * cost

    def _size(self, per_record: float) -> int:
        """How many records the next range holds."""
        want = FIRST_RANGE if self.cost is None else int(RANGE_SECONDS / self.cost)
        left = self.bytes_left / per_record if per_record > 0 else MAX_RANGE
        return max(1, min(want, MAX_RANGE, int(left / (3 * self.jobs))))

    def next(self) -> RangeTask | None:
        return next(self._gen, None)

    def _ranges(self) -> Iterator[RangeTask]:
        key = index = 0
        for path, nt in self.sources:
            start = pos = lineno = 0
            first = True
            idx0, lineno0, first0 = index, 0, True
            before = index  # the records of the sources before this one
            try:
                with open(path, "rb") as fh:
                    for parts, nbytes in physical_lines(fh, path):
                        for ln, text in parts:
                            lineno = ln
                            if not _content(text):
                                continue
                            if not isinstance(text, BadLine) and first and is_header_row(text):
                                first = False
                                continue
                            first = False
                            index += 1
                        pos += nbytes
                        self.bytes_left -= nbytes
                        lo = max(idx0, self.after)
                        if index <= self.after:  # handed back by the parent
                            start, idx0, lineno0, first0 = pos, index, lineno, first
                            continue
                        if index - lo >= self._size(pos / max(1, index - before)):
                            yield RangeTask(key, path, start, pos, lineno0, idx0, first0, lo,
                                            index, nt, os.path.join(self.parts, f"{key}.part"))
                            key += 1
                            start, idx0, lineno0, first0 = pos, index, lineno, first
            except InputError as e:
                self.error = e
            except OSError as e:
                self.error = InputError(f"{path}: cannot read: {e.strerror or e}")
            self.total = index
            if index > max(idx0, self.after):
                yield RangeTask(key, path, start, pos, lineno0, idx0, first0,
                                max(idx0, self.after), index, nt,
                                os.path.join(self.parts, f"{key}.part"))
                key += 1
            if self.error is not None:
                return


# --------------------------------------------------------------------------- the parent


class _Slot:
    def __init__(self, task: RangeTask) -> None:
        self.task = task
        self.done: RangeDone | None = None
        self.copied = 0  # bytes of the part in the output
        self.index = task.lo  # grids handed back
        self.fd: int | None = None


class Joiner:
    """Appends parts to the output's file descriptor in input order."""

    def __init__(self, out_fd: int) -> None:
        self.fd = out_fd
        self.how = "copy_file_range" if hasattr(os, "copy_file_range") else "sendfile"

    def append(self, src: int, offset: int, n: int) -> None:
        while n > 0:
            k = 0
            try:
                if self.how == "copy_file_range":
                    k = os.copy_file_range(src, self.fd, n, offset)
                elif self.how == "sendfile":
                    k = os.sendfile(self.fd, src, offset, n)
            except OSError:
                self.how = "sendfile" if self.how == "copy_file_range" else "write"
                continue
            if self.how == "write" or k == 0:
                data = os.pread(src, min(n, 1 << 20), offset)
                if not data:
                    raise OSError(f"a part ended {n} bytes short")
                k = 0
                while k < len(data):
                    k += os.write(self.fd, data[k:])
            offset += k
            n -= k


class RangeRun:
    """The parent's side of a range run (see the module's docstring)."""

    def __init__(self, job: RangeJob, planner: Planner, jobs: int, stream: Any,
                 header: Callable[[], None], summary: Summary,
                 progress: Any, stats: RunStats, dask: str | None = None) -> None:
        self.job = job
        self.planner = planner
        self.stream = stream
        self.header = header
        self.summary = summary
        self.progress = progress
        self.stats = stats
        self.bad = False
        self.where_error: str | None = None
        self.pool: Any = _RangePool(job, jobs) if dask is None else DaskRanges(job, dask, jobs)
        self.slots: deque[_Slot] = deque()
        self.by_key: dict[int, _Slot] = {}
        self.joiner = Joiner(stream.fileno())
        self.exhausted = False

    def run(self) -> None:
        pool = self.pool
        try:
            while True:
                while not self.exhausted and pool.free() > 0:
                    task = self.planner.next()
                    if task is None:
                        self.exhausted = True
                        break
                    slot = _Slot(task)
                    self.slots.append(slot)
                    self.by_key[task.key] = slot
                    pool.submit(task)
                self._join()
                if self.where_error is not None:
                    break
                if self.exhausted and not self.slots:
                    break
                self._settle(pool.wait(block=True, timeout=POLL_SECONDS))
        except KeyboardInterrupt:
            self.stats.interrupted = True
            pool.interrupt()
            with contextlib.suppress(Exception, KeyboardInterrupt):
                deadline = time.monotonic() + INTERRUPT_GRACE
                while pool.outstanding() and time.monotonic() < deadline:
                    self._settle(pool.wait(block=True, timeout=0.05))
                self._join(final=True)
            pool.close(kill=True)
        except BaseException:
            pool.close(kill=True)
            raise
        else:
            pool.close()
        finally:
            for slot in self.slots:
                if slot.fd is not None:
                    os.close(slot.fd)
        self.stats.replaced = pool.replaced

    def _settle(self, answers: list[Any]) -> None:
        for a in answers:
            if isinstance(a, RangeFailed):
                self._pin(a)
                continue
            slot = self.by_key.get(a.key)
            if slot is not None:
                slot.done = a
                self.planner.measured(a.graded, a.seconds)

    def _pin(self, failed: RangeFailed) -> None:
        """The range's worker crashed on it alone: the grid it was grading gets
        the verdict ``error``, and the range goes on after it."""
        rt = failed.task
        side = read_side(rt.side)
        nbytes, index, line = (side[1], side[2], side[3]) if side else (0, rt.lo, 0)
        suspect = side[0] if side and side[0] else index + 1
        rec = next(iter_range(rt, self.job.box, suspect - 1), None)
        if rec is not None and rec.index == suspect:
            cfg = self.job.cfg
            if rec.grid is None:
                d = malformed_result(rec, cfg.with_solution)
            else:
                d = special_result(task_of(rec), "error", failed.message, failed.seconds,
                                   cfg.with_solution)
            keep = True
            sel = _selection(self.job)
            if sel.filtering:
                from grader.bulk.select import KEEP

                with contextlib.suppress(Exception):
                    keep = sel.judge(d, rec.extra, rec.source, False) == KEEP
            if keep:
                data = Encoder(cfg.encode or "jsonl", cfg.fields).encode(d).encode("utf-8")
                fd = os.open(rt.part, os.O_WRONLY | os.O_CREAT, 0o600)
                try:
                    os.ftruncate(fd, nbytes)
                    os.pwrite(fd, data, nbytes)
                finally:
                    os.close(fd)
                nbytes += len(data)
            with open(rt.side, "wb") as fh:
                fh.write(SIDE.pack(0, nbytes, rec.index, rec.line))
        if rec is None or rec.index >= rt.hi:
            # nothing left after it: the range is done (its summary rebuilt from the part)
            s = Summary(None)  # type: ignore[arg-type]
            bad = False
            for d in decode_part(rt.part, nbytes, self.job.cfg.fields,
                                 self.job.cfg.encode or "jsonl"):
                s.add(d, rt.source)
                s.selected += 1
                bad = bad or d.get("verdict") != "ok"
            slot = self.by_key.get(rt.key)
            if slot is not None:
                slot.done = RangeDone(rt.key, s, bad, nbytes, rt.hi,
                                      rec.line if rec is not None else line, 0, 0.0)
            return
        self.pool.submit(rt)  # again, after the grid

    def _join(self, final: bool = False) -> None:
        """Hand back what is done at the head of the input order."""
        with atomic():
            while self.slots:
                slot = self.slots[0]
                done = slot.done
                if done is not None:
                    nbytes, index, line = done.nbytes, done.index, done.line
                else:
                    side = read_side(slot.task.side)
                    if side is None:
                        return
                    nbytes, index, line = side[1], side[2], side[3]
                if nbytes > slot.copied:
                    if slot.fd is None:
                        slot.fd = os.open(slot.task.part, os.O_RDONLY)
                    self.header()
                    self.joiner.append(slot.fd, slot.copied, nbytes - slot.copied)
                    slot.copied = nbytes
                if index > slot.index:
                    self.progress.advance(index - slot.index, slot.task.source, line)
                    self.stats.graded += index - slot.index
                    slot.index = index
                if done is None or slot.copied < done.nbytes:
                    if final and slot.copied:  # interrupted: count what was handed back
                        for d in decode_part(slot.task.part, slot.copied, self.job.cfg.fields,
                                             self.job.cfg.encode or "jsonl"):
                            self.summary.add(d, slot.task.source)
                            self.summary.selected += 1
                            self.bad = self.bad or d.get("verdict") != "ok"
                    return
                self.summary.merge(done.summary)
                self.bad = self.bad or done.bad
                self._forget(slot)
                if done.where_error is not None:
                    self.where_error = done.where_error
                    return

    def _forget(self, slot: _Slot) -> None:
        self.slots.popleft()
        self.by_key.pop(slot.task.key, None)
        if slot.fd is not None:
            os.close(slot.fd)
            slot.fd = None
        for path in (slot.task.part, slot.task.side):
            with contextlib.suppress(OSError):
                os.unlink(path)


class _RangePool(ProcessPool):
    """Worker processes taking whole ranges, one pipe message each."""

    def __init__(self, job: RangeJob, jobs: int) -> None:
        super().__init__(job, jobs, None, depth=DEPTH, name="grade-worker")
        self.chunk = 1

    def _measured(self, grids: int, seconds: float) -> None:
        self.chunk = 1  # a range is a task: each one goes out alone


#: This Dask worker's range workers, by run (a worker of ``--dask local``).
_DASK_WORKERS: dict[str, RangeWorker] = {}


def grade_range(name: str, job: RangeJob, rt: RangeTask) -> RangeDone:
    """A range graded on a Dask worker (of this machine: it reads the input and
    writes the part where the command put it)."""
    worker = _DASK_WORKERS.get(name)
    if worker is None:
        worker = _DASK_WORKERS[name] = RangeWorker(job)
    return worker.answer(rt)


class DaskRanges:
    """The ranges as tasks of ``--dask local``'s cluster (its workers share
    this machine's files): the pool protocol of :class:`_RangePool`.  A range
    whose worker died is given to another by the scheduler (the side file says
    where to go on); one whose workers keep dying is answered
    :class:`RangeFailed` (its grid pinned as with processes)."""

    replaced = 0

    def __init__(self, job: RangeJob, address: str, jobs: int) -> None:
        from grader.bulk.dask import DaskPool

        self.job = job
        self.dask = DaskPool(job.cfg, address, jobs=jobs)
        self.jobs = self.dask.jobs
        self.futures: dict[Any, RangeTask] = {}
        self.stopping = False

    def free(self) -> int:
        return DEPTH * self.jobs + 1 - len(self.futures)

    def outstanding(self) -> int:
        return len(self.futures)

    def submit(self, rt: RangeTask) -> None:
        fut = self.dask.client.submit(grade_range, self.dask.name, self.job, rt, pure=False)
        self.futures[fut] = rt

    def interrupt(self) -> None:
        self.stopping = True

    def wait(self, block: bool = True, timeout: float | None = None) -> list[Any]:
        from distributed import wait

        if not self.futures:
            return []
        done = [f for f in self.futures if f.done()]
        if block and not done:
            with contextlib.suppress(Exception):
                wait(list(self.futures), timeout=max(DASK_POLL_SECONDS, timeout or 0.0),
                     return_when="FIRST_COMPLETED")
            done = [f for f in self.futures if f.done()]
            if not done and self.dask.client.status not in ("running", "newly-created"):
                raise self.dask._gone()
        out: list[Any] = []
        for fut in done:
            rt = self.futures.pop(fut)
            if fut.status == "finished":
                try:
                    out.append(fut.result())
                    continue
                except Exception:  # noqa: BLE001 - looked at below
                    pass
            if self.stopping:
                continue
            from distributed.scheduler import KilledWorker

            exc = None
            with contextlib.suppress(Exception):
                exc = fut.exception()
            if isinstance(exc, KilledWorker):
                out.append(RangeFailed(rt, "the Dask workers died on this grid", 0.0))
            else:
                from grader.bulk.pool import ClusterLost

                raise ClusterLost(f"a Dask task failed: {type(exc).__name__}: {exc}"
                                  if exc is not None else
                                  f"lost the connection to the Dask scheduler at "
                                  f"{self.dask.address}")
        return out

    def close(self, kill: bool = False) -> None:
        futures, self.futures = list(self.futures), {}
        with contextlib.suppress(Exception):
            if futures and self.dask.client.status == "running":
                self.dask.client.cancel(futures)
        self.dask.close(kill)


def part_dir() -> str:
    """A directory for the parts of one run (removed by :func:`remove_parts`)."""
    return tempfile.mkdtemp(prefix="grade-parts-")


def remove_parts(path: str) -> None:
    shutil.rmtree(path, ignore_errors=True)
