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
:class:`grader.strategy.grading.Grader` and must re-grade to the band.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from grader.formats import Grid
from grader.generator.oracle import (
    ABOVE,
    BELOW,
    CAPPED_FROM_SIDE,
    IN,
    INF,
    NODES_PER_CELL,
    REFUTE_NODES,
    GridOracle,
)
from grader.generator.settings import METHODS, Generated, GenerationError, Settings, Stats, Timeout
from grader.generator.symmetry import orbits
from grader.generator.targets import Target

__all__ = [
    "ABOVE", "BELOW", "CAPPED_FROM_SIDE", "IN", "INF", "METHODS", "NODES_PER_CELL",
    "REFUTE_NODES", "Generated", "GenerationError", "Generator", "Settings", "Stats", "Timeout",
    "describe", "task_rng",
]


class Generator(GridOracle):
    """Makes grids of one size and shape with one set of :class:`Settings`
    (what it asks about a grid on the way: :class:`~grader.generator.oracle.GridOracle`)."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self.orbits = orbits(self.geo, settings.symmetry)

    def _can_erase(self, givens: int, orbit: tuple[int, ...]) -> bool:
        lo = self.settings.min_givens
        return lo is None or givens - len(orbit) >= lo

    # -- the moves -----------------------------------------------------
    def descend(self, values: list[int], target: Target, rng: random.Random,
                capped: bool = False, solution: Sequence[int] | None = None,
                keep: Callable[[list[int]], bool] | None = None) -> list[int]:
        """Erase orbits in random order while the grid stays unique (and,
        when ``capped``, not above the band; with ``keep``, while it says so)."""
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
            if ok and keep is not None:
                ok = keep(new)
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
        method = self.by_se if target.by_se else {
            "top-down": self._top_down, "bottom-up": self._bottom_up,
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

    def by_se(self, target: Target, rng: random.Random) -> Generated | None:
        """A grid in a band of Sudoku Explainer's ratings (see
        :mod:`grader.generator.by_se`): a fresh minimal grid graded once; above
        the band, its givens back an orbit at a time until it falls in, then
        erased again while it stays in; in the band, the full grade decides."""
        while True:
            self._check_time()
            self.stats.attempts += 1
            solution = self.random_solution(rng)
            values = self.descend(list(solution), target, rng, solution=solution)
            status, _ = self.se_status(values, target)
            if status == ABOVE:
                values, status = self.ease_se(values, solution, target, rng)
                if status == IN:
                    values = self.descend_se(values, solution, target, rng)
            if status == IN:
                made = self.finish(values, solution, target, rng)
                if made is not None:
                    return made

    def ease_se(self, values: list[int], solution: tuple[int, ...], target: Target,
                rng: random.Random) -> tuple[list[int], int]:
        """Put erased orbits back, one at a time in random order, until the
        grid is no longer above the band (a grid with more givens of one
        solution has that one solution)."""
        absent = [o for o in self.orbits if not values[o[0]]]
        rng.shuffle(absent)
        values = values[:]
        for orbit in absent:
            self.stats.moves += 1
            for c in orbit:
                values[c] = solution[c]
            status, _ = self.se_status(values, target)
            if status != ABOVE:
                return values, status
        return values, ABOVE

    def descend_se(self, values: list[int], solution: tuple[int, ...], target: Target,
                   rng: random.Random) -> list[int]:
        """Erase each orbit that can go (random order) while the grid keeps one
        solution and stays in the band."""
        return self.descend(values, target, rng, solution=solution,
                            keep=lambda new: self.se_status(new, target)[0] == IN)

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
