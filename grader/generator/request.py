"""One ``generate`` run as a library call, what the command line hands over.

:class:`GenerateOptions` holds the request, typed; :func:`prepare` checks it
and plans it (a :class:`Plan`: settings, targets; every refusal is a
:class:`~grader.generator.search.GenerationError` or a
:class:`~grader.generator.targets.TargetError` whose message is the one the
command prints); :func:`produce` makes the grids and writes them;
:func:`write_daily_pack` writes ``--pack``.

>>> from grader.generator.request import GenerateOptions, prepare, produce
>>> import io
>>> plan = prepare(GenerateOptions(rating="easy", number=2, seed=1, jobs=1))
>>> out = io.StringIO()
>>> [g.result.rating for g in produce(plan, out).made]
['easy', 'easy']
"""

from __future__ import annotations

import os
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TextIO

from grader.core.geometry import SUPPORTED_SIZES, Geometry, geometry_for_size
from grader.formats import InputError, iter_source
from grader.generator.by_se import setting_for
from grader.generator.climb import Counters, climbs
from grader.generator.output import (
    DEFAULT_FORMAT,
    FORMAT_ALIASES,
    OUTPUT_FORMATS,
    CsvWriter,
    format_grid,
)
from grader.generator.pack import write_pack
from grader.generator.run import Task, plan_tasks, run
from grader.generator.search import Generated, GenerationError, Generator, Settings
from grader.generator.targets import (
    Target,
    TargetError,
    impossible,
    narrow,
    narrow_se,
    parse_depth,
    parse_score,
    parse_se,
    parse_targets,
    rating_bands,
)
from grader.kernel import solve
from grader.strategy.hierarchy import Hierarchy, default_hierarchy

#: what ``--format`` accepts (declared in :mod:`grader.generator.output`)
FORMATS = OUTPUT_FORMATS


@dataclass(frozen=True)
class GenerateOptions:
    """Everything ``generate`` is asked, typed (the command's options, parsed)."""

    rating: str | None = None
    level: str | None = None
    depth: str | None = None
    score: str | None = None
    #: ``--se``, ``--ep``, ``--ed``: ranges of Sudoku Explainer's ratings (``8.0..9.0``)
    se: str | None = None
    ep: str | None = None
    ed: str | None = None
    #: ``--like FILE``: grids to explore around
    like: Path | None = None
    number: int = 1
    size: int = 9
    box: tuple[int, int] | None = None
    symmetry: str = "none"
    minimal: bool = False
    min_givens: int | None = None
    max_givens: int | None = None
    #: the run's seed (None: a random one, in :attr:`Plan.seed`)
    seed: int | None = None
    method: str = "guided"
    jobs: int = 1
    #: seconds for the whole run (None: no limit)
    timeout: float | None = None
    output_format: str = DEFAULT_FORMAT
    with_solution: bool = False
    #: ``--pack DIR``: one grid of each rating and pack.html
    pack: Path | None = None
    hierarchy: Hierarchy | None = None
    #: the ``--hierarchy`` file, named in the pack's command line
    hierarchy_file: Path | None = None


@dataclass
class Plan:
    """A checked request: the settings of the generator and the targets."""

    options: GenerateOptions
    hierarchy: Hierarchy
    geo: Geometry
    settings: Settings
    targets: list[Target]
    #: how many grids (``--pack``: one per rating)
    count: int
    #: whether the request takes the hard search (climbing)
    hard: bool
    #: the seed of the run: ``options.seed``, else a random one
    seed: int

    def tasks(self) -> list[Task]:
        return plan_tasks(self.targets, self.count, self.seed)


