"""``explain``: every deduction in words and pictures, one step at a time.

The command parses its options into an :class:`~grader.explainer.request.ExplainOptions`
and hands it to :mod:`grader.explainer.request` (the position, the steps, the
json/html/markdown texts); what stays here is the terminal: the text drawing,
``--step`` walking, hints on standard output, messages and exit status."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand

from grader.core.textsafe import escape_controls
from grader.explainer.choices import (
    DEFAULT_EXPLAIN_FORMAT,
    DEFAULT_GRIDS,
    DEFAULT_NOTATION,
    DEFAULT_PATH,
    DETAILS,
    EXPLAIN_FORMATS,
    GRIDS,
    HINT_ALIASES,
    HINT_LEVELS,
    INPUT_FORMATS,
    NOTATIONS,
    PATHS,
)
from grader.formats.files import finish_output, open_output, write_output

if TYPE_CHECKING:
    from grader.explainer.core import Walkthrough
    from grader.explainer.position import Position
    from grader.explainer.request import ExplainOptions
from grader.cli.common import (
    EXIT_NOT_OK,
    box_option,
    check_plugins,
    choices,
    err,
    fail,
    hierarchy_option,
    listed,
    metavar,
    out,
    renamed,
    stdin_is_tty,
)
from grader.cli.options import (
    BoxOpt,
    Color,
    ColorOpt,
    ExplainSchemaOpt,
    HierarchyOpt,
    OutputOpt,
    OverwriteOpt,
    QuietOpt,
    VersionOpt,
    check_output,
    deprecated,
)

if TYPE_CHECKING:
    OutputFormat = str
    Detail = str
    HintLevel = str
    ExplainPath = str
    Notation = str
    Grids = str
    ExplainInputFormat = str
else:  # the choices as grader.explainer.choices declares them (old names: not listed)
    OutputFormat = choices("OutputFormat", EXPLAIN_FORMATS)
    Detail = choices("Detail", DETAILS)
    HintLevel = choices("HintLevel", HINT_LEVELS, HINT_ALIASES)
    ExplainPath = choices("ExplainPath", PATHS)
    Notation = choices("Notation", NOTATIONS)
    Grids = choices("Grids", GRIDS)
    ExplainInputFormat = choices("ExplainInputFormat", INPUT_FORMATS)


def _write(text: str, output: Path | None, quiet: bool = False, fmt: str = "json") -> None:
    """Write a document (``fmt``: json, html or markdown) to ``output`` or standard
    output.  Control characters from names of a hierarchy file are escaped in
    HTML and Markdown, and in JSON shown on a terminal."""
    if fmt != "json" or (output is None and out.is_terminal):
        text = escape_controls(text)
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        write_output(output, text)
    except OSError as e:
        fail(f"{output}: cannot write: {e.strerror or e}")
    if not quiet:
        err.print(f"wrote {output}", markup=False)


class StepCommand(TyperCommand):
    """``--step`` alone walks the steps; ``--step N`` and ``--step=N`` show step N.

    typer has no option with an optional value, so the command line is read
    first: an integer right after ``--step`` (or after ``=``) becomes the
    hidden ``--step-number N``."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, step_args(args))


def step_args(args: list[str]) -> list[str]:
    out_: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            out_.extend(args[i:])
            break
        if a.startswith("--step="):
            out_ += ["--step-number", a.split("=", 1)[1]]
        elif a == "--step" and i + 1 < len(args) and args[i + 1].lstrip("-").isdigit():
            out_ += ["--step-number", args[i + 1]]
            i += 1
        else:
            out_.append(a)
        i += 1
    return out_


GridArg = Annotated[str, typer.Argument(
    metavar="FILE|GRID|-",
    help="A grid, a file of grids, or '-' for standard input.  Also a grid with pencil "
         "marks: n rows of n cells each listing its candidates, or the n**3-character "
         "candidate string (729 for 9x9).", show_default=False)]
IndexOpt = Annotated[int, typer.Option(
    "--index", min=1, metavar="N", help="Which grid of the file (1-based).")]
FormatOpt = Annotated[OutputFormat, typer.Option(
    "--format", "-f", metavar=metavar(EXPLAIN_FORMATS),
    help="text (terminal), json (the list of steps), html (one page, a "
         "drawing per step) or markdown (for forums).")]
DetailOpt = Annotated[Detail | None, typer.Option(
    "--detail", "-d", metavar=metavar(DETAILS),
    help="short: one line per step (what and where); teach: the "
         "reasoning in full sentences.  [default: short; teach with "
         "--step and --hint full]", show_default=False)]
