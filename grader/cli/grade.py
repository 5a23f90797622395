"""``grade``: rate grids by the techniques they need."""

from __future__ import annotations

import contextlib
import signal
import sys
import time
from enum import StrEnum
from pathlib import Path
from types import FrameType
from typing import Annotated, Any

import typer
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..batch import (
    SETTING_LABELS,
    SORT_KEYS,
    WHERE_FIELDS,
    EngineUnavailable,
    Entry,
    GradeConfig,
    InlinePool,
    Pool,
    ProcessPool,
    Result,
    ResultWriter,
    ResumeCursor,
    ResumeError,
    RunStats,
    Summary,
    TopN,
    Where,
    WhereError,
    WorkerFailed,
    count_lines,
    digest,
    engine_solver,
    existing_csv_header,
    extra_columns,
    output_fields,
    records,
    resume_settings,
    run,
    sort_output_file,
)
from ..files import (
    OutputError,
    OutputLock,
    check_output_not_input,
    plot_path_problem,
    read_settings,
    settings_differences,
    write_settings,
)
from ..formats import InputError, Record, check_sources
from ..grading import GradeResult
from ..hierarchy import Hierarchy
from .common import (
    EXIT_NOT_OK,
    EXIT_OK,
    EXIT_USAGE,
    InputFormat,
    box_option,
    check_plugins,
    err,
    fail,
    hierarchy_option,
    out,
)
from .options import (
    BoxOpt,
    Color,
    ColorOpt,
    ColumnOpt,
    DeprecatedTimeoutOpt,
    HierarchyOpt,
    InputFormatOpt,
    QuietOpt,
    VersionOpt,
    check_output,
    job_count,
)


class OutputFormat(StrEnum):
    table = "table"
    jsonl = "jsonl"
    csv = "csv"




def _result_row(r: GradeResult) -> list[Text]:
    # Text, not markup: a grid or a message may hold "[" (e.g. a malformed grid "[/]")
    return [Text(x) for x in (
        str(r.index), str(r.line or ""), r.verdict, r.rating or "", "" if r.level is None else
        str(r.level), "" if r.score is None else f"{r.score:.2f}", r.hardest or "",
        "" if r.steps is None else str(r.steps), "" if r.depth is None else str(r.depth),
        r.message or "",
    )]


def render_panel(r: GradeResult, h: Hierarchy, source: str | None = None) -> Panel:
    """One grid: rating, level, hardest technique, counts.  A bad grid read from a
    file names the file and the line."""
    if r.verdict != "ok":
        body = Text()
        body.append(r.verdict, style="bold red")
        body.append(f"\n{r.message or ''}\n\n")
        body.append(r.puzzle, style="dim")
        where = f"grid {r.index}"
        if source and source not in ("<argument>",):
            where = f"{source}:{r.line}" if r.line else source
        return Panel(body, title=Text(where), expand=False)
    names = {s.code: s for s in h.rules}
    t = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    t.add_column("technique")
    t.add_column("level", justify="right")
    t.add_column("steps", justify="right")
    for code, count in r.techniques.items():
        spec = names.get(code)
        t.add_row(spec.name if spec else code, str(spec.level) if spec else "?", str(count))
    hardest = names[r.hardest].name if r.hardest in names else (r.hardest or "none")
    head = (f"[bold]rating[/]   {r.rating}\n[bold]level[/]    {r.level}\n"
            f"[bold]score[/]    {r.score:.2f}\n[bold]hardest[/]  {hardest}"
            + (f" (trials nested to depth {r.depth})" if r.depth and r.depth > 1 else "")
            + f"\n[bold]steps[/]    {r.steps}\n")
    from rich.console import Group

    return Panel(Group(head, t), title=f"[bold]{r.size}x{r.size} grid[/]",
                 subtitle=f"[dim]{r.seconds:.3f} s[/]", expand=False)




#: Above this many grids a table is printed in pages as the results come.
TABLE_PAGE = 1000


