"""Sudoku Explainer's static "Forcing Chains & Cycles" (``getLoopHintList``),
the helper of the nested levels 2 and 3 (the Python reference of
grader/kernel/_serate.c).

Three passes over every candidate of every cell with two or more: X links
only (one digit), Y links only (from bivalue cells), both.  From each
candidate: the cycles that come back to it (a layered breadth-first search),
and, with X links, the forcing chains from its "on" and from its "off"
state that reach the opposite state.  Links are the grid's own strong and
weak links: nothing is removed while a static chain runs.
"""

from __future__ import annotations

from collections.abc import Sequence

from grader.strategy.serate.chainhint import SORT_X, SORT_XY, SORT_Y, ChainHint, removable_of
from grader.strategy.serate.grid import HOUSE
from grader.strategy.serate.potential import Node, NodeSet, ancestors, off_to_on, on_to_off

Cand = tuple[int, int]


def is_parent(child: Node, parent: Node) -> bool:
    """Whether ``parent`` is on ``child``'s first-parent path (``isParent``)."""
    p = child
    pk = parent.key
    while p.parents:
        p = p.parents[0]
        if p.key == pk:
            return True
    return False


def do_cycles(cands: Sequence[int], source: Node, y: bool, x: bool) -> list[Node]:
    """The regenerations of ``source`` (on) at a layer of 4 or more (``doCycles``)."""
    ons: NodeSet = {source.key: source}
    offs: NodeSet = {}
    pending_on = [source]
    pending_off: list[Node] = []
    cycles: list[Node] = []
    length = 0
    while pending_on or pending_off:
        length += 1
        for p in pending_on:
            for q in on_to_off(cands, p, y).values():
                if not is_parent(p, q):
                    pending_off.append(q)
                    offs[q.key] = q
        pending_on = []
        length += 1
        for p in pending_off:
            for q in off_to_on(cands, p, None, offs, y, x).values():
                if length >= 4 and q.key == source.key:
                    cycles.append(q)
                if q.key not in ons:
                    pending_on.append(q)
                    ons[q.key] = q
        pending_off = []
    return cycles


def do_forcing(cands: Sequence[int], source: Node, y: bool, chains: list[Node]) -> None:
    """Chains from ``source`` to its opposite state (``doForcingChains``),
    appended to ``chains`` unless an equal target is there."""
    ons: NodeSet = {}
    offs: NodeSet = {}
    (ons if source.on else offs)[source.key] = source
    pending_on = list(ons.values())
    pending_off = list(offs.values())
    while pending_on or pending_off:
        i = 0
        while i < len(pending_on):
            p = pending_on[i]
            i += 1
            for q in on_to_off(cands, p, y).values():
                if q.key | 1 == source.key:
                    _add(chains, q)
                if not is_parent(p, q) and q.key not in offs:
                    offs[q.key] = q
                    pending_off.append(q)
        pending_on = []
        i = 0
        while i < len(pending_off):
            p = pending_off[i]
            i += 1
            for q in off_to_on(cands, p, None, offs, y, True).values():
                if q.key & ~1 == source.key:
                    _add(chains, q)
                if q.key not in ons:
                    ons[q.key] = q
                    pending_on.append(q)
        pending_off = []


def _add(chains: list[Node], q: Node) -> None:
    for c in chains:
        if c.key == q.key:
            return
    chains.append(q)


def reversed_cycle(dst_on: Node) -> Node:
    """``getReversedCycle``: the cycle walked backwards, every node in the
    opposite state with the cause of the node it reverses."""
    nodes: list[Node] = []
    org: Node | None = dst_on
    while org is not None:
        nodes.insert(0, Node(org.cell, org.value, not org.on, [], org.cause))
        org = org.parents[0] if org.parents else None
    for prev, nxt in zip(nodes, nodes[1:], strict=False):
        prev.parents.append(nxt)
    return nodes[0]


def cycle_removable(cands: Sequence[int], dst_on: Node) -> tuple[Cand, ...]:
    """The candidates outside the cycle that see an on node and an off node
    of their value along it (``createCycleHint``)."""
    cells: list[int] = []
    p = dst_on
    while p.parents:
        cells.append(p.cell)
        p = p.parents[0]
    forw: dict[Cand, None] = {}
    back: dict[Cand, None] = {}
    p = dst_on
    while p.parents:
        bit = 1 << (p.value - 1)
        for c in HOUSE[p.cell]:
            if c not in cells and cands[c] & bit:
                (forw if p.on else back)[(c, p.value)] = None
        p = p.parents[0]
    return tuple(sorted(k for k in forw if k in back))


def loop_hints(values: Sequence[int], cands: Sequence[int], y: bool, x: bool) -> list[ChainHint]:
    out: list[ChainHint] = []
    xy = x and y
    sort_key = SORT_XY if xy else SORT_Y if y else SORT_X
    for cell in range(81):
        m = cands[cell]
        if values[cell] or m.bit_count() <= 1:
            continue
        if m.bit_count() > 2 and not x:
            continue
        for v in range(1, 10):
            if not m >> (v - 1) & 1:
                continue
            source = Node(cell, v, True)
            cycles = do_cycles(cands, source, y, x)
            chains: list[Node] = []
            if x:
                do_forcing(cands, source, y, chains)
                do_forcing(cands, Node(cell, v, False), y, chains)
            for dst in cycles:
                rem = cycle_removable(cands, dst)
                if rem:
                    out.append(ChainHint("cycle", 7.0 if xy else 6.5, sort_key,
                                         [dst, reversed_cycle(dst)], ancestors(dst), rem, None))
            for t in chains:
                rem = removable_of(cands, t)
                if rem:
                    out.append(ChainHint("forcing", 7.0 if xy else 6.6, sort_key, [t],
                                         ancestors(t), rem, t))
    return out


def forcing_chains_and_cycles(values: Sequence[int], cands: Sequence[int]) -> list[ChainHint]:
    """All hints of the three passes, in the order found (X, Y, XY)."""
    return (loop_hints(values, cands, False, True) + loop_hints(values, cands, True, False)
            + loop_hints(values, cands, True, True))
