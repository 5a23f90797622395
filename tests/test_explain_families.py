"""Every rule family's explanation names its pattern correctly (regions,
cells, values, effects), at both depths, and the drawing highlights it.
Candidate states are constructed; the steps come from the rules."""

from __future__ import annotations

import re

import pytest
from conftest import G6, G9, G16, book_figures, cell, make_rule, marks, without

from grader.core.board import Board
from grader.core.phrases import fish_path
from grader.core.steps import Step
from grader.explainer.hints import vague_hint
from grader.explainer.marks import step_marks
from grader.explainer.svg import grid_svg
from grader.explainer.textgrid import grid_text


def first(code: str, board: Board) -> Step:
    rule = make_rule(code)
    return next(s for s in rule.find(board) if board.progress(s))


def texts(step: Step) -> tuple[str, str]:
    return step.explain("short"), step.explain("teach")


def assert_all_in(words: list[str], *texts_: str) -> None:
    for t in texts_:
        for w in words:
            assert w in t, f"{w!r} missing from: {t}"


def test_single_position_names_region_value_and_excluders():
    g = book_figures()["fig2.1"]["puzzle"]
    b = Board.from_string(g)
    # the book's example: column C6, value 3, (8, 6)
    step = next(s for s in make_rule("single-position").find(b)
                if s.pattern.regions_with("region") == (G9.col_region(5),))
    short, teach = texts(step)
    assert_all_in(["column C6", "3 can only go in (8, 6)", "(8, 6) <- 3"], short, teach)
    # why: every other cell of C6 is filled or sees a 3, each excluder named with its line
    assert "every cell of C6 is either filled or cannot hold 3" in teach
    for e in step.pattern.cells_with("excluder"):
        assert f"the 3 in {G9.cell_name(e)} rules out the cells of C6" in teach
    assert "single position" in vague_hint(step) and "column C6" in vague_hint(step)
    assert "(8, 6)" not in vague_hint(step)


def test_single_candidate_names_cell_regions_and_excluders():
    b = Board.from_string(book_figures()["fig2.3"]["puzzle"])
    step = first("single-candidate", b)
    short, teach = texts(step)
    assert_all_in(["9", "(1, 5)", "(1, 5) <- 9"], short, teach)
    assert_all_in(["row R1, column C5 and block B2", "all but 9"], teach)


def test_candidate_lines_pointing():
    b = without(G9, 7, [(2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3), (1, 3)])
    step = first("candidate-lines", b)
    assert step.pattern.regions == ((G9.block_region(0), "block"), (G9.row_region(0), "line"))
    short, teach = texts(step)
    assert_all_in(["block B1", "row R1", "7", "(1, 4) != 7", "(1, 9) != 7"], short, teach)
    assert_all_in(["(1, 1) or (1, 2)", "also the 7 of R1"], teach)


def test_candidate_lines_claiming():
    b = without(G9, 4, [(5, j) for j in (1, 2, 3, 7, 8, 9)])
    step = first("candidate-lines", b)
    assert step.pattern.regions[0] == (G9.row_region(4), "line")
    short, teach = texts(step)
    assert_all_in(["row R5", "block B5", "(4, 4) != 4", "(6, 6) != 4"], short, teach)
    assert_all_in(["(5, 4), (5, 5) or (5, 6)", "also the 4 of B5"], teach)


def test_multiple_lines_names_blocks_lines_and_remaining_line():
    b = without(G9, 5, [(3, j) for j in range(1, 7)])  # B1, B2: 5 only in rows R1, R2
    step = first("multiple-lines", b)
    short, teach = texts(step)
    assert_all_in(["B1", "B2", "R1", "R2", "(1, 7) != 5", "(2, 9) != 5"], short, teach)
    assert_all_in(["one band", "block B3 the 5 must therefore go in row R3"], teach)
    assert "band of blocks B1, B2 and B3" in vague_hint(step)


def test_naked_pair():
    b = marks(G9, {(3, 1): [1, 4], (3, 2): [1, 4]})
    step = first("naked-pair", b)
    short, teach = texts(step)
    assert_all_in(["row R3", "(3, 1)", "(3, 2)", "1, 4", "(3, 9) != 4"], short, teach)
    assert "naked pair" in teach


def test_naked_triple_in_a_column():
    b = marks(G9, {(1, 4): [5, 6], (2, 4): [6, 7], (3, 4): [5, 7]})
    step = first("naked-triple", b)
    short, teach = texts(step)
    assert_all_in(["column C4", "(1, 4)", "(2, 4)", "(3, 4)", "{5, 6, 7}", "(9, 4) != 7"],
                  short, teach)
    assert "naked triple" in teach


def test_hidden_pair():
    b = without(G9, 2, [(7, j) for j in range(2, 9)])
    b = without(G9, 8, [(7, j) for j in range(2, 9)], b)
    step = first("hidden-pair", b)
    short, teach = texts(step)
    assert_all_in(["row R7", "{2, 8}", "(7, 1)", "(7, 9)", "(7, 1) != 1"], short, teach)
    assert "hidden pair" in teach


def test_hidden_quad_in_a_block_is_named_by_size():
    cells = [(7, 4), (7, 5), (7, 6), (8, 4), (8, 5), (8, 6), (9, 4), (9, 5), (9, 6)]
    keep = {(7, 4), (8, 5), (9, 6), (7, 6)}
    b = marks(G9, {})
    for v in (1, 3, 5, 9):
        b = without(G9, v, [c for c in cells if c not in keep], b)
    step = first("hidden-tuple", b)
    short, teach = texts(step)
    assert_all_in(["block B8", "{1, 3, 5, 9}", "(7, 4)", "(9, 6)"], short, teach)
    # one name in its text, the book's; players' name by size beside it (issue 27)
    assert "(a hidden tuple)" in teach and "quad" not in teach
    assert step.technique.common_name(step) == "hidden quad"


