"""Everything ``grade`` is asked, typed (:class:`GradeOptions`), and the checks
made before any work (:func:`check`): options that do not go together,
outputs that exist, a ``--where`` that does not parse, missing extras.

Every refusal is a :class:`GradeUsageError` whose message is the one the command
prints (exit status 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from grader.bulk.choices import FORMAT_ALIASES, OUTPUT_FORMATS
from grader.bulk.where import Where, WhereError
from grader.core.errors import GraderError
from grader.strategy.hierarchy import Hierarchy
from grader.strategy.serate.settings import DEFAULT_SE, SE_DEPTHS

__all__ = ["FORMAT_ALIASES", "OUTPUT_FORMATS", "GradeOptions", "GradeUsageError"]


class GradeUsageError(GraderError, ValueError):
    """A request ``grade`` refuses (the command exits with ``code``, 2)."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class GradeOptions:
    """``grade FILE ...``'s options, parsed (names as on the command line)."""

    inputs: Sequence[str] = ()
    output_format: str | None = None  # --format: text, jsonl, csv (None: by the output)
    input_format: str = "auto"
    box: str | None = None
    hierarchy: Hierarchy | None = None  # --hierarchy, --propagation: the table, loaded
    strict: bool = False
    column: str | None = None
    with_solution: bool = False
    check: bool = False
    check_engine: str | None = None
    jobs: int = 0  # 0: one per core
    time_limit: float | None = None
    output: Path | None = None
    resume: bool = False
    overwrite: bool = False
    summary_only: bool = False
    summary: bool | None = None
    plot: Path | None = None
    progress: bool | None = None
    where: str | None = None
    min_level: int | None = None
    max_level: int | None = None
    sort: str | None = None
    top: int | None = None
    dedupe: bool = False
    keep_columns: bool = False
    dask: str | None = None
    quiet: bool = False
    se: str = DEFAULT_SE  # --se: how deep the estimate searches nested chains (off: none)

    @property
    def njobs(self) -> int:
        """``jobs``, 0 meaning one per usable CPU (see :mod:`grader.bulk.capacity`)."""
        from grader.bulk.capacity import usable_cpus

        return self.jobs or usable_cpus()

    @property
    def stdout_is_data(self) -> bool:
        """JSON Lines or CSV results on standard output."""
        return (self.output is None and not self.summary_only
                and self.output_format in ("jsonl", "csv"))


#: A time limit at least this long (about 31 years), or ``inf``, is no limit.
NO_LIMIT_SECONDS = 1e9


def time_limit(seconds: float | None) -> float | None:
    """``--time-limit`` as the workers use it: None for no limit (``inf`` and
    anything from :data:`NO_LIMIT_SECONDS` on); refused when not a positive number."""
    if seconds is None:
        return None
    if not seconds > 0:  # nan too
        raise GradeUsageError(f"--time-limit {seconds}: give a number of seconds above 0")
    return None if seconds >= NO_LIMIT_SECONDS else float(seconds)


def normalized(opts: GradeOptions) -> GradeOptions:
    """``opts`` with its numbers as the run uses them (see :func:`time_limit`)."""
    limit = time_limit(opts.time_limit)
    return opts if limit == opts.time_limit else replace(opts, time_limit=limit)


