"""``grade``: rate grids by the techniques they need.

The command parses its options into a :class:`~grader.bulk.options.GradeOptions`
and hands it to :func:`grader.bulk.grade_collection`; what each option does
is implemented in :mod:`grader.bulk` (see docs/architecture.md)."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from grader.bulk.choices import FORMAT_ALIASES, OUTPUT_FORMATS
from grader.cli.common import (
    choices,
    err,
    fail,
    hierarchy_option,
    listed,
    metavar,
    out,
    renamed,
    sigterm_as_interrupt,
)
from grader.cli.options import (
    BoxOpt,
    Color,
    ColorOpt,
    ColumnOpt,
    DeprecatedTimeoutOpt,
    GradeSchemaOpt,
    HierarchyOpt,
    InputFormatOpt,
    QuietOpt,
    VersionOpt,
    seconds_or_none,
)
from grader.core.fields import WHERE_FIELDS
from grader.strategy.serate.settings import DEFAULT_SE, SE_DEPTHS

if TYPE_CHECKING:
    from grader.bulk.options import GradeOptions

__all__ = ["OutputFormat", "grade_command"]


if TYPE_CHECKING:
    OutputFormat = str
    SeChoice = str
else:  # the choices as grader.bulk declares them, the old names accepted, not listed
    OutputFormat = choices("OutputFormat", OUTPUT_FORMATS, FORMAT_ALIASES)
    SeChoice = choices("SeChoice", SE_DEPTHS)


InputsArg = Annotated[list[str] | None, typer.Argument(
        metavar="FILE|GRID|-",
        help="Files of grids (any format), '-' for standard input, or a grid itself.",
        show_default=False)]

OutputFormatArg = Annotated[OutputFormat | None, typer.Option(
        "--format", "-f", metavar=metavar(OUTPUT_FORMATS), show_default="text on a terminal, "
        "else by the --output file's suffix or text",
        callback=renamed("--format", FORMAT_ALIASES),
        autocompletion=listed(OUTPUT_FORMATS),
        help="text (a table; a panel for one grid), jsonl or csv.")]

ListRulesArg = Annotated[bool, typer.Option(
        "--list-rules",
        help="List the rules of the hierarchy in use (level, family, package, version) "
             "and the rule plugins that failed to load, then exit.")]

StrictArg = Annotated[bool, typer.Option(
        "--strict",
        help="Stop at the first grid whose grading a rule plugin broke (verdict "
             "rule-error), exit status 2; by default that grid gets the verdict and the "
             "run goes on.")]

PropagationArg = Annotated[str | None, typer.Option(
        metavar="all|singles", show_default="the hierarchy's",
        help="What trials apply inside branches: all (every rule below the trials) or "
             "singles.")]

SeArg = Annotated[SeChoice, typer.Option(
        "--se", metavar=metavar(SE_DEPTHS),
        help="How deep `se` searches Sudoku Explainer's nested chains: off (no `se`: "
             "levels and score only, the cheapest), fast (up to the "
             "dynamic forcing chains (+); a position that needs more is rated at the next "
             "level's base, 9.5, and ends the walk) or full (every level, as Sudoku "
             "Explainer 1.2.1 rates: seconds per grid at the top of the scale).")]

WithSolutionArg = Annotated[bool, typer.Option(
        "--with-solution", help="Add the solution to jsonl/csv output.")]

CheckArg = Annotated[bool, typer.Option(
        "--check", help="Debug: check every step against the solution.")]

CheckEngineArg = Annotated[str | None, typer.Option(
        "--check-engine", metavar="NAME",
        help="Exact-solver engine that gives the verdicts (see `solve --help`); default: "
             "the built-in bitmask solver.", rich_help_panel="Checking")]

JobsArg = Annotated[int, typer.Option(
        "--jobs", "-j", min=0, metavar="N", show_default="0 = all cores",
        help="Worker processes grading in parallel (0: one per core).  Results are the same "
             "and in the same order as with one job (except `seconds`).",
        rich_help_panel="Bulk rating")]

TimeLimitArg = Annotated[float | None, typer.Option(
        "--time-limit", metavar="SECONDS", min=0.001, show_default="none",
        callback=seconds_or_none,
        help="Give up on a grid after this long: its verdict is `timeout` (its worker "
             "process is stopped and replaced) and the run goes on (inf: no limit).",
        rich_help_panel="Bulk rating")]

OutputArg = Annotated[Path | None, typer.Option(
        "--output", "-o", metavar="FILE", show_default="standard output",
        help="Write the results to FILE (.jsonl or .csv), one line per grid, flushed as "
             "each grid is done; the summary goes to standard output.",
        rich_help_panel="Bulk rating")]

ResumeArg = Annotated[bool, typer.Option(
        "--resume",
        help="Continue an interrupted run: skip the grids already in --output (checked "
             "by index and puzzle) and append the others.",
        rich_help_panel="Bulk rating")]

OverwriteArg = Annotated[bool, typer.Option(
        "--overwrite", help="Start --output afresh even if it exists.",
        rich_help_panel="Bulk rating")]

SummaryOnlyArg = Annotated[bool, typer.Option(
        "--summary-only", help="Print only the summary, not the results.",
        rich_help_panel="Bulk rating")]

SummaryArg = Annotated[bool | None, typer.Option(
        "--summary/--no-summary", show_default="with tables, --output and --summary-only; "
        "on standard error for jsonl/csv when it is a terminal",
        help="The end summary: counts per verdict, histograms of ratings and levels, "
             "technique usage, slowest grids, throughput.",
        rich_help_panel="Bulk rating")]

PlotArg = Annotated[Path | None, typer.Option(
        "--plot", metavar="FILE.png",
        help="Draw the histograms of ratings, levels and techniques as a picture "
             "(needs matplotlib: the `plot` extra).",
        rich_help_panel="Bulk rating")]

ProgressArg = Annotated[bool | None, typer.Option(
        "--progress/--no-progress", show_default="on a terminal",
        help="A progress bar (grids done, rate, ETA) on standard error.",
        rich_help_panel="Bulk rating")]

WhereArg = Annotated[str | None, typer.Option(
        "--where", metavar="EXPR",
        help="Keep only the results for which EXPR holds, e.g. 'rating == \"expert\"', "
             "'level >= 9 and depth > 1', '\"x-wing\" in techniques', 'verdict != \"ok\"'. "
             f"Fields: {' '.join(WHERE_FIELDS)}, and the input's own columns; "
             "operators == != < <= > >= in, not in, and, or, not, ( ); "
             "strings in quotes, lists in [ ], null.",
        rich_help_panel="Select and sort")]

MinLevelArg = Annotated[int | None, typer.Option(
        "--min-level", min=0, metavar="LEVEL", help="Keep only ok grids of at least this level.",
        rich_help_panel="Select and sort")]

MaxLevelArg = Annotated[int | None, typer.Option(
        "--max-level", min=0, metavar="LEVEL", help="Keep only ok grids of at most this level.",
        rich_help_panel="Select and sort")]

SortArg = Annotated[str | None, typer.Option(
        "--sort", metavar="KEY",
        help="Sort the results, hardest first, by score, level, steps, depth, seconds (or "
             "index).  Sorting needs every result, so nothing is printed until the end: "
             "without --output the selected results are held in memory (bound it with "
             "--top, narrow it with --where); with --output the results are still written "
             "in input order as they come (so --resume works) and the file is sorted in "
             "place when the run completes.",
        rich_help_panel="Select and sort")]

TopArg = Annotated[int | None, typer.Option(
        "--top", metavar="N", min=1,
        help="With --sort, keep only the first N results (in memory for N results only).",
        rich_help_panel="Select and sort")]

DedupeArg = Annotated[bool, typer.Option(
        "--dedupe",
        help="Drop a grid equivalent to one already kept under the Sudoku symmetries "
             "(relabelling digits, permuting rows in bands, columns in stacks, bands, "
             "stacks, transposing), by a canonical form (minlex) added as the field "
             "`canonical`.  Memory: 16 bytes per distinct grid kept.",
        rich_help_panel="Select and sort")]

KeepColumnsArg = Annotated[bool, typer.Option(
        "--keep-columns",
        help="Pass the input's other columns (CSV, JSON Lines; the rest of the line for "
             "one-grid-per-line files) through to the results (renamed input_X when X is a "
             "field of the results).",
        rich_help_panel="Select and sort")]

DaskArg = Annotated[str | None, typer.Option(
        "--dask", metavar="ADDRESS",
        help="Grade on a Dask cluster: the scheduler's address (tcp://host:8786), or "
             "'local' for a LocalCluster of --jobs workers on this machine.  Same results, "
             "order, output and --resume.  Needs the `dask` extra.",
        rich_help_panel="Bulk rating")]


def grade_command(
    inputs: InputsArg = None, output_format: OutputFormatArg = None,
    input_format: InputFormatOpt = "auto", box: BoxOpt = None,
    hierarchy: HierarchyOpt = None, list_rules: ListRulesArg = False,
    strict: StrictArg = False, propagation: PropagationArg = None, se: SeArg = DEFAULT_SE,
    column: ColumnOpt = None,
    with_solution: WithSolutionArg = False, check: CheckArg = False,
    check_engine: CheckEngineArg = None, jobs: JobsArg = 0, time_limit: TimeLimitArg = None,
    timeout: DeprecatedTimeoutOpt = None, output: OutputArg = None, resume: ResumeArg = False,
    overwrite: OverwriteArg = False, summary_only: SummaryOnlyArg = False,
    summary: SummaryArg = None, plot: PlotArg = None, progress: ProgressArg = None,
    where: WhereArg = None, min_level: MinLevelArg = None, max_level: MaxLevelArg = None,
    sort: SortArg = None, top: TopArg = None, dedupe: DedupeArg = False,
    keep_columns: KeepColumnsArg = False, dask: DaskArg = None, quiet: QuietOpt = False,
    color: ColorOpt = Color.auto, version: VersionOpt = None, schema: GradeSchemaOpt = None,
) -> None:
    """Rate Sudoku grids by the technique hierarchy of Jussien's A-Z of Sudoku ({levels}).

    Whole collections are read lazily and graded by parallel workers; results come
    in input order, as they are done (memory stays flat).  With --output, an
    interrupted run (Ctrl-C, kill, crash) continues with --resume.

    Exit status: 0 when every grid is ok, 1 when some are not, 2 on a usage
    error or an unreadable file, 130 when interrupted."""
    from grader.bulk.options import GradeOptions

    h = hierarchy_option(hierarchy, propagation)
    if list_rules:
        from grader.cli.rules import list_rules as listing

        raise typer.Exit(listing(h))
    opts = GradeOptions(
        inputs=tuple(inputs or ()), output_format=output_format,
        input_format=str(input_format), box=box, hierarchy=h, strict=strict, column=column,
        with_solution=with_solution, check=check, check_engine=check_engine, jobs=jobs,
        time_limit=time_limit if time_limit is not None else timeout, output=output,
        resume=resume, overwrite=overwrite, summary_only=summary_only, summary=summary,
        plot=plot, progress=progress, where=where, min_level=min_level, max_level=max_level,
        sort=sort, top=top, dedupe=dedupe, keep_columns=keep_columns, dask=dask, quiet=quiet,
        se=str(se))
    raise typer.Exit(run_grade(opts))


def run_grade(opts: GradeOptions) -> int:
    """Run ``opts`` with SIGTERM as Ctrl-C; a refusal printed, exit status 2."""
    from grader.bulk.collection import grade_collection
    from grader.bulk.options import GradeUsageError

    try:
        with sigterm_as_interrupt():
            return grade_collection(opts, out=out, err=err).exit_code
    except GradeUsageError as e:
        fail(str(e), e.code)


def _levels_text() -> str:
    """``levels 1-14, very easy ... expert`` from the hierarchy table itself
    (read as data: the help does not load the rules)."""
    table = tomllib.loads(resources.files("grader").joinpath("data/hierarchy.toml").read_text(
        encoding="utf-8"))
    top = max((r["level"] for r in table.get("rules", [])), default=0)
    bands = [b["name"] for b in table.get("ratings", []) if any(lv > 0 for lv in b["levels"])]
    return f"levels 1-{top}, {bands[0]} ... {bands[-1]}" if bands else "its levels"


grade_command.__doc__ = (grade_command.__doc__ or "").replace("{levels}", _levels_text())
