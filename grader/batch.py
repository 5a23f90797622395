"""Bulk rating: lazy reading, worker processes, ordered output, timeouts, resume.

The pipeline reads records lazily (:func:`records`), sends the grids to a
*pool* (:class:`InlinePool` in this process, :class:`ProcessPool` of worker
processes, or :class:`grader.distributed.DaskPool`), and hands the results
back **in input order** to a callback.  At most ``window`` records are in
flight at a time (sent but not yet handed back), so memory stays flat
whatever the size of the collection.

Each worker builds one :class:`~grader.grading.Grader` (rule plugins are
loaded once per process) and answers one grid at a time with the plain dict
of the JSON Lines contract.  A grid that runs past ``timeout`` seconds gets
the verdict ``timeout``: its worker process is killed and replaced, and the
other grids go on.  A worker that dies (a crash, the OOM killer) gives its
grid the verdict ``error`` and is replaced too.

Resume: results are written in input order, so an output file is always a
prefix of the run (up to grids the filters dropped).  :class:`ResumeCursor`
reads an existing output alongside the input and skips every grid up to the
last one written, checking that each grid written is the same grid at the
same index of the input.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import heapq
import io
import json
import multiprocessing as mp
import os
import re
import selectors
import signal
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Protocol

from .errors import GraderError
from .formats import Grid, Record, iter_sources
from .geometry import geometry
from .grading import CONTRACT_FIELDS, Grader, GradeResult
from .hierarchy import Hierarchy
from .rule import RuleError

#: A task sent to a worker: (index, line, a, b, values).
Task = tuple[int, int, int, int, tuple[int, ...]]
#: A result: the JSON Lines contract as a plain dict.
Result = dict[str, Any]


# --------------------------------------------------------------------------- reading


def records(sources: Iterable[str], input_format: str = "auto",
            box: tuple[int, int] | None = None, column: str | None = None) -> Iterator[Record]:
    """Every record of every source, renumbered across sources in input order."""
    return iter_sources(sources, input_format, box, column)


def expected_puzzle(rec: Record) -> str:
    """What the ``puzzle`` field of a record's result will be."""
    return rec.grid.normalised() if rec.grid is not None else rec.text


def count_lines(path: str) -> int | None:
    """Number of lines of a file (for the progress bar), or None for stdin/grids."""
    p = Path(path)
    if path == "-" or not p.is_file():
        return None
    n = 0
    last = b"\n"
    with p.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            n += chunk.count(b"\n")
            last = chunk[-1:]
    return n + (last != b"\n")


# --------------------------------------------------------------------------- grading


@dataclass(frozen=True)
class GradeConfig:
    """Everything a worker needs to build its grader (picklable)."""

    hierarchy: Hierarchy | None = None
    check: bool = False
    engine: str | None = None
    with_solution: bool = False
    canonical: bool = False


class EngineUnavailable(GraderError, RuntimeError):
    """``--check-engine`` names an engine that cannot be used here."""


def engine_solver(name: str) -> Any:
    """The exact-solver callable ``(geo, values, limit) -> SolveResult`` of a named
    engine of :mod:`grader.engines`."""
    try:
        from . import engines
    except ImportError as e:
        raise EngineUnavailable(
            f"exact-solver engines are not available in this installation ({e})") from e
    try:
        eng = engines.get_engine(name)
    except Exception as e:  # noqa: BLE001 - any failure is reported to the user
        raise EngineUnavailable(f"engine {name!r}: {e}") from e
    solver = eng if callable(eng) else getattr(eng, "solve", None)
    if not callable(solver):
        raise EngineUnavailable(f"engine {name!r} has no solve function")
    return solver


def make_grader(cfg: GradeConfig) -> Grader:
    solver = engine_solver(cfg.engine) if cfg.engine else None
    return Grader(cfg.hierarchy, check=cfg.check, solver=solver)


def task_of(rec: Record) -> Task:
    assert rec.grid is not None
    geo = rec.grid.geo
    return (rec.index, rec.line, geo.a, geo.b, rec.grid.values)


def malformed_result(rec: Record, with_solution: bool = False) -> Result:
    r = GradeResult(index=rec.index, line=rec.line, puzzle=rec.text, size=None,
                    verdict="malformed", message=rec.error)
    return r.contract(with_solution)


def special_result(task: Task, verdict: str, message: str, seconds: float,
                   with_solution: bool = False) -> Result:
    index, line, a, b, values = task
    puzzle = Grid(geometry(a, b), values).normalised()
    r = GradeResult(index=index, line=line, puzzle=puzzle, size=a * b,
                    verdict=verdict, message=message, seconds=round(seconds, 6))  # type: ignore[arg-type]
    return r.contract(with_solution)


def grade_task(grader: Grader, cfg: GradeConfig, task: Task) -> Result:
    """Grade one task; never raises (an unexpected failure is the verdict ``error``)."""
    index, line, a, b, values = task
    t0 = time.perf_counter()
    grid: Grid | None = Grid(geometry(a, b), values)
    try:
        assert grid is not None
        d = grader.grade_grid(grid, index, line).contract(cfg.with_solution)
    except GridTimeout:
        raise
    except RuleError as e:  # a rule plugin failed: named, and the run goes on
        d = special_result(task, "rule-error", str(e), time.perf_counter() - t0,
                           cfg.with_solution)
        grid = None
    except Exception as e:  # noqa: BLE001 - reported per grid, the run goes on
        d = special_result(task, "error", f"{type(e).__name__}: {e}",
                           time.perf_counter() - t0, cfg.with_solution)
        grid = None
    if cfg.canonical:
        from .canonical import canonical_form

        d["canonical"] = canonical_form(grid) if grid is not None else d["puzzle"]
    return d


class GridTimeout(BaseException):
    """Raised inside a thread that ran past its deadline (see :func:`call_with_deadline`)."""


