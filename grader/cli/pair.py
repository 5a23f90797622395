"""``pair``: Sudoku pairs -- two grids whose corresponding cells differ.

``pair solve FILE`` fills a pair (or says none exists) and tells whether the
joint solution is unique; ``pair generate --order K`` makes a pair puzzle with
a unique joint solution from which no given can be removed."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from grader.cli.common import (
    EXIT_NOT_OK,
    EXIT_OK,
    box_option,
    choices,
    err,
    fail,
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
    DeprecatedRunTimeoutOpt,
    InputFormatOpt,
    OutputOpt,
    OverwriteOpt,
    QuietOpt,
    SeedOpt,
    StopAfterOpt,
    VersionOpt,
    check_output,
    count_limit,
    resolve_seed,
)
from grader.exact import EngineError
from grader.exact.pairs import (
    DEFAULT_PAIR_SOLVER,
    PAIR_FORMAT_ALIASES,
    PAIR_FORMATS,
    GeneratedPair,
    PairGenerateOptions,
    check_pair_order,
    is_pair_solution,
    pair_generate,
    pair_summary,
    pair_text,
    render_pair,
    solve_pair,
    verify_pair,
)
from grader.exact.render import draw, draw_rich, side_by_side
from grader.formats import Grid, InputError, Record, iter_source
from grader.formats.files import OutputError, check_output_not_input, output_problem, write_output

_SETTINGS = {"help_option_names": ["-h", "--help"]}

app = typer.Typer(
    name="pair",
    help="Sudoku pairs: two grids of the same size, each a Sudoku, whose corresponding "
         "cells must hold different values.  Solved and generated with SAT.",
    no_args_is_help=True,
    add_completion=False,
    context_settings=_SETTINGS,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@app.callback()
def _pair(version: VersionOpt = None, color: ColorOpt = Color.auto) -> None:
    """Sudoku pairs: two grids of the same size, each a Sudoku, whose corresponding
    cells must hold different values.  Solved and generated with SAT."""


if TYPE_CHECKING:
    PairFormat = str
else:  # the choices as grader.exact.pairs declares them (old names: not listed)
    PairFormat = choices("PairFormat", PAIR_FORMATS, PAIR_FORMAT_ALIASES)


def _read_pair(path: str, input_format: str, box: tuple[int, int] | None
               ) -> tuple[Record, Grid, Grid]:
    try:
        recs = list(iter_source(path, input_format, box))
    except InputError as e:
        fail(str(e))
    for rec in recs:
        if rec.grid is None:
            fail(f"{path}: grid {rec.index} (line {rec.line}) is malformed: {rec.error}",
                 EXIT_NOT_OK)
    if len(recs) != 2:
        fail(f"{path}: a pair is two grids, found {len(recs)}")
    a, b = recs[0].grid, recs[1].grid
    assert a is not None and b is not None
    if a.geo is not b.geo:
        fail(f"{path}: the two grids differ in size or block shape "
             f"({a.size}x{a.size} {a.geo.box}, {b.size}x{b.size} {b.geo.box})")
    return recs[0], a, b


@app.command("solve", context_settings=_SETTINGS)
def solve_command(
    file: Annotated[str, typer.Argument(
        metavar="FILE|-",
        help="A file holding both grids (any format: two lines, two \"N T\" lines, two "
             "blocks; 0 or . for empty), or '-' for standard input.", show_default=False)],
    pretty: Annotated[bool, typer.Option(
        "--pretty", help="Draw the two grids side by side.")] = False,
    count: Annotated[bool, typer.Option(
        "--count", help="Count the joint solutions (up to --limit).")] = False,
    limit: Annotated[int | None, typer.Option(
        "--limit", min=1, metavar="N", show_default="2, or 1000 with --count",
        callback=count_limit,
        help="Stop after this many solutions.")] = None,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", metavar="FILE", show_default="none",
        help="Also write the filled pair to FILE (an existing file is refused without "
             "--overwrite).")] = None,
    overwrite: OverwriteOpt = False,
    input_format: InputFormatOpt = "auto",
    box: BoxOpt = None,
    sat_solver: Annotated[str, typer.Option(
        "--sat-solver", metavar="NAME", help="PySAT solver.")] = DEFAULT_PAIR_SOLVER,
    quiet: QuietOpt = False,
    color: ColorOpt = Color.auto,
    version: VersionOpt = None,
) -> None:
    """Fill a Sudoku pair (or say that none exists) and tell whether it is unique.

    Exit status: 0 when the pair has exactly one solution (with --count: when it
    was counted), 1 when it has none or several, 2 on a usage error."""
    bx = box_option(box)
    check_output(output, overwrite)
    try:  # never overwrite the input with the solution
        check_output_not_input([file], [output], stdout_is_output=True)
    except OutputError as e:
        fail(str(e))
    rec, a, b = _read_pair(file, str(input_format), bx)
    lim = limit if limit is not None else (1000 if count else 2)
    try:
        res = solve_pair(a.geo, a.values, b.values, lim, sat_solver)
    except EngineError as e:  # an unknown solver name
        fail(str(e))
    if count:
        more = "at least " if res.count >= lim else ""
        word = "solution" if res.count == 1 else "solutions"
        out.print(f"{more}{res.count} joint {word}")
        raise typer.Exit(EXIT_OK)
    if not res.solutions:
        err.print("no solution: no pair of grids fills these givens", markup=False)
        raise typer.Exit(EXIT_NOT_OK)
    sa, sb = res.solutions[0]
    assert is_pair_solution(a.geo, a.values, b.values, sa, sb)
    fmt = rec.format if rec.format in ("nt", "block") else "text"
    if pretty:
        left = draw_rich(a.geo, sa, a.values)
        right = draw_rich(a.geo, sb, b.values)
        _print_side_by_side(left.plain, right.plain)
    else:
        out.print(render_pair(a.geo, sa, sb, fmt), markup=False, highlight=False)
    if output is not None:
        try:
            write_output(output, render_pair(a.geo, sa, sb, fmt) + "\n")
        except OSError as e:
            fail(f"{output}: cannot write: {e.strerror or e}")
    if res.count == 1:
        if not quiet:
            err.print(f"the pair has exactly one solution ({res.seconds:.2f} s)", markup=False)
        raise typer.Exit(EXIT_OK)
    err.print(f"the pair has {'at least ' if res.count >= lim else ''}{res.count} solutions; "
              f"this is one of them", markup=False)
    raise typer.Exit(EXIT_NOT_OK)


def _print_side_by_side(left: str, right: str) -> None:
    out.print(side_by_side(left, right), markup=False, highlight=False)


OrderOpt = Annotated[int, typer.Option(
    "--order", "-k", min=2, max=6, metavar="K",
    help="Block order K: grids of K*K x K*K (2: 4x4, 3: 9x9, 4: 16x16; 5 and 6 are "
         "refused: they do not finish in reasonable time).")]
PairFormatOpt = Annotated[PairFormat, typer.Option(
    "--format", "-f", metavar=metavar(PAIR_FORMATS),
    callback=renamed("--format", PAIR_FORMAT_ALIASES),
    autocompletion=listed(PAIR_FORMATS),
    help="block (two blocks of rows), text (two lines) or nt (two \"N T\" lines); 0 for "
         "empty.")]
PairPrettyOpt = Annotated[bool, typer.Option(
    "--pretty", help="Also draw the two grids side by side (on standard error when "
    "--output is not given).")]
WithSolutionOpt = Annotated[bool, typer.Option(
    "--with-solution", help="Also print the joint solution.")]
VerifyOpt = Annotated[bool, typer.Option(
    "--verify", help="Check the result again: a fresh solver counts the joint solutions "
    "(exactly one), and removing any single given lets a second solution in.")]
SatSolverOpt = Annotated[str, typer.Option(
    "--sat-solver", metavar="NAME", help="PySAT solver.")]


@app.command("generate", context_settings=_SETTINGS)
def generate_command(
    order: OrderOpt = 3, seed: SeedOpt = None,
    output_format: PairFormatOpt = PAIR_FORMATS[0], output: OutputOpt = None,
    overwrite: OverwriteOpt = False, pretty: PairPrettyOpt = False,
    with_solution: WithSolutionOpt = False, verify: VerifyOpt = False,
    sat_solver: SatSolverOpt = DEFAULT_PAIR_SOLVER, timeout: StopAfterOpt = None,
    old_timeout: DeprecatedRunTimeoutOpt = None,
    quiet: QuietOpt = False, color: ColorOpt = Color.auto, version: VersionOpt = None,
) -> None:
    """Make a Sudoku pair puzzle: a unique joint solution and maximal holes.

    A random solved pair, then every given of both grids tried for removal in a
    random order, kept only when removing it would let another joint solution in.
    One SAT solver decides all removals through assumptions (selector literals),
    without being rebuilt.  Order 3 takes well under a second, order 4 a few
    seconds; order 5 would not finish in reasonable time and is refused (see the README)."""
    try:  # before any work: an order that cannot be done is refused with why
        check_pair_order(order)
    except ValueError as e:
        fail(str(e))
    check_output(output, overwrite)
    if output is not None:
        problem = output_problem(output)
        if problem:
            fail(f"--output {output}: {problem}")
    timeout = timeout if timeout is not None else old_timeout
    opts = PairGenerateOptions(order, resolve_seed(seed, quiet, "pair generate"),
                               str(output_format), with_solution, sat_solver, timeout)
    gen = _generate(opts, quiet)
    text = pair_text(gen, opts)
    if output is not None:
        try:
            write_output(output, text + "\n")
        except OSError as e:
            fail(f"{output}: cannot write: {e.strerror or e}")
    else:
        out.print(text, markup=False, highlight=False)
    if pretty:
        pic = side_by_side(draw(gen.geo, gen.puzzle_a), draw(gen.geo, gen.puzzle_b))
        (out if output is not None else err).print(pic, markup=False, highlight=False)
    if not quiet:
        err.print(pair_summary(gen, opts) + (f"; wrote {output}" if output else ""),
                  markup=False, highlight=False)
    if not gen.complete:
        err.print(f"timeout: stopped after {timeout:g} s; the pair has one joint solution, "
                  "but some givens were not tried for removal", markup=False, highlight=False)
        if not verify:
            raise typer.Exit(EXIT_NOT_OK)
    if verify:
        check = verify_pair(gen, sat_solver)
        err.print(check.line(), markup=False, highlight=False)
        raise typer.Exit(EXIT_OK if check.ok else EXIT_NOT_OK)


def _generate(opts: PairGenerateOptions, quiet: bool) -> GeneratedPair:
    """The pair, with a progress bar of the givens tried on a terminal."""
    bar = None
    task = None
    if not quiet and err.is_terminal:
        from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn

        bar = Progress(TextColumn(f"order {opts.order} pair"), BarColumn(),
                       TaskProgressColumn(),
                       TextColumn("{task.completed}/{task.total} givens tried"), console=err,
                       transient=True)
        task = bar.add_task("pair", total=2 * opts.order ** 4)
        bar.start()

    def progress(done: int, total: int) -> None:
        if bar is not None and task is not None and (done % 8 == 0 or done == total):
            bar.update(task, completed=done)

    try:
        with sigterm_as_interrupt():  # kill or a closed terminal: as Ctrl-C
            return pair_generate(opts, progress if bar is not None else None)
    except KeyboardInterrupt:
        if bar is not None:
            bar.stop()
        err.print("interrupted")
        raise typer.Exit(130) from None
    except (EngineError, ValueError) as e:  # an unknown solver name
        if bar is not None:
            bar.stop()
        fail(str(e))
    finally:
        if bar is not None:
            bar.stop()