@dataclass
class Outcome:
    """What a run made: the grids in order, the tasks the timeout cut, the time."""

    made: list[Generated] = field(default_factory=list)
    missing: list[Task] = field(default_factory=list)
    seconds: float = 0.0


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
    """The grids of ``--like FILE`` with one solution; :class:`GenerationError`
    (naming file and line) for any other grid, :class:`InputError` for a file
    that cannot be read."""
    records = list(iter_source(str(path), box=box))
    grids: list[tuple[int, ...]] = []
    for rec in records:
        where = f"{path}:{rec.line}"
        if rec.grid is None:
            raise GenerationError(f"{where}: {rec.error}")
        if rec.grid.geo.ncells != ncells:
            raise GenerationError(f"{where}: a {rec.grid.size}x{rec.grid.size} grid; give "
                                  f"--size {rec.grid.size} to explore around it")
        res = solve(rec.grid.geo, rec.grid.values, 2)
        if res.count != 1:
            what = "no solution" if res.count == 0 else "several solutions"
            raise GenerationError(f"{where}: the grid has {what}; --like needs grids with "
                                  f"exactly one")
        grids.append(rec.grid.values)
    if not grids:
        raise GenerationError(f"{path}: no grid to explore around")
    return tuple(grids)


#: The most grids one run makes (each has its task planned up front).
MAX_NUMBER = 1_000_000


def _geometry(opts: GenerateOptions) -> Geometry:
    if opts.size not in SUPPORTED_SIZES and opts.box is None:
        raise GenerationError(f"--size {opts.size}: use one of "
                              f"{', '.join(map(str, SUPPORTED_SIZES))} (or give --box AxB)")
    try:
        geo = geometry_for_size(opts.size, opts.box)
    except ValueError as e:
        raise GenerationError(str(e)) from e
    if geo.a < 2:
        raise GenerationError(f"--box {geo.a}x{geo.b}: blocks need at least 2 rows and "
                              f"2 columns")
    return geo


def _check_format(opts: GenerateOptions, geo: Geometry) -> None:
    if opts.output_format not in (*FORMATS, *FORMAT_ALIASES):
        raise GenerationError(f"unknown output format {opts.output_format!r} "
                              f"(choose from {', '.join(FORMATS)})")
    if opts.output_format == "nt" and geo.a != geo.b:
        raise GenerationError(f"--format nt needs square blocks (the \"N T\" format), not "
                              f"{geo.a}x{geo.b}")
    if opts.with_solution and opts.output_format == "block":
        raise GenerationError("--with-solution: the block format has no place for a "
                              "solution (a second block would read as another grid); use "
                              "line, nt, csv or jsonl")


def _targets(opts: GenerateOptions, h: Hierarchy, geo: Geometry) -> list[Target]:
    if opts.pack is not None:
        if opts.rating is not None or opts.level is not None:
            raise GenerationError("--pack makes one grid of each rating: leave out --rating "
                                  "and --level")
        return rating_bands(h)
    targets = parse_targets(opts.rating, opts.level, h)
    targets = narrow_all(targets, h, opts.depth, opts.score, geo.n, opts.min_givens)
    if opts.se is None and opts.ep is None and opts.ed is None:
        return targets
    se, ep, ed = (parse_se(v, name) if v is not None else None
                  for v, name in ((opts.se, "--se"), (opts.ep, "--ep"), (opts.ed, "--ed")))
    return [narrow_se(t, se, ep, ed, geo.n) for t in targets]


def prepare(opts: GenerateOptions) -> Plan:
    """Check a request and plan it, in the order the command reports problems.

    Raises :class:`GenerationError`, :class:`TargetError` or
    :class:`InputError` (``--like``), each with the command's message."""
    h = opts.hierarchy or default_hierarchy()
    geo = _geometry(opts)
    settings = Settings(geo.a, geo.b, opts.symmetry, opts.method, opts.minimal,
                        opts.min_givens, opts.max_givens, h)
    settings.check()
    _check_format(opts, geo)
    targets = _targets(opts, h, geo)
    count = len(targets) if opts.pack is not None else opts.number
    if count > MAX_NUMBER:
        raise GenerationError(f"--number {count}: at most {MAX_NUMBER:,} grids a run (runs "
                              f"with other seeds make more)")
    if opts.like is not None:
        if opts.pack is not None:
            raise GenerationError("--like explores around your grids: leave out --pack")
        settings = replace(settings, like=read_like(opts.like, opts.box, geo.ncells))
    if targets[0].by_se:
        settings = replace(settings, se=max((setting_for(t) for t in targets),
                                            key=lambda name: name == "full"))
    hard = climbs(Generator(settings), targets[0])
    if hard and len(targets) > 1:
        raise GenerationError("level 14, nested trials, a score at the trial levels and "
                              "--like take one rating or level at a time (not a list)")
    seed = opts.seed if opts.seed is not None else int.from_bytes(os.urandom(4), "big")
    return Plan(opts, h, geo, settings, targets, count, hard, seed)


