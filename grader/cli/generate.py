"""``generate``: new grids of a requested rating, level or range.

The command parses its options into a :class:`~grader.generator.request.GenerateOptions`
and hands it to :mod:`grader.generator.request` (checks, plan, grids); what
stays here is the terminal: progress bar, messages, exit status."""

from __future__ import annotations

import multiprocessing
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TextIO

import typer
from rich.markup import escape

from grader.bulk.interrupts import start_helpers
from grader.cli.common import (
    EXIT_NOT_OK,
    EXIT_OK,
    box_option,
    check_plugins,
    choices,
    err,
    fail,
    hierarchy_option,
    listed,
    metavar,
    renamed,
    sigterm_as_interrupt,
)
from grader.cli.options import (
    BoxOpt,
    Color,
    ColorOpt,
    DeprecatedRunTimeoutOpt,
    GenerateSchemaOpt,
    HierarchyOpt,
    JobsOpt,
    OutputOpt,
    OverwriteOpt,
    QuietOpt,
    SeedOpt,
    StopAfterOpt,
    VersionOpt,
    check_output,
    deprecated,
    job_count,
    resolve_seed,
)
from grader.formats import InputError
from grader.formats.files import finish_output, open_output
from grader.generator import Generated, GenerationError, TargetError, Task
from grader.generator.climb import Counters
from grader.generator.output import DEFAULT_FORMAT, FORMAT_ALIASES, OUTPUT_FORMATS
from grader.generator.request import (
    GenerateOptions,
    Outcome,
    Plan,
    narrow_all,
    prepare,
    produce,
    read_like,
    summary,
    write_daily_pack,
)
from grader.generator.search import METHODS
from grader.generator.symmetry import SYMMETRIES

__all__ = ["GenerateOptions", "generate_command", "narrow_all", "read_like"]

if TYPE_CHECKING:
    Symmetry = str
    Method = str
    OutFormat = str
else:  # the choices as grader.generator declares them (old names: not listed)
    Symmetry = choices("Symmetry", SYMMETRIES)
    Method = choices("Method", METHODS)
    OutFormat = choices("OutFormat", OUTPUT_FORMATS, FORMAT_ALIASES)


RatingOpt = Annotated[str | None, typer.Option(
    "--rating", "-r", metavar="RATING",
    help="Rating of the grids: very-easy, easy, medium, difficult, very-difficult, expert; "
         "a range (medium..very-difficult), a comma list cycled over the grids "
         "(easy,expert), or 'all' (every rating in turn). Default: any rating.",
    show_default=False)]
LevelOpt = Annotated[str | None, typer.Option(
    "--level", "-l", metavar="LEVEL",
    help="Level instead of a rating: 9, a range 5-8, or a comma list (3,9,13). "
         "--level 14 (reductio needed) takes the hard search.",
    show_default=False)]
DepthOpt = Annotated[str | None, typer.Option(
    "--depth", metavar="N|A..B",
    help="Trials nested to this depth: 2 (nested trials required), a range 2..3, or "
         "0 (no trial). 2 and more take the hard search (slow: bound it with --stop-after).",
    show_default=False)]
ScoreOpt = Annotated[str | None, typer.Option(
    "--score", metavar="A..B",
    help="A range of the grader's score, A..B (or A.., ..B); a grid of level L scores "
         "from 10 L to under 10 L + 10. From 140 (level 14) it takes the hard search; "
         "a range below takes grids of the other methods that re-grade into it.",
    show_default=False)]
SeOpt = Annotated[str | None, typer.Option(
    "--se", metavar="A..B",
    help="Sudoku Explainer's rating (ER) in A..B (or A.., ..B, or one value such as 8.3), "
         "from 1.0 to 12.0; every grid is graded again and its se is in the range. "
         "Combines with the other options; from 9.0 it climbs (bound it with --stop-after).",
    show_default=False)]
EpOpt = Annotated[str | None, typer.Option(
    "--ep", metavar="A..B",
    help="Sudoku Explainer's EP (the hardest step before the first placement) in A..B.",
    show_default=False)]
EdOpt = Annotated[str | None, typer.Option(
    "--ed", metavar="A..B",
    help="Sudoku Explainer's ED (the hardest step before the first elimination) in A..B.",
    show_default=False)]
LikeOpt = Annotated[Path | None, typer.Option(
    "--like", metavar="FILE",
    help="Explore around your own grids (a file in any input format) for new grids "
         "of the requested rating, each at least 10 cells from yours and from each "
         "other. With --symmetry, only symmetric grids are kept: give symmetric ones.",
    show_default=False)]
NumberOpt = Annotated[int, typer.Option(
    "--number", "-n", metavar="N", help="How many grids.", min=1)]
CountAliasOpt = Annotated[int | None, typer.Option(
    "--count", metavar="N", min=1, hidden=True, callback=deprecated("--count", "--number"),
    help="Deprecated spelling of --number (solve --count counts solutions).")]
SizeOpt = Annotated[int, typer.Option(
    "--size", "-s", metavar="N", help="Side of the grid: 4, 6, 8, 9, 12, 16 or 25.")]
