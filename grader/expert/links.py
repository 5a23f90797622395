"""Strong-link chains on one digit: 2 links (skyscraper, two-string kite,
turbot fish, rated 4.0 / 4.1), 3 links (5.4-5.6) and 4 links (5.8-6.0).

A strong link is a conjugate pair: a unit where the digit has exactly two
places.  A chain of strong links joined by weak links (the end of one sees
the start of the next, all cells distinct) holds the digit at one of its two
free ends, so the digit leaves every cell that sees both ends.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

from .hint import Hint, Position, bits

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
