"""The book's worked examples (puzzles/book-figures.jsonl) and calibration
grids (puzzles/book-calibration.jsonl): every deduction, partial grid, level
and rating the book prints."""

from __future__ import annotations

import pytest
from conftest import G9, book_calibration, book_figures, cell, make_rule

from grader import Engine, Grader, parse_grid_token
from grader.core.board import Board

FIGS = book_figures()


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine()


@pytest.fixture(scope="module")
def grader() -> Grader:
    return Grader(check=True)


def board_of(name: str) -> Board:
    return parse_grid_token(FIGS[name]["puzzle"]).board()


def placements(steps) -> set[tuple[int, int]]:
    return {p for s in steps for p in s.placements}


def test_the_figures_file_is_what_the_tests_expect() -> None:
    assert {"fig2.1", "fig2.2", "fig2.3", "fig2.4", "fig2.10", "fig3.7", "fig3.8", "fig4.5",
            "fig6.1", "fig6.2", "fig6.3", "fig5.1"} <= set(FIGS)
    for name in ("fig2.4", "fig2.10", "fig3.8", "fig4.5"):
        assert FIGS[name]["partial"], name


# -- chapter 2: single position and single candidate ------------------------
def test_fig_2_1_single_position_3_in_column_c6() -> None:
    board = board_of("fig2.1")
    steps = list(make_rule("single-position").find(board))
    hit = [s for s in steps if s.placements == ((cell(G9, 8, 6), 3),)
           and s.pattern.regions_with("region") == (G9.col_region(5),)]
    assert len(hit) == 1
    step = hit[0]
    assert step.level == 1 and step.rule == "single-position"
    assert step.pattern.values == (3,)
    assert step.pattern.cells_with("target") == (cell(G9, 8, 6),)
    text = step.summary()
    assert text.startswith("single position: in column C6")
    assert text.endswith("3 can only go in (8, 6) => (8, 6) <- 3")
    # every other empty cell of C6 is excluded by a placed 3 the pattern names
    exc = step.pattern.cells_with("excluder")
    assert exc and all(board.values[c] == 3 for c in exc)
    empties = [c for c in G9.cols[5] if not board.values[c] and c != cell(G9, 8, 6)]
    assert empties and all(any(e in G9.peer_sets[c] for e in exc) for c in empties)


def test_fig_2_2_exercises_1_and_2() -> None:
    board = board_of("fig2.2")
    steps = list(make_rule("single-position").find(board))
    by = {(s.placements[0], s.pattern.regions[0][0]) for s in steps}
    # Exercise 1: in column C5, 2 goes in (8, 5)
    assert ((cell(G9, 8, 5), 2), G9.col_region(4)) in by
    # Exercise 2: in row R2, 6 goes in (2, 3)
    assert ((cell(G9, 2, 3), 6), G9.row_region(1)) in by


def test_fig_2_2_exercise_3_single_position_alone_solves_it(engine: Engine) -> None:
    board = board_of("fig2.2")
    steps = list(engine.steps(board, max_level=1))
    assert board.is_solved()
    assert board.to_string() == FIGS["fig2.2"]["solution"]
    assert {s.rule for s in steps} == {"single-position"}


def single_candidates_alone(board: Board) -> list:
    """Rule 2.2 alone, without rule 2.1: apply single candidates until stuck."""
    rule = make_rule("single-candidate")
    done = []
    while True:
        step = next(iter(rule.find(board)), None)
        if step is None:
            return done
        board.apply(step)
        done.append(step)


def test_fig_2_3_single_candidate_9_in_1_5() -> None:
    board = board_of("fig2.3")
    found = list(make_rule("single-candidate").find(board))
    assert [s.placements for s in found] == [((cell(G9, 1, 5), 9),)]
    step = found[0]
    assert step.summary() == (
        "single candidate: 9 is the only candidate left in (1, 5) => (1, 5) <- 9")
    # every other value is excluded by a placed peer, which the pattern names
    excluded = {board.values[c] for c in step.pattern.cells_with("excluder")}
    assert excluded == set(range(1, 9))


