"""Solving grids with an exact engine, as the ``solve`` command does it, as a
library: the command parses its options into a :class:`SolveOptions` and hands
it here.

>>> from grader.exact.solving import SolveOptions, solve_inputs
>>> run = solve_inputs(SolveOptions(engine="native"), ["3 " + "0" * 80 + "1"])
>>> [o.verdict for o in run.outcomes]
['multiple-solutions']

:func:`solve_record` is one grid's verdict; :func:`solve_inputs` a whole run
(with the output files of ``--output`` and ``--output-pretty``);
:func:`compare` runs several engines on the same grids; :func:`report_line`,
:func:`summary` and :meth:`Outcome.to_dict` are what standard output and
standard error show.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import IO, Any

from grader.core.board import Board
from grader.exact.base import EngineError, EngineResult, ExactEngine, is_solution
from grader.exact.cnf import encode
from grader.exact.render import draw, in_record_format, token
from grader.formats import Record, iter_sources

#: default --limit for --count and --all
COUNT_LIMIT = 1000


@dataclass(frozen=True)
class SolveOptions:
    """What ``solve`` is asked, typed (the command's options, parsed)."""

    engine: str = "native"
    #: ``--count``: count the solutions; ``--all`` (``listing``): list them
    count: bool = False
    listing: bool = False
    #: stop after this many solutions (None: 2, or :data:`COUNT_LIMIT` when counting)
    limit: int | None = None
    #: seconds per grid (None: no limit)
    time_limit: float | None = None
    input_format: str = "auto"
    box: tuple[int, int] | None = None
    column: str | None = None
    # the sat engine
    sat_solver: str | None = None
    encoding: str = "classic"
    fresh_solver: bool = False
    # the csp engine
    csp_model: str = "dual"
    ac3_queue: str = "targeted"
    trace: bool = False

    @property
    def solution_limit(self) -> int:
        if self.limit is not None:
            return self.limit
        return COUNT_LIMIT if (self.count or self.listing) else 2

    def engine_options(self, name: str) -> dict[str, Any]:
        """The options of engine ``name`` (those of the other engines are ignored)."""
        if name == "sat":
            opts: dict[str, Any] = {"encoding": self.encoding,
                                    "incremental": not self.fresh_solver}
            if self.sat_solver:
                opts["solver"] = self.sat_solver
            return opts
        if name == "csp":
            return {"model": self.csp_model, "queue": self.ac3_queue, "trace": self.trace}
        return {}

    def build(self, name: str | None = None) -> ExactEngine:
        """The engine (``name``, else :attr:`engine`) with its options
        (:class:`EngineError` when it cannot be built)."""
        from grader.exact import get_engine

        name = self.engine if name is None else name
        return get_engine(name, **self.engine_options(name.lower()))

    def records(self, inputs: Iterable[str]) -> Iterator[Record]:
        return iter_sources(inputs, self.input_format, self.box, self.column)


@dataclass
class Outcome:
    """One grid solved by one engine."""

    rec: Record
    verdict: str
    message: str | None
    result: EngineResult | None
    seconds: float

    @property
    def count(self) -> int | None:
        return None if self.result is None else self.result.count

    def to_dict(self, engine: str, listing: bool) -> dict[str, Any]:
        rec = self.rec
        d: dict[str, Any] = {
            "index": rec.index, "line": rec.line,
            "puzzle": rec.grid.normalised() if rec.grid else rec.text,
            "size": rec.grid.size if rec.grid else None, "engine": engine,
            "verdict": self.verdict, "message": self.message, "count": self.count,
            "complete": None if self.result is None else self.result.complete,
        }
        sols = self.result.solutions if self.result else ()
        if rec.grid is not None:
            if listing:
                d["solutions"] = [token(rec.grid.geo, s) for s in sols]
            else:
                d["solution"] = (token(rec.grid.geo, sols[0])
                                 if sols and self.verdict == "ok" else None)
        d["seconds"] = round(self.seconds, 6)
        if self.result is not None:
            d["stats"] = {k: v for k, v in self.result.stats.items()}
        return d


def solve_record(engine: ExactEngine, rec: Record, limit: int = 2,
                 time_limit: float | None = None) -> Outcome:
    """The verdict of one grid by one engine, as in the core: malformed,
    contradiction (a given repeated in a region, named), no-solution,
    multiple-solutions, ok; and timeout when the time limit cut the search."""
    t0 = time.perf_counter()
    if rec.grid is None:
        return Outcome(rec, "malformed", rec.error, None, 0.0)
    grid = rec.grid
    dup = Board.from_values(grid.geo, grid.values).conflicts()
    if dup is not None:
        return Outcome(rec, "contradiction", dup.reason, None, time.perf_counter() - t0)
    try:
        res = engine.solve(grid.geo, grid.values, limit, time_limit)
    except EngineError as e:
        return Outcome(rec, "error", str(e), None, time.perf_counter() - t0)
    secs = time.perf_counter() - t0
    bad = [s for s in res.solutions if not is_solution(grid.geo, grid.values, s)]
    if bad:  # never expected: every engine's answer is checked independently
        return Outcome(rec, "error", f"engine {engine.name!r} returned an invalid solution",
                       res, secs)
    if res.timed_out and res.count < min(limit, 2):
        what = "a solution was found but uniqueness" if res.count else "the search"
        return Outcome(rec, "timeout", f"{what} was not settled within the time limit "
                       f"({time_limit:g} s)", res, secs)
    if res.count == 0:
        return Outcome(rec, "no-solution", "the givens admit no solution", res, secs)
    if res.count > 1:
        more = "at least " if res.count >= limit or res.timed_out else ""
        why = " (time limit reached while counting)" if res.timed_out else ""
        return Outcome(rec, "multiple-solutions",
                       f"the grid has {more}{res.count} solutions{why}", res, secs)
    return Outcome(rec, "ok", None, res, secs)


def all_good(outcomes: Sequence[Outcome], opts: SolveOptions) -> bool:
    """The exit status's question: every grid ok (with ``--count`` or
    ``--all``: every count exact, cut neither by the time limit nor ``--limit``)."""
    if opts.count or opts.listing:
        lim = opts.solution_limit
        return all(o.result is not None and o.result.complete and o.result.count < lim
                   for o in outcomes)
    return all(o.verdict == "ok" for o in outcomes)


# -- what a run writes -------------------------------------------------------------
def solution_text(o: Outcome) -> str | None:
    if o.result is None or o.rec.grid is None or not o.result.solutions:
        return None
    return in_record_format(o.rec, o.result.solutions[0])


def comment(o: Outcome) -> str:
    return f"# grid {o.rec.index} (line {o.rec.line}): {o.verdict}: {o.message or ''}".rstrip()


def write_outputs(o: Outcome, listing: bool, fh: IO[str] | None,
                  fh_pretty: IO[str] | None) -> None:
    """One grid into the ``--output`` file (the input's own format; a comment
    when there is no unique solution) and the ``--output-pretty`` file (drawn)."""
    sols: tuple[tuple[int, ...], ...] = ()
    if o.result is not None and (o.verdict == "ok" or listing):
        sols = o.result.solutions if listing else o.result.solutions[:1]
    if fh is not None:
        if sols:
            for s in sols:
                fh.write(in_record_format(o.rec, s) + "\n")
        else:
            fh.write(comment(o) + "\n")
        if o.rec.format == "block":
            fh.write("\n")
    if fh_pretty is not None:
        fh_pretty.write(f"# grid {o.rec.index} (line {o.rec.line}): {o.verdict}\n")
        if sols and o.rec.grid is not None:
            for s in sols:
                fh_pretty.write(draw(o.rec.grid.geo, s) + "\n")
        elif o.message:
            fh_pretty.write(f"# {o.message}\n")
        fh_pretty.write("\n")


def report_line(o: Outcome, count: bool) -> str:
    """A grid of a batch on one line: index, line, verdict, (count,) time, solution."""
    secs = f"{o.seconds:9.4f} s"
    head = f"{o.rec.index:>6}  line {o.rec.line:<6} {o.verdict:<19}"
    if count:
        c = "" if o.count is None else str(o.count)
        if o.result is not None and (o.result.timed_out or o.count == o.result.limit):
            c += "+"  # a lower bound
        head += f" {c:>5}"
    body = solution_text(o) if o.verdict == "ok" else (o.message or "")
    if count and o.verdict == "multiple-solutions":
        body = ""
    return f"{head} {secs}  {body or ''}".rstrip()


def report_lines(o: Outcome, opts: SolveOptions, pretty: bool) -> str:
    """What standard output shows for a grid of a batch, in the text report."""
    lines = [report_line(o, opts.count or opts.listing)]
    if opts.listing and o.result is not None and o.rec.grid is not None:
        lines += ["        " + in_record_format(o.rec, s) for s in o.result.solutions]
    elif pretty and o.verdict == "ok" and o.result and o.rec.grid:
        lines.append(draw(o.rec.grid.geo, o.result.solutions[0]))
    return "".join(line + "\n" for line in lines)


def summary(engine: str, outcomes: list[Outcome], wall: float) -> str:
    """The run on one line (standard error): verdicts, time, rate."""
    verdicts = Counter(o.verdict for o in outcomes)
    parts = ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items(), key=lambda kv: -kv[1]))
    times = [o.seconds for o in outcomes if o.rec.grid is not None]
    n = len(outcomes)
    rate = n / wall if wall > 0 else 0.0
    tail = ""
    if times:
        tail = (f"; per grid: mean {1000 * statistics.fmean(times):.2f} ms, "
                f"max {1000 * max(times):.1f} ms")
    return f"{n} grids, engine {engine}: {parts} in {wall:.2f} s ({rate:.1f} grids/s{tail})"


