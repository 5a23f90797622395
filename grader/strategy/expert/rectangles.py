"""Unique rectangles (types 1-4, 4.5-4.8) and jellyfish (5.2).

A unique rectangle: four open cells in two rows, two columns and two blocks
that all hold digits a and b.  Were they all reduced to {a, b}, the two
digits could swap and the grid would have two solutions; the grids rated
here have one, so some cell keeps another digit."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from grader.strategy.expert.hint import Hint, Position, bits


def _rectangles(pos: Position) -> Iterator[tuple[int, int, int, int]]:
    """Corners (r1c1, r1c2, r2c1, r2c2) of open rectangles on two blocks."""
    geo = pos.geo
    n, op = geo.n, pos.open
    blk = geo.cell_block
    for r1, r2 in combinations(range(n), 2):
        for c1, c2 in combinations(range(n), 2):
            cells = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
            if any(not op >> c & 1 for c in cells):
                continue
            if len({blk[c] for c in cells}) == 2:
                yield cells


def _shared_units(pos: Position, a: int, b: int) -> list[int]:
    return [u for u in pos.geo.cell_regions[a] if u in pos.geo.cell_regions[b]]


def unique_rectangles(pos: Position) -> Iterator[Hint]:
    """Unique rectangles (types 1-4), then unique loops (one family)."""
    yield from _unique_rectangles(pos)
    yield from unique_loops(pos)


def _unique_rectangles(pos: Position) -> Iterator[Hint]:
    cands = pos.cands
    for rect in _rectangles(pos):
        common = cands[rect[0]] & cands[rect[1]] & cands[rect[2]] & cands[rect[3]]
        if common.bit_count() < 2:
            continue
        for da, db in combinations(list(bits(common)), 2):
            ab = 1 << da | 1 << db
            yield from _rectangle(pos, rect, ab, da + 1, db + 1)


def _rectangle(pos: Position, rect: tuple[int, int, int, int], ab: int, a: int, b: int,
               ) -> Iterator[Hint]:
    cands = pos.cands
    floor = [c for c in rect if cands[c] == ab]
    roof = [c for c in rect if cands[c] != ab]
    if len(floor) == 3:
        (c,) = roof
        yield Hint("unique rectangle type 1", 45, (), ((c, a), (c, b)), rect)
        return
    if len(floor) != 2:
        return
    r1, r2 = roof
    shared = _shared_units(pos, r1, r2)
    if not shared:
        return
    extra = (cands[r1] | cands[r2]) & ~ab
    if extra.bit_count() == 1 and cands[r1] == cands[r2]:
        d = extra.bit_length()
        elim = pos.elims(pos.m.peer[r1] & pos.m.peer[r2], d)
        if elim:
            yield Hint("unique rectangle type 2", 45, (), elim, rect)
    for u in shared:
        for keep, drop in ((a, b), (b, a)):
            if pos.places(u, keep) == (1 << r1 | 1 << r2):
                yield Hint("unique rectangle type 4", 45, (), ((r1, drop), (r2, drop)), rect)
    if extra.bit_count() >= 2:
        yield from _type3(pos, rect, r1, r2, extra, shared)


def _type3(pos: Position, rect: tuple[int, int, int, int], r1: int, r2: int, extra: int,
           shared: list[int]) -> Iterator[Hint]:
    cands = pos.cands
    for u in shared:
        others = [c for c in bits(pos.m.unit[u] & pos.open) if c not in (r1, r2)]
        for m in range(1, min(4, len(others))):
            for group in combinations(others, m):
                union = extra
                for c in group:
                    union |= cands[c]
                if union.bit_count() != m + 1:
                    continue
                elim = tuple((c, d + 1) for c in others if c not in group
                             for d in bits(cands[c] & union))
                if elim:
                    yield Hint("unique rectangle type 3", 45 + m, (), elim, (*rect, *group))


def jellyfish(pos: Position) -> Iterator[Hint]:
    """Four rows (columns) where a digit's places lie in four columns (rows):
    it leaves the rest of those columns (rows)."""
    n = pos.n
    for d in range(1, n + 1):
        dm = pos.dm[d]
        for base_kind in (0, 1):
            lines = []
            for i in range(n):
                u = base_kind * n + i
                p = dm & pos.m.unit[u]
                cover = 0
                for c in bits(p):
                    cover |= 1 << (c % n if base_kind == 0 else c // n)
                if 2 <= cover.bit_count() <= 4:
                    lines.append((i, cover, p))
            for quad in combinations(lines, 4):
                cover = quad[0][1] | quad[1][1] | quad[2][1] | quad[3][1]
                if cover.bit_count() != 4:
                    continue
                base = quad[0][2] | quad[1][2] | quad[2][2] | quad[3][2]
                coverm = 0
                for j in bits(cover):
                    coverm |= pos.m.unit[(1 - base_kind) * n + j]
                elim = pos.elims(coverm & ~base, d)
                if elim:
                    yield Hint("jellyfish", 52, (), elim, tuple(bits(base)))


def naked_quads(pos: Position) -> Iterator[Hint]:
    """Four cells of a unit holding four digits together: the digits leave the
    unit's other cells (5.0)."""
    cands = pos.cands
    for um in pos.m.unit:
        opens = list(bits(um & pos.open))
        small = [c for c in opens if cands[c].bit_count() <= 4]
        for group in combinations(small, 4):
            union = cands[group[0]] | cands[group[1]] | cands[group[2]] | cands[group[3]]
            if union.bit_count() != 4:
                continue
            elim = tuple((c, d + 1) for c in opens if c not in group
                         for d in bits(cands[c] & union))
            if elim:
                yield Hint("naked quad", 50, (), elim, group)


