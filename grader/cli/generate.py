"""``generate``: new grids of a requested rating, level or range."""

from __future__ import annotations

import multiprocessing
import shlex
import sys
import threading
import time
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from ..formats import InputError, iter_source
from ..generator import (
    CsvWriter,
    Generated,
    GenerationError,
    Generator,
    Settings,
    TargetError,
    Task,
    format_grid,
    parse_targets,
    plan_tasks,
    rating_bands,
    run,
    write_pack,
)
from ..generator.climb import Counters, climbs
from ..generator.targets import Target, impossible, narrow, parse_depth, parse_score
from ..geometry import SUPPORTED_SIZES, geometry_for_size
from ..hierarchy import Hierarchy
from ..solver import solve
from .common import EXIT_NOT_OK, EXIT_OK, box_option, check_plugins, err, fail, hierarchy_option
from .options import (
    BoxOpt,
    Color,
    ColorOpt,
    HierarchyOpt,
    JobsOpt,
    OutputOpt,
    OverwriteOpt,
    QuietOpt,
    SeedOpt,
    TimeoutOpt,
    VersionOpt,
    check_output,
    job_count,
    resolve_seed,
)


class Symmetry(StrEnum):
    none = "none"
    central = "central"
    diagonal = "diagonal"
    mirror = "mirror"


class Method(StrEnum):
    guided = "guided"
    top_down = "top-down"
    bottom_up = "bottom-up"


class OutFormat(StrEnum):
    line = "line"
    nt = "nt"
    block = "block"
    csv = "csv"
    jsonl = "jsonl"


def narrow_all(targets: list[Target], h: Hierarchy, depth: str | None, score: str | None,
               n: int, min_givens: int | None) -> list[Target]:
    """The targets with ``--depth`` and ``--score``; :class:`TargetError` when
    one cannot be met at all."""
    d = parse_depth(depth, h) if depth is not None else None
    sc = parse_score(score) if score is not None else None
    out = [narrow(t, h, d, sc) if d is not None or sc is not None else t for t in targets]
    for t in out:
        why = impossible(t, n, min_givens)
        if why is not None:
            raise TargetError(why)
    return out


def read_like(path: Path, box: tuple[int, int] | None, ncells: int) -> tuple[tuple[int, ...], ...]:
    """The grids of ``--like FILE`` with one solution (errors name file and line)."""
    try:
        records = list(iter_source(str(path), box=box))
    except InputError as e:
        fail(str(e))
    grids: list[tuple[int, ...]] = []
    for rec in records:
        where = f"{path}:{rec.line}"
        if rec.grid is None:
            fail(f"{where}: {rec.error}")
        if rec.grid.geo.ncells != ncells:
            fail(f"{where}: a {rec.grid.size}x{rec.grid.size} grid; give --size "
                 f"{rec.grid.size} to explore around it")
        res = solve(rec.grid.geo, rec.grid.values, 2)
        if res.count != 1:
            what = "no solution" if res.count == 0 else "several solutions"
            fail(f"{where}: the grid has {what}; --like needs grids with exactly one")
        grids.append(rec.grid.values)
    if not grids:
        fail(f"{path}: no grid to explore around")
    return tuple(grids)


def _progress_wanted(progress: bool | None) -> bool:
    if progress is not None:
        return progress
    return err.is_terminal


