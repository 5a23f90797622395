"""Rule 4.1 (X-Wing, level 9) and rule 4.2 (Swordfish, level 12) in both
orientations, including a non-cyclic Swordfish whose base row has three
cells, on constructed candidate states at 9x9, 6x6 and 16x16."""

from __future__ import annotations

from conftest import G6, G9, G16, cells_rc, find_all, make_rule, marks, without

from grader import Engine


def only_in(geo, value, lines, board=None, rows=True):
    """Remove ``value`` from every cell of each base line except the given
    positions: ``lines`` maps a row (or column) to the columns (rows) kept."""
    drop = []
    for line, keep in lines.items():
        for k in range(1, geo.n + 1):
            if k not in keep:
                drop.append((line, k) if rows else (k, line))
    return without(geo, value, drop, board)


def shape(step, geo):
    return ([geo.region_name(r) for r in step.pattern.regions_with("base")],
            [geo.region_name(r) for r in step.pattern.regions_with("cover")],
            step.pattern.values)


def elim_cells(step, geo, value):
    assert {v for _, v in step.eliminations} == {value}
    return cells_rc(geo, [c for c, _ in step.eliminations])


# -- X-Wing ---------------------------------------------------------------------
def test_x_wing_rows_9x9() -> None:
    rule = make_rule("x-wing")
    board = only_in(G9, 5, {2: (3, 7), 6: (3, 7)})
    steps = find_all(rule, board)
    assert len(steps) == 1
    (step,) = steps
    assert (step.rule, step.level, step.family) == ("x-wing", 9, "fish")
    assert shape(step, G9) == (["R2", "R6"], ["C3", "C7"], (5,))
    assert cells_rc(G9, step.pattern.cells_with("base")) == [(2, 3), (2, 7), (6, 3), (6, 7)]
    assert elim_cells(step, G9, 5) == [(r, c) for r in (1, 3, 4, 5, 7, 8, 9) for c in (3, 7)]
    assert step.summary().startswith(
        "X-Wing: in rows R2, R6, 5 can only be in columns C3, C7, so not elsewhere in "
        "those columns =>")


def test_x_wing_columns_9x9() -> None:
    rule = make_rule("x-wing")
    board = only_in(G9, 8, {1: (4, 8), 9: (4, 8)}, rows=False)
    steps = find_all(rule, board)
    assert [shape(s, G9) for s in steps] == [(["C1", "C9"], ["R4", "R8"], (8,))]
    assert elim_cells(steps[0], G9, 8) == [(r, c) for r in (4, 8) for c in range(2, 9)]


def test_x_wing_columns_6x6() -> None:
    rule = make_rule("x-wing")
    board = only_in(G6, 3, {2: (1, 5), 6: (1, 5)}, rows=False)
    steps = find_all(rule, board)
    assert [shape(s, G6) for s in steps] == [(["C2", "C6"], ["R1", "R5"], (3,))]
    assert elim_cells(steps[0], G6, 3) == [(r, c) for r in (1, 5) for c in (1, 3, 4, 5)]


def test_x_wing_negative() -> None:
    rule = make_rule("x-wing")
    # near miss: the second row's cells are not in the same columns
    assert find_all(rule, only_in(G9, 5, {2: (3, 7), 6: (3, 8)})) == []
    # near miss: the second row has three cells
    assert find_all(rule, only_in(G9, 5, {2: (3, 7), 6: (3, 7, 9)})) == []
    # pattern without effect: the cover columns hold 5 nowhere else
    board = only_in(G9, 5, {2: (3, 7), 6: (3, 7)})
    board = only_in(G9, 5, {3: (2, 6), 7: (2, 6)}, board, rows=False)
    assert find_all(rule, board) == []


# -- Swordfish ------------------------------------------------------------------
def test_swordfish_cyclic_rows_9x9() -> None:
    """The book's drawing: three rows of two cells chained in a cycle."""
    rule = make_rule("swordfish")
    board = only_in(G9, 6, {1: (1, 5), 4: (5, 9), 7: (1, 9)})
    steps = find_all(rule, board)
    assert len(steps) == 1
    (step,) = steps
    assert (step.rule, step.level, step.family) == ("swordfish", 12, "fish")
    assert shape(step, G9) == (["R1", "R4", "R7"], ["C1", "C5", "C9"], (6,))
    assert cells_rc(G9, step.pattern.cells_with("base")) == [
        (1, 1), (1, 5), (4, 5), (4, 9), (7, 1), (7, 9)]
    assert elim_cells(step, G9, 6) == [(r, c) for r in (2, 3, 5, 6, 8, 9) for c in (1, 5, 9)]
    # no X-Wing among those rows
    assert find_all(make_rule("x-wing"), board) == []


