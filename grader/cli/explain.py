"""``explain``: the whole reasoning, step by step (basic version)."""

from __future__ import annotations

from typing import Annotated

import typer

from ..board import Board
from ..formats import InputError, read_grid
from ..grading import Grader
from .common import EXIT_NOT_OK, box_option, fail, out


def explain_command(
    grid: Annotated[str, typer.Argument(help="A grid, a file of grids, or '-'.")],
    index: Annotated[int, typer.Option(help="Which grid of the file (1-based).")] = 1,
    box: Annotated[str | None, typer.Option(help="Block shape AxB.")] = None,
) -> None:
    """Print every step of the minimal-level strategy."""
    try:
        rec = read_grid(grid, box_option(box), index)
    except InputError as e:
        fail(str(e))
    if rec.grid is None:
        fail(f"{rec.source}, line {rec.line}: {rec.error}", EXIT_NOT_OK)
    grader = Grader()
    verdict, message, _ = grader.verdict(rec.grid)
    if verdict != "ok":
        fail(f"{rec.source}, line {rec.line}: {verdict}: {message}", EXIT_NOT_OK)
    board = Board.from_values(rec.grid.geo, rec.grid.values)
    for i, step in enumerate(grader.engine.steps(board), start=1):
        out.print(f"{i:3d}. [level {step.level}] {step.summary()}", markup=False)