# -- a run ---------------------------------------------------------------------------
@dataclass
class SolveRun:
    """The grids of a run, solved in input order, and how long it took."""

    engine: ExactEngine
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0


def solve_inputs(opts: SolveOptions, inputs: Iterable[str],
                 on_outcome: Callable[[Outcome], None] | None = None,
                 engine: ExactEngine | None = None) -> SolveRun:
    """Solve every grid of ``inputs`` (files, ``-``, inline grids), calling
    ``on_outcome`` after each (raises :class:`InputError` for an unreadable
    input, :class:`EngineError` when the engine cannot be built)."""
    return solve_records(opts, opts.records(inputs), on_outcome, engine)


def solve_records(opts: SolveOptions, records: Iterable[Record],
                  on_outcome: Callable[[Outcome], None] | None = None,
                  engine: ExactEngine | None = None) -> SolveRun:
    """Solve ``records`` in order (see :func:`solve_inputs`)."""
    run = SolveRun(engine if engine is not None else opts.build())
    t0 = time.perf_counter()
    for rec in records:
        o = solve_record(run.engine, rec, opts.solution_limit, opts.time_limit)
        run.outcomes.append(o)
        if on_outcome is not None:
            on_outcome(o)
    run.seconds = time.perf_counter() - t0
    return run


