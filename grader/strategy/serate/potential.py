"""Sudoku Explainer's chain nodes and its propagation (``Chaining.doChaining``),
the Python reference of grader/kernel/_serate.c.

A :class:`Node` is a potential: a candidate (cell, value) that is on (the
cell holds the value) or off, with the ordered list of its parents, the cause
of its link and, for the eliminations of a helper chain, that chain.  Two
nodes are the same potential when cell, value and state agree: sets of nodes
are dicts keyed by :func:`key`, in insertion order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from grader.strategy.serate.grid import CELL_REGIONS, HOUSE, REGIONS, positions

#: Causes: why a node follows from its first parent.
ASSUMED, NAKED, HIDDEN_BLOCK, HIDDEN_ROW, HIDDEN_COLUMN, ADVANCED = range(6)
HIDDEN_OF_KIND = (HIDDEN_BLOCK, HIDDEN_ROW, HIDDEN_COLUMN)


def key(cell: int, value: int, on: bool) -> int:
    return ((cell * 9 + value - 1) << 1) | on


class Node:
    """One potential of a chain."""

    __slots__ = ("cell", "value", "on", "parents", "cause", "nested")

    def __init__(self, cell: int, value: int, on: bool, parents: list[Node] | None = None,
                 cause: int = ASSUMED, nested: Any = None) -> None:
        self.cell = cell
        self.value = value
        self.on = on
        self.parents: list[Node] = parents if parents is not None else []
        self.cause = cause
        self.nested = nested  # a ChainHint whose elimination this node is

    @property
    def key(self) -> int:
        return key(self.cell, self.value, self.on)

    def __repr__(self) -> str:
        return f"{'+' if self.on else '-'}r{self.cell // 9 + 1}c{self.cell % 9 + 1}.{self.value}"


NodeSet = dict[int, Node]


def on_to_off(cands: Sequence[int], p: Node, y: bool) -> NodeSet:
    """What ``p`` (on) turns off (``getOnToOff``): the cell's other values
    (``y``), then the value in the block, the row, the column."""
    out: NodeSet = {}
    c, v = p.cell, p.value
    if y:
        for w in range(1, 10):
            if w != v and cands[c] >> (w - 1) & 1:
                n = Node(c, w, False, [p], NAKED)
                out[n.key] = n
    bit = 1 << (v - 1)
    for k, r in enumerate(CELL_REGIONS[c]):
        for x in REGIONS[r]:
            if x != c and cands[x] & bit:
                kk = key(x, v, False)
                if kk not in out:
                    out[kk] = Node(x, v, False, [p], HIDDEN_OF_KIND[k])
    return out


def off_to_on(cands: Sequence[int], p: Node, source: Sequence[int] | None, offs: NodeSet,
              y: bool, x: bool) -> NodeSet:
    """What ``p`` (off, still a candidate of ``cands``) turns on
    (``getOffToOn``): the other value of a bivalue cell (``y``), the other
    place of a value with two places in the block, row, column (``x``).  With
    a ``source`` (dynamic chains), a new node's hidden parents are the
    removals from ``source`` its cell or region shows."""
    out: NodeSet = {}
    c, v = p.cell, p.value
    m = cands[c]
    if y and m.bit_count() == 2:
        other = (m & ~(1 << (v - 1))).bit_length()
        n = Node(c, other, True, [p], NAKED)
        if source is not None:
            for w in range(1, 10):
                if source[c] >> (w - 1) & 1 and not m >> (w - 1) & 1:
                    n.parents.append(offs[key(c, w, False)])
        out[n.key] = n
    if x:
        for k, r in enumerate(CELL_REGIONS[c]):
            pos = positions(cands, r, v)
            if pos.bit_count() != 2:
                continue
            cells = REGIONS[r]
            i = pos.bit_length() - 1
            if cells[i] == c:
                i = (pos & ~(1 << i)).bit_length() - 1
            kk = key(cells[i], v, True)
            if kk in out:
                continue
            n = Node(cells[i], v, True, [p], HIDDEN_OF_KIND[k])
            if source is not None:
                bit = 1 << (v - 1)
                for q in cells:
                    if source[q] & bit and not cands[q] & bit:
                        n.parents.append(offs[key(q, v, False)])
            out[kk] = n
    return out


Advanced = Callable[[list[int], list[int], NodeSet], list[Node]]


def do_chaining(cands: list[int], ons: NodeSet, offs: NodeSet, dynamic: bool, nishio: bool,
                advanced: Advanced | None = None) -> tuple[Node, Node] | None:
    """Complete ``ons`` and ``offs`` from the assumptions they hold; return
    the first contradiction found (the node on and the node off), or None.
    On nodes are all processed before the next off node; a dynamic chain
    removes each off node from ``cands`` once processed (restored on
    return).  ``advanced``: the helper rules, asked when nothing is pending."""
    source = list(cands)
    try:
        return _propagate(cands, source, ons, offs, dynamic, nishio, advanced)
    finally:
        cands[:] = source


def _propagate(cands: list[int], source: list[int], ons: NodeSet, offs: NodeSet, dynamic: bool,
               nishio: bool, advanced: Advanced | None) -> tuple[Node, Node] | None:
    pending_on = list(ons.values())
    pending_off = list(offs.values())
    i_on = i_off = 0
    hidden_source = source if dynamic else None
    while i_on < len(pending_on) or i_off < len(pending_off):
        if i_on < len(pending_on):
            p = pending_on[i_on]
            i_on += 1
            for q in on_to_off(cands, p, not nishio).values():
                conj = ons.get(q.key | 1)
                if conj is not None:
                    return conj, q
                if q.key not in offs:
                    offs[q.key] = q
                    pending_off.append(q)
        else:
            p = pending_off[i_off]
            i_off += 1
            made = off_to_on(cands, p, hidden_source, offs, not nishio, True)
            if dynamic:
                cands[p.cell] &= ~(1 << (p.value - 1))
            for q in made.values():
                conj = offs.get(q.key & ~1)
                if conj is not None:
                    return q, conj
                if q.key not in ons:
                    ons[q.key] = q
                    pending_on.append(q)
        if advanced is not None and i_on == len(pending_on) and i_off == len(pending_off):
            for q in advanced(cands, source, offs):
                if q.key not in offs:
                    offs[q.key] = q
                    pending_off.append(q)
    return None


def ancestors(*targets: Node) -> int:
    """Distinct potentials reachable from each target through its parents,
    the target included, summed over the targets (``getAncestorCount``)."""
    total = 0
    for t in targets:
        seen = {t.key}
        todo = [t]
        while todo:
            p = todo.pop()
            for q in p.parents:
                if q.key not in seen:
                    seen.add(q.key)
                    todo.append(q)
        total += len(seen)
    return total


def chain_of(target: Node) -> list[Node]:
    """The target and its ancestors, breadth first (``getChain``)."""
    out: list[Node] = []
    done: set[int] = set()
    todo = [target]
    while todo:
        nxt: list[Node] = []
        for p in todo:
            if p.key not in done:
                done.add(p.key)
                out.append(p)
                nxt.extend(p.parents)
        todo = nxt
    return out


__all__ = ["ADVANCED", "ASSUMED", "HIDDEN_BLOCK", "HIDDEN_COLUMN", "HIDDEN_OF_KIND",
           "HIDDEN_ROW", "HOUSE", "NAKED", "Node", "NodeSet", "ancestors", "chain_of",
           "do_chaining", "key", "off_to_on", "on_to_off"]
