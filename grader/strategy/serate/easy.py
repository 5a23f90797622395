"""Sudoku Explainer's rules below 4.0, in its producer order, and its rating
loop over them (the Python reference of grader/kernel/_serate.c).

Values (tenths): full house 10, hidden single in a block 12, in a line 15,
direct pointing 17, direct claiming 19, direct hidden pair 20, naked single
23, direct hidden triplet 25, pointing 26, claiming 28, naked pair 30,
X-Wing 32, hidden pair 34, naked triplet 36, swordfish 38, hidden triplet
40.  The loop applies one hint per step, from the first producer that has
one, and the rating is the largest step.  The non-direct rules are also the
helpers of the nested chains (:mod:`grader.serate.advanced`), with their
rule parents.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

#: the ratings (tenths) of the rules below 4.0, the only values the scale has there
VALUES: tuple[int, ...] = (10, 12, 15, 17, 19, 20, 23, 25, 26, 28, 30, 32, 34, 36, 38, 40)

from grader.strategy.serate.grid import (  # noqa: E402 - VALUES documents the docstring
    BLOCK,
    COLUMN,
    REGION_MASK,
    REGIONS,
    ROW,
    bits,
    combos,
    crosses,
    empty_count,
    kind,
    place,
    positions,
    regions_of,
)

Cand = tuple[int, int]


@dataclass(frozen=True, slots=True)
class RuleHint:
    """A hint of a rule below the chains.  ``removable``: (cell, value) in
    cell order, values ascending; ``place``: the placement of a direct hint.
    ``shape``: "locking" (intersections and fish: ``regions`` holds base and
    cover regions in turn), "hidden" or "naked" (``regions`` = the region)."""

    name: str
    tenths: int
    removable: tuple[Cand, ...]
    place: Cand | None
    shape: str
    regions: tuple[int, ...]
    value: int = 0
    values: tuple[int, ...] = ()
    cells: tuple[int, ...] = ()

    def rule_parents(self, initial: Sequence[int], current: Sequence[int]) -> list[Cand]:
        """The removed candidates the pattern rests on (``getRuleParents``):
        present in ``initial``, gone from ``current``."""
        out: list[Cand] = []
        if self.shape == "locking":
            v = self.value
            bit = 1 << (v - 1)
            cover = 0
            for r in self.regions[1::2]:
                cover |= REGION_MASK[r]
            for base in self.regions[0::2]:
                for c in REGIONS[base]:
                    if initial[c] & bit and not current[c] & bit and not cover >> c & 1:
                        out.append((c, v))
        elif self.shape == "hidden":
            region = self.regions[0]
            mine = 0
            for v in self.values:
                mine |= positions(current, region, v)
            for i, c in enumerate(REGIONS[region]):
                if not mine >> i & 1:
                    out.extend((c, v) for v in self.values if initial[c] >> (v - 1) & 1)
        else:
            for c in self.cells:
                out.extend((c, v) for v in range(1, 10)
                           if initial[c] >> (v - 1) & 1 and v not in self.values)
        return out


def _removable(cells_values: dict[int, int]) -> tuple[Cand, ...]:
    return tuple((c, v + 1) for c in sorted(cells_values) for v in bits(cells_values[c]))


# -- singles ---------------------------------------------------------------------------------
def hidden_singles(values: Sequence[int], cands: Sequence[int]) -> Iterator[RuleHint]:
    """Full houses (blocks, columns, rows), then hidden singles."""
    for alone in (True, False):
        for k in (BLOCK, COLUMN, ROW):
            for r in regions_of(k):
                for v in range(1, 10):
                    pos = positions(cands, r, v)
                    if pos.bit_count() != 1:
                        continue
                    if (empty_count(values, r) == 1) != alone:
                        continue
                    cell = REGIONS[r][pos.bit_length() - 1]
                    tenths = 10 if alone else 12 if k == BLOCK else 15
                    name = "full house" if alone else (
                        "hidden single in a block" if k == BLOCK else "hidden single in a line")
                    yield RuleHint(name, tenths, (), (cell, v), "single", (r,), v)


def naked_singles(values: Sequence[int], cands: Sequence[int]) -> Iterator[RuleHint]:
    for c in range(81):
        m = cands[c]
        if m and not m & (m - 1):
            yield RuleHint("naked single", 23, (), (c, m.bit_length()), "single", ())


# -- intersections ---------------------------------------------------------------------------
LOCKING_KINDS = ((BLOCK, COLUMN), (BLOCK, ROW), (COLUMN, BLOCK), (ROW, BLOCK))


def locking(values: Sequence[int], cands: Sequence[int], direct: bool) -> Iterator[RuleHint]:
    """Pointing and claiming (``Locking``); ``direct``: only those that leave
    a hidden single in another region of the first kind."""
    for k1, k2 in LOCKING_KINDS:
        for r1 in regions_of(k1):
            for r2 in regions_of(k2):
                if not crosses(r1, r2):
                    continue
                for v in range(1, 10):
                    pos = positions(cands, r1, v)
                    if pos.bit_count() <= 1:
                        continue
                    if any(not REGION_MASK[r2] >> REGIONS[r1][i] & 1 for i in bits(pos)):
                        continue
                    if direct:
                        yield from _direct_locking(cands, k1, r1, r2, v)
                    else:
                        hint = _locking_hint(cands, r1, r2, v, None)
                        if hint.removable:
                            yield hint


def _direct_locking(cands: Sequence[int], k1: int, r1: int, r2: int,
                    v: int) -> Iterator[RuleHint]:
    for r3 in regions_of(k1):
        if r3 == r1 or not crosses(r3, r2):
            continue
        pos3 = positions(cands, r3, v)
        if pos3.bit_count() <= 1:
            continue
        outside = [REGIONS[r3][i] for i in bits(pos3) if not REGION_MASK[r2] >> REGIONS[r3][i] & 1]
        if len(outside) == 1:
            hint = _locking_hint(cands, r1, r2, v, outside[0])
            if hint.removable:
                yield hint


def _locking_hint(cands: Sequence[int], r1: int, r2: int, v: int,
                  hcell: int | None) -> RuleHint:
    bit = 1 << (v - 1)
    rem = {c: bit for c in REGIONS[r2] if not REGION_MASK[r1] >> c & 1 and cands[c] & bit}
    pointing = kind(r1) == BLOCK
    if hcell is not None:
        return RuleHint("direct pointing" if pointing else "direct claiming",
                        17 if pointing else 19, _removable(rem), (hcell, v), "locking",
                        (r1, r2), v)
    return RuleHint("pointing" if pointing else "claiming", 26 if pointing else 28,
                    _removable(rem), None, "locking", (r1, r2), v)


# -- subsets ---------------------------------------------------------------------------------
SUBSET_KINDS = (BLOCK, COLUMN, ROW)
HIDDEN_TENTHS = {2: 34, 3: 40, 4: 54}
DIRECT_HIDDEN_TENTHS = {2: 20, 3: 25}
NAKED_TENTHS = {2: 30, 3: 36, 4: 50}
SIZE_NAMES = {2: "pair", 3: "triplet", 4: "quad"}


def _common(sets: Sequence[int], k: int) -> int:
    """``CommonTuples.searchCommonTuple``: the union if every set has at least
    two members and the union has exactly ``k``, else 0."""
    union = 0
    for s in sets:
        if s.bit_count() <= 1:
            return 0
        union |= s
    return union if union.bit_count() == k else 0


def hidden_sets(values: Sequence[int], cands: Sequence[int], k: int,
                direct: bool) -> Iterator[RuleHint]:
    for kd in SUBSET_KINDS:
        for r in regions_of(kd):
            empty = empty_count(values, r)
            if not (empty > 2 * k or (direct and empty > k)):
                continue
            for combo in combos(k):
                vals = tuple(i + 1 for i in combo)
                common = _common([positions(cands, r, v) for v in vals], k)
                if common:
                    hint = _hidden_hint(cands, r, vals, common, direct)
                    if hint is not None and hint.removable:
                        yield hint


def _hidden_hint(cands: Sequence[int], r: int, vals: tuple[int, ...], common: int,
                 direct: bool) -> RuleHint | None:
    vmask = sum(1 << (v - 1) for v in vals)
    rem = {}
    for i in bits(common):
        c = REGIONS[r][i]
        if cands[c] & ~vmask:
            rem[c] = cands[c] & ~vmask
    k = len(vals)
    if not direct:
        return RuleHint(f"hidden {SIZE_NAMES[k]}", HIDDEN_TENTHS[k], _removable(rem), None,
                        "hidden", (r,), 0, vals)
    for w in range(1, 10):
        if w in vals:
            continue
        pos = positions(cands, r, w)
        if pos.bit_count() > 1 and (pos & ~common).bit_count() == 1:
            cell = REGIONS[r][(pos & ~common).bit_length() - 1]
            return RuleHint(f"direct hidden {SIZE_NAMES[k]}", DIRECT_HIDDEN_TENTHS[k],
                            _removable(rem), (cell, w), "hidden", (r,), 0, vals)
    return None


def naked_sets(values: Sequence[int], cands: Sequence[int], k: int) -> Iterator[RuleHint]:
    for kd in SUBSET_KINDS:
        for r in regions_of(kd):
            if empty_count(values, r) < 2 * k:
                continue
            cells_r = REGIONS[r]
            for combo in combos(k):
                cells = tuple(cells_r[i] for i in combo)
                common = _common([cands[c] for c in cells], k)
                if not common:
                    continue
                rem = {c: cands[c] & common for c in cells_r
                       if c not in cells and cands[c] & common}
                if rem:
                    vals = tuple(v + 1 for v in bits(common))
                    yield RuleHint(f"naked {SIZE_NAMES[k]}", NAKED_TENTHS[k], _removable(rem),
                                   None, "naked", (r,), 0, vals, cells)


# -- fish ------------------------------------------------------------------------------------
FISH_NAMES = {2: "X-Wing", 3: "swordfish", 4: "jellyfish"}
FISH_TENTHS = {2: 32, 3: 38, 4: 52}


def fish(values: Sequence[int], cands: Sequence[int], k: int) -> Iterator[RuleHint]:
    """``Fisherman``: base columns then base rows; line tuples outer, values inner."""
    placed = [0] * 10
    for x in values:
        placed[x] += 1
    for base_kind, cover_kind in ((COLUMN, ROW), (ROW, COLUMN)):
        for combo in combos(k):
            bases = tuple(base_kind * 9 + i for i in combo)
            for v in range(1, 10):
                if placed[v] + 2 * k > 9:
                    continue
                common = _common([positions(cands, b, v) for b in bases], k)
                if not common:
                    continue
                covers = tuple(cover_kind * 9 + i for i in bits(common))
                bit = 1 << (v - 1)
                base_mask = sum(REGION_MASK[b] for b in bases)
                rem = {c: bit for cv in covers for c in REGIONS[cv]
                       if cands[c] & bit and not base_mask >> c & 1}
                if rem:
                    regions = tuple(x for pair in zip(bases, covers, strict=True) for x in pair)
                    yield RuleHint(FISH_NAMES[k], FISH_TENTHS[k], _removable(rem), None,
                                   "locking", regions, v)


# -- the producers and the loop --------------------------------------------------------------
Producer = Callable[[Sequence[int], Sequence[int]], Iterator[RuleHint]]

#: Sudoku Explainer 1.2.1's producers below 4.0, in its order.
PRODUCERS: tuple[Producer, ...] = (
    hidden_singles,
    lambda vs, cs: locking(vs, cs, True),
    lambda vs, cs: hidden_sets(vs, cs, 2, True),
    naked_singles,
    lambda vs, cs: hidden_sets(vs, cs, 3, True),
    lambda vs, cs: locking(vs, cs, False),
    lambda vs, cs: naked_sets(vs, cs, 2),
    lambda vs, cs: fish(vs, cs, 2),
    lambda vs, cs: hidden_sets(vs, cs, 2, False),
    lambda vs, cs: naked_sets(vs, cs, 3),
    lambda vs, cs: fish(vs, cs, 3),
    lambda vs, cs: hidden_sets(vs, cs, 3, False),
)


def first_hint(values: Sequence[int], cands: Sequence[int]) -> RuleHint | None:
    for producer in PRODUCERS:
        for hint in producer(values, cands):
            return hint
    return None


def apply(values: list[int], cands: list[int], hint: RuleHint) -> None:
    """``IndirectHint.apply``: remove, then place the hint's value if any."""
    for c, v in hint.removable:
        cands[c] &= ~(1 << (v - 1))
    if hint.place is not None:
        place(values, cands, *hint.place)


def easy_walk(values: list[int], cands: list[int]) -> tuple[int, str | None, int]:
    """Rate with the rules below 4.0, one hint per step, until the grid is
    solved or no rule applies (``values`` and ``cands`` are advanced).
    Returns (the largest step in tenths, the name of the first step that
    reached it, the steps made)."""
    top, name, steps = 0, None, 0
    while not all(values):
        hint = first_hint(values, cands)
        if hint is None:
            break
        if hint.tenths > top:
            top, name = hint.tenths, hint.name
        apply(values, cands, hint)
        steps += 1
    return top, name, steps
