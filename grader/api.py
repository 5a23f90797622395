"""The Python API: one function per command, the command's options as keyword
arguments with the command's defaults, one return type per function, one
exception family.

==========================  ======================  ==========================================
function                    command                 returns
==========================  ======================  ==========================================
:func:`grade`               ``grade GRID``          :class:`~grader.strategy.grading.GradeResult`
:func:`rate`                ``grade GRID ...``      an iterator of ``GradeResult``, input order
:func:`rate_file`           ``grade FILE ...``      an iterator of ``GradeResult``, input order
:func:`explain`             ``explain GRID``        the list of :class:`~grader.core.steps.Step`
:func:`explanation`         ``explain -f json``     :class:`~grader.explainer.model.Explanation`
:func:`solve`               ``solve GRID``          :class:`SolveReport`
:func:`generate`            ``generate``            a list of ``GradeResult`` (with ``solution``)
:func:`pair_solve`          ``pair solve FILE``     :class:`~grader.api_make.PairSolution`
:func:`pair_generate`       ``pair generate``       :class:`~grader.api_make.PairPuzzle`
==========================  ======================  ==========================================

A grid is given as the command line takes it: any one-grid text (a line with
an id before it or a ``# comment`` after it, an "N T" line, a block of rows;
for :func:`explain` also pencil marks), a parsed :class:`~grader.formats.Grid`,
or (``explain``) a :class:`~grader.core.board.Board`.  ``hierarchy`` is a
:class:`~grader.strategy.hierarchy.Hierarchy` or the path of a table (TOML or
JSON), as ``--hierarchy FILE``.  ``jobs`` defaults to 0, one worker per CPU
the process may use, as on the command line.

Errors are :class:`grader.core.errors.GraderError` subclasses:
``ArgumentError`` (also a ``ValueError``) for an argument the command line
would refuse (``jobs=-1``, an unknown input format, a malformed ``box``),
``GridTypeError`` (also a ``TypeError``) for something that is not a grid at
all such as ``None``, ``MalformedGrid`` for text that is not a grid,
``ExplainError`` for a grid that cannot be explained, ``InputError`` for a
file that cannot be read, ``HierarchyError`` and ``PluginError`` for a
hierarchy that cannot be used, ``EngineError`` for an engine that cannot run.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from grader.api_args import (
    HierarchyArg,
    box_of,
    check_choice,
    check_format,
    check_jobs,
    hierarchy_of,
)
from grader.api_make import PairPuzzle, PairSolution, generate, pair_generate, pair_solve
from grader.core.board import Board
from grader.core.errors import ArgumentError, GridTypeError
from grader.explainer.choices import (
    DEFAULT_NOTATION,
    DEFAULT_PATH,
    INPUT_FORMATS,
    NOTATIONS,
    PATHS,
)
from grader.formats import Grid, InputError, MalformedGrid, Record, iter_text, parse_line
from grader.formats.sources import looks_like_grid_argument
from grader.strategy.grading import GradeResult
from grader.strategy.serate.settings import DEFAULT_SE, SE_DEPTHS

#: the symbols of a 9x9 grid on one line (``read_grid`` reads it without detecting a format)
_NINE = "0123456789."

__all__ = ["PairPuzzle", "PairSolution", "SolveReport", "explain", "explanation", "generate",
           "grade", "pair_generate", "pair_solve", "rate", "rate_file", "read_grid", "solve"]

if TYPE_CHECKING:
    from grader.core.steps import Step
    from grader.explainer.core import Walkthrough
    from grader.explainer.model import Explanation


# --------------------------------------------------------------------------- reading


def _check_type(grid: object, what: str, allowed: tuple[type, ...]) -> None:
    if not isinstance(grid, allowed):
        names = ", ".join(t.__name__ for t in allowed)
        got = "None" if grid is None else f"a {type(grid).__name__}"
        many = ("; for many grids use grader.rate(grids)"
                if isinstance(grid, (list, tuple, set, frozenset)) or hasattr(grid, "__next__")
                else "")
        raise GridTypeError(f"{what}: expected a grid ({names}), got {got}{many}")


def _one_record(text: str, box: tuple[int, int] | None, input_format: str) -> Record:
    """The single grid of ``text``, read as a grid argument of the command line."""
    recs = list(iter_text(io.StringIO(text.strip() + "\n"), "<argument>",
                          check_format(input_format), box))
    if not recs:
        raise MalformedGrid("no grid found in the text")
    if len(recs) > 1:
        raise MalformedGrid(f"{len(recs)} grids in the text: give one (rate_file reads many)")
    return recs[0]


def read_grid(grid: str | Grid, box: tuple[int, int] | str | None = None,
              input_format: str = "auto") -> Grid:
    """A :class:`Grid` from any one-grid text (or a ``Grid``); ``MalformedGrid`` if not."""
    _check_type(grid, "read_grid", (str, Grid))
    if isinstance(grid, Grid):
        return grid
    if box is None and input_format == "auto":  # the usual 81 symbols: read as a line
        s = grid.strip()
        if len(s) == 81 and not s.strip(_NINE):
            tok, g, _, _ = parse_line(s, None)
            if g is not None and tok == s:
                return g
    rec = _one_record(grid, box_of(box), input_format)
    if rec.grid is None:
        raise MalformedGrid(rec.error or "not a grid")
    return rec.grid


# --------------------------------------------------------------------------- grade


def grade(grid: str | Grid, *, hierarchy: HierarchyArg = None,
          box: tuple[int, int] | str | None = None, input_format: str = "auto",
          propagation: str | None = None, check: bool = False,
          check_engine: str | None = None, se: str = DEFAULT_SE) -> GradeResult:
    """``grade GRID``: the grid's verdict, rating, level, score and techniques,
    with its ``solution`` when it has exactly one (``grade --with-solution``).

    The keywords are ``grade``'s options (``check_engine``: ``--check-engine``,
    the exact solver that gives the verdict; ``se``: ``--se``, how deep the
    estimate searches Sudoku Explainer's nested chains, "fast" or "full", or
    "off": no estimate, levels and score only).  The grader is built once per
    thread and configuration, and reused by the next call.
    Raises ``MalformedGrid`` when ``grid`` is not a grid; every other verdict
    (``no-solution``, ``multiple-solutions``, ...) is in the result."""
    from grader.bulk.task import GradeConfig, shared_grader

    _check_type(grid, "grade", (str, Grid))
    g = read_grid(grid, box, input_format)
    cfg = GradeConfig(hierarchy=hierarchy_of(hierarchy, propagation), check=check,
                      engine=check_engine, se=check_choice("se", se, SE_DEPTHS))
    return shared_grader(cfg).grade_grid(g)


def rate_file(sources: str | Path | Iterable[str | Path], *, input_format: str = "auto",
              box: tuple[int, int] | str | None = None, column: str | None = None,
              hierarchy: HierarchyArg = None, propagation: str | None = None, jobs: int = 0,
              time_limit: float | None = None, with_solution: bool = False,
              check: bool = False, check_engine: str | None = None, where: str | None = None,
              min_level: int | None = None, max_level: int | None = None, dedupe: bool = False,
              keep_columns: bool = False, sort: str | None = None,
              top: int | None = None, se: str = DEFAULT_SE) -> Iterator[GradeResult]:
    """``grade FILE ...``: one ``GradeResult`` per grid of the files, in input order.

    Every grid gets a result (a malformed one the verdict ``malformed``).  The
    keywords are ``grade``'s options: ``jobs`` worker processes (0, the
    default: one per usable CPU), ``time_limit`` seconds per grid before the
    verdict ``timeout``, ``where``/``min_level``/``max_level``/``dedupe`` to
    select, ``sort``/``top`` to order (``keep_columns``: the input's other
    columns as extra fields).  With one job and no time limit the results come
    lazily, one by one; otherwise when the run is over.  ``InputError`` when a
    file cannot be read, ``WhereError`` for a bad ``where``; ``GridTypeError``
    when a source is a grid rather than a file name (grids held in memory:
    :func:`rate`)."""
    from grader.api_bulk import graded

    if isinstance(sources, (str, Path)):
        names = [str(sources)]
    else:
        _check_type(sources, "rate_file", (Iterable,))
        names = []
        for s in sources:
            if isinstance(s, Grid):
                raise GridTypeError("rate_file reads files: got a Grid; "
                                    "for grids held in memory use grader.rate(grids)")
            _check_type(s, "rate_file (a file name)", (str, Path))
            names.append(str(s))
    for name in names:
        if name != "-" and not Path(name).exists():
            if looks_like_grid_argument(name):
                raise GridTypeError(f"rate_file reads files: {_short(name)!r} is a grid, not "
                                    f"a file name; for grids held in memory use "
                                    f"grader.rate(grids)")
            raise InputError(f"{name}: no such file")
    return graded(names, check_format(input_format), box_of(box), column,
                  hierarchy_of(hierarchy, propagation), check_jobs(jobs), time_limit,
                  with_solution, check, check_engine, where, min_level, max_level, dedupe,
                  keep_columns, sort, top, se=check_choice("se", se, SE_DEPTHS))


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _records(grids: Iterable[str | Grid], box: tuple[int, int] | None,
             input_format: str) -> Iterator[Record]:
    """One record per item of ``grids``, numbered from 1: a text that is not
    one grid gets the verdict ``malformed``; an item that is no grid at all
    is a ``GridTypeError``."""
    for i, g in enumerate(grids, 1):
        if isinstance(g, Grid):
            yield Record(i, i, "<grids>", g.normalised(), g)
            continue
        _check_type(g, f"rate: item {i}", (str, Grid))
        assert isinstance(g, str)
        recs = list(iter_text(io.StringIO(g.strip() + "\n"), "<grids>", input_format, box))
        if len(recs) == 1:
            r = recs[0]
            yield Record(i, i, "<grids>", r.text, r.grid, r.error, r.format)
        else:
            why = "no grid found" if not recs else f"{len(recs)} grids in one item"
            yield Record(i, i, "<grids>", g.strip(), None, why)


def rate(grids: Iterable[str | Grid], *, jobs: int = 0, se: str = DEFAULT_SE,
         hierarchy: HierarchyArg = None, propagation: str | None = None,
         box: tuple[int, int] | str | None = None, input_format: str = "auto",
         time_limit: float | None = None, with_solution: bool = False,
         check: bool = False, check_engine: str | None = None) -> Iterator[GradeResult]:
    """``grade`` over grids held in memory: one ``GradeResult`` per item of
    ``grids`` (texts of one grid each, or :class:`Grid` objects), in input
    order, ``index`` counting from 1:

        results = list(grader.rate(puzzles, jobs=4))

    A text that is not one grid gets the verdict ``malformed`` (the run goes
    on), as in a file.  The keywords are ``grade``'s options: ``jobs`` worker
    processes (0, the default: one per usable CPU; 1: lazily, in this
    process), ``se`` (``--se``), ``time_limit`` seconds per grid before the
    verdict ``timeout``, ``with_solution``, ``check``, ``check_engine``.
    ``GridTypeError`` for ``grids`` that is one grid or a file name (use
    :func:`grade` or :func:`rate_file`) or an item that is no grid (``None``, a
    number); ``ArgumentError`` for a bad keyword."""
    from grader.api_bulk import rated

    if isinstance(grids, (str, bytes, Path, Grid)):
        what = "a file name" if isinstance(grids, Path) else "one grid"
        raise GridTypeError(f"rate takes an iterable of grids, got {what}: use "
                            f"grader.grade(grid) for one grid, grader.rate_file(path) for a file")
    _check_type(grids, "rate", (Iterable,))
    fmt = check_format(input_format)
    return rated(_records(grids, box_of(box), fmt), hierarchy_of(hierarchy, propagation),
                 check_jobs(jobs), time_limit, with_solution, check, check_engine,
                 check_choice("se", se, SE_DEPTHS))


# --------------------------------------------------------------------------- explain


def _walkthrough(grid: Any, hierarchy: HierarchyArg, max_level: int | None,
                 box: tuple[int, int] | str | None, input_format: str,
                 moves: str | None, path: str = DEFAULT_PATH) -> tuple[Walkthrough, bool]:
    from grader.explainer.core import ExplainError, walkthrough
    from grader.explainer.position import Position, apply_moves, check_position, parse_position
    from grader.strategy.engine import Engine

    _check_type(grid, "explain", (str, Grid, Board))
    check_format(input_format, INPUT_FORMATS)
    box = box_of(box)
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
    return walkthrough(board, Engine(hierarchy_of(hierarchy)), givens=givens,
                       max_level=max_level, path=check_choice("path", path, PATHS)), pencil


def _rules_up_to(rules_up_to: int | None, max_level: int | None) -> int | None:
    """``rules_up_to`` (``--rules-up-to``), or its deprecated name ``max_level``."""
    if max_level is not None:
        import warnings

        warnings.warn("max_level is deprecated: use rules_up_to (as explain --rules-up-to)",
                      DeprecationWarning, stacklevel=3)
    level = rules_up_to if rules_up_to is not None else max_level
    if level is not None and (not isinstance(level, int) or level < 1):
        raise ArgumentError(f"rules_up_to must be an integer >= 1, not {level!r}")
    return level


def _walked(*args: Any) -> tuple[Walkthrough, bool]:
    """:func:`_walkthrough` (same arguments) with every step worked out; a
    grid that cannot be read raises ExplainError."""
    from grader.explainer.core import ExplainError

    try:
        wt, pencil = _walkthrough(*args)
    except InputError as e:
        raise ExplainError(str(e)) from e
    wt.ensure()
    return wt, pencil


def explain(grid: str | Grid | Board, hierarchy: HierarchyArg = None,
            max_level: int | None = None, *, rules_up_to: int | None = None,
            box: tuple[int, int] | str | None = None, input_format: str = "auto",
            moves: str | None = None, path: str = DEFAULT_PATH) -> list[Step]:
    """``explain GRID``: every step of the minimal-level strategy, in order.

    ``grid``: any one-grid text the command reads (pencil marks included), a
    :class:`Grid` or a :class:`Board`; ``moves`` as ``explain --moves``;
    ``rules_up_to`` as ``--rules-up-to`` (``max_level`` is its deprecated
    name); ``path`` as ``--path``: "patterns" (where the book's rules 1-12
    stop, the patterns players use, each with its SE value) or "book" (the
    book's trials).  Raises ``ExplainError`` (with the verdict) for text that is not a
    grid or a grid without exactly one solution, ``GridTypeError`` for ``None``."""
    wt, _ = _walked(grid, hierarchy, _rules_up_to(rules_up_to, max_level), box, input_format,
                    moves, path)
    return list(wt.steps)


def explanation(grid: str | Grid | Board, hierarchy: HierarchyArg = None,
                max_level: int | None = None, *, rules_up_to: int | None = None,
                box: tuple[int, int] | str | None = None, input_format: str = "auto",
                moves: str | None = None, full_trace: bool = False,
                path: str = DEFAULT_PATH, notation: str = DEFAULT_NOTATION) -> Explanation:
    """``explain GRID -f json`` as its pydantic model (the arguments of
    :func:`explain`; ``full_trace`` as ``--full-trace``; ``notation="compact"``
    as ``--notation compact``: every sentence with ``r2c7<>38``, ``r4c9=8``)."""
    from grader.explainer.document import document

    wt, pencil = _walked(grid, hierarchy, _rules_up_to(rules_up_to, max_level), box,
                         input_format, moves, path)
    return document(wt, pencil=pencil, full_trace=full_trace,
                    notation=check_choice("notation", notation, NOTATIONS))


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


def solve(grid: str | Grid, *, engine: str = "native", count: bool = False,
          all_solutions: bool = False, limit: int | None = None,
          time_limit: float | None = None, box: tuple[int, int] | str | None = None,
          input_format: str = "auto", sat_solver: str | None = None,
          encoding: str = "classic", fresh_solver: bool = False, csp_model: str = "dual",
          ac3_queue: str = "targeted", **engine_options: Any) -> SolveReport:
    """``solve GRID``: the verdict and solution from an exact engine (``native``,
    ``sat``, ``csp``, ``cp``).  The keywords are ``solve``'s options:
    ``count`` (``--count``: the number of solutions, in ``count``),
    ``all_solutions`` (``--all``: every one, in ``solutions``), ``limit``
    (default 2, or 1000 with ``count`` or ``all_solutions``), the sat engine's
    ``sat_solver``, ``encoding``, ``fresh_solver`` and the csp engine's
    ``csp_model``, ``ac3_queue`` (``engine_options``: any other option of
    :func:`grader.exact.get_engine`).  ``EngineError`` for an engine that
    cannot run, ``ArgumentError`` for a bad ``limit`` or ``time_limit``."""
    from grader.exact import get_engine
    from grader.exact.solving import SolveOptions, solve_record

    _check_type(grid, "solve", (str, Grid))
    if limit is not None and (not isinstance(limit, int) or not 1 <= limit <= 100_000_000):
        raise ArgumentError(f"limit must be an integer from 1 to 100,000,000, not {limit!r}")
    if time_limit is not None and not time_limit > 0:
        raise ArgumentError(f"time_limit must be a number of seconds > 0, not {time_limit!r}")
    if count and all_solutions:
        raise ArgumentError("count and all_solutions do not go together (as --count, --all)")
    if isinstance(grid, Grid):
        rec = Record(1, 1, "<grid>", grid.normalised(), grid)
    else:
        rec = _one_record(grid, box_of(box), input_format)
    if rec.grid is None:
        raise MalformedGrid(rec.error or "not a grid")
    opts = SolveOptions(engine=engine, count=count, listing=all_solutions, limit=limit,
                        time_limit=time_limit, sat_solver=sat_solver, encoding=encoding,
                        fresh_solver=fresh_solver, csp_model=csp_model, ac3_queue=ac3_queue)
    eng = get_engine(engine, **{**opts.engine_options(engine.lower()), **engine_options})
    outcome = solve_record(eng, rec, opts.solution_limit, time_limit)
    return SolveReport(**outcome.to_dict(eng.name, all_solutions))
