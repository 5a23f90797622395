"""Rules 2.1 (single position, level 1) and 2.2 (single candidate, level 2)
on constructed candidate states, at 9x9, 6x6 (2x3 blocks) and 4x4."""

from __future__ import annotations

from conftest import G4, G6, G9, G16, cell, effects, find_all, make_rule, marks, without


def positions_of(steps, geo):
    """(region name, (r, c), value) of each single-position step."""
    out = []
    for s in steps:
        ((c, v),) = s.placements
        (region,) = s.pattern.regions_with("region")
        out.append((geo.region_name(region), (geo.cell_row[c] + 1, geo.cell_col[c] + 1), v))
    return out


# -- single position ------------------------------------------------------------
def test_single_position_in_a_column_9x9() -> None:
    rule = make_rule("single-position")
    board = without(G9, 3, [(r, 6) for r in range(1, 10) if r != 8])
    steps = find_all(rule, board)
    assert positions_of(steps, G9) == [("C6", (8, 6), 3)]
    (step,) = steps
    assert (step.rule, step.level, step.family) == ("single-position", 1, "single-position")
    assert step.eliminations == ()
    assert step.pattern.cells_with("target") == (cell(G9, 8, 6),)
    assert step.pattern.values == (3,)
    assert step.summary().startswith("single position: in column C6")
    assert step.summary().endswith("3 can only go in (8, 6) => (8, 6) <- 3")


def test_single_position_names_the_placed_values_that_exclude() -> None:
    """Where the other cells of the region are excluded by placed values, the
    pattern names them as excluders."""
    rule = make_rule("single-position")
    # 3 is placed at (2, 1), (5, 9), (7, 2) and (9, 8); they exclude column C6
    # in rows 2, 5, 7 and 9 (by their rows); the other rows of C6 lose 3 by hand.
    values = {(2, 1): 3, (5, 9): 3, (7, 2): 3, (9, 8): 3}
    board = marks(G9, {}, values)
    for (r, c) in values:
        for p in G9.peers[cell(G9, r, c)]:
            board.eliminate(p, 3)
    for r in (1, 3, 4, 6):
        board.eliminate(cell(G9, r, 6), 3)
    steps = [s for s in find_all(rule, board) if s.pattern.regions_with("region")
             == (G9.col_region(5),)]
    (step,) = steps
    assert step.placements == ((cell(G9, 8, 6), 3),)
    assert set(step.pattern.cells_with("excluder")) >= {
        cell(G9, 2, 1), cell(G9, 5, 9), cell(G9, 7, 2), cell(G9, 9, 8)}


def test_single_position_in_a_block_6x6() -> None:
    rule = make_rule("single-position")
    # block B3 of a 6x6 grid with 2x3 blocks: rows 3-4, columns 1-3
    b3 = [(r, c) for r in (3, 4) for c in (1, 2, 3)]
    assert sorted(G6.blocks[2]) == sorted(cell(G6, r, c) for r, c in b3)
    board = without(G6, 5, [rc for rc in b3 if rc != (4, 2)])
    steps = find_all(rule, board)
    assert positions_of(steps, G6) == [("B3", (4, 2), 5)]
    assert "in block B3" in steps[0].summary()
    assert steps[0].summary().endswith("5 can only go in (4, 2) => (4, 2) <- 5")


def test_single_position_in_a_row_16x16_with_letters() -> None:
    rule = make_rule("single-position")
    board = without(G16, 12, [(7, c) for c in range(1, 17) if c != 16])
    steps = find_all(rule, board)
    assert positions_of(steps, G16) == [("R7", (7, 16), 12)]
    assert steps[0].summary().endswith("C can only go in (7, 16) => (7, 16) <- C")


def test_single_position_order_is_rows_columns_blocks() -> None:
    """The same value confined in a row and in a block gives one step per
    region, in the order rows, columns, blocks."""
    rule = make_rule("single-position")
    board = without(G4, 2, [(1, 1), (1, 3), (1, 4)])      # R1: 2 only at (1, 2)
    board = without(G4, 1, [(4, 3), (3, 4), (4, 4)], board)  # B4: 1 only at (3, 3)
    steps = find_all(rule, board)
    assert positions_of(steps, G4) == [("R1", (1, 2), 2), ("B4", (3, 3), 1)]


def test_single_position_negative() -> None:
    rule = make_rule("single-position")
    # near miss: 3 possible in two cells of column C6
    board = without(G9, 3, [(r, 6) for r in range(1, 10) if r not in (2, 8)])
    assert find_all(rule, board) == []
    # a value already placed in the region is not placed again
    board = marks(G9, {}, {(8, 6): 3})
    for p in G9.peers[cell(G9, 8, 6)]:
        board.eliminate(p, 3)
    assert find_all(rule, board) == []
    # a full candidate state has nothing, at every size
    for geo in (G4, G6, G9, G16):
        assert find_all(rule, marks(geo, {})) == []


# -- single candidate -----------------------------------------------------------
def test_single_candidate_9x9() -> None:
    rule = make_rule("single-candidate")
    board = marks(G9, {(5, 5): [7]})
    steps = find_all(rule, board)
    assert [effects(s, G9) for s in steps] == [([((5, 5), 7)], [])]
    (step,) = steps
    assert (step.rule, step.level, step.family) == ("single-candidate", 2, "single-candidate")
    assert step.pattern.cells_with("target") == (cell(G9, 5, 5),)
    assert step.summary() == (
        "single candidate: 7 is the only candidate left in (5, 5) => (5, 5) <- 7")


def test_single_candidate_excluders_are_the_placed_peers() -> None:
    rule = make_rule("single-candidate")
    # (1, 1) sees 2, 3, 4 placed in its row, column and block: only 1 is left
    board = marks(G4, {(1, 1): [1]}, {(1, 3): 2, (3, 1): 3, (2, 2): 4})
    (step,) = [s for s in find_all(rule, board) if s.placements[0][0] == cell(G4, 1, 1)]
    assert step.placements == ((cell(G4, 1, 1), 1),)
    assert set(step.pattern.cells_with("excluder")) == {cell(G4, 1, 3), cell(G4, 3, 1),
                                                         cell(G4, 2, 2)}


def test_single_candidate_cell_order_6x6() -> None:
    rule = make_rule("single-candidate")
    board = marks(G6, {(6, 6): [1], (2, 4): [6], (2, 3): [5]})
    steps = find_all(rule, board)
    assert [effects(s, G6)[0] for s in steps] == [[((2, 3), 5)], [((2, 4), 6)],
                                                   [((6, 6), 1)]]


def test_single_candidate_negative() -> None:
    rule = make_rule("single-candidate")
    # near miss: two candidates left
    assert find_all(rule, marks(G9, {(5, 5): [7, 8]})) == []
    # a filled cell is not a single candidate, an empty cell with no candidate
    # is a contradiction, not a placement
    assert find_all(rule, marks(G9, {}, {(5, 5): 7})) == []
    assert find_all(rule, marks(G4, {(1, 1): []})) == []
