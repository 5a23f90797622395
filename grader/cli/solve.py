"""``solve``: exact solvers (native, sat, csp, cp) for one grid or a batch,
SAT export in DIMACS, and engine comparison."""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import IO, Annotated, Any

import typer
from rich.table import Table

from ..board import Board
from ..engines import ENGINES, EngineError, EngineResult, ExactEngine, get_engine, is_solution
from ..engines.render import draw, draw_rich, in_record_format
from ..files import OutputError, check_output_not_input, plot_path_problem
from ..formats import InputError, Record, check_sources
from ..formats import iter_sources as records
from .common import EXIT_NOT_OK, EXIT_OK, InputFormat, box_option, err, fail, out
from .options import (
    BoxOpt,
    Color,
    ColorOpt,
    ColumnOpt,
    InputFormatOpt,
    OverwriteOpt,
    QuietOpt,
    TimeLimitOpt,
    VersionOpt,
    check_output,
)


class ReportFormat(StrEnum):
    text = "text"
    jsonl = "jsonl"


class Encoding(StrEnum):
    classic = "classic"
    extended = "extended"
    reduced = "reduced"


class CspModel(StrEnum):
    dual = "dual"
    primal = "primal"


class Ac3Queue(StrEnum):
    targeted = "targeted"
    textbook = "textbook"


_ENGINE_HELP = "; ".join(f"{k}: {v}" for k, v in ENGINES.items())
#: default --limit for --count and --all
COUNT_LIMIT = 1000


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
            from ..engines.render import token

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


def _engine_options(name: str, sat_solver: str | None, encoding: Encoding,
                    fresh_solver: bool, csp_model: CspModel, ac3_queue: Ac3Queue,
                    trace: bool) -> dict[str, Any]:
    if name == "sat":
        opts: dict[str, Any] = {"encoding": encoding.value, "incremental": not fresh_solver}
        if sat_solver:
            opts["solver"] = sat_solver
        return opts
    if name == "csp":
        return {"model": csp_model.value, "queue": ac3_queue.value, "trace": trace}
    return {}


def _build(name: str, **opts: Any) -> ExactEngine:
    try:
        return get_engine(name, **opts)
    except EngineError as e:
        fail(str(e))


def _open_out(path: Path | None) -> IO[str] | None:
    if path is None:
        return None
    try:
        return path.open("w", encoding="utf-8")
    except OSError as e:
        fail(f"{path}: cannot write: {e.strerror or e}")


def _solution_text(o: Outcome) -> str | None:
    if o.result is None or o.rec.grid is None or not o.result.solutions:
        return None
    return in_record_format(o.rec, o.result.solutions[0])


def _comment(o: Outcome) -> str:
    return f"# grid {o.rec.index} (line {o.rec.line}): {o.verdict}: {o.message or ''}".rstrip()


def _write_outputs(o: Outcome, listing: bool, fh: IO[str] | None, fh_pretty: IO[str] | None
                   ) -> None:
    sols: tuple[tuple[int, ...], ...] = ()
    if o.result is not None and (o.verdict == "ok" or listing):
        sols = o.result.solutions if listing else o.result.solutions[:1]
    if fh is not None:
        if sols:
            for s in sols:
                fh.write(in_record_format(o.rec, s) + "\n")
        else:
            fh.write(_comment(o) + "\n")
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