def _table(rows: list[GradeResult], title: str | None) -> Table:
    """One row per grid, light borders.  The depth column only when trials
    nested; the message column only when some grid has one and the terminal
    is wide enough (the summary lists every grid that is not ok with its
    message), so that the table reads in an 80-column terminal."""
    from rich import box

    with_message = any(r.message for r in rows) and out.width >= 110
    with_depth = any(r.depth and r.depth > 1 for r in rows)
    t = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1, 0, 0))
    keep = []
    for i, col in enumerate(("#", "line", "verdict", "rating", "level", "score", "hardest",
                             "steps", "depth", "message")):
        if (col == "message" and not with_message) or (col == "depth" and not with_depth):
            continue
        keep.append(i)
        numeric = col in ("#", "line", "level", "score", "steps", "depth")
        t.add_column(col, justify="right" if numeric else "left", no_wrap=col != "message",
                     min_width={"verdict": 9, "rating": 9, "hardest": 10,
                                "message": 20}.get(col, len(col)),
                     max_width={"hardest": 16, "verdict": 12, "rating": 14}.get(col),
                     overflow="fold" if col == "message" else "ellipsis")
    for r in rows:
        cells = _result_row(r)
        t.add_row(*(cells[i] for i in keep))
    return t


def _as_result(d: Result) -> GradeResult:
    return GradeResult(**d)