StepOpt = Annotated[bool, typer.Option(
    "--step", help="Walk the solution one step at a time: Enter next, b back, q quit "
                   "(without a terminal, prints the steps one after another).  "
                   "--step N (or --step=N): show step N only, with the board before it "
                   "and its reasoning.")]
StepNumberOpt = Annotated[int | None, typer.Option(
    "--step-number", hidden=True, help="Step N (from --step N; checked as --step N).")]
HintOpt = Annotated[HintLevel | None, typer.Option(
    "--hint", metavar=metavar(HINT_LEVELS), callback=renamed("--hint", HINT_ALIASES),
    autocompletion=listed(HINT_LEVELS),
    help="Show only the next step, at one of three levels: 'technique' (its "
         "name and level), 'where' (also the region, value or cells to look at, "
         "not the conclusion) or 'full' (the whole explanation).", show_default=False)]
MovesOpt = Annotated[str | None, typer.Option(
    "--moves", "-m", metavar="MOVES",
    help="Moves already made, applied to the grid first: r1c5=9, "
         "(1, 5) <- 9, r3c4!=2 ... separated by spaces or commas.",
    show_default=False)]
GridDrawingOpt = Annotated[bool, typer.Option(
    "--grid/--no-grid", help="Draw the candidate grid with each step (text and markdown).")]
GridsOpt = Annotated[Grids, typer.Option(
    "--grids", metavar=metavar(GRIDS),
    help="Text: after the step log, which steps are shown in full, with the board "
                    "drawn: hardest (the hardest step), expert (every step past the book's "
                    "rules 1-12: patterns, chains, trials), all (every step) or none (the "
                    "log alone).")]
LogOpt = Annotated[bool, typer.Option(
    "--log", help="Only the step log: one line per step (number, SE value, level, what and "
                  "where), as HoDoKu lists a solution (--grids none).")]
FullTraceOpt = Annotated[bool, typer.Option(
    "--full-trace", help="Show each trial branch as the whole propagation that ran, in "
                         "scanning order, instead of its minimal chain.")]
RulesUpToOpt = Annotated[int | None, typer.Option(
    "--rules-up-to", min=1, metavar="LEVEL",
    help="Use only the rules up to this level (e.g. 2: singles only).",
    show_default=False)]
PathOpt = Annotated[ExplainPath, typer.Option(
    "--path", metavar=metavar(PATHS),
    help="patterns: where the book's rules 1-12 stop, the patterns players use "
         "(skyscraper, XY-Wing, chains ...), each with its value on Sudoku "
         "Explainer's scale, as the expert score walks them; book: the book's "
         "trials (levels 13-14), the path of the level that grade reports.")]
NotationOpt = Annotated[Notation, typer.Option(
    "--notation", metavar=metavar(NOTATIONS),
    help="How cells and conclusions are written in every output, one notation "
         "throughout: compact, as players write them (r2c7<>3, r4c9=8), or the book's "
         "((2, 7) != 3, (4, 9) <- 8).")]
OldMaxLevelOpt = Annotated[int | None, typer.Option(
    "--max-level", min=1, metavar="LEVEL", hidden=True,
    callback=deprecated("--max-level", "--rules-up-to (grade --max-level filters results)"),
    help="Deprecated spelling of --rules-up-to.")]
ExplainInputFormatOpt = Annotated[ExplainInputFormat, typer.Option(
    "--input-format", "-i", metavar=metavar(INPUT_FORMATS),
    help="How to read the input (auto detects every format, "
    "pencil marks included).")]


