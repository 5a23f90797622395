"""Hints of the expert families and the position they read.

A :class:`Hint` is frozen data: what a pattern or chain concludes
(placements, eliminations), the cells and links that make it, the family as
players name it, and its rating in tenths of Sudoku Explainer's scale (an
integer, so that ratings compare exactly).

A :class:`Position` is a read-only view of a board for the finders: one
bitmask of cells per digit and the geometry's cell masks, computed once.
Cell sets are integers (bit ``c`` for cell ``c``); digits are ``1..n``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from grader.core.board import Board
from grader.core.geometry import Geometry

Cand = tuple[int, int]  # (cell, digit)


@dataclass(frozen=True, slots=True)
class Hint:
    """One conclusion-bearing pattern or chain."""

    family: str
    rating: int  # tenths: 42 is 4.2
    placements: tuple[Cand, ...]
    eliminations: tuple[Cand, ...]
    cells: tuple[int, ...]
    #: strong-link chains, empty rectangles, Y-cycles: ``(cell, cell, digit)``
    #: links in the order they are read; X-chains and forcing chains: the
    #: chain's facts in order, ``(cell, digit, on)`` each
    links: tuple[tuple[int, int, int], ...] = ()

    @property
    def se(self) -> float:
        return self.rating / 10


def length_tenths(facts: int) -> int:
    """SE's length increment in tenths for a chain of ``facts`` facts: with
    ``L = facts - 2``, one tenth each time L passes 4, 6, 8, 12, 16, 24, ..."""
    length = facts - 2
    ceil, odd, added = 4, False, 0
    while length > ceil:
        added += 1
        ceil = ceil * 4 // 3 if odd else ceil * 3 // 2
        odd = not odd
    return added


@dataclass(frozen=True)
class Masks:
    """Cell masks of a geometry: peers, units (rows, columns, blocks)."""

    peer: tuple[int, ...]
    unit: tuple[int, ...]
    cell_units: tuple[tuple[int, int, int], ...]
    kind: tuple[int, ...]  # 0 row, 1 column, 2 block


@lru_cache(maxsize=16)
def masks(geo: Geometry) -> Masks:
    peer = tuple(sum(1 << p for p in ps) for ps in geo.peers)
    unit = tuple(sum(1 << c for c in cells) for cells in geo.regions)
    return Masks(peer, unit, geo.cell_regions, geo.region_kind)


def bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask`` (cell indices or digit - 1), ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cell_list(mask: int) -> list[int]:
    return list(bits(mask))


class Position:
    """A board seen by the finders (read only)."""

    __slots__ = ("geo", "n", "values", "cands", "dm", "m", "open")

    def __init__(self, board: Board) -> None:
        geo = board.geo
        self.geo = geo
        self.n = geo.n
        self.values = board.values
        self.cands = board.cands
        self.m = masks(geo)
        dm = [0] * (geo.n + 1)
        open_ = 0
        for c, cm in enumerate(board.cands):
            if cm:
                open_ |= 1 << c
                while cm:
                    low = cm & -cm
                    dm[low.bit_length()] |= 1 << c
                    cm ^= low
        self.dm = dm
        self.open = open_

    def has(self, cell: int, d: int) -> bool:
        return bool(self.cands[cell] >> (d - 1) & 1)

    def elims(self, cellmask: int, d: int) -> tuple[Cand, ...]:
        """(cell, d) for the cells of ``cellmask`` that still hold ``d``."""
        return tuple((c, d) for c in bits(cellmask & self.dm[d]))

    def places(self, unit: int, d: int) -> int:
        return self.dm[d] & self.m.unit[unit]
