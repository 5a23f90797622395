"""``explain``: every deduction in words and pictures, one step at a time."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from ..engine import Engine
from ..files import OutputError, check_output_not_input
from ..formats import InputError, Record
from ..hierarchy import Hierarchy
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


class OutputFormat(StrEnum):
    text = "text"
    json = "json"
    html = "html"
    markdown = "markdown"


class Detail(StrEnum):
    short = "short"
    teach = "teach"


class HintLevel(StrEnum):
    vague = "vague"
    full = "full"


class ExplainInputFormat(StrEnum):
    auto = "auto"
    line = "line"
    nt = "nt"
    block = "block"
    csv = "csv"
    jsonl = "jsonl"
    pencil = "pencil"


def _write(text: str, output: Path | None) -> None:
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as e:
        fail(f"{output}: cannot write: {e.strerror or e}")
    err.print(f"wrote {output}", markup=False)


def explain_command(
    grid: Annotated[str, typer.Argument(
        metavar="GRID_OR_FILE",
        help="A grid, a file of grids, or '-' for standard input.  Also a grid with pencil "
             "marks: n rows of n cells each listing its candidates, or the n**3-character "
             "candidate string (729 for 9x9).", show_default=False)],
    index: Annotated[int, typer.Option(
        "--index", "-i", min=1, help="Which grid of the file (1-based).")] = 1,
    output_format: Annotated[OutputFormat, typer.Option(
        "--format", "-f", help="text (terminal), json (the list of steps), html (one page, a "
                               "drawing per step) or markdown (for forums).")] = OutputFormat.text,
    detail: Annotated[Detail | None, typer.Option(
        "--detail", "-d", help="short: one line per step (what and where); teach: the "
                               "reasoning in full sentences.  [default: short; teach with "
                               "--step and --hint full]", show_default=False)] = None,
    step_mode: Annotated[bool, typer.Option(
        "--step", help="Walk the solution one step at a time: Enter next, b back, q quit.  "
                       "Without a terminal, prints the steps one after another.")] = False,
    hint: Annotated[HintLevel | None, typer.Option(
        "--hint", help="Show only the next step: 'vague' (the technique and where to look) "
                       "or 'full' (the whole explanation).", show_default=False)] = None,
    moves: Annotated[str | None, typer.Option(
        "--moves", "-m", help="Moves already made, applied to the grid first: r1c5=9, "
                              "(1, 5) <- 9, r3c4!=2 ... separated by spaces or commas.",
        show_default=False)] = None,
    grid_drawing: Annotated[bool, typer.Option(
        "--grid/--no-grid", help="Draw the candidate grid with each step (text and markdown).")
    ] = True,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Write to this file instead of standard output.",
        show_default=False)] = None,
    max_level: Annotated[int | None, typer.Option(
        "--max-level", min=1, help="Use only the rules up to this level (e.g. 2: singles only).",
        show_default=False)] = None,
    input_format: Annotated[ExplainInputFormat, typer.Option(
        "--input-format", help="Input format (auto detects every one).")
    ] = ExplainInputFormat.auto,
    box: Annotated[str | None, typer.Option(
        help="Block shape AxB (rows x columns) for rectangular blocks.", show_default=False)
    ] = None,
    hierarchy: Annotated[Path | None, typer.Option(
        "--hierarchy", help="A hierarchy table (TOML or JSON) instead of the book's.",
        show_default=False)] = None,
) -> None:
    """Explain how to solve a grid, step by step, in the book's notation.

    Every step of the minimal-level strategy (always the easiest rule that makes
    progress) with its rule, level, book reference, a sentence saying why, and the
    candidate grid with the pattern highlighted.

    \b
    explain puzzles/book-figures.txt --index 2
    explain GRID --step                     # one step at a time
    explain GRID --hint vague               # what to look for next
    explain GRID --moves "r1c3=2 r1c5=7" --hint full
    explain GRID -f html -o steps.html      # a page with one drawing per step
    """
    from ..explain.core import ExplainError, UsageError, walkthrough
    from ..explain.position import Position, apply_moves, check_position, load_position

    h: Hierarchy = hierarchy_option(hierarchy)
    check_plugins(h)
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

    engine = Engine(h)
    wt = walkthrough(board, engine, givens=pos.givens, max_level=max_level)
    depth = detail.value if detail is not None else (
        "teach" if step_mode or hint == HintLevel.full else "short")
    fmt = output_format.value

    if hint is not None:
        _hint(wt, hint.value, depth, grid_drawing, fmt, output)
        return
    if step_mode and fmt == "text" and output is None:
        from ..explain.walker import print_all, walk

        if stdin_is_tty() and out.is_terminal:
            walk(wt, out, depth, grid_drawing)
        else:
            print_all(wt, out, depth, grid_drawing)
        return
    if fmt == "json":
        from ..explain.document import document

        doc = document(wt, pencil=pos.pencil)
        _write(doc.model_dump_json(by_alias=True, indent=2) + "\n", output)
    elif fmt == "html":
        from ..explain.html import render_html

        _write(render_html(wt), output)
    elif fmt == "markdown":
        from ..explain.markdown import render_markdown

        _write(render_markdown(wt, depth, grid_drawing), output)
    else:
        _text(wt, depth, grid_drawing, output)


def _text(wt: object, detail: str, grid: bool, output: Path | None) -> None:
    from rich.console import Console

    from ..explain.core import Walkthrough
    from ..explain.document import facts
    from ..explain.render import render_step
    from ..explain.textgrid import grid_text

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
            console.print(grid_text(wt.start, None, wt.givens))
            console.print()
        for number, board, step in wt:
            console.print(render_step(number, step, board if grid else None, wt.givens, detail),
                          soft_wrap=not console.is_terminal)
            if grid:
                console.print()
        console.print(Text(facts(wt).sentence(), style="bold"))
    finally:
        if fh is not None:
            fh.close()
            err.print(f"wrote {output}", markup=False)


def _hint(wt: object, level: str, detail: str, grid: bool, fmt: str,
          output: Path | None) -> None:
    from ..explain.core import Walkthrough
    from ..explain.hints import vague_hint
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
    if fmt == "json":
        import json

        data: dict[str, object] = {"hint": vague_hint(step)}
        if level == "full":
            data["step"] = step_model(step, 1).model_dump(mode="json")
        _write(json.dumps(data, indent=2, ensure_ascii=False) + "\n", output)
        return
    if level == "vague":
        out.print(vague_hint(step), markup=False)
        return
    out.print(render_step(1, step, wt.before(0) if grid else None, wt.givens, detail),
              soft_wrap=not out.is_terminal)
