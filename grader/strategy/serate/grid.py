"""Sudoku Explainer's grid model, 9x9 only: regions, their cell orders and
the scan orders its rules use (see docs/se-scale.md).

A position is two lists of 81 ints: ``values`` (0 for an empty cell) and
``cands`` (bit ``v - 1`` for candidate ``v``; 0 for a filled cell).  Regions
are numbered as Sudoku Explainer lists them: 0-8 the blocks (row-major, cells
row-major inside), 9-17 the rows (cells left to right), 18-26 the columns
(cells top to bottom).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

BLOCK, ROW, COLUMN = 0, 1, 2


def _regions() -> tuple[tuple[int, ...], ...]:
    blocks = [tuple((b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9))
              for b in range(9)]
    rows = [tuple(r * 9 + i for i in range(9)) for r in range(9)]
    cols = [tuple(i * 9 + c for i in range(9)) for c in range(9)]
    return tuple(blocks + rows + cols)


#: The cells of each region, in Sudoku Explainer's order.
REGIONS = _regions()
#: The region of each kind (BLOCK, ROW, COLUMN) that holds a cell.
CELL_REGIONS: tuple[tuple[int, int, int], ...] = tuple(
    (c // 27 * 3 + c % 9 // 3, 9 + c // 9, 18 + c % 9) for c in range(81))
#: Region masks over cells (bit c for cell c).
REGION_MASK = tuple(sum(1 << c for c in cells) for cells in REGIONS)


def _house(c: int) -> tuple[int, ...]:
    seen: list[int] = []
    for r in CELL_REGIONS[c]:
        for x in REGIONS[r]:
            if x != c and x not in seen:
                seen.append(x)
    return tuple(seen)


#: The 20 peers of a cell: its block's cells, then its row's, then its
#: column's (``Cell.getHouseCells``).
HOUSE = tuple(_house(c) for c in range(81))
HOUSE_MASK = tuple(sum(1 << x for x in HOUSE[c]) for c in range(81))


def kind(region: int) -> int:
    return region // 9


def regions_of(kind_: int) -> range:
    return range(kind_ * 9, kind_ * 9 + 9)


def crosses(r1: int, r2: int) -> bool:
    return bool(REGION_MASK[r1] & REGION_MASK[r2])


@cache
def combos(k: int, n: int = 9) -> tuple[tuple[int, ...], ...]:
    """The k-subsets of 0..n-1 in increasing order of their bitmask
    (``Permutations``, Gosper's order)."""
    out = []
    for mask in range(1 << n):
        if mask.bit_count() == k:
            out.append(tuple(i for i in range(n) if mask >> i & 1))
    return tuple(out)


def bits(mask: int) -> list[int]:
    """Set bit numbers, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def candidates_of(values: Sequence[int]) -> list[int]:
    """Every candidate the givens allow (``Grid.rebuildPotentialValues``)."""
    cands = []
    for c in range(81):
        if values[c]:
            cands.append(0)
            continue
        used = 0
        for x in HOUSE[c]:
            if values[x]:
                used |= 1 << (values[x] - 1)
        cands.append(0x1FF & ~used)
    return cands


def positions(cands: Sequence[int], region: int, v: int) -> int:
    """The positions (0-8, a 9-bit mask) of value ``v`` in ``region``."""
    bit = 1 << (v - 1)
    out = 0
    for i, c in enumerate(REGIONS[region]):
        if cands[c] & bit:
            out |= 1 << i
    return out


def empty_count(values: Sequence[int], region: int) -> int:
    return sum(1 for c in REGIONS[region] if not values[c])


def place(values: list[int], cands: list[int], cell: int, v: int) -> None:
    """``Cell.setValueAndCancel``: set the value, clear the cell's candidates
    and remove ``v`` from its peers."""
    values[cell] = v
    cands[cell] = 0
    bit = ~(1 << (v - 1))
    for x in HOUSE[cell]:
        cands[x] &= bit


def cell_name(c: int) -> str:
    return f"r{c // 9 + 1}c{c % 9 + 1}"
