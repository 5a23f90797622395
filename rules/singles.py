"""Level 1 and 2: single position (rule 2.1) and single candidate (rule 2.2)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from grader.core import phrases
from grader.core.board import Board
from grader.core.rule import Rule
from grader.core.steps import Pattern, Step
from grader.kernel.c import Family, NativeRule

FULL_HOUSE = phrases.FULL_HOUSE


def _excluders(board: Board, value: int, cells: list[int]) -> tuple[int, ...]:
    """For each cell of ``cells``, a placed peer holding ``value`` (the cell
    that excludes it), deduplicated, in cell order."""
    geo = board.geo
    vals = board.values
    row_of, col_of, blk_of = geo.cell_row, geo.cell_col, geo.cell_block
    # where value is placed, by row, column and block (once each at most)
    rows: dict[int, int] = {}
    cols: dict[int, int] = {}
    blks: dict[int, int] = {}
    p = -1
    try:
        while True:
            p = vals.index(value, p + 1)
            rows[row_of[p]] = p
            cols[col_of[p]] = p
            blks[blk_of[p]] = p
    except ValueError:
        pass
    out: set[int] = set()
    for c in cells:
        # the first placed peer in cell order
        best = -1
        for q in (rows.get(row_of[c], -1), cols.get(col_of[c], -1), blks.get(blk_of[c], -1)):
            if q >= 0 and (best < 0 or q < best):
                best = q
        if best >= 0:
            out.add(best)
    return tuple(sorted(out))


def _removers(step: Step, keep: Callable[[int, int], bool]) -> list[tuple[int, str, list[int]]]:
    """The earlier steps that removed candidates the step relies on (its
    ``removed_by``, filled by the explainer's walk), those ``keep(cell,
    value)`` accepts: (step number, step name, cells), by number (0: the
    position as given)."""
    out: dict[int, tuple[str, list[int]]] = {}
    for c, w, number, name in step.removed_by:
        if keep(c, w):
            out.setdefault(number, (name, []))[1].append(c)
    return [(n, name, sorted(set(cells))) for n, (name, cells) in sorted(out.items())]


def _removed_values(step: Step, cell: int) -> str:
    """``the X-Wing of step 25 removed 4; the naked pair of step 30 removed
    7 and 8``: the earlier steps that removed the candidates of ``cell`` that
    no placed peer rules out (all of them, in a walk; empty when none is
    known)."""
    geo = step.geo
    by: dict[int, tuple[str, list[int]]] = {}
    for c, w, number, name in step.removed_by:
        if c == cell:
            by.setdefault(number, (name, []))[1].append(w)
    parts = [f"the {name} of step {n} removed {phrases.values(geo, sorted(ws))}" if n else
             f"{phrases.values(geo, sorted(ws))} {'was' if len(ws) == 1 else 'were'} not among "
             f"its candidates in the position as given"
             for n, (name, ws) in sorted(by.items())]
    return "; ".join(parts)


_ORDERS: dict[int, tuple[int, ...]] = {}


class SinglePosition(Rule):
    """Rule 2.1: in a region, a value possible in exactly one cell goes there.

    Order: columns C1..Cn, then rows R1..Rn, then blocks B1..Bn; values
    ascending within a region.  A value single in several regions of its cell
    is reported in the first of them (the book's examples name the column
    first, then the row) and the others are kept in the pattern as ``also``:
    ``in column C6 (and row R8 and block B8), 3 can only go in (8, 6)``."""

    family = "single-position"
    kind = "placement"
    default_name = "single position"
    default_reference = "rule 2.1"

    def find(self, board: Board) -> Iterator[Step]:
        cands = board.cands
        geo = board.geo
        regions = geo.regions
        for r in self._order(geo.n):
            cells = regions[r]
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

    def native(self) -> NativeRule:
        return NativeRule.of(Family.SINGLES, kind=1)

    @staticmethod
    def support(step: Step) -> list[tuple[int, int]]:
        """The value is absent from the region's other cells."""
        (cell, v), = step.placements
        region = (step.pattern.regions_with("region")
                  or step.pattern.regions_with("full-house"))[0]
        return [(c, v) for c in step.geo.regions[region] if c != cell]

    def _step(self, board: Board, region: int, cell: int, v: int) -> Step:
        if not self.record:
            return self.make(board, placements=((cell, v),), pattern=Pattern(
                cells=((cell, "target"),), regions=((region, "region"),), values=(v,)))
        geo = board.geo
        vals, cands = board.values, board.cands
        full = self._full_house(board, region, cell)
        if full is not None:
            return self.make(board, placements=((cell, v),), pattern=Pattern(
                cells=((cell, "target"),), regions=((full, FULL_HOUSE),), values=(v,)))
        bit = 1 << (v - 1)
        # the cell's other regions where v has this single position too ("also")
        also = []
        for r in geo.cell_regions[cell]:
            if r != region:
                for c in geo.regions[r]:
                    if c != cell and cands[c] & bit:
                        break
                else:
                    also.append(r)
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
    def _full_house(board: Board, region: int, cell: int) -> int | None:
        """The first region of ``cell`` (``region`` first, then columns, rows,
        blocks) in which ``cell`` is the only empty cell, or None."""
        geo, vals = board.geo, board.values
        order = sorted(geo.cell_regions[cell], key=lambda g: (1, 0, 2)[geo.region_kind[g]])
        for r in (region, *order):
            if all(vals[c] or c == cell for c in geo.regions[r]):
                return r
        return None

    @staticmethod
    def _order(n: int) -> tuple[int, ...]:
        """Region ids in search order: columns, rows, blocks."""
        order = _ORDERS.get(n)
        if order is None:
            order = _ORDERS[n] = tuple(range(n, 2 * n)) + tuple(range(n)) + tuple(
                range(2 * n, 3 * n))
        return order

    @staticmethod
    def common_name(step: Step) -> str:
        """A full house, else a hidden single."""
        return "full house" if step.pattern.regions_with(FULL_HOUSE) else "hidden single"

    @staticmethod
    def where(step: Step) -> str:
        geo = step.geo
        full = step.pattern.regions_with(FULL_HOUSE)
        if full:
            return f"look at {geo.region_long_name(full[0])}: only one of its cells is still empty"
        region = step.pattern.regions_with("region")[0]
        return (f"look at {geo.region_long_name(region)}: one value has a single possible cell "
                f"there")

    @staticmethod
    def summarize(step: Step) -> str:
        geo = step.geo
        (cell, v), = step.placements
        full = step.pattern.regions_with(FULL_HOUSE)
        if full:
            return _full_house_reason(step, full[0], named=True)
        region = step.pattern.regions_with("region")[0]
        also = step.pattern.regions_with("also")
        where = geo.region_long_name(region)
        if also:
            where += " (and " + " and ".join(geo.region_long_name(r) for r in also) + ")"
        return f"in {where}, {geo.symbol(v)} can only go in {geo.cell_name(cell)}"

    @staticmethod
    def teach(step: Step) -> str:
        geo = step.geo
        (cell, v), = step.placements
        sv, cn = geo.symbol(v), geo.cell_name(cell)
        full = step.pattern.regions_with(FULL_HOUSE)
        if full:
            kind = phrases.kind_word(geo, full[0])
            return (f"A full house: {_full_house_reason(step, full[0])}. A {kind} holds each "
                    f"of the {geo.n} values exactly once, so {cn} <- {sv}.")
        region = step.pattern.regions_with("region")[0]
        rname, rset = geo.region_name(region), geo.region_set[region]
        reasons = []
        for e in step.pattern.cells_with("excluder"):
            via = [r for r in geo.cell_regions[e] if r != region and geo.region_set[r] & rset]
            if via:
                reasons.append(f"the {sv} in {geo.cell_name(e)} rules out the cells of {rname} "
                               f"in {phrases.regions(geo, via, long=True)}")
        for number, name, cells in _removers(step, lambda c, w: w == v and c in rset):
            where = phrases.cells(geo, cells)
            reasons.append(f"the {name} of step {number} removed {sv} from {where}" if number
                           else f"{where} could not hold {sv} in the position as given")
        text = (f"Look at {geo.region_long_name(region)}: {sv} is not placed there yet. "
                f"Apart from {cn}, every cell of {rname} is either filled or cannot hold {sv}")
        text += (": " + "; ".join(reasons) + ". ") if reasons else (
            f": earlier deductions removed {sv} from the empty ones. ")
        text += f"So {sv} can only go in {cn}: {cn} <- {sv}."
        also = step.pattern.regions_with("also")
        if also:
            text += (f" In {phrases.regions(geo, also, long=True)} too, {cn} is the only place "
                     f"left for {sv}.")
        return text