def _print_single(o: Outcome, count: bool, listing: bool, pretty: bool, limit: int) -> None:
    """One grid: the solution (or solutions, or their number) on standard output;
    verdicts other than ok on standard error."""
    rec = o.rec
    res = o.result
    if o.verdict != "ok" and not ((count or listing) and res is not None):
        if count and o.verdict == "contradiction":
            out.print("0 solutions")
        where = "" if rec.source == "<argument>" else f"{rec.source}, line {rec.line}: "
        err.print(f"{where}{o.verdict}: {o.message}", markup=False, highlight=False)
        return
    assert res is not None and rec.grid is not None
    n = res.count
    word = "solution" if n == 1 else "solutions"
    if res.timed_out:
        what = f"at least {n} {word} (time limit reached)"
    elif n >= limit and (count or listing):
        what = f"at least {n} {word} (stopped at --limit {limit})"
    else:
        what = f"{n} {word}"
    if count:
        out.print(what)
        return
    sols = res.solutions if listing else res.solutions[:1]
    for k, s in enumerate(sols):
        if pretty:
            if listing:
                out.print(f"solution {k + 1}", style="bold")
            out.print(draw_rich(rec.grid.geo, s, rec.grid.values))
        else:
            out.print(in_record_format(rec, s), markup=False, highlight=False)
    if listing:
        err.print(what, markup=False, highlight=False)


def _report_line(o: Outcome, count: bool) -> str:
    secs = f"{o.seconds:9.4f} s"
    head = f"{o.rec.index:>6}  line {o.rec.line:<6} {o.verdict:<19}"
    if count:
        c = "" if o.count is None else str(o.count)
        if o.result is not None and (o.result.timed_out or o.count == o.result.limit):
            c += "+"  # a lower bound
        head += f" {c:>5}"
    body = _solution_text(o) if o.verdict == "ok" else (o.message or "")
    if count and o.verdict == "multiple-solutions":
        body = ""
    return f"{head} {secs}  {body or ''}".rstrip()


class _Progress:
    """A transient progress bar on standard error (terminals only)."""

    def __init__(self, enabled: bool, label: str) -> None:
        self.bar = None
        self.done = 0
        self.t0 = time.perf_counter()
        self.last = 0.0
        if enabled:
            from rich.progress import Progress, SpinnerColumn, TextColumn

            self.bar = Progress(SpinnerColumn(), TextColumn(label),
                                TextColumn("[bold]{task.fields[n]}[/] grids"),
                                TextColumn("{task.fields[rate]} grids/s"), console=err,
                                transient=True)
            self.task = self.bar.add_task(label, total=None, n=0, rate="-")
            self.bar.start()

    def step(self) -> None:
        self.done += 1
        if self.bar is None:
            return
        now = time.perf_counter()
        if now - self.last >= 0.1:
            self.last = now
            rate = self.done / max(now - self.t0, 1e-9)
            self.bar.update(self.task, n=self.done, rate=f"{rate:.1f}")

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _summary(engine: str, outcomes: list[Outcome], wall: float) -> str:
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


