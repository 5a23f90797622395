"""Wings and other small patterns: XYZ-Wing (4.4), the
ALS-wings WXYZ (5.5 / 5.6), VWXYZ (6.2-6.4), UVWXYZ (6.6) and TUVWXYZ (7.5),
BUG+1 (5.6)
and aligned pair exclusion (6.2)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from grader.strategy.expert.hint import Hint, Position, bits


def _bivalues(pos: Position) -> list[int]:
    cands = pos.cands
    return [c for c in bits(pos.open) if cands[c].bit_count() == 2]


def xyz_wings(pos: Position) -> Iterator[Hint]:
    """Pivot {x,y,z}, bivalue pincers among its peers whose union is the pivot:
    their common value leaves the cells that see all three."""
    cands, peer = pos.cands, pos.m.peer
    biv = _bivalues(pos)
    for p in bits(pos.open):
        pm = cands[p]
        if pm.bit_count() != 3:
            continue
        pins = [q for q in biv if peer[p] >> q & 1 and cands[q] & ~pm == 0]
        for q1, q2 in combinations(pins, 2):
            if cands[q1] == cands[q2] or cands[q1] | cands[q2] != pm:
                continue
            d = (cands[q1] & cands[q2]).bit_length()
            elim = pos.elims(peer[p] & peer[q1] & peer[q2], d)
            if elim:
                yield Hint("XYZ-Wing", 44, (), elim, (p, q1, q2))


ALS_WING_NAMES = {4: "WXYZ-Wing", 5: "VWXYZ-Wing", 6: "UVWXYZ-Wing", 7: "TUVWXYZ-Wing"}


def _als_wing_rating(ndigits: int, largest: int) -> int:
    if ndigits == 4:
        return 56 if largest == 3 else 55
    if ndigits == 5:
        return 62 + max(0, 2 - abs(3 - largest))
    return 66 if ndigits == 6 else 75


def _doubly_linked(pos: Position, gmask: int, union: int, w: int, x: int, z: int,
                   zsee: int) -> tuple[tuple[int, int], ...]:
    """The eliminations of a wing whose z sees the bivalue cell too (both x
    and z restricted, SukakuExplainer's doubly linked wings): z and x leave
    the cells that see all of theirs in the wing, and every other digit of
    the group the cells outside it that see all of its places in it; by digit,
    then cell."""
    peer = pos.m.peer
    masks = {z: zsee}
    sx = peer[w]
    for c in bits(pos.dm[x] & gmask):
        sx &= peer[c]
    masks[x] = sx & ~gmask
    for b in bits(union):
        e = b + 1
        if e in masks:
            continue
        se = pos.open
        for c in bits(pos.dm[e] & gmask):
            se &= peer[c]
        masks[e] = se & ~gmask
    return tuple(cand for d in sorted(masks) for cand in pos.elims(masks[d], d))


def als_wings(pos: Position, ndigits: int) -> Iterator[Hint]:
    """ndigits - 1 cells of one unit holding ndigits digits together, and a
    bivalue cell {x,z} outside them that sees every x among them: z leaves the
    cells that see every z of the pattern."""
    cands, peer, dm = pos.cands, pos.m.peer, pos.dm
    size = ndigits - 1
    biv = _bivalues(pos)
    seen: set[tuple[int, int, int]] = set()
    for um in pos.m.unit:
        cells = [c for c in bits(um & pos.open) if cands[c].bit_count() <= ndigits]
        for group in combinations(cells, size):
            union = 0
            for c in group:
                union |= cands[c]
            if union.bit_count() != ndigits:
                continue
            gmask = sum(1 << c for c in group)
            largest = max(cands[c].bit_count() for c in group)
            for w in biv:
                wm = cands[w]
                if gmask >> w & 1 or wm & ~union:
                    continue
                for x in bits(wm):
                    z = (wm & ~(1 << x)).bit_length()
                    xs = dm[x + 1] & gmask
                    zs = dm[z] & gmask
                    if xs & ~peer[w] or not zs or (gmask, w, x) in seen:
                        continue
                    seen.add((gmask, w, x))
                    see = peer[w]
                    for c in bits(zs):
                        see &= peer[c]
                    elim = pos.elims(see & ~gmask, z)
                    if not zs & ~peer[w]:
                        elim = _doubly_linked(pos, gmask, union, w, x + 1, z, see & ~gmask)
                    if elim:
                        yield Hint(ALS_WING_NAMES[ndigits], _als_wing_rating(ndigits, largest),
                                   (), elim, (*group, w))


def bug_plus_one(pos: Position) -> Iterator[Hint]:
    """Every open cell bivalue but one trivalue cell: that cell takes the value
    that appears three times in each of its units."""
    cands = pos.cands
    extra = -1
    for c in bits(pos.open):
        k = cands[c].bit_count()
        if k == 2:
            continue
        if k != 3 or extra >= 0:
            return
        extra = c
    if extra < 0:
        return
    for d in bits(cands[extra]):
        if all((pos.dm[d + 1] & pos.m.unit[u]).bit_count() == 3 for u in pos.m.cell_units[extra]):
            yield Hint("BUG+1", 56, ((extra, d + 1),), (), (extra,))
            return


def aligned_pair_exclusions(pos: Position) -> Iterator[Hint]:
    """Two cells with at least two common bivalue peers (excluders): a pair of
    values is impossible when the cells see each other and the values are
    equal, or when an excluder holds exactly those two; values of a cell in
    no possible pair leave it."""
    cands, peer = pos.cands, pos.m.peer
    bivmask = sum(1 << c for c in _bivalues(pos))
    opens = list(bits(pos.open))
    for i, c1 in enumerate(opens):
        for c2 in opens[i + 1:]:
            common = peer[c1] & peer[c2] & bivmask
            if common.bit_count() < 2:
                continue
            pairs = {cands[e] for e in bits(common)}
            linked = bool(peer[c1] >> c2 & 1)
            ok1 = ok2 = 0
            for a in bits(cands[c1]):
                for b in bits(cands[c2]):
                    if (linked and a == b) or (1 << a | 1 << b) in pairs:
                        continue
                    ok1 |= 1 << a
                    ok2 |= 1 << b
            gone = tuple((c1, d + 1) for d in bits(cands[c1] & ~ok1)) + tuple(
                (c2, d + 1) for d in bits(cands[c2] & ~ok2))
            if gone:
                yield Hint("aligned pair exclusion", 62, (), gone,
                           (c1, c2, *bits(common)))


def aligned_triplet_exclusions(pos: Position) -> Iterator[Hint]:
    """Three cells with at least two common excluders (peers of all three
    with two or three candidates): a combination of values is impossible when
    two of the cells see each other and hold the same value, or when an
    excluder's candidates all lie in it; values in no possible combination
    leave their cell."""
    cands, peer = pos.cands, pos.m.peer
    excl = sum(1 << c for c in bits(pos.open) if 2 <= cands[c].bit_count() <= 3)
    opens = list(bits(pos.open))
    for i, c1 in enumerate(opens):
        for j in range(i + 1, len(opens)):
            c2 = opens[j]
            common12 = peer[c1] & peer[c2] & excl
            if common12.bit_count() < 2:
                continue
            for c3 in opens[j + 1:]:
                common = common12 & peer[c3]
                if common.bit_count() >= 2:
                    yield from _triplet(pos, c1, c2, c3, common)


def _triplet(pos: Position, c1: int, c2: int, c3: int, common: int) -> Iterator[Hint]:
    cands, peer = pos.cands, pos.m.peer
    sets = [cands[e] for e in bits(common)]
    s12, s13, s23 = peer[c1] >> c2 & 1, peer[c1] >> c3 & 1, peer[c2] >> c3 & 1
    ok1 = ok2 = ok3 = 0
    for a in bits(cands[c1]):
        for b in bits(cands[c2]):
            if s12 and a == b:
                continue
            for c in bits(cands[c3]):
                if (s13 and a == c) or (s23 and b == c):
                    continue
                m = 1 << a | 1 << b | 1 << c
                if any(not s & ~m for s in sets):
                    continue
                ok1 |= 1 << a
                ok2 |= 1 << b
                ok3 |= 1 << c
    gone = tuple((cell, d + 1) for cell, ok in ((c1, ok1), (c2, ok2), (c3, ok3))
                 for d in bits(cands[cell] & ~ok))
    if gone:
        yield Hint("aligned triplet exclusion", 75, (), gone, (c1, c2, c3, *bits(common)))


def bug_type2(pos: Position) -> Iterator[Hint]:
    """Several trivalue cells sharing a digit d, every other open cell
    bivalue: without d in them every digit would have 0 or 2 places in each
    unit (a deadly pattern), so d stays in one of them and leaves the cells
    that see them all (5.7)."""
    cands, m = pos.cands, pos.m
    extra = [c for c in bits(pos.open) if cands[c].bit_count() != 2]
    if len(extra) < 2 or any(cands[c].bit_count() != 3 for c in extra):
        return
    emask = sum(1 << c for c in extra)
    common = pos.geo.full
    for c in extra:
        common &= cands[c]
    for d0 in bits(common):
        d = d0 + 1
        if any((pos.dm[e] & um & (~emask if e == d else -1)).bit_count() not in (0, 2)
               for um in m.unit for e in range(1, pos.n + 1)):
            continue
        see = -1
        for c in extra:
            see &= m.peer[c]
        elim = pos.elims(see, d)
        if elim:
            yield Hint("BUG type 2", 57, (), elim, tuple(extra))


def bugs(pos: Position) -> Iterator[Hint]:
    yield from bug_plus_one(pos)
    yield from bug_type2(pos)