def explain_command(
    grid: GridArg, index: IndexOpt = 1, output_format: FormatOpt = DEFAULT_EXPLAIN_FORMAT,
    detail: DetailOpt = None, step_mode: StepOpt = False, step_number: StepNumberOpt = None,
    hint: HintOpt = None, moves: MovesOpt = None, grid_drawing: GridDrawingOpt = True,
    full_trace: FullTraceOpt = False, path: PathOpt = DEFAULT_PATH,
    output: OutputOpt = None,
    overwrite: OverwriteOpt = False, rules_up_to: RulesUpToOpt = None,
    max_level: OldMaxLevelOpt = None,
    input_format: ExplainInputFormatOpt = "auto", box: BoxOpt = None,
    hierarchy: HierarchyOpt = None, quiet: QuietOpt = False, color: ColorOpt = Color.auto,
    version: VersionOpt = None, notation: NotationOpt = DEFAULT_NOTATION,
    schema: ExplainSchemaOpt = None, grids: GridsOpt = DEFAULT_GRIDS, log: LogOpt = False,
) -> None:
    """Explain how to solve a grid, step by step, as players write it (r1c7<>8).

    Every step of the minimal-level strategy (always the easiest rule that makes
    progress) with its rule, level, book reference, a sentence saying why, and the
    candidate grid with the pattern highlighted.  Where the book's rules 1-12
    stop, the patterns players use (skyscraper, XY-Wing, chains ...) with their
    links drawn and their value on Sudoku Explainer's scale (--path book: the
    book's trials).

    \b
    explain puzzles/book-figures.txt --index 2
    explain GRID --step                     # one step at a time
    explain GRID --log                      # the step log: one line per step
    explain GRID --grids all                # every step in full, the board drawn
    explain GRID --step 5                   # step 5, with the board before it
    explain GRID --hint technique           # which technique comes next
    explain GRID --hint where               # ... and where to look
    explain GRID --moves "r1c3=2 r1c5=7" --hint full
    explain GRID -f html -o steps.html      # a page with one drawing per step
    explain GRID --path book                # the book's trials instead of patterns
    explain GRID --notation book            # (2, 7) != 3, (4, 9) <- 8 as the book writes
    """
    from grader.core.rule import RuleError
    from grader.explainer.core import ExplainError, UsageError
    from grader.explainer.request import ExplainOptions, load, walk
    from grader.formats import InputError
    from grader.formats.files import OutputError, check_output_not_input
    from grader.strategy.engine import Engine

    h = hierarchy_option(hierarchy)
    check_plugins(h)
    check_output(output, overwrite)
    if step_number is not None and step_number < 1:
        fail(f"--step {step_number}: steps are numbered from 1")
    if step_number is not None and hint is not None:
        fail("--step N shows one step, --hint the next one: choose one")
    try:  # never overwrite the input with the explanation
        check_output_not_input([grid], [output], stdout_is_output=True)
    except OutputError as e:
        fail(str(e))
    opts = ExplainOptions(
        grid=grid, index=index, box=box_option(box), input_format=str(input_format),
        moves=moves, hierarchy=h,
        max_level=rules_up_to if rules_up_to is not None else max_level,
        detail=str(detail) if detail is not None else None, step_mode=step_mode,
        step_number=step_number, hint=str(hint) if hint is not None else None,
        fmt=str(output_format), grid_drawing=grid_drawing, full_trace=full_trace,
        output=output, path=str(path), notation=str(notation),
        grids="none" if log else str(grids), log=log)
    try:
        pos, board = load(opts)
    except InputError as e:
        fail(str(e))
    except UsageError as e:
        fail(str(e))
    except ExplainError as e:
        fail(str(e), EXIT_NOT_OK)
    try:
        wt = walk(opts, pos, board, Engine(h))
        _render(opts, wt, pos, quiet)
    except RuleError as e:
        fail(str(e), EXIT_NOT_OK)


def _render(opts: ExplainOptions, wt: Walkthrough, pos: Position, quiet: bool) -> None:
    """Write the explanation the options ask for."""
    from grader.explainer.request import document_text

    depth = opts.depth
    if opts.step_number is not None:
        _one_step(wt, opts.step_number, depth, opts.grid_drawing, opts.fmt, opts.output, quiet,
                  opts.full_trace, opts.notation)
    elif opts.hint is not None:
        _hint(wt, opts.hint, depth, opts.grid_drawing, opts.fmt, opts.output, opts.full_trace,
              opts.notation)
    elif opts.step_mode and opts.fmt == "text" and opts.output is None:
        from grader.explainer.walker import print_all, walk

        if stdin_is_tty() and out.is_terminal:
            walk(wt, out, depth, opts.grid_drawing, notation=opts.notation)
        else:
            print_all(wt, out, depth, opts.grid_drawing, opts.notation)
    elif opts.fmt in ("json", "html", "markdown"):
        _write(document_text(opts, pos, wt), opts.output, quiet, opts.fmt)
    else:
        _text(wt, depth, opts.grid_drawing, opts.output, quiet, opts.full_trace, opts.notation,
              opts.grids, opts.log)


