"""The options every command shares, defined once (the CLI convention of the README).

Each is an ``Annotated`` type that a command uses as a parameter's type::

    def grade_command(..., jobs: JobsOpt = 0, quiet: QuietOpt = False,
                      color: ColorOpt = Color.auto, version: VersionOpt = None)

with the helpers that apply the rules: :func:`check_output` (one overwrite
policy), :func:`job_count` (``0`` = all cores), :func:`resolve_seed` (an
integer, random by default, reported), :func:`set_color` (``--color`` and
``NO_COLOR``).
"""

from __future__ import annotations

import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from grader.cli.common import DEPRECATED_UNTIL, InputFormat, err, fail, metavar, out, warn
from grader.formats import FORMATS


class Color(StrEnum):
    auto = "auto"
    always = "always"
    never = "never"


def set_color(mode: Color | str | None) -> Color | str | None:
    """``--color``: ``auto`` colours a terminal unless ``NO_COLOR`` is set; ``always``
    colours even a pipe (and overrides ``NO_COLOR``); ``never`` writes plain text."""
    if mode is None or mode == Color.auto:
        return mode
    for console in (out, err):
        if mode == Color.never:
            console.no_color = True
            console._color_system = None  # noqa: SLF001 - rich has no public setter
        else:
            console.no_color = False
            console._force_terminal = True  # noqa: SLF001
            console._color_system = console._detect_color_system()  # noqa: SLF001
    return mode


def _version(value: bool | None) -> None:
    if value:
        from grader.about import hierarchy_from_argv, report

        print(report(hierarchy_from_argv(sys.argv[1:])))
        raise typer.Exit(0)


#: A number of seconds at least this large (about 31 years), or ``inf``, is no limit.
NO_LIMIT_SECONDS = 1e9
#: The most solutions ``--limit`` asks for: every one is kept in memory.
MAX_SOLUTIONS = 100_000_000


def seconds_or_none(value: float | None) -> float | None:
    """A time limit as the commands use it: ``inf`` and anything from
    :data:`NO_LIMIT_SECONDS` on mean no limit (None); ``nan`` is refused
    (typer refuses it already with ``min``)."""
    if value is None:
        return None
    if value != value:  # nan
        fail("a time in seconds must be a number, not nan")
    return None if value >= NO_LIMIT_SECONDS else value


def count_limit(value: int | None) -> int | None:
    """``--limit N``: at most :data:`MAX_SOLUTIONS` (each solution found is kept)."""
    if value is not None and value > MAX_SOLUTIONS:
        fail(f"--limit {value}: at most {MAX_SOLUTIONS:,} solutions (each one found is kept "
             f"in memory)")
    return value




def deprecated(old: str, new: str) -> Any:
    """The callback of a deprecated spelling ``old`` of ``new``: used, it says
    so in one line on standard error, and the command goes on."""

    def callback(value: Any) -> Any:
        if value is not None:
            warn(f"{old} is deprecated, use {new} (the old name goes in {DEPRECATED_UNTIL})")
        return value

    return callback


def _deprecated_timeout(value: float | None) -> float | None:
    return seconds_or_none(deprecated("--timeout", "--time-limit (seconds per grid)")(value))


def _deprecated_run_timeout(value: float | None) -> float | None:
    return seconds_or_none(deprecated("--timeout", "--stop-after (seconds for the whole run)")(
        value))


def _print_schema(name: str) -> Any:
    def callback(value: bool | None) -> None:
        if value:
            from grader.schemas import schema_text

            sys.stdout.write(schema_text(name))
            raise typer.Exit(0)

    return callback


GradeSchemaOpt = Annotated[bool | None, typer.Option(
    "--schema", is_eager=True, callback=_print_schema("grade.schema.json"), show_default=False,
    help="Print the JSON Schema of the records (-f jsonl; schemas/grade.schema.json) and "
         "exit.")]

ExplainSchemaOpt = Annotated[bool | None, typer.Option(
    "--schema", is_eager=True, callback=_print_schema("explain.schema.json"),
    show_default=False,
    help="Print the JSON Schema of the document (-f json; schemas/explain.schema.json) "
         "and exit.")]

SolveSchemaOpt = Annotated[bool | None, typer.Option(
    "--schema", is_eager=True, callback=_print_schema("solve.schema.json"), show_default=False,
    help="Print the JSON Schema of the records (-f jsonl; schemas/solve.schema.json) and "
         "exit.")]

GenerateSchemaOpt = Annotated[bool | None, typer.Option(
    "--schema", is_eager=True, callback=_print_schema("grade.schema.json"), show_default=False,
    help="Print the JSON Schema of the records (-f jsonl: grade's records with the "
         "solution; schemas/grade.schema.json) and exit.")]

