"""Verdicts and grades.

Every grid is checked first by the exact solver: ``malformed`` (wrong length
or symbol), ``contradiction`` (a value repeated in a region among the givens),
``no-solution``, ``multiple-solutions``, or ``ok``.  Only ``ok`` grids are
graded by the minimal-level strategy.

The score
---------
The book's rating is coarse; ``score`` orders grids inside it.  With ``W``
a weight and ``L`` the grid's (canonical) level::

    score = 10 * L + 10 * W / (W + 20 * 2 ** (L - 1))

Below the trials ``W`` weighs rounds (:meth:`Engine.plain_weight`): at each
position, every step of the lowest rule that moves, each distinct effect
weighing ``2 ** (level - 1)``, all applied at once; a function of the
puzzle, the same on every isomorph.  Expert grids of sizes Sudoku
Explainer does not rate weigh the steps of the path (a trial step nested to
depth ``d`` weighs ``2 ** (level - 1) * 2 ** (d - 1)``), which may tell
isomorphs apart.

so ``score`` lies in ``[10 L, 10 L + 10)``: grids sort first by level, then by
how much work at and near that level they need (more steps of the hardest
kinds, deeper nesting).  An already solved grid scores 0.

Every grid of a rated size (9x9) gets ``se``, an estimate of its rating on
Sukaku/Sudoku Explainer's scale: Sudoku Explainer's own rating loop below
4.0 (:mod:`grader.strategy.serate`), then the easiest patterns and chains
(:mod:`grader.strategy.expert`) and Sudoku Explainer's nested chains.  Expert grids
(those that need a trial) are ordered by it::

    score = 10 * L + min(se, 9.99)

``se_pattern`` names the pattern that rated the hardest position.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from grader.core import fields
from grader.core.board import Board
from grader.core.geometry import SYMBOLS, Geometry
from grader.core.steps import Step
from grader.formats import Grid, Record
from grader.kernel import Kernel, SolveResult
from grader.strategy.engine import Engine, Tally, Trace
from grader.strategy.expert import RATED_SIZES, Move, Rater, Walk
from grader.strategy.hierarchy import Hierarchy
from grader.strategy.serate.rate import DEFAULT_SETTING, easy_run
from grader.strategy.serate.settings import SE_DEPTHS, SE_OFF

#: ``se``'s choices (``grade --se``): declared in grader.strategy.serate.settings
SE_CHOICES = SE_DEPTHS

#: An exact solver used for verdicts: (geometry, values, limit) -> SolveResult.
Solver = Callable[[Geometry, Sequence[int], int], SolveResult]

Verdict = Literal["ok", "malformed", "contradiction", "no-solution", "multiple-solutions",
                  "unsolved", "timeout", "rule-error", "error"]
VERDICTS: tuple[str, ...] = ("ok", "malformed", "contradiction", "no-solution",
                             "multiple-solutions", "unsolved", "timeout", "rule-error", "error")


#: The version of the JSON Lines contract every record names in its field
#: ``schema`` (``schemas/grade.schema.json``).  Within one version fields are
#: only ever added (a reader ignores the ones it does not know); a change of
#: shape changes the version.  Records written before the field existed
#: (sudoku-grader 0.1) follow version 1 too.
GRADE_SCHEMA = "sudoku-grader/grade/1"


class GradeResult(BaseModel):
    """The JSON Lines contract: one object per input grid, in input order."""

    model_config = ConfigDict(extra="allow", populate_by_name=True, serialize_by_alias=True)

    index: int = 1
    line: int | None = None
    puzzle: str
    size: int | None = None
    verdict: Verdict
    message: str | None = None
    level: int | None = None
    rating: str | None = None
    score: float | None = None
    depth: int | None = None
    steps: int | None = None
    techniques: dict[str, int] = {}
    hardest: str | None = None
    se: float | None = None
    se_pattern: str | None = None
    seconds: float = 0.0
    schema_: str = Field(default=GRADE_SCHEMA, alias="schema",
                         description="the version of the contract this record follows")

    def contract(self, with_solution: bool = False) -> dict[str, Any]:
        """The fields of the JSON Lines contract (plus ``solution`` on request)."""
        d = self.model_dump(include=set(type(self).model_fields), by_alias=True)
        out = {k: d[k] for k in CONTRACT_FIELDS}
        if with_solution:
            out["solution"] = getattr(self, "solution", None)
        return out


#: The contract's fields, in order: the model's own (one place to add a field;
#: :mod:`grader.bulk.codec` reads and writes them by the model's types), named
#: in :mod:`grader.core.fields` too for the commands' help.
CONTRACT_FIELDS: tuple[str, ...] = tuple(f.alias or name
                                        for name, f in GradeResult.model_fields.items())
if CONTRACT_FIELDS != fields.CONTRACT_FIELDS:  # pragma: no cover - caught by every test
    raise ImportError(f"grader.core.fields.CONTRACT_FIELDS must be {CONTRACT_FIELDS}")


def score_of(steps: list[Step] | Tally, level: int) -> float:
    """The score of a path (its steps, or their :class:`~grader.strategy.engine.Tally`)."""
    if level <= 0:
        return 0.0
    w = steps.weight if isinstance(steps, Tally) else Trace(list(steps)).tally().weight
    frac = w / (w + 20 * 2 ** (level - 1))
    return round(10 * level + min(9.99, 10 * frac), 2)


def expert_score(level: int, se: float) -> float:
    """The score of an expert grid with estimate ``se``."""
    return round(10 * level + min(9.99, se), 2)


class Grader:
    """Checks and grades grids with one engine (one hierarchy).

    ``check``: debug mode, every step is checked against the solution.
    ``record``: keep the chains of trial branches (see :class:`Engine`); off by
    default, since a grade does not show them.
    ``kernel``: C or pure Python (see :mod:`grader.kernel`), for the engine
    and the exact solver; the default kernel when None.
    ``se``: how deep the estimate searches Sudoku Explainer's nested chains
    (a name of :data:`grader.strategy.serate.rate.SETTINGS`), or "off": no
    estimate (``se`` and ``se_pattern`` are None, an expert grid's score is
    its path's, as for every other grid)."""

    def __init__(self, hierarchy: Hierarchy | None = None, check: bool = False,
                 solver: Solver | None = None, record: bool = False,
                 kernel: Kernel | None = None, se: str = DEFAULT_SETTING) -> None:
        if se not in SE_CHOICES:
            raise ValueError(f"se must be one of {', '.join(SE_CHOICES)}, not {se!r}")
        self.se = se
        self.engine = Engine(hierarchy, record=record, kernel=kernel, explain=False)
        self.hierarchy = self.engine.hierarchy
        self.check = check
        self.solver: Solver = solver or self.engine.kernel.solve
        self._order = {spec.code: i for i, spec in enumerate(self.hierarchy.ordered())}
        self._rater: Rater | None = None

    def expert(self, grid: Grid, solution: tuple[int, ...] | None,
               depth: int | None = None) -> Walk | None:
        """The estimate's walk (``depth``: the nesting the grid's trace needed;
        0: no trial, Sudoku Explainer's loop below 4.0 first), or None for
        sizes Sudoku Explainer's scale does not cover (see
        :mod:`grader.strategy.expert`)."""
        if grid.size not in RATED_SIZES or solution is None or self.se == SE_OFF:
            return None
        if self._rater is None:
            self._rater = Rater(self.engine, self.se)
        easy = None
        if depth == 0:
            easy = easy_run(grid.values, None, self.engine.kernel.name)
            if easy.values is None or easy.cands is None:  # solved
                return Walk(easy.tenths, easy.name, [Move(easy.name or "", easy.tenths, ())], True)
            board = Board(grid.geo, easy.values, easy.cands, tuple(solution))
        else:
            board = Board.from_values(grid.geo, grid.values)
            board.solution = tuple(solution)
        # debug mode: every hint of the walk is checked against the solution
        walk = self._rater.walk(board, depth=depth, solution=solution if self.check else None)
        if easy is not None and easy.tenths and easy.tenths >= walk.rating:
            walk.rating, walk.pattern = easy.tenths, easy.name  # the loop's steps come first
        return walk if walk.solved and walk.moves else None

    def verdict(self, grid: Grid) -> tuple[str, str | None, tuple[int, ...] | None]:
        res = self.solver(grid.geo, grid.values, 2)
        if res.count == 0:
            dup = Board.from_values(grid.geo, grid.values).conflicts()
            if dup is not None:
                return "contradiction", dup.reason, None
            return "no-solution", "the givens admit no solution", None
        if res.count > 1:
            return "multiple-solutions", "the grid has more than one solution", res.solution
        return "ok", None, res.solution

    def trace(self, grid: Grid, solution: tuple[int, ...] | None = None) -> Trace:
        """Every step of the strategy on ``grid`` (debug mode: each checked
        against ``solution``)."""
        board = Board.from_values(grid.geo, grid.values)
        if solution is not None:
            board.solution = tuple(solution)  # from the exact solver: unique, consistent
        return self.engine.solve(board, solution=list(solution) if solution and self.check
                                 else None, copy=False)

    def tally(self, grid: Grid, solution: tuple[int, ...] | None = None) -> Tally:
        """The counts of the strategy's path on ``grid``, what a grade needs
        (every step made and checked in debug mode)."""
        board = Board.from_values(grid.geo, grid.values)
        if solution is not None:
            board.solution = tuple(solution)  # from the exact solver: unique, consistent
        start = board.copy()
        if self.check:
            path = self.trace(grid, solution).tally()
        else:
            path = self.engine.rate(board)
        if path.solved and not path.depth:
            # below the trials the score weighs rounds, not the path's steps,
            # whose number depends on the order of the cells
            path.weight = self.engine.plain_weight(start)
        return path

    def grade_grid(self, grid: Grid, index: int = 1, line: int | None = None) -> GradeResult:
        t0 = time.perf_counter()
        puzzle = grid.normalised()
        verdict, message, solution = self.verdict(grid)
        base: dict[str, Any] = {"index": index, "line": line, "puzzle": puzzle, "size": grid.size}
        if verdict != "ok":
            return GradeResult(**base, verdict=verdict, message=message,  # type: ignore[arg-type]
                               seconds=round(time.perf_counter() - t0, 6))
        path = self.tally(grid, solution)
        walk = self.expert(grid, solution, path.depth) if path.solved and self.se != SE_OFF \
            else None
        return self.result_from_tally(path, base, solution, t0, walk)

    def result_from_tally(self, path: Tally, base: dict[str, Any],
                          solution: tuple[int, ...] | None, t0: float,
                          walk: Walk | None = None) -> GradeResult:
        counts, level, hardest = path.counts, path.level, path.hardest
        sol_str = None
        if solution is not None:
            syms = SYMBOLS
            sol_str = "".join([syms[v - 1] for v in solution])
        order = self._order
        techniques = dict(sorted(counts.items(), key=lambda kv: order.get(kv[0], 99)))
        if not path.solved:
            return GradeResult(
                **base, verdict="unsolved",
                message=f"the rules stop after {path.steps} steps "
                        f"(trials nested to depth {self.engine.max_depth} were not enough)",
                level=level, depth=path.depth, steps=path.steps, techniques=techniques,
                hardest=hardest, seconds=round(time.perf_counter() - t0, 6),
                solution=sol_str)  # type: ignore[call-arg]
        return GradeResult(
            **base, verdict="ok", level=level, rating=self.hierarchy.rating(level),
            score=score_of(path, level) if walk is None or walk.se is None or not path.depth
            else expert_score(level, walk.se),
            depth=path.depth, steps=path.steps, techniques=techniques, hardest=hardest,
            se=None if walk is None else walk.se, se_pattern=None if walk is None else walk.pattern,
            seconds=round(time.perf_counter() - t0, 6),
            solution=sol_str)  # type: ignore[call-arg]

    def grade_record(self, rec: Record) -> GradeResult:
        if rec.grid is None:
            return GradeResult(index=rec.index, line=rec.line, puzzle=rec.text, size=None,
                               verdict="malformed", message=rec.error)
        return self.grade_grid(rec.grid, rec.index, rec.line)