def generate_command(
    rating: Annotated[str | None, typer.Option(
        "--rating", "-r", metavar="RATING",
        help="Rating of the grids: very-easy, easy, medium, difficult, very-difficult, expert; "
             "a range (medium..very-difficult), a comma list cycled over the grids "
             "(easy,expert), or 'all' (every rating in turn). Default: any rating.",
        show_default=False)] = None,
    level: Annotated[str | None, typer.Option(
        "--level", "-l", metavar="LEVEL",
        help="Level instead of a rating: 9, a range 5-8, or a comma list (3,9,13). "
             "--level 14 (reductio needed) takes the hard search.",
        show_default=False)] = None,
    depth: Annotated[str | None, typer.Option(
        "--depth", metavar="N|A..B",
        help="Trials nested to this depth: 2 (nested trials required), a range 2..3, or "
             "0 (no trial). 2 and more take the hard search (slow: bound it with --timeout).",
        show_default=False)] = None,
    score: Annotated[str | None, typer.Option(
        "--score", metavar="A..B",
        help="A range of the grader's score, A..B (or A.., ..B); a grid of level L scores "
             "from 10 L to under 10 L + 10. From 140 (level 14) it takes the hard search; "
             "a range below takes grids of the other methods that re-grade into it.",
        show_default=False)] = None,
    like: Annotated[Path | None, typer.Option(
        "--like", metavar="FILE",
        help="Explore around your own grids (a file in any input format) for new grids "
             "of the requested rating, each at least 10 cells from yours and from each "
             "other. With --symmetry, only symmetric grids are kept: give symmetric ones.",
        show_default=False)] = None,
    count: Annotated[int, typer.Option(
        "--number", "-n", metavar="N", help="How many grids.", min=1)] = 1,
    count_alias: Annotated[int | None, typer.Option(
        "--count", metavar="N", min=1, hidden=True,
        help="Old name of --number (solve --count counts solutions).")] = None,
    size: Annotated[int, typer.Option(
        "--size", "-s", metavar="N", help="Side of the grid: 4, 6, 8, 9, 12, 16 or 25.")] = 9,
    box: BoxOpt = None,
    symmetry: Annotated[Symmetry, typer.Option(
        help="Symmetry of the givens: none, central (180-degree turn, Nikoli style), "
             "diagonal (main diagonal) or mirror (left-right).")] = Symmetry.none,
    minimal: Annotated[bool, typer.Option(
        "--minimal", help="Only grids from which no given can be removed (removing any one "
                          "gives several solutions).")] = False,
    min_givens: Annotated[int | None, typer.Option(
        "--min-givens", metavar="N", help="At least this many givens.", show_default="none")
    ] = None,
    max_givens: Annotated[int | None, typer.Option(
        "--max-givens", metavar="N", help="At most this many givens.", show_default="none")
    ] = None,
    seed: SeedOpt = None,
    method: Annotated[Method, typer.Option(
        help="guided (descend, then put givens back to steer into the band), "
             "top-down (the book: erase givens while unique) or bottom-up (the book: "
             "add givens until unique). The hard search (--level 14, --depth 2, --like) "
             "climbs instead.")] = Method.guided,
    jobs: JobsOpt = 0,
    timeout: TimeoutOpt = None,
    output_format: Annotated[OutFormat, typer.Option(
        "--format", "-f", help="line (with a # comment), nt, block, csv or jsonl "
                               "(the grade contract plus the solution).")] = OutFormat.line,
    output: OutputOpt = None,
    overwrite: OverwriteOpt = False,
    with_solution: Annotated[bool, typer.Option(
        "--with-solution", help="Also write each solution (line and nt formats; "
                                "csv and jsonl always have it).")] = False,
    pack: Annotated[Path | None, typer.Option(
        metavar="DIR",
        help="Write a daily pack into this directory: one grid of each rating, their "
             "solutions, and pack.html to print.", show_default=False)] = None,
    hierarchy: HierarchyOpt = None,
    progress: Annotated[bool | None, typer.Option(
        "--progress/--no-progress", help="Progress bar on standard error.",
        show_default="on a terminal")] = None,
    quiet: QuietOpt = False,
    color: ColorOpt = Color.auto,
    version: VersionOpt = None,
) -> None:
    """Make new grids with exactly one solution, at the rating you ask for.

    Every grid is graded again by the grader before it is written, so its
    rating, level and score are the grader's own.  Exit status: 0 when every
    grid was made, 1 when the timeout cut the run short, 2 on a usage error."""
    h = hierarchy_option(hierarchy)
    check_plugins(h)
    bx = box_option(box)
    if size not in SUPPORTED_SIZES and bx is None:
        fail(f"--size {size}: use one of {', '.join(map(str, SUPPORTED_SIZES))} "
             f"(or give --box AxB)")
    try:
        geo = geometry_for_size(size, bx)
    except ValueError as e:
        fail(str(e))
    if geo.a < 2:
        fail(f"--box {geo.a}x{geo.b}: blocks need at least 2 rows and 2 columns")
    settings = Settings(geo.a, geo.b, symmetry.value, method.value, minimal, min_givens,
                        max_givens, h)
    try:
        settings.check()
    except GenerationError as e:
        fail(str(e))
    if output_format is OutFormat.nt and geo.a != geo.b:
        fail(f"--format nt needs square blocks (the \"N T\" format), not {geo.a}x{geo.b}")
    if with_solution and output_format is OutFormat.block:
        fail("--with-solution: the block format has no place for a solution (a second "
             "block would read as another grid); use line, nt, csv or jsonl")
    if count_alias is not None:
        count = count_alias
    if pack is not None:
        if rating is not None or level is not None:
            fail("--pack makes one grid of each rating: leave out --rating and --level")
        targets = rating_bands(h)
        count = len(targets)
    else:
        try:
            targets = parse_targets(rating, level, h)
            targets = narrow_all(targets, h, depth, score, geo.n, min_givens)
        except TargetError as e:
            fail(str(e))
    if like is not None:
        if pack is not None:
            fail("--like explores around your grids: leave out --pack")
        settings = replace(settings, like=read_like(like, bx, geo.ncells))
    if climbs(Generator(settings), targets[0]) and len(targets) > 1:
        fail("level 14, nested trials, a score at the trial levels and --like take one "
             "rating or level at a time (not a list)")
    if pack is None:
        check_output(output, overwrite)
    seed = resolve_seed(seed, quiet, "generate")
    tasks = plan_tasks(targets, count, seed)
    n_jobs = job_count(jobs)

    stream: TextIO
    if output is not None and pack is None:
        try:
            stream = output.open("w", encoding="utf-8")
        except OSError as e:
            fail(f"{output}: cannot write: {e.strerror or e}")
    else:
        stream = sys.stdout

    made: list[Generated] = []
    missing: list[Task] = []
    t0 = time.perf_counter()
    csvw = CsvWriter()
    try:
        watch = _Watch(tasks, f"{geo.n}x{geo.n}", None if quiet else STALL_SECONDS)
        hard = climbs(Generator(settings), tasks[0].target)
        counters = None
        if hard:
            shared = (multiprocessing.get_context("spawn").Array("q", 2) if n_jobs > 1
                      else None)
            counters = Counters(shared)
        with _Progress(_progress_wanted(False if quiet and progress is None else progress),
                       len(tasks), watch, counters) as bar:
            for task, g in run(settings, tasks, n_jobs, timeout, on_done=bar.done,
                               counters=counters):
                if g is None:
                    missing.append(task)
                    continue
                made.append(g)
                if pack is None:
                    if output_format is OutFormat.csv:
                        stream.write(csvw.rows(g, task.index))
                    else:
                        stream.write(format_grid(g, task.index, output_format.value, h,
                                                 with_solution))
                    stream.flush()
    except KeyboardInterrupt:
        err.print("interrupted")
        raise typer.Exit(130) from None
    finally:
        if stream is not sys.stdout:
            stream.close()
    elapsed = time.perf_counter() - t0
    if pack is not None and made:
        title = f"Sudoku pack {seed}"
        command = ["generate", "--pack", str(pack), "--seed", str(seed)]
        if size != 9 or bx is not None:
            command += ["--size", str(geo.n)] + (["--box", geo.box] if bx is not None else [])
        if symmetry is not Symmetry.none:
            command += ["--symmetry", symmetry.value]
        if method is not Method.guided:
            command += ["--method", method.value]
        if minimal:
            command.append("--minimal")
        if min_givens is not None:
            command += ["--min-givens", str(min_givens)]
        if max_givens is not None:
            command += ["--max-givens", str(max_givens)]
        if hierarchy is not None:
            command += ["--hierarchy", str(hierarchy)]
        meta = (f"{len(made)} grids of {geo.n}x{geo.n}, one of each rating, symmetry "
                f"{symmetry.value}; made by sudoku-grader: {shlex.join(command)}")
        try:
            paths = write_pack(pack, made, h, title, meta)
        except OSError as e:
            fail(f"{pack}: cannot write the pack: {e.strerror or e}")
        if not quiet:
            err.print("wrote " + ", ".join(str(p) for p in paths))
    if not quiet:
        attempts = sum(g.stats.attempts for g in made)
        rate = 60 * len(made) / elapsed if elapsed > 0 else 0.0
        err.print(f"{len(made)} of {len(tasks)} grids in {elapsed:.1f} s "
                  f"({rate:.1f} per minute, {attempts} attempts, {n_jobs} "
                  f"job{'s' if n_jobs != 1 else ''})")
    if missing:
        labels = sorted({t.target.label for t in missing})
        err.print(f"[bold red]timeout:[/] {len(missing)} grid(s) not made "
                  f"({', '.join(labels)}) within {timeout:g} s", markup=True)
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
                  f"may be rare, or impossible, with these options (--timeout bounds the run)")

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
