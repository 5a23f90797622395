"""Every step of the documented examples' grids (tests/data/pattern-examples.json)
and of bench-mixed's expert grids, replayed along the pattern path: no link
(drawn, or listed in the JSON) and no stated premise is false at the step's
position (tests/step_truth.py).  A few grids by default; all with --runslow."""

from __future__ import annotations

import json
from functools import cache

import pytest
from conftest import DATA, PUZZLES
from step_truth import check

from grader.core.board import Board
from grader.core.steps import Arc, Step
from grader.explainer.core import walkthrough
from grader.formats import parse_grid_token

EXAMPLES = json.loads((DATA / "pattern-examples.json").read_text())
GRIDS = sorted({e["grid"] for e in EXAMPLES.values()})
BENCH = (PUZZLES / "bench-mixed.txt").read_text().split()
#: bench-mixed grids (1-based) checked by default: an empty rectangle, unique
#: rectangles, wings and chains among them
FAST_BENCH = (7, 16, 20, 40)
FAST_EXAMPLES = ("empty rectangle", "unique rectangle type 4", "XYZ-Wing", "turbot fish")


@cache
def path(token: str) -> tuple[tuple[Board, Step], ...]:
    wt = walkthrough(parse_grid_token(token).board(), path="patterns")
    return tuple((board, step) for _, board, step in wt)


def replay(token: str, where: str) -> int:
    n = 0
    for i, (board, step) in enumerate(path(token), start=1):
        if step.se is None and not step.pattern.arcs:
            continue
        check(board, step, f"{where} step {i}: ")
        n += 1
    return n


def _slow(values: list[str], fast: set[str]) -> list[object]:
    return [v if v in fast else pytest.param(v, marks=pytest.mark.slow) for v in values]


@pytest.mark.parametrize("grid", _slow(GRIDS, {EXAMPLES[n]["grid"] for n in FAST_EXAMPLES}))
def test_documented_examples_tell_the_truth(grid: str) -> None:
    assert replay(grid, grid) > 0


@pytest.mark.parametrize("index", [i if i in FAST_BENCH else pytest.param(i, marks=pytest.mark.slow)
                                   for i in range(1, len(BENCH) + 1)])
def test_bench_mixed_tells_the_truth(index: int) -> None:
    replay(BENCH[index - 1], f"bench-mixed {index}")


def test_the_checker_catches_a_false_link_and_premise() -> None:
    token = EXAMPLES["empty rectangle"]["grid"]
    board, step = next((b, s) for b, s in path(token) if s.family == "empty-rectangle")
    grouped = step.pattern.arcs[2]
    assert grouped.kind == "grouped-strong" and grouped.a_group and grouped.b_group
    # the same link typed as a plain strong link between two cells is false
    plain = Arc(grouped.a, grouped.b, True, grouped.unit)
    from dataclasses import replace
    with pytest.raises(AssertionError):
        check(board, replace(step, pattern=replace(step.pattern, arcs=(plain,))))
    ur = next(((b, s) for t in [EXAMPLES["unique rectangle type 4"]["grid"]]
               for b, s in path(t) if s.family == "unique-rectangle"))
    b, s = ur
    bad = b.copy()
    c = s.pattern.cells[0][0]
    bad.cands[c] &= ~(1 << (s.pattern.values[0] - 1))
    with pytest.raises(AssertionError):
        check(bad, s)