SymmetryOpt = Annotated[Symmetry, typer.Option(
    "--symmetry",
    help="Symmetry of the givens: none, central (180-degree turn, Nikoli style), "
         "diagonal (main diagonal) or mirror (left-right).")]
MinimalOpt = Annotated[bool, typer.Option(
    "--minimal", help="Only grids from which no given can be removed (removing any one "
                      "gives several solutions).")]
MinGivensOpt = Annotated[int | None, typer.Option(
    "--min-givens", metavar="N", help="At least this many givens.", show_default="none")]
MaxGivensOpt = Annotated[int | None, typer.Option(
    "--max-givens", metavar="N", help="At most this many givens.", show_default="none")]
MethodOpt = Annotated[Method, typer.Option(
    "--method",
    help="guided (descend, then put givens back to steer into the band), "
         "top-down (the book: erase givens while unique) or bottom-up (the book: "
         "add givens until unique). The hard search (--level 14, --depth 2, --like) "
         "climbs instead.")]
OutFormatOpt = Annotated[OutFormat, typer.Option(
    "--format", "-f", metavar=metavar(OUTPUT_FORMATS), callback=renamed("--format", FORMAT_ALIASES),
    autocompletion=listed(OUTPUT_FORMATS),
    help="text (a grid a line, with a # comment), nt, block, csv or jsonl "
         "(the grade contract plus the solution).")]
WithSolutionOpt = Annotated[bool, typer.Option(
    "--with-solution", help="Also write each solution (text and nt formats; "
                            "csv and jsonl always have it).")]
PackOpt = Annotated[Path | None, typer.Option(
    "--pack", metavar="DIR",
    help="Write a daily pack into this directory: one grid of each rating, their "
         "solutions, and pack.html to print.", show_default=False)]
ProgressOpt = Annotated[bool | None, typer.Option(
    "--progress/--no-progress", help="Progress bar on standard error.",
    show_default="on a terminal")]


def _progress_wanted(progress: bool | None) -> bool:
    if progress is not None:
        return progress
    return err.is_terminal


def generate_command(
    rating: RatingOpt = None, level: LevelOpt = None, depth: DepthOpt = None,
    score: ScoreOpt = None, se: SeOpt = None, ep: EpOpt = None, ed: EdOpt = None,
    like: LikeOpt = None, count: NumberOpt = 1,
    count_alias: CountAliasOpt = None, size: SizeOpt = 9, box: BoxOpt = None,
    symmetry: SymmetryOpt = "none", minimal: MinimalOpt = False,
    min_givens: MinGivensOpt = None, max_givens: MaxGivensOpt = None, seed: SeedOpt = None,
    method: MethodOpt = METHODS[0], jobs: JobsOpt = 0, timeout: StopAfterOpt = None,
    old_timeout: DeprecatedRunTimeoutOpt = None,
    output_format: OutFormatOpt = DEFAULT_FORMAT, output: OutputOpt = None,
    overwrite: OverwriteOpt = False, with_solution: WithSolutionOpt = False,
    pack: PackOpt = None, hierarchy: HierarchyOpt = None, progress: ProgressOpt = None,
    quiet: QuietOpt = False, color: ColorOpt = Color.auto, version: VersionOpt = None,
    schema: GenerateSchemaOpt = None,
) -> None:
    """Make new grids with exactly one solution, at the rating you ask for.

    Every grid is graded again by the grader before it is written, so its
    rating, level and score are the grader's own.  Exit status: 0 when every
    grid was made, 1 when --stop-after cut the run short, 2 on a usage error."""
    h = hierarchy_option(hierarchy)
    check_plugins(h)
    opts = GenerateOptions(
        rating=rating, level=level, depth=depth, score=score, se=se, ep=ep, ed=ed, like=like,
        number=count_alias if count_alias is not None else count, size=size,
        box=box_option(box), symmetry=str(symmetry), minimal=minimal, min_givens=min_givens,
        max_givens=max_givens, seed=seed, method=str(method), jobs=job_count(jobs, quiet),
        timeout=timeout if timeout is not None else old_timeout,
        output_format=str(output_format), with_solution=with_solution,
        pack=pack, hierarchy=h, hierarchy_file=hierarchy)
    try:
        plan = prepare(opts)
    except (GenerationError, TargetError, InputError) as e:
        fail(str(e))
    if pack is None:
        check_output(output, overwrite)
    plan.seed = resolve_seed(seed, quiet, "generate")
    outcome, tasks = _run(plan, output, quiet, progress)
    _finish(plan, outcome, len(tasks), quiet)


def _open_output(output: Path | None, pack: Path | None) -> TextIO:
    if output is not None and pack is None:
        try:
            return open_output(output, stream=True)  # a new file fills as grids are made
        except OSError as e:
            fail(f"{output}: cannot write: {e.strerror or e}")
    return sys.stdout


