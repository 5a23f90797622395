"""What the generator asks about a grid: has it one solution (the exact
solver, or refutation on big grids), and is it below, in or above a band of
levels (rule fixpoints; see :mod:`grader.generator.fast`)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from grader import kernel as _solver
from grader.core.board import Board
from grader.core.geometry import Geometry, geometry
from grader.generator.by_se import SeSteer
from grader.generator.fast import Closures
from grader.generator.settings import Settings, Stats, Timeout
from grader.generator.targets import Target
from grader.strategy.grading import Grader

BELOW, IN, ABOVE = 0, 1, 2
INF = float("inf")

#: exact-solver search nodes per cell before a uniqueness check gives up
NODES_PER_CELL = 200
#: exact-solver search nodes to refute one other value of an erased cell
REFUTE_NODES = 2000

#: the guided descent grades each erasure on grids of this side and more:
#: their minimal grids are far harder than the easy bands (measured: 16x16
#: easy 507 grids per CPU minute grading each erasure vs 67 erasing to
#: minimal grids; but 9x9 very difficult 50 vs 369)
CAPPED_FROM_SIDE = 16



class GridOracle:
    """Uniqueness and level-band answers for grids of one size and shape (the
    base of :class:`~grader.generator.search.Generator`, which makes grids)."""

    def __init__(self, settings: Settings) -> None:
        settings.check()
        self.settings = settings
        self.geo: Geometry = geometry(settings.a, settings.b)
        self.grader = Grader(settings.hierarchy, solver=self._verdict_solver, se=settings.se)
        self.engine = self.grader.engine
        self.hierarchy = self.grader.hierarchy
        self.top = max(r.level for r in self.hierarchy.rules)
        self.closures = Closures(self.engine)
        #: the lowest level that the singles shortcut leaves to grade: 3 with
        #: the book's single position (1) and single candidate (2), else 1
        levels = {(r.family, r.level) for r in self.engine.rules(1)}
        book_singles = (("single-position", 1) in levels and ("single-candidate", 2) in levels
                        and all(lv > 2 or fam in ("single-position", "single-candidate")
                                for fam, lv in levels))
        self.base = 3 if book_singles else 1
        self.stats = Stats()
        self._deadline: float | None = None
        #: exact-solver nodes before a uniqueness check gives up (and the
        #: grid is not kept): plenty for 9x9, bounded for 25x25
        self.node_budget = NODES_PER_CELL * self.geo.ncells
        #: the last grid shown unique by refutation, with its solution
        self._proof: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        self._steer: SeSteer | None = None

    def se_status(self, values: Sequence[int], target: Target) -> tuple[int, float]:
        """Below, in or above a band of Sudoku Explainer's ratings, and the ER
        (:class:`grader.generator.by_se.SeSteer`)."""
        if self._steer is None:
            self._steer = SeSteer(self)
        return self._steer.status(values, target)

    def _check_time(self) -> None:
        if self._deadline is not None and time.time() >= self._deadline:
            raise Timeout

    def _solutions(self, values: list[int], limit: int,
                   max_nodes: int | None = None) -> _solver.SolveResult:
        """The core's exact solver (the only way the generator calls it)."""
        self.stats.solver_calls += 1
        return _solver.solve(self.geo, values, limit, max_nodes)

    def _unique(self, values: list[int]) -> bool:
        """Whether the grid has exactly one solution, as far as the exact
        solver can tell within its node budget (beyond it: no)."""
        res = self._solutions(values, 2, self.node_budget)
        return res.count == 1 and res.nodes <= self.node_budget

    def _unique_without(self, values: list[int], erased: tuple[int, ...],
                        solution: Sequence[int]) -> bool:
        """Whether ``values``, a grid with the one solution ``solution`` from
        which the cells ``erased`` were just erased, still has one solution.

        A second solution would differ from ``solution`` in an erased cell, so
        on big grids each other value of each erased cell is refuted instead:
        by the fixpoint of the plain rules (a contradiction), else by the exact
        solver on that far more constrained grid.  Small grids ask the solver
        directly (it is faster there)."""
        geo = self.geo
        if geo.n < CAPPED_FROM_SIDE:
            return self._unique(values)
        top = max(self.closures.levels)
        peers = geo.peers
        for c in erased:
            used = 0
            for p in peers[c]:
                if values[p]:
                    used |= 1 << (values[p] - 1)
            for v in range(1, geo.n + 1):
                if v == solution[c] or used >> (v - 1) & 1:
                    continue
                self._check_time()
                trial = values[:]
                trial[c] = v
                board, conflict = self.closures.fixpoint(geo, trial, top)
                if conflict:
                    continue
                if all(board.values):
                    return False  # a second solution
                res = self._solutions(trial, 1, REFUTE_NODES)
                if res.count or res.nodes > REFUTE_NODES:
                    return False  # a second solution, or no proof there is none
        self._proof = (tuple(values), tuple(solution))
        return True

    def _verdict_solver(self, geo: Geometry, values: Sequence[int],
                        limit: int) -> _solver.SolveResult:
        """The exact solver for the final grades.  On big grids the search
        can take very long even for a grid that the rules solve; past its
        node budget, a grid that the rules up to the top plain level solve
        has exactly that one solution (the rules are sound), else the search
        goes on without a budget."""
        res = self._solutions(list(values), limit, self.node_budget)
        if res.nodes <= self.node_budget:
            return res
        if self._proof is not None and self._proof[0] == tuple(values):
            # the search that made the grid refuted every other value of
            # the cells it erased last, from a grid with one solution
            return _solver.SolveResult(1, (self._proof[1],), res.nodes, limit)
        top = max(self.closures.levels)
        board, conflict = self.closures.fixpoint(geo, values, top)
        if not conflict and all(board.values):
            return _solver.SolveResult(1, (tuple(board.values),), res.nodes, limit)
        return self._solutions(list(values), limit)

    def _forced(self, values: list[int], cells: tuple[int, ...]) -> bool:
        """Whether each of the just-erased ``cells`` has a single candidate
        left by its given peers: the grid is then as unique as it was."""
        peers, full = self.geo.peers, self.geo.full
        for c in cells:
            seen = 0
            for p in peers[c]:
                v = values[p]
                if v:
                    seen |= 1 << (v - 1)
            free = full & ~seen
            if free & (free - 1):
                return False
        return True

    def random_solution(self, rng: random.Random) -> tuple[int, ...]:
        """A random full grid: random blocks on the diagonal of bands and
        stacks, completed by the exact solver, then relabelled and shuffled
        (rows within bands, bands, columns within stacks, stacks)."""
        geo = self.geo
        n, a, b = geo.n, geo.a, geo.b
        nbands, nstacks = n // a, n // b
        solution: tuple[int, ...] | None = None
        while solution is None:
            vals = [0] * geo.ncells
            for i in range(min(nbands, nstacks)):
                perm = list(range(1, n + 1))
                rng.shuffle(perm)
                for c, v in zip(geo.blocks[i * nstacks + i], perm, strict=True):
                    vals[c] = v
            res = self._solutions(vals, 1, max_nodes=50 * geo.ncells)
            solution = res.solution
        relabel = list(range(1, n + 1))
        rng.shuffle(relabel)
        rows = self._line_order(rng, nbands, a)
        cols = self._line_order(rng, nstacks, b)
        return tuple(relabel[solution[rows[r] * n + cols[c]] - 1]
                     for r in range(n) for c in range(n))

    @staticmethod
    def _line_order(rng: random.Random, groups: int, width: int) -> list[int]:
        order = list(range(groups))
        rng.shuffle(order)
        lines: list[int] = []
        for g in order:
            inner = list(range(g * width, g * width + width))
            rng.shuffle(inner)
            lines.extend(inner)
        return lines

    def assess(self, values: list[int], target: Target, unique: bool = False,
               check: Callable[[], bool] | None = None) -> tuple[int, float]:
        """``(BELOW | IN | ABOVE, distance)`` of a grid for ``target``
        (``unique``: the caller knows the grid has one solution; ``check``:
        how to find out, instead of asking the exact solver).

        ABOVE also means "not unique" (distance ``inf`` when that is what was
        found).  The distance (0 in the band) says how far off the grid is:
        below the band, in levels; above it, the share of cells still empty
        when the rules up to the band's top get stuck (times 10).

        A grid that rules solve has one solution (the rules are sound), so
        the exact solver is needed only for a band that reaches the top of
        the hierarchy, when the rules below the band do not solve the grid."""
        self._check_time()
        self.stats.assessments += 1
        lo, hi = target.lo, target.hi
        geo = self.geo
        ncells = geo.ncells
        base = self.base
        closure: list[int] = values
        if base == 3:
            # the singles (levels 1-2) in the accelerator; the level is at
            # least 3 exactly when they leave cells empty
            board, _ = self.closures.fixpoint(geo, values, 2)
            if all(board.values):
                if all(values):
                    level = 0
                elif lo == 2 or hi == 1:
                    level = self.closures.singles(geo, values)[0]
                else:
                    level = 2  # 1 or 2: the band does not tell them apart
                if lo <= level <= hi:
                    return IN, 0.0
                return (BELOW, 10.0 * (lo - level)) if level < lo else (ABOVE, 0.0)
            closure = board.values
        # the level is at least ``base``; grading the closure of the singles
        # gives the same level
        if hi < base:
            return ABOVE, 10.0 * sum(1 for v in closure if not v) / ncells
        if hi < self.top:
            solved, left = self._solved_at(closure, hi)
            if not solved:  # too hard, or not unique
                return ABOVE, 10.0 * left / ncells
            if lo <= base:
                return IN, 0.0
            solved, _ = self._solved_at(closure, lo - 1)
            if not solved:
                return IN, 0.0
        else:
            if lo > base:
                solved, _ = self._solved_at(closure, lo - 1)
                if solved:
                    return BELOW, 10.0 * (lo - self._level_below(closure, lo))
            if not unique and not (check() if check is not None else self._unique(values)):
                return ABOVE, INF
            return IN, 0.0
        return BELOW, 10.0 * (lo - self._level_below(closure, lo))

    def _level_below(self, closure: list[int], lo: int) -> int:
        """The level (``base .. lo - 1``) of a grid known to be below ``lo``."""
        if self.closures.covers(lo - 1):
            return self.closures.level(self.geo, closure, self.base, lo - 1) or lo - 1
        return lo - 1

    def _solved_at(self, values: list[int], cap: int) -> tuple[bool, int]:
        """Whether the rules of levels ``<= cap`` solve the grid, and how many
        cells they leave empty."""
        if self.closures.covers(cap):
            return self.closures.run(self.geo, values, cap)
        trace = self.engine.solve(Board.from_values(self.geo, values), max_level=cap)
        left = sum(1 for v in values if not v) - sum(len(st.placements) for st in trace.steps)
        return trace.solved, left

    def capped(self, target: Target) -> bool:
        """Whether the guided descent grades each erasure (refusing those that
        go above the band) instead of only keeping the solution unique."""
        return self.geo.n >= CAPPED_FROM_SIDE and target.hi < self.top

    def pushed(self, target: Target) -> bool:
        """Whether the guided method reaches a band at the top from below: on
        big grids, where the exact solver is slow near minimal grids, descend
        while the rules below the band still solve the grid (no solver
        needed), then erase one more orbit (see :meth:`push`)."""
        return (self.geo.n >= CAPPED_FROM_SIDE and target.hi >= self.top
                and target.lo > self.base)
