"""``solve``: exact solvers (native, sat, csp, cp) for one grid or a batch,
SAT export in DIMACS, and engine comparison.

The command parses its options into a :class:`~grader.exact.solving.SolveOptions`
and hands it to :mod:`grader.exact.solving`; what stays here is the
terminal (one grid drawn, the batch report, progress, messages, exit status).
``--compare`` and ``--dimacs`` are in :mod:`grader.cli.solve_tools`."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import IO, Annotated

import typer

from grader.cli.common import (
    EXIT_NOT_OK,
    EXIT_OK,
    box_option,
    err,
    fail,
    out,
    require_extra,
    sigterm_as_interrupt,
)
from grader.cli.options import (
    BoxOpt,
    Color,
    ColorOpt,
    ColumnOpt,
    InputFormatOpt,
    OverwriteOpt,
    QuietOpt,
    SolveSchemaOpt,
    TimeLimitOpt,
    VersionOpt,
    check_output,
    count_limit,
)
from grader.cli.solve_tools import Progress, compare_engines, write_dimacs_files
from grader.core.textsafe import escape_controls
from grader.exact import ENGINES, EngineError, ExactEngine
from grader.exact.render import draw_rich, in_record_format
from grader.exact.solving import (
    COUNT_LIMIT,
    Outcome,
    SolveOptions,
    all_good,
    encoding_sizes,
    report_lines,
    solve_record,
    solve_records,
    summary,
    write_outputs,
)
from grader.formats import InputError, Record, check_sources
from grader.formats.files import (
    OutputError,
    check_output_not_input,
    finish_output,
    open_output,
    plot_path_problem,
)

__all__ = ["COUNT_LIMIT", "Outcome", "SolveOptions", "solve_command", "solve_record"]


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



#: engine -> the optional module it needs (checked before any work)
ENGINE_EXTRAS = {"sat": "pysat", "cp": "ortools"}

_ENGINE_HELP = "; ".join(f"{k}: {v}" for k, v in ENGINES.items())

InputsArg = Annotated[list[str], typer.Argument(
    metavar="FILE|GRID|-",
    help="Files of grids (any format: one per line, \"N T\", blocks, CSV, JSON Lines), "
         "'-' for standard input, or a grid itself.", show_default=False)]
EngineOpt = Annotated[str, typer.Option(
    "--engine", "-e", metavar="NAME", help=f"Exact solver. {_ENGINE_HELP}.")]
PrettyOpt = Annotated[bool, typer.Option(
    "--pretty", help="Draw the solved grid (givens bold) instead of one line.")]
CountOpt = Annotated[bool, typer.Option(
    "--count", help="Count the solutions (up to --limit).")]
AllOpt = Annotated[bool, typer.Option(
    "--all", help="List every solution (up to --limit).")]
LimitOpt = Annotated[int | None, typer.Option(
    "--limit", min=1, metavar="N", callback=count_limit,
    show_default=f"2 to decide uniqueness, {COUNT_LIMIT} with --count "
    "or --all", help="Stop after this many solutions.")]
SolveOutputOpt = Annotated[Path | None, typer.Option(
    "--output", "-o", metavar="FILE", show_default="none",
    help="Write the solutions to FILE in the input's own format (\"N T\" lines stay "
         "\"N T\", a line keeps its id and comment); a grid without a unique solution "
         "becomes a '# grid K (line L): verdict' comment.")]
OutputPrettyOpt = Annotated[Path | None, typer.Option(
    "--output-pretty", metavar="FILE", show_default="none",
    help="Write the solutions to FILE as drawn grids.")]
ReportOpt = Annotated[ReportFormat, typer.Option(
    "--format", "-f",
    help="For several grids, what standard output shows: text (one line per grid: "
         "index, line, verdict, time, solution) or jsonl.")]
StatsOpt = Annotated[bool, typer.Option(
    "--stats", help="Print the engine's figures (nodes, conflicts, variables and clauses "
    "of each SAT encoding, ...) on standard error.")]
SatSolverOpt = Annotated[str | None, typer.Option(
    "--sat-solver", metavar="NAME", rich_help_panel="sat engine",
    help="PySAT solver: cadical153 (default), glucose4, minisat22, lingeling, "
         "maplesat, ... (glucose and minisat can be interrupted by --time-limit "
         "during a call, CaDiCaL between conflict-budget slices).")]
EncodingOpt = Annotated[Encoding, typer.Option(
    "--encoding", rich_help_panel="sat engine",
    help="classic: a variable per cell and value, at least one and at most one value "
         "per cell, each value at most once per row, column and block, givens as unit "
         "clauses; extended: classic plus each value at least once per row, column and "
         "block; reduced: givens simplified away before encoding.")]
FreshSolverOpt = Annotated[bool, typer.Option(
    "--fresh-solver", rich_help_panel="sat engine",
    help="Load a new SAT solver for every grid (default: one solver per grid size, "
         "givens passed as assumptions).")]
DimacsOpt = Annotated[Path | None, typer.Option(
    "--dimacs", metavar="FILE", rich_help_panel="sat engine",
    help="Write the grid's CNF (--encoding) in DIMACS format, with a comment header "
         "mapping each variable to (row, column, value), and do not solve.  Several "
         "grids: FILE-1.cnf, FILE-2.cnf, ...")]
CspModelOpt = Annotated[CspModel, typer.Option(
    "--csp-model", rich_help_panel="csp engine",
    help="primal: cells with x != y between peers; dual: plus the position of each "
         "value in each region, channelled to the cells (finds hidden singles).")]
Ac3QueueOpt = Annotated[Ac3Queue, typer.Option(
    "--ac3-queue", rich_help_panel="csp engine",
    help="textbook: re-queue every arc into a variable whose domain shrank; targeted: "
         "only the arcs that can now remove a value (same result, fewer revisions).")]
TraceOpt = Annotated[Path | None, typer.Option(
    "--trace", metavar="FILE.png", rich_help_panel="csp engine",
    help="Plot the AC-3 queue length over the run of one grid (needs matplotlib).")]
CompareOpt = Annotated[list[str] | None, typer.Option(
    "--compare", metavar="ENGINE,...", rich_help_panel="Comparing engines",
    help="Time several engines on the same grids and print a table (grids/s, verdicts, "
         "agreement): --compare native,sat,csp,cp (or 'all'; may be repeated).")]
PlotOpt = Annotated[Path | None, typer.Option(
    "--plot", metavar="FILE.png", rich_help_panel="Comparing engines",
    help="With --compare: draw the time each engine needs per grid (sorted).")]


def solve_command(
    inputs: InputsArg, engine: EngineOpt = "native", pretty: PrettyOpt = False,
    count: CountOpt = False, all_: AllOpt = False, limit: LimitOpt = None,
    time_limit: TimeLimitOpt = None, output: SolveOutputOpt = None,
    output_pretty: OutputPrettyOpt = None, overwrite: OverwriteOpt = False,
    report: ReportOpt = ReportFormat.text, input_format: InputFormatOpt = "auto",
    box: BoxOpt = None, column: ColumnOpt = None, stats: StatsOpt = False,
    quiet: QuietOpt = False, sat_solver: SatSolverOpt = None,
    encoding: EncodingOpt = Encoding.classic, fresh_solver: FreshSolverOpt = False,
    dimacs: DimacsOpt = None, csp_model: CspModelOpt = CspModel.dual,
    ac3_queue: Ac3QueueOpt = Ac3Queue.targeted, trace: TraceOpt = None,
    compare: CompareOpt = None, plot: PlotOpt = None, color: ColorOpt = Color.auto,
    version: VersionOpt = None, schema: SolveSchemaOpt = None,
) -> None:
    """Solve Sudoku grids exactly with an interchangeable engine (native, sat, csp, cp).

    One grid: its solution on standard output, in the input's own format (or
    drawn with --pretty); --count and --all count or list its solutions.  Several
    grids: one line per grid (index, line, verdict, seconds, solution) and a
    summary; --output and --output-pretty write the solutions to files.

    Exit status: 0 when every grid has exactly one solution (with --count or
    --all: when every count is exact, neither --limit nor --time-limit stopped
    it), 1 otherwise, 2 on a usage error or an unreadable file."""
    opts = SolveOptions(
        engine=engine, count=count, listing=all_, limit=limit, time_limit=time_limit,
        input_format=str(input_format), box=box_option(box), column=column,
        sat_solver=sat_solver, encoding=encoding.value, fresh_solver=fresh_solver,
        csp_model=csp_model.value, ac3_queue=ac3_queue.value, trace=trace is not None)
    _check_usage(opts, inputs, [output, output_pretty, dimacs, trace, plot], plot, trace,
                 compare)
    names = _compare_names(compare) if compare else None
    check_output(output, overwrite)
    check_output(output_pretty, overwrite, "--output-pretty")
    if dimacs is not None:
        write_dimacs_files(opts, inputs, dimacs)
    if names is not None:
        compare_engines(opts, names, inputs, plot, quiet)
    eng = _build(opts)
    outcomes = _solve(opts, eng, inputs, output, output_pretty, report, pretty, quiet,
                      trace is not None)
    if stats:
        _print_stats(eng, outcomes)
    if trace is not None:
        _plot_trace(eng, outcomes[0], trace)
    raise typer.Exit(EXIT_OK if all_good(outcomes, opts) else EXIT_NOT_OK)


def _check_usage(opts: SolveOptions, inputs: list[str], outputs: list[Path | None],
                 plot: Path | None, trace: Path | None, compare: list[str] | None) -> None:
    """Refuse option clashes, unreadable inputs and outputs that are inputs,
    before any work."""
    if opts.count and opts.listing:
        fail("--count and --all do not go together (--all also says how many it found)")
    if plot is not None and not compare:
        fail("--plot goes with --compare")
    if trace is not None and opts.engine != "csp" and not compare:
        fail("--trace plots the AC-3 queue of the csp engine: add --engine csp")
    for opt, pic in (("--plot", plot), ("--trace", trace)):
        problem = plot_path_problem(pic) if pic is not None else None
        if problem:
            fail(f"{opt} {pic}: {problem}")
        if pic is not None:
            require_extra("matplotlib", f"solve {opt}")
    for name in _compare_names(compare) if compare else [opts.engine]:
        if name in ENGINE_EXTRAS:
            require_extra(ENGINE_EXTRAS[name], f"solve --engine {name}")
    try:
        check_sources(inputs)
        check_output_not_input(inputs, outputs, stdout_is_output=True)
    except (InputError, OutputError) as e:
        fail(str(e))


def _compare_names(compare: list[str]) -> list[str]:
    from grader.exact.solving import compare_names

    try:
        return compare_names(compare)
    except EngineError as e:
        fail(str(e))


def _build(opts: SolveOptions) -> ExactEngine:
    try:
        return opts.build()
    except EngineError as e:
        fail(str(e))


def _open_out(path: Path | None) -> IO[str] | None:
    if path is None:
        return None
    try:
        return open_output(path, stream=True)  # a new file fills as the grids are solved
    except OSError as e:
        fail(f"{path}: cannot write: {e.strerror or e}")


def _solve(opts: SolveOptions, eng: ExactEngine, inputs: list[str], output: Path | None,
           output_pretty: Path | None, report: ReportFormat, pretty: bool, quiet: bool,
           trace: bool) -> list[Outcome]:
    """Solve every grid: one grid printed at the end, a batch reported as it goes."""
    fh, fh_pretty = _open_out(output), _open_out(output_pretty)
    outcomes: list[Outcome] = []
    keep = False  # the outputs replace their files when the run ends well (or is interrupted)
    try:
        it = opts.records(inputs)
        first = list(_take(it, 2))
        single = len(first) == 1
        if not first:
            fail(f"no grid found in {', '.join(inputs)}")
        if trace and not single:
            fail("--trace plots the run of one grid: give a single grid")
        progress = Progress(not quiet and not single and err.is_terminal
                            and not out.is_terminal, f"solving ({eng.name})")

        def report_one(o: Outcome) -> None:
            outcomes.append(o)
            write_outputs(o, opts.listing, fh, fh_pretty)
            if single:
                return
            if report is ReportFormat.jsonl:
                sys.stdout.write(json.dumps(o.to_dict(eng.name, opts.listing)) + "\n")
            elif out.is_terminal:  # a comment of the input is never sent to it raw
                sys.stdout.write(escape_controls(report_lines(o, opts, pretty)))
            else:
                sys.stdout.write(report_lines(o, opts, pretty))
            sys.stdout.flush()
            progress.step()

        try:
            with sigterm_as_interrupt():  # kill or a closed terminal: as Ctrl-C
                run = solve_records(opts, _chain(first, it), report_one, eng)
        finally:
            progress.stop()
        keep = True
    except InputError as e:
        fail(str(e))
    except KeyboardInterrupt:
        keep = True  # the grids solved so far, each whole
        err.print(f"interrupted after {len(outcomes)} grids")
        raise typer.Exit(130) from None
    finally:
        for f in (fh, fh_pretty):
            if f is not None:
                finish_output(f, keep)
    if single:
        _print_single(outcomes[0], opts, pretty)
    elif not quiet:
        err.print(summary(eng.name, outcomes, run.seconds), markup=False, highlight=False)
    return outcomes


def _print_single(o: Outcome, opts: SolveOptions, pretty: bool) -> None:
    """One grid: the solution (or solutions, or their number) on standard output;
    verdicts other than ok on standard error."""
    rec, res = o.rec, o.result
    count, listing, limit = opts.count, opts.listing, opts.solution_limit
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
    for o in outcomes:
        if o.result is None or o.rec.grid is None:
            continue
        figs = ", ".join(f"{k} {v}" for k, v in o.result.stats.items())
        err.print(f"grid {o.rec.index}: {eng.name}: nodes {o.result.nodes}, {figs}, "
                  f"{o.result.seconds:.4f} s", markup=False, highlight=False)
        if eng.name == "sat":
            err.print(f"grid {o.rec.index}: encodings: " + "; ".join(encoding_sizes(o.rec)),
                      markup=False, highlight=False)


def _plot_trace(eng: ExactEngine, o: Outcome, path: Path) -> None:
    from grader.exact.csp import CspEngine, plot_trace

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