def _run(plan: Plan, output: Path | None, quiet: bool,
         progress: bool | None) -> tuple[Outcome, list[Task]]:
    """Make the grids, with a progress bar (and a hint when none comes) on a terminal."""
    tasks = plan.tasks()
    stream = _open_output(output, plan.options.pack)
    keep = False  # -o replaces its file when the run ends well (or is interrupted)
    try:
        with sigterm_as_interrupt():
            watch = _Watch(tasks, f"{plan.geo.n}x{plan.geo.n}", None if quiet else STALL_SECONDS)
            counters = None
            if plan.hard:
                if plan.options.jobs > 1:
                    start_helpers()  # the shared counters' tracker: SIGHUP is ours
                shared = (multiprocessing.get_context("spawn").Array("q", 2)
                          if plan.options.jobs > 1 else None)
                counters = Counters(shared)
            with _Progress(_progress_wanted(False if quiet and progress is None else progress),
                           len(tasks), watch, counters) as bar:
                outcome = produce(plan, stream, tasks, on_done=bar.done, counters=counters)
        keep = True
    except KeyboardInterrupt:
        keep = True  # the grids made so far, each whole
        err.print("interrupted")
        raise typer.Exit(130) from None
    finally:
        if stream is not sys.stdout:
            finish_output(stream, keep)
    return outcome, tasks


def _finish(plan: Plan, outcome: Outcome, total: int, quiet: bool) -> None:
    """The pack, the summary on standard error, and the exit status."""
    opts = plan.options
    if opts.pack is not None and outcome.made:
        try:
            paths = write_daily_pack(plan, outcome.made)
        except OSError as e:
            fail(f"{opts.pack}: cannot write the pack: {e.strerror or e}")
        if not quiet:
            err.print("wrote " + ", ".join(str(p) for p in paths), markup=False)
    if not quiet:
        err.print(summary(outcome, total, opts.jobs), markup=False)
    if outcome.missing:
        labels = sorted({t.target.label for t in outcome.missing})
        err.print(f"[bold red]timeout:[/] {len(outcome.missing)} grid(s) not made "
                  f"({escape(', '.join(labels))}) within {opts.timeout:g} s", markup=True)
        raise typer.Exit(EXIT_NOT_OK)
    raise typer.Exit(EXIT_OK)


#: seconds without a new grid before a hint that the request may be rare
STALL_SECONDS = 30.0


class _Watch:
    """Says once on standard error when no grid has come for a while: some
    ratings are rare for some sizes and options, and some do not exist at all
    (every 4x4 grid is very easy)."""

    def __init__(self, tasks: list[Task], shape: str, seconds: float | None) -> None:
        self.tasks = tasks
        self.shape = shape
        self.seconds = seconds
        self.next = 0
        self.said = False
        self.lock = threading.Lock()
        self.timer: threading.Timer | None = None
        self._arm()

    def _arm(self) -> None:
        if self.seconds is None or self.said or self.next >= len(self.tasks):
            return
        self.timer = threading.Timer(self.seconds, self._say)
        self.timer.daemon = True
        self.timer.start()

    def _say(self) -> None:
        with self.lock:
            if self.said or self.next >= len(self.tasks):
                return
            self.said = True
            label = self.tasks[self.next].target.label
        err.print(f"no {label} {self.shape} grid yet after {self.seconds:g} s: such grids "
                  f"may be rare, or impossible, with these options (--stop-after bounds the run)",
                  markup=False)

    def reset(self, task: Task) -> None:
        with self.lock:
            self.next = max(self.next, task.index)
            if self.timer is not None:
                self.timer.cancel()
        self._arm()

    def stop(self) -> None:
        with self.lock:
            self.next = len(self.tasks)
            if self.timer is not None:
                self.timer.cancel()


class _Progress:
    """A rich progress bar on standard error, or nothing."""

    def __init__(self, enabled: bool, total: int, watch: _Watch,
                 counters: Counters | None = None) -> None:
        self.enabled = enabled
        self.total = total
        self.watch = watch
        self.counters = counters
        self._progress: Any = None
        self._task: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> _Progress:
        if self.enabled:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._progress = Progress(
                TextColumn("generating"), BarColumn(), MofNCompleteColumn(),
                TimeElapsedColumn(), TimeRemainingColumn(), TextColumn("{task.description}"),
                console=err, transient=True)
            self._progress.__enter__()
            self._task = self._progress.add_task("", total=self.total)
            if self.counters is not None:
                self._thread = threading.Thread(target=self._rates, daemon=True)
                self._thread.start()
        return self

    def _rates(self) -> None:
        """The hard search: grids found and moves tried per second, twice a second."""
        assert self.counters is not None
        t0 = time.perf_counter()
        while not self._stop.wait(0.5):
            moves, found = self.counters.read()
            rate = moves / max(1e-9, time.perf_counter() - t0)
            self._progress.update(self._task, description=f"{found} hard grids found, "
                                                          f"{rate:,.0f} moves/s")

    def done(self, task: Task, g: Generated | None) -> None:
        self.watch.reset(task)
        if self._progress is not None and self._task is not None:
            if self.counters is not None:
                self._progress.update(self._task, advance=1)
                return
            what = f"last: {g.result.rating}" if g is not None else "timed out"
            self._progress.update(self._task, advance=1, description=what)

    def __exit__(self, *exc: object) -> None:
        self.watch.stop()
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self._progress is not None:
            self._progress.__exit__(None, None, None)
