"""Sudoku Explainer's rules below 4.0 and its rating loop (grader.strategy.serate.easy
and its C twin): the values of the singles, intersections and subsets, the
direct variants, C and Python alike, and the bottom of the scale on the
Sudoku Exchange bank's easiest grids."""

from __future__ import annotations

import pytest
from conftest import PUZZLES

from grader.formats import parse_grid_token
from grader.strategy.grading import Grader
from grader.strategy.serate import easy, rate
from grader.strategy.serate.grid import candidates_of

HAS_C = rate._mod is not None
needs_c = pytest.mark.skipif(not HAS_C, reason="the C accelerator is not built")


def grids(name: str, step: int = 1, column: int = 0) -> list[list[int]]:
    lines = (PUZZLES / name).read_text(encoding="utf-8").splitlines()
    return [[int(ch) for ch in line.split()[column]] for line in lines[::step]]


def run(values: list[int], kernel: str) -> rate.EasyRun:
    return rate.easy_run(values, candidates_of(values), kernel)


def test_the_values_are_sudoku_explainers() -> None:
    assert [rate.EASY_NAMES[i] for i in (0, 1, 2, 6)] == [
        "full house", "hidden single in a block", "hidden single in a line", "naked single"]
    assert easy.DIRECT_HIDDEN_TENTHS == {2: 20, 3: 25}
    assert (easy.NAKED_TENTHS[2], easy.FISH_TENTHS[2], easy.HIDDEN_TENTHS[2]) == (30, 32, 34)
    assert (easy.NAKED_TENTHS[3], easy.FISH_TENTHS[3], easy.HIDDEN_TENTHS[3]) == (36, 38, 40)


def test_a_full_house_comes_first() -> None:
    values = [int(ch) for ch in "534678912672195348198342567859761423426853791713924856"
              "961537284287419635345286170"]
    hint = easy.first_hint(values, candidates_of(values))
    assert hint is not None and (hint.name, hint.tenths, hint.place) == ("full house", 10, (80, 9))


def test_an_easy_grid_needs_hidden_singles_in_blocks_only() -> None:
    got = run(grids("se-easy-500.txt")[0], "python")
    assert got.solved and (got.tenths, got.name) == (12, "hidden single in a block")


@needs_c
@pytest.mark.parametrize("name", ["se-easy-500.txt", "se-medium-500.txt"])
def test_the_bottom_of_the_scale(name: str) -> None:
    """The bank rates the first file below 1.5 and the second 1.5 to 2.4."""
    runs = [run(v, "c") for v in grids(name)]
    assert all(r.solved for r in runs)
    if name.startswith("se-easy"):
        ok = sum(r.tenths < 15 for r in runs)
    else:
        ok = sum(15 <= r.tenths <= 24 for r in runs)
    assert ok >= 0.95 * len(runs)


@needs_c
def test_c_and_python_loops_alike() -> None:
    cases = (grids("se-easy-500.txt", 100) + grids("se-medium-500.txt", 50)
             + grids("se-rated-9758.txt", 307, 1))
    for values in cases:
        c, py = run(values, "c"), run(values, "python")
        assert (c.tenths, c.name, c.steps, c.values, c.cands) == (
            py.tenths, py.name, py.steps, py.values, py.cands)


def _positions() -> list[tuple[list[int], list[int]]]:
    """Positions along the loop of a few bank grids: every step's."""
    out = []
    for values in grids("se-rated-9758.txt", 487, 1):
        cands = candidates_of(values)
        while not all(values):
            out.append((list(values), list(cands)))
            hint = easy.first_hint(values, cands)
            if hint is None:
                break
            easy.apply(values, cands, hint)
    return out[::7]


@needs_c
def test_every_producer_finds_the_same_hints_in_c() -> None:
    positions = _positions()
    assert len(positions) > 60
    for values, cands in positions:
        for i, producer in enumerate(easy.PRODUCERS):
            py = [(h.tenths, h.removable, h.place) for h in producer(values, cands)]
            c = [(t, rem, pl) for _, t, rem, pl in rate._mod.rule_hints(values, cands, i)]
            assert py == c


def test_every_grid_of_a_rated_size_gets_se() -> None:
    grader = Grader()
    for name in ("book-calibration.txt", "book-figures.txt", "generated-mixed-9x9.txt"):
        for token in (PUZZLES / name).read_text(encoding="utf-8").split():
            if len(token) != 81:
                continue
            r = grader.grade_grid(parse_grid_token(token))
            assert r.verdict != "ok" or r.se is not None, (name, token)
    for name in ("sizes-4x4.txt", "sizes-16x16.txt"):
        for token in (PUZZLES / name).read_text(encoding="utf-8").split():
            if len(token) in (16, 256):
                assert grader.grade_grid(parse_grid_token(token)).se is None