VersionOpt = Annotated[bool | None, typer.Option(
    "--version", is_eager=True, callback=_version, show_default=False,
    help="Print the version, Python, whether the C accelerator is built and enabled, the "
         "hierarchy and the rule plugins, and exit.")]

QuietOpt = Annotated[bool, typer.Option(
    "--quiet", "-q", help="No progress bar and no summary on standard error.")]

ColorOpt = Annotated[Color, typer.Option(
    "--color", callback=set_color, metavar="auto|always|never",
    help="Colour: auto (on a terminal, unless NO_COLOR is set), always, never.")]

InputFormatOpt = Annotated[InputFormat, typer.Option(
    "--input-format", "-i", metavar=metavar(FORMATS),
    help="How to read the inputs (auto detects every format).")]

BoxOpt = Annotated[str | None, typer.Option(
    "--box", metavar="AxB", show_default=False,
    help="Block shape (rows x columns) for rectangular blocks, e.g. 3x2.")]

HierarchyOpt = Annotated[Path | None, typer.Option(
    "--hierarchy", metavar="FILE", show_default="the book's",
    help="Your own hierarchy table (TOML or JSON).")]

ColumnOpt = Annotated[str | None, typer.Option(
    "--column", metavar="NAME", show_default="puzzle, quizzes, or the first",
    help="CSV or JSON Lines column holding the grids.")]

JobsOpt = Annotated[int, typer.Option(
    "--jobs", "-j", min=0, metavar="N", show_default="0 = all cores",
    help="Worker processes (0: one per core). The results are those of one job, in the "
         "same order.")]

SeedOpt = Annotated[int | None, typer.Option(
    "--seed", metavar="N", show_default="random, printed on standard error",
    help="Random seed (an integer): the same seed and options give the same output.")]

TimeLimitOpt = Annotated[float | None, typer.Option(
    "--time-limit", metavar="SECONDS", min=0.001, show_default="none",
    callback=seconds_or_none,
    help="Give up on a grid after this long: its verdict is `timeout`; the run goes on "
         "(inf: no limit).")]

DeprecatedTimeoutOpt = Annotated[float | None, typer.Option(
    "--timeout", metavar="SECONDS", min=0.001, hidden=True, callback=_deprecated_timeout,
    help="Deprecated spelling of --time-limit.")]

StopAfterOpt = Annotated[float | None, typer.Option(
    "--stop-after", metavar="SECONDS", min=0, show_default="none", callback=seconds_or_none,
    help="Stop the whole run after this long, keeping what was made (exit 1 if fewer "
         "than asked; inf: no limit).")]

DeprecatedRunTimeoutOpt = Annotated[float | None, typer.Option(
    "--timeout", metavar="SECONDS", min=0, hidden=True, callback=_deprecated_run_timeout,
    help="Deprecated spelling of --stop-after.")]

OutputOpt = Annotated[Path | None, typer.Option(
    "--output", "-o", metavar="FILE", show_default="standard output",
    help="Write to FILE (an existing file is refused without --overwrite).")]

OverwriteOpt = Annotated[bool, typer.Option(
    "--overwrite", help="Replace an existing --output file.")]


def check_output(path: Path | None, overwrite: bool, option: str = "--output",
                 hint: str = "--overwrite replaces it") -> None:
    """The one overwrite policy: an existing, non-empty FILE is refused unless
    ``--overwrite``; a directory is refused always."""
    if path is None:
        return
    if path.is_dir():
        fail(f"{option} {path}: is a directory")
    if path.exists() and path.stat().st_size > 0 and not overwrite:
        fail(f"{option} {path} exists: {hint}")


def job_count(jobs: int | None, quiet: bool = False, command: str = "generate") -> int:
    """``--jobs``: 0 (or None) means one per usable CPU; more than the CPUs or
    the memory allow are not started (said on standard error unless ``quiet``;
    see :mod:`grader.bulk.capacity`)."""
    from grader.bulk.capacity import plan_jobs

    if jobs is not None and jobs < 0:
        fail(f"--jobs {jobs}: give a number of processes, or 0 for all cores")
    n, note = plan_jobs(jobs or 0)
    if note is not None and not quiet:
        err.print(f"{command}: note: {note}", markup=False, highlight=False)
    return n


def resolve_seed(seed: int | None, quiet: bool, command: str) -> int:
    """The seed to use: ``--seed``, else a random one, said on standard error so
    that the run can be made again."""
    if seed is not None:
        return seed
    seed = int.from_bytes(os.urandom(4), "big")
    if not quiet:
        err.print(f"seed {seed} ({command} --seed {seed} makes the same again)",
                  markup=False, highlight=False)
    return seed


def umbrella(version: VersionOpt = None, color: ColorOpt = Color.auto) -> None:
    """Solve Sudoku the way a person does, explain every deduction, and rate
    grids by the technique hierarchy of Jussien's A-Z of Sudoku."""
