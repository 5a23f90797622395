"""Dynamic searches: Nishio (7.5 + length) and dynamic chains (8.5 + length).

An assumption is propagated breadth-first with singles, and every derived
fact keeps the set of its ancestors (a bitset over fact numbers, see
:mod:`grader.strategy.expert.chains`).  A hidden or naked single may use every removal
made earlier in the branch (the chain is dynamic).  The length of a
conclusion counts the facts among its ancestors.
"""

from __future__ import annotations

from collections.abc import Iterator

from grader.strategy.expert.hint import Hint, Position, bits, length_tenths


class Branch:
    """What one assumption reaches: ``anc[f]`` for every derived fact f, or
    ``conflict``, the ancestors of the first contradiction, and ``size``, the
    facts that make it: its ancestors, plus one when a cell or a unit is left
    empty (the last candidate or place turns on and off at once, as Sudoku
    Explainer counts it)."""

    __slots__ = ("anc", "conflict", "size")

    def __init__(self) -> None:
        self.anc: dict[int, int] = {}
        self.conflict = 0
        self.size = 0


def propagate(pos: Position, start: int, digit: int = 0) -> Branch:
    """Singles from fact ``start``; with ``digit`` only that digit's hidden
    singles and peer removals (Nishio)."""
    n = pos.n
    cands = list(pos.cands)
    orig = pos.cands
    m = pos.m
    br = Branch()
    anc = br.anc
    anc[start] = 1 << start
    queue = [start]
    i = 0
    while i < len(queue):
        f = queue[i]
        i += 1
        cd = f >> 1
        c, d0 = divmod(cd, n)
        if f & 1:
            if not cands[c] >> d0 & 1:
                br.conflict = anc[f] | anc.get(f ^ 1, 0)
                br.size = br.conflict.bit_count()
                return br
            a = anc[f]
            kill = 0 if digit else cands[c] & ~(1 << d0)
            for e in bits(kill):
                g = (c * n + e) * 2
                if g not in anc:
                    anc[g] = a | 1 << g
                    queue.append(g)
            bit = 1 << d0
            for q in bits(m.peer[c]):
                if cands[q] & bit:
                    g = (q * n + d0) * 2
                    if g not in anc:
                        anc[g] = a | 1 << g
                        queue.append(g)
            continue
        if not cands[c] >> d0 & 1:
            continue
        if (f | 1) in anc:
            br.conflict = anc[f] | anc[f | 1]
            br.size = br.conflict.bit_count()
            return br
        cands[c] &= ~(1 << d0)
        if not digit:
            left = cands[c]
            if not left or not left & (left - 1):
                a = 0
                for e in bits(orig[c] & ~left):
                    a |= anc.get((c * n + e) * 2, 0)
                if not left:
                    br.conflict = a
                    br.size = a.bit_count() + 1
                    return br
                g = (c * n + left.bit_length() - 1) * 2 + 1
                if g not in anc:
                    anc[g] = a | 1 << g
                    queue.append(g)
        bit = 1 << d0
        for u in m.cell_units[c]:
            um = m.unit[u]
            left = 0
            for q in bits(um & pos.dm[d0 + 1]):
                if cands[q] & bit:
                    left |= 1 << q
            if left & (left - 1):
                continue
            a = 0
            for q in bits(pos.dm[d0 + 1] & um & ~left):
                a |= anc.get((q * n + d0) * 2, 0)
            if not left:
                br.conflict = a
                br.size = a.bit_count() + 1
                return br
            g = ((left.bit_length() - 1) * n + d0) * 2 + 1
            if g not in anc:
                anc[g] = a | 1 << g
                queue.append(g)
    return br


def nishio(pos: Position) -> Iterator[Hint]:
    """Assume a candidate and propagate on its digit only: a contradiction
    removes it."""
    n = pos.n
    for c in bits(pos.open):
        for d0 in bits(pos.cands[c]):
            br = propagate(pos, (c * n + d0) * 2 + 1, d0 + 1)
            if br.conflict:
                yield Hint("Nishio", 75 + length_tenths(br.size), (),
                           ((c, d0 + 1),), (c,))


class Dynamic:
    """Dynamic chains of one position (the branches are cached)."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.branches: dict[int, Branch] = {}

    def branch(self, start: int) -> Branch:
        got = self.branches.get(start)
        if got is None:
            got = propagate(self.pos, start)
            self.branches[start] = got
        return got

    def hints(self) -> Iterator[Hint]:
        """Contradictions from single candidates, then conclusions common to
        both branches of bivalue cells and bilocal digits."""
        pos = self.pos
        n = pos.n
        for c in bits(pos.open):
            for d0 in bits(pos.cands[c]):
                br = self.branch((c * n + d0) * 2 + 1)
                if br.conflict:
                    yield Hint("dynamic contradiction chain",
                               85 + length_tenths(br.size), (),
                               ((c, d0 + 1),), (c,))
        for c in bits(pos.open):
            if pos.cands[c].bit_count() == 2:
                yield from self._pair([(c * n + d0) * 2 + 1 for d0 in bits(pos.cands[c])],
                                      "dynamic cell forcing chains", (c,))
        seen: set[tuple[int, int]] = set()
        for um in pos.m.unit:
            for d in range(1, n + 1):
                p = pos.dm[d] & um
                if p.bit_count() == 2 and (p, d) not in seen:
                    seen.add((p, d))
                    yield from self._pair([(q * n + d - 1) * 2 + 1 for q in bits(p)],
                                          "dynamic region forcing chains", tuple(bits(p)))

    def _pair(self, starts: list[int], family: str, cells: tuple[int, ...]) -> Iterator[Hint]:
        b1, b2 = self.branch(starts[0]), self.branch(starts[1])
        if b1.conflict or b2.conflict:
            return
        pos = self.pos
        n = pos.n
        for f, a1 in b1.anc.items():
            a2 = b2.anc.get(f)
            if a2 is None:
                continue
            c, d0 = divmod(f >> 1, n)
            if not pos.cands[c] >> d0 & 1:
                continue
            rating = 85 + length_tenths(a1.bit_count() + a2.bit_count())
            if f & 1:
                yield Hint(family, rating, ((c, d0 + 1),), (), cells)
            else:
                yield Hint(family, rating, (), ((c, d0 + 1),), cells)