def call_with_deadline(fn: Callable[[], Result], seconds: float | None) -> Result:
    """Run ``fn`` in this thread, interrupting it with :class:`GridTimeout` after
    ``seconds``.  Used where a worker cannot be killed (Dask worker threads):
    the exception is delivered between two Python bytecodes, so pure-Python
    grading stops promptly; time spent inside one native call cannot be cut."""
    if not seconds:
        return fn()
    import ctypes

    tid = threading.get_ident()
    lock = threading.Lock()
    state = {"done": False, "fired": False}

    def fire() -> None:
        with lock:
            if not state["done"]:
                state["fired"] = True
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(tid),
                                                           ctypes.py_object(GridTimeout))

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    try:
        timer.start()
        try:
            result = fn()
        finally:
            with lock:
                state["done"] = True
            timer.cancel()
        return result
    except GridTimeout:
        raise
    finally:
        if state["fired"]:
            # the exception may still be pending if it fired at the very end
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(tid), None)


# --------------------------------------------------------------------------- pools


class Pool(Protocol):
    """Where grids are graded.  ``submit`` only when ``free() > 0``."""

    def free(self) -> int: ...

    def outstanding(self) -> int: ...

    def submit(self, task: Task) -> None: ...

    def wait(self, block: bool = True) -> list[Result]: ...

    def close(self, kill: bool = False) -> None: ...


class InlinePool:
    """Grades in this process, one grid at a time (``--jobs 1`` without a timeout)."""

    def __init__(self, cfg: GradeConfig) -> None:
        self.cfg = cfg
        self.grader = make_grader(cfg)
        self.done: list[Result] = []

    def free(self) -> int:
        return 1 - len(self.done)

    def outstanding(self) -> int:
        return len(self.done)

    def submit(self, task: Task) -> None:
        self.done.append(grade_task(self.grader, self.cfg, task))

    def wait(self, block: bool = True) -> list[Result]:
        done, self.done = self.done, []
        return done

    def close(self, kill: bool = False) -> None:
        pass


#: Without a per-grid timeout, a worker sends its results in batches: at once
#: when no grid is waiting for it, else when a grid is done and the oldest
#: unsent result is this old ...
BATCH_SECONDS = 0.02
#: ... or, while a slow grid is being graded, when it is this old.
HOLD_SECONDS = 0.2
#: The parent sends grids to a worker this many at a time (or fewer, when it
#: waits for results).
SEND_TASKS = 8


class _Outbox:
    """A worker's results not yet sent.

    They travel together (sparing the parent most of its wake-ups and pipe
    reads).  The grading thread sends them when a grid is done; a timer
    thread sends them at most :data:`HOLD_SECONDS` after the oldest was done
    while the next grid is still being graded, so a slow grid never holds
    back the results done before it (they are written, and kept if the run is
    interrupted).  The timer wakes a few times a second at most (each wake
    takes the GIL from the grading thread), and the grading thread releases
    the GIL in the accelerator and every few milliseconds in Python, so the
    timer runs on time."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.lock = threading.Lock()
        self.pending: list[Result] = []
        self.since = 0.0
        self.busy = threading.Event()  # set while results are pending
        self.closed = False
        self.thread = threading.Thread(target=self._timer, name="outbox", daemon=True)
        self.thread.start()

    def add(self, res: Result, now: bool) -> None:
        """Queue ``res``; send everything pending if ``now`` or it is due."""
        with self.lock:
            if not self.pending:
                self.since = time.monotonic()
                self.busy.set()
            self.pending.append(res)
            if now or time.monotonic() - self.since >= BATCH_SECONDS:
                self._send()

    def _send(self) -> None:
        """Send what is pending (the caller holds the lock)."""
        if self.pending:
            batch, self.pending = self.pending, []
            self.busy.clear()
            self.conn.send(batch)

    def _timer(self) -> None:
        try:
            while self.busy.wait() and not self.closed:
                with self.lock:
                    due = self.since + HOLD_SECONDS - time.monotonic()
                    if self.pending and due <= 0:
                        self._send()
                if due > 0:
                    time.sleep(due)
        except (OSError, ValueError):
            pass  # the parent has gone: the grading thread finds out too

    def close(self) -> None:
        self.closed = True
        self.busy.set()


def _worker_main(conn: Connection, cfg: GradeConfig, batch: bool = False) -> None:
    """A worker process: one grader, one grid at a time, until told to stop.

    Results go back as lists, one per grid with a per-grid timeout (its
    bookkeeping needs each result as soon as it is known), else batched by an
    :class:`_Outbox`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's business
    try:
        grader = make_grader(cfg)
    except Exception as e:  # noqa: BLE001
        with contextlib.suppress(OSError):
            conn.send(("fatal", f"{type(e).__name__}: {e}"))
        return
    outbox: _Outbox | None = None
    try:
        conn.send(("ready", os.getpid()))
        outbox = _Outbox(conn) if batch else None
        while True:
            tasks = conn.recv()  # a list of grids, in the order of the parent's queue
            if tasks is None:
                break
            for i, task in enumerate(tasks):
                res = grade_task(grader, cfg, task)
                if outbox is None:
                    conn.send([res])
                else:
                    outbox.add(res, now=i + 1 == len(tasks) and not conn.poll())
    except (EOFError, OSError):
        pass  # the parent has gone: stop quietly
    finally:
        if outbox is not None:
            outbox.close()


class WorkerFailed(GraderError, RuntimeError):
    """A worker could not even start (e.g. a plugin fails to load)."""


@dataclass
class _Worker:
    proc: Any
    conn: Connection
    queue: deque[Task] = field(default_factory=deque)
    unsent: list[Task] = field(default_factory=list)
    started: float = 0.0
    answered: bool = False
    ready: bool = False


