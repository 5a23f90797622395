"""Naked subsets (rules 3.1-3.3: pair level 5, triple level 6, tuples k >= 4
level 10) and hidden subsets (rules 3.4-3.5: pair 7, triple 8, tuples k >= 4
level 11), on constructed candidate states at 9x9, 4x4, 6x6 and 16x16,
including the book's duality (a naked set of size k among p unsolved cells
is a hidden set of size p - k)."""

from __future__ import annotations

from conftest import G4, G6, G9, G16, cell, cells_rc, find_all, make_rule, marks, without

from grader import Engine


def summary_of(step, geo):
    return (geo.region_name(step.pattern.regions_with("region")[0]),
            cells_rc(geo, step.pattern.cells_with("subset")), step.pattern.values)


def elims(step, geo):
    return sorted(((geo.cell_row[c] + 1, geo.cell_col[c] + 1), v) for c, v in step.eliminations)


# -- naked subsets -------------------------------------------------------------
def test_naked_pair_in_a_row_9x9() -> None:
    rule = make_rule("naked-pair")
    board = marks(G9, {(1, 1): [1, 2], (1, 5): [1, 2]})
    steps = find_all(rule, board)
    assert len(steps) == 1
    (step,) = steps
    assert (step.rule, step.level, step.family) == ("naked-pair", 5, "naked-subset")
    assert summary_of(step, G9) == ("R1", [(1, 1), (1, 5)], (1, 2))
    assert elims(step, G9) == [((1, c), v) for c in (2, 3, 4, 6, 7, 8, 9) for v in (1, 2)]
    assert step.placements == ()
    assert step.summary().startswith(
        "naked pair: in row R1, cells (1, 1), (1, 5) hold only {1, 2}, so these values "
        "leave the other cells of R1 =>")


def test_naked_pair_in_a_row_and_its_block_4x4() -> None:
    rule = make_rule("naked-pair")
    board = marks(G4, {(1, 1): [1, 2], (1, 2): [1, 2]})
    steps = find_all(rule, board)
    assert [summary_of(s, G4) for s in steps] == [("R1", [(1, 1), (1, 2)], (1, 2)),
                                                   ("B1", [(1, 1), (1, 2)], (1, 2))]
    assert elims(steps[0], G4) == [((1, 3), 1), ((1, 3), 2), ((1, 4), 1), ((1, 4), 2)]
    assert elims(steps[1], G4) == [((2, 1), 1), ((2, 1), 2), ((2, 2), 1), ((2, 2), 2)]


def test_naked_triple_without_every_value_in_every_cell_9x9() -> None:
    """{1, 2}, {2, 3}, {1, 3} is a naked triple (RULES.md)."""
    board = marks(G9, {(2, 4): [1, 2], (5, 4): [2, 3], (8, 4): [1, 3]})
    steps = find_all(make_rule("naked-triple"), board)
    assert [summary_of(s, G9) for s in steps] == [("C4", [(2, 4), (5, 4), (8, 4)], (1, 2, 3))]
    assert steps[0].level == 6
    assert elims(steps[0], G9) == [((r, 4), v) for r in (1, 3, 4, 6, 7, 9) for v in (1, 2, 3)]
    # the pair rule sees no pair here (near miss)
    assert find_all(make_rule("naked-pair"), board) == []


def test_naked_triple_6x6() -> None:
    board = marks(G6, {(3, 1): [2, 6], (3, 4): [2, 5], (3, 6): [5, 6]})
    steps = find_all(make_rule("naked-triple"), board)
    assert [summary_of(s, G6) for s in steps] == [("R3", [(3, 1), (3, 4), (3, 6)], (2, 5, 6))]
    assert elims(steps[0], G6) == [((3, c), v) for c in (2, 3, 5) for v in (2, 5, 6)]


def test_naked_tuple_of_four_9x9() -> None:
    rule = make_rule("naked-tuple")
    assert rule.level == 10
    board = marks(G9, {(9, 1): [1, 2], (9, 4): [2, 3], (9, 7): [3, 4], (9, 9): [1, 4]})
    steps = find_all(rule, board)
    assert [summary_of(s, G9) for s in steps] == [
        ("R9", [(9, 1), (9, 4), (9, 7), (9, 9)], (1, 2, 3, 4))]
    assert elims(steps[0], G9) == [((9, c), v) for c in (2, 3, 5, 6, 8) for v in (1, 2, 3, 4)]
    assert steps[0].summary().startswith("naked tuple: in row R9, cells (9, 1), (9, 4), "
                                         "(9, 7), (9, 9) hold only {1, 2, 3, 4}")
    # near miss for the pair and triple rules
    assert find_all(make_rule("naked-pair"), board) == []
    assert find_all(make_rule("naked-triple"), board) == []


