"""Sudoku Explainer's multiple and dynamic forcing chains
(``getMultipleChainsHintList``) at every nesting level, the Python reference
of grader/kernel/_serate.c.

From every candidate of every cell (cells with three candidates or more for
static chains): the propagation of its "on" and its "off" state, giving
contradictions (dynamic chains), double forcing chains (cells with three
candidates or more), region forcing chains (every place of the value in a
region met first at this cell) and, after the cell's last value, cell
forcing chains.  Each candidate's "on" propagation is computed once per
search (the region chains ask for it again): the propagation depends only on
the grid and the assumption, so this changes nothing but the time.
"""

from __future__ import annotations

from collections.abc import Sequence

from grader.strategy.serate.chainhint import ChainHint, binary_hint, multi_hint, removable_of
from grader.strategy.serate.grid import BLOCK, CELL_REGIONS, COLUMN, REGIONS, ROW, positions
from grader.strategy.serate.potential import Advanced, Node, NodeSet, do_chaining

Branch = tuple[NodeSet, NodeSet, "tuple[Node, Node] | None"]


def tier_base(dynamic: bool, level: int) -> float:
    """``Chaining.getDifficulty`` (Sudoku Explainer 1.2.1)."""
    if level >= 2:
        return 9.5 + 0.5 * (level - 2)
    if level > 0:
        return 8.5 + 0.5 * level
    return 8.5 if dynamic else 8.0


class Search:
    """One search of a multiple (``dynamic`` False) or dynamic chaining tier
    on one grid: ``values`` (never changed by chains: only the region and
    placement counts read them) and ``cands``."""

    def __init__(self, values: Sequence[int], cands: list[int], dynamic: bool, level: int,
                 advanced: Advanced | None, pivots: frozenset[int] | None = None,
                 nishio: bool = False) -> None:
        self.values = values
        self.cands = cands
        self.dynamic = dynamic or nishio
        self.level = level
        self.advanced = advanced
        #: Nishio forcing chains: dynamic, X links only (none inside a cell),
        #: contradictions only, base 7.5 (SukakuExplainer's ``isNishio``)
        self.nishio = nishio
        self.base = 7.5 if nishio else tier_base(dynamic, level)
        self.memo: dict[tuple[int, int], Branch] = {}
        self.out: list[ChainHint] = []
        self.pivots = pivots  # the cells tried (tests search a few), None: all

    def propagate(self, ons: NodeSet, offs: NodeSet) -> tuple[Node, Node] | None:
        return do_chaining(self.cands, ons, offs, self.dynamic, self.nishio, self.advanced)

    def on_branch(self, cell: int, v: int) -> Branch:
        got = self.memo.get((cell, v))
        if got is None:
            start = Node(cell, v, True)
            ons: NodeSet = {start.key: start}
            offs: NodeSet = {}
            got = (ons, offs, self.propagate(ons, offs))
            self.memo[(cell, v)] = got
        return got

    def run(self) -> list[ChainHint]:
        for cell in range(81):
            m = self.cands[cell]
            k = m.bit_count()
            if self.values[cell] or not (k > 2 or (k > 1 and self.dynamic)):
                continue
            if self.pivots is not None and cell not in self.pivots:
                continue
            cell_on: NodeSet | None = None
            cell_off: NodeSet = {}
            value_on: dict[int, NodeSet] = {}
            value_off: dict[int, NodeSet] = {}
            for v in range(1, 10):
                if not m >> (v - 1) & 1:
                    continue
                ons, offs = self.binary(cell, v, k)
                if self.nishio:
                    continue
                self.regions(cell, v, ons, offs)
                value_on[v], value_off[v] = ons, offs
                if cell_on is None:
                    cell_on, cell_off = dict(ons), dict(offs)
                else:
                    cell_on = {q: n for q, n in cell_on.items() if q in ons}
                    cell_off = {q: n for q, n in cell_off.items() if q in offs}
            if self.nishio:
                continue
            assert cell_on is not None
            for branch_sets, common in ((value_on, cell_on), (value_off, cell_off)):
                for target in common.values():
                    self.forcing("cell", [s[target.key] for s in branch_sets.values()], target)
        return self.out

    def binary(self, cell: int, v: int, k: int) -> tuple[NodeSet, NodeSet]:
        ons, offs, conflict = self.on_branch(cell, v)
        if not self.dynamic:
            return ons, offs
        if conflict is not None:
            self.out.append(binary_hint(self.base, self.level, conflict[0], conflict[1],
                                        Node(cell, v, False), True, ((cell, v),)))
        start = Node(cell, v, False)
        off_on: NodeSet = {}
        off_off: NodeSet = {start.key: start}
        conflict = self.propagate(off_on, off_off)
        if conflict is not None:
            rem = removable_of(self.cands, Node(cell, v, True))
            if rem:
                self.out.append(binary_hint(self.base, self.level, conflict[0], conflict[1],
                                            Node(cell, v, True), True, rem))
        if k >= 3 and not self.nishio:
            for q, p in ons.items():
                other = off_on.get(q)
                if other is not None:
                    rem = removable_of(self.cands, p)
                    if rem:
                        self.out.append(binary_hint(self.base, self.level, p, other, p, False,
                                                    rem))
            for q, p in offs.items():
                other = off_off.get(q)
                if other is not None:
                    self.out.append(binary_hint(self.base, self.level, p, other, other, False,
                                                removable_of(self.cands, other)))
        return ons, offs

    def regions(self, cell: int, v: int, ons: NodeSet, offs: NodeSet) -> None:
        for kd in (BLOCK, ROW, COLUMN):
            r = CELL_REGIONS[cell][kd]
            pos = positions(self.cands, r, v)
            if pos.bit_count() < 2:
                continue
            cells = REGIONS[r]
            if cells[(pos & -pos).bit_length() - 1] != cell:
                continue
            branches: list[tuple[NodeSet, NodeSet]] = []
            for i in range(9):
                if pos >> i & 1:
                    other = cells[i]
                    if other == cell:
                        branches.append((ons, offs))
                    else:
                        b = self.on_branch(other, v)
                        branches.append((b[0], b[1]))
            for side in (0, 1):
                common = [q for q in branches[0][side] if all(q in b[side] for b in branches)]
                for q in common:
                    self.forcing("region", [b[side][q] for b in branches],
                                 branches[0][side][q], r)

    def forcing(self, shape: str, targets: list[Node], target: Node, region: int = -1) -> None:
        rem = removable_of(self.cands, target)
        if rem:
            self.out.append(multi_hint(shape, self.base, self.level, targets, rem, region))


def sorted_hints(hints: list[ChainHint]) -> list[ChainHint]:
    """``getHintList`` sorted (difficulty, complexity, sort key; stable), then
    hints with the same eliminations dropped but the first (``getHints``)."""
    ordered = sorted(hints, key=lambda h: (h.difficulty, h.complexity, h.sort_key))
    seen: set[tuple] = set()
    out = []
    for h in ordered:
        if h.removable not in seen:
            seen.add(h.removable)
            out.append(h)
    return out