class ProcessPool:
    """``jobs`` worker processes, each with ``depth`` grids queued at most.

    A grid running past ``timeout`` seconds is answered with the verdict
    ``timeout``; its worker is killed and replaced, and the grids queued
    behind it go to the replacement.  A worker that dies answers its grid
    with the verdict ``error``."""

    def __init__(self, cfg: GradeConfig, jobs: int, timeout: float | None = None,
                 depth: int | None = None) -> None:
        self.cfg = cfg
        self.timeout = timeout
        # batched results (no timeout) come back a handful at a time: keep
        # more grids queued so that a worker never waits for the next one
        self.depth = depth if depth is not None else (4 if timeout is not None else 16)
        methods = mp.get_all_start_methods()
        self.ctx: Any = mp.get_context("forkserver" if "forkserver" in methods else "spawn")
        if "forkserver" in methods:
            self.ctx.set_forkserver_preload(["grader.batch", "grader.grading"])
        self.selector = selectors.DefaultSelector()
        self.workers: list[_Worker] = []
        self.replaced = 0
        self.failures = 0  # deaths in a row of workers that never answered
        for _ in range(max(1, jobs)):
            self.workers.append(self._start())

    def _start(self) -> _Worker:
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker_main,
                                args=(child, self.cfg, self.timeout is None), daemon=True,
                                name="grade-worker")
        proc.start()
        child.close()
        w = _Worker(proc, parent)
        self.selector.register(parent, selectors.EVENT_READ, w)
        self.selector.register(proc.sentinel, selectors.EVENT_READ, w)
        return w

    def _forget(self, w: _Worker) -> None:
        for h in (w.conn, w.proc.sentinel):
            with contextlib.suppress(KeyError, ValueError, OSError):
                self.selector.unregister(h)

    def free(self) -> int:
        return sum(self.depth - len(w.queue) for w in self.workers)

    def outstanding(self) -> int:
        return sum(len(w.queue) for w in self.workers)

    def submit(self, task: Task) -> None:
        """Queue ``task``; it leaves with the worker's next batch of grids (at
        the latest when :meth:`wait` is called)."""
        w = min(self.workers, key=lambda w: len(w.queue))
        if not w.queue:
            w.started = time.monotonic()
        w.queue.append(task)
        w.unsent.append(task)
        if len(w.unsent) >= SEND_TASKS:
            self._send(w)

    @staticmethod
    def _send(w: _Worker) -> None:
        tasks, w.unsent = w.unsent, []
        with contextlib.suppress(OSError):
            w.conn.send(tasks)  # a dead worker is found and replaced by wait()

    def _replace(self, w: _Worker, kill: bool) -> None:
        if kill and w.proc.is_alive():
            w.proc.kill()
        w.proc.join(5)
        self._forget(w)
        with contextlib.suppress(OSError):
            w.conn.close()
        if not w.answered and not kill:
            self.failures += 1
            if self.failures >= 3:
                raise WorkerFailed("the worker processes die as soon as they start "
                                   f"(exit {w.proc.exitcode})")
        fresh = self._start()
        self.replaced += 1
        self.workers[self.workers.index(w)] = fresh
        if w.queue:
            fresh.started = time.monotonic()
            fresh.queue.extend(w.queue)
            fresh.unsent = list(w.queue)
            self._send(fresh)

    def wait(self, block: bool = True) -> list[Result]:
        for w in self.workers:
            if w.unsent:
                self._send(w)
        busy = [w for w in self.workers if w.queue]
        if not busy:
            return []
        now = time.monotonic()
        wait_for: float | None = None if block else 0.0
        timed = [w for w in busy if w.ready]
        if self.timeout is not None and timed:
            nearest = min(w.started + self.timeout for w in timed) - now
            wait_for = max(0.0, nearest) if wait_for is None else min(wait_for, max(0.0, nearest))
        events = self.selector.select(wait_for)
        readable = {id(key.data) for key, _ in events if key.fileobj is key.data.conn}
        exited = {id(key.data) for key, _ in events if key.fileobj is not key.data.conn}
        out: list[Result] = []
        for w in busy:
            dead = False
            if id(w) in readable:
                # One message per wake-up: the selector is level-triggered, so a
                # second message already waiting wakes the next call at once
                # (cheaper than polling the pipe, which builds a selector each time).
                try:
                    msg = w.conn.recv()
                    if isinstance(msg, tuple):
                        if msg[0] == "fatal":
                            raise WorkerFailed(f"a worker could not start: {msg[1]}")
                        w.ready = True  # ("ready", pid): the clock starts now
                    else:  # a list of results, in the order of the queue
                        for res in msg:
                            w.queue.popleft()
                            out.append(res)
                    w.answered = True
                    self.failures = 0
                    w.started = time.monotonic()
                except (EOFError, OSError):
                    dead = True
            if (not dead and w.queue and id(w) in exited and id(w) not in readable
                    and not w.proc.is_alive()):
                dead = True
            if dead:
                task = w.queue.popleft()
                w.proc.join(5)
                code = w.proc.exitcode
                how = f"signal {-code}" if code is not None and code < 0 else f"exit {code}"
                out.append(special_result(task, "error",
                                          f"the worker process died ({how}) on this grid",
                                          time.monotonic() - w.started, self.cfg.with_solution))
                self._replace(w, kill=False)
                continue
            if (self.timeout is not None and w.queue and w.ready
                    and time.monotonic() - w.started >= self.timeout):
                task = w.queue.popleft()
                out.append(special_result(task, "timeout",
                                          f"not graded within {self.timeout:g} s",
                                          self.timeout, self.cfg.with_solution))
                self._replace(w, kill=True)
        return out

    def close(self, kill: bool = False) -> None:
        self.selector.close()
        for w in self.workers:
            if kill:
                w.proc.kill()
            else:
                with contextlib.suppress(OSError):
                    w.conn.send(None)
        for w in self.workers:
            w.proc.join(2 if not kill else 5)
            if w.proc.is_alive():
                w.proc.kill()
                w.proc.join(5)
            with contextlib.suppress(OSError):
                w.conn.close()


# --------------------------------------------------------------------------- the run


@dataclass
class Entry:
    """A record in flight: its metadata and, once graded, its result."""

    index: int
    line: int
    source: str
    extra: dict[str, str]
    result: Result | None = None


class ResumeError(GraderError, ValueError):
    """An existing output that does not belong to this input."""