def hidden_quads(pos: Position) -> Iterator[Hint]:
    """Four digits whose places in a unit are four cells: the cells lose their
    other digits (5.4)."""
    cands = pos.cands
    for um in pos.m.unit:
        digits = [d for d in range(1, pos.n + 1) if 2 <= (pos.dm[d] & um).bit_count() <= 4]
        for quad in combinations(digits, 4):
            places = 0
            for d in quad:
                places |= pos.dm[d] & um
            if places.bit_count() != 4:
                continue
            keep = sum(1 << (d - 1) for d in quad)
            elim = tuple((c, e + 1) for c in bits(places) for e in bits(cands[c] & ~keep))
            if elim:
                yield Hint("hidden quad", 54, (), elim, tuple(bits(places)))


LOOP_RATING = {6: 46, 8: 47, 10: 48}


def unique_loops(pos: Position) -> Iterator[Hint]:
    """Unique loops of 6, 8 or 10 cells holding digits a and b: consecutive
    cells share a unit, every unit has 0 or 2 loop cells, one at an even and
    one at an odd place of the loop.  Were every cell {a, b}, the digits could
    swap around the loop.  Type 1: one cell has more digits: a and b leave it.  Type 2: the
    cells with more digits all have the same one more, z: z leaves the cells
    that see them all.  Type 4: two such cells in a unit where a (b) has no
    other place: b (a) leaves them.  4.6 / 4.7 / 4.8 by length."""
    cands = pos.cands
    for da, db in combinations(range(pos.n), 2):
        ab = 1 << da | 1 << db
        cells = _loop_cells(pos, sum(1 << c for c in bits(pos.open) if cands[c] & ab == ab))
        if len(cells) < 6:
            continue
        seen: set[int] = set()
        for loop in _loops(pos, cells, ab):
            key = sum(1 << c for c in loop)
            if key in seen:
                continue
            seen.add(key)
            yield from _loop_hints(pos, loop, ab, da + 1, db + 1)


def _loop_cells(pos: Position, inset: int) -> list[int]:
    """The cells of ``inset`` that can be on a loop: each of their units holds
    another such cell."""
    units, um = pos.geo.cell_regions, pos.m.unit
    while True:
        keep = inset
        for c in bits(inset):
            if any(not inset & um[u] & ~(1 << c) for u in units[c]):
                keep &= ~(1 << c)
        if keep == inset:
            return list(bits(inset))
        inset = keep


def _extra_state(ab: int, cands: int, state: tuple[int, int]) -> tuple[int, int]:
    """(cells with more than a and b, their common extra digit bit or 0) after
    adding a cell; a loop is of use (types 1, 2, 4) only with at most two such
    cells, or with all of them {a, b, z} for one z."""
    n, z = state
    if cands == ab:
        return state
    zq = cands & ~ab
    single = zq if zq & (zq - 1) == 0 else 0
    return n + 1, (single if n == 0 else z if z == single else 0)


def _loops(pos: Position, cells: list[int], ab: int) -> Iterator[list[int]]:
    """Closed loops of 6 to 10 cells, each starting at its smallest cell.

    Consecutive cells share a unit; the cells alternate between two colours
    (a at even places, b at odd ones, or the reverse), and every unit of a
    loop cell holds exactly one cell of each colour, so that a and b could
    swap around the loop.  The two cells of a unit need not be neighbours on
    the loop (Sudoku Explainer's rule)."""
    peer, units, cands = pos.m.peer, pos.geo.cell_regions, pos.cands
    inset = sum(1 << c for c in cells)
    count = [[0, 0] for _ in pos.m.unit]  # loop cells per unit, by colour
    path: list[int] = []

    def dfs(cell: int, state: tuple[int, int]) -> Iterator[list[int]]:
        colour = len(path) % 2
        path.append(cell)
        for u in units[cell]:
            count[u][colour] += 1
        start = path[0]
        if len(path) >= 6 and len(path) % 2 == 0 and peer[cell] >> start & 1 and all(
                count[u][0] == count[u][1] for c in path for u in units[c]):
            yield list(path)
        if len(path) < 10:
            for q in bits(peer[cell] & inset):
                # a unit of q holds at most one loop cell of q's colour
                if q > start and q not in path and all(
                        count[u][1 - colour] == 0 for u in units[q]):
                    nxt = _extra_state(ab, cands[q], state)
                    if nxt[0] <= 2 or nxt[1]:
                        yield from dfs(q, nxt)
        for u in units[cell]:
            count[u][colour] -= 1
        path.pop()

    for s in cells:
        yield from dfs(s, _extra_state(ab, cands[s], (0, 0)))


def _loop_hints(pos: Position, loop: list[int], ab: int, a: int, b: int) -> Iterator[Hint]:
    cands, peer = pos.cands, pos.m.peer
    rating = LOOP_RATING[len(loop)]
    extras = [c for c in loop if cands[c] != ab]
    cells = tuple(loop)
    if len(extras) == 1:
        (c,) = extras
        yield Hint("unique loop type 1", rating, (), ((c, a), (c, b)), cells)
        return
    if len(extras) < 2:
        return
    zs = {cands[c] & ~ab for c in extras}
    if len(zs) == 1:
        z = zs.pop()
        if z.bit_count() == 1:
            see = -1
            for c in extras:
                see &= peer[c]
            elim = pos.elims(see, z.bit_length())
            if elim:
                yield Hint("unique loop type 2", rating, (), elim, cells)
    if len(extras) == 2:
        x, y = extras
        pair = 1 << x | 1 << y
        for u in pos.geo.cell_regions[x]:
            if u not in pos.geo.cell_regions[y]:
                continue
            for keep, drop in ((a, b), (b, a)):
                if pos.places(u, keep) == pair:
                    yield Hint("unique loop type 4", rating, (), ((x, drop), (y, drop)), cells)
