"""The Python API: one function per command, typed results, one exception family.

=======================  ==================  ==========================================
function                 command             returns
=======================  ==================  ==========================================
:func:`grade`            ``grade GRID``      :class:`~grader.strategy.grading.GradeResult`
:func:`rate_file`        ``grade FILE``      an iterator of ``GradeResult``, input order
:func:`explain`          ``explain GRID``    the list of :class:`~grader.core.steps.Step`
:func:`explanation`      ``explain -f json`` :class:`~grader.explainer.model.Explanation`
:func:`solve`            ``solve GRID``      :class:`SolveReport`
:func:`generate`         ``generate``        a list of ``GradeResult`` (with ``solution``)
=======================  ==================  ==========================================

A grid is given as the command line takes it: any one-grid text (a line with
an id before it or a ``# comment`` after it, an "N T" line, a block of rows;
for :func:`explain` also pencil marks), a parsed :class:`~grader.formats.Grid`,
or (``explain``) a :class:`~grader.core.board.Board`.  Errors are
:class:`grader.core.errors.GraderError` subclasses: ``GridTypeError`` (also a
``TypeError``) for something that is not a grid at all such as ``None``,
``MalformedGrid`` for text that is not a grid, ``ExplainError`` for a grid
that cannot be explained, ``InputError`` for a file that cannot be read.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from grader.core.board import Board
from grader.core.errors import GridTypeError
from grader.formats import Grid, InputError, MalformedGrid, Record, iter_sources, iter_text
from grader.strategy.grading import GradeResult
from grader.strategy.hierarchy import Hierarchy

if TYPE_CHECKING:
    from grader.core.steps import Step
    from grader.explainer.core import Walkthrough
    from grader.explainer.model import Explanation


# --------------------------------------------------------------------------- reading


def _check_type(grid: object, what: str, allowed: tuple[type, ...]) -> None:
    if not isinstance(grid, allowed):
        names = ", ".join(t.__name__ for t in allowed)
        got = "None" if grid is None else f"a {type(grid).__name__}"
        raise GridTypeError(f"{what}: expected a grid ({names}), got {got}")


def _one_record(text: str, box: tuple[int, int] | None, input_format: str) -> Record:
    """The single grid of ``text``, read as a grid argument of the command line."""
    try:
        recs = list(iter_text(io.StringIO(text.strip() + "\n"), "<argument>", input_format,
                              box))
    except ValueError as e:  # an unknown input format
        raise MalformedGrid(str(e)) from e
    if not recs:
        raise MalformedGrid("no grid found in the text")
    if len(recs) > 1:
        raise MalformedGrid(f"{len(recs)} grids in the text: give one (rate_file reads many)")
    return recs[0]


def read_grid(grid: str | Grid, box: tuple[int, int] | None = None,
              input_format: str = "auto") -> Grid:
    """A :class:`Grid` from any one-grid text (or a ``Grid``); ``MalformedGrid`` if not."""
    _check_type(grid, "read_grid", (str, Grid))
    if isinstance(grid, Grid):
        return grid
    rec = _one_record(grid, box, input_format)
    if rec.grid is None:
        raise MalformedGrid(rec.error or "not a grid")
    return rec.grid


# --------------------------------------------------------------------------- grade


def grade(grid: str | Grid, *, hierarchy: Hierarchy | None = None,
          box: tuple[int, int] | None = None, input_format: str = "auto",
          check: bool = False, se: str = "fast") -> GradeResult:
    """``grade GRID``: the grid's verdict, rating, level, score and techniques.

    ``se``: how deep the estimate searches Sudoku Explainer's nested chains
    (``--se``: "fast" or "full").  Raises ``MalformedGrid`` when ``grid`` is
    not a grid; every other verdict (``no-solution``, ``multiple-solutions``,
    ...) is in the result."""
    from grader.strategy.grading import Grader

    return Grader(hierarchy, check=check, se=se).grade_grid(read_grid(grid, box, input_format))


def rate_file(sources: str | Path | Iterable[str | Path], *, input_format: str = "auto",
              box: tuple[int, int] | None = None, column: str | None = None,
              hierarchy: Hierarchy | None = None, jobs: int = 1,
              time_limit: float | None = None, with_solution: bool = False,
              check: bool = False, se: str = "fast") -> Iterator[GradeResult]:
    """``grade FILE ...``: one ``GradeResult`` per grid of the files, in input order.

    Every grid gets a result (a malformed one the verdict ``malformed``).  With
    ``jobs == 1`` and no ``time_limit`` the results come lazily, one by one;
    otherwise worker processes grade (``jobs=0``: all cores; ``time_limit``: the
    seconds per grid before the verdict ``timeout``) and the results come when
    the run is over.  ``InputError`` when a file cannot be read."""
    from grader.bulk.capacity import plan_jobs
    from grader.bulk.options import time_limit as seconds_or_none
    from grader.bulk.pipeline import run
    from grader.bulk.pool import InlinePool
    from grader.bulk.processes import ProcessPool
    from grader.bulk.task import GradeConfig

    names = [str(sources)] if isinstance(sources, (str, Path)) else [str(s) for s in sources]
    if jobs < 0:
        raise ValueError(f"jobs must be >= 0 (0: all cores), not {jobs}")
    for name in names:
        if name != "-" and not Path(name).exists():
            raise InputError(f"{name}: no such file")
    time_limit = seconds_or_none(time_limit)  # inf: no limit; nan: ValueError
    cfg = GradeConfig(hierarchy=hierarchy, check=check, with_solution=with_solution, se=se)
    recs = iter_sources(names, input_format, box, column)
    njobs, _ = plan_jobs(jobs)  # within the CPUs and the memory
    if njobs == 1 and time_limit is None:
        return _inline(recs, InlinePool(cfg), cfg)
    got: list[GradeResult] = []
    pool = ProcessPool(cfg, njobs, time_limit)
    run(recs, pool, lambda e, _resumed: got.append(GradeResult(**(e.result or {}))),
        with_solution=with_solution, window=pool.window)
    return iter(got)


def _inline(recs: Iterator[Record], pool: Any, cfg: Any) -> Iterator[GradeResult]:
    from grader.bulk.task import malformed_result, task_of

    for rec in recs:
        if rec.grid is None:
            yield GradeResult(**malformed_result(rec, cfg.with_solution))
        else:
            yield GradeResult(**pool.worker.grade(task_of(rec)))


# --------------------------------------------------------------------------- explain


def _walkthrough(grid: Any, hierarchy: Hierarchy | None, max_level: int | None,
                 box: tuple[int, int] | None, input_format: str,
                 moves: str | None) -> tuple[Walkthrough, bool]:
    from grader.explainer.core import ExplainError, walkthrough
    from grader.explainer.position import Position, apply_moves, check_position, parse_position
    from grader.strategy.engine import Engine

    _check_type(grid, "explain", (str, Grid, Board))
    pencil = False
    if isinstance(grid, Board):
        board, givens = grid.copy(), None
    elif isinstance(grid, Grid):
        board = Board.from_values(grid.geo, grid.values)
        givens = None
    else:
        short = grid if len(grid) <= 40 else grid[:37] + "..."
        try:
            pos = parse_position(grid.strip() + "\n", "<argument>", 1, box, input_format)
        except InputError:
            raise ExplainError(f"malformed: no grid found in {short!r}") from None
        if isinstance(pos, Record):
            if pos.error and pos.error.startswith("no grid"):
                raise ExplainError(f"malformed: no grid found in {short!r}")
            raise ExplainError(f"malformed: {pos.error}")
        assert isinstance(pos, Position)
        board, givens, pencil = pos.board, pos.givens, pos.pencil
    solution = check_position(board)
    if moves:
        board = apply_moves(board, moves, solution)
    return walkthrough(board, Engine(hierarchy), givens=givens, max_level=max_level), pencil


def explain(grid: str | Grid | Board, hierarchy: Hierarchy | None = None,
            max_level: int | None = None, *, box: tuple[int, int] | None = None,
            input_format: str = "auto", moves: str | None = None) -> list[Step]:
    """``explain GRID``: every step of the minimal-level strategy, in order.

    ``grid``: any one-grid text the command reads (pencil marks included), a
    :class:`Grid` or a :class:`Board`; ``moves`` as ``explain --moves``.
    Raises ``ExplainError`` (with the verdict) for text that is not a grid or a
    grid without exactly one solution, ``GridTypeError`` for ``None``."""
    from grader.explainer.core import ExplainError

    try:
        wt, _ = _walkthrough(grid, hierarchy, max_level, box, input_format, moves)
    except InputError as e:
        raise ExplainError(str(e)) from e
    wt.ensure()
    return list(wt.steps)


def explanation(grid: str | Grid | Board, hierarchy: Hierarchy | None = None,
                max_level: int | None = None, *, box: tuple[int, int] | None = None,
                input_format: str = "auto", moves: str | None = None,
                notation: str = "book") -> Explanation:
    """``explain GRID -f json`` as its pydantic model (same arguments as
    :func:`explain`; ``notation="compact"`` as ``--notation compact``: every
    sentence with ``r2c7<>38``, ``r4c9=8``)."""
    from grader.explainer.core import ExplainError
    from grader.explainer.document import document

    try:
        wt, pencil = _walkthrough(grid, hierarchy, max_level, box, input_format, moves)
    except InputError as e:
        raise ExplainError(str(e)) from e
    wt.ensure()
    return document(wt, pencil=pencil, notation=notation)


# --------------------------------------------------------------------------- solve


class SolveReport(BaseModel):
    """One grid solved by one engine: the record ``solve -f jsonl`` writes."""

    index: int = 1
    line: int | None = None
    puzzle: str
    size: int | None = None
    engine: str
    verdict: str
    message: str | None = None
    count: int | None = None
    complete: bool | None = None
    solution: str | None = None
    solutions: list[str] | None = None
    seconds: float = 0.0
    stats: dict[str, Any] = {}


def solve(grid: str | Grid, *, engine: str = "native", limit: int = 2,
          time_limit: float | None = None, all_solutions: bool = False,
          box: tuple[int, int] | None = None, input_format: str = "auto",
          **engine_options: Any) -> SolveReport:
    """``solve GRID``: the verdict and solution from an exact engine (``native``,
    ``sat``, ``csp``, ``cp``); ``limit`` solutions at most (``all_solutions``
    lists them in ``solutions``).  ``EngineError`` for an engine that cannot run."""
    from grader.cli.solve import solve_record
    from grader.exact import get_engine

    _check_type(grid, "solve", (str, Grid))
    if isinstance(grid, Grid):
        rec = Record(1, 1, "<grid>", grid.normalised(), grid)
    else:
        rec = _one_record(grid, box, input_format)
    if rec.grid is None:
        raise MalformedGrid(rec.error or "not a grid")
    eng = get_engine(engine, **engine_options)
    outcome = solve_record(eng, rec, limit, time_limit)
    return SolveReport(**outcome.to_dict(eng.name, all_solutions))


# --------------------------------------------------------------------------- generate


def generate(rating: str | None = None, *, level: str | int | None = None, count: int = 1,
             size: int = 9, box: tuple[int, int] | None = None, symmetry: str = "none",
             method: str = "guided", minimal: bool = False, min_givens: int | None = None,
             max_givens: int | None = None, seed: int | None = None, jobs: int = 1,
             timeout: float | None = None,
             hierarchy: Hierarchy | None = None) -> list[GradeResult]:
    """``generate``: ``count`` new grids as the ``GradeResult`` that ``grade`` gives
    them, each with its ``solution`` (the ``generate -f jsonl`` records).

    ``seed``: an integer (None: random); ``jobs``: 0 for all cores; ``timeout``:
    seconds for the whole run, the grids it cut short are left out.  Raises
    ``TargetError`` / ``GenerationError`` for requests that name nothing."""
    from grader.bulk.capacity import plan_jobs
    from grader.generator import generate as _generate
    from grader.generator import record

    if jobs < 0:
        raise ValueError(f"jobs must be >= 0 (0: all cores), not {jobs}")
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    made = _generate(rating, level=level, count=count, size=size, box=box, symmetry=symmetry,
                     method=method, minimal=minimal, min_givens=min_givens,
                     max_givens=max_givens, seed=seed, jobs=plan_jobs(jobs)[0],
                     timeout=timeout, hierarchy=hierarchy)
    return [GradeResult(**record(g, i)) for i, g in enumerate(made, start=1)]
