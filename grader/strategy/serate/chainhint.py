"""A chaining hint of Sudoku Explainer: its targets, eliminations,
complexity, difficulty, rule parents and identity (the Python reference of
grader/kernel/_serate.c).

Complexity: the distinct ancestors of each target, summed over the targets
(``getFlatComplexity``), plus the complexity of every distinct chain nested
among those ancestors (``getNestedComplexity``; distinct: ``FullChain``, the
same targets with the same breadth-first ancestor lists).  Difficulty: the
tier's base plus the length increment, in doubles as Sudoku Explainer adds
them (so that hints sort as they do there).
"""

from __future__ import annotations

from collections.abc import Sequence

from grader.strategy.serate.grid import CELL_REGIONS, REGIONS, kind
from grader.strategy.serate.potential import (
    ASSUMED,
    HIDDEN_OF_KIND,
    NAKED,
    Node,
    ancestors,
    chain_of,
    key,
)

#: Sort keys (``getSortKey``): double forcing first, contradictions last.
SORT_DOUBLE, SORT_X, SORT_Y, SORT_XY, SORT_CELL, SORT_REGION, SORT_CONTRADICTION = range(1, 8)

Cand = tuple[int, int]


def length_added(complexity: int) -> float:
    """``getLengthDifficulty``: 0.1 (added as a double) each time
    ``complexity - 2`` passes 4, 6, 8, 12, 16, 24, ..."""
    added = 0.0
    ceil, odd = 4, False
    length = complexity - 2
    while length > ceil:
        added += 0.1
        ceil = ceil * 4 // 3 if odd else ceil * 3 // 2
        odd = not odd
    return added


def tenths(difficulty: float) -> int:
    """Sudoku Explainer's printed rating in tenths (``ratingToString``)."""
    return int((difficulty + 0.05) * 10)


class ChainHint:
    """One hint of a chaining tier.

    ``shape``: "contradiction", "double", "cell", "region", "forcing" or
    "cycle"; ``targets``: ``getChainsTargets``; ``removable``: (cell, value)
    in cell order; ``result``: the node whose cell gets a value when the hint
    is applied (an on result), else None; ``region``: a region hint's region."""

    __slots__ = ("shape", "base", "sort_key", "targets", "flat", "removable", "result",
                 "region", "level", "_complexity", "_signature")

    def __init__(self, shape: str, base: float, sort_key: int, targets: list[Node], flat: int,
                 removable: tuple[Cand, ...], result: Node | None, level: int = 0,
                 region: int = -1) -> None:
        self.shape = shape
        self.base = base
        self.sort_key = sort_key
        self.targets = targets
        self.flat = flat
        self.removable = removable
        self.result = result
        self.region = region
        self.level = level
        self._complexity = -1
        self._signature: tuple | None = None

    @property
    def complexity(self) -> int:
        if self._complexity < 0:
            self._complexity = self.flat + self.nested_complexity()
        return self._complexity

    @property
    def difficulty(self) -> float:
        return self.base + length_added(self.complexity)

    @property
    def tenths(self) -> int:
        return tenths(self.difficulty)

    def nested_complexity(self) -> int:
        total = 0
        seen: set[tuple] = set()
        for t in self.targets:
            for p in chain_of(t):
                if p.nested is not None and p.nested.signature not in seen:
                    seen.add(p.nested.signature)
                    total += p.nested.complexity
        return total

    @property
    def signature(self) -> tuple:
        """``FullChain`` identity: the targets and their breadth-first chains."""
        if self._signature is None:
            self._signature = tuple(tuple(p.key for p in chain_of(t)) for t in self.targets)
        return self._signature

    @property
    def placement(self) -> Cand | None:
        r = self.result
        return (r.cell, r.value) if r is not None and r.on else None

    def rule_parents(self, initial: Sequence[int], current: Sequence[int]) -> list[Cand]:
        """The removed candidates its singles rest on (``getRuleParents``):
        for every on node among the targets' ancestors, the removals in its
        cell (a naked single) or in the region of its hidden single; a cell
        or region hint's own assumption counts as such a single."""
        out: dict[Cand, None] = {}
        for t in self.targets:
            done: set[int] = set()
            todo = [t]
            while todo:
                nxt: list[Node] = []
                for p in todo:
                    if p.key in done:
                        continue
                    done.add(p.key)
                    if p.on:
                        self._parents_of(p, initial, current, out)
                    nxt.extend(p.parents)
                todo = nxt
        return list(out)

    def _parents_of(self, p: Node, initial: Sequence[int], current: Sequence[int],
                    out: dict[Cand, None]) -> None:
        cause = p.cause
        if cause == ASSUMED:
            if self.shape == "cell":
                cause = NAKED
            elif self.shape == "region":
                cause = HIDDEN_OF_KIND[kind(self.region)]
            else:
                return
        if cause == NAKED:
            for v in range(1, 10):
                if initial[p.cell] >> (v - 1) & 1 and not current[p.cell] >> (v - 1) & 1:
                    out[(p.cell, v)] = None
            return
        region = CELL_REGIONS[p.cell][HIDDEN_OF_KIND.index(cause)]
        bit = 1 << (p.value - 1)
        for c in REGIONS[region]:
            if initial[c] & bit and not current[c] & bit:
                out[(c, p.value)] = None


def removable_of(cands: Sequence[int], target: Node) -> tuple[Cand, ...]:
    """What a hint concluding ``target`` removes: its cell's other values
    (target on), or the target's candidate (off)."""
    if target.on:
        others = cands[target.cell] & ~(1 << (target.value - 1))
        return tuple((target.cell, v) for v in range(1, 10) if others >> (v - 1) & 1)
    return ((target.cell, target.value),)


def binary_hint(base: float, level: int, dst_on: Node, dst_off: Node, result: Node,
                absurd: bool, removable: tuple[Cand, ...]) -> ChainHint:
    return ChainHint("contradiction" if absurd else "double", base,
                     SORT_CONTRADICTION if absurd else SORT_DOUBLE, [dst_on, dst_off],
                     ancestors(dst_on) + ancestors(dst_off), removable, result, level)


def multi_hint(shape: str, base: float, level: int, targets: list[Node],
               removable: tuple[Cand, ...], region: int = -1) -> ChainHint:
    """A cell or region forcing hint: one target per branch."""
    return ChainHint(shape, base, SORT_CELL if shape == "cell" else SORT_REGION, targets,
                     sum(ancestors(t) for t in targets), removable, targets[0], level, region)




_SHAPE_NAMES = {"contradiction": "Contradiction Forcing", "double": "Double Forcing",
                "cell": "Cell Forcing", "region": "Region Forcing"}


def nested_suffix(level: int) -> str:
    """``Chaining.getNestedSuffix``."""
    if level == 1:
        return " (+)"
    if level == 2:
        return " (+ Forcing Chains)"
    if level == 3:
        return " (+ Multiple Forcing Chains)"
    if level == 4:
        return " (+ Dynamic Forcing Chains)"
    if level >= 5:
        return " (+ Dynamic Forcing Chains" + nested_suffix(level - 3) + ")"
    return ""


def chain_name(shape: str, level: int) -> str:
    """Sudoku Explainer's name of a dynamic chaining hint of ``shape`` at
    ``level``."""
    return f"Dynamic {_SHAPE_NAMES.get(shape, 'Forcing')} Chains{nested_suffix(level)}"


def hint_name(hint: ChainHint) -> str:
    return chain_name(hint.shape, hint.level)


__all__ = ["ChainHint", "binary_hint", "chain_name", "hint_name", "key", "length_added",
           "multi_hint", "nested_suffix", "removable_of", "tenths"]