# -- comparing engines ----------------------------------------------------------------
def compare_names(items: Iterable[str]) -> list[str]:
    """The engines of ``--compare native,sat`` (repeatable; ``all``), in order,
    once each (:class:`EngineError` for an unknown name or none at all)."""
    from grader.exact import ENGINES

    names: list[str] = []
    for item in items:
        for part in item.split(","):
            p = part.strip().lower()
            if not p:
                continue
            if p == "all":
                names.extend(n for n in ENGINES if n not in names)
            elif p not in ENGINES:
                raise EngineError(f"unknown engine {part!r} in --compare (choose from "
                                  f"{', '.join(ENGINES)}, or all)")
            elif p not in names:
                names.append(p)
    if not names:
        raise EngineError("--compare needs engine names, e.g. --compare native,sat,csp,cp")
    return names


@dataclass
class Comparison:
    """Several engines on the same grids: each one's outcomes and wall time."""

    records: list[Record]
    runs: dict[str, list[Outcome]] = field(default_factory=dict)
    walls: dict[str, float] = field(default_factory=dict)

    def disagreements(self) -> list[tuple[int, str]]:
        """Grids on which engines that finished give different verdicts or solutions."""
        return disagreements(self.runs, len(self.records))


def compare(names: Sequence[str], records: list[Record], opts: SolveOptions,
            on_step: Callable[[str], None] | None = None,
            on_start: Callable[[str], None] | None = None) -> Comparison:
    """Run each engine of ``names`` on ``records`` (``on_start(name)`` once its
    engine is built, ``on_step(name)`` after each grid)."""
    cmp = Comparison(records)
    plain = replace(opts, trace=False)
    for name in names:
        eng = plain.build(name)
        if on_start is not None:
            on_start(name)
        t0 = time.perf_counter()
        outs = []
        for rec in records:
            outs.append(solve_record(eng, rec, opts.solution_limit, opts.time_limit))
            if on_step is not None:
                on_step(name)
        cmp.walls[name] = time.perf_counter() - t0
        cmp.runs[name] = outs
    return cmp


def disagreements(runs: dict[str, list[Outcome]], n: int) -> list[tuple[int, str]]:
    """Grids on which engines that finished give different verdicts or solutions."""
    out_: list[tuple[int, str]] = []
    for i in range(n):
        seen: dict[tuple[str, tuple[tuple[int, ...], ...]], list[str]] = {}
        for name, outs in runs.items():
            o = outs[i]
            if o.verdict == "timeout":
                continue
            sols = o.result.solutions[:1] if (o.result and o.verdict == "ok") else ()
            seen.setdefault((o.verdict, sols), []).append(name)
        if len(seen) > 1:
            detail = "; ".join(f"{'/'.join(v)}: {k[0]}" for k, v in seen.items())
            out_.append((runs[next(iter(runs))][i].rec.index, detail))
    return out_


def encoding_sizes(rec: Record, sep: str = " ") -> list[str]:
    """The size of each SAT encoding of a grid: ``classic V variables, C clauses``
    (``sep`` after the name)."""
    assert rec.grid is not None
    g = rec.grid
    sizes = []
    for k in ("classic", "extended", "reduced"):
        e = encode(g.geo, g.values, k)
        sizes.append(f"{k}{sep}{e.nvars} variables, {e.nclauses} clauses")
    return sizes
