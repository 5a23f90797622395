"""Naked subsets (rules 3.1-3.3) and hidden subsets (rules 3.4-3.5).

One class per family, parameterised by the subset size: the hierarchy uses
``NakedSubset`` at levels 5 (k = 2), 6 (k = 3) and 10 (k >= 4), and
``HiddenSubset`` at levels 7, 8 and 11.

In a region with ``p`` unsolved cells a naked set of size ``k`` is the same
partition as a hidden set of size ``p - k`` (the book's duality).  Sizes
above ``p / 2`` are searched through their smaller dual, then reported in the
form of the rule being applied.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from grader.core import phrases
from grader.core.board import Board
from grader.core.geometry import values_of
from grader.core.rule import Rule
from grader.core.steps import Pattern, Step
from grader.kernel.c import Family, NativeRule


def subsets_with_union(masks: list[int], k: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Index sets of size ``k`` (lexicographic order) whose masks' union has
    exactly ``k`` bits.  Masks with more than ``k`` bits are never extended."""
    m = len(masks)
    if k <= 0 or k > m:
        return
    idx: list[int] = []

    def rec(start: int, union: int) -> Iterator[tuple[tuple[int, ...], int]]:
        need = k - len(idx)
        if need == 0:
            if union.bit_count() == k:
                yield tuple(idx), union
            return
        for i in range(start, m - need + 1):
            u = union | masks[i]
            if u.bit_count() <= k:
                idx.append(i)
                yield from rec(i + 1, u)
                idx.pop()

    yield from rec(0, 0)


def _region_state(board: Board, region: int) -> tuple[list[int], list[int], list[int]]:
    """Unsolved cells, unplaced values and each unplaced value's positions
    (bitmask over the unsolved cells' indices)."""
    cells = board.geo.regions[region]
    vals, cands = board.values, board.cands
    empties = [c for c in cells if not vals[c]]
    union = 0
    for c in empties:
        union |= cands[c]
    values = values_of(union)
    pos = []
    for v in values:
        bit = 1 << (v - 1)
        m = 0
        for i, c in enumerate(empties):
            if cands[c] & bit:
                m |= 1 << i
        pos.append(m)
    return empties, values, pos


def _naked_sets(board: Board, empties: list[int], values: list[int], pos: list[int],
                k: int) -> Iterator[tuple[list[int], int]]:
    """(cells, value mask) of the naked sets of size k among ``empties``."""
    p = len(empties)
    cands = board.cands
    if 2 * k <= p:
        masks = [cands[c] if cands[c].bit_count() <= k else (1 << 62) - 1 for c in empties]
        for combo, union in subsets_with_union(masks, k):
            yield [empties[i] for i in combo], union
    else:  # through the hidden dual of size p - k
        h = p - k
        for combo, cellmask in subsets_with_union(pos, h):
            hidden_vals = 0
            for i in combo:
                hidden_vals |= 1 << (values[i] - 1)
            naked_cells = [empties[i] for i in range(p) if not cellmask >> i & 1]
            union = 0
            for c in naked_cells:
                union |= cands[c]
            if union & hidden_vals == 0 and union.bit_count() == k:
                yield naked_cells, union


def _hidden_sets(board: Board, empties: list[int], values: list[int], pos: list[int],
                 k: int) -> Iterator[tuple[list[int], int]]:
    """(cells, value mask) of the hidden sets of size k: k values whose
    positions are exactly k cells."""
    p = len(empties)
    cands = board.cands
    if 2 * k <= p:
        for combo, cellmask in subsets_with_union(pos, k):
            vm = 0
            for i in combo:
                vm |= 1 << (values[i] - 1)
            yield [empties[i] for i in range(p) if cellmask >> i & 1], vm
    else:  # through the naked dual of size p - k
        h = p - k
        masks = [cands[c] if cands[c].bit_count() <= h else (1 << 62) - 1 for c in empties]
        allv = 0
        for v in values:
            allv |= 1 << (v - 1)
        for combo, union in subsets_with_union(masks, h):
            naked = {empties[i] for i in combo}
            hidden_cells = [c for c in empties if c not in naked]
            vm = allv & ~union
            if vm.bit_count() == k:
                yield hidden_cells, vm


class _Subset(Rule):
    """Shared parameters: ``min_size`` and ``max_size`` (default: no bound)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.min_size = int(self.params.get("min_size", 2))
        mx = self.params.get("max_size")
        self.max_size = int(mx) if mx is not None else None

    def native(self) -> NativeRule:
        family = Family.HIDDEN_SUBSET if self.family == "hidden-subset" else Family.NAKED_SUBSET
        return NativeRule.of(family, min_size=self.min_size, max_size=self.max_size or 0)

    def find(self, board: Board) -> Iterator[Step]:
        geo = board.geo
        states: dict[int, tuple[list[int], list[int], list[int]]] = {}
        for k in self._sizes(geo.n):
            for r in range(len(geo.regions)):
                state = states.get(r)
                if state is None:
                    state = states[r] = _region_state(board, r)
                empties, values, pos = state
                if k >= len(empties):
                    continue
                for cells, vm in self._sets(board, empties, values, pos, k):
                    elim = self._eliminations(board, empties, cells, vm)
                    if elim:
                        yield self.make(
                            board, eliminations=elim,
                            pattern=Pattern(cells=tuple((c, "subset") for c in cells),
                                            regions=((r, "region"),),
                                            values=tuple(values_of(vm))))

    def _sets(self, board: Board, empties: list[int], values: list[int], pos: list[int],
              k: int) -> Iterator[tuple[list[int], int]]:
        """(cells, value mask) of the sets of size k in a region."""
        raise NotImplementedError

    def _eliminations(self, board: Board, empties: list[int], cells: list[int],
                      vm: int) -> list[tuple[int, int]]:
        raise NotImplementedError

    def _sizes(self, n: int) -> range:
        hi = self.max_size if self.max_size is not None else n - 1
        return range(self.min_size, hi + 1)

    #: the summary and the teach text, filled from :func:`_words`
    SUMMARY: ClassVar[str] = ""
    TEACH: ClassVar[str] = ""

    @classmethod
    def summarize(cls, step: Step) -> str:
        return cls.SUMMARY.format(**_words(step))

    @classmethod
    def teach(cls, step: Step) -> str:
        return cls.TEACH.format(**_words(step))


def _words(step: Step) -> dict[str, object]:
    """What the texts of a subset say: its region (long and short names),
    cells, values and size, and the step's effects."""
    geo = step.geo
    cells = step.pattern.cells_with("subset")
    vals = step.pattern.values
    region = step.pattern.regions_with("region")[0]
    return {"region": geo.region_long_name(region), "short": geo.region_name(region),
            "cells": ", ".join(geo.cell_name(c) for c in cells), "k": len(cells),
            "values": ", ".join(geo.symbol(v) for v in vals),
            "cell_list": phrases.cells(geo, cells), "vs": phrases.value_set(geo, vals),
            "a_name": phrases.a_or_an(step.name), "values_or": phrases.values(geo, vals, "or"),
            "effects": phrases.effects(geo, eliminations=step.eliminations)}