def _full_house_reason(step: Step, region: int, named: bool = False) -> str:
    """``(3, 5) is the last empty cell of row R3; the only value missing there
    is 7`` (with ``named``, ``(a full house)`` after the row)."""
    geo = step.geo
    (cell, v), = step.placements
    name = " (a full house)" if named else ""
    return (f"{geo.cell_name(cell)} is the last empty cell of {geo.region_long_name(region)}"
            f"{name}; the only value missing there is {geo.symbol(v)}")


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

    def native(self) -> NativeRule:
        return NativeRule.of(Family.SINGLES, kind=2)

    @staticmethod
    def support(step: Step) -> list[tuple[int, int]]:
        """The cell's other values are absent."""
        (cell, v), = step.placements
        return [(cell, w) for w in range(1, step.geo.n + 1) if w != v]

    def _step(self, board: Board, cell: int, v: int) -> Step:
        if not self.record:
            return self.make(board, placements=((cell, v),),
                             pattern=Pattern(cells=((cell, "target"),), values=(v,)))
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
    def common_name(step: Step) -> str:
        return "naked single"

    @staticmethod
    def where(step: Step) -> str:
        geo = step.geo
        (cell, _), = step.placements
        block = 2 * geo.n + geo.cell_block[cell]
        return (f"look at {geo.region_long_name(block)}: one of its cells has a single candidate "
                f"left")

    @staticmethod
    def summarize(step: Step) -> str:
        geo = step.geo
        (cell, v), = step.placements
        return f"{geo.symbol(v)} is the only candidate left in {geo.cell_name(cell)}"

    @staticmethod
    def teach(step: Step) -> str:
        geo = step.geo
        (cell, v), = step.placements
        sv, cn = geo.symbol(v), geo.cell_name(cell)
        where = phrases.regions(geo, geo.cell_regions[cell], long=True)
        exc = step.pattern.cells_with("excluder")
        text = f"Look at cell {cn}, where {where} cross. "
        removed = (_removed_values(step, cell)
                   or f"earlier deductions removed the other candidates except {sv}")
        if len(exc) == 1:
            text += (f"The only value placed in these regions so far is the one in "
                     f"{phrases.cells(geo, exc)}; {removed}. ")
        elif exc:
            text += (f"The values already placed in these regions, in "
                     f"{phrases.cells(geo, exc)}, are {len(exc)} different values")
            text += ", all but " + sv + ". " if len(exc) == geo.n - 1 else f"; {removed}. "
        else:
            said = (_removed_values(step, cell)
                    or f"earlier deductions removed every candidate except {sv}")
            text += f"{said[0].upper()}{said[1:]}. "
        return text + f"Only {sv} is left: {cn} <- {sv}."
