"""The board: placed values and candidate bitmasks over a :class:`Geometry`.

Rules only *read* a board; the engine mutates it by applying steps.  A filled
cell has candidate mask 0; an empty cell with mask 0 is a contradiction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from grader.core.geometry import Geometry, geometry_for_size, values_of
from grader.core.tokens import parse_values

if TYPE_CHECKING:
    from grader.core.steps import Step


class Contradiction(Exception):
    """The board cannot be completed: an empty cell with no candidate, a value
    with no place left in a region, or a value placed twice in a region."""

    def __init__(self, reason: str, cells: tuple[int, ...] = (), region: int | None = None,
                 value: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.cells = cells
        self.region = region
        self.value = value


class Board:
    """Values (0 for empty) and candidate masks, one per cell.

    ``solution`` is an optional hint set by the engine: the grid's solution,
    known from the exact solver and consistent with the board.  Trials use it
    only to skip assumptions that can never end in a contradiction; it never
    decides a step.  :meth:`copy` does not carry it over, because a copy is
    usually a trial branch that may no longer agree with it."""

    __slots__ = ("geo", "values", "cands", "solution")

    def __init__(self, geo: Geometry, values: list[int], cands: list[int],
                 solution: tuple[int, ...] | None = None) -> None:
        self.geo = geo
        self.values = values
        self.cands = cands
        self.solution = solution

    # -- construction --------------------------------------------------
    @classmethod
    def from_values(cls, geo: Geometry, values: Sequence[int]) -> Board:
        """A board whose candidates are everything the givens allow.

        Conflicting givens are not rejected here (see :meth:`conflicts`)."""
        n2 = geo.ncells
        if len(values) != n2:
            raise ValueError(f"expected {n2} values, got {len(values)}")
        vals = list(values)
        # a cell's candidates: the values none of its row, column and block holds
        used = []
        for cells in geo.regions:
            m = 0
            for c in cells:
                v = vals[c]
                if v:
                    m |= 1 << (v - 1)
            used.append(m)
        full = geo.full
        cands = [0 if v else full & ~(used[r0] | used[r1] | used[r2])
                 for v, (r0, r1, r2) in zip(vals, geo.cell_regions, strict=True)]
        return cls(geo, vals, cands)

    @classmethod
    def from_string(cls, text: str, box: tuple[int, int] | None = None) -> Board:
        """Parse a one-line grid (see :mod:`grader.formats` for every format)."""
        return cls.from_values(*parse_values(text.strip(), box=box))

    @classmethod
    def from_candidates(cls, geo: Geometry, cands: Sequence[int],
                        values: Sequence[int] | None = None) -> Board:
        """A board from explicit candidate masks (pencil marks).

        Cells with exactly one candidate are *not* placed automatically; cells
        given in ``values`` are placed."""
        vals = list(values) if values is not None else [0] * geo.ncells
        cm = [0 if vals[c] else cands[c] for c in range(geo.ncells)]
        return cls(geo, vals, cm)

    def copy(self) -> Board:
        return Board(self.geo, self.values[:], self.cands[:])

    # -- mutation (engine only) ----------------------------------------
    def place(self, cell: int, value: int) -> None:
        """Place ``value`` in ``cell`` and remove it from the cell's peers."""
        self.values[cell] = value
        self.cands[cell] = 0
        nb = ~(1 << (value - 1))
        cands = self.cands
        for p in self.geo.peers[cell]:
            cands[p] &= nb

    def eliminate(self, cell: int, value: int) -> None:
        self.cands[cell] &= ~(1 << (value - 1))

    def apply(self, step: Step) -> None:
        """Apply a step's placements then its eliminations."""
        for cell, v in step.placements:
            if not self.values[cell]:
                self.place(cell, v)
        for cell, v in step.eliminations:
            self.cands[cell] &= ~(1 << (v - 1))

    def progress(self, step: Step) -> bool:
        """Whether applying ``step`` would change the board."""
        for cell, _v in step.placements:
            if not self.values[cell]:
                return True
        cands = self.cands
        for cell, v in step.eliminations:
            if cands[cell] >> (v - 1) & 1:
                return True
        return False

    # -- queries -------------------------------------------------------
    def candidates(self, cell: int) -> list[int]:
        return values_of(self.cands[cell])

    def has(self, cell: int, value: int) -> bool:
        return bool(self.cands[cell] >> (value - 1) & 1)

    def positions(self, region: int, value: int) -> list[int]:
        """Cells of ``region`` that still admit ``value``."""
        bit = 1 << (value - 1)
        return [c for c in self.geo.regions[region] if self.cands[c] & bit]

    def placed_mask(self, region: int) -> int:
        m = 0
        vals = self.values
        for c in self.geo.regions[region]:
            v = vals[c]
            if v:
                m |= 1 << (v - 1)
        return m

    def empty_cells(self) -> list[int]:
        return [c for c, v in enumerate(self.values) if not v]

    def unsolved(self) -> int:
        return self.values.count(0)

    def is_solved(self) -> bool:
        return 0 not in self.values

    def conflicts(self) -> Contradiction | None:
        """A value placed twice in some region, or None."""
        geo = self.geo
        vals = self.values
        for r, cells in enumerate(geo.regions):
            seen: dict[int, int] = {}
            for c in cells:
                v = vals[c]
                if v:
                    if v in seen:
                        return Contradiction(
                            f"{geo.symbol(v)} appears twice in {geo.region_long_name(r)}, "
                            f"at {geo.cell_name(seen[v])} and {geo.cell_name(c)}",
                            cells=(seen[v], c), region=r, value=v)
                    seen[v] = c
        return None

    def contradiction(self) -> Contradiction | None:
        """The first contradiction on the board, or None when it is consistent.

        Checked in this order: a value placed twice in a region (regions in
        order), an empty cell without candidate (cells in order), a value with
        no place left in a region (regions in order, smallest value).
        Pure Python: an engine's kernel may answer faster
        (:meth:`grader.kernel.Kernel.contradiction`)."""
        dup = self.conflicts()
        if dup is not None:
            return dup
        geo = self.geo
        vals, cands = self.values, self.cands
        for c in range(geo.ncells):
            if not vals[c] and not cands[c]:
                return Contradiction(f"cell {geo.cell_name(c)} has no candidate left", cells=(c,))
        for r, cells in enumerate(geo.regions):
            have = 0
            for c in cells:
                have |= cands[c]
                if vals[c]:
                    have |= 1 << (vals[c] - 1)
            missing = geo.full & ~have
            if missing:
                v = missing.bit_length() if missing & (missing - 1) == 0 else values_of(missing)[0]
                return Contradiction(
                    f"{geo.symbol(v)} has no place left in {geo.region_long_name(r)}",
                    region=r, value=v)
        return None

    #: The older name of :meth:`contradiction`.
    contradiction_python = contradiction

    # -- rendering -----------------------------------------------------
    def to_string(self, empty: str = ".") -> str:
        sym = self.geo.symbols
        return "".join(sym[v - 1] if v else empty for v in self.values)

    def candidate_string(self) -> str:
        """Candidates of every cell (placed cells as their value), one cell per
        space-separated token, row by row."""
        sym = self.geo.symbols
        out = []
        for c in range(self.geo.ncells):
            if self.values[c]:
                out.append(sym[self.values[c] - 1])
            else:
                out.append("".join(sym[v - 1] for v in values_of(self.cands[c])) or "-")
        return " ".join(out)

    def __repr__(self) -> str:
        return f"Board({self.geo.n}x{self.geo.n}, {self.to_string()})"

    @property
    def size(self) -> int:
        return self.geo.n

    def with_placements(self, placements: Iterable[tuple[int, int]]) -> Board:
        b = self.copy()
        for cell, v in placements:
            b.place(cell, v)
        return b


def board_from_values(values: Sequence[int], box: tuple[int, int] | None = None) -> Board:
    """Convenience: infer the size from the number of values."""
    from math import isqrt

    n = isqrt(len(values))
    if n * n != len(values):
        raise ValueError(f"{len(values)} values is not a square grid")
    return Board.from_values(geometry_for_size(n, box), values)
