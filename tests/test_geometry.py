"""Geometry of every supported shape (regions, peers, bands, stacks, names)
and the board's basic operations and contradictions."""

from __future__ import annotations

import pytest
from conftest import G4, G6, G6T, G9, cell, marks

from grader.core.board import Board
from grader.core.geometry import geometry, geometry_for_size, parse_box
from grader.core.steps import Pattern, Step

SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (3, 4), (4, 4), (5, 5)]


@pytest.mark.parametrize(("a", "b"), SHAPES)
def test_regions_and_peers(a: int, b: int) -> None:
    geo = geometry(a, b)
    n = a * b
    assert (geo.n, geo.ncells, len(geo.regions)) == (n, n * n, 3 * n)
    assert all(len(r) == n and len(set(r)) == n for r in geo.regions)
    for c in range(geo.ncells):
        regs = [r for r, cells in enumerate(geo.regions) if c in cells]
        assert tuple(regs) == geo.cell_regions[c]
        assert len(geo.peers[c]) == 3 * n - a - b - 1
        assert c not in geo.peer_sets[c]
    # every block is a rows x b columns rectangle
    for blk in geo.blocks:
        rows = {geo.cell_row[c] for c in blk}
        cols = {geo.cell_col[c] for c in blk}
        assert len(rows) == a and len(cols) == b
    assert geo.symbols == "123456789ABCDEFGHIJKLMNOP"[:n]


def test_block_numbering_left_to_right_then_down() -> None:
    assert sorted(G9.blocks[1]) == sorted(cell(G9, r, c) for r in (1, 2, 3) for c in (4, 5, 6))
    assert sorted(G9.blocks[3]) == sorted(cell(G9, r, c) for r in (4, 5, 6) for c in (1, 2, 3))
    # 6x6, 2x3 blocks: B2 is rows 1-2, columns 4-6; B3 rows 3-4, columns 1-3
    assert sorted(G6.blocks[1]) == sorted(cell(G6, r, c) for r in (1, 2) for c in (4, 5, 6))
    assert sorted(G6.blocks[2]) == sorted(cell(G6, r, c) for r in (3, 4) for c in (1, 2, 3))
    # 6x6, 3x2 blocks: B2 is rows 1-3, columns 3-4
    assert sorted(G6T.blocks[1]) == sorted(cell(G6T, r, c) for r in (1, 2, 3) for c in (3, 4))


def test_bands_and_stacks() -> None:
    assert G9.bands == ((0, 1, 2), (3, 4, 5), (6, 7, 8))
    assert G9.stacks == ((0, 3, 6), (1, 4, 7), (2, 5, 8))
    assert G6.bands == ((0, 1), (2, 3), (4, 5)) and G6.stacks == ((0, 2, 4), (1, 3, 5))
    assert G6T.bands == ((0, 1, 2), (3, 4, 5)) and G6T.stacks == ((0, 3), (1, 4), (2, 5))
    for geo in (G4, G6, G6T, G9, geometry(4, 4)):
        for band in geo.bands:  # a band's blocks share rows
            assert len({geo.block_rows[k] for k in band}) == 1
        for stack in geo.stacks:
            assert len({geo.block_cols[k] for k in stack}) == 1


def test_names_in_the_books_notation() -> None:
    assert G9.cell_name(cell(G9, 8, 6)) == "(8, 6)"
    assert [G9.region_name(r) for r in (0, 8, 9, 14, 18, 26)] == ["R1", "R9", "C1", "C6", "B1",
                                                                  "B9"]
    assert G9.region_long_name(14) == "column C6"
    assert G9.region_long_name(2) == "row R3" and G9.region_long_name(19) == "block B2"
    assert geometry(4, 4).symbol(16) == "G" and geometry(5, 5).symbol(10) == "A"


def test_geometry_is_shared_and_box_options() -> None:
    assert geometry(3, 3) is geometry(3, 3)
    assert geometry_for_size(6) is G6 and geometry_for_size(6, (3, 2)) is G6T
    assert (geometry_for_size(12).a, geometry_for_size(12).b) == (3, 4)
    assert (geometry_for_size(8).a, geometry_for_size(8).b) == (2, 4)
    with pytest.raises(ValueError, match="does not fit"):
        geometry_for_size(9, (2, 4))
    assert parse_box("3x2") == (3, 2) and parse_box("3X2") == (3, 2) and parse_box("2*3") == (2, 3)
    for bad in ("3", "x", "3x", "axb", "0x3", "3x2x1"):
        with pytest.raises(ValueError):
            parse_box(bad)


# -- the board ----------------------------------------------------------------------------
def test_from_values_and_place() -> None:
    values = [0] * 16
    values[cell(G4, 1, 1)] = 1
    board = Board.from_values(G4, values)
    assert board.cands[cell(G4, 1, 1)] == 0
    for p in G4.peers[cell(G4, 1, 1)]:
        assert not board.has(p, 1)
    assert board.candidates(cell(G4, 4, 4)) == [1, 2, 3, 4]
    board.place(cell(G4, 4, 4), 1)
    assert board.values[cell(G4, 4, 4)] == 1 and not board.has(cell(G4, 4, 3), 1)
    assert board.to_string() == "1" + "." * 14 + "1"
    assert board.unsolved() == 14 and not board.is_solved()


def test_contradictions() -> None:
    assert marks(G4, {}).contradiction() is None
    dup = marks(G4, {}, {(1, 1): 2, (1, 4): 2})
    c = dup.conflicts()
    assert c is not None and c.region == 0 and c.value == 2
    assert c.reason == "2 appears twice in row R1, at (1, 1) and (1, 4)"
    empty = marks(G4, {(2, 3): []})
    c = empty.contradiction()
    assert c is not None and c.reason == "cell (2, 3) has no candidate left"
    nowhere = marks(G4, {(r, 2): [1, 3, 4] for r in range(1, 5)})
    c = nowhere.contradiction()
    assert c is not None and c.reason == "2 has no place left in column C2"


def test_apply_and_progress() -> None:
    board = marks(G4, {(1, 1): [1, 2]})
    step = Step("t", "t", 3, "t", (), ((cell(G4, 1, 1), 2), (cell(G4, 1, 2), 3)), Pattern(), G4)
    assert board.progress(step)
    board.apply(step)
    assert board.candidates(cell(G4, 1, 1)) == [1] and board.candidates(cell(G4, 1, 2)) == [1, 2, 4]
    assert not board.progress(step)
    place = Step("t", "t", 1, "t", ((cell(G4, 1, 1), 1),), (), Pattern(), G4)
    assert board.progress(place)
    board.apply(place)
    assert board.values[cell(G4, 1, 1)] == 1 and not board.progress(place)
    copy = board.copy()
    copy.eliminate(cell(G4, 4, 4), 4)
    assert board.has(cell(G4, 4, 4), 4)
