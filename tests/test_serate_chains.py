"""Sudoku Explainer's chaining engine (grader.strategy.serate): the C accelerator and
the Python reference give the same hints in the same order, with the same
difficulty and complexity, on positions harvested for every tier and nesting
level (tests/data/se-positions.json, made by make_se_positions.py); and the
rules read from Sudoku Explainer's source (length increment, bases, names)."""

from __future__ import annotations

import json

import pytest
from conftest import DATA

from grader.strategy.serate import rate
from grader.strategy.serate.advanced import _static_chains, _static_multiple, dynamic_chains
from grader.strategy.serate.chainhint import ChainHint, length_added, nested_suffix, tenths
from grader.strategy.serate.multiple import tier_base
from grader.strategy.serate.tiers import chain_step_python

POSITIONS = json.loads((DATA / "se-positions.json").read_text(encoding="utf-8"))
CHAINS = POSITIONS["chains"]
NESTED = POSITIONS["nested"]
LATE = POSITIONS["late"]
HAS_C = rate._mod is not None
needs_c = pytest.mark.skipif(not HAS_C, reason="the C accelerator is not built")

Row = tuple


def py_rows(hints: list[ChainHint]) -> list[Row]:
    return [(h.shape, tenths(h.difficulty), h.difficulty, h.complexity, h.sort_key,
             h.removable, h.placement) for h in hints]


def c_rows(raw: list) -> list[Row]:
    return [(rate.SHAPES[s], t, d, cx, sk, rem, pl) for s, t, d, cx, sk, rem, pl in raw]


# -- Sudoku Explainer's arithmetic ------------------------------------------------------------
@pytest.mark.parametrize(("complexity", "added"), [
    (6, 0), (7, 1), (8, 1), (9, 2), (10, 2), (11, 3), (14, 3), (15, 4), (18, 4), (19, 5),
    (26, 5), (27, 6), (34, 6), (35, 7), (50, 7), (51, 8), (66, 8), (67, 9), (98, 9), (99, 10),
    (130, 10), (131, 11), (194, 11), (195, 12), (258, 12), (259, 13), (386, 13), (387, 14),
    (514, 14), (515, 15)])
def test_length_increment_table(complexity: int, added: int) -> None:
    assert tenths(8.5 + length_added(complexity)) == 85 + added


def test_the_worked_examples_of_the_specification() -> None:
    assert tenths(7.5 + length_added(4 + 5)) == 77  # Nishio, ancestors 4 + 5
    assert tenths(8.5 + length_added(7 + 3)) == 87  # dynamic contradiction, 7 + 3
    assert tenths(8.0 + length_added(5 + 7 + 6)) == 84  # cell forcing, three branches
    assert tenths(9.5 + length_added(29 + 8 + 11)) == 102  # level 2, nested 8 + 11
    assert tenths(10.5 + length_added(40 + 300)) == 118  # level 4, a nested chain of 300


def test_bases_and_names_of_the_levels() -> None:
    assert [tier_base(True, n) for n in range(6)] == [8.5, 9.0, 9.5, 10.0, 10.5, 11.0]
    assert tier_base(False, 0) == 8.0
    assert [nested_suffix(n) for n in range(1, 6)] == [
        " (+)", " (+ Forcing Chains)", " (+ Multiple Forcing Chains)",
        " (+ Dynamic Forcing Chains)", " (+ Dynamic Forcing Chains (+ Forcing Chains))"]
    assert rate.beyond(2) == ("Dynamic Forcing Chains (+ Forcing Chains) (not searched)", 95)


# -- C and Python alike -----------------------------------------------------------------------
@needs_c
@pytest.mark.parametrize("case", [c if i < 4 else pytest.param(c, marks=pytest.mark.slow)
                                  for i, c in enumerate(CHAINS)],
                         ids=[f"chains{i}" for i in range(len(CHAINS))])
def test_static_and_dynamic_searches_alike(case: dict) -> None:
    """Four positions by default, ten with --runslow."""
    values, cands = case["values"], case["cands"]
    py = py_rows(_static_chains(values, list(cands)))
    assert py and py == c_rows(rate._mod.hints(values, cands, 0, 0, None))
    py = py_rows(_static_multiple(values, list(cands)))
    assert py and py == c_rows(rate._mod.hints(values, cands, 1, 0, None))
    for level in (0, 1):
        py = py_rows(dynamic_chains(values, list(cands), level))
        assert py and py == c_rows(rate._mod.hints(values, cands, 2, level, None))


@needs_c
@pytest.mark.parametrize("case", NESTED, ids=[f"level{x['level']}" for x in NESTED])
def test_nested_levels_alike_from_a_few_pivots(case: dict) -> None:
    """Every hint from the pivot cells, at the position's level (the Python
    search of every cell takes minutes at levels 3 and 4)."""
    values, cands, level = case["values"], case["cands"], case["level"]
    py = py_rows(dynamic_chains(values, list(cands), level, frozenset(case["pivots"])))
    assert py and py == c_rows(rate._mod.hints(values, cands, 2, level, case["pivots"]))


@needs_c
@pytest.mark.parametrize("level", LATE["levels"])
def test_levels_4_and_5_alike_late_in_a_walk(level: int) -> None:
    values, cands, pivots = LATE["values"], LATE["cands"], LATE["pivots"]
    py = py_rows(dynamic_chains(values, list(cands), level, frozenset(pivots)))
    assert py and py == c_rows(rate._mod.hints(values, cands, 2, level, pivots))
    assert min(row[2] for row in py) >= tier_base(True, level)


@needs_c
@pytest.mark.parametrize("case", NESTED, ids=[f"level{x['level']}" for x in NESTED])
def test_the_chain_step_of_each_level(case: dict) -> None:
    """The C step: the first level with a hint, and its easiest hint."""
    step = rate.chain_step(case["values"], case["cands"], 0, rate.MAX_LEVEL, "c")
    assert step is not None
    assert (step.level, step.tenths, step.complexity) == (
        case["level"], case["tenths"], case["complexity"])
    assert [list(x) for x in step.removable] == case["removable"]
    assert step.name.startswith("Dynamic ") and step.name.endswith(nested_suffix(step.level))


@pytest.mark.slow
@pytest.mark.parametrize("case", [x for x in NESTED if x["level"] <= 2],
                         ids=[f"level{x['level']}" for x in NESTED if x["level"] <= 2])
def test_the_python_step_of_levels_1_and_2(case: dict) -> None:
    step = chain_step_python(case["values"], case["cands"])
    assert step is not None
    assert (step.level, step.tenths, step.complexity) == (
        case["level"], case["tenths"], case["complexity"])


@pytest.mark.slow
@needs_c
@pytest.mark.parametrize("case", [x for x in NESTED if x["level"] == 2],
                         ids=[f"level2-{i}" for i in range(2)])
def test_a_whole_level_2_search_alike(case: dict) -> None:
    values, cands = case["values"], case["cands"]
    assert py_rows(dynamic_chains(values, list(cands), 2)) == c_rows(
        rate._mod.hints(values, cands, 2, 2, None))
