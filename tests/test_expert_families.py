"""The expert families (grader.strategy.expert) on hand-made and real positions.

Real positions come from tests/data/expert-positions.json: for each hint
family, a position of a grid of puzzles/se-rated-9758.txt where the family
is the first to fire (the easiest hint, its rating and conclusions are
recorded with the grid's solution)."""

from __future__ import annotations

import json

import pytest
from conftest import DATA

from grader.core.board import Board
from grader.core.geometry import geometry
from grader.kernel import c as native
from grader.strategy.engine import SoundnessError
from grader.strategy.expert import Hint, Position, accel, length_tenths, walker
from grader.strategy.expert.links import strong_link_chains
from grader.strategy.expert.rectangles import unique_rectangles

GEO = geometry(3, 3)
DATA_FILE = json.loads((DATA / "expert-positions.json").read_text(encoding="utf-8"))
POSITIONS = DATA_FILE["positions"]
HAS_C = accel._mod is not None


def cell(r: int, c: int) -> int:
    return (r - 1) * 9 + c - 1


def open_board(marks: dict[int, int], digit_rows: dict[int, tuple[int, set[int]]] | None = None,
               ) -> Board:
    """Every cell holds every digit, except the cells of ``marks`` (cell ->
    mask), and digits confined in rows (digit -> (row, columns))."""
    cands = [GEO.full] * 81
    for c, m in marks.items():
        cands[c] = m
    for d, (row, cols) in (digit_rows or {}).items():
        for col in range(1, 10):
            if col not in cols:
                cands[cell(row, col)] &= ~(1 << (d - 1))
    return Board.from_candidates(GEO, cands)


def test_length_increment_follows_sukaku_thresholds() -> None:
    # L = facts - 2 passes 4, 6, 8, 12, 16, 24 ...
    assert [length_tenths(f) for f in (4, 6, 7, 8, 9, 10, 11, 14, 15, 18, 19, 26, 27)] == \
        [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]


def test_skyscraper_hand_made() -> None:
    # 1 in row 1 only at C1, C4; in row 5 only at C1, C6: the free ends R1C4 and
    # R5C6 hold a 1 between them
    board = open_board({}, {1: (1, {1, 4})})
    for col in range(1, 10):
        if col not in (1, 6):
            board.cands[cell(5, col)] &= ~1
    hints = list(strong_link_chains(Position(board), 2))
    assert {h.family for h in hints} == {"skyscraper"}
    assert {h.rating for h in hints} == {40}
    elim = {e for h in hints for e in h.eliminations}
    assert elim == {(cell(2, 6), 1), (cell(3, 6), 1), (cell(4, 4), 1), (cell(6, 4), 1)}


def _position(case: dict) -> Board:
    return Board.from_candidates(GEO, case["cands"], case["values"])


SLOW_FAMILIES = ("multiple chains", "dynamic chains")  # pure-Python searches of a second
CASES = [pytest.param(c, id=c["name"],
                      marks=[pytest.mark.slow] if c["family"] in SLOW_FAMILIES else [])
         for c in POSITIONS]


@pytest.mark.parametrize("case", CASES)
def test_family_fires_on_real_position(case: dict) -> None:
    board = _position(case)
    got = walker.first_family_python(board)
    assert got is not None
    family, hints = got
    assert family == case["family"]
    easiest = min(hints, key=lambda h: h.rating)
    want = case["hint"]
    assert easiest.family == case["name"]
    assert easiest.rating == want["rating"]
    assert [list(p) for p in easiest.placements] == want["placements"]
    # (Sudoku Explainer's chaining producers give their eliminations in cell order)
    assert sorted(list(e) for e in easiest.eliminations) == sorted(want["eliminations"])
    solution = [int(ch) for ch in case["solution"]]
    for h in hints:  # every conclusion of the family is true of the solution
        walker.check_hint(h, solution)
    if HAS_C:  # the accelerator finds the same hints in the same order
        assert walker.first_family(board) == got


def test_check_hint_rejects_a_false_conclusion() -> None:
    solution = [int(ch) for ch in POSITIONS[0]["solution"]]
    bad = Hint("XY-Wing", 42, (), ((0, solution[0]),), (0,))
    with pytest.raises(SoundnessError):
        walker.check_hint(bad, solution)


def test_pure_mode_turns_the_accelerator_off() -> None:
    board = _position(POSITIONS[0])
    native.set_enabled(False)
    try:
        assert not accel.available(board)
    finally:
        native.set_enabled(True)


# A position of 090000010300104007104807602700040008008501700010000060000605000080000070200000004
# (rated 4.7 in the bank): cell candidates row by row, "[v]" for a placed value.
LOOP_POSITION = """
[8] [9] [7] 23 [6] 23 [4] [1] [5]
[3] [6] [2] [1] [5] [4] 89 89 [7]
[1] [5] [4] [8] [9] [7] [6] [3] [2]
[7] 23 59 239 [4] [6] [1] 25 [8]
[6] 23 [8] [5] 23 [1] [7] [4] [9]
[4] [1] 59 [7] [8] 29 25 [6] [3]
[9] [4] [3] [6] [7] [5] 28 28 [1]
[5] [8] [1] [4] 23 239 39 [7] [6]
[2] [7] [6] 39 [1] [8] 359 59 [4]
"""


def _board_from_marks(text: str) -> Board:
    values, cands = [], []
    for tok in text.split():
        if tok.startswith("["):
            values.append(int(tok[1:-1]))
            cands.append(0)
        else:
            values.append(0)
            cands.append(sum(1 << (int(d) - 1) for d in tok))
    return Board.from_candidates(GEO, cands, values)


def test_unique_loop_whose_unit_mates_are_not_neighbours() -> None:
    # The loop r1c4 r1c6 r8c6 r8c5 r5c5 r5c2 r4c2 r4c4 on {2, 3}: block B5 holds
    # r5c5 and r4c4, which are not neighbours on the loop but sit at an even
    # and an odd place, so 2 and 3 could still swap around it.  The two cells
    # with a 9 besides, r4c4 and r8c6, make it type 2: 9 leaves r6c6 and r9c4,
    # which see both (Sudoku Explainer: unique loop of 8 cells, 4.7).
    board = _board_from_marks(LOOP_POSITION)
    hints = [h for h in unique_rectangles(Position(board)) if h.family == "unique loop type 2"]
    assert hints, "the loop was not found"
    (hint,) = hints
    assert hint.rating == 47
    assert set(hint.eliminations) == {(cell(6, 6), 9), (cell(9, 4), 9)}
    assert set(hint.cells) == {cell(1, 4), cell(1, 6), cell(8, 6), cell(8, 5), cell(5, 5),
                               cell(5, 2), cell(4, 2), cell(4, 4)}
    if HAS_C:  # the accelerator finds the same first family and hints
        assert walker.first_family(board) == walker.first_family_python(board)
