"""The hard search: level 14, nested trials, score ranges at the top, ``--like``.

Minimal grids are expert (level 13) a quarter of the time, but level 14 and
nested trials are rare: fresh descents almost never land there.  So the hard
search climbs.  From a start (one of the user's own grids with ``--like``;
for level 14 or nested trials on 9x9 a grid built around an anti-tridagon,
see :mod:`.tridagon`; else a fresh minimal grid beyond level 12) it tries
small moves, a symmetry orbit at a time: ``{-1 +1}`` (erase a given, give
another cell), ``{-2 +2}``, ``{-1}`` and ``{+1}``.  A given added where a
second solution differs from the first takes its value from one of the two,
so most moves keep the solution unique; the solution itself may change.

Each neighbour is judged by the cheapest test that can reject it, in order:

1. the exact solver: exactly one solution (or the move is not made);
2. the fixpoint of the rules of levels 1-12: a grid they solve is at most
   level 12 (for a band at the top);
3. the climbing key: the share of the false candidates left at that
   fixpoint that a reductio of depth 1 refutes (smaller: closer to needing
   nested trials; level-14 grids of the forum have a few percent, fresh
   expert grids most of them), then how many cells the fixpoint leaves
   empty (more: harder); a move is kept when the key gets at most a little
   worse (``TOLERANCE``);
4. "hopeful": the fixpoint of the depth-1 rules below the band does not
   solve the grid (below level 14 for ``--level 14``; every depth-1 rule for
   ``--depth 2``), which the band needs;
5. the full grade by :class:`grader.strategy.grading.Grader`, which decides.

Once a grid of the request is found, the search explores around it: a
random walk among hopeful neighbours, each grid that differs in at least
``DISTANCE`` cells from those kept (and from the project's own grids) graded
and kept when it re-grades as requested.  When the vicinity dries up it
restarts from a new start.

A *stream* (one seed, one index) makes up to ``QUOTA`` grids this way; the
moves, restarts and patience are counted in moves, never in seconds, so a
stream gives the same grids on any machine and in any worker.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from grader.core.board import Board
from grader.core.rule import Rule
from grader.generator import tridagon
from grader.generator.by_se import climbs_by_se, nested_by_se
from grader.generator.diverse import NearIndex, bundled, index_of
from grader.generator.search import ABOVE, BELOW, IN, Generated, Generator, Stats, Timeout
from grader.generator.symmetry import is_symmetric
from grader.generator.targets import Target, trial_levels
from grader.kernel import c as native
from grader.strategy.propagate import fixpoint

#: grids one stream makes at most (then the run takes the next stream)
QUOTA = 4
#: moves without a better key before a climb restarts from a new start
CLIMB_PATIENCE = 400
#: moves without a new grid before the exploration of a vicinity stops
EXPLORE_PATIENCE = 600
#: how much worse (share of refuted candidates) a kept move's key may be
TOLERANCE = 0.03
#: move kinds (givens erased, givens added) and their weights
MOVES: tuple[tuple[int, int, int], ...] = ((1, 1, 6), (2, 2, 2), (1, 0, 1), (0, 1, 1))
#: moves between two updates of the shared progress counters
TICK = 32
#: by Sudoku Explainer's ratings: how much lower an ER a kept move may have
SE_TOLERANCE = 0.1
#: by Sudoku Explainer's ratings: fresh minimal grids tried at most for a
#: start: the first within ``SE_START_GAP`` of the band is climbed, else the
#: one with the highest ER below it (minimal grids of 8.x: 3.5 %)
SE_START_TRIES = 64
SE_START_GAP = 1.0


class Counters:
    """Moves tried and grids found, for the progress display: plain numbers,
    or a shared ``multiprocessing`` array (``[moves, found]``) across workers."""

    def __init__(self, shared: Any = None) -> None:
        self.shared = shared
        self.moves = 0
        self.found = 0

    def add(self, moves: int = 0, found: int = 0) -> None:
        if self.shared is None:
            self.moves += moves
            self.found += found
            return
        with self.shared.get_lock():
            self.shared[0] += moves
            self.shared[1] += found

    def read(self) -> tuple[int, int]:
        if self.shared is None:
            return self.moves, self.found
        with self.shared.get_lock():
            return int(self.shared[0]), int(self.shared[1])


def climbs(gen: Generator, target: Target) -> bool:
    """Whether ``target`` is a request for the hard search: only the top
    level (a score range of 140 and up included), nested trials, or
    ``--like``.  Other requests, score ranges below 140 too, are the
    ordinary methods' grids that re-grade into the range."""
    return bool(gen.settings.like) or target.lo >= gen.top or (
        target.depth is not None and target.depth[0] >= 2) or climbs_by_se(target)