def test_fig_2_3_exercises_4_and_5() -> None:
    """Exercise 4: (3, 4) = 5; exercise 5: (3, 3) = 9, (9, 4) = 9, (6, 5) = 8, all
    single candidates met while applying rule 2.2."""
    steps = single_candidates_alone(board_of("fig2.3"))
    made = placements(steps)
    for r, c, v in ((3, 4, 5), (3, 3, 9), (9, 4, 9), (6, 5, 8)):
        assert (cell(G9, r, c), v) in made, (r, c, v)


def test_fig_2_3_exercise_6_single_candidate_alone_solves_it() -> None:
    board = board_of("fig2.3")
    steps = single_candidates_alone(board)
    assert {s.rule for s in steps} == {"single-candidate"}
    assert board.is_solved()
    assert board.to_string() == FIGS["fig2.3"]["solution"]


def test_fig_2_3_is_level_2(grader: Grader) -> None:
    r = grader.grade_grid(parse_grid_token(FIGS["fig2.3"]["puzzle"]))
    assert (r.verdict, r.level, r.rating) == ("ok", 2, "easy")


# -- partial grids the exercises print --------------------------------------
@pytest.mark.parametrize(("name", "max_level", "exercise"), [
    ("fig2.4", 2, "exercise 7: rules 2.1 and 2.2"),
    ("fig2.10", 4, "exercise 17: the medium rules 2.1-2.5"),
    ("fig3.8", 8, "exercise 23: the chapter 2-3 rules"),
    ("fig4.5", 12, "exercise 30: all the deterministic rules"),
])
def test_partial_grid_the_book_prints(engine: Engine, name: str, max_level: int,
                                      exercise: str) -> None:
    board = board_of(name)
    steps = list(engine.steps(board, max_level=max_level))
    assert not board.is_solved(), exercise
    assert board.to_string() == FIGS[name]["partial"], exercise
    assert all(s.level <= max_level for s in steps)
    # the rules of those levels are stuck there: nothing of level <= max_level progresses
    assert engine.next_step(board, max_level=max_level) is None


@pytest.mark.parametrize(("name", "needs"), [
    ("fig2.4", 3), ("fig2.10", 5), ("fig3.8", 9), ("fig4.5", 13),
])
def test_one_more_level_gets_past_the_partial_grid(engine: Engine, name: str,
                                                   needs: int) -> None:
    """The partial grid is where those rules stop, so the next step has a higher level."""
    board = board_of(name)
    list(engine.steps(board, max_level=needs - 1))
    step = engine.next_step(board)
    assert step is not None and step.level >= needs


def test_fig_2_4_medium_rules_solve_it(engine: Engine) -> None:
    """Exercise 16: rules 2.1-2.5 are enough for Figure 2.4."""
    board = board_of("fig2.4")
    list(engine.steps(board, max_level=4))
    assert board.to_string() == FIGS["fig2.4"]["solution"]


def test_fig_3_7_chapter_3_rules_solve_it(engine: Engine) -> None:
    """Exercise 22: Figure 3.7 (= 2.10) is solved with the chapter 3 rules."""
    board = board_of("fig3.7")
    steps = list(engine.steps(board, max_level=8))
    assert board.to_string() == FIGS["fig3.7"]["solution"]
    assert max(s.level for s in steps) in (5, 6, 7, 8)


def test_fig_3_8_needs_chapter_4(engine: Engine) -> None:
    board = board_of("fig3.8")
    steps = list(engine.steps(board, max_level=12))
    assert board.to_string() == FIGS["fig3.8"]["solution"]
    assert max(s.level for s in steps) in (9, 10, 11, 12)


def test_fig_4_5_exercise_31_after_the_disjunctive_construction(engine: Engine) -> None:
    """Exercise 31: after Figure 4.6's disjunctive construction, (9, 1) <- 6, the
    deterministic rules reach the second partial grid the book prints."""
    claim = FIGS["fig4.5"]["book_claim"]
    second = claim.split("second partial grid: ")[1].split(";")[0].strip()
    board = board_of("fig4.5")
    list(engine.steps(board, max_level=12))
    assert FIGS["fig4.5"]["solution"][cell(G9, 9, 1)] == "6"
    board.place(cell(G9, 9, 1), 6)
    list(engine.steps(board, max_level=12))
    assert board.to_string() == second


