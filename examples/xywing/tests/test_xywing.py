"""The example plugin's tests: written only with what sudoku-grader exports
for plugin authors (grader.testing), as a third-party package would."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader import Grader, load_hierarchy, parse_grid_token
from grader.strategy.plugins import rule_table
from grader.testing import assert_kernels_agree, assert_sound, cell, make_rule, pencil, steps_of

sudoku_xywing = pytest.importorskip(
    "sudoku_xywing", reason="install the example: pip install -e examples/xywing")

HERE = Path(__file__).resolve().parent
#: Expert grids (levels 13-14 of the book) of the project's own collections.
GRIDS = (HERE / "grids.txt").read_text().split()


@pytest.fixture(scope="module")
def hierarchy():
    return load_hierarchy(sudoku_xywing.hierarchy_path())


def test_inserted_after_swordfish_with_levels_following(hierarchy) -> None:
    levels = {r.code: r.level for r in hierarchy.rules}
    assert (levels["swordfish"], levels["xy-wing"], levels["disjunctive-construction"],
            levels["reductio-ad-absurdum"]) == (12, 13, 14, 15)
    assert hierarchy.rating(13) == "very difficult" and hierarchy.rating(15) == "expert"


def test_the_wing_fires_with_its_conclusion(hierarchy) -> None:
    rule = make_rule("xy-wing", hierarchy)
    # pivot (1,1) {1,2}; pincers (1,5) {1,3} and (5,1) {2,3}: 3 leaves (5,5)
    board = pencil({(1, 1): [1, 2], (1, 5): [1, 3], (5, 1): [2, 3], (5, 5): [3, 4]})
    (step,) = steps_of(rule, board)
    assert step.eliminations == ((cell(5, 5), 3),)
    assert step.level == 13 and step.rule == "xy-wing"
    assert step.summary() == ("XY-Wing: pivot (1, 1) with pincers (1, 5) and (5, 1) "
                              "=> (5, 5) != 3")
    assert "one of the pincers must be 3" in step.explain("teach")


def test_no_wing_when_the_pincers_share_the_pivots_value(hierarchy) -> None:
    rule = make_rule("xy-wing", hierarchy)
    board = pencil({(1, 1): [1, 2], (1, 5): [1, 3], (5, 1): [1, 3], (5, 5): [3, 4]})
    assert steps_of(rule, board) == []


def test_sound_and_the_same_in_both_kernels(hierarchy) -> None:
    results = assert_sound(hierarchy, GRIDS)
    assert all(r.verdict == "ok" for r in results)
    used = [r for r in results if "xy-wing" in r.techniques]
    assert used, "the XY-Wing should take part in some of these grids"
    assert_kernels_agree(hierarchy, GRIDS)


def test_a_grid_the_wing_makes_easier(hierarchy) -> None:
    book = Grader()
    with_wing = Grader(hierarchy)
    easier = [g for g in GRIDS
              if with_wing.grade_grid(parse_grid_token(g)).level == 13
              and book.grade_grid(parse_grid_token(g)).level == 13]
    assert easier, "some expert grid of the book needs only the XY-Wing"
    r = with_wing.grade_grid(parse_grid_token(easier[0]))
    assert (r.rating, r.hardest) == ("very difficult", "xy-wing")


def test_listed_with_its_package(hierarchy) -> None:
    (row,) = [r for r in rule_table(hierarchy) if r.code == "xy-wing"]
    assert (row.level, row.package, row.version) == (13, "sudoku-grader-xywing", "1.0.0")
    assert row.error is None and not row.accelerated
