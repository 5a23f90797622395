"""Level 1 and 2: single position (rule 2.1) and single candidate (rule 2.2)."""

from __future__ import annotations

from collections.abc import Iterator

from grader.board import Board
from grader.rule import Rule
from grader.steps import Pattern, Step


def _excluders(board: Board, value: int, cells: list[int]) -> tuple[int, ...]:
    """For each cell of ``cells``, a placed peer holding ``value`` (the cell
    that excludes it), deduplicated, in cell order."""
    geo = board.geo
    vals = board.values
    out: list[int] = []
    for c in cells:
        for p in geo.peers[c]:
            if vals[p] == value:
                if p not in out:
                    out.append(p)
                break
    return tuple(sorted(out))


class SinglePosition(Rule):
    """Rule 2.1: in a region, a value possible in exactly one cell goes there.

    Order: regions R1..Rn, C1..Cn, B1..Bn; values ascending within a region."""

    family = "single-position"
    kind = "placement"
    default_name = "single position"
    default_reference = "rule 2.1"

    def find(self, board: Board) -> Iterator[Step]:
        cands = board.cands
        geo = board.geo
        for r, cells in enumerate(geo.regions):
            once = twice = 0
            for c in cells:
                m = cands[c]
                twice |= once & m
                once |= m
            hidden = once & ~twice
            while hidden:
                bit = hidden & -hidden
                hidden ^= bit
                v = bit.bit_length()
                for c in cells:
                    if cands[c] & bit:
                        yield self._step(board, r, c, v)
                        break

    def native(self) -> tuple[int, int, int]:
        return (0, 0, 0)

    def _step(self, board: Board, region: int, cell: int, v: int) -> Step:
        geo = board.geo
        vals, cands = board.values, board.cands
        bit = 1 << (v - 1)
        # the cell's other regions where v has this single position too ("also")
        also = [r for r in geo.cell_regions[cell] if r != region
                and not any(cands[c] & bit for c in geo.regions[r] if c != cell)]
        others = [c for r in (region, *also) for c in geo.regions[r]
                  if c != cell and not vals[c]]
        exc = _excluders(board, v, others)
        return self.make(
            board,
            placements=((cell, v),),
            pattern=Pattern(
                cells=((cell, "target"),) + tuple((p, "excluder") for p in exc),
                regions=((region, "region"),) + tuple((r, "also") for r in also),
                values=(v,),
            ),
        )

    @staticmethod
    def summarize(step: Step) -> str:
        geo = step.geo
        (cell, v), = step.placements
        region = step.pattern.regions_with("region")[0]
        also = step.pattern.regions_with("also")
        where = geo.region_long_name(region)
        if also:
            where += " (and " + " and ".join(geo.region_long_name(r) for r in also) + ")"
        return f"in {where}, {geo.symbol(v)} can only go in {geo.cell_name(cell)}"


class SingleCandidate(Rule):
    """Rule 2.2: a cell with exactly one candidate left gets it.  Cell order."""

    family = "single-candidate"
    kind = "placement"
    default_name = "single candidate"
    default_reference = "rule 2.2"

    def find(self, board: Board) -> Iterator[Step]:
        vals = board.values
        for c, m in enumerate(board.cands):
            if m and not m & (m - 1) and not vals[c]:
                yield self._step(board, c, m.bit_length())

    def native(self) -> tuple[int, int, int]:
        return (0, 0, 0)

    def _step(self, board: Board, cell: int, v: int) -> Step:
        geo = board.geo
        vals = board.values
        seen: dict[int, int] = {}
        for p in geo.peers[cell]:
            w = vals[p]
            if w and w != v and w not in seen:
                seen[w] = p
        return self.make(
            board,
            placements=((cell, v),),
            pattern=Pattern(
                cells=((cell, "target"),) + tuple((seen[w], "excluder") for w in sorted(seen)),
                values=(v,),
            ),
        )

    @staticmethod
    def summarize(step: Step) -> str:
        geo = step.geo
        (cell, v), = step.placements
        return f"{geo.symbol(v)} is the only candidate left in {geo.cell_name(cell)}"