def _csv_value(key: str, value: str) -> Any:
    if value == "":
        return None
    if key in ("index", "line", "size", "level", "depth", "steps"):
        return int(value)
    if key in ("score", "se", "seconds"):
        return float(value)
    if key == "techniques":
        out: dict[str, int] = {}
        for part in value.split(";"):
            if part:
                k, _, v = part.partition("=")
                out[k] = int(v)
        return out
    return value


def read_output(path: Path, truncate: bool = False) -> Iterator[Result]:
    """The results of an existing output file (JSONL or CSV by extension).

    A last line cut short (the run was killed while writing it, or the
    machine went down) is dropped, and with ``truncate`` removed from the
    file so that appending continues cleanly."""
    if not path.exists() or path.stat().st_size == 0:
        return
    if truncate:
        _drop_partial_line(path)
    try:
        yield from _read_output(path)
    except UnicodeDecodeError as e:
        raise ResumeError(f"{path}: not an output of grade (not UTF-8: {e.reason} at byte "
                          f"{e.start})") from e
    except csv.Error as e:
        raise ResumeError(f"{path}: not an output of grade (CSV: {e})") from e


def _read_output(path: Path) -> Iterator[Result]:
    is_csv = path.suffix.lower() == ".csv"
    with path.open("r", encoding="utf-8", newline="") as fh:
        if is_csv:
            reader = csv.DictReader(fh)
            for lineno, row in enumerate(reader, start=2):
                try:
                    d = {k: _csv_value(k, v) for k, v in row.items() if k is not None}
                except ValueError as e:
                    raise ResumeError(f"{path}:{lineno}: not a row of grade's CSV output "
                                      f"({e})") from e
                if type(d.get("index")) is not int or "puzzle" not in d:
                    raise ResumeError(f"{path}:{lineno}: not a row of grade's CSV output "
                                      f"(no index and puzzle)")
                yield d
        else:
            for lineno, raw in enumerate(fh, start=1):
                if not raw.strip():
                    continue
                try:
                    d = json.loads(raw)
                except json.JSONDecodeError as e:
                    raise ResumeError(f"{path}:{lineno}: not valid JSON ({e.msg})") from e
                except (RecursionError, ValueError) as e:  # nested too deeply, huge numbers
                    raise ResumeError(f"{path}:{lineno}: not a result of grade "
                                      f"({type(e).__name__})") from e
                if (not isinstance(d, dict) or type(d.get("index")) is not int
                        or "puzzle" not in d):
                    raise ResumeError(f"{path}:{lineno}: not a result of grade "
                                      f"(no index and puzzle)")
                yield d


def _drop_partial_line(path: Path) -> None:
    with path.open("rb+") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        if size == 0:
            return
        fh.seek(size - 1)
        if fh.read(1) == b"\n":
            return
        # find the last newline and cut after it
        pos = size
        step = 4096
        cut = 0
        while pos > 0:
            start = max(0, pos - step)
            fh.seek(start)
            chunk = fh.read(pos - start)
            k = chunk.rfind(b"\n")
            if k >= 0:
                cut = start + k + 1
                break
            pos = start
        fh.truncate(cut)


