"""Making one grid of a requested level.

Three methods, all driven by one random generator (``random.Random``) so that
a seed gives the same grid every time:

``top-down`` (Jussien, section 6.2)
    Start from a random full grid and erase givens (a symmetry orbit at a
    time) in random order while the solution stays unique.  Keep the grid
    when it lands in the band, else start again from a new full grid.

``bottom-up`` (Jussien, section 6.2)
    Start from an empty grid and add random givens (a value its row, column
    and block allow) while the grid still has a solution, until the solution
    is unique; then, while the grid is too hard, add givens of its solution.
    Keep it when it lands in the band.

``guided`` (beyond the book)
    The top-down descent; then, for a grid above the band, put back one
    erased orbit at a time (in random order) until one brings the grid into
    the band, and erase again what can go without leaving it.  Minimal grids
    are mostly very easy or expert and seldom in between, and the neighbours
    of expert grids one orbit away spread over every level: this reaches the
    rare bands from the common one.  On grids of side 16 and more the descent
    also grades every erasure and refuses those that go above the band (their
    minimal grids are much harder than their easy bands).

How a grid is assessed.  The rules are monotonic, so the minimal-level
strategy solves a grid with levels ``<= L`` exactly when the fixpoint of the
rules of levels ``<= L`` is solved, and a grid that sound rules solve has
exactly one solution.  For a band ``lo..hi`` a few fixpoints decide "below,
in or above" (see :mod:`grader.generator.fast`); the exact solver is needed
only for a band that reaches the top of the hierarchy (``expert``), when the
rules below ``lo`` do not solve the grid.  The grading calls are therefore
the cost; every grid kept is graded once more in full by
:class:`grader.grading.Grader` and must re-grade to the band.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import solver as _solver
from ..board import Board
from ..errors import GraderError
from ..formats import Grid
from ..geometry import Geometry, geometry
from ..grading import Grader, GradeResult
from ..hierarchy import Hierarchy
from .fast import Closures, singles_closure
from .symmetry import SYMMETRIES, orbits
from .targets import Target

#: Generation methods, as ``--method`` spells them.
METHODS: tuple[str, ...] = ("guided", "top-down", "bottom-up")

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


class GenerationError(GraderError, ValueError):
    """Settings that cannot produce a grid (bad size, symmetry, givens bounds)."""


@dataclass(frozen=True)
class Settings:
    """Everything that shapes the grids, except the target and the seed."""

    a: int = 3
    b: int = 3
    symmetry: str = "none"
    method: str = "guided"
    minimal: bool = False
    min_givens: int | None = None
    max_givens: int | None = None
    hierarchy: Hierarchy | None = None
    #: ``--like``: grids (values, 0 for empty) to explore around
    like: tuple[tuple[int, ...], ...] = ()

    def check(self) -> None:
        """Raise :class:`GenerationError` on settings that cannot work."""
        n = self.a * self.b
        if self.symmetry not in SYMMETRIES:
            raise GenerationError(f"unknown symmetry {self.symmetry!r} "
                                  f"(use {', '.join(SYMMETRIES)})")
        if self.method not in METHODS:
            raise GenerationError(f"unknown method {self.method!r} (use {', '.join(METHODS)})")
        cells = n * n
        for name, v in (("--min-givens", self.min_givens), ("--max-givens", self.max_givens)):
            if v is not None and not 0 <= v <= cells:
                raise GenerationError(f"{name} {v} is outside 0..{cells} for a {n}x{n} grid")
        if (self.min_givens is not None and self.max_givens is not None
                and self.min_givens > self.max_givens):
            raise GenerationError(f"--min-givens {self.min_givens} is more than "
                                  f"--max-givens {self.max_givens}")
        if self.max_givens is not None and self.max_givens < n - 1:
            raise GenerationError(f"--max-givens {self.max_givens}: a {n}x{n} grid with a "
                                  f"unique solution needs at least {n - 1} givens")
        for k, grid in enumerate(self.like, start=1):
            if len(grid) != cells:
                raise GenerationError(f"--like: grid {k} has {len(grid)} cells, not the "
                                      f"{cells} of a {n}x{n} grid")


@dataclass
class Stats:
    """What a search cost: attempts (new full grids), assessments (grading
    calls: rule fixpoints), exact-solver calls, orbits put back by the guided
    method, and grids refused at the finish (``--minimal``, givens bounds, or
    a full grade outside the band, which the tests show never happens)."""

    attempts: int = 0
    assessments: int = 0
    solver_calls: int = 0
    moves: int = 0
    rejected: int = 0


@dataclass
class Generated:
    """One grid made: its values, solution, full grade and what it cost."""

    box: tuple[int, int]
    puzzle: tuple[int, ...]
    solution: tuple[int, ...]
    result: GradeResult
    target: Target
    stats: Stats = field(default_factory=Stats)
    seconds: float = 0.0

    @property
    def geo(self) -> Geometry:
        return geometry(*self.box)

    @property
    def givens(self) -> int:
        return sum(1 for v in self.puzzle if v)


class Timeout(Exception):
    """The deadline passed before a grid was found."""


class Generator:
    """Makes grids of one size and shape with one set of :class:`Settings`."""

    def __init__(self, settings: Settings) -> None:
        settings.check()
        self.settings = settings
        self.geo: Geometry = geometry(settings.a, settings.b)
        self.grader = Grader(settings.hierarchy, solver=self._verdict_solver)
        self.engine = self.grader.engine
        self.hierarchy = self.grader.hierarchy
        self.top = max(r.level for r in self.hierarchy.rules)
        self.orbits = orbits(self.geo, settings.symmetry)
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

    # -- helpers -------------------------------------------------------
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
                    level = singles_closure(geo, values)[0]
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

    def _can_erase(self, givens: int, orbit: tuple[int, ...]) -> bool:
        lo = self.settings.min_givens
        return lo is None or givens - len(orbit) >= lo

    # -- the moves -----------------------------------------------------
    def descend(self, values: list[int], target: Target, rng: random.Random,
                capped: bool = False, solution: Sequence[int] | None = None) -> list[int]:
        """Erase orbits in random order while the grid stays unique (and,
        when ``capped``, not above the band)."""
        order = [o for o in self.orbits if values[o[0]]]
        rng.shuffle(order)
        givens = sum(1 for v in values if v)
        for orbit in order:
            if not self._can_erase(givens, orbit):
                continue
            new = values[:]
            for c in orbit:
                new[c] = 0
            forced = self._forced(new, orbit)
            if solution is None:
                check = None
            else:
                def check(new: list[int] = new, orbit: tuple[int, ...] = orbit) -> bool:
                    assert solution is not None
                    return self._unique_without(new, orbit, solution)
            if capped:
                ok = self.assess(new, target, unique=forced, check=check)[0] != ABOVE
            else:
                self._check_time()
                ok = forced or (check() if check is not None else self._unique(new))
            if ok:
                values = new
                givens -= len(orbit)
        return values

    def build_up(self, rng: random.Random) -> tuple[list[int], tuple[int, ...]]:
        """The book's bottom-up method: add random givens (orbit by orbit, a
        value the cell's row, column and block allow) while a solution
        exists, until it is unique.  After three random values that leave no
        solution, an orbit takes its values from a solution found so far."""
        geo = self.geo
        values = [0] * geo.ncells
        order = list(self.orbits)
        rng.shuffle(order)
        known: tuple[int, ...] | None = None
        for orbit in order:
            placed = False
            for _ in range(3):
                self._check_time()
                new = values[:]
                for c in orbit:
                    used = 0
                    for p in geo.peers[c]:
                        if new[p]:
                            used |= 1 << (new[p] - 1)
                    allowed = [v for v in range(1, geo.n + 1) if not used >> (v - 1) & 1]
                    if not allowed:
                        break
                    new[c] = allowed[rng.randrange(len(allowed))]
                else:
                    res = self._solutions(new, 2, self.node_budget)
                    if res.count:
                        values, known, placed = new, res.solution, True
                        if res.count == 1 and res.nodes <= self.node_budget:
                            assert known is not None
                            return values, known
                        break
            if not placed:
                if known is None:
                    known = self._solutions(values, 1).solution
                    assert known is not None  # values always keep a solution
                for c in orbit:
                    values[c] = known[c]
                res = self._solutions(values, 2, self.node_budget)
                if res.count == 1 and res.nodes <= self.node_budget:
                    assert res.solution is not None
                    return values, res.solution
        raise AssertionError("a full grid has one solution")  # pragma: no cover

    # -- the finish ----------------------------------------------------
    def finish(self, values: list[int], solution: tuple[int, ...], target: Target,
               rng: random.Random) -> Generated | None:
        """Apply ``--minimal`` and the givens bounds, grade in full, and keep
        the grid only if it re-grades to the band."""
        s = self.settings
        if s.minimal:
            reduced = self._make_minimal(values, rng)
            if reduced is None:
                self.stats.rejected += 1
                return None
            values = reduced
        givens = sum(1 for v in values if v)
        if ((s.max_givens is not None and givens > s.max_givens)
                or (s.min_givens is not None and givens < s.min_givens)):
            self.stats.rejected += 1
            return None
        self._check_time()
        result = self.grader.grade_grid(Grid(self.geo, tuple(values)))
        if not target.accepts(result):
            self.stats.rejected += 1
            return None
        return Generated((self.geo.a, self.geo.b), tuple(values), solution, result, target)

    def _make_minimal(self, values: list[int], rng: random.Random) -> list[int] | None:
        """Erase every orbit that can go, then check that no single given can
        (with a symmetry, an orbit-minimal grid may still have one)."""
        order = [o for o in self.orbits if values[o[0]]]
        rng.shuffle(order)
        givens = sum(1 for v in values if v)
        for orbit in order:
            new = values[:]
            for c in orbit:
                new[c] = 0
            self._check_time()
            if self._unique(new):
                if not self._can_erase(givens, orbit):
                    return None
                values = new
                givens -= len(orbit)
        return values if self.is_minimal(values) else None

    def is_minimal(self, values: list[int] | tuple[int, ...]) -> bool:
        """True when erasing any single given leaves more than one solution."""
        for c, v in enumerate(values):
            if v:
                new = list(values)
                new[c] = 0
                if self._unique(new):
                    return False
        return True

    # -- the methods ---------------------------------------------------
    def generate(self, target: Target, rng: random.Random,
                 deadline: float | None = None) -> Generated | None:
        """One grid in ``target`` (None when ``deadline``, a ``time.time()``
        value, passes first)."""
        t0 = time.perf_counter()
        self.stats = Stats()
        self._deadline = deadline
        method = {"top-down": self._top_down, "bottom-up": self._bottom_up,
                  "guided": self._guided}[self.settings.method]
        try:
            made = method(target, rng)
        except Timeout:
            made = None
        finally:
            self._deadline = None
        if made is not None:
            made.stats = self.stats
            made.seconds = time.perf_counter() - t0
        return made

    def _top_down(self, target: Target, rng: random.Random) -> Generated | None:
        while True:
            self._check_time()
            self.stats.attempts += 1
            solution = self.random_solution(rng)
            values = self.descend(list(solution), target, rng, solution=solution)
            if self.assess(values, target)[0] == IN:
                made = self.finish(values, solution, target, rng)
                if made is not None:
                    return made

    def _bottom_up(self, target: Target, rng: random.Random) -> Generated | None:
        while True:
            self._check_time()
            self.stats.attempts += 1
            values, solution = self.build_up(rng)
            status, _ = self.assess(values, target)
            while status == ABOVE:
                absent = [o for o in self.orbits if not values[o[0]]]
                back = absent[rng.randrange(len(absent))]
                for c in back:
                    values[c] = solution[c]
                status, _ = self.assess(values, target)
            if status == IN:
                made = self.finish(values, solution, target, rng)
                if made is not None:
                    return made

    def _guided(self, target: Target, rng: random.Random) -> Generated | None:
        while True:
            self._check_time()
            self.stats.attempts += 1
            solution = self.random_solution(rng)
            if self.pushed(target):
                below = Target(1, target.lo - 1, "below")
                values = self.descend(list(solution), below, rng, capped=True,
                                      solution=solution)
                values, status = self.push(values, solution, target, rng)
                distance = 0.0
            else:
                values = self.descend(list(solution), target, rng, capped=self.capped(target),
                                      solution=solution)
                status, distance = self.assess(values, target)
            if status == ABOVE and distance < INF:
                values, status = self.ease(values, solution, target, rng)
                if status == IN:
                    values = self.descend(values, target, rng, capped=True, solution=solution)
            if status == IN:
                made = self.finish(values, solution, target, rng)
                if made is not None:
                    return made

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

    def push(self, values: list[int], solution: Sequence[int], target: Target,
             rng: random.Random) -> tuple[list[int], int]:
        """From a grid just below the band: erase each remaining orbit in turn
        (in random order) until one takes the grid into the band."""
        present = [o for o in self.orbits if values[o[0]]]
        rng.shuffle(present)
        givens = sum(1 for v in values if v)
        for orbit in present:
            if not self._can_erase(givens, orbit):
                continue
            self.stats.moves += 1
            new = values[:]
            for c in orbit:
                new[c] = 0
            def check(new: list[int] = new, orbit: tuple[int, ...] = orbit) -> bool:
                return self._unique_without(new, orbit, solution)

            if self.assess(new, target, check=check)[0] == IN:
                return new, IN
        return values, BELOW

    def ease(self, values: list[int], solution: tuple[int, ...], target: Target,
             rng: random.Random) -> tuple[list[int], int]:
        """From a grid above the band: put back each erased orbit in turn (in
        random order) until one brings the grid into the band.  Returns the
        grid and IN, or the grid unchanged and ABOVE."""
        absent = [o for o in self.orbits if not values[o[0]]]
        rng.shuffle(absent)
        for orbit in absent:
            self.stats.moves += 1
            new = values[:]
            for c in orbit:
                new[c] = solution[c]
            # a superset of a unique grid's givens is unique
            if self.assess(new, target, unique=True)[0] == IN:
                return new, IN
        return values, ABOVE


def task_rng(seed: int | str, index: int, salt: str = "") -> random.Random:
    """The random generator of grid number ``index`` of a run with ``seed``:
    independent of the other grids, so any number of workers give the same
    grids."""
    return random.Random(f"sudoku-grader/generate/{seed}/{salt}/{index}")


def describe(settings: Settings) -> dict[str, Any]:
    """The settings as plain data (for reports)."""
    return {"size": settings.a * settings.b, "box": f"{settings.a}x{settings.b}",
            "symmetry": settings.symmetry, "method": settings.method,
            "minimal": settings.minimal, "min_givens": settings.min_givens,
            "max_givens": settings.max_givens}