def solve_command(
    inputs: Annotated[list[str], typer.Argument(
        metavar="FILE|GRID|-",
        help="Files of grids (any format: one per line, \"N T\", blocks, CSV, JSON Lines), "
             "'-' for standard input, or a grid itself.", show_default=False)],
    engine: Annotated[str, typer.Option(
        "--engine", "-e", metavar="NAME",
        help=f"Exact solver. {_ENGINE_HELP}.")] = "native",
    pretty: Annotated[bool, typer.Option(
        "--pretty", help="Draw the solved grid (givens bold) instead of one line.")] = False,
    count: Annotated[bool, typer.Option(
        "--count", help="Count the solutions (up to --limit).")] = False,
    all_: Annotated[bool, typer.Option(
        "--all", help="List every solution (up to --limit).")] = False,
    limit: Annotated[int | None, typer.Option(
        "--limit", min=1, metavar="N",
        show_default=f"2 to decide uniqueness, {COUNT_LIMIT} with --count "
        "or --all", help="Stop after this many solutions.")] = None,
    time_limit: TimeLimitOpt = None,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", metavar="FILE", show_default="none",
        help="Write the solutions to FILE in the input's own format (\"N T\" lines stay "
             "\"N T\", a line keeps its id and comment); a grid without a unique solution "
             "becomes a '# grid K (line L): verdict' comment.")] = None,
    output_pretty: Annotated[Path | None, typer.Option(
        "--output-pretty", metavar="FILE", show_default="none",
        help="Write the solutions to FILE as drawn grids.")] = None,
    overwrite: OverwriteOpt = False,
    report: Annotated[ReportFormat, typer.Option(
        "--format", "-f",
        help="For several grids, what standard output shows: text (one line per grid: "
             "index, line, verdict, time, solution) or jsonl.")] = ReportFormat.text,
    input_format: InputFormatOpt = InputFormat.auto,
    box: BoxOpt = None,
    column: ColumnOpt = None,
    stats: Annotated[bool, typer.Option(
        "--stats", help="Print the engine's figures (nodes, conflicts, variables and clauses "
        "of each SAT encoding, ...) on standard error.")] = False,
    quiet: QuietOpt = False,
    sat_solver: Annotated[str | None, typer.Option(
        "--sat-solver", metavar="NAME", rich_help_panel="sat engine",
        help="PySAT solver: cadical153 (default), glucose4, minisat22, lingeling, "
             "maplesat, ... (glucose and minisat can be interrupted by --time-limit "
             "during a call, CaDiCaL between conflict-budget slices).")] = None,
    encoding: Annotated[Encoding, typer.Option(
        "--encoding", rich_help_panel="sat engine",
        help="classic: a variable per cell and value, at least one and at most one value "
             "per cell, each value at most once per row, column and block, givens as unit "
             "clauses; extended: classic plus each value at least once per row, column and "
             "block; reduced: givens simplified away before encoding.")] = Encoding.classic,
    fresh_solver: Annotated[bool, typer.Option(
        "--fresh-solver", rich_help_panel="sat engine",
        help="Load a new SAT solver for every grid (default: one solver per grid size, "
             "givens passed as assumptions).")] = False,
    dimacs: Annotated[Path | None, typer.Option(
        "--dimacs", metavar="FILE", rich_help_panel="sat engine",
        help="Write the grid's CNF (--encoding) in DIMACS format, with a comment header "
             "mapping each variable to (row, column, value), and do not solve.  Several "
             "grids: FILE-1.cnf, FILE-2.cnf, ...")] = None,
    csp_model: Annotated[CspModel, typer.Option(
        "--csp-model", rich_help_panel="csp engine",
        help="primal: cells with x != y between peers; dual: plus the position of each "
             "value in each region, channelled to the cells (finds hidden singles).")
    ] = CspModel.dual,
    ac3_queue: Annotated[Ac3Queue, typer.Option(
        "--ac3-queue", rich_help_panel="csp engine",
        help="textbook: re-queue every arc into a variable whose domain shrank; targeted: "
             "only the arcs that can now remove a value (same result, fewer revisions).")
    ] = Ac3Queue.targeted,
    trace: Annotated[Path | None, typer.Option(
        "--trace", metavar="FILE.png", rich_help_panel="csp engine",
        help="Plot the AC-3 queue length over the run of one grid (needs matplotlib).")
    ] = None,
    compare: Annotated[list[str] | None, typer.Option(
        "--compare", metavar="ENGINE,...", rich_help_panel="Comparing engines",
        help="Time several engines on the same grids and print a table (grids/s, verdicts, "
             "agreement): --compare native,sat,csp,cp (or 'all'; may be repeated).")] = None,
    plot: Annotated[Path | None, typer.Option(
        "--plot", metavar="FILE.png", rich_help_panel="Comparing engines",
        help="With --compare: draw the time each engine needs per grid (sorted).")] = None,
    color: ColorOpt = Color.auto,
    version: VersionOpt = None,
) -> None:
    """Solve Sudoku grids exactly with an interchangeable engine (native, sat, csp, cp).

    One grid: its solution on standard output, in the input's own format (or
    drawn with --pretty); --count and --all count or list its solutions.  Several
    grids: one line per grid (index, line, verdict, seconds, solution) and a
    summary; --output and --output-pretty write the solutions to files.

    Exit status: 0 when every grid has exactly one solution (with --count or
    --all: when every count is exact, neither --limit nor --time-limit stopped
    it), 1 otherwise, 2 on a usage error or an unreadable file."""
    bx = box_option(box)
    listing = all_
    lim = limit if limit is not None else (COUNT_LIMIT if (count or all_) else 2)
    if count and all_:
        fail("--count and --all do not go together (--all also says how many it found)")
    if plot is not None and not compare:
        fail("--plot goes with --compare")
    if trace is not None and engine != "csp" and not compare:
        fail("--trace plots the AC-3 queue of the csp engine: add --engine csp")
    for opt, pic in (("--plot", plot), ("--trace", trace)):
        problem = plot_path_problem(pic) if pic is not None else None
        if problem:
            fail(f"{opt} {pic}: {problem}")
    try:  # every input readable, no output that is an input: before any work
        check_sources(inputs)
        check_output_not_input(inputs, [output, output_pretty, dimacs, trace, plot],
                               stdout_is_output=True)
    except (InputError, OutputError) as e:
        fail(str(e))
    names = _compare_names(compare) if compare else None
    check_output(output, overwrite)
    check_output(output_pretty, overwrite, "--output-pretty")
    opts = _engine_options(engine.lower(), sat_solver, encoding, fresh_solver, csp_model,
                           ac3_queue, trace is not None)
    if dimacs is not None:
        _dimacs(inputs, input_format.value, bx, column, dimacs, encoding.value)
        return
    if names is not None:
        _compare(names, inputs, input_format.value, bx, column, lim, time_limit, plot,
                 sat_solver, encoding, fresh_solver, csp_model, ac3_queue, quiet)
        return
    eng = _build(engine, **opts)
    fh = _open_out(output)
    fh_pretty = _open_out(output_pretty)
    outcomes: list[Outcome] = []
    try:
        it = records(inputs, input_format.value, bx, column)
        first = list(_take(it, 2))
        single = len(first) == 1
        if not first:
            fail(f"no grid found in {', '.join(inputs)}")
        if trace is not None and not single:
            fail("--trace plots the run of one grid: give a single grid")
        progress = _Progress(not quiet and not single and err.is_terminal
                             and not out.is_terminal,
                             f"solving ({eng.name})")
        t0 = time.perf_counter()
        try:
            for rec in _chain(first, it):
                o = solve_record(eng, rec, lim, time_limit)
                outcomes.append(o)
                _write_outputs(o, listing, fh, fh_pretty)
                if single:
                    continue
                if report is ReportFormat.jsonl:
                    sys.stdout.write(json.dumps(o.to_dict(eng.name, listing)) + "\n")
                else:
                    sys.stdout.write(_report_line(o, count or listing) + "\n")
                    if listing and o.result is not None and o.rec.grid is not None:
                        for s in o.result.solutions:
                            sys.stdout.write("        " + in_record_format(o.rec, s) + "\n")
                    elif pretty and o.verdict == "ok" and o.result and o.rec.grid:
                        sys.stdout.write(draw(o.rec.grid.geo, o.result.solutions[0]) + "\n")
                sys.stdout.flush()
                progress.step()
        finally:
            progress.stop()
        wall = time.perf_counter() - t0
    except InputError as e:
        fail(str(e))
    except KeyboardInterrupt:
        err.print(f"interrupted after {len(outcomes)} grids")
        raise typer.Exit(130) from None
    finally:
        for f in (fh, fh_pretty):
            if f is not None:
                f.close()
    if single:
        _print_single(outcomes[0], count, listing, pretty, lim)
    elif not quiet:
        err.print(_summary(eng.name, outcomes, wall), markup=False, highlight=False)
    if stats:
        _print_stats(eng, outcomes)
    if trace is not None:
        _plot_trace(eng, outcomes[0], trace)
    if count or listing:  # an exact count: not cut by the time limit nor by --limit
        good = all(o.result is not None and o.result.complete and o.result.count < lim
                   for o in outcomes)
    else:
        good = all(o.verdict == "ok" for o in outcomes)
    raise typer.Exit(EXIT_OK if good else EXIT_NOT_OK)


