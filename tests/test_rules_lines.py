"""Rules 2.3/2.4 and the line-to-block variant (candidate lines, level 3) and
rule 2.5 (multiple lines, level 4, rows and columns), on constructed
candidate states at 9x9, 6x6 (2x3 and 3x2 blocks) and 16x16."""

from __future__ import annotations

from conftest import G6, G6T, G9, G16, cells_rc, effects, find_all, make_rule, without


def regions(step, geo):
    return [(geo.region_name(r), role) for r, role in step.pattern.regions]


def elim_cells(step, geo, value):
    assert {v for _, v in step.eliminations} == {value}
    return cells_rc(geo, [c for c, _ in step.eliminations])


# -- candidate lines: block -> line (rules 2.3, 2.4) -----------------------------
def test_candidate_lines_block_to_row_9x9() -> None:
    rule = make_rule("candidate-lines")
    # in block B1, 4 only in row R2: (2, 1), (2, 2)
    board = without(G9, 4, [(1, c) for c in (1, 2, 3)] + [(3, c) for c in (1, 2, 3)]
                    + [(2, 3)])
    steps = find_all(rule, board)
    assert len(steps) == 1
    (step,) = steps
    assert (step.rule, step.level, step.family) == ("candidate-lines", 3, "candidate-lines")
    assert regions(step, G9) == [("B1", "block"), ("R2", "line")]
    assert cells_rc(G9, step.pattern.cells_with("base")) == [(2, 1), (2, 2)]
    assert step.pattern.values == (4,)
    assert elim_cells(step, G9, 4) == [(2, c) for c in range(4, 10)]
    assert step.placements == ()
    assert step.summary() == (
        "candidate lines: in block B1, 4 can only be in row R2, so not elsewhere in R2 => "
        + ", ".join(f"(2, {c}) != 4" for c in range(4, 10)))


def test_candidate_lines_block_to_column_6x6() -> None:
    rule = make_rule("candidate-lines")
    # 6x6, 2x3 blocks: block B1 is rows 1-2, columns 1-3; 2 only in column C3
    board = without(G6, 2, [(1, 1), (1, 2), (2, 1), (2, 2)])
    steps = find_all(rule, board)
    assert [regions(s, G6) for s in steps] == [[("B1", "block"), ("C3", "line")]]
    assert elim_cells(steps[0], G6, 2) == [(r, 3) for r in range(3, 7)]
    assert cells_rc(G6, steps[0].pattern.cells_with("base")) == [(1, 3), (2, 3)]


# -- candidate lines: line -> block (the variant of Figure 2.7) ------------------
def test_candidate_lines_row_to_block_9x9() -> None:
    rule = make_rule("candidate-lines")
    # in row R5, 6 only in (5, 4) and (5, 6), both in block B5
    board = without(G9, 6, [(5, c) for c in (1, 2, 3, 5, 7, 8, 9)])
    steps = find_all(rule, board)
    assert len(steps) == 1
    (step,) = steps
    assert regions(step, G9) == [("R5", "line"), ("B5", "block")]
    assert cells_rc(G9, step.pattern.cells_with("base")) == [(5, 4), (5, 6)]
    assert elim_cells(step, G9, 6) == [(r, c) for r in (4, 6) for c in (4, 5, 6)]
    assert step.summary().startswith(
        "candidate lines: in row R5, 6 can only be in block B5, so not elsewhere in B5 =>")


def test_candidate_lines_column_to_block_16x16() -> None:
    rule = make_rule("candidate-lines")
    # 16x16: column C10, value 11 (B) only in rows 5-8, i.e. block B7
    board = without(G16, 11, [(r, 10) for r in range(1, 17) if not 5 <= r <= 8])
    steps = find_all(rule, board)
    assert [regions(s, G16) for s in steps] == [[("C10", "line"), ("B7", "block")]]
    assert elim_cells(steps[0], G16, 11) == [(r, c) for r in range(5, 9)
                                              for c in (9, 11, 12)]
    assert "B can only be in block B7" in steps[0].summary()