def test_naked_tuple_of_five_16x16() -> None:
    cells = [(2, 1), (2, 5), (2, 9), (2, 13), (2, 16)]
    vals = [[3, 7], [7, 12], [12, 14], [14, 16], [3, 16]]
    board = marks(G16, dict(zip(cells, vals, strict=True)))
    steps = find_all(make_rule("naked-tuple"), board)
    assert [summary_of(s, G16) for s in steps] == [("R2", sorted(cells), (3, 7, 12, 14, 16))]
    others = [c for c in range(1, 17) if (2, c) not in cells]
    assert elims(steps[0], G16) == [((2, c), v) for c in others for v in (3, 7, 12, 14, 16)]
    assert "hold only {3, 7, C, E, G}" in steps[0].summary()


def test_naked_subsets_through_the_dual() -> None:
    """In a region with few unsolved cells a naked set larger than half of
    them is found through its hidden dual, and reported as naked."""
    # row R1: 5-9 placed; (1, 1), (1, 2), (1, 3) hold {1, 2}, {2, 3}, {1, 3}
    # (a naked triple among p = 4 cells), (1, 4) holds 1-4
    placed = {(1, c): c for c in range(5, 10)}
    board = marks(G9, {(1, 1): [1, 2], (1, 2): [2, 3], (1, 3): [1, 3], (1, 4): [1, 2, 3, 4]},
                  placed)
    steps = [s for s in find_all(make_rule("naked-triple"), board)
             if s.pattern.regions_with("region") == (G9.row_region(0),)]
    assert [summary_of(s, G9) for s in steps] == [("R1", [(1, 1), (1, 2), (1, 3)], (1, 2, 3))]
    assert elims(steps[0], G9) == [((1, 4), 1), ((1, 4), 2), ((1, 4), 3)]


def test_naked_negative() -> None:
    # near misses: {1, 2} and {1, 3}; a triple whose union has four values
    assert find_all(make_rule("naked-pair"), marks(G9, {(1, 1): [1, 2], (1, 5): [1, 3]})) == []
    board = marks(G9, {(2, 4): [1, 2], (5, 4): [2, 3], (8, 4): [1, 4]})
    assert find_all(make_rule("naked-triple"), board) == []
    board = marks(G9, {(9, 1): [1, 2], (9, 4): [2, 3], (9, 7): [3, 4], (9, 9): [1, 5]})
    assert find_all(make_rule("naked-tuple"), board) == []
    # a naked pair whose values are already gone from the rest of the region
    rest = [(1, c) for c in (2, 3, 4, 6, 7, 8, 9)]
    board = without(G9, 1, rest, without(G9, 2, rest,
                                         marks(G9, {(1, 1): [1, 2], (1, 5): [1, 2]})))
    assert find_all(make_rule("naked-pair"), board) == []


# -- hidden subsets ------------------------------------------------------------
def test_hidden_pair_9x9() -> None:
    rule = make_rule("hidden-pair")
    # row R4: 8 and 9 only in (4, 2) and (4, 7)
    board = without(G9, 8, [(4, c) for c in range(1, 10) if c not in (2, 7)])
    board = without(G9, 9, [(4, c) for c in range(1, 10) if c not in (2, 7)], board)
    steps = find_all(rule, board)
    assert len(steps) == 1
    (step,) = steps
    assert (step.rule, step.level, step.family) == ("hidden-pair", 7, "hidden-subset")
    assert summary_of(step, G9) == ("R4", [(4, 2), (4, 7)], (8, 9))
    assert elims(step, G9) == [((4, c), v) for c in (2, 7) for v in range(1, 8)]
    assert step.summary().startswith(
        "hidden pair: in row R4, {8, 9} can only go in cells (4, 2), (4, 7), so those cells "
        "hold no other value =>")


def test_hidden_pair_in_a_block_6x6() -> None:
    rule = make_rule("hidden-pair")
    # 6x6, 2x3 blocks: block B4 is rows 3-4, columns 4-6; 1 and 3 only in (3, 5), (4, 6)
    b4 = [(r, c) for r in (3, 4) for c in (4, 5, 6)]
    rest = [rc for rc in b4 if rc not in ((3, 5), (4, 6))]
    board = without(G6, 3, rest, without(G6, 1, rest))
    steps = find_all(rule, board)
    assert [summary_of(s, G6) for s in steps] == [("B4", [(3, 5), (4, 6)], (1, 3))]
    assert elims(steps[0], G6) == [((r, c), v) for r, c in ((3, 5), (4, 6))
                                   for v in (2, 4, 5, 6)]


def test_hidden_triple_9x9() -> None:
    # column C7: 1, 2, 3 only in (2, 7), (5, 7), (8, 7), which hold other values too
    spec = {(2, 7): [1, 2, 5, 6], (5, 7): [2, 3, 7], (8, 7): [1, 3, 9]}
    for r in (1, 3, 4, 6, 7, 9):
        spec[(r, 7)] = [4, 5, 6, 7, 8, 9]
    board = marks(G9, spec)
    steps = find_all(make_rule("hidden-triple"), board)
    assert [summary_of(s, G9) for s in steps] == [("C7", [(2, 7), (5, 7), (8, 7)], (1, 2, 3))]
    assert steps[0].level == 8
    assert elims(steps[0], G9) == [((2, 7), 5), ((2, 7), 6), ((5, 7), 7), ((8, 7), 9)]
    assert find_all(make_rule("hidden-pair"), board) == []


