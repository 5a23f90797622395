"""C and pure Python give the same pattern path (``explain --path patterns``):
the same steps, names, links, conclusions and values, on grids whose paths
hold a strong-link chain, wings, a Nishio, region forcing chains and Sudoku
Explainer's dynamic forcing chains."""

from __future__ import annotations

import pytest
from conftest import PUZZLES

from grader.core.steps import Step
from grader.explainer.core import walkthrough
from grader.formats import parse_grid_token
from grader.kernel import c as native
from grader.kernel import kernel_named
from grader.strategy.engine import Engine

pytestmark = pytest.mark.kernel

#: bench-mixed grids (1-based): a skyscraper; a Nishio; region forcing chains;
#: dynamic forcing chains of Sudoku Explainer
GRIDS = (159, 23, 35, 165)


def path(index: int, kernel: str) -> list[tuple[object, ...]]:
    token = (PUZZLES / "bench-mixed.txt").read_text().split()[index - 1]
    engine = Engine(kernel=kernel_named(kernel))
    wt = walkthrough(parse_grid_token(token).board(), engine, path="patterns")
    wt.ensure()
    return [key(s) for s in wt.steps]


def key(step: Step) -> tuple[object, ...]:
    return (step.name, step.se, step.placements, step.eliminations, step.pattern.arcs,
            step.summary())


@pytest.mark.skipif(not native.built(), reason="the C accelerator is not built")
@pytest.mark.parametrize("index", GRIDS)
def test_c_and_python_give_the_same_pattern_path(index: int) -> None:
    c, py = path(index, "c"), path(index, "python")
    assert c == py
    assert any(se is not None for _, se, *_ in c)
