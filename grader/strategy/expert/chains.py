"""Static chains: X-chains (6.6 + length), Y-cycles (6.5 + length),
forcing chains (7.0 + length) and cell / region forcing chains (multiple
chains, 8.0 + length).

Facts are ``ON(cell, d)`` (the cell holds d) and ``OFF(cell, d)`` (it does
not), numbered ``(cell * n + d - 1) * 2 + on``.  Static implications: ON(p)
turns off p's peers with that digit (the X graph) and the cell's other
candidates; OFF(p) turns on the other place of a unit where the digit has
exactly two, and the other value of a bivalue cell.  A chain's length counts
its facts, both ends included; the shortest chains come from breadth-first
searches, shared by every family at one position.
"""

from __future__ import annotations

from collections.abc import Iterator

from grader.strategy.expert.hint import Hint, Position, bits, length_tenths


def fact(pos: Position, cell: int, d: int, on: int) -> int:
    return (cell * pos.n + d - 1) * 2 + on


def unfact(pos: Position, f: int) -> tuple[int, int, int]:
    """(cell, digit, on) of fact ``f``."""
    on = f & 1
    cd = f >> 1
    return cd // pos.n, cd % pos.n + 1, on


class StaticGraph:
    """The implication graphs of one position and the searches on them."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        n = pos.n
        size = pos.geo.ncells * n * 2
        self.size = size
        xadj: list[list[int]] = [[] for _ in range(size)]
        cadj: list[list[int]] = [[] for _ in range(size)]
        cands, peer, m = pos.cands, pos.m.peer, pos.m
        for c in bits(pos.open):
            cm = cands[c]
            for d0 in bits(cm):
                d = d0 + 1
                on = (c * n + d0) * 2 + 1
                off = on - 1
                xadj[on] = [(q * n + d0) * 2 for q in bits(peer[c] & pos.dm[d])]
                partners = 0
                for u in m.cell_units[c]:
                    p = pos.dm[d] & m.unit[u]
                    if p.bit_count() == 2:
                        partners |= p & ~(1 << c)
                xadj[off] = [(q * n + d0) * 2 + 1 for q in bits(partners)]
                cadj[on] = [(c * n + e) * 2 for e in bits(cm & ~(1 << d0))]
                if cm.bit_count() == 2:
                    cadj[off] = [(c * n + (cm & ~(1 << d0)).bit_length() - 1) * 2 + 1]
        self.xadj = xadj
        self.fadj = [x + y for x, y in zip(xadj, cadj, strict=True)]
        self._full: dict[int, list[int]] = {}

    def bfs(self, start: int, adj: list[list[int]], target: int = -1) -> list[int]:
        """Parents (-1 for the start, -2 unreached) of a breadth-first search,
        stopped once ``target`` is reached."""
        parent = [-2] * self.size
        parent[start] = -1
        frontier = [start]
        while frontier:
            nxt = []
            for f in frontier:
                for g in adj[f]:
                    if parent[g] == -2:
                        parent[g] = f
                        if g == target:
                            return parent
                        nxt.append(g)
            frontier = nxt
        return parent

    def full_from(self, start: int) -> list[int]:
        """Distances (-1 unreached) from ``start`` in the full graph, cached."""
        got = self._full.get(start)
        if got is None:
            adj = self.fadj
            got = [-1] * self.size
            got[start] = 0
            frontier = [start]
            k = 0
            while frontier:
                k += 1
                nxt = []
                for f in frontier:
                    for g in adj[f]:
                        if got[g] < 0:
                            got[g] = k
                            nxt.append(g)
                frontier = nxt
            self._full[start] = got
        return got


def path(parent: list[int], end: int) -> list[int]:
    out = [end]
    while parent[out[-1]] >= 0:
        out.append(parent[out[-1]])
    out.reverse()
    return out


def _chain_hint(pos: Position, family: str, base: int, facts: list[int]) -> Hint:
    """The hint of a chain of ``facts``; its ``links`` are the facts in order,
    ``(cell, digit, on)`` each (an ON fact implies the OFF after it through a
    weak link, an OFF fact the ON after it through a strong one)."""
    cell, d, on = unfact(pos, facts[0])
    cells = tuple(dict.fromkeys(unfact(pos, f)[0] for f in facts))
    path = tuple(unfact(pos, f) for f in facts)
    rating = base + length_tenths(len(facts))
    if on:  # ON(p) ... OFF(p): p is false
        return Hint(family, rating, (), ((cell, d),), cells, path)
    return Hint(family, rating, ((cell, d),), (), cells, path)


def x_and_forcing_chains(pos: Position, graph: StaticGraph) -> Iterator[Hint]:
    """For every candidate, the shortest X-chain and forcing chain from it to
    its own negation (ON to OFF removes it, OFF to ON places it)."""
    for c in bits(pos.open):
        for d0 in bits(pos.cands[c]):
            for on in (1, 0):
                start = (c * pos.n + d0) * 2 + on
                target = start ^ 1
                for family, base, adj in (("X-chain", 66, graph.xadj),
                                          ("forcing chain", 70, graph.fadj)):
                    parent = graph.bfs(start, adj, target)
                    if parent[target] != -2:
                        yield _chain_hint(pos, family, base, path(parent, target))


def y_cycles(pos: Position) -> Iterator[Hint]:
    """Closed loops of k >= 3 bivalue cells, consecutive cells seeing each
    other and sharing the link digit, each cell's two digits its in- and
    out-link: each link digit leaves the cells that see both its cells."""
    cands, peer = pos.cands, pos.m.peer
    biv = [c for c in bits(pos.open) if cands[c].bit_count() == 2]
    seen: set[frozenset[tuple[int, int, int]]] = set()
    for s in biv:
        for out0 in bits(cands[s]):
            close = (cands[s] & ~(1 << out0)).bit_length() - 1  # s's in-digit
            cyc = _shortest_cycle(pos, biv, s, out0, close)
            if cyc is None:
                continue
            links = []
            for i, (a, dig) in enumerate(cyc):
                b = cyc[(i + 1) % len(cyc)][0]
                links.append((min(a, b), max(a, b), dig + 1))
            key = frozenset(links)
            if key in seen:
                continue
            seen.add(key)
            loop = sum(1 << a for a, _ in cyc)
            elim: list[tuple[int, int]] = []
            for a, b, d in links:
                elim.extend(pos.elims(peer[a] & peer[b] & ~loop, d))
            if elim:
                yield Hint("Y-cycle", 65 + length_tenths(2 * len(cyc)), (),
                           tuple(dict.fromkeys(elim)), tuple(a for a, _ in cyc),
                           tuple(links))


def _shortest_cycle(pos: Position, biv: list[int], s: int, out0: int, close: int,
                    ) -> list[tuple[int, int]] | None:
    """Cells and out-digits (bit index) of the shortest loop from ``s`` leaving
    on ``out0`` and coming back on ``close``."""
    cands, peer = pos.cands, pos.m.peer
    parent: dict[tuple[int, int], tuple[int, int] | None] = {(s, out0): None}
    frontier = [(s, out0)]
    while frontier:
        nxt = []
        for cell, out in frontier:
            for q in biv:
                if q == s or not cands[q] >> out & 1 or not peer[cell] >> q & 1:
                    continue
                qout = (cands[q] & ~(1 << out)).bit_length() - 1
                state = (q, qout)
                if state in parent:
                    continue
                parent[state] = (cell, out)
                if qout == close and peer[q] >> s & 1:
                    cyc = [state]
                    while parent[cyc[-1]] is not None:
                        cyc.append(parent[cyc[-1]])  # type: ignore[arg-type]
                    cyc.reverse()
                    if len(cyc) >= 3 and len({c for c, _ in cyc}) == len(cyc):
                        return cyc
                nxt.append(state)
        frontier = nxt
    return None


def chains_and_cycles(pos: Position, graph: StaticGraph) -> Iterator[Hint]:
    """Family 13: X-chains, Y-cycles and forcing chains together."""
    yield from x_and_forcing_chains(pos, graph)
    yield from y_cycles(pos)


def _useful(pos: Position, f: int) -> bool:
    cell, d, _on = unfact(pos, f)
    return bool(pos.cands[cell] >> (d - 1) & 1)


def _forcing(pos: Position, graph: StaticGraph, family: str, starts: list[int],
             cells: tuple[int, ...]) -> Iterator[Hint]:
    dists = [graph.full_from(s) for s in starts]
    first = dists[0]
    for f in range(graph.size):
        if first[f] <= 0 or not _useful(pos, f):
            continue
        total = 0
        for dist in dists:
            if dist[f] < 0:
                break
            total += dist[f] + 1
        else:
            cell, d, on = unfact(pos, f)
            rating = 80 + length_tenths(total)
            yield Hint(family, rating, ((cell, d),) if on else (),
                       () if on else ((cell, d),), cells)


def multiple_chains(pos: Position, graph: StaticGraph) -> Iterator[Hint]:
    """Family 15: every candidate of a cell with three or more (cell forcing),
    or every place of a digit with three or more in a unit (region forcing),
    reaches the same fact by static chains."""
    n = pos.n
    for c in bits(pos.open):
        if pos.cands[c].bit_count() >= 3:
            starts = [(c * n + d0) * 2 + 1 for d0 in bits(pos.cands[c])]
            yield from _forcing(pos, graph, "cell forcing chains", starts, (c,))
    for um in pos.m.unit:
        for d in range(1, n + 1):
            p = pos.dm[d] & um
            if p.bit_count() >= 3:
                starts = [(q * n + d - 1) * 2 + 1 for q in bits(p)]
                yield from _forcing(pos, graph, "region forcing chains", starts, tuple(bits(p)))