def test_candidate_lines_negative() -> None:
    rule = make_rule("candidate-lines")
    # near miss: in B1, 4 in (2, 1) and (3, 2): two rows and two columns
    board = without(G9, 4, [(1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (3, 1), (3, 3)])
    assert find_all(rule, board) == []
    # the pattern holds but there is nothing left to eliminate: no step
    board = without(G9, 4, [(1, c) for c in (1, 2, 3)] + [(3, c) for c in (1, 2, 3)]
                    + [(2, c) for c in range(3, 10)])
    assert find_all(rule, board) == []
    # near miss for the variant: 6 in row R5 spread over two blocks
    board = without(G9, 6, [(5, c) for c in (1, 2, 5, 7, 8, 9)])
    assert find_all(rule, board) == []


# -- multiple lines (rule 2.5) ---------------------------------------------------
def test_multiple_lines_rows_9x9() -> None:
    rule = make_rule("multiple-lines")
    # band B1-B3, value 7: in B1 and B2 confined to rows R1 and R2
    board = without(G9, 7, [(3, c) for c in range(1, 7)])
    steps = find_all(rule, board)
    assert len(steps) == 1
    (step,) = steps
    assert (step.rule, step.level, step.family) == ("multiple-lines", 4, "multiple-lines")
    assert regions(step, G9) == [("B1", "block"), ("B2", "block"), ("R1", "line"),
                                 ("R2", "line")]
    assert elim_cells(step, G9, 7) == [(r, c) for r in (1, 2) for c in (7, 8, 9)]
    assert cells_rc(G9, step.pattern.cells_with("base")) == [
        (r, c) for r in (1, 2) for c in range(1, 7)]
    assert step.summary().startswith(
        "multiple lines: in blocks B1, B2, 7 is confined to rows R1, R2")


def test_multiple_lines_columns_9x9() -> None:
    rule = make_rule("multiple-lines")
    # stack B2, B5, B8, value 2: in B2 and B8 confined to columns C4 and C5
    board = without(G9, 2, [(r, 6) for r in (1, 2, 3, 7, 8, 9)])
    steps = find_all(rule, board)
    assert len(steps) == 1
    assert regions(steps[0], G9) == [("B2", "block"), ("B8", "block"), ("C4", "line"),
                                     ("C5", "line")]
    assert elim_cells(steps[0], G9, 2) == [(r, c) for r in (4, 5, 6) for c in (4, 5)]


def test_multiple_lines_columns_6x6() -> None:
    rule = make_rule("multiple-lines")
    # 6x6 with 2x3 blocks: the stack B1, B3, B5 (columns 1-3); 4 confined to
    # columns C1, C2 in B1 and B3
    board = without(G6, 4, [(r, 3) for r in (1, 2, 3, 4)])
    steps = find_all(rule, board)
    assert [regions(s, G6) for s in steps] == [
        [("B1", "block"), ("B3", "block"), ("C1", "line"), ("C2", "line")]]
    assert elim_cells(steps[0], G6, 4) == [(5, 1), (5, 2), (6, 1), (6, 2)]


def test_multiple_lines_rows_6x6_with_3x2_blocks() -> None:
    rule = make_rule("multiple-lines")
    # --box 3x2: blocks of 3 rows by 2 columns, a band is B1-B3 (rows 1-3)
    board = without(G6T, 5, [(3, c) for c in (1, 2, 3, 4)])
    steps = find_all(rule, board)
    assert [regions(s, G6T) for s in steps] == [
        [("B1", "block"), ("B2", "block"), ("R1", "line"), ("R2", "line")]]
    assert elim_cells(steps[0], G6T, 5) == [(1, 5), (1, 6), (2, 5), (2, 6)]


def test_multiple_lines_three_blocks_16x16() -> None:
    """With four blocks in a band, three blocks confining v to the same three
    rows clear those rows in the fourth."""
    rule = make_rule("multiple-lines")
    board = without(G16, 9, [(4, c) for c in range(1, 13)])
    steps = find_all(rule, board)
    assert [regions(s, G16) for s in steps] == [
        [("B1", "block"), ("B2", "block"), ("B3", "block"), ("R1", "line"), ("R2", "line"),
         ("R3", "line")]]
    assert elim_cells(steps[0], G16, 9) == [(r, c) for r in (1, 2, 3) for c in range(13, 17)]


def test_multiple_lines_negative() -> None:
    rule = make_rule("multiple-lines")
    # near miss: B1 confines 7 to R1, R2 but B2 to R1, R3
    board = without(G9, 7, [(3, 1), (3, 2), (3, 3), (2, 4), (2, 5), (2, 6)])
    assert find_all(rule, board) == []
    # pattern present but the third block has nothing to lose
    board = without(G9, 7, [(3, c) for c in range(1, 7)]
                    + [(r, c) for r in (1, 2) for c in (7, 8, 9)])
    assert find_all(rule, board) == []
    # 6x6 with 2x3 blocks: a band has only two blocks, so rows never apply
    board = without(G6, 4, [(2, c) for c in range(1, 7)])
    assert [s for s in find_all(rule, board)
            if G6.region_kind[s.pattern.regions_with("line")[0]] == 0] == []


def test_effects_helper_sanity() -> None:
    """effects() reports placements and eliminations in the book's (r, c)."""
    board = without(G9, 4, [(1, c) for c in (1, 2, 3)] + [(3, c) for c in (1, 2, 3)]
                    + [(2, 3)])
    (step,) = find_all(make_rule("candidate-lines"), board)
    pl, el = effects(step, G9)
    assert pl == [] and el == [((2, c), 4) for c in range(4, 10)]