def _take(it: Iterator[Record], k: int) -> Iterator[Record]:
    for _ in range(k):
        try:
            yield next(it)
        except StopIteration:
            return


def _chain(first: list[Record], rest: Iterator[Record]) -> Iterator[Record]:
    yield from first
    yield from rest


def _print_stats(eng: ExactEngine, outcomes: list[Outcome]) -> None:
    from ..engines.sat import encode

    for o in outcomes:
        if o.result is None or o.rec.grid is None:
            continue
        figs = ", ".join(f"{k} {v}" for k, v in o.result.stats.items())
        err.print(f"grid {o.rec.index}: {eng.name}: nodes {o.result.nodes}, {figs}, "
                  f"{o.result.seconds:.4f} s", markup=False, highlight=False)
        if eng.name == "sat":
            g = o.rec.grid
            sizes = []
            for kind in ("classic", "extended", "reduced"):
                e = encode(g.geo, g.values, kind)
                sizes.append(f"{kind} {e.nvars} variables, {e.nclauses} clauses")
            err.print(f"grid {o.rec.index}: encodings: " + "; ".join(sizes), markup=False,
                      highlight=False)


def _plot_trace(eng: ExactEngine, o: Outcome, path: Path) -> None:
    from ..engines.csp import CspEngine, plot_trace

    if not isinstance(eng, CspEngine) or eng.last_trace is None:
        fail("no AC-3 trace to plot (the grid was not searched)", EXIT_NOT_OK)
    tr = eng.last_trace
    res = o.result
    title = (f"AC-3 queue, grid {o.rec.index} ({o.rec.grid.size}x{o.rec.grid.size}, "
             f"{eng.model} model): {o.verdict}"
             + (f", {res.nodes} choices" if res else "")) if o.rec.grid else ""
    try:
        plot_trace(tr, path, title)
    except ImportError:
        fail("--trace needs matplotlib (pip install 'sudoku-grader[plot]')")
    except OSError as e:
        fail(f"{path}: cannot write: {e.strerror or e}")
    err.print(f"wrote {path}: {len(tr.queue)} arc revisions, {len(tr.calls)} AC-3 runs, "
              f"{len(tr.failures)} wipe-outs", markup=False, highlight=False)


