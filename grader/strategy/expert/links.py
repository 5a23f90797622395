"""Strong-link chains on one digit: 2 links (skyscraper, two-string kite,
turbot fish, rated 4.0 / 4.1), 3 links (5.4-5.6) and 4 links (5.8-6.0).

Empty rectangles (4.3) use a block as a grouped strong link (see
:func:`empty_rectangles`).

A strong link is a conjugate pair: a unit where the digit has exactly two
places.  A chain of strong links joined by weak links (the end of one sees
the start of the next, all cells distinct) holds the digit at one of its two
free ends, so the digit leaves every cell that sees both ends.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

from grader.strategy.expert.hint import Hint, Position, bits

ROW, COL, BOX = 1, 2, 4
BASE = {2: 40, 3: 54, 4: 58}


def conjugate_pairs(pos: Position, d: int) -> list[tuple[int, int, int]]:
    """(cell, cell, kinds) for each pair of cells that are the only places of
    ``d`` in some unit; ``kinds``: bit 1 row, 2 column, 4 block."""
    found: dict[tuple[int, int], int] = {}
    m = pos.m
    dm = pos.dm[d]
    for u, um in enumerate(m.unit):
        p = dm & um
        if p.bit_count() == 2:
            a = (p & -p).bit_length() - 1
            b = p.bit_length() - 1
            found[(a, b)] = found.get((a, b), 0) | (1 << m.kind[u])
    return [(a, b, k) for (a, b), k in sorted(found.items())]


def _extra(kinds: tuple[int, ...]) -> int:
    """The lowest increment over the ways of reading each link's unit:
    0 for lines of one kind, 1 for a block link or mixed lines, 2 for a block
    link with both kinds of line."""
    best = 2
    choices = [[k for k in (ROW, COL, BOX) if ks & k] for ks in kinds]
    for combo in product(*choices):
        used = 0
        for k in combo:
            used |= k
        lines = (used & ROW) + (used & COL) // 2
        box = bool(used & BOX)
        extra = 2 if box and lines == 2 else 1 if box or lines == 2 else 0
        best = min(best, extra)
    return best


def _name(nlinks: int, kinds: tuple[int, ...], extra: int) -> str:
    if nlinks > 2:
        return f"strong-link chain ({nlinks} links)"
    if extra == 0:
        return "skyscraper"
    if all(k & (ROW | COL) for k in kinds) and not any(k & BOX for k in kinds):
        return "two-string kite"
    return "turbot fish"


def strong_link_chains(pos: Position, nlinks: int) -> Iterator[Hint]:
    """Chains of exactly ``nlinks`` strong links, every digit, in a fixed order."""
    peer = pos.m.peer
    for d in range(1, pos.n + 1):
        pairs = conjugate_pairs(pos, d)
        if len(pairs) < nlinks:
            continue
        oriented = [(a, b, k) for a, b, k in pairs] + [(b, a, k) for a, b, k in pairs]
        dm = pos.dm[d]
        seen: set[tuple[int, int, int]] = set()
        stack: list[tuple[tuple[tuple[int, int, int], ...], int]] = [
            ((link,), (1 << link[0]) | (1 << link[1])) for link in oriented]
        while stack:
            chain, used = stack.pop()
            end = chain[-1][1]
            if len(chain) == nlinks:
                start = chain[0][0]
                elim = peer[start] & peer[end] & dm & ~used
                key = (min(start, end), max(start, end), used)
                if not elim or key in seen:
                    continue
                seen.add(key)
                kinds = tuple(k for _, _, k in chain)
                extra = _extra(kinds)
                cells = tuple(c for a, b, _ in chain for c in (a, b))
                yield Hint(_name(nlinks, kinds, extra), BASE[nlinks] + min(extra, 1 if nlinks == 2
                                                                             else 2),
                           (), tuple((c, d) for c in bits(elim)), cells,
                           tuple((a, b, d) for a, b, _ in chain))
                continue
            for a, b, k in oriented:
                if used >> a & 1 or used >> b & 1 or not peer[end] >> a & 1:
                    continue
                stack.append((chain + ((a, b, k),), used | (1 << a) | (1 << b)))


def empty_rectangles(pos: Position) -> Iterator[Hint]:
    """A block whose places for a digit lie on one row r and one column c of
    it (both used beyond their crossing), and a conjugate pair in a column C
    outside the block with one end on row r: the digit is in the block's
    column c or at the pair's other end q, so it leaves the cell of q's row in
    column c.  The same with rows and columns swapped.  4.3."""
    geo, n, m = pos.geo, pos.n, pos.m
    for d in range(1, n + 1):
        dm = pos.dm[d]
        for b in range(n):
            box = dm & m.unit[2 * n + b]
            if box.bit_count() < 2:
                continue
            for r in geo.block_rows[b]:
                for c in geo.block_cols[b]:
                    yield from _empty_rectangle(pos, d, b, box, r, c)


def _empty_rectangle(pos: Position, d: int, b: int, box: int, r: int, c: int,
                     ) -> Iterator[Hint]:
    geo, n, m = pos.geo, pos.n, pos.m
    row, col = m.unit[r], m.unit[n + c]
    if box & ~(row | col) or not box & row & ~col or not box & col & ~row:
        return
    for line_kind in (1, 0):  # conjugate pairs in columns, then in rows
        own = geo.block_cols[b] if line_kind == 1 else geo.block_rows[b]
        for i in range(n):
            if i in own:
                continue
            pair = pos.dm[d] & m.unit[line_kind * n + i]
            if pair.bit_count() != 2:
                continue
            for p in bits(pair):
                q = (pair & ~(1 << p)).bit_length() - 1
                if line_kind == 1 and geo.cell_row[p] == r:
                    target = geo.cell_row[q] * n + c
                elif line_kind == 0 and geo.cell_col[p] == c:
                    target = r * n + geo.cell_col[q]
                else:
                    continue
                if box >> target & 1 or not pos.dm[d] >> target & 1:
                    continue
                yield Hint("empty rectangle", 43, (), ((target, d),), (*bits(box), p, q),
                           ((p, q, d),))
