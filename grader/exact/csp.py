"""``csp``: Sudoku as a constraint satisfaction problem, solved by arc
consistency and backtracking.

The model (``model=``):

``primal``
    The cells are the variables, their possible values the domains (bitmasks;
    a given cell has a one-value domain), and every pair of peers is a binary
    constraint ``x != y``.  Arc consistency on it finds only naked singles.
``dual`` (default)
    The primal model plus, for every region ``R`` and value ``v``, a variable
    ``P(R, v)``: the position of ``v`` in ``R`` (domain ``0..n-1``), linked to
    each cell ``x`` of ``R`` (at position ``i``) by the binary channelling
    constraint ``x = v  <=>  P(R, v) = i``.  Still only binary constraints and
    AC-3, but arc consistency now also finds hidden singles (when ``P(R, v)``
    has one position left, revising the arc to that cell fixes it), which
    makes large grids tractable (redundant modelling, Cheng et al. 1999).

The solver:

1. makes the network arc consistent with AC-3: a queue of arcs
   ``(xi, xj)``; revising an arc removes from ``D(xi)`` the values without
   support in ``D(xj)``; when ``D(xi)`` shrinks, arcs ``(xk, xi)`` go back
   in the queue (see :data:`AC3_QUEUES` for which);
2. backtracks: it chooses the unassigned cell with the fewest values left
   (minimum remaining values; ties go to the cell with the most unassigned
   peers, then to cell order), tries its values least constraining first
   (the value that the fewest unassigned peers share first, ties by value),
   and after each choice re-establishes arc consistency from the arcs
   pointing at the chosen cell (maintaining arc consistency, MAC).

When every cell's domain holds one value and the network is arc consistent,
the cells are a solution.  ``trace=True`` records the length of the AC-3 queue
at every revision (plotted by ``solve --engine csp --trace FILE.png``).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from grader.core.geometry import Geometry
from grader.exact.base import Deadline, EngineError, EngineResult, ExactEngine, result

MODELS = ("dual", "primal")

#: AC-3 queue policies.  ``textbook``: when ``D(xi)`` shrinks, every arc
#: ``(xk, xi)`` (``xk`` a neighbour of ``xi`` other than ``xj``) goes back in
#: the queue.  ``targeted``: only the arcs whose revision can now remove a
#: value -- for ``x != y``, the arcs into ``xi`` when ``D(xi)`` is down to one
#: value; for a channelling constraint, the arcs whose value or position was
#: just removed or just became the only one.  Both reach the same
#: arc-consistent domains; ``targeted`` with several times fewer revisions.
AC3_QUEUES = ("targeted", "textbook")


@dataclass
class Ac3Trace:
    """The AC-3 queue length at every revision of a run, and where each AC-3
    call (the initial one, then one per choice) started."""

    queue: list[int] = field(default_factory=list)
    calls: list[int] = field(default_factory=list)
    failures: list[int] = field(default_factory=list)


class _Network:
    """The constraint network of one geometry and model.

    Variables ``0 .. N-1`` are the cells; in the dual model ``N + r * n + v - 1``
    is ``P(r, v)``, the position of value ``v`` in region ``r``.  Arcs are
    integers ``i * V + j`` (``V`` variables in all)."""

    def __init__(self, geo: Geometry, dual: bool) -> None:
        n = geo.n
        N = geo.ncells
        self.N = N
        self.V = V = N + (3 * n * n if dual else 0)
        self.dual = dual
        #: cell -> its three regions, and its position in each (as a bit)
        self.cell_regions = geo.cell_regions
        block_pos = [0] * N
        for cells in geo.blocks:
            for i, c in enumerate(cells):
                block_pos[c] = i
        self.cell_posbit = tuple((1 << (c % n), 1 << (c // n), 1 << block_pos[c])
                                 for c in range(N))
        #: arcs (k, i) for the primal constraints into cell i
        self.into_cell = tuple(tuple(k * V + i for k in geo.peers[i]) for i in range(N))
        #: textbook neighbours of every variable
        nbrs: list[tuple[int, ...]] = []
        for c in range(N):
            extra = (tuple(N + r * n + v for r in geo.cell_regions[c] for v in range(n))
                     if dual else ())
            nbrs.append(tuple(geo.peers[c]) + extra)
        if dual:
            for r in range(3 * n):
                nbrs.extend(geo.regions[r] for _ in range(n))
        self.neighbours = tuple(nbrs)


_NETWORKS: dict[tuple[Geometry, bool], _Network] = {}


def _network(geo: Geometry, dual: bool) -> _Network:
    net = _NETWORKS.get((geo, dual))
    if net is None:
        net = _NETWORKS[(geo, dual)] = _Network(geo, dual)
    return net


class _Search:
    """One run of the solver on one grid: AC-3 on the network, the choices, the
    counters (revisions, removals) and the trace."""

    def __init__(self, geo: Geometry, net: _Network, textbook: bool,
                 trace: Ac3Trace | None) -> None:
        self.geo = geo
        self.net = net
        self.n = geo.n
        self.peers = geo.peers
        self.regions = geo.regions
        self.textbook = textbook
        self.trace = trace
        self.revisions = 0
        self.removals = 0

    def schedule(self, i: int, old: int, new: int, j: int, push: list[int]) -> None:
        """The arcs to revise again now that D(i) went from ``old`` to ``new``."""
        net, n = self.net, self.n
        N, V, into_cell, neighbours = net.N, net.V, net.into_cell, net.neighbours
        if self.textbook:
            push.extend(k * V + i for k in neighbours[i] if k != j)
            return
        single = not new & (new - 1)
        if i < N:
            if single:
                push.extend(a for a in into_cell[i] if a // V != j)
            if net.dual:
                lost = old & ~new
                regs = net.cell_regions[i]
                while lost:
                    b = lost & -lost
                    lost ^= b
                    v = b.bit_length() - 1
                    for r in regs:
                        push.append((N + r * n + v) * V + i)
                if single:
                    v = new.bit_length() - 1
                    for r in regs:
                        push.append((N + r * n + v) * V + i)
        else:
            cells = self.regions[(i - N) // n]
            lost = old & ~new
            while lost:
                b = lost & -lost
                lost ^= b
                push.append(cells[b.bit_length() - 1] * V + i)
            if single:
                push.append(cells[new.bit_length() - 1] * V + i)

    def ac3(self, dom: list[int], arcs: list[int]) -> bool:
        """Arc consistency from the queued ``arcs``; False when a domain empties."""
        net, n, tr, schedule = self.net, self.n, self.trace, self.schedule
        N, V, cell_posbit = net.N, net.V, net.cell_posbit
        revisions = removals = 0
        queue: deque[int] = deque()
        queued: set[int] = set()
        for a in arcs:
            if a not in queued:
                queued.add(a)
                queue.append(a)
        pop, append, add, discard = queue.popleft, queue.append, queued.add, queued.discard
        fresh: list[int] = []
        if tr is not None:
            tr.calls.append(len(tr.queue))
        while queue:
            if tr is not None:
                tr.queue.append(len(queue))
            arc = pop()
            discard(arc)
            revisions += 1
            i, j = divmod(arc, V)
            di = dom[i]
            dj = dom[j]
            if i < N:
                if j < N:  # x_i != x_j: x_j's only value has no support in x_i
                    if not di & dj or dj & (dj - 1):
                        continue
                    new = di ^ dj
                else:  # x_i = v <=> P(r, v) = pos(i)
                    q = j - N
                    r = q // n
                    vbit = 1 << (q % n)
                    pbit = cell_posbit[i][r // n]
                    if not dj & pbit:
                        new = di & ~vbit
                    elif dj == pbit:
                        new = di & vbit
                    else:
                        continue
            else:  # P(r, v) = pos(j) <=> x_j = v
                q = i - N
                r = q // n
                vbit = 1 << (q % n)
                pbit = cell_posbit[j][r // n]
                if not dj & vbit:
                    new = di & ~pbit
                elif dj == vbit:
                    new = di & pbit
                else:
                    continue
            if new == di:
                continue
            dom[i] = new
            removals += 1
            if not new:
                if tr is not None:
                    tr.failures.append(len(tr.queue))
                self.revisions += revisions
                self.removals += removals
                return False
            schedule(i, di, new, j, fresh)
            for a in fresh:
                if a not in queued:
                    add(a)
                    append(a)
            fresh.clear()
        self.revisions += revisions
        self.removals += removals
        return True

    def select(self, dom: list[int]) -> int:
        """Minimum remaining values: an unassigned cell with the fewest values,
        ties broken by degree (most unassigned peers), then cell order; -1: none."""
        peers = self.peers
        ties: list[int] = []
        best_k = 1 << 30
        for c in range(self.net.N):
            d = dom[c]
            if d & (d - 1):
                k = d.bit_count()
                if k < best_k:
                    best_k = k
                    ties = [c]
                elif k == best_k:
                    ties.append(c)
        if len(ties) < 2:
            return ties[0] if ties else -1
        best, best_deg = -1, -1
        for c in ties:
            deg = 0
            for p in peers[c]:
                dp = dom[p]
                if dp & (dp - 1):
                    deg += 1
            if deg > best_deg:
                best, best_deg = c, deg
        return best

    def lcv(self, dom: list[int], cell: int) -> list[int]:
        """The values of ``cell``, least constraining first."""
        peers = self.peers
        d = dom[cell]
        scored = []
        while d:
            bit = d & -d
            d ^= bit
            hits = 0
            for p in peers[cell]:
                dp = dom[p]
                if dp & bit and dp & (dp - 1):
                    hits += 1
            scored.append((hits, bit.bit_length(), bit))
        scored.sort()
        return [bit for _, _, bit in scored]

    def run(self, values: Sequence[int], limit: int, deadline: Deadline
            ) -> tuple[list[tuple[int, ...]], int, int, bool]:
        """MAC search: (solutions found, nodes, backtracks, timed out)."""
        N, full = self.net.N, self.geo.full
        dom0 = [full] * self.net.V
        first: list[int] = []
        for c, v in enumerate(values):
            if v:
                dom0[c] = 1 << (v - 1)
                self.schedule(c, full, dom0[c], -1, first)
        found: list[tuple[int, ...]] = []
        nodes = 0
        backtracks = 0
        timed_out = False
        stack: list[list] = []
        if self.ac3(dom0, first):
            cell = self.select(dom0)
            if cell < 0:
                found.append(tuple(d.bit_length() for d in dom0[:N]))
            else:
                stack.append([dom0, cell, self.lcv(dom0, cell), 0])
        while stack:
            frame = stack[-1]
            dom, cell, order, i = frame
            if i == len(order):
                stack.pop()
                continue
            frame[3] = i + 1
            nodes += 1
            if not nodes & 31 and deadline.expired():
                timed_out = True
                break
            nd = dom.copy()
            old = nd[cell]
            nd[cell] = order[i]
            arcs: list[int] = []
            self.schedule(cell, old, order[i], -1, arcs)
            if not self.ac3(nd, arcs):
                backtracks += 1
                continue
            nxt = self.select(nd)
            if nxt < 0:
                found.append(tuple(d.bit_length() for d in nd[:N]))
                if len(found) >= limit:
                    break
                continue
            stack.append([nd, nxt, self.lcv(nd, nxt), 0])
        return found, nodes, backtracks, timed_out


class CspEngine(ExactEngine):
    name = "csp"
    title = "AC-3 + MRV/LCV backtracking maintaining arc consistency"

    def __init__(self, trace: bool = False, model: str = "dual",
                 queue: str = "targeted") -> None:
        if model not in MODELS:
            raise EngineError(f"unknown CSP model {model!r} (choose from {', '.join(MODELS)})")
        if queue not in AC3_QUEUES:
            raise EngineError(f"unknown AC-3 queue policy {queue!r} (choose from "
                              f"{', '.join(AC3_QUEUES)})")
        self.model = model
        self.textbook = queue == "textbook"
        self.trace_enabled = trace
        #: the trace of the last call (when ``trace`` is on)
        self.last_trace: Ac3Trace | None = None

    def solve(self, geo: Geometry, values: Sequence[int], limit: int = 2,
              time_limit: float | None = None) -> EngineResult:
        t0 = time.perf_counter()
        deadline = Deadline(time_limit)
        tr = Ac3Trace() if self.trace_enabled else None
        self.last_trace = tr
        search = _Search(geo, _network(geo, self.model == "dual"), self.textbook, tr)
        found, nodes, backtracks, timed_out = search.run(values, limit, deadline)
        return result(self.name, len(found), found, nodes, limit, t0, timed_out=timed_out,
                      model=self.model, revisions=search.revisions, removals=search.removals,
                      backtracks=backtracks)


def plot_trace(trace: Ac3Trace, path: str | Path, title: str = "") -> None:
    """Plot the AC-3 queue length over a run to a PNG file (matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 4), dpi=110)
    xs = range(len(trace.queue))
    ax.plot(xs, trace.queue, lw=0.8, color="tab:blue", label="arcs in the AC-3 queue")
    if trace.failures:
        ax.scatter(trace.failures, [0] * len(trace.failures), marker="x", s=14,
                   color="tab:red", zorder=3, label=f"domain wipe-out ({len(trace.failures)})")
    starts = trace.calls[1:]
    if 0 < len(starts) <= 400:
        for x in starts:
            ax.axvline(x, color="0.85", lw=0.5, zorder=0)
    ax.set_xlabel(f"arc revisions ({len(trace.queue)}; grey lines: "
                  f"{len(starts)} choices, each followed by AC-3)")
    ax.set_ylabel("queue length")
    ax.set_yscale("symlog", linthresh=10)
    ax.set_ylim(bottom=0)
    ax.set_xlim(0, max(1, len(trace.queue)))
    ax.set_title(title or "AC-3 queue length")
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    from grader.formats.files import save_whole

    try:
        save_whole(Path(path), fig.savefig)
    finally:
        plt.close(fig)