def _text(wt: object, detail: str, grid: bool, output: Path | None,
          quiet: bool = False, full_trace: bool = False, notation: str = "compact",
          grids: str = "hardest", log_only: bool = False) -> None:
    """The step log, then the steps ``grids`` selects in full (``all``: every
    step, the starting position drawn first; ``grid``: False draws none)."""
    from rich.text import Text

    from grader.core.terminal import SafeConsole as Console
    from grader.explainer.core import Walkthrough
    from grader.explainer.document import facts
    from grader.explainer.render import render_step
    from grader.explainer.steplog import expert, hardest, log_lines
    from grader.explainer.textgrid import Drawing

    assert isinstance(wt, Walkthrough)
    console = out
    fh = None
    if output is not None:
        try:
            fh = open_output(output)
        except OSError as e:
            fail(f"{output}: cannot write: {e.strerror or e}")
        console = Console(file=fh, highlight=False, soft_wrap=True, no_color=True, emoji=False)
    try:
        wt.ensure()
        numbered = list(enumerate(wt.steps, start=1))
        if grids != "all":
            console.print(Text("Step log", style="bold"))
            for line in log_lines(numbered, notation):
                console.print(line, markup=False, highlight=False, soft_wrap=True)
            console.print()
        if grids == "all" and grid:
            console.print(Text("Starting position", style="bold"))
            console.print(Drawing(wt.start, None, wt.givens))
            console.print()
        top = hardest(numbered)
        chosen = {"all": lambda n, s: True, "none": lambda n, s: False,
                  "expert": lambda n, s: expert(s),
                  "hardest": lambda n, s: n == top}[grids]
        for number, board, step in wt:
            if not chosen(number, step):
                continue
            if grids == "hardest":
                console.print(Text(f"The hardest step ({number}) in full", style="bold"))
            console.print(render_step(number, step, board if grid else None, wt.givens,
                                      "teach" if grids == "hardest" else detail,
                                      full=full_trace, notation=notation),
                          soft_wrap=not console.is_terminal)
            if grid:
                console.print()
        if grids != "all" and not log_only:
            console.print(Text("Any step in full: --step N; every step: --grids all "
                               "(expert: the patterns and chains)", style="dim"))
        console.print(Text(facts(wt).sentence(), style="bold"))
        if fh is not None:
            fh.close()  # renamed over the file: complete
    except OSError as e:
        if fh is None:
            raise
        fail(f"{output}: cannot write: {e.strerror or e}")
    finally:
        if fh is not None:
            finish_output(fh, False)  # (closed already when complete)
    if fh is not None and not quiet:
        err.print(f"wrote {output}", markup=False)


def _one_step(wt: Walkthrough, number: int, detail: str, grid: bool, fmt: str,
              output: Path | None, quiet: bool, full_trace: bool = False,
              notation: str = "compact") -> None:
    """``--step N``: the board before step N, the step and its reasoning."""
    from grader.explainer.render import render_step
    from grader.explainer.request import step_count_error, step_json

    why = step_count_error(wt, number)
    if why is not None:
        fail(why)
    if fmt == "json":
        _write(step_json(wt, number, full_trace, notation), output, quiet)
        return
    step = wt.step(number - 1)
    assert step is not None
    board = wt.before(number - 1)
    if output is None:
        out.print(render_step(number, step, board if grid else None, wt.givens, detail,
                              full=full_trace, notation=notation), soft_wrap=not out.is_terminal)
        return
    from grader.core.terminal import SafeConsole as Console

    try:
        with open_output(output) as fh:
            Console(file=fh, highlight=False, soft_wrap=True, no_color=True, emoji=False).print(
                render_step(number, step, board if grid else None, wt.givens, detail,
                            full=full_trace, notation=notation))
    except OSError as e:
        fail(f"{output}: cannot write: {e.strerror or e}")
    if not quiet:
        err.print(f"wrote {output}", markup=False)


def _hint(wt: Walkthrough, level: str, detail: str, grid: bool, fmt: str,
          output: Path | None, full_trace: bool = False, notation: str = "compact") -> None:
    from grader.explainer.hints import hint_level, technique_hint, where_hint
    from grader.explainer.notation import shown
    from grader.explainer.render import render_step
    from grader.explainer.request import hint_json, no_step_message

    if fmt == "json":
        _write(hint_json(wt, level, full_trace, notation), output)
        return
    step = wt.step(0)
    if step is None:
        out.print(no_step_message(wt), markup=False)
        return
    level = hint_level(level)
    pointer = technique_hint(step) if level == "technique" else where_hint(step)
    if level != "full":
        out.print(shown(pointer, notation), markup=False)
        return
    out.print(render_step(1, step, wt.before(0) if grid else None, wt.givens, detail,
                          full=full_trace, notation=notation),
              soft_wrap=not out.is_terminal)


explain_command.command_class = StepCommand  # type: ignore[attr-defined]
