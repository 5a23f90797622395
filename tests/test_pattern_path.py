"""The pattern path (``explain --path patterns``) on bench-mixed's expert
grids: each step is the pattern its name says (tests/pattern_shapes.py), its
conclusions are true of the solution, and its hardest step is the pattern
and the value that ``grade`` reports (``se``, ``se_pattern``)."""

from __future__ import annotations

from functools import cache

import pytest
from conftest import PUZZLES
from pattern_shapes import check_step

from grader.core.board import Board
from grader.core.steps import Step
from grader.explainer.core import walkthrough
from grader.explainer.patterns import NETS
from grader.formats import parse_grid_token
from grader.strategy.grading import Grader, GradeResult

#: contradictions from one assumption (level 14; nested: "(+)" ...)
REDUCTIO = ("Nishio", "Dynamic Contradiction Forcing Chains", "dynamic contradiction chain")


@cache
def graded() -> tuple[tuple[int, str, GradeResult], ...]:
    """(index, grid, grade) of bench-mixed's grids that need a trial."""
    grader = Grader()
    out = []
    for i, token in enumerate((PUZZLES / "bench-mixed.txt").read_text().split(), start=1):
        r = grader.grade_grid(parse_grid_token(token))
        if r.level is not None and r.level >= 13:
            out.append((i, token, r))
    return tuple(out)


@cache
def path_of(index: int) -> tuple[tuple[Board, Step], ...]:
    token = next(t for i, t, _ in graded() if i == index)
    wt = walkthrough(parse_grid_token(token).board(), path="patterns")
    return tuple((board, step) for _, board, step in wt)


def test_bench_mixed_has_expert_grids() -> None:
    assert len(graded()) >= 90


@pytest.mark.parametrize("chunk", range(4))
def test_pattern_path_is_true_whole_and_rated_as_grade(chunk: int) -> None:
    for index, _, r in graded()[chunk::4]:
        steps = path_of(index)
        assert steps, index
        after = steps[-1][0].copy()
        after.apply(steps[-1][1])
        assert after.is_solved(), f"grid {index}: the pattern path stops"
        solution = r.solution
        assert solution is not None
        top: tuple[float, str] = (0.0, "")
        for n, (board, step) in enumerate(steps, start=1):
            for c, v in step.eliminations:
                assert solution[c] != str(v), f"grid {index} step {n} removes the solution"
            for c, v in step.placements:
                assert solution[c] == str(v), f"grid {index} step {n} places a wrong value"
            if step.se is None:
                continue
            try:
                check_step(board, step)
            except AssertionError as e:
                raise AssertionError(f"grid {index} step {n}: {e}") from None
            if step.se > top[0]:
                top = (step.se, step.name)
        # a reductio on a grid that disjunctive constructions solve (level
        # 13) is shown as the book's trial of that level, valued as the walk
        # rates it (issue 37; tests/test_pattern_examples.py, ABOVE_THE_GRID)
        names = {r.se_pattern}
        if r.se_pattern.startswith(REDUCTIO):
            names |= {NETS, "nested trials"}
        assert top[0] == r.se and top[1] in names, (
            f"grid {index}: hardest {top}, grade {r.se} {r.se_pattern}")
