"""Easiest trial first (issue 17, item 2): when the minimal-level strategy
needs a trial, the engine applies the trial (of the rule and depth the
strategy needs) that gives the conclusion of the easiest pattern or chain the
position holds, and names it as players do; levels and depths stay exactly
those of the first-found trial."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DATA

from grader.core.board import Board
from grader.core.steps import Step
from grader.formats import parse_grid_token
from grader.kernel import c as native
from grader.kernel import kernel_named
from grader.strategy.engine import Engine
from grader.strategy.expert.families import CONSULTED, FAMILIES, easiest_hints
from grader.strategy.hierarchy import HierarchyError, load_hierarchy

#: bench-mixed grid 6: its first trial position holds an XY-Wing (pivot r7c8
#: {1,7}, pincers r7c5 {2,7} and r8c7 {1,2}: r8c5 loses 2).
XY_WING_GRID = ("5.4.1.8.29.......3.8..9..4.7..2.8..1.6..4..8...1.3.6..........."
                "47.....65.18...93.")


def sample() -> list[str]:
    out = []
    for text in (DATA / "top1465-sample.txt").read_text().splitlines():
        if text and not text.startswith("#"):
            out.append(text.split()[0])
    return list(dict.fromkeys(out))


def engine(order: str = "easiest", kernel: str = "default", record: bool = False) -> Engine:
    """An engine that explains (it chooses its trials so), recording or not."""
    h = load_hierarchy()
    return Engine(h.model_copy(update={"trials": h.trials.model_copy(update={"order": order})}),
                  record=record, kernel=kernel_named(kernel), explain=True)


def path(puzzle: str, eng: Engine) -> list[tuple[Board, Step]]:
    """(the board before, the step) for every step the strategy applies."""
    grid = parse_grid_token(puzzle)
    board = Board.from_values(grid.geo, list(grid.values))
    out = []
    eng.attach_solution(board)
    while not board.is_solved():
        step = eng.next_step(board)
        if step is None:
            break
        before = board.copy()
        before.solution = board.solution
        out.append((before, step))
        board.apply(step)
    return out


def targets_hold(board: Board, step: Step, hint_targets: list[tuple[bool, int, int]]) -> bool:
    after = board.copy()
    after.apply(step)
    return any(after.values[c] == v if placed else
               (after.values[c] != v and not after.cands[c] >> (v - 1) & 1)
               for placed, c, v in hint_targets)


def test_the_xy_wing_position_is_shown_as_an_xy_wing() -> None:
    steps = path(XY_WING_GRID, engine())
    board, step = next((b, s) for b, s in steps if s.depth)
    hint = easiest_hints(board)[0]
    assert hint.family == "XY-Wing"
    assert step.rated_pattern == "XY-Wing"
    assert step.pattern_name == "cell forcing chains"  # what the trial shows
    assert step.family == "disjunctive-construction" and step.level == 13
    # the pivot lies in the wing, and the step gives the wing's elimination
    wing = set(hint.cells) | {c for c, _ in hint.eliminations}
    assert {b.cell for b in step.branches} <= wing
    assert targets_hold(board, step, [(False, c, d) for c, d in hint.eliminations])


def test_scan_order_keeps_the_first_trial_found() -> None:
    steps = path(XY_WING_GRID, engine("scan"))
    board, step = next((b, s) for b, s in steps if s.depth)
    assert step.pattern_name in ("cell forcing chains", "region forcing chains")
    assert not step.rated_pattern
    # the first pivot in scan order is not the wing's
    assert step != next(s for _, s in path(XY_WING_GRID, engine()) if s.depth)


@pytest.mark.parametrize("puzzle", sample())
def test_levels_and_depths_do_not_change(puzzle: str) -> None:
    easiest, scan = path(puzzle, engine()), path(puzzle, engine("scan"))
    assert max((s.level for _, s in easiest), default=0) == max(
        (s.level for _, s in scan), default=0)
    assert max((s.depth for _, s in easiest), default=0) == max(
        (s.depth for _, s in scan), default=0)
    for board, step in easiest:
        if not step.depth:
            continue
        assert "forcing chain" in step.pattern_name, "every trial is named by its shape"
        hints = easiest_hints(board)
        named = [h for h in hints if h.family == step.rated_pattern]
        if step.rated_pattern:  # the rating's pattern: it gives that pattern's conclusion
            assert any(targets_hold(board, step, [(True, c, d) for c, d in h.placements]
                                    + [(False, c, d) for c, d in h.eliminations])
                       for h in named)


def test_uniqueness_patterns_never_name_a_trial() -> None:
    names = {name for name, _, _ in FAMILIES}
    assert set(CONSULTED) <= names
    assert not {"unique rectangle", "BUG"} & set(CONSULTED)
    for puzzle in sample()[:8]:
        for _, step in path(puzzle, engine()):
            assert not step.rated_pattern.startswith(("unique", "BUG"))


@pytest.mark.skipif(not native.built(), reason="the accelerator is not built")
def test_both_kernels_choose_the_same_trials() -> None:
    fast = [s for _, s in path(XY_WING_GRID, engine(kernel="c"))]
    pure = [s for _, s in path(XY_WING_GRID, engine(kernel="python"))]
    assert fast == pure
    assert [s.rated_pattern for s in fast] == [s.rated_pattern for s in pure]


def test_the_order_is_a_hierarchy_option(tmp_path: Path) -> None:
    good = tmp_path / "scan.toml"
    good.write_text('extends = "default"\n[trials]\norder = "scan"\n')
    assert load_hierarchy(good).trials.order == "scan"
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "default"\n[trials]\norder = "hardest"\n')
    with pytest.raises(HierarchyError, match="order"):
        load_hierarchy(bad)