def _dimacs(inputs: list[str], input_format: str, bx: tuple[int, int] | None,
            column: str | None, path: Path, kind: str) -> None:
    from ..engines.sat import encode

    try:
        recs = list(records(inputs, input_format, bx, column))
    except InputError as e:
        fail(str(e))
    if not recs:
        fail(f"no grid found in {', '.join(inputs)}")
    bad = False
    for rec in recs:
        if rec.grid is None:
            err.print(f"grid {rec.index} (line {rec.line}): malformed: {rec.error}",
                      markup=False)
            bad = True
            continue
        target = path if len(recs) == 1 else path.with_name(
            f"{path.stem}-{rec.index}{path.suffix or '.cnf'}")
        g = rec.grid
        enc = encode(g.geo, g.values, kind)
        try:
            with target.open("w", encoding="ascii") as fh:
                enc.write_dimacs(fh, f"grid {rec.index} of {rec.source}, line {rec.line}")
        except OSError as exc:
            fail(f"{target}: cannot write: {exc.strerror or exc}")
        sizes = []
        for k in ("classic", "extended", "reduced"):
            other = enc if k == kind else encode(g.geo, g.values, k)
            sizes.append(f"{k}: {other.nvars} variables, {other.nclauses} clauses")
        err.print(f"wrote {target} ({kind} encoding); " + "; ".join(sizes), markup=False,
                  highlight=False)
    raise typer.Exit(EXIT_NOT_OK if bad else EXIT_OK)


def _compare_names(compare: list[str]) -> list[str]:
    names: list[str] = []
    for item in compare:
        for part in item.split(","):
            p = part.strip().lower()
            if not p:
                continue
            if p == "all":
                names.extend(n for n in ENGINES if n not in names)
            elif p not in ENGINES:
                fail(f"unknown engine {part!r} in --compare (choose from "
                     f"{', '.join(ENGINES)}, or all)")
            elif p not in names:
                names.append(p)
    if not names:
        fail("--compare needs engine names, e.g. --compare native,sat,csp,cp")
    return names