class NakedSubset(_Subset):
    """In a region, k unsolved cells whose candidates together are exactly k
    values: those values leave the region's other cells.

    Order: size ascending, then regions R, C, B, then cell sets in
    lexicographic order."""

    family = "naked-subset"
    default_name = "naked subset"
    default_reference = "rules 3.1-3.3"

    def _sets(self, board: Board, empties: list[int], values: list[int], pos: list[int],
              k: int) -> Iterator[tuple[list[int], int]]:
        return _naked_sets(board, empties, values, pos, k)

    @staticmethod
    def support(step: Step) -> list[tuple[int, int]]:
        """The subset's cells hold no value outside the set."""
        vals = set(step.pattern.values)
        return [(c, w) for c in step.pattern.cells_with("subset")
                for w in range(1, step.geo.n + 1) if w not in vals]

    def _eliminations(self, board: Board, empties: list[int], cells: list[int],
                      vm: int) -> list[tuple[int, int]]:
        """The set's values leave the region's other cells."""
        cands = board.cands
        inset = set(cells)
        return [(c, v) for c in empties if c not in inset and cands[c] & vm
                for v in values_of(cands[c] & vm)]

    @staticmethod
    def common_name(step: Step) -> str | None:
        """``naked pair``, ``naked triple``, ``naked quad`` (none above 4)."""
        k = len(step.pattern.cells_with("subset"))
        return f"naked {phrases.subset_name(k)}" if 2 <= k <= 4 else None

    @staticmethod
    def where(step: Step) -> str:
        geo = step.geo
        region = step.pattern.regions_with("region")[0]
        k = len(step.pattern.cells_with("subset"))
        return (f"look at {geo.region_long_name(region)}: {k} of its cells share only {k} "
                f"candidates between them")

    SUMMARY = ("in {region}, cells {cells} hold only {{{values}}}, so these values leave the "
               "other cells of {short}")
    TEACH = ("In {region}, the {k} cells {cell_list} can only hold values among {vs}: {k} cells "
             "for {k} values, so these cells take exactly the values {vs} ({a_name}). No other "
             "cell of {short} can hold {values_or}: {effects}.")


class HiddenSubset(_Subset):
    """In a region, k unplaced values whose positions together are exactly
    k cells: every other value leaves those cells.

    Order: size ascending, then regions R, C, B, then value sets in
    lexicographic order."""

    family = "hidden-subset"
    default_name = "hidden subset"
    default_reference = "rules 3.4, 3.5"

    def _sets(self, board: Board, empties: list[int], values: list[int], pos: list[int],
              k: int) -> Iterator[tuple[list[int], int]]:
        return _hidden_sets(board, empties, values, pos, k)

    @staticmethod
    def support(step: Step) -> list[tuple[int, int]]:
        """The set's values are absent from the region's other cells."""
        cells = set(step.pattern.cells_with("subset"))
        region = step.pattern.regions_with("region")[0]
        return [(c, w) for c in step.geo.regions[region] if c not in cells
                for w in step.pattern.values]

    def _eliminations(self, board: Board, empties: list[int], cells: list[int],
                      vm: int) -> list[tuple[int, int]]:
        """Every other value leaves the set's cells."""
        cands = board.cands
        return [(c, v) for c in cells for v in values_of(cands[c] & ~vm)]

    @staticmethod
    def common_name(step: Step) -> str | None:
        """``hidden pair``, ``hidden triple``, ``hidden quad`` (none above 4)."""
        k = len(step.pattern.values)
        return f"hidden {phrases.subset_name(k)}" if 2 <= k <= 4 else None

    @staticmethod
    def where(step: Step) -> str:
        geo = step.geo
        region = step.pattern.regions_with("region")[0]
        k = len(step.pattern.values)
        return (f"look at {geo.region_long_name(region)}: {k} values can only go in the same {k} "
                f"cells")

    SUMMARY = ("in {region}, {{{values}}} can only go in cells {cells}, so those cells hold no "
               "other value")
    TEACH = ("In {region}, the {k} values {vs} can only go in the {k} cells {cell_list}: {k} "
             "values need {k} cells, so these cells hold exactly the values {vs} ({a_name}) and "
             "nothing else. Their other candidates go: {effects}.")