class ResumeCursor:
    """Walks an existing output alongside the input.

    ``skip(rec)`` says whether a record was already handled (its index is not
    after the last index written) and returns the stored result when the
    record was written.  A stored grid that is not the input's grid at that
    index raises :class:`ResumeError`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        rows = read_output(path, truncate=True)
        self.last = 0
        self.count = 0
        # usually the output is in input order: stream it; a sorted output is loaded
        self._rows: dict[int, Result] = {}
        prev = 0
        ordered = True
        for d in rows:
            i = int(d["index"])
            if i <= prev:
                ordered = False
            prev = i
            self.last = max(self.last, i)
            self.count += 1
        self._ordered = ordered
        self._iter: Iterator[Result] = read_output(path)
        self._next: Result | None = None
        if not ordered:
            self._rows = {int(d["index"]): d for d in read_output(path)}
        else:
            self._next = next(self._iter, None)

    def skip(self, rec: Record) -> tuple[bool, Result | None]:
        if rec.index > self.last:
            return False, None
        if self._ordered:
            while self._next is not None and int(self._next["index"]) < rec.index:
                self._next = next(self._iter, None)  # pragma: no cover - defensive
            row = self._next if (self._next is not None
                                 and int(self._next["index"]) == rec.index) else None
            if row is not None:
                self._next = next(self._iter, None)
        else:
            row = self._rows.pop(rec.index, None)
        if row is not None and row.get("puzzle") != expected_puzzle(rec):
            raise ResumeError(
                f"{self.path}: grid {rec.index} is {row.get('puzzle')!r} there but "
                f"{expected_puzzle(rec)!r} at {rec.source}:{rec.line}: this output was "
                f"written from another input (or other options)")
        return True, row


#: What a resumed run must share with the run that wrote the output (recorded
#: beside it by :func:`grader.files.write_settings`), with the option that sets each.
SETTING_LABELS = {
    "inputs": "another input", "input_format": "--input-format", "box": "--box",
    "column": "--column", "hierarchy": "--hierarchy/--propagation (the rule table)",
    "with_solution": "--with-solution", "dedupe": "--dedupe", "keep_columns": "--keep-columns",
    "where": "--where", "min_level": "--min-level", "max_level": "--max-level",
}


def resume_settings(inputs: Iterable[str], input_format: str, box: str | None,
                    column: str | None, hierarchy: Hierarchy, with_solution: bool,
                    dedupe: bool, keep_columns: bool, where: str | None,
                    min_level: int | None, max_level: int | None) -> dict[str, Any]:
    """The settings that decide what a run writes (see :data:`SETTING_LABELS`)."""
    from .files import input_names

    table = hashlib.blake2b(hierarchy.model_dump_json().encode(), digest_size=8).hexdigest()
    return {"inputs": input_names(inputs), "input_format": input_format, "box": box,
            "column": column, "hierarchy": f"fingerprint {table}",
            "with_solution": with_solution, "dedupe": dedupe, "keep_columns": keep_columns,
            "where": where, "min_level": min_level, "max_level": max_level}


@dataclass
class RunStats:
    read: int = 0
    graded: int = 0
    resumed: int = 0
    interrupted: bool = False
    seconds: float = 0.0
    replaced: int = 0


def run(recs: Iterable[Record], pool: Pool, emit: Callable[[Entry, bool], None],
        *, with_solution: bool = False, window: int = 256,
        cursor: ResumeCursor | None = None,
        progress: Callable[[Entry], None] | None = None) -> RunStats:
    """Grade ``recs`` on ``pool`` and call ``emit(entry, resumed)`` in input order.

    At most ``window`` records are held between reading and emitting.
    An input that fails while it is read (an ``OSError`` or ``ValueError`` from
    ``recs``) stops the reading: every record read before it is still graded
    and emitted, then the error is raised.
    KeyboardInterrupt stops the run cleanly: the results already done are
    emitted (in order, up to the first grid not done), the workers are
    stopped, and the stats say ``interrupted``."""
    stats = RunStats()
    t0 = time.perf_counter()
    flight: deque[Entry] = deque()
    by_index: dict[int, Entry] = {}
    it = iter(recs)
    exhausted = False
    failed: BaseException | None = None  # reading failed: finish what was read, then raise

    def settle(results: list[Result]) -> None:
        for res in results:
            entry = by_index.pop(res["index"], None)
            if entry is not None:
                entry.result = res

    def flush() -> None:
        while flight and flight[0].result is not None:
            e = flight.popleft()
            emit(e, False)
            stats.graded += 1
            if progress is not None:
                progress(e)

    try:
        while True:
            while not exhausted and len(flight) < window and pool.free() > 0:
                try:
                    rec = next(it, None)
                except (OSError, ValueError) as exc:  # e.g. an input that cannot be read
                    rec, failed = None, exc
                if rec is None:
                    exhausted = True
                    break
                stats.read += 1
                if cursor is not None:
                    done, row = cursor.skip(rec)
                    if done:
                        if row is not None:
                            stats.resumed += 1
                            e = Entry(rec.index, rec.line, rec.source, rec.extra, row)
                            emit(e, True)
                            if progress is not None:
                                progress(e)
                        continue
                e = Entry(rec.index, rec.line, rec.source, rec.extra)
                if rec.grid is None:
                    e.result = malformed_result(rec, with_solution)
                else:
                    pool.submit(task_of(rec))
                    by_index[rec.index] = e
                flight.append(e)
                if len(flight) == 1:
                    flush()
            flush()
            if exhausted and not flight:
                break
            if pool.outstanding():
                settle(pool.wait(block=True))
                flush()
    except KeyboardInterrupt:
        stats.interrupted = True
        with contextlib.suppress(Exception, KeyboardInterrupt):
            # results already done (or done within a batch's delay) are kept
            deadline = time.monotonic() + HOLD_SECONDS + 5 * BATCH_SECONDS
            while pool.outstanding() and time.monotonic() < deadline:
                got = pool.wait(block=False)
                settle(got)
                if not got:
                    time.sleep(BATCH_SECONDS / 2)
            flush()
        pool.close(kill=True)
    except BaseException:
        pool.close(kill=True)
        raise
    else:
        pool.close()
    stats.replaced = getattr(pool, "replaced", 0)
    stats.seconds = time.perf_counter() - t0
    if failed is not None and not stats.interrupted:
        raise failed  # every record read before the failure has its result
    return stats


# --------------------------------------------------------------------------- writers


def output_fields(with_solution: bool, extra: Iterable[str] = (),
                  dedupe: bool = False) -> list[str]:
    fields = list(CONTRACT_FIELDS) + (["solution"] if with_solution else [])
    if dedupe:
        fields.append("canonical")
    return fields + [k for k in extra if k not in fields]


def extra_columns(extra: dict[str, str]) -> dict[str, str]:
    """Input columns passed through with ``--keep-columns`` (renamed ``input_X`` when
    they would clash with a field of the contract)."""
    taken = set(CONTRACT_FIELDS) | {"solution", "canonical"}
    return {(f"input_{k}" if k in taken else k): v for k, v in extra.items()}


def csv_row(d: Result) -> dict[str, Any]:
    row = dict(d)
    t = row.get("techniques")
    if isinstance(t, dict):
        row["techniques"] = ";".join(f"{k}={v}" for k, v in t.items())
    return row


class ResultWriter:
    """Writes results as JSON Lines or CSV to a stream, flushing each one."""

    def __init__(self, stream: io.TextIOBase | Any, fmt: str, fields: list[str] | None = None,
                 header: bool = True) -> None:
        self.stream = stream
        self.fmt = fmt
        self.fields = fields
        self.header = header
        self._csv: csv.DictWriter[str] | None = None

    def write(self, d: Result) -> None:
        if self.fmt == "jsonl":
            self.stream.write(json.dumps(d) + "\n")
        else:
            if self._csv is None:
                fields = self.fields or list(d)
                self._csv = csv.DictWriter(self.stream, fieldnames=fields, lineterminator="\n",
                                           extrasaction="ignore")
                if self.header:
                    self._csv.writeheader()
            self._csv.writerow(csv_row(d))
        self.stream.flush()


def existing_csv_header(path: Path) -> list[str] | None:
    if not path.exists() or path.stat().st_size == 0:
        return None
    with path.open("r", encoding="utf-8", errors="replace", newline="") as fh:
        try:
            return next(csv.reader(fh), None)
        except csv.Error:
            return None


# --------------------------------------------------------------------------- selection


def digest(key: str) -> bytes:
    return hashlib.blake2b(key.encode(), digest_size=16).digest()


SORT_KEYS = ("score", "level", "steps", "depth", "seconds", "index")


def sort_key(key: str) -> Callable[[Result], tuple[Any, ...]]:
    """Hardest (or slowest) first; grids without the field last; ties by index."""
    if key == "index":
        return lambda d: (d["index"],)

    def k(d: Result) -> tuple[Any, ...]:
        v = d.get(key)
        return (v is None, -(v or 0), d["index"])

    return k


class TopN:
    """The first ``n`` results by a sort key, in bounded memory."""

    def __init__(self, key: str, n: int | None) -> None:
        self.key = sort_key(key)
        self.n = n
        self.items: list[Result] = []
        self._heap: list[tuple[Any, int, Result]] = []
        self._count = 0

    def add(self, d: Result) -> None:
        if self.n is None:
            self.items.append(d)
            return
        self._count += 1
        k = self.key(d)
        neg = _Neg(k)
        if len(self._heap) < self.n:
            heapq.heappush(self._heap, (neg, self._count, d))
        elif neg > self._heap[0][0]:
            heapq.heapreplace(self._heap, (neg, self._count, d))

    def result(self) -> list[Result]:
        if self.n is None:
            return sorted(self.items, key=self.key)
        return sorted((d for _, _, d in self._heap), key=self.key)


class _Neg:
    """Reverses an ordering (for a max-heap of the smallest keys)."""

    __slots__ = ("k",)

    def __init__(self, k: tuple[Any, ...]) -> None:
        self.k = k

    def __lt__(self, other: _Neg) -> bool:
        return self.k > other.k

    def __gt__(self, other: _Neg) -> bool:
        return self.k < other.k

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Neg) and self.k == other.k

    def __hash__(self) -> int:  # pragma: no cover - not used
        return hash(self.k)


def sort_output_file(path: Path, key: str, top: int | None) -> int:
    """Rewrite an output file sorted by ``key`` (keeping the ``top`` first); returns
    the number of results written.  Atomic: a temporary file is renamed over it."""
    keep = TopN(key, top)
    for d in read_output(path):
        keep.add(d)
    rows = keep.result()
    tmp = path.with_name(path.name + ".sorting")
    is_csv = path.suffix.lower() == ".csv"
    header = existing_csv_header(path) if is_csv else None
    with tmp.open("w", encoding="utf-8", newline="") as fh:
        w = ResultWriter(fh, "csv" if is_csv else "jsonl", header)
        for d in rows:
            w.write(d)
        if is_csv and not rows and header:
            csv.writer(fh, lineterminator="\n").writerow(header)
    os.replace(tmp, path)
    return len(rows)


# --------------------------------------------------------------------------- --where


class WhereError(GraderError, ValueError):
    """A --where expression that cannot be parsed or evaluated."""


_TOKEN = re.compile(r"""\s*(?:
    (?P<num>-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)
  | (?P<str>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
  | (?P<op>==|!=|<=|>=|<|>|=|\(|\)|\[|\]|,)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
)""", re.VERBOSE)

#: --where: the longest number, and the deepest nesting of parentheses, lists
#: and ``not`` (deeper is refused with a message, never a RecursionError).
MAX_NUMBER_CHARS = 100
MAX_WHERE_DEPTH = 50

#: Fields a --where expression can name besides the input's own columns.
WHERE_FIELDS = tuple(CONTRACT_FIELDS) + ("solution", "canonical", "givens", "source")
_MISSING = object()


def _tokens(text: str) -> list[tuple[str, Any]]:
    pos = 0
    out: list[tuple[str, Any]] = []
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise WhereError(f"cannot read {text[pos:].strip()[:20]!r} (at character {pos + 1})")
        pos = m.end()
        kind = m.lastgroup
        val = m.group(kind)  # type: ignore[arg-type]
        if kind == "num":
            if len(val) > MAX_NUMBER_CHARS:
                raise WhereError(f"number too long: {val[:20]}... (at character {m.start() + 1})")
            out.append(("lit", float(val) if any(c in val for c in ".eE") else int(val)))
        elif kind == "str":
            body = val[1:-1]
            out.append(("lit", re.sub(r"\\(.)", r"\1", body)))
        elif kind == "name":
            low = val.lower()
            if low in ("and", "or", "not", "in"):
                out.append(("kw", low))
            elif low in ("true", "false"):
                out.append(("lit", low == "true"))
            elif low in ("null", "none"):
                out.append(("lit", None))
            else:
                out.append(("name", val))
        else:
            out.append(("op", "==" if val == "=" else val))
    return out


Getter = Callable[[Result], Any]


def _num(v: Any) -> Any:
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            return v
    return v


def _compare(op: str, x: Any, y: Any) -> bool:
    if op == "in":
        if y is None:
            return False
        try:
            return x in y
        except TypeError:
            return False
    if isinstance(x, (int, float)) != isinstance(y, (int, float)):
        x, y = _num(x), _num(y)
    if op == "==":
        return bool(x == y)
    if op == "!=":
        return bool(x != y)
    if x is None or y is None:
        return False
    try:
        if op == "<":
            return bool(x < y)
        if op == "<=":
            return bool(x <= y)
        if op == ">":
            return bool(x > y)
        return bool(x >= y)
    except TypeError:
        return False


class Where:
    """A small, safe filter language over the result fields (no ``eval``).

    ``rating == "expert"``, ``level >= 9 and depth > 1``,
    ``"x-wing" in techniques``, ``verdict != "ok"``,
    ``rating in ["expert", "very difficult"]``, ``not (score < 50)``.
    Names are result fields (``index line puzzle size verdict message level
    rating score depth steps techniques hardest se se_pattern seconds``, ``givens``,
    ``source``) or the input's extra columns; ``null`` is a missing value."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.pos = 0
        self.depth = 0
        self.columns: frozenset[str] = frozenset()
        if not self.toks:
            raise WhereError("empty expression")
        self.fn = self._or()
        if self.pos != len(self.toks):
            raise WhereError(f"unexpected {self._show(self.toks[self.pos])}")

    @staticmethod
    def _show(tok: tuple[str, Any]) -> str:
        return repr(tok[1])

    def unknown_names(self, columns: Iterable[str]) -> list[str]:
        """The names in the expression that are neither result fields nor among
        ``columns`` (the input's own).  The columns are then known: a record
        without one of them reads it as null."""
        self.columns = frozenset(columns)
        names = [v for k, v in self.toks if k == "name"]
        return [n for n in dict.fromkeys(names)
                if n not in WHERE_FIELDS and n not in self.columns]

    def _deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_WHERE_DEPTH:
            raise WhereError(f"nested too deeply (more than {MAX_WHERE_DEPTH} levels of "
                             f"parentheses, lists or 'not')")

    def _peek(self) -> tuple[str, Any] | None:
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def _take(self, kind: str, val: Any = None) -> bool:
        t = self._peek()
        if t is not None and t[0] == kind and (val is None or t[1] == val):
            self.pos += 1
            return True
        return False

    def _or(self) -> Callable[[Result], bool]:
        parts = [self._and()]
        while self._take("kw", "or"):
            parts.append(self._and())
        if len(parts) == 1:
            return parts[0]
        return lambda d: any(p(d) for p in parts)

    def _and(self) -> Callable[[Result], bool]:
        parts = [self._not()]
        while self._take("kw", "and"):
            parts.append(self._not())
        if len(parts) == 1:
            return parts[0]
        return lambda d: all(p(d) for p in parts)

    def _not(self) -> Callable[[Result], bool]:
        if self._take("kw", "not"):
            self._deeper()
            inner = self._not()
            self.depth -= 1
            return lambda d: not inner(d)
        return self._cmp()

    def _cmp(self) -> Callable[[Result], bool]:
        t = self._peek()
        if t == ("op", "("):
            # a parenthesised condition (a value in parentheses is not needed)
            self.pos += 1
            self._deeper()
            inner = self._or()
            self.depth -= 1
            if not self._take("op", ")"):
                raise WhereError("missing ')'")
            return inner
        left = self._value()
        t = self._peek()
        op: str | None = None
        negate = False
        if t is not None and t[0] == "op" and t[1] in ("==", "!=", "<", "<=", ">", ">="):
            op = t[1]
            self.pos += 1
        elif t == ("kw", "in"):
            op = "in"
            self.pos += 1
        elif t == ("kw", "not") and self.pos + 1 < len(self.toks) \
                and self.toks[self.pos + 1] == ("kw", "in"):
            op, negate = "in", True
            self.pos += 2
        if op is None:
            return lambda d: bool(left(d))
        right = self._value()
        o = op
        if negate:
            return lambda d: not _compare(o, left(d), right(d))
        return lambda d: _compare(o, left(d), right(d))

    def _value(self) -> Getter:
        t = self._peek()
        if t is None:
            raise WhereError(f"the expression ends too early: {self.text!r}")
        self.pos += 1
        kind, val = t
        if kind == "lit":
            return lambda d: val
        if kind == "name":
            name = val

            def get(d: Result) -> Any:
                v = d.get(name, _MISSING)
                if v is _MISSING:
                    if name == "givens":
                        p = d.get("puzzle") or ""
                        return sum(1 for ch in p if ch not in ".0") if d.get("size") else None
                    if name in WHERE_FIELDS or name in self.columns:
                        return None
                    raise WhereError(f"unknown field {name!r} (fields: "
                                     f"{', '.join(WHERE_FIELDS)}, or a column of the input)")
                return v

            return get
        if t == ("op", "["):
            self._deeper()
            items: list[Getter] = []
            if not self._take("op", "]"):
                while True:
                    items.append(self._value())
                    if self._take("op", "]"):
                        break
                    if not self._take("op", ","):
                        raise WhereError("expected ',' or ']' in a list")
            self.depth -= 1
            return lambda d: [g(d) for g in items]
        raise WhereError(f"unexpected {self._show(t)}")

    def __call__(self, d: Result) -> bool:
        return bool(self.fn(d))


# --------------------------------------------------------------------------- summary


@dataclass
class Summary:
    """What a run found, in memory independent of the collection's size."""

    hierarchy: Hierarchy
    slowest_kept: int = 5
    bad_kept: int = 50
    total: int = 0
    resumed: int = 0
    selected: int = 0
    duplicates: int = 0
    filtered: bool = False
    verdicts: Counter[str] = field(default_factory=Counter)
    ratings: Counter[str] = field(default_factory=Counter)
    levels: Counter[int] = field(default_factory=Counter)
    depths: Counter[int] = field(default_factory=Counter)
    techniques: Counter[str] = field(default_factory=Counter)
    steps: Counter[str] = field(default_factory=Counter)
    bad: list[tuple[str, int | None, int, str, str | None]] = field(default_factory=list)
    bad_count: int = 0
    graded_seconds: float = 0.0
    _slow: list[tuple[float, int, int | None, str, str | None]] = field(default_factory=list)

    def add(self, d: Result, source: str = "", resumed: bool = False) -> None:
        self.total += 1
        if resumed:
            self.resumed += 1
        v = d.get("verdict") or "error"
        self.verdicts[v] += 1
        secs = float(d.get("seconds") or 0.0)
        if not resumed:
            self.graded_seconds += secs
        if v == "ok":
            self.ratings[d.get("rating") or "?"] += 1
            lvl = d.get("level")
            self.levels[int(lvl) if lvl is not None else -1] += 1
            self.depths[int(d.get("depth") or 0)] += 1
            for code, k in (d.get("techniques") or {}).items():
                self.techniques[code] += 1
                self.steps[code] += int(k)
        else:
            self.bad_count += 1
            if len(self.bad) < self.bad_kept:
                self.bad.append((source, d.get("line"), int(d["index"]), v, d.get("message")))
        item = (secs, -int(d["index"]), d.get("line"), source, d.get("rating") or v)
        if len(self._slow) < self.slowest_kept:
            heapq.heappush(self._slow, item)
        elif item > self._slow[0]:
            heapq.heapreplace(self._slow, item)

    @property
    def slowest(self) -> list[tuple[float, int, int | None, str, str | None]]:
        return [(s, -i, ln, src, r) for s, i, ln, src, r in sorted(self._slow, reverse=True)]

    def rating_rows(self) -> list[tuple[str, int]]:
        names = list(self.hierarchy.rating_names)
        rows = [(name, self.ratings.get(name, 0)) for name in names]
        rows += [(k, c) for k, c in self.ratings.items() if k not in names]
        return rows

    def level_rows(self) -> list[tuple[int, int]]:
        top = max([self.hierarchy.max_level, *self.levels]) if self.levels else \
            self.hierarchy.max_level
        return [(lvl, self.levels.get(lvl, 0)) for lvl in range(0, top + 1)]

    def technique_rows(self) -> list[tuple[str, str, int, int, int]]:
        rows = []
        known = set()
        for spec in self.hierarchy.ordered():
            known.add(spec.code)
            rows.append((spec.code, spec.name, spec.level, self.techniques.get(spec.code, 0),
                         self.steps.get(spec.code, 0)))
        for code, k in self.techniques.items():
            if code not in known:
                rows.append((code, code, 0, k, self.steps.get(code, 0)))
        return rows

    def render(self, stats: RunStats | None = None, jobs: int | None = None,
               width: int = 30) -> Any:
        """A rich renderable: counts, histograms drawn as bars, techniques, slowest."""
        from rich.console import Group
        from rich.table import Table
        from rich.text import Text

        parts: list[Any] = []
        head = Text()
        head.append(f"{self.total} grids", style="bold")
        if self.resumed:
            head.append(f" ({self.resumed} from the earlier run, {self.total - self.resumed} "
                        f"graded now)")
        if stats is not None:
            now = self.total - self.resumed
            rate = now / stats.seconds if stats.seconds > 0 else 0.0
            head.append(f" · {stats.seconds:.1f} s · {rate:.1f} grids/s")
            if jobs:
                head.append(f" · {jobs} job{'s' if jobs != 1 else ''}")
            if stats.interrupted:
                head.append(" · interrupted", style="bold yellow")
        if self.filtered:
            head.append(f"\n{self.selected} selected")
            if self.duplicates:
                head.append(f", {self.duplicates} duplicates dropped")
        parts.append(head)

        def bars(title: str, rows: list[tuple[str, int]]) -> Table:
            t = Table(title=title, title_justify="left", box=None, pad_edge=False,
                      show_header=False)
            t.add_column(justify="left")
            t.add_column(justify="right")
            t.add_column(justify="right", style="dim")
            t.add_column(justify="left")
            top = max((c for _, c in rows), default=0)
            tot = sum(c for _, c in rows) or 1
            for label, c in rows:
                n = 0 if top == 0 else round(width * c / top)
                bar = "█" * n if n or c == 0 else "▏"
                t.add_row(Text(label), str(c), f"{100 * c / tot:.1f}%", Text(bar, style="cyan"))
            return t

        parts.append(bars("verdicts", [(v, c) for v, c in sorted(
            self.verdicts.items(), key=lambda kv: (kv[0] != "ok", -kv[1], kv[0]))]))
        if self.ratings:
            parts.append(bars("ratings", self.rating_rows()))
            parts.append(bars("levels", [(str(lv), c) for lv, c in self.level_rows()]))
            if any(d > 1 for d in self.depths):
                parts.append(bars("trial depth", [(str(d), c) for d, c in
                                                  sorted(self.depths.items())]))
            t = Table(title="techniques (grids needing each)", title_justify="left", box=None,
                      pad_edge=False)
            t.add_column("level", justify="right")
            t.add_column("technique")
            t.add_column("grids", justify="right")
            t.add_column("%", justify="right", style="dim")
            t.add_column("steps", justify="right", style="dim")
            ok = self.verdicts.get("ok", 0) or 1
            for _, name, lvl, k, s in self.technique_rows():
                if k:
                    t.add_row(str(lvl), name, str(k), f"{100 * k / ok:.1f}", str(s))
            parts.append(t)
        if self._slow:
            t = Table(title="slowest grids", title_justify="left", box=None, pad_edge=False)
            t.add_column("#", justify="right")
            t.add_column("where")
            t.add_column("seconds", justify="right")
            t.add_column("rating / verdict")
            for secs, i, ln, src, r in self.slowest:
                t.add_row(str(i), Text(f"{src}:{ln}" if ln else src), f"{secs:.3f}",
                          Text(r or ""))
            parts.append(t)
        if self.bad_count:
            t = Table(title=f"grids not ok ({self.bad_count})", title_justify="left", box=None,
                      pad_edge=False)
            t.add_column("#", justify="right")
            t.add_column("where")
            t.add_column("verdict", style="red")
            t.add_column("message")
            for src, ln, i, v, msg in self.bad:
                t.add_row(str(i), Text(f"{src}:{ln}" if ln else src), Text(v), Text(msg or ""))
            parts.append(t)
            if self.bad_count > len(self.bad):
                parts.append(Text(f"... and {self.bad_count - len(self.bad)} more: "
                                  f"--where 'verdict != \"ok\"' lists them all", style="dim"))
        return Group(*[p for part in parts for p in (part, Text(""))][:-1])

    def plot(self, path: Path) -> None:
        """Histograms of ratings, levels and technique usage as a PNG (matplotlib)."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, 3, figsize=(16, 5))
        rr = self.rating_rows()
        axes[0].bar([r for r, _ in rr], [c for _, c in rr], color="#4477aa")
        axes[0].set_title("ratings")
        axes[0].tick_params(axis="x", rotation=30)
        lr = self.level_rows()
        axes[1].bar([str(lv) for lv, _ in lr], [c for _, c in lr], color="#66ccee")
        axes[1].set_title("levels")
        axes[1].set_xlabel("level")
        tr = [(name, k) for _, name, _, k, _ in self.technique_rows() if k]
        axes[2].barh([n for n, _ in tr][::-1], [k for _, k in tr][::-1], color="#228833")
        axes[2].set_title("grids needing each technique")
        for ax in axes[:2]:
            ax.set_ylabel("grids")
        fig.suptitle(f"{self.total} grids ({self.verdicts.get('ok', 0)} ok)")
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)
