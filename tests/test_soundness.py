"""Soundness: grade the bundled collections in debug mode (``check=True``),
which checks every step's placements and eliminations against the grid's
solution and raises SoundnessError on the first disagreement.  Also: the
check itself catches a step that removes the true value."""

from __future__ import annotations

from collections import defaultdict

import pytest
from conftest import DATA, G9, PUZZLES, book_calibration, book_figures, cell

from grader import Engine, Grader, parse_grid_token
from grader.core.steps import Pattern, Step
from grader.strategy.engine import SoundnessError, check_step


@pytest.fixture(scope="module")
def grader() -> Grader:
    return Grader(check=True)


def assert_sound(grader: Grader, puzzle: str, solution: str | None = None) -> None:
    grid = parse_grid_token(puzzle)
    r = grader.grade_grid(grid)  # raises SoundnessError on an unsound step
    assert r.verdict == "ok", (puzzle, r.message)
    if solution is not None:
        assert getattr(r, "solution", None) == solution


# -- the checker itself -----------------------------------------------------------
def test_check_step_rejects_a_wrong_elimination_and_placement() -> None:
    fig = book_figures()["fig2.1"]
    solution = [int(ch) for ch in fig["solution"]]
    c = cell(G9, 8, 6)
    bad_elim = Step("fake", "fake", 3, "fake", (), ((c, solution[c]),), Pattern(), G9)
    with pytest.raises(SoundnessError, match=r"eliminates the true value 3 from \(8, 6\)"):
        check_step(bad_elim, solution)
    bad_place = Step("fake", "fake", 1, "fake", ((c, 1),), (), Pattern(), G9)
    with pytest.raises(SoundnessError, match=r"places 1 in \(8, 6\)"):
        check_step(bad_place, solution)
    good = Step("fake", "fake", 1, "fake", ((c, 3),), ((c, 1),), Pattern(), G9)
    check_step(good, solution)


def test_engine_raises_on_a_step_that_disagrees_with_the_solution() -> None:
    """Feed the engine a wrong 'solution' (two values swapped): the first step
    touching those cells is reported."""
    fig = book_figures()["fig2.1"]
    wrong = [int(ch) for ch in fig["solution"]]
    board = parse_grid_token(fig["puzzle"]).board()
    empties = [c for c in range(81) if not board.values[c]]
    a, b = empties[0], next(c for c in empties[1:] if wrong[c] != wrong[empties[0]])
    wrong[a], wrong[b] = wrong[b], wrong[a]
    with pytest.raises(SoundnessError):
        list(Engine().steps(board, solution=wrong))


# -- the collections -----------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(book_figures()))
def test_book_figures_sound(grader: Grader, name: str) -> None:
    fig = book_figures()[name]
    assert_sound(grader, fig["puzzle"], fig["solution"])


def test_book_calibration_sound(grader: Grader) -> None:
    for item in book_calibration():
        assert_sound(grader, item["puzzle"], item["solution"])


def se_rated() -> dict[str, list[str]]:
    """puzzles/se-rated-9758.txt by Sudoku Explainer rating (id puzzle rating)."""
    by: dict[str, list[str]] = defaultdict(list)
    for line in (PUZZLES / "se-rated-9758.txt").read_text().splitlines():
        parts = line.split()
        if len(parts) == 3:
            by[parts[2]].append(parts[1])
    return by


SE = se_rated()


@pytest.mark.parametrize("rating", sorted(SE, key=float))
def test_se_rated_sample_sound(grader: Grader, rating: str) -> None:
    """Every 4th grid of each Sudoku Explainer rating (about 2,400 grids)."""
    for puzzle in SE[rating][::4]:
        assert_sound(grader, puzzle)


@pytest.mark.slow
@pytest.mark.parametrize("rating", sorted(SE, key=float))
def test_se_rated_all_sound(grader: Grader, rating: str) -> None:
    """All 9,758 grids (about 30 s on one core with the accelerator)."""
    for puzzle in SE[rating]:
        assert_sound(grader, puzzle)


@pytest.mark.parametrize("name", ["se-easy-500.txt", "se-medium-500.txt"])
def test_sudoku_exchange_samples_sound(grader: Grader, name: str) -> None:
    lines = (PUZZLES / name).read_text().splitlines()
    assert len(lines) == 500
    for line in lines:
        puzzle, solution = line.split()[:2]
        assert_sound(grader, puzzle, solution)


@pytest.mark.parametrize("name", ["generated-mixed-9x9.txt", "sizes-4x4.txt", "sizes-6x6.txt",
                                  "sizes-8x8.txt", "sizes-12x12.txt", "sizes-16x16.txt"])
def test_generated_samples_sound(grader: Grader, name: str) -> None:
    """The generated samples of every size (25x25 aside: the exact solver's
    second-solution search is slow on some of them, see the README)."""
    lines = [ln for ln in (PUZZLES / name).read_text().splitlines() if ln.strip()]
    assert lines
    for line in lines:
        assert_sound(grader, line.split()[0])


def top1465_sample() -> list[tuple[int, str]]:
    out = []
    for text in (DATA / "top1465-sample.txt").read_text().splitlines():
        if text.startswith("#"):
            continue
        out.append((int(text.split("line ")[1].split(":")[0]), text.split()[0]))
    return out


@pytest.mark.parametrize(("line", "puzzle"), [
    pytest.param(ln, p, id=f"top1465-{ln}") for ln, p in top1465_sample()])
def test_top1465_sample_sound(grader: Grader, line: int, puzzle: str) -> None:
    r = grader.grade_grid(parse_grid_token(puzzle))
    assert r.verdict == "ok" and r.level is not None and r.level >= 3
    assert r.depth == (1 if r.level >= 13 else 0)
