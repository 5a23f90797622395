"""``grade``: rate grids by the techniques they need."""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from rich.panel import Panel
from rich.table import Table

from ..formats import FORMATS, InputError, Record, iter_source
from ..grading import CONTRACT_FIELDS, GradeResult, Grader
from ..hierarchy import Hierarchy
from .common import (
    EXIT_NOT_OK,
    EXIT_OK,
    EXIT_USAGE,
    box_option,
    check_plugins,
    err,
    fail,
    hierarchy_option,
    out,
)


class OutputFormat(str, Enum):
    table = "table"
    jsonl = "jsonl"
    csv = "csv"


class InputFormat(str, Enum):
    auto = "auto"
    line = "line"
    nt = "nt"
    block = "block"
    csv = "csv"
    jsonl = "jsonl"


assert tuple(f.value for f in InputFormat) == FORMATS


def records(sources: list[str], input_format: str, box: tuple[int, int] | None,
            column: str | None = None) -> Iterator[Record]:
    """Every record of every source, renumbered across sources in input order."""
    index = 0
    for src in sources:
        for rec in iter_source(src, input_format, box, column):
            index += 1
            if rec.index != index:
                rec = Record(index, rec.line, rec.source, rec.text, rec.grid, rec.error,
                             rec.format, rec.extra)
            yield rec


def _result_row(r: GradeResult) -> list[str]:
    return [
        str(r.index), str(r.line or ""), r.verdict, r.rating or "", "" if r.level is None else
        str(r.level), "" if r.score is None else f"{r.score:.2f}", r.hardest or "",
        "" if r.steps is None else str(r.steps), "" if r.depth is None else str(r.depth),
        r.message or "",
    ]


def render_panel(r: GradeResult, h: Hierarchy) -> Panel:
    """One grid: rating, level, hardest technique, counts."""
    if r.verdict != "ok":
        body = f"[bold red]{r.verdict}[/]\n{r.message or ''}\n\n[dim]{r.puzzle}[/]"
        return Panel(body, title=f"grid {r.index}", expand=False)
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


def grade_command(
    inputs: Annotated[list[str], typer.Argument(
        help="Files of grids (any format), '-' for standard input, or a grid itself.",
        show_default=False)],
    output_format: Annotated[OutputFormat | None, typer.Option(
        "--format", "-f", help="table (a panel for one grid), jsonl or csv.")] = None,
    input_format: Annotated[InputFormat, typer.Option(
        "--input-format", "-i", help="How to read the inputs.")] = InputFormat.auto,
    box: Annotated[str | None, typer.Option(
        help="Block shape AxB (rows x columns) for rectangular grids, e.g. 3x2.")] = None,
    hierarchy: Annotated[Path | None, typer.Option(
        help="Your own hierarchy table (TOML or JSON).", exists=False)] = None,
    propagation: Annotated[str | None, typer.Option(
        help="What trials apply inside branches: all (levels 1-12) or singles.")] = None,
    column: Annotated[str | None, typer.Option(
        help="CSV column holding the grids (default: puzzle, quizzes, or the first).")] = None,
    with_solution: Annotated[bool, typer.Option(
        "--with-solution", help="Add the solution to jsonl/csv output.")] = False,
    check: Annotated[bool, typer.Option(
        "--check", help="Debug: check every step against the solution.")] = False,
) -> None:
    """Rate Sudoku grids with N. Jussien's hierarchy (levels 1-14, very easy ... expert).

    Exit status: 0 when every grid is ok, 1 when some are not, 2 on a usage
    error or an unreadable file."""
    h = hierarchy_option(hierarchy, propagation)
    check_plugins(h)
    bx = box_option(box)
    grader = Grader(h, check=check)
    fmt = output_format
    results: list[GradeResult] = []
    bad = False
    writer = None
    try:
        for rec in records(inputs, input_format.value, bx, column):
            r = grader.grade_record(rec)
            bad = bad or r.verdict != "ok"
            if fmt is OutputFormat.jsonl:
                sys.stdout.write(json.dumps(r.contract(with_solution)) + "\n")
                sys.stdout.flush()
            elif fmt is OutputFormat.csv:
                fields = list(CONTRACT_FIELDS) + (["solution"] if with_solution else [])
                if writer is None:
                    writer = csv.DictWriter(sys.stdout, fieldnames=fields, lineterminator="\n")
                    writer.writeheader()
                row = r.contract(with_solution)
                row["techniques"] = ";".join(f"{k}={v}" for k, v in r.techniques.items())
                writer.writerow(row)
                sys.stdout.flush()
            else:
                results.append(r)
    except InputError as e:
        fail(str(e))
    except KeyboardInterrupt:
        err.print("interrupted")
        raise typer.Exit(130) from None
    if fmt is None or fmt is OutputFormat.table:
        if not results:
            fail("no grid found in the input", EXIT_USAGE)
        if len(results) == 1 and fmt is None:
            out.print(render_panel(results[0], h))
        else:
            t = Table(title=f"{len(results)} grids")
            for col in ("#", "line", "verdict", "rating", "level", "score", "hardest", "steps",
                        "depth", "message"):
                t.add_column(col, justify="right" if col in ("#", "line", "level", "score",
                                                            "steps", "depth") else "left")
            for r in results:
                t.add_row(*_result_row(r))
            out.print(t)
    raise typer.Exit(EXIT_NOT_OK if bad else EXIT_OK)