def produce(plan: Plan, stream: TextIO, tasks: list[Task] | None = None,
            on_done: Callable[[Task, Generated | None], None] | None = None,
            counters: Counters | None = None) -> Outcome:
    """Make the grids of ``plan`` (``tasks``: those of :meth:`Plan.tasks` unless
    given) and write each to ``stream`` as it comes, in the requested format
    (nothing with ``--pack``: see :func:`write_daily_pack`)."""
    opts = plan.options
    tasks = plan.tasks() if tasks is None else tasks
    outcome = Outcome()
    csvw = CsvWriter()
    t0 = time.perf_counter()
    for task, g in run(plan.settings, tasks, opts.jobs, opts.timeout, on_done=on_done,
                       counters=counters):
        if g is None:
            outcome.missing.append(task)
            continue
        outcome.made.append(g)
        if opts.pack is None:
            if opts.output_format == "csv":
                stream.write(csvw.rows(g, task.index))
            else:
                stream.write(format_grid(g, task.index, opts.output_format, plan.hierarchy,
                                         opts.with_solution))
            stream.flush()
    outcome.seconds = time.perf_counter() - t0
    return outcome


def pack_command(plan: Plan) -> list[str]:
    """The command line that makes the same pack again."""
    opts, geo = plan.options, plan.geo
    command = ["generate", "--pack", str(opts.pack), "--seed", str(plan.seed)]
    if opts.size != 9 or opts.box is not None:
        command += ["--size", str(geo.n)] + (["--box", geo.box] if opts.box is not None else [])
    if opts.symmetry != "none":
        command += ["--symmetry", opts.symmetry]
    if opts.method != "guided":
        command += ["--method", opts.method]
    if opts.minimal:
        command.append("--minimal")
    if opts.min_givens is not None:
        command += ["--min-givens", str(opts.min_givens)]
    if opts.max_givens is not None:
        command += ["--max-givens", str(opts.max_givens)]
    if opts.hierarchy_file is not None:
        command += ["--hierarchy", str(opts.hierarchy_file)]
    return command


def write_daily_pack(plan: Plan, made: list[Generated]) -> list[Path]:
    """Write ``--pack DIR`` (raises :class:`OSError` when it cannot)."""
    opts, geo = plan.options, plan.geo
    assert opts.pack is not None
    meta = (f"{len(made)} grids of {geo.n}x{geo.n}, one of each rating, symmetry "
            f"{opts.symmetry}; made by sudoku-grader: {shlex.join(pack_command(plan))}")
    return write_pack(opts.pack, made, plan.hierarchy, f"Sudoku pack {plan.seed}", meta)


def summary(outcome: Outcome, tasks: int, jobs: int) -> str:
    """The run in one line: grids made, rate, attempts, jobs."""
    made, elapsed = outcome.made, outcome.seconds
    attempts = sum(g.stats.attempts for g in made)
    rate = 60 * len(made) / elapsed if elapsed > 0 else 0.0
    return (f"{len(made)} of {tasks} grids in {elapsed:.1f} s ({rate:.1f} per minute, "
            f"{attempts} attempts, {jobs} job{'s' if jobs != 1 else ''})")


__all__ = [
    "FORMATS", "GenerateOptions", "InputError", "Outcome", "Plan", "narrow_all", "pack_command",
    "prepare", "produce", "read_like", "summary", "write_daily_pack",
]
