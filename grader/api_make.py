"""The API of the commands that make grids: :func:`generate` (``generate``),
:func:`pair_solve` (``pair solve``) and :func:`pair_generate` (``pair
generate``); see :mod:`grader.api`, which exports them."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from grader.core.errors import ArgumentError
from grader.strategy.grading import GradeResult

if TYPE_CHECKING:
    from grader.strategy.hierarchy import Hierarchy


def generate(rating: str | None = None, *, level: str | int | None = None,
             depth: str | int | None = None, score: str | None = None,
             se: str | float | None = None, ep: str | float | None = None,
             ed: str | float | None = None,
             like: str | Path | None = None, number: int = 1, count: int | None = None,
             size: int = 9, box: tuple[int, int] | str | None = None, symmetry: str = "none",
             minimal: bool = False, min_givens: int | None = None,
             max_givens: int | None = None, seed: int | None = None, method: str = "guided",
             jobs: int = 0, stop_after: float | None = None, timeout: float | None = None,
             hierarchy: Hierarchy | str | Path | None = None) -> list[GradeResult]:
    """``generate``: ``number`` new grids as the ``GradeResult`` that ``grade``
    gives them, each with its ``solution`` (the ``generate -f jsonl`` records).

    The keywords are the command's options: ``rating`` or ``level``, ``depth``
    (trials nested to it: ``2``, ``"2..3"``), ``score`` (``"140..150"``),
    ``se``, ``ep``, ``ed`` (Sudoku Explainer's ratings: ``"8.0..9.0"``, ``"10.0.."``,
    ``8.3``),
    ``like`` (a file of your own grids to explore around), ``seed`` (None: a
    random one), ``jobs`` (0, the default: one per usable CPU), ``stop_after``
    (seconds for the whole run: the grids it cut short are left out).
    ``count`` and ``timeout`` are the deprecated names of ``number`` and
    ``stop_after``.  Raises ``TargetError`` / ``GenerationError`` for a
    request that names nothing or cannot be met, ``ArgumentError`` for a bad
    argument, ``InputError`` for a ``like`` file that cannot be read."""
    from grader.api_args import box_of, check_jobs, hierarchy_of
    from grader.bulk.capacity import plan_jobs
    from grader.generator.output import record
    from grader.generator.request import GenerateOptions, prepare, produce

    number = _renamed(number, count, "count", "number", 1)
    stop_after = _renamed(stop_after, timeout, "timeout", "stop_after", None)
    if not isinstance(number, int) or number < 1:
        raise ArgumentError(f"number must be an integer >= 1, not {number!r}")
    if stop_after is not None and not stop_after >= 0:
        raise ArgumentError(f"stop_after must be a number of seconds >= 0, not {stop_after!r}")
    opts = GenerateOptions(
        rating=rating, level=None if level is None else str(level),
        depth=None if depth is None else str(depth), score=score,
        se=None if se is None else str(se), ep=None if ep is None else str(ep),
        ed=None if ed is None else str(ed),
        like=None if like is None else Path(like), number=number, size=size, box=box_of(box),
        symmetry=symmetry, minimal=minimal, min_givens=min_givens, max_givens=max_givens,
        seed=seed, method=method, jobs=plan_jobs(check_jobs(jobs))[0], timeout=stop_after,
        output_format="jsonl", hierarchy=hierarchy_of(hierarchy))
    plan = prepare(opts)
    plan.seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
    outcome = produce(plan, io.StringIO())
    return [GradeResult(**record(g, i)) for i, g in enumerate(outcome.made, start=1)]


def _renamed(new: Any, old: Any, old_name: str, new_name: str, default: Any) -> Any:
    """The value of an argument given by its deprecated name, with a warning."""
    if old is None:
        return new
    import warnings

    warnings.warn(f"{old_name} is deprecated: use {new_name} (as on the command line)",
                  DeprecationWarning, stacklevel=3)
    if new != default:
        raise ArgumentError(f"give {new_name} or its old name {old_name}, not both")
    return old


# --------------------------------------------------------------------------- pairs


def _pairs(*names: str) -> Any:
    """Names of :mod:`grader.exact.pairs`, which needs the ``sat`` extra."""
    try:
        from grader.exact import pairs
    except ImportError as e:
        from grader.exact import EngineError

        raise EngineError(f"Sudoku pairs need the 'sat' extra ({e.name} is not installed): "
                          "pip install 'sudoku-grader[sat]'") from None
    return tuple(getattr(pairs, n) for n in names)


class PairSolution(BaseModel):
    """``pair solve``: the filled pair (or none) and how many joint solutions."""

    size: int
    #: the joint solutions found (at most ``limit``), each two grids as lines
    solutions: list[tuple[str, str]]
    #: how many were found; ``complete`` when ``limit`` did not stop the count
    count: int
    complete: bool
    seconds: float

    @property
    def unique(self) -> bool:
        return self.count == 1 and self.complete


class PairPuzzle(BaseModel):
    """``pair generate``: a pair puzzle with a unique joint solution."""

    size: int
    puzzle: tuple[str, str]
    solution: tuple[str, str]
    givens: int
    seed: int
    #: False when ``stop_after`` cut the removals: still unique, maybe not minimal
    complete: bool
    sat_calls: int
    seconds: float


def pair_solve(pair: str | Path, *, limit: int = 2, sat_solver: str | None = None,
               box: tuple[int, int] | str | None = None,
               input_format: str = "auto") -> PairSolution:
    """``pair solve FILE``: ``pair`` is the text of the two grids (two lines,
    two "N T" lines, two blocks) or the path of a file holding them.  ``limit``
    joint solutions at most (``pair solve --count``: ``limit=1000``).  Needs
    the ``sat`` extra (``EngineError`` without it)."""
    from grader.api_args import box_of, check_format
    from grader.formats import InputError, iter_text

    DEFAULT_PAIR_SOLVER, solve_pair = _pairs("DEFAULT_PAIR_SOLVER", "solve_pair")
    if not isinstance(limit, int) or limit < 1:
        raise ArgumentError(f"limit must be an integer >= 1, not {limit!r}")
    text = str(pair)
    if isinstance(pair, Path) or "\n" not in text.strip():
        try:
            text = Path(pair).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise InputError(f"{pair}: cannot open: {getattr(e, 'strerror', None) or e}") \
                from None
    recs = list(iter_text(io.StringIO(text), "<pair>", check_format(input_format),
                          box_of(box)))
    grids = [r.grid for r in recs]
    if len(grids) != 2 or None in grids:
        from grader.formats import MalformedGrid

        raise MalformedGrid(f"a pair is two grids: found {len(recs)} records, "
                            f"{sum(g is not None for g in grids)} of them grids")
    a, b = grids
    assert a is not None and b is not None
    if a.geo is not b.geo:
        raise ArgumentError("the two grids differ in size or block shape")
    res = solve_pair(a.geo, a.values, b.values, limit, sat_solver or DEFAULT_PAIR_SOLVER)
    sym = a.geo.symbols
    return PairSolution(size=a.geo.n, count=res.count, complete=res.count < limit,
                        seconds=res.seconds,
                        solutions=[("".join(sym[v - 1] for v in sa),
                                    "".join(sym[v - 1] for v in sb)) for sa, sb in res.solutions])


def pair_generate(*, order: int = 3, seed: int | None = None, sat_solver: str | None = None,
                  stop_after: float | None = None) -> PairPuzzle:
    """``pair generate``: a pair of ``order``\\ ² x ``order``\\ ² grids with a
    unique joint solution, every given needed (unless ``stop_after`` seconds
    cut the removals).  ``ArgumentError`` for an order it refuses (2 to 4),
    ``EngineError`` without the ``sat`` extra."""
    DEFAULT_PAIR_SOLVER, PairGenerateOptions, check_pair_order, make = _pairs(
        "DEFAULT_PAIR_SOLVER", "PairGenerateOptions", "check_pair_order", "pair_generate")
    try:
        check_pair_order(order)
    except ValueError as e:
        raise ArgumentError(str(e)) from None
    seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
    gen = make(PairGenerateOptions(order, seed, "text", False, sat_solver or DEFAULT_PAIR_SOLVER,
                                   stop_after))
    sym = gen.geo.symbols

    def line(values: Any) -> str:
        return "".join(sym[v - 1] if v else "." for v in values)

    return PairPuzzle(size=gen.geo.n, puzzle=(line(gen.puzzle_a), line(gen.puzzle_b)),
                      solution=(line(gen.solution_a), line(gen.solution_b)),
                      givens=gen.givens, seed=seed, complete=gen.complete,
                      sat_calls=gen.sat_calls, seconds=gen.seconds)