def _compare(names: list[str], inputs: list[str], input_format: str,
             bx: tuple[int, int] | None, column: str | None, limit: int,
             time_limit: float | None, plot: Path | None, sat_solver: str | None,
             encoding: Encoding, fresh_solver: bool, csp_model: CspModel,
             ac3_queue: Ac3Queue, quiet: bool) -> None:
    try:
        recs = list(records(inputs, input_format, bx, column))
    except InputError as e:
        fail(str(e))
    if not recs:
        fail(f"no grid found in {', '.join(inputs)}")
    runs: dict[str, list[Outcome]] = {}
    walls: dict[str, float] = {}
    for name in names:
        eng = _build(name, **_engine_options(name, sat_solver, encoding, fresh_solver,
                                             csp_model, ac3_queue, False))
        progress = _Progress(not quiet and err.is_terminal, f"{name}")
        t0 = time.perf_counter()
        outs = []
        try:
            for rec in recs:
                outs.append(solve_record(eng, rec, limit, time_limit))
                progress.step()
        except KeyboardInterrupt:
            progress.stop()
            err.print(f"interrupted during {name}")
            raise typer.Exit(130) from None
        progress.stop()
        walls[name] = time.perf_counter() - t0
        runs[name] = outs
    disagree = _disagreements(runs, len(recs))
    table = Table(title=f"{len(recs)} grids from {', '.join(inputs)}"
                  + (f", time limit {time_limit:g} s per grid" if time_limit else ""))
    for col in ("engine", "grids/s", "total s", "mean ms", "max ms", "ok", "not ok",
                "timeout", "agree"):
        table.add_column(col, justify="left" if col in ("engine", "not ok") else "right",
                         no_wrap=col != "not ok")
    for name in names:
        outs = runs[name]
        times = [o.seconds for o in outs if o.rec.grid is not None] or [0.0]
        v = Counter(o.verdict for o in outs)
        other = ", ".join(f"{k} {c}" for k, c in sorted(v.items())
                          if k not in ("ok", "timeout"))
        table.add_row(name, f"{len(outs) / walls[name]:.1f}", f"{walls[name]:.2f}",
                      f"{1000 * statistics.fmean(times):.2f}", f"{1000 * max(times):.1f}",
                      str(v.get("ok", 0)), other or "-", str(v.get("timeout", 0)),
                      "yes" if not disagree else f"{len(disagree)} differ")
    out.print(table)
    for idx, detail in disagree[:10]:
        err.print(f"grid {idx}: engines disagree: {detail}", markup=False)
    if plot is not None:
        _plot_compare(runs, plot, len(recs))
    raise typer.Exit(EXIT_NOT_OK if disagree else EXIT_OK)


def _disagreements(runs: dict[str, list[Outcome]], n: int) -> list[tuple[int, str]]:
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


def _plot_compare(runs: dict[str, list[Outcome]], path: Path, n: int) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("--plot needs matplotlib (pip install 'sudoku-grader[plot]')")
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    for name, outs in runs.items():
        times = sorted(1000 * o.seconds for o in outs if o.verdict != "timeout")
        total = sum(o.seconds for o in outs)
        ax.plot(range(1, len(times) + 1), times, lw=1.4,
                label=f"{name} ({len(outs) / max(total, 1e-9):.1f} grids/s)")
    ax.set_yscale("log")
    ax.set_xlabel(f"grids solved (of {n}), sorted by time")
    ax.set_ylabel("time per grid (ms, log scale)")
    ax.set_title("Exact engines on the same grids")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    try:
        fig.savefig(path)
    except OSError as e:
        fail(f"{path}: cannot write: {e.strerror or e}")
    plt.close(fig)
    err.print(f"wrote {path}", markup=False)