def test_hidden_tuple_of_four_9x9_and_its_naked_dual() -> None:
    # row R6: 1-4 only in (6, 1), (6, 2), (6, 4), (6, 5), each with a 9 as
    # well; every value of 1-4 spans blocks B4 and B5 (no candidate lines)
    spec = {(6, 1): [1, 2, 9], (6, 4): [2, 3, 9], (6, 2): [3, 4, 9], (6, 5): [1, 4, 9]}
    for c in (3, 6, 7, 8, 9):
        spec[(6, c)] = [5, 6, 7, 8, 9]
    board = marks(G9, spec)
    steps = find_all(make_rule("hidden-tuple"), board)
    assert [summary_of(s, G9) for s in steps] == [
        ("R6", [(6, 1), (6, 2), (6, 4), (6, 5)], (1, 2, 3, 4))]
    assert steps[0].level == 11
    assert elims(steps[0], G9) == [((6, c), 9) for c in (1, 2, 4, 5)]
    # the same partition is a naked quintuple {5..9} in the other five cells,
    # which the minimal-level strategy applies first (level 10 < 11)
    naked = find_all(make_rule("naked-tuple"), board)
    assert [summary_of(s, G9) for s in naked] == [
        ("R6", [(6, c) for c in (3, 6, 7, 8, 9)], (5, 6, 7, 8, 9))]
    assert elims(naked[0], G9) == elims(steps[0], G9)
    step = Engine().next_step(board)
    assert step is not None and (step.rule, step.level) == ("naked-tuple", 10)


def test_hidden_tuple_of_four_16x16() -> None:
    row = 11
    where = [(row, 2), (row, 7), (row, 12), (row, 15)]
    hidden = [10, 11, 12, 13]  # A, B, C, D
    board = marks(G16, {})
    for v in hidden:
        board = without(G16, v, [(row, c) for c in range(1, 17) if (row, c) not in where], board)
    steps = find_all(make_rule("hidden-tuple"), board)
    assert [summary_of(s, G16) for s in steps] == [("R11", where, tuple(hidden))]
    assert elims(steps[0], G16) == sorted(((r, c), v) for r, c in where
                                          for v in range(1, 17) if v not in hidden)
    assert "{A, B, C, D} can only go in cells" in steps[0].summary()


def test_hidden_subsets_through_the_dual() -> None:
    """A hidden triple among p = 4 unsolved cells is found through its naked
    dual (a cell with one candidate)."""
    placed = {(1, c): c for c in range(5, 10)}
    board = marks(G9, {(1, 1): [4], (1, 2): [1, 2, 3, 4], (1, 3): [1, 2, 3, 4],
                       (1, 4): [1, 2, 3, 4]}, placed)
    steps = [s for s in find_all(make_rule("hidden-triple"), board)
             if s.pattern.regions_with("region") == (G9.row_region(0),)]
    assert [summary_of(s, G9) for s in steps] == [("R1", [(1, 2), (1, 3), (1, 4)], (1, 2, 3))]
    assert elims(steps[0], G9) == [((1, 2), 4), ((1, 3), 4), ((1, 4), 4)]


def test_hidden_negative() -> None:
    # near miss: 8 and 9 in three cells of R4
    board = without(G9, 8, [(4, c) for c in range(1, 10) if c not in (2, 7, 9)])
    board = without(G9, 9, [(4, c) for c in range(1, 10) if c not in (2, 7)], board)
    assert find_all(make_rule("hidden-pair"), board) == []
    # a hidden pair whose cells hold nothing else: nothing to eliminate
    board = marks(G9, {(4, 2): [8, 9], (4, 7): [8, 9]})
    board = without(G9, 8, [(4, c) for c in range(1, 10) if c not in (2, 7)], board)
    board = without(G9, 9, [(4, c) for c in range(1, 10) if c not in (2, 7)], board)
    assert find_all(make_rule("hidden-pair"), board) == []
    # near miss for k = 4: the four values spread over five cells
    spec = {(6, 1): [1, 2, 9], (6, 3): [2, 3, 9], (6, 5): [3, 4, 9], (6, 8): [1, 9],
            (6, 9): [4, 5, 6, 7, 8, 9]}
    for c in (2, 4, 6, 7):
        spec[(6, c)] = [5, 6, 7, 8, 9]
    assert find_all(make_rule("hidden-tuple"), marks(G9, spec)) == []


def test_subset_rules_respect_their_sizes() -> None:
    """The pair rule never reports a triple, the tuple rules never a pair."""
    board = marks(G9, {(1, 1): [1, 2], (1, 5): [1, 2]})
    assert find_all(make_rule("naked-triple"), board) == []
    assert find_all(make_rule("naked-tuple"), board) == []
    assert all(len(s.pattern.cells_with("subset")) == 2
               for s in find_all(make_rule("naked-pair"), board))
    # a region's cell index helper agrees with the geometry
    assert G9.rows[0][4] == cell(G9, 1, 5)
