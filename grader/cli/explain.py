"""``explain``: every deduction in words and pictures, one step at a time."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text
from typer.core import TyperCommand

from ..engine import Engine
from ..files import OutputError, check_output_not_input
from ..formats import InputError, Record
from ..hierarchy import Hierarchy
from ..rule import RuleError

if TYPE_CHECKING:
    from ..board import Board
    from ..explain.position import Position
from .common import (
    EXIT_NOT_OK,
    box_option,
    check_plugins,
    err,
    fail,
    hierarchy_option,
    out,
    stdin_is_tty,
)
from .options import (
    BoxOpt,
    Color,
    ColorOpt,
    HierarchyOpt,
    OutputOpt,
    OverwriteOpt,
    QuietOpt,
    VersionOpt,
    check_output,
)


class OutputFormat(StrEnum):
    text = "text"
    json = "json"
    html = "html"
    markdown = "markdown"


class Detail(StrEnum):
    short = "short"
    teach = "teach"


class HintLevel(StrEnum):
    technique = "technique"
    where = "where"
    full = "full"
    vague = "vague"  # the old name of ``where``


class ExplainInputFormat(StrEnum):
    auto = "auto"
    line = "line"
    nt = "nt"
    block = "block"
    csv = "csv"
    jsonl = "jsonl"
    pencil = "pencil"


def _write(text: str, output: Path | None, quiet: bool = False) -> None:
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        output.write_text(text, encoding="utf-8")
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


def explain_command(
    grid: Annotated[str, typer.Argument(
        metavar="FILE|GRID|-",
        help="A grid, a file of grids, or '-' for standard input.  Also a grid with pencil "
             "marks: n rows of n cells each listing its candidates, or the n**3-character "
             "candidate string (729 for 9x9).", show_default=False)],
    index: Annotated[int, typer.Option(
        "--index", min=1, metavar="N", help="Which grid of the file (1-based).")] = 1,
    output_format: Annotated[OutputFormat, typer.Option(
        "--format", "-f", help="text (terminal), json (the list of steps), html (one page, a "
                               "drawing per step) or markdown (for forums).")] = OutputFormat.text,
    detail: Annotated[Detail | None, typer.Option(
        "--detail", "-d", help="short: one line per step (what and where); teach: the "
                               "reasoning in full sentences.  [default: short; teach with "
                               "--step and --hint full]", show_default=False)] = None,
    step_mode: Annotated[bool, typer.Option(
        "--step", help="Walk the solution one step at a time: Enter next, b back, q quit "
                       "(without a terminal, prints the steps one after another).  "
                       "--step N (or --step=N): show step N only, with the board before it "
                       "and its reasoning.")] = False,
    step_number: Annotated[int | None, typer.Option(
        "--step-number", min=1, hidden=True, help="Step N (from --step N).")] = None,
    hint: Annotated[HintLevel | None, typer.Option(
        "--hint", help="Show only the next step, at one of three levels: 'technique' (its "
                       "name and level), 'where' (also the region, value or cells to look at, "
                       "not the conclusion) or 'full' (the whole explanation).  'vague' is the "
                       "old name of 'where'.", show_default=False)] = None,
    moves: Annotated[str | None, typer.Option(
        "--moves", "-m", metavar="MOVES",
        help="Moves already made, applied to the grid first: r1c5=9, "
                              "(1, 5) <- 9, r3c4!=2 ... separated by spaces or commas.",
        show_default=False)] = None,
    grid_drawing: Annotated[bool, typer.Option(
        "--grid/--no-grid", help="Draw the candidate grid with each step (text and markdown).")
    ] = True,
    full_trace: Annotated[bool, typer.Option(
        "--full-trace", help="Show each trial branch as the whole propagation that ran, in "
                             "scanning order, instead of its minimal chain.")] = False,
    output: OutputOpt = None,
    overwrite: OverwriteOpt = False,
    max_level: Annotated[int | None, typer.Option(
        "--max-level", min=1, metavar="LEVEL",
        help="Use only the rules up to this level (e.g. 2: singles only).",
        show_default=False)] = None,
    input_format: Annotated[ExplainInputFormat, typer.Option(
        "--input-format", "-i", help="How to read the input (auto detects every format, "
        "pencil marks included).")
    ] = ExplainInputFormat.auto,
    box: BoxOpt = None,
    hierarchy: HierarchyOpt = None,
    quiet: QuietOpt = False,
    color: ColorOpt = Color.auto,
    version: VersionOpt = None,
) -> None:
    """Explain how to solve a grid, step by step, in the book's notation.

    Every step of the minimal-level strategy (always the easiest rule that makes
    progress) with its rule, level, book reference, a sentence saying why, and the
    candidate grid with the pattern highlighted.

    \b
    explain puzzles/book-figures.txt --index 2
    explain GRID --step                     # one step at a time
    explain GRID --step 5                   # step 5, with the board before it
    explain GRID --hint technique           # which technique comes next
    explain GRID --hint where               # ... and where to look
    explain GRID --moves "r1c3=2 r1c5=7" --hint full
    explain GRID -f html -o steps.html      # a page with one drawing per step
    """
    from ..explain.core import ExplainError, UsageError
    from ..explain.position import Position, apply_moves, check_position, load_position

    h: Hierarchy = hierarchy_option(hierarchy)
    check_plugins(h)
    check_output(output, overwrite)
    if step_number is not None and hint is not None:
        fail("--step N shows one step, --hint the next one: choose one")
    try:  # never overwrite the input with the explanation
        check_output_not_input([grid], [output], stdout_is_output=True)
    except OutputError as e:
        fail(str(e))
    try:
        pos = load_position(grid, index, box_option(box), input_format.value)
    except InputError as e:
        fail(str(e))
    except ExplainError as e:
        fail(str(e), EXIT_NOT_OK)
    if isinstance(pos, Record):
        fail(f"{pos.source}, line {pos.line}: malformed: {pos.error}", EXIT_NOT_OK)
    assert isinstance(pos, Position)
    try:
        solution = check_position(pos.board)
        board = apply_moves(pos.board, moves, solution) if moves else pos.board
    except UsageError as e:
        fail(str(e))
    except ExplainError as e:
        fail(f"{pos.where}: {e}", EXIT_NOT_OK)

    view = View(detail, step_mode, step_number, hint, output_format.value, grid_drawing,
                output, max_level, quiet, full_trace)
    try:
        _render(pos, board, Engine(h), view)
    except RuleError as e:
        fail(str(e), EXIT_NOT_OK)


@dataclass(frozen=True)
class View:
    """What to show, as the options say."""

    detail: Detail | None
    step_mode: bool
    step_number: int | None
    hint: HintLevel | None
    fmt: str
    grid_drawing: bool
    output: Path | None
    max_level: int | None
    quiet: bool
    full_trace: bool


def _render(pos: Position, board: Board, engine: Engine, v: View) -> None:
    """Write the explanation (a rule plugin's failure surfaces as RuleError)."""
    from ..explain.core import walkthrough

    wt = walkthrough(board, engine, givens=pos.givens, max_level=v.max_level)
    depth = v.detail.value if v.detail is not None else (
        "teach" if v.step_mode or v.step_number or v.hint == HintLevel.full else "short")
    fmt, output, grid_drawing = v.fmt, v.output, v.grid_drawing
    if v.step_number is not None:
        _one_step(wt, v.step_number, depth, grid_drawing, fmt, output, v.quiet, v.full_trace)
        return
    if v.hint is not None:
        _hint(wt, v.hint.value, depth, grid_drawing, fmt, output, v.full_trace)
        return
    if v.step_mode and fmt == "text" and output is None:
        from ..explain.walker import print_all, walk

        if stdin_is_tty() and out.is_terminal:
            walk(wt, out, depth, grid_drawing)
        else:
            print_all(wt, out, depth, grid_drawing)
        return
    if fmt == "json":
        from ..explain.document import document

        doc = document(wt, pencil=pos.pencil, full_trace=v.full_trace)
        _write(doc.model_dump_json(by_alias=True, indent=2) + "\n", v.output, v.quiet)
    elif fmt == "html":
        from ..explain.html import render_html

        _write(render_html(wt, full_trace=v.full_trace), v.output, v.quiet)
    elif fmt == "markdown":
        from ..explain.markdown import render_markdown

        _write(render_markdown(wt, depth, v.grid_drawing, full_trace=v.full_trace), v.output,
               v.quiet)
    else:
        _text(wt, depth, v.grid_drawing, v.output, v.quiet, v.full_trace)


def _text(wt: object, detail: str, grid: bool, output: Path | None,
          quiet: bool = False, full_trace: bool = False) -> None:
    from rich.console import Console

    from ..explain.core import Walkthrough
    from ..explain.document import facts
    from ..explain.render import render_step
    from ..explain.textgrid import Drawing

    assert isinstance(wt, Walkthrough)
    console = out
    fh = None
    if output is not None:
        try:
            fh = output.open("w", encoding="utf-8")
        except OSError as e:
            fail(f"{output}: cannot write: {e.strerror or e}")
        console = Console(file=fh, highlight=False, soft_wrap=True, no_color=True)
    try:
        if grid:
            console.print(Text("Starting position", style="bold"))
            console.print(Drawing(wt.start, None, wt.givens))
            console.print()
        for number, board, step in wt:
            console.print(render_step(number, step, board if grid else None, wt.givens, detail,
                                      full=full_trace),
                          soft_wrap=not console.is_terminal)
            if grid:
                console.print()
        console.print(Text(facts(wt).sentence(), style="bold"))
    finally:
        if fh is not None:
            fh.close()
            if not quiet:
                err.print(f"wrote {output}", markup=False)


def _one_step(wt: object, number: int, detail: str, grid: bool, fmt: str,
              output: Path | None, quiet: bool, full_trace: bool = False) -> None:
    """``--step N``: the board before step N, the step and its reasoning."""
    from ..explain.core import Walkthrough
    from ..explain.model import step_model
    from ..explain.render import render_step

    assert isinstance(wt, Walkthrough)
    step = wt.step(number - 1)
    if step is None:
        fail(f"--step {number}: the solution has {len(wt.steps)} "
             f"step{'s' if len(wt.steps) != 1 else ''}")
    if fmt == "json":
        _write(step_model(step, number, full_trace).model_dump_json(by_alias=True, indent=2)
               + "\n", output, quiet)
        return
    board = wt.before(number - 1)
    if output is None:
        out.print(render_step(number, step, board if grid else None, wt.givens, detail,
                              full=full_trace), soft_wrap=not out.is_terminal)
        return
    from rich.console import Console

    try:
        with output.open("w", encoding="utf-8") as fh:
            Console(file=fh, highlight=False, soft_wrap=True, no_color=True).print(
                render_step(number, step, board if grid else None, wt.givens, detail,
                            full=full_trace))
    except OSError as e:
        fail(f"{output}: cannot write: {e.strerror or e}")
    if not quiet:
        err.print(f"wrote {output}", markup=False)


def _hint(wt: object, level: str, detail: str, grid: bool, fmt: str,
          output: Path | None, full_trace: bool = False) -> None:
    from ..explain.core import Walkthrough
    from ..explain.hints import hint_level, technique_hint, where_hint
    from ..explain.model import step_model
    from ..explain.render import render_step

    assert isinstance(wt, Walkthrough)
    step = wt.step(0)
    if step is None:
        msg = ("The grid is already solved." if wt.start.is_solved()
               else "No rule of the hierarchy applies from here.")
        if fmt == "json":
            _write('{"hint": null, "message": "' + msg + '"}\n', output)
        else:
            out.print(msg, markup=False)
        return
    level = hint_level(level)
    pointer = technique_hint(step) if level == "technique" else where_hint(step)
    if fmt == "json":
        import json

        data: dict[str, object] = {"level": level, "hint": pointer}
        if level == "full":
            data["step"] = step_model(step, 1, full_trace).model_dump(mode="json")
        _write(json.dumps(data, indent=2, ensure_ascii=False) + "\n", output)
        return
    if level != "full":
        out.print(pointer, markup=False)
        return
    out.print(render_step(1, step, wt.before(0) if grid else None, wt.givens, detail,
                          full=full_trace),
              soft_wrap=not out.is_terminal)


explain_command.command_class = StepCommand  # type: ignore[attr-defined]
