"""The nesting levels: the helper rules a dynamic chain asks when its
propagation stalls (``getAdvancedPotentials``), the Python reference of
grader/kernel/_serate.c.

Sudoku Explainer 1.2.1's helpers by level: 1: pointing and claiming, hidden
pair, naked pair, X-Wing; 2: those and static forcing chains and cycles; 3:
those and static multiple forcing chains; 4: the four and dynamic forcing
chains (level 0); 5: the four, dynamic forcing chains and level-2 dynamic
forcing chains.  The first helper with a hint that rests on the chain's own
removals gives all such hints: each of their eliminations becomes an "off"
node whose parents are those removals, and, for a chain, whose nested chain
is that hint.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from grader.strategy.serate.chainhint import ChainHint
from grader.strategy.serate.easy import RuleHint, fish, hidden_sets, locking, naked_sets
from grader.strategy.serate.multiple import Search, sorted_hints
from grader.strategy.serate.potential import ADVANCED, Node, NodeSet, key
from grader.strategy.serate.unary import forcing_chains_and_cycles

Hint = RuleHint | ChainHint
Helper = Callable[[Sequence[int], list[int]], list[Hint]]


def _basic(values: Sequence[int]) -> list[Helper]:
    return [
        lambda vs, cs: list(locking(vs, cs, False)),
        lambda vs, cs: list(hidden_sets(vs, cs, 2, False)),
        lambda vs, cs: list(naked_sets(vs, cs, 2)),
        lambda vs, cs: list(fish(vs, cs, 2)),
    ]


class Cached:
    """A chaining helper with Sudoku Explainer's cache of its last grid (the
    hints of a grid never change, so a cache only saves time)."""

    def __init__(self, find: Helper) -> None:
        self.find = find
        self.memo: dict[tuple[int, ...], list[Hint]] = {}

    def __call__(self, values: Sequence[int], cands: list[int]) -> list[Hint]:
        k = tuple(cands)
        got = self.memo.get(k)
        if got is None:
            if len(self.memo) > 4096:
                self.memo.clear()
            got = self.find(values, cands)
            self.memo[k] = got
        return got


def _static_chains(values: Sequence[int], cands: list[int]) -> list[Hint]:
    return list(sorted_hints(forcing_chains_and_cycles(values, cands)))


def _static_multiple(values: Sequence[int], cands: list[int]) -> list[Hint]:
    return list(sorted_hints(Search(values, cands, False, 0, None).run()))


def dynamic_chains(values: Sequence[int], cands: list[int], level: int,
                   pivots: frozenset[int] | None = None) -> list[ChainHint]:
    """All hints of the dynamic forcing chains of ``level``, sorted
    (``pivots``: only from those cells)."""
    advanced = Advanced(values, level).potentials if level else None
    return sorted_hints(Search(values, list(cands), True, level, advanced, pivots).run())


def helpers(values: Sequence[int], level: int) -> list[Helper]:
    out = _basic(values)
    if level in (2, 3):
        out.append(Cached(_static_chains))
    if level == 3:
        out.append(Cached(_static_multiple))
    if level >= 4:
        out.append(Cached(lambda vs, cs: list(dynamic_chains(vs, cs, 0))))
    if level >= 5:
        out.append(Cached(lambda vs, cs: list(dynamic_chains(vs, cs, level - 3))))
    return out


class Advanced:
    """The helpers of one nesting level, for one grid's ``values``."""

    def __init__(self, values: Sequence[int], level: int) -> None:
        self.values = values
        self.rules = helpers(values, level)

    def potentials(self, cands: list[int], source: list[int], offs: NodeSet) -> list[Node]:
        out: list[Node] = []
        for rule in self.rules:
            for hint in rule(self.values, cands):
                parents = hint.rule_parents(source, cands)
                if not parents:
                    continue
                nested = hint if isinstance(hint, ChainHint) else None
                real = [offs[key(c, v, False)] for c, v in parents]
                for c, v in hint.removable:
                    out.append(Node(c, v, False, list(real), ADVANCED, nested))
            if out:
                break
        return out