def test_x_wing_names_lines_and_the_path():
    b = without(G9, 4, [(r, j) for r in (2, 6) for j in range(1, 10) if j not in (2, 8)])
    step = first("x-wing", b)
    short, teach = texts(step)
    assert_all_in(["rows R2", "R6", "columns C2", "C8", "(1, 2) != 4", "(9, 8) != 4"],
                  short, teach)
    assert "(2, 2) - (2, 8) - (6, 8) - (6, 2) - back to (2, 2)" in teach


def test_swordfish_names_lines_and_the_cyclic_path():
    # the book's drawing: each base row has two cells, chained in a cycle
    keep = {1: (1, 5), 4: (5, 9), 8: (1, 9)}
    b = without(G9, 9, [(r, j) for r, cs in keep.items() for j in range(1, 10) if j not in cs])
    step = first("swordfish", b)
    short, teach = texts(step)
    assert_all_in(["rows R1, R4", "R8", "columns C1, C5", "C9", "(2, 1) != 9"], short, teach)
    assert step.name == "Swordfish" and "Swordfish on 9" in teach
    assert "(1, 1) - (1, 5) - (4, 5) - (4, 9) - (8, 9) - (8, 1) - back to (1, 1)" in teach


def test_fish_path_absent_when_a_line_has_three_cells():
    cells = [cell(G9, 1, 1), cell(G9, 1, 3), cell(G9, 1, 6), cell(G9, 4, 1), cell(G9, 4, 6),
             cell(G9, 7, 3), cell(G9, 7, 6)]
    assert fish_path(G9, cells) == []


def test_trial_families_explain_branches():
    from grader.explainer.core import walkthrough
    from grader.formats import parse_grid_token

    g = parse_grid_token(book_figures()["fig4.5"]["puzzle"])
    trial = next(s for _, _, s in walkthrough(g.board(), path="book") if s.branches)
    teach = trial.explain("teach")
    if trial.family == "disjunctive-construction":
        assert "possibilities" in teach and "branch 1: assume" in teach
    assert trial.effects_text() in teach.splitlines()[-1]
    assert vague_hint(trial).startswith(f"Try {trial.name}")


@pytest.mark.parametrize("code,board", [
    ("naked-pair", marks(G9, {(3, 1): [1, 4], (3, 2): [1, 4]})),
    ("candidate-lines", without(G9, 7, [(2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3),
                                        (1, 3)])),
])
def test_drawings_highlight_the_pattern(code, board):
    step = first(code, board)
    m = step_marks(step)
    for c, role in step.pattern.cells:
        assert m[c].cell_role == role
    for c, v in step.eliminations:
        assert v in m[c].eliminated
    svg = grid_svg(board, step)
    assert svg.count('stroke="#e03131"') == len(step.eliminations)  # one strike per removal
    text = grid_text(board, step).plain
    assert text.count("-") >= len(step.eliminations)


@pytest.mark.parametrize("geo", [G6, G16])
def test_other_sizes_render(geo):
    b = marks(geo, {(1, 1): [1, 2]})
    step = first("naked-pair", marks(geo, {(1, 1): [1, 2], (1, 2): [1, 2]}))
    assert "row R1" in step.explain("teach")
    svg = grid_svg(b, step=None)
    # candidates drawn (a line of the grid's candidates is one element, a glyph each)
    glyphs = "".join(re.findall(r"<text [^>]*>([^<]*)</text>", svg))
    assert len(glyphs) >= geo.ncells
    lines = grid_text(b).plain.splitlines()
    assert len(lines) == 1 + geo.n * geo.a + geo.n + 1  # labels, cell rows, separators
    assert len({len(ln) for ln in lines[1:]}) == 1  # a rectangular drawing


def test_reductio_explains_the_chain_to_the_contradiction():
    """A Sudoku Exchange grid (public domain, puzzles/se-rated-9758.txt line
    7875) whose path uses reductio ad absurdum."""
    from test_explain_book import _replay_branch

    from grader.core.trial_text import link_text
    from grader.explainer.core import walkthrough
    from grader.formats import parse_grid_token

    g = parse_grid_token(".3....48.8..3....67.4.693....8....9...9.7.5...4....8....354.7.84....3..5"
                         ".72....3.")
    board, step = next((b, s) for _, b, s in walkthrough(g.board(), path="book")
                       if s.family == "reductio")
    (branch,) = step.branches
    assert branch.conflict is not None and branch.steps
    assert step.eliminations == ((branch.cell, branch.value),)
    _replay_branch(board, step)
    lines = step.explain("teach").splitlines()
    assume = f"{G9.cell_name(branch.cell)} <- {branch.value}"
    assert lines[0].startswith(f"Suppose {assume}")
    assert branch.chain is not None and branch.chain.links
    for link in branch.chain.links:
        assert lines[link.index] == f"    {link.index}. {link_text(G9, link)}"
    assert lines[-3].startswith(f"    contradiction: {branch.conflict.reason} (from ")
    assert lines[-3].endswith(f", so {assume} is impossible")
    assert lines[-2].startswith(f"    in short: r{G9.cell_row[branch.cell] + 1}c")
    assert lines[-1].endswith(f"{G9.cell_name(branch.cell)} != {branch.value}.")
    # the 'where' hint gives the area (the pivot's block), never the pivot itself
    where = vague_hint(step)
    assert G9.cell_name(branch.cell) not in where
    assert G9.region_long_name(2 * G9.n + G9.cell_block[branch.cell]) in where