class Climber:
    """The hard search of one target with one :class:`Generator`."""

    def __init__(self, gen: Generator, target: Target, counters: Counters | None = None,
                 avoid_bundled: bool = True) -> None:
        self.gen = gen
        self.target = target
        self.geo = gen.geo
        self.counters = counters or Counters()
        self.avoid = bundled(self.geo.ncells) if avoid_bundled else NearIndex(self.geo.ncells)
        rules1 = gen.engine.rules(1)
        self.plain_top = max(gen.closures.levels)
        trials = trial_levels(gen.hierarchy)
        #: the band is at the trial levels: climb on the refutation key
        self.top_mode = bool(trials) and target.lo >= min(trials)
        self.reductio: Rule | None = next(
            (r for r in rules1 if r.kind == "trial" and r.family == "reductio"), None)
        # the depth-1 rules that must not solve a grid of the request
        if target.depth is not None and target.depth[0] >= 2:
            self.blockers: tuple[Rule, ...] | None = rules1
        elif target.lo > min(trials, default=target.lo):
            self.blockers = tuple(r for r in rules1 if r.level < target.lo)
        else:
            self.blockers = None
        self.below = Target(min(trials, default=target.lo), gen.top, "expert")
        #: the depth-1 rules below reductio (levels 1-13), when reductio is there
        self.disj: tuple[Rule, ...] | None = None
        if self.reductio is not None:
            self.disj = tuple(r for r in rules1 if r.level < self.reductio.level)
        #: the request needs nested trials / a level above disjunctive construction
        self.nested = self.reductio is not None and target.depth is not None and (
            target.depth[0] >= 2)
        self.beyond = self.blockers is not None
        #: level 14 or nested trials on 9x9: starts around an anti-tridagon
        #: (a tenth to a thirtieth of the CPU time of fresh minimal starts for
        #: level 14 and score ranges there; nested trials need them)
        self.seeded = (self.geo.a, self.geo.b) == (3, 3) and not gen.settings.like and (
            self.nested or self.reductio is not None and target.lo >= self.reductio.level)
        #: by Sudoku Explainer's ratings: climb on the ER, or (the nesting
        #: levels) on nested trials, the full walk deciding
        self.by_se = target.by_se and not nested_by_se(target)
        self.tolerance = SE_TOLERANCE if self.by_se else TOLERANCE
        if target.by_se and nested_by_se(target) and self.reductio is not None:
            self.top_mode = self.nested = self.beyond = True
            self.blockers = rules1
            self.seeded = (self.geo.a, self.geo.b) == (3, 3) and not gen.settings.like
        self._pending = 0
        self.like = [tuple(v) for v in gen.settings.like]
        #: the user's own grids are explored around, never written back
        self.own = index_of(self.like, self.geo.ncells)
        self._like_solutions: dict[tuple[int, ...], tuple[int, ...]] = {}

    # -- the stream ----------------------------------------------------
    def stream(self, rng: random.Random, deadline: float | None,
               quota: int = QUOTA) -> list[Generated]:
        """Up to ``quota`` grids of the target, apart from each other and from
        the project's grids (fewer when ``deadline`` passes first)."""
        gen = self.gen
        gen.stats = Stats()
        gen._deadline = deadline
        found: list[Generated] = []
        near = NearIndex(self.geo.ncells)
        try:
            while len(found) < quota:
                gen.stats.attempts += 1
                start = self._start(rng, gen.stats.attempts)
                if start is not None:
                    self._climb(start[0], start[1], rng, found, near, quota)
        except Timeout:
            pass
        finally:
            gen._deadline = None
            self.counters.add(moves=self._pending)
            self._pending = 0
        return found

    def _start(self, rng: random.Random, attempt: int) -> tuple[list[int], tuple[int, ...]] | None:
        """The user's grid (cycled) with ``--like``; for level 14 or nested
        trials on 9x9 a minimal grid built around an anti-tridagon; else a
        fresh minimal grid, beyond level 12 when the band is at the top."""
        gen = self.gen
        if self.like:
            values = self.like[(attempt - 1) % len(self.like)]
            sol = self._like_solutions.get(values)
            if sol is None:
                res = gen._solutions(list(values), 2, gen.node_budget)
                if res.count != 1 or res.solution is None:
                    return None
                sol = self._like_solutions[values] = res.solution
            return list(values), sol
        if self.seeded:
            return tridagon.first_start(gen, rng, lambda v, s: self.probe(v, s, None)[0])
        if self.by_se:
            return self._se_start(rng)
        while True:
            full = gen.random_solution(rng)
            start = gen.descend(list(full), self.target, rng, solution=full)
            if not self.top_mode or not gen.closures.run(self.geo, start, self.plain_top)[0]:
                return start, full

    def _se_start(self, rng: random.Random) -> tuple[list[int], tuple[int, ...]] | None:
        """Of at most :data:`SE_START_TRIES` fresh minimal grids, the first in
        the band or within :data:`SE_START_GAP` below it, else the one with the
        highest ER below it."""
        gen = self.gen
        best: tuple[float, list[int], tuple[int, ...]] | None = None
        for _ in range(SE_START_TRIES):
            full = gen.random_solution(rng)
            start = gen.descend(list(full), self.target, rng, solution=full)
            status, er = gen.se_status(start, self.target)
            if status == IN or (status == BELOW and self.target.se is not None
                                and er >= self.target.se[0] - SE_START_GAP):
                return start, full
            if status == BELOW and (best is None or er > best[0]):
                best = (er, start, full)
        return None if best is None else (best[1], best[2])

    def _climb(self, values: list[int], solution: tuple[int, ...], rng: random.Random,
               found: list[Generated], near: NearIndex, quota: int) -> None:
        """Climb from one start, then explore around each grid found.

        Climbing keeps a move whose key is at most ``TOLERANCE`` worse (the
        first two parts of the key), so the walk crosses the plateaus
        between local optima; it restarts after ``CLIMB_PATIENCE`` moves
        without a better key than the best so far.  Exploring keeps every
        hopeful move."""
        key, hopeful = self.probe(values, solution, None)
        # a start of the request (one of the user's own grids: never kept)
        # is explored around at once, until its neighbours are far enough
        exploring = hopeful and (self._keep(values, solution, rng, found, near)
                                 or bool(self.like))
        best = key
        idle = 0
        while len(found) < quota and idle < (EXPLORE_PATIENCE if exploring else CLIMB_PATIENCE):
            self._tick()
            nb = self.neighbour(values, solution, rng)
            idle += 1
            if nb is None:
                continue
            new, sol = nb
            bound = None if exploring else (key[0], key[1] + self.tolerance)
            key2, hopeful2 = self.probe(new, sol, bound)
            if hopeful2 and self._keep(new, sol, rng, found, near):
                exploring, idle = True, 0
            if exploring:
                if hopeful2:
                    values, solution, key = new, sol, key2
            elif key2[:2] <= (key[0], key[1] + self.tolerance):
                if key2 < best:
                    best, idle = key2, 0
                values, solution, key = new, sol, key2

    def _keep(self, values: list[int], solution: tuple[int, ...], rng: random.Random,
              found: list[Generated], near: NearIndex) -> bool:
        if self._near(values, near):
            return False
        made = self.gen.finish(values, solution, self.target, rng)
        if made is None or self._near(made.puzzle, near):
            return False
        made.stats = Stats(**vars(self.gen.stats))
        near.add(made.puzzle)
        found.append(made)
        self.counters.add(found=1)
        return True

    def _near(self, values: Sequence[int], near: NearIndex) -> bool:
        """Too close to a grid kept, to the user's or to the project's; or,
        from a user's grid that is not symmetric, not yet symmetric."""
        if self.like and not is_symmetric(self.geo, list(values), self.gen.settings.symmetry):
            return True
        return near.near(values) or self.own.near(values) or self.avoid.near(values)

    def _tick(self) -> None:
        self._pending += 1
        if self._pending >= TICK:
            self.counters.add(moves=self._pending)
            self._pending = 0
            self.gen._check_time()

    # -- judging a grid ------------------------------------------------
    def probe(self, values: list[int], solution: tuple[int, ...],
              cap: tuple[float, ...] | None) -> tuple[tuple[float, ...], bool]:
        """``(key, hopeful)`` of a grid with one solution: the climbing key
        (smaller is closer to the request) and whether the cheap tests let
        it through to the full grade.  ``cap``: the worst key kept (the
        refutations are counted only as far as needed, and a grid above it
        is not hopeful).

        At the top the key is ``(tier, share, -left)``: tier 2 when the
        rules of levels 1-12 solve the grid, 1 when the depth-1 rules below
        reductio do, 0 when they do not (level 14 or nested trials); the
        share of the false candidates left at that tier's fixpoint that a
        depth-1 reductio refutes (0 at tier 0: no depth-1 rule progresses,
        trials must nest); the cells left empty there."""
        gen = self.gen
        gen.stats.assessments += 1
        if self.by_se:
            # the ER itself: higher is closer, above the band is the worst
            status, er = gen.se_status(values, self.target)
            return (1.0 if status == ABOVE else 0.0, -er), status == IN
        if not self.top_mode:
            status, dist = gen.assess(values, self.target, unique=True)
            return (0.0, dist if status != IN else 0.0), status == IN
        board, _ = gen.closures.fixpoint(self.geo, values, self.plain_top)
        left = sum(1 for v in board.values if not v)
        if left == 0:
            status, dist = gen.assess(values, self.below, unique=True)
            return (2.0, dist if status == BELOW else 0.0, 0.0), False
        tier = 1.0
        if self.disj is not None:
            self._close(board, self.disj, solution)
            if not all(board.values):
                tier = 0.0
                left = sum(1 for v in board.values if not v)
            else:
                board, _ = gen.closures.fixpoint(self.geo, values, self.plain_top)
        if cap is not None and tier > cap[0]:
            return (tier, 1.0, 0.0), False
        false = sum(bin(m).count("1") for m in board.cands) - left
        limit = int(cap[1] * false) + 1 if cap is not None and cap[0] == tier else None
        refuted = self.refutations(board, solution, limit)
        key = (tier, refuted / max(1, false), float(-left))
        if cap is not None and key[:2] > cap[:2]:
            return key, False
        if self.nested:
            # no depth-1 refutation left: trials must nest; else ask the
            # fixpoint of every depth-1 rule
            return key, tier == 0.0 and (refuted == 0 or self.stuck(values, solution))
        if self.beyond:
            return key, tier == 0.0 or (self.disj is None and self.stuck(values, solution))
        return key, True

    def refutations(self, board: Board, solution: Sequence[int], limit: int | None) -> int:
        """How many candidates a depth-1 reductio refutes on ``board`` (the
        fixpoint of levels 1-12), counting at most to ``limit``."""
        rule = self.reductio
        if rule is None:
            return 0
        board.solution = tuple(solution)
        n = 0
        for _ in rule._contradictions(board, rule.context.propagation):  # type: ignore[attr-defined]
            n += 1
            if limit is not None and n >= limit:
                break
        return n

    def stuck(self, values: list[int], solution: Sequence[int]) -> bool:
        """Whether the depth-1 rules below the band leave the grid unsolved."""
        if self.blockers is None:
            return True
        board = Board.from_values(self.geo, values)
        self._close(board, self.blockers, solution)
        return not all(board.values)

    @staticmethod
    def _close(board: Board, rules: Sequence[Rule], solution: Sequence[int]) -> None:
        """``board`` to the fixpoint of ``rules`` (trials included), in place."""
        prog = native.program(rules)
        if prog is not None:
            prog.closure(board, solution)
        else:
            board.solution = tuple(solution)
            fixpoint(board, rules)

    # -- the moves -----------------------------------------------------
    def neighbour(self, values: list[int], solution: tuple[int, ...],
                  rng: random.Random) -> tuple[list[int], tuple[int, ...]] | None:
        """A random grid a small move away with exactly one solution, and
        that solution; None when the move drawn fails."""
        gen, s = self.gen, self.gen.settings
        out, add, _ = rng.choices(MOVES, weights=[w for *_, w in MOVES])[0]
        present = [o for o in gen.orbits if values[o[0]]]
        absent = [o for o in gen.orbits if not values[o[0]]]
        if len(present) < out or len(absent) < add:
            return None
        gone = rng.sample(present, out)
        givens = sum(1 for v in values if v) - sum(map(len, gone))
        new = values[:]
        for o in gone:
            for c in o:
                new[c] = 0
        gen.stats.moves += 1
        if add == 0:
            if s.min_givens is not None and givens < s.min_givens:
                return None
            return (new, solution) if gen._unique(new) else None
        res = gen._solutions(new, 2, gen.node_budget)
        if res.count == 0 or res.nodes > gen.node_budget:
            return None
        choices = [o for o in absent if o not in gone]
        if res.count >= 2:
            a, b = res.solutions[0], res.solutions[1]
            split = [o for o in choices if any(a[c] != b[c] for c in o)]
            if not split:
                return None
            first = rng.choice(split)
            pick = a if rng.random() < 0.5 else b
        else:
            first, pick = rng.choice(choices), solution
        others = [o for o in choices if o != first]
        extra = rng.sample(others, min(add - 1, len(others)))
        for o in (first, *extra):
            for c in o:
                new[c] = pick[c]
            givens += len(o)
        if ((s.max_givens is not None and givens > s.max_givens)
                or (s.min_givens is not None and givens < s.min_givens)):
            return None
        if res.count == 1 and pick is solution:
            return new, solution  # more givens of a grid with one solution
        final = gen._solutions(new, 2, gen.node_budget)
        if final.count != 1 or final.nodes > gen.node_budget or final.solution is None:
            return None
        return new, final.solution


__all__ = ["ABOVE", "BELOW", "IN", "Climber", "Counters", "climbs"]