def test_swordfish_non_cyclic_with_a_three_cell_row_9x9() -> None:
    """RULES.md's reading: every base row has two or three cells, all within
    the three cover columns (here R1 has three)."""
    rule = make_rule("swordfish")
    board = only_in(G9, 6, {1: (1, 5, 9), 4: (5, 9), 7: (1, 9)})
    steps = find_all(rule, board)
    assert [shape(s, G9) for s in steps] == [(["R1", "R4", "R7"], ["C1", "C5", "C9"], (6,))]
    assert cells_rc(G9, steps[0].pattern.cells_with("base")) == [
        (1, 1), (1, 5), (1, 9), (4, 5), (4, 9), (7, 1), (7, 9)]
    assert elim_cells(steps[0], G9, 6) == [(r, c) for r in (2, 3, 5, 6, 8, 9)
                                           for c in (1, 5, 9)]


def test_swordfish_non_cyclic_chain_columns_9x9() -> None:
    """Columns as base, not a cycle: C2 {R3, R6}, C5 {R3, R6, R9},
    C8 {R3, R9} -- covered by rows R3, R6, R9."""
    rule = make_rule("swordfish")
    board = only_in(G9, 4, {2: (3, 6), 5: (3, 6, 9), 8: (3, 9)}, rows=False)
    steps = find_all(rule, board)
    assert [shape(s, G9) for s in steps] == [(["C2", "C5", "C8"], ["R3", "R6", "R9"], (4,))]
    assert elim_cells(steps[0], G9, 4) == [(r, c) for r in (3, 6, 9)
                                           for c in (1, 3, 4, 6, 7, 9)]


def test_swordfish_16x16_with_a_three_cell_row() -> None:
    rule = make_rule("swordfish")
    board = only_in(G16, 16, {2: (3, 8, 14), 9: (3, 14), 15: (8, 14)})
    steps = find_all(rule, board)
    assert [shape(s, G16) for s in steps] == [(["R2", "R9", "R15"], ["C3", "C8", "C14"], (16,))]
    others = [r for r in range(1, 17) if r not in (2, 9, 15)]
    assert elim_cells(steps[0], G16, 16) == sorted((r, c) for r in others for c in (3, 8, 14))
    assert "G can only be in columns C3, C8, C14" in steps[0].summary()


def test_swordfish_negative() -> None:
    rule = make_rule("swordfish")
    # near miss: the three rows use four columns
    assert find_all(rule, only_in(G9, 6, {1: (1, 5, 9), 4: (5, 9), 7: (1, 8)})) == []
    # near miss: only two rows qualify (the third has four cells)
    assert find_all(rule, only_in(G9, 6, {1: (1, 5), 4: (5, 9), 7: (1, 5, 8, 9)})) == []
    # pattern without effect
    board = only_in(G9, 6, {1: (1, 5), 4: (5, 9), 7: (1, 9)})
    board = only_in(G9, 6, {1: (1, 7), 5: (1, 4), 9: (4, 7)}, board, rows=False)
    assert find_all(rule, board) == []


def test_jellyfish_is_the_same_rule_with_size_4() -> None:
    rule = make_rule("swordfish", size=4)
    board = only_in(G9, 2, {1: (1, 3), 3: (3, 6), 5: (6, 8), 8: (1, 8)})
    steps = find_all(rule, board)
    assert [shape(s, G9) for s in steps] == [
        (["R1", "R3", "R5", "R8"], ["C1", "C3", "C6", "C8"], (2,))]
    assert find_all(make_rule("swordfish"), board) == []


def test_engine_uses_the_swordfish_at_level_12() -> None:
    board = only_in(G9, 6, {1: (1, 5, 9), 4: (5, 9), 7: (1, 9)})
    step = Engine().next_step(board)
    assert step is not None and (step.rule, step.level) == ("swordfish", 12)


def test_fish_ignore_cells_already_placed() -> None:
    rule = make_rule("x-wing")
    # R2 and R6 hold 5 in C3, C7; a placed 5 elsewhere does not count as a position
    board = only_in(G9, 5, {2: (3, 7), 6: (3, 7)})
    board.values[board.geo.rows[8][0]] = 5
    board.cands[board.geo.rows[8][0]] = 0
    steps = find_all(rule, board)
    assert [shape(s, G9) for s in steps] == [(["R2", "R6"], ["C3", "C7"], (5,))]
    assert marks(G9, {}).cands[0] == G9.full
