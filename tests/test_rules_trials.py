"""Trials: disjunctive construction (section 4.3.1, level 13) and reductio ad
absurdum (section 4.3.2, level 14), on constructed positions and on real
grids that need them (Figure 4.5, top1465), including nested trials."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from conftest import DATA, G4, G9, SMALL_HIERARCHY, book_figures, cell, find_all, make_rule, marks

from grader import Engine, Grader, load_hierarchy, parse_grid_token
from grader.core.board import Board
from grader.core.steps import Step
from grader.strategy.engine import check_step
from grader.strategy.hierarchy import default_hierarchy


def top1465(line: int) -> str:
    for text in (DATA / "top1465-sample.txt").read_text().splitlines():
        if text.endswith(f"top1465 line {line}") or f"top1465 line {line}:" in text:
            return text.split()[0]
    raise KeyError(line)


def replay(board: Board, step: Step) -> list[Board]:
    """Replay every branch of a trial step from its assumption; each branch's
    chain must be made of steps that progress, and must end where the step
    says (a contradiction, or the step's conclusion)."""
    ends = []
    for branch in step.branches:
        b = board.copy()
        assert not b.values[branch.cell] and b.has(branch.cell, branch.value)
        b.place(branch.cell, branch.value)
        for sub in branch.steps:
            assert b.progress(sub), sub.summary()
            b.apply(sub)
        if branch.conflict is not None:
            assert b.contradiction() is not None, step.summary()
        else:
            assert b.contradiction() is None
            for c, v in step.placements:
                assert b.values[c] == v, step.summary()
            for c, v in step.eliminations:
                assert b.values[c] != v and not b.has(c, v), step.summary()
        ends.append(b)
    return ends


def xy_chain(geo, x, y, z, w, z_vals=(2, 3)) -> Board:
    """X {1,2}, Y {1,3} (X's row), Z {2,3} (X's column), W {3,4} (Y's column
    and Z's row); every other cell holds every value.  X <- 1 and X <- 2 both
    force W <- 4; W <- 3 empties X."""
    return marks(geo, {x: [1, 2], y: [1, 3], z: list(z_vals), w: [3, 4]})


def depth1_engine() -> Engine:
    """The book's hierarchy with trials that do not nest (on a position where
    nothing is deducible, nesting explores every depth up to max_depth)."""
    h = default_hierarchy()
    return Engine(h.model_copy(update={"trials": h.trials.model_copy(update={"max_depth": 1})}))


# -- disjunctive construction ------------------------------------------------------
@pytest.mark.parametrize(("geo", "x", "y", "z", "w"), [
    (G9, (1, 1), (1, 5), (5, 1), (5, 5)),
    (G4, (1, 1), (1, 3), (3, 1), (3, 3)),
])
def test_disjunctive_construction_on_a_cell_pivot(geo, x, y, z, w) -> None:
    board = xy_chain(geo, x, y, z, w)
    engine = Engine()
    step = engine.next_step(board)
    assert step is not None
    assert (step.rule, step.level, step.family) == (
        "disjunctive-construction", 13, "disjunctive-construction")
    assert step.placements == ((cell(geo, *w), 4),) and step.eliminations == ()
    assert set(step.pattern.cells_with("pivot")) == {cell(geo, *x)}
    assert [(b.cell, b.value, b.conflict) for b in step.branches] == [
        (cell(geo, *x), 1, None), (cell(geo, *x), 2, None)]
    assert step.depth == 1
    replay(board, step)
    assert step.summary().startswith(
        f"disjunctive construction: either {geo.cell_name(cell(geo, *x))} <- 1 or "
        f"{geo.cell_name(cell(geo, *x))} <- 2")
    assert step.summary().endswith(f"=> {geo.cell_name(cell(geo, *w))} <- 4")
    # the rule itself is pure and deterministic; on 9x9 the engine notes the
    # pattern the rating finds there (an XY-Chain of three cells is an
    # XY-Wing), the step keeps the name of what it shows
    rule = next(r for r in engine.rules() if r.code == "disjunctive-construction")
    first = find_all(rule, board)[0]
    assert first.pattern_name == step.pattern_name == "cell forcing chains"
    assert step.rated_pattern == ("XY-Wing" if geo.n == 9 else "")
    assert replace(first, rated_pattern=step.rated_pattern) == step


def test_disjunctive_construction_negative() -> None:
    """A pivot whose branches agree on nothing proves nothing."""
    board = marks(G9, {(1, 1): [1, 2]})
    engine = depth1_engine()
    for rule in engine.rules():
        if rule.kind == "trial":
            assert find_all(rule, board) == []
    assert engine.next_step(board) is None
    # near miss of the chain: Z {2, 5} breaks it, W <- 4 is no longer forced
    board = xy_chain(G9, (1, 1), (1, 5), (5, 1), (5, 5), z_vals=(2, 5))
    rule = next(r for r in engine.rules() if r.code == "disjunctive-construction")
    assert all(s.placements != ((cell(G9, 5, 5), 4),) for s in find_all(rule, board))


# -- reductio ad absurdum ------------------------------------------------------------
def test_reductio_on_a_constructed_chain() -> None:
    board = xy_chain(G9, (1, 1), (1, 5), (5, 1), (5, 5))
    engine = Engine()
    rule = next(r for r in engine.rules() if r.code == "reductio-ad-absurdum")
    assert rule.level == 14
    steps = find_all(rule, board)
    hit = [s for s in steps if s.eliminations == ((cell(G9, 5, 5), 3),)]
    assert len(hit) == 1
    step = hit[0]
    assert step.placements == () and step.pattern.cells_with("pivot") == (cell(G9, 5, 5),)
    (branch,) = step.branches
    assert (branch.cell, branch.value) == (cell(G9, 5, 5), 3)
    assert branch.conflict is not None and branch.steps
    replay(board, step)
    assert step.summary().startswith("reductio ad absurdum: assuming (5, 5) <- 3 leads in ")
    assert step.summary().endswith("=> (5, 5) != 3")
    # every elimination it finds is one whose assumption really contradicts
    for s in steps:
        replay(board, s)


def test_reductio_negative() -> None:
    board = xy_chain(G9, (1, 1), (1, 5), (5, 1), (5, 5), z_vals=(2, 5))
    rule = next(r for r in depth1_engine().rules() if r.code == "reductio-ad-absurdum")
    assert all(s.eliminations != ((cell(G9, 5, 5), 3),) for s in find_all(rule, board))
    assert find_all(rule, marks(G9, {(1, 1): [1, 2]})) == []


# -- real grids -----------------------------------------------------------------------
def stuck_board(puzzle: str, engine: Engine, max_level: int = 12) -> Board:
    board = parse_grid_token(puzzle).board()
    list(engine.steps(board, max_level=max_level))
    return board


def test_trials_on_figure_4_5_are_sound_and_replay() -> None:
    fig = book_figures()["fig4.5"]
    solution = [int(ch) for ch in fig["solution"]]
    engine = Engine()
    board = stuck_board(fig["puzzle"], engine)
    assert board.to_string() == fig["partial"]
    for rule in engine.rules():
        if rule.kind != "trial":
            continue
        steps = find_all(rule, board)
        assert steps, rule.code
        for s in steps:
            assert s.level == rule.level and s.depth == 1
            check_step(s, solution)
            replay(board, s)


def test_reductio_is_needed_on_a_top1465_grid() -> None:
    grid = parse_grid_token(top1465(200))
    r = Grader(check=True).grade_grid(grid)
    assert (r.verdict, r.level, r.rating, r.depth) == ("ok", 14, "expert", 1)
    assert r.techniques.get("reductio-ad-absurdum", 0) >= 1
    assert r.hardest == "reductio-ad-absurdum"
    # at its first level-14 step, no rule of level <= 13 makes progress
    engine = Engine()
    board = grid.board()
    for step in engine.steps(board):
        if step.level == 14:
            break
    else:
        pytest.fail("no level-14 step")


def test_disjunctive_construction_is_enough_on_a_top1465_grid() -> None:
    r = Grader(check=True).grade_grid(parse_grid_token(top1465(93)))
    assert (r.verdict, r.level, r.depth, r.hardest) == ("ok", 13, 1, "disjunctive-construction")


@pytest.mark.parametrize("line", [77, 187])
def test_more_top1465_reductio_grids(line: int) -> None:
    r = Grader(check=True).grade_grid(parse_grid_token(top1465(line)))
    assert (r.verdict, r.level, r.depth) == ("ok", 14, 1)


# -- nesting --------------------------------------------------------------------------


def small_hierarchy(tmp_path: Path, depth: int):
    p = tmp_path / f"small{depth}.toml"
    p.write_text(SMALL_HIERARCHY.format(depth=depth))
    return load_hierarchy(p)


def test_trials_nest_when_one_level_of_trials_is_not_enough(tmp_path: Path) -> None:
    """With singles-only propagation, top1465 line 153 needs a reductio whose
    branches themselves use reductio: depth 2, reported, and sound."""
    grid = parse_grid_token(top1465(153))
    grader = Grader(small_hierarchy(tmp_path, 3), check=True, record=True)
    r = grader.grade_grid(grid)
    assert (r.verdict, r.level, r.rating, r.depth) == ("ok", 14, "expert", 2)
    trace = grader.trace(grid)
    deep = [s for s in trace.steps if s.depth == 2]
    assert deep
    board = grid.board()
    for s in trace.steps:
        if s.depth == 2:
            inner = [sub for b in s.branches for sub in b.steps if sub.branches]
            assert inner and all(sub.depth == 1 for sub in inner)
            replay(board, s)
            break
        board.apply(s)


def test_nesting_with_the_books_table_on_a_forum_hardest_grid() -> None:
    """The first grid of the forum's 'hardest' list (HardestDatabase110626)
    needs trials inside trials with the default table: depth 2, level 14."""
    line = (DATA / "formats" / "hodoku-py_HardestDatabase110626.txt").read_text().splitlines()[2]
    grid = parse_grid_token(line.split(",")[0])
    r = Grader(check=True).grade_grid(grid)
    assert (r.verdict, r.level, r.rating, r.depth) == ("ok", 14, "expert", 2)
    assert r.message is None


def test_a_grid_the_trials_cannot_finish_is_not_reported_solved(tmp_path: Path) -> None:
    grid = parse_grid_token(top1465(153))
    r = Grader(small_hierarchy(tmp_path, 1)).grade_grid(grid)
    assert r.verdict == "unsolved"
    assert r.rating is None
    assert r.message and "stop" in r.message


@pytest.mark.parametrize("puzzle", [
    book_figures()["fig4.5"]["puzzle"], book_figures()["fig6.2"]["puzzle"], top1465(200),
    top1465(93)])
def test_recording_chains_does_not_change_the_grade(puzzle: str) -> None:
    """Grading skips the branch chains (record=False); explanations keep them.
    Level, rating, score, depth and step counts are the same either way, and
    the recorded branches replay."""
    grid = parse_grid_token(puzzle)
    fast = Grader(check=True).grade_grid(grid).contract(True)
    full_grader = Grader(check=True, record=True)
    full = full_grader.grade_grid(grid).contract(True)
    fast.pop("seconds"), full.pop("seconds")
    assert fast == full
    board = grid.board()
    trace = full_grader.trace(grid)
    for s in trace.steps:
        if s.branches:
            replay(board, s)
        board.apply(s)
    assert board.is_solved()


def test_trial_steps_are_deterministic() -> None:
    fig = book_figures()["fig4.5"]
    a = Engine().solve(parse_grid_token(fig["puzzle"]).board())
    b = Engine().solve(parse_grid_token(fig["puzzle"]).board())
    assert a.steps == b.steps
    assert [s.summary() for s in a.steps] == [s.summary() for s in b.steps]


def test_make_rule_trial_without_engine_has_no_propagation() -> None:
    """A trial rule built outside an engine has no propagation: it can only
    see what the assumption itself empties."""
    rule = make_rule("reductio-ad-absurdum")
    board = marks(G4, {(1, 1): [1, 2], (1, 2): [1]})
    steps = list(rule.find(board))
    assert all(len(s.eliminations) == 1 for s in steps)
