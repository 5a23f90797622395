"""Grading gives the stored ratings (issue 28): level, rating, depth, score,
``se`` and ``se_pattern`` of every grid of bench-mixed, of the SE-rated sample
and of the 375 hardest grids, as ``tests/data/ratings/*.jsonl`` keep them.

A sample of the two large files runs by default (every 10th grid, every 5th);
``--runslow`` grades them whole.  A few grids are graded by the pure-Python
kernel too, which must agree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import DATA

from grader.formats import parse_grid_token
from grader.kernel import PYTHON, c_kernel
from grader.kernel import c as native
from grader.strategy.grading import Grader

RATINGS = DATA / "ratings"
FIELDS = ("level", "rating", "depth", "score", "se", "se_pattern")


def stored(name: str) -> list[list[object]]:
    """[puzzle, level, rating, depth, score, se, se_pattern] for each grid."""
    lines = (RATINGS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines[1:] if line.strip()]


def graded(grader: Grader, puzzle: str) -> list[object]:
    r = grader.grade_grid(parse_grid_token(puzzle))
    assert r.verdict == "ok", (puzzle, r.message)
    return [puzzle, *(getattr(r, f) for f in FIELDS)]


def check(rows: list[list[object]], grader: Grader) -> None:
    wrong = [(row, got) for row in rows if (got := graded(grader, str(row[0]))) != row]
    assert not wrong, f"{len(wrong)} of {len(rows)} grids rated differently, e.g. {wrong[:2]}"


def test_bench_mixed_ratings_are_the_stored_ones() -> None:
    rows = stored("bench-mixed")
    assert len(rows) == 200
    check(rows, Grader())


def test_a_sample_of_the_se_rated_grids_keeps_its_ratings() -> None:
    rows = stored("se-rated-9758")
    assert len(rows) == 9758
    check(rows[::10], Grader())


def test_a_sample_of_the_hardest_grids_keeps_its_ratings() -> None:
    rows = stored("hardest-375")
    assert len(rows) == 375
    check(rows[::5], Grader())


@pytest.mark.slow
@pytest.mark.parametrize("name", ["se-rated-9758", "hardest-375"])
def test_every_stored_grid_keeps_its_rating(name: str) -> None:
    check(stored(name), Grader())


@pytest.mark.kernel
@pytest.mark.parametrize("index", [0, 1, 5, 31, 106, pytest.param(78, marks=pytest.mark.slow)])
def test_the_pure_python_kernel_gives_the_stored_ratings(index: int) -> None:
    """An easy, a very difficult, two expert grids, one rated by Sudoku
    Explainer's dynamic forcing chains and (slow in pure Python: 15 s) a grid
    that nests trials; both kernels, when C is built."""
    row = stored("bench-mixed")[index]
    check([row], Grader(kernel=PYTHON))
    if native.built():
        check([row], Grader(kernel=c_kernel()))


def test_the_stored_files_are_where_the_tests_read_them() -> None:
    assert {p.name for p in Path(RATINGS).iterdir()} >= {
        "bench-mixed.jsonl", "se-rated-9758.jsonl", "hardest-375.jsonl"}
