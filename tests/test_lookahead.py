"""The trial that leaves the least to explain (issue 18): where trials nest,
and where a position still needs many trials, the engine compares the steps
of the trial rule the strategy needs by what explaining them and every trial
after them would take, and applies the cheapest.  The rule, the level and the
depth stay the strategy's; grading and explaining take the same steps."""

from __future__ import annotations

import pickle

import pytest
from test_easiest_trial import engine, path

from grader.core.steps import Step
from grader.explainer.core import walkthrough
from grader.formats import parse_grid_token
from grader.kernel import c as native
from grader.strategy.engine import Engine
from grader.strategy.grading import Grader
from grader.strategy.trials.lookahead import AHEAD, with_facts
from grader.strategy.trials.nested import size

#: bench-mixed grid 79: one trial of depth 1, then trials nested to depth 2.
DEPTH_2 = "1....67......8......92...5.....4...85..3...1......76..3.2.......1.9...2.9.5.....4"
#: bench-mixed grid 32: trials of depth 1 only, more than the engine's HARD.
MANY_TRIALS = ".3..5..1.....8....95..2..46.25...39.1...3...87.......2...........45962.....8.4..."


def facts(step: Step) -> tuple[str, int, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    return step.rule, step.depth, step.placements, step.eliminations


def lines(puzzle: str, eng: Engine) -> int:
    grid = parse_grid_token(puzzle)
    return sum(size(step) for _, _, step in walkthrough(grid.board(), eng, path="book") if step.branches)


def test_a_nested_grid_needs_far_fewer_lines_and_the_same_level_and_depth() -> None:
    easiest, scan = path(DEPTH_2, engine()), path(DEPTH_2, engine("scan"))
    assert max(s.level for _, s in easiest) == max(s.level for _, s in scan) == 14
    assert max(s.depth for _, s in easiest) == max(s.depth for _, s in scan) == 2
    solution = easiest[0][0].solution
    assert solution is not None
    for _, s in easiest:  # every step agrees with the solution
        assert all(solution[c] == v for c, v in s.placements)
        assert all(solution[c] != v for c, v in s.eliminations)
    assert [s.depth for _, s in easiest if s.depth] != [s.depth for _, s in scan if s.depth]
    short, long = lines(DEPTH_2, engine(record=True)), lines(DEPTH_2, engine("scan", record=True))
    assert short < 0.8 * long, (short, long)


def test_the_nested_step_is_the_cheapest_of_the_steps_compared() -> None:
    eng = engine()
    board, step = next((b, s) for b, s in path(DEPTH_2, eng) if s.depth == 2)
    rule = next(r for r in eng.rules(2) if r.code == step.rule)
    choices = list(rule.choices(board))[:AHEAD]  # type: ignore[attr-defined]
    assert len(choices) > 1
    costs = [eng.lookahead.cost(board, 2, c.conclusions, c.branches) for c in choices]
    best = choices[costs.index(min(costs))]
    assert set(best.conclusions) == (
        {(True, c, v) for c, v in step.placements} | {(False, c, v) for c, v in step.eliminations})
    # the scanning order would have taken the first, which costs more here
    assert costs[0] > min(costs)


def test_explaining_with_or_without_chains_takes_the_same_steps() -> None:
    chosen = [facts(s) for _, s in path(DEPTH_2, engine())]
    explained = [facts(s) for _, _, s in walkthrough(parse_grid_token(DEPTH_2).board(),
                                                     engine(record=True), path="book")]
    assert chosen == explained


def test_grading_never_looks_ahead_and_keeps_the_level_and_depth(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Grading takes the first step of the trial rule the strategy needs: its
    own path, with the level and depth of the explained one, and none of the
    explanation work (no look-ahead, no pattern search)."""

    def no_pattern_search(*args: object) -> None:
        raise AssertionError("grading searched the position's patterns to choose a trial")

    grader = Grader()
    monkeypatch.setattr("grader.strategy.engine.easiest_hints", no_pattern_search)
    grid = parse_grid_token(DEPTH_2)
    graded = grader.tally(grid, grader.verdict(grid)[2])
    assert grader.engine.lookahead._probe is None  # the look-ahead never ran
    monkeypatch.undo()
    explained = [s for _, s in path(DEPTH_2, engine())]
    assert (graded.level, graded.depth) == (max(s.level for s in explained),
                                           max(s.depth for s in explained)) == (14, 2)
    assert graded.solved and graded.steps > 0


def test_many_trials_of_depth_1_look_ahead_too() -> None:
    eng = engine()
    easiest = path(MANY_TRIALS, eng)
    trials = [b for b, s in easiest if s.depth]
    assert any(eng.lookahead.hard(b) for b in trials)
    assert max(s.depth for _, s in easiest) == 1
    assert len(trials) < len([s for _, s in path(MANY_TRIALS, engine("scan")) if s.depth])


@pytest.mark.skipif(not native.built(), reason="the accelerator is not built")
def test_both_kernels_look_ahead_the_same_way() -> None:
    fast = [facts(s) for _, s in path(MANY_TRIALS, engine(kernel="c"))]
    pure = [facts(s) for _, s in path(MANY_TRIALS, engine(kernel="python"))]
    assert fast == pure


def test_running_ahead_to_the_end_takes_the_trials_one_step_at_a_time_would() -> None:
    """The run after a step goes through the plain rules' fixpoint at once and
    remembers each position a trial is taken on; it must count what running
    the strategy one step at a time counts, remembered or not."""
    eng = engine()
    stuck = [b for b, s in path(MANY_TRIALS, engine("scan")) if s.depth]
    assert len(stuck) >= 4
    for board in stuck:
        slow = eng.lookahead.run(with_facts(board, (), board.solution), (), 1)
        fresh = engine().lookahead.finish(with_facts(board, (), board.solution))
        again = eng.lookahead.finish(with_facts(board, (), board.solution))
        remembered = eng.lookahead.finish(with_facts(board, (), board.solution))
        assert fresh == again == remembered == slow[:2]
        assert slow[0] == 0 and slow[1] > 0


def test_an_engine_that_looked_ahead_still_pickles() -> None:
    """Engines and graders travel to worker processes: the look-ahead and what
    it remembers must not stop that."""
    eng = engine()
    before = [facts(s) for _, s in path(MANY_TRIALS, eng)]
    copy = pickle.loads(pickle.dumps(eng))
    assert [facts(s) for _, s in path(MANY_TRIALS, copy)] == before