def check(opts: GradeOptions) -> tuple[tuple[int, int] | None, Where | None]:
    """Refuse what cannot be done, before any work; the parsed ``--box`` and
    ``--where``."""
    from grader.bulk.select import SORT_KEYS
    from grader.core.geometry import parse_box

    if not opts.inputs:
        raise GradeUsageError("missing FILE|GRID|-: name a file of grids, '-' for standard input, "
                         "or a grid")
    _check_plugins(opts.hierarchy)
    try:
        box = parse_box(opts.box) if opts.box is not None else None
    except ValueError as e:
        raise GradeUsageError(str(e)) from None
    if opts.jobs < 0:
        raise GradeUsageError(f"--jobs {opts.jobs}: give a number of processes, or 0 for all cores")
    if opts.output_format is not None and opts.output_format not in (*OUTPUT_FORMATS,
                                                                     *FORMAT_ALIASES):
        raise GradeUsageError(f"--format {opts.output_format!r}: choose from "
                         f"{', '.join(OUTPUT_FORMATS)}")
    if opts.quiet and opts.progress:
        raise GradeUsageError("--quiet and --progress contradict each other")
    if opts.se not in SE_DEPTHS:
        raise GradeUsageError(f"--se {opts.se!r}: choose from {', '.join(SE_DEPTHS)}")
    _check_output(opts)
    if opts.sort is not None and opts.sort not in SORT_KEYS:
        raise GradeUsageError(f"--sort {opts.sort!r}: choose from {', '.join(SORT_KEYS)}")
    if opts.top is not None and opts.sort is None:
        raise GradeUsageError("--top needs --sort")
    if opts.min_level is not None and opts.max_level is not None \
            and opts.min_level > opts.max_level:
        raise GradeUsageError(f"--min-level {opts.min_level} is above --max-level {opts.max_level}")
    where: Where | None = None
    if opts.where is not None:
        try:
            where = Where(opts.where)
        except WhereError as e:
            raise GradeUsageError(f"--where: {e}") from None
    _check_extras(opts)
    _check_files(opts)
    return box, where


def _check_plugins(h: Hierarchy | None) -> None:
    """A hierarchy that names a missing plugin fails early, with a clear message."""
    if h is None:
        return
    from grader.strategy.plugins import PluginError, rule_class

    for spec in h.rules:
        try:
            rule_class(spec.plugin)
        except PluginError as e:
            raise GradeUsageError(f"rule {spec.code!r}: {e}") from None


def _check_output(opts: GradeOptions) -> None:
    output = opts.output
    if opts.resume and output is None:
        raise GradeUsageError("--resume continues an --output file: name it with --output FILE")
    if output is not None:
        if output.suffix.lower() not in (".jsonl", ".csv"):
            raise GradeUsageError(f"--output {output}: the name must end in .jsonl or .csv")
        if output.is_dir():
            raise GradeUsageError(f"--output {output}: is a directory")
        from grader.formats.files import special_kind

        kind = special_kind(output)
        if kind is not None:
            raise GradeUsageError(
                f"--output {output}: is {kind}, not a regular file (--output writes a file that "
                f"--resume can continue): write to a file, or use -f jsonl or -f csv and "
                f"redirect standard output")
        if output.exists() and output.stat().st_size > 0 and not (opts.overwrite or opts.resume):
            raise GradeUsageError(f"--output {output} exists: --resume continues it, "
                             f"--overwrite replaces it")
    if opts.resume and opts.overwrite:
        raise GradeUsageError("--resume and --overwrite contradict each other")


def _check_extras(opts: GradeOptions) -> None:
    """--plot, --check-engine and --dask need what may not be installed."""
    from grader.bulk.task import EngineUnavailable, engine_solver
    from grader.formats.files import plot_path_problem

    if opts.plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise GradeUsageError("--plot needs matplotlib: pip install 'sudoku-grader[plot]'") \
                from None
        problem = plot_path_problem(opts.plot)
        if problem:
            raise GradeUsageError(f"--plot {opts.plot}: {problem}")
    if opts.check_engine is not None:
        try:
            engine_solver(opts.check_engine)
        except EngineUnavailable as e:
            raise GradeUsageError(f"--check-engine: {e}") from None
    if opts.dask is not None:
        import importlib.util

        if importlib.util.find_spec("distributed") is None:  # not imported: a local cluster
            raise GradeUsageError("--dask needs dask.distributed: pip install "  # starts first
                                  "'sudoku-grader[dask]'")


def _check_files(opts: GradeOptions) -> None:
    """Every input readable, no output that is an input: before any work."""
    from grader.formats import InputError, check_sources
    from grader.formats.files import OutputError, check_output_not_input

    try:
        check_sources(list(opts.inputs))
        check_output_not_input(list(opts.inputs), [opts.output, opts.plot],
                               stdout_is_output=True)
    except (InputError, OutputError) as e:
        raise GradeUsageError(str(e)) from None