def test_fig_4_5_the_next_step_is_a_trial(engine: Engine) -> None:
    board = board_of("fig4.5")
    list(engine.steps(board, max_level=12))
    step = engine.next_step(board)
    assert step is not None and step.level == 13
    assert step.rule == "disjunctive-construction" and step.depth == 1
    assert step.branches and all(b.steps or b.conflict is None for b in step.branches)


# -- levels and ratings of whole figures -------------------------------------
@pytest.mark.parametrize(("name", "level", "rating"), [
    ("fig2.1", 1, "very easy"),
    ("fig2.2", 1, "very easy"),
    ("fig2.3", 2, "easy"),
    ("fig6.1", 1, "very easy"),     # captioned "easy", but single position alone solves it
    ("fig1.6", 1, "very easy"),     # the same grid as Figure 6.1
    ("fig6.3", 2, "easy"),          # exercise 34
    ("fig3.7", 5, "difficult"),
    ("fig2.10", 5, "difficult"),
    ("fig4.5", 13, "expert"),
    ("fig6.2", 13, "expert"),       # 31 givens (30 in the scan) yet expert
])
def test_figure_level_and_rating(grader: Grader, name: str, level: int, rating: str) -> None:
    r = grader.grade_grid(parse_grid_token(FIGS[name]["puzzle"]))
    assert r.verdict == "ok"
    assert (r.level, r.rating) == (level, rating)
    assert r.depth == (1 if level >= 13 else 0)


@pytest.mark.parametrize("name", ["fig2.4", "fig2.10", "fig3.8", "fig4.5", "fig6.2"])
def test_rating_band_of_the_book(grader: Grader, name: str) -> None:
    """Figures the book rates by band: medium, difficult, very difficult, expert."""
    band = {"fig2.4": "medium", "fig2.10": "difficult", "fig3.8": "very difficult",
            "fig4.5": "expert", "fig6.2": "expert"}[name]
    r = grader.grade_grid(parse_grid_token(FIGS[name]["puzzle"]))
    assert r.rating == band


def test_fig_6_1_single_position_alone_solves_it(engine: Engine) -> None:
    board = board_of("fig6.1")
    assert sum(1 for v in board.values if v) == 17
    list(engine.steps(board, max_level=1))
    assert board.to_string() == FIGS["fig6.1"]["solution"]


def test_fig_6_3_singles_solve_it_single_position_does_not(engine: Engine) -> None:
    board = board_of("fig6.3")
    list(engine.steps(board, max_level=1))
    assert not board.is_solved()
    list(engine.steps(board, max_level=2))
    assert board.to_string() == FIGS["fig6.3"]["solution"]


def test_fig_5_1_four_by_four(grader: Grader) -> None:
    fig = FIGS["fig5.1"]
    grid = parse_grid_token(fig["puzzle"])
    assert grid.size == 4 and (grid.geo.a, grid.geo.b) == (2, 2)
    r = grader.grade_grid(grid, index=1)
    assert r.verdict == "ok" and r.size == 4


@pytest.mark.parametrize("name", sorted(FIGS))
def test_every_figure_is_solved_to_the_book_solution(engine: Engine, name: str) -> None:
    board = board_of(name)
    trace = engine.solve(board)
    assert trace.solved
    work = board.copy()
    for s in trace.steps:
        work.apply(s)
    assert work.to_string() == FIGS[name]["solution"]


# -- calibration: the rating the book prints ---------------------------------
CAL = book_calibration()


def test_calibration_covers_every_rating() -> None:
    assert len(CAL) == 31
    assert {d["rating"] for d in CAL} == {"very easy", "easy", "medium", "difficult",
                                          "very difficult", "expert"}


@pytest.mark.parametrize("item", CAL, ids=[f"id{d['id']}-{d['rating'].replace(' ', '-')}"
                                           for d in CAL])
def test_calibration_rating(grader: Grader, item: dict) -> None:
    r = grader.grade_grid(parse_grid_token(item["puzzle"]))
    assert r.verdict == "ok"
    assert r.rating == item["rating"]
    assert grader.hierarchy.rating(r.level) == item["rating"]
    assert getattr(r, "solution", None) == item["solution"]
    grid = parse_grid_token(item["puzzle"])
    assert grid.givens == item["givens"]