class _Progress:
    """A rich progress bar on standard error (a terminal only): grids, rate, ETA."""

    def __init__(self, sources: list[str], enabled: bool) -> None:
        self.bar: Any = None
        self.done = 0
        self.base: dict[str, int] = {}
        self._last = 0.0
        self._t0 = time.perf_counter()
        if not enabled:
            return
        from rich.progress import (
            BarColumn,
            Progress,
            SpinnerColumn,
            TaskProgressColumn,
            TextColumn,
            TimeRemainingColumn,
        )

        total: int | None = 0
        for src in sources:
            k = count_lines(src)
            if k is None or total is None:
                total = None
            else:
                self.base[src] = total
                total += k
        self.bar = Progress(SpinnerColumn(), TextColumn("[bold]{task.fields[grids]}[/] grids"),
                            BarColumn(), TaskProgressColumn(),
                            TextColumn("{task.fields[rate]} grids/s"), TimeRemainingColumn(),
                            console=err, transient=True)
        self.task = self.bar.add_task("grading", total=total or None, grids=0, rate="-")
        self.bar.start()

    def __call__(self, e: Entry) -> None:
        self.done += 1
        if self.bar is None:
            return
        now = time.perf_counter()
        if now - self._last < 0.1:
            return
        self._last = now
        rate = self.done / max(now - self._t0, 1e-9)
        self.bar.update(self.task, completed=self.base.get(e.source, 0) + e.line,
                        grids=self.done, rate=f"{rate:.1f}")

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def grade_command(
    inputs: Annotated[list[str] | None, typer.Argument(
        metavar="FILE|GRID|-",
        help="Files of grids (any format), '-' for standard input, or a grid itself.",
        show_default=False)] = None,
    output_format: Annotated[OutputFormat | None, typer.Option(
        "--format", "-f", help="table (a panel for one grid), jsonl or csv.")] = None,
    input_format: InputFormatOpt = InputFormat.auto,
    box: BoxOpt = None,
    hierarchy: HierarchyOpt = None,
    list_rules: Annotated[bool, typer.Option(
        "--list-rules",
        help="List the rules of the hierarchy in use (level, family, package, version) "
             "and the rule plugins that failed to load, then exit.")] = False,
    strict: Annotated[bool, typer.Option(
        "--strict",
        help="Stop at the first grid whose grading a rule plugin broke (verdict "
             "rule-error), exit status 2; by default that grid gets the verdict and the "
             "run goes on.")] = False,
    propagation: Annotated[str | None, typer.Option(
        metavar="all|singles", show_default="the hierarchy's",
        help="What trials apply inside branches: all (every rule below the trials) or "
             "singles.")] = None,
    column: ColumnOpt = None,
    with_solution: Annotated[bool, typer.Option(
        "--with-solution", help="Add the solution to jsonl/csv output.")] = False,
    check: Annotated[bool, typer.Option(
        "--check", help="Debug: check every step against the solution.")] = False,
    check_engine: Annotated[str | None, typer.Option(
        "--check-engine", metavar="NAME",
        help="Exact-solver engine that gives the verdicts (see `solve --help`); default: "
             "the built-in bitmask solver.", rich_help_panel="Checking")] = None,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", min=0, metavar="N", show_default="0 = all cores",
        help="Worker processes grading in parallel (0: one per core).  Results are the same "
             "and in the same order as with one job (except `seconds`).",
        rich_help_panel="Bulk rating")] = 0,
    time_limit: Annotated[float | None, typer.Option(
        "--time-limit", metavar="SECONDS", min=0.001, show_default="none",
        help="Give up on a grid after this long: its verdict is `timeout` (its worker "
             "process is stopped and replaced) and the run goes on.",
        rich_help_panel="Bulk rating")] = None,
    timeout: DeprecatedTimeoutOpt = None,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", metavar="FILE", show_default="standard output",
        help="Write the results to FILE (.jsonl or .csv), one line per grid, flushed as "
             "each grid is done; the summary goes to standard output.",
        rich_help_panel="Bulk rating")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume",
        help="Continue an interrupted run: skip the grids already in --output (checked "
             "by index and puzzle) and append the others.",
        rich_help_panel="Bulk rating")] = False,
    overwrite: Annotated[bool, typer.Option(
        "--overwrite", help="Start --output afresh even if it exists.",
        rich_help_panel="Bulk rating")] = False,
    summary_only: Annotated[bool, typer.Option(
        "--summary-only", help="Print only the summary, not the results.",
        rich_help_panel="Bulk rating")] = False,
    summary: Annotated[bool | None, typer.Option(
        "--summary/--no-summary", show_default="with tables, --output and --summary-only; "
        "on standard error for jsonl/csv when it is a terminal",
        help="The end summary: counts per verdict, histograms of ratings and levels, "
             "technique usage, slowest grids, throughput.",
        rich_help_panel="Bulk rating")] = None,
    plot: Annotated[Path | None, typer.Option(
        "--plot", metavar="FILE.png",
        help="Draw the histograms of ratings, levels and techniques as a picture "
             "(needs matplotlib: the `plot` extra).",
        rich_help_panel="Bulk rating")] = None,
    progress: Annotated[bool | None, typer.Option(
        "--progress/--no-progress", show_default="on a terminal",
        help="A progress bar (grids done, rate, ETA) on standard error.",
        rich_help_panel="Bulk rating")] = None,
    where: Annotated[str | None, typer.Option(
        "--where", metavar="EXPR",
        help="Keep only the results for which EXPR holds, e.g. 'rating == \"expert\"', "
             "'level >= 9 and depth > 1', '\"x-wing\" in techniques', 'verdict != \"ok\"'. "
             "Fields: index line puzzle size verdict message level rating score depth steps "
             "techniques hardest se se_pattern seconds givens source, and the input's own columns; "
             "operators == != < <= > >= in, not in, and, or, not, ( ); "
             "strings in quotes, lists in [ ], null.",
        rich_help_panel="Select and sort")] = None,
    min_level: Annotated[int | None, typer.Option(
        "--min-level", min=0, metavar="LEVEL", help="Keep only ok grids of at least this level.",
        rich_help_panel="Select and sort")] = None,
    max_level: Annotated[int | None, typer.Option(
        "--max-level", min=0, metavar="LEVEL", help="Keep only ok grids of at most this level.",
        rich_help_panel="Select and sort")] = None,
    sort: Annotated[str | None, typer.Option(
        "--sort", metavar="KEY",
        help="Sort the results, hardest first, by score, level, steps, depth, seconds (or "
             "index).  Sorting needs every result, so nothing is printed until the end: "
             "without --output the selected results are held in memory (bound it with "
             "--top, narrow it with --where); with --output the results are still written "
             "in input order as they come (so --resume works) and the file is sorted in "
             "place when the run completes.",
        rich_help_panel="Select and sort")] = None,
    top: Annotated[int | None, typer.Option(
        "--top", metavar="N", min=1,
        help="With --sort, keep only the first N results (in memory for N results only).",
        rich_help_panel="Select and sort")] = None,
    dedupe: Annotated[bool, typer.Option(
        "--dedupe",
        help="Drop a grid equivalent to one already kept under the Sudoku symmetries "
             "(relabelling digits, permuting rows in bands, columns in stacks, bands, "
             "stacks, transposing), by a canonical form (minlex) added as the field "
             "`canonical`.  Memory: 16 bytes per distinct grid kept.",
        rich_help_panel="Select and sort")] = False,
    keep_columns: Annotated[bool, typer.Option(
        "--keep-columns",
        help="Pass the input's other columns (CSV, JSON Lines; the rest of the line for "
             "one-grid-per-line files) through to the results (renamed input_X when X is a "
             "field of the results).",
        rich_help_panel="Select and sort")] = False,
    dask: Annotated[str | None, typer.Option(
        "--dask", metavar="ADDRESS",
        help="Grade on a Dask cluster: the scheduler's address (tcp://host:8786), or "
             "'local' for a LocalCluster of --jobs workers on this machine.  Same results, "
             "order, output and --resume.  Needs the `dask` extra.",
        rich_help_panel="Bulk rating")] = None,
    quiet: QuietOpt = False,
    color: ColorOpt = Color.auto,
    version: VersionOpt = None,
) -> None:
    """Rate Sudoku grids with N. Jussien's hierarchy ({levels}).

    Whole collections are read lazily and graded by parallel workers; results come
    in input order, as they are done (memory stays flat).  With --output, an
    interrupted run (Ctrl-C, kill, crash) continues with --resume.

    Exit status: 0 when every grid is ok, 1 when some are not, 2 on a usage
    error or an unreadable file, 130 when interrupted."""
    h = hierarchy_option(hierarchy, propagation)
    if list_rules:
        from ..plugins import rule_table
        from .rules import print_rules

        print_rules(rule_table(h), h.name)
        raise typer.Exit(EXIT_OK)
    if not inputs:
        fail("missing FILE|GRID|-: name a file of grids, '-' for standard input, or a grid")
    check_plugins(h)
    bx = box_option(box)
    njobs = job_count(jobs)
    if time_limit is None:
        time_limit = timeout  # the deprecated spelling
    timeout = time_limit
    if quiet and progress:
        fail("--quiet and --progress contradict each other")

    # ---- options that do not go together, checked before any work
    if resume and output is None:
        fail("--resume continues an --output file: name it with --output FILE")
    if output is not None:
        if output.suffix.lower() not in (".jsonl", ".csv"):
            fail(f"--output {output}: the name must end in .jsonl or .csv")
        check_output(output, overwrite or resume, hint="--resume continues it, "
                     "--overwrite replaces it")
    if resume and overwrite:
        fail("--resume and --overwrite contradict each other")
    if sort is not None and sort not in SORT_KEYS:
        fail(f"--sort {sort!r}: choose from {', '.join(SORT_KEYS)}")
    if top is not None and sort is None:
        fail("--top needs --sort")
    if min_level is not None and max_level is not None and min_level > max_level:
        fail(f"--min-level {min_level} is above --max-level {max_level}")
    selector: Where | None = None
    if where is not None:
        try:
            selector = Where(where)
        except WhereError as e:
            fail(f"--where: {e}")
    if plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            fail("--plot needs matplotlib: pip install 'sudoku-grader[plot]'")
        problem = plot_path_problem(plot)
        if problem:
            fail(f"--plot {plot}: {problem}")
    if check_engine is not None:
        try:
            engine_solver(check_engine)
        except EngineUnavailable as e:
            fail(f"--check-engine: {e}")
    if dask is not None:
        try:
            import distributed  # noqa: F401
        except ImportError:
            fail("--dask needs dask.distributed: pip install 'sudoku-grader[dask]'")

    try:  # every input readable, no output that is an input: before any work
        check_sources(inputs)
        check_output_not_input(inputs, [output, plot], stdout_is_output=True)
    except (InputError, OutputError) as e:
        fail(str(e))

    cfg = GradeConfig(hierarchy=h, check=check, engine=check_engine,
                      with_solution=with_solution, canonical=dedupe)
    fmt = output_format
    stdout_is_data = output is None and not summary_only and fmt in (OutputFormat.jsonl,
                                                                   OutputFormat.csv)

    # ---- reading: peek at the first records to choose where to grade
    recs = records(inputs, input_format.value, bx, column)
    head: list[Record] = []
    try:
        for rec in recs:
            head.append(rec)
            if len(head) > 2 * njobs:
                break
    except InputError as e:
        fail(str(e))
    small = len(head) <= 2 * njobs

    def all_records() -> Any:
        yield from head
        if not small:
            yield from recs

    if not head:
        fail("no grid found in the input", EXIT_USAGE)
    first_source = head[0].source
    if selector is not None:
        columns = {k for rec in head for k in rec.extra}
        if any(rec.format in ("line", "nt") for rec in head):
            columns.add("rest")  # the rest of a line, where there is more than the grid
        if keep_columns:
            columns |= set(extra_columns(dict.fromkeys(columns, "")))
        unknown = selector.unknown_names(columns)
        if unknown:
            fail(f"--where: unknown field {unknown[0]!r} (fields: {', '.join(WHERE_FIELDS)}, "
                 f"or a column of the input: {', '.join(sorted(columns)) or 'none'})")

    # ---- resume
    cursor: ResumeCursor | None = None
    fields_out: list[str] | None = None
    lock: OutputLock | None = None
    settings = resume_settings(inputs, input_format.value, box, column, h, with_solution,
                               dedupe, keep_columns, where, min_level, max_level)
    if output is not None:
        try:  # a second run on the same output refuses at once
            lock = OutputLock(output).acquire()
        except OutputError as e:
            fail(str(e))
        first_extra = extra_columns(head[0].extra) if (keep_columns and head) else {}
        fields_out = output_fields(with_solution, first_extra, dedupe)
        if resume and output.exists() and output.stat().st_size > 0:
            diffs = settings_differences(output, settings, SETTING_LABELS)
            if diffs:
                fail(f"--resume: {output} was written with other settings ({'; '.join(diffs)}): "
                     f"use the same settings, or --overwrite to start afresh")
            if output.suffix.lower() == ".csv":
                have = existing_csv_header(output)
                if have != fields_out:
                    fail(f"--resume: {output} has the columns {', '.join(have or [])}, but "
                         f"this run writes {', '.join(fields_out)}: use the same options")
            try:
                cursor = ResumeCursor(output)
            except ResumeError as e:
                fail(f"--resume: {e}")

    # ---- where the results go
    summ = Summary(h, filtered=bool(selector is not None or dedupe or min_level is not None
                                    or max_level is not None))
    seen: set[bytes] = set()
    bad = False
    sorter = TopN(sort, top) if sort is not None and output is None else None
    table_rows: list[GradeResult] = []
    table_paged = False
    out_fh: Any = None
    writer: ResultWriter | None = None
    if output is not None:
        fresh = not (resume and output.exists() and output.stat().st_size > 0)
        try:
            out_fh = output.open("w" if fresh else "a", encoding="utf-8", newline="")
            if fresh or read_settings(output) is None:
                write_settings(output, settings)
        except OSError as e:
            fail(f"--output {output}: cannot write: {e.strerror or e}")
        writer = ResultWriter(out_fh, "csv" if output.suffix.lower() == ".csv" else "jsonl",
                              fields_out, header=fresh)
    elif stdout_is_data and sorter is None:
        assert fmt is not None
        writer = ResultWriter(sys.stdout, fmt.value)

    def selected(d: Result) -> bool:
        if min_level is not None or max_level is not None:
            lvl = d.get("level")
            if d.get("verdict") != "ok" or lvl is None:
                return False
            if min_level is not None and lvl < min_level:
                return False
            if max_level is not None and lvl > max_level:
                return False
        return True

    def emit(e: Entry, resumed: bool) -> None:
        nonlocal bad, table_paged
        d = e.result
        assert d is not None
        summ.add(d, e.source, resumed)
        bad = bad or d.get("verdict") != "ok"
        if strict and d.get("verdict") == "rule-error":
            raise _UsageError(f"{e.source}, line {d.get('line')}: {d.get('message')} "
                              "(--strict stops at the first rule error)")
        if keep_columns and e.extra and not resumed:
            d = {**d, **extra_columns(e.extra)}
        if not selected(d):
            return
        if selector is not None:
            try:
                ok = selector({**e.extra, **d, "source": e.source})
            except WhereError as ex:
                raise _UsageError(f"--where: {ex}") from None
            if not ok:
                return
        if dedupe:
            canon = d.get("canonical")
            if canon is None and resumed and d.get("size") and d.get("verdict") != "malformed":
                from ..canonical import canonical_key  # an output written without --dedupe

                with contextlib.suppress(ValueError):
                    canon = canonical_key(str(d["puzzle"]), bx)
            key = digest(str(canon or d.get("puzzle")))
            if key in seen:
                summ.duplicates += 1
                return
            seen.add(key)
        summ.selected += 1
        if resumed:
            return  # already in the output
        if summary_only and output is None:
            return
        if sorter is not None:
            sorter.add(d)
        elif writer is not None:
            writer.write(d)
        else:
            table_rows.append(_as_result(d))
            if len(table_rows) >= TABLE_PAGE:
                out.print(_table(table_rows, None))
                table_rows.clear()
                table_paged = True

    # ---- the run
    show_progress = progress if progress is not None else (err.is_terminal and not quiet)
    if not small and not quiet:
        _warn_pure_python()
    bar = _Progress(inputs, bool(show_progress))
    pool: Pool
    try:
        if dask is not None:
            from ..distributed import DaskPool

            pool = DaskPool(cfg, dask, jobs=njobs, timeout=timeout)
        elif (njobs == 1 or small) and timeout is None:
            pool = InlinePool(cfg)
        else:
            pool = ProcessPool(cfg, min(njobs, max(1, len(head))), timeout)
    except (OSError, RuntimeError, ValueError) as e:
        bar.stop()
        fail(f"cannot start the workers: {e}")
    old_term = signal.signal(signal.SIGTERM, _on_sigterm)
    stats: RunStats
    try:
        stats = run(all_records(), pool, emit, with_solution=with_solution,
                    window=getattr(pool, "window", 256), cursor=cursor, progress=bar)
    except InputError as e:
        bar.stop()
        fail(str(e))
    except (ResumeError, _UsageError) as e:
        bar.stop()
        fail(str(e))
    except WorkerFailed as e:
        bar.stop()
        fail(str(e))
    finally:
        signal.signal(signal.SIGTERM, old_term)
        bar.stop()
        if out_fh is not None:
            out_fh.close()
        if lock is not None:
            lock.release()

    # ---- the end
    if output is not None and sort is not None and not stats.interrupted:
        sort_output_file(output, sort, top)
    if sorter is not None:
        rows = sorter.result()
        if not summary_only:
            if stdout_is_data:
                assert fmt is not None
                w = ResultWriter(sys.stdout, fmt.value)
                for d in rows:
                    w.write(d)
            else:
                table_rows = [_as_result(d) for d in rows]
    if table_rows or (not stdout_is_data and output is None and not summary_only
                      and summ.total == 1 and fmt is None):
        if len(table_rows) == 1 and fmt is None and summ.total == 1:
            out.print(render_panel(table_rows[0], h, first_source))
        elif table_rows:
            out.print(_table(table_rows, None if table_paged else f"{len(table_rows)} grids"))
    want_summary = summary
    if want_summary is None and quiet:
        want_summary = False
    if want_summary is None:
        if summary_only or output is not None:
            want_summary = True
        elif stdout_is_data:
            want_summary = err.is_terminal
        else:
            want_summary = summ.total > 1
    if want_summary:
        console = err if stdout_is_data else out
        console.print(summ.render(stats, pool_jobs(dask, njobs, pool)))
        if stats.interrupted and output is not None:
            console.print(f"[yellow]interrupted: rerun with --resume to continue {output}[/]")
    elif stats.interrupted:
        err.print("interrupted" + (f": rerun with --resume to continue {output}"
                                   if output is not None else ""))
    if plot is not None:
        try:
            summ.plot(plot)
        except OSError as e:
            fail(f"--plot {plot}: cannot write: {e.strerror or e}")
    if stats.interrupted:
        raise typer.Exit(130)
    raise typer.Exit(EXIT_NOT_OK if bad else EXIT_OK)


def _levels_text() -> str:
    """``levels 1-14, very easy ... expert`` from the hierarchy table itself."""
    from ..hierarchy import default_hierarchy

    h = default_hierarchy()
    bands = [b.name for b in h.ratings if any(lv > 0 for lv in b.levels)]
    return f"levels 1-{h.max_level}, {bands[0]} ... {bands[-1]}" if bands else "its levels"


grade_command.__doc__ = (grade_command.__doc__ or "").replace("{levels}", _levels_text())


def _warn_pure_python() -> None:
    """A bulk run without the accelerator because it is not built: say so once."""
    from ..about import accelerator_built, accelerator_disabled

    if not accelerator_built() and not accelerator_disabled():
        err.print("warning: the C accelerator is not built: grading runs on pure Python, "
                  "7-15x slower (reinstall with a C compiler; see grade --version)",
                  markup=False, highlight=False)


class _UsageError(Exception):
    pass


def pool_jobs(dask: str | None, njobs: int, pool: Pool) -> int:
    n = getattr(pool, "jobs", None)
    if isinstance(n, int):
        return n
    workers = getattr(pool, "workers", None)
    if isinstance(workers, list):
        return len(workers)
    return 1
