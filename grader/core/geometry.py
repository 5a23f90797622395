"""Grid geometry: regions, peers, bands and stacks, computed once per shape.

A grid has side ``n = a * b`` with blocks of ``a`` rows by ``b`` columns.
Cells are numbered ``0 .. n*n - 1`` row by row.  Regions are numbered
``0 .. 3n - 1``: rows first (``R1..Rn``), then columns (``C1..Cn``), then
blocks (``B1..Bn``, left to right then top to bottom).  Values are ``1..n``;
value ``v`` is bit ``v - 1`` of a candidate mask.
"""

from __future__ import annotations

from functools import cache
from math import isqrt

#: Symbols for values 1..n: digits, then letters (A = 10).
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ@"
#: Characters that mean "empty cell" in one-line grids.
EMPTY_SYMBOLS = ".0-*_"
#: The grid sizes the project supports with their default block shapes.
SUPPORTED_SIZES = (4, 6, 8, 9, 12, 16, 25, 36)

ROW, COL, BLOCK = 0, 1, 2
KIND_NAMES = ("row", "column", "block")
KIND_LETTERS = ("R", "C", "B")


def default_box(n: int) -> tuple[int, int]:
    """Block shape (rows, columns) for side ``n``: the most square, with rows <= columns."""
    a = isqrt(n)
    while a > 1 and n % a:
        a -= 1
    return a, n // a


class Geometry:
    """Precomputed structure of an ``n x n`` grid with ``a x b`` blocks.

    Instances are shared: use :func:`geometry` to obtain one.
    """

    __slots__ = (
        "a", "b", "n", "ncells", "full", "rows", "cols", "blocks", "regions",
        "cell_row", "cell_col", "cell_block", "cell_regions", "peers", "peer_sets",
        "bands", "stacks", "block_rows", "block_cols", "region_kind", "region_index",
        "region_set", "symbols", "bits",
    )

    def __init__(self, a: int, b: int) -> None:
        if a < 1 or b < 1:
            raise ValueError(f"invalid block shape {a}x{b}")
        n = a * b
        if n > len(SYMBOLS):
            raise ValueError(f"grids larger than {len(SYMBOLS)}x{len(SYMBOLS)} are not supported")
        self.a, self.b, self.n = a, b, n
        self.ncells = n * n
        self.full = (1 << n) - 1
        self.symbols = SYMBOLS[:n]
        self.bits = tuple(1 << v for v in range(n))
        rows = tuple(tuple(r * n + c for c in range(n)) for r in range(n))
        cols = tuple(tuple(r * n + c for r in range(n)) for c in range(n))
        per_band = n // b  # blocks side by side in a band (== a)
        blocks = []
        for k in range(n):
            r0 = (k // per_band) * a
            c0 = (k % per_band) * b
            blocks.append(tuple((r0 + i) * n + c0 + j for i in range(a) for j in range(b)))
        self.rows, self.cols, self.blocks = rows, cols, tuple(blocks)
        self.regions = rows + cols + self.blocks
        self.region_kind = tuple([ROW] * n + [COL] * n + [BLOCK] * n)
        self.region_index = tuple(list(range(n)) * 3)
        self.region_set = tuple(frozenset(r) for r in self.regions)
        self.cell_row = tuple(c // n for c in range(self.ncells))
        self.cell_col = tuple(c % n for c in range(self.ncells))
        self.cell_block = tuple(
            (c // n // a) * per_band + (c % n) // b for c in range(self.ncells)
        )
        self.cell_regions = tuple(
            (self.cell_row[c], n + self.cell_col[c], 2 * n + self.cell_block[c])
            for c in range(self.ncells)
        )
        peers = []
        for c in range(self.ncells):
            s: set[int] = set()
            for r in self.cell_regions[c]:
                s.update(self.regions[r])
            s.discard(c)
            peers.append(tuple(sorted(s)))
        self.peers = tuple(peers)
        self.peer_sets = tuple(frozenset(p) for p in peers)
        # bands: rows of blocks; stacks: columns of blocks (block indices 0..n-1)
        nbands = n // a  # == b
        self.bands = tuple(tuple(range(i * per_band, (i + 1) * per_band)) for i in range(nbands))
        self.stacks = tuple(tuple(range(j, n, per_band)) for j in range(per_band))
        self.block_rows = tuple(
            tuple(sorted({self.cell_row[c] for c in blk})) for blk in self.blocks
        )
        self.block_cols = tuple(
            tuple(sorted({self.cell_col[c] for c in blk})) for blk in self.blocks
        )

    # -- naming in the book's notation ---------------------------------
    def cell_name(self, cell: int) -> str:
        """``(i, j)`` with 1-based row and column."""
        return f"({self.cell_row[cell] + 1}, {self.cell_col[cell] + 1})"

    def region_name(self, region: int) -> str:
        """``R3``, ``C6`` or ``B2``."""
        return f"{KIND_LETTERS[self.region_kind[region]]}{self.region_index[region] + 1}"

    def region_long_name(self, region: int) -> str:
        """``row R3``, ``column C6`` or ``block B2``."""
        return f"{KIND_NAMES[self.region_kind[region]]} {self.region_name(region)}"

    def symbol(self, value: int) -> str:
        return self.symbols[value - 1]

    def row_region(self, r: int) -> int:
        return r

    def col_region(self, c: int) -> int:
        return self.n + c

    def block_region(self, k: int) -> int:
        return 2 * self.n + k

    def __repr__(self) -> str:
        return f"Geometry({self.n}x{self.n}, box {self.a}x{self.b})"

    @property
    def box(self) -> str:
        return f"{self.a}x{self.b}"


@cache
def geometry(a: int, b: int) -> Geometry:
    """The shared :class:`Geometry` for blocks of ``a`` rows by ``b`` columns."""
    return Geometry(a, b)


def geometry_for_size(n: int, box: tuple[int, int] | None = None) -> Geometry:
    """Geometry of side ``n``, with the default block shape unless ``box`` is given."""
    if box is None:
        a, b = default_box(n)
    else:
        a, b = box
        if a * b != n:
            raise ValueError(f"block shape {a}x{b} does not fit a {n}x{n} grid")
    return geometry(a, b)


def parse_box(text: str) -> tuple[int, int]:
    """Parse ``"AxB"`` (rows x columns of a block)."""
    parts = text.lower().replace("*", "x").split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"box must look like 2x3, got {text!r}")
    a, b = int(parts[0]), int(parts[1])
    if a < 1 or b < 1:
        raise ValueError(f"box must have positive sides, got {text!r}")
    return a, b


def values_of(mask: int) -> list[int]:
    """The values (1-based) whose bits are set in ``mask``, ascending."""
    out = []
    v = 1
    while mask:
        if mask & 1:
            out.append(v)
        mask >>= 1
        v += 1
    return out


def single_value(mask: int) -> int:
    """The value of a one-bit mask."""
    return mask.bit_length()
