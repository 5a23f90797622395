"""Start grids built around an anti-tridagon (9x9 only), for level 14 and
nested trials.

An *anti-tridagon* ("Thor's hammer") is a rectangle of four boxes (two
bands by two stacks), three digits ``a b c`` and, in each box, three cells
forming a transversal (one per row and per column of the box) such that
the 12 cells cannot all hold ``a b c``: the transversals' permutations have
an odd number of odd ones.  A solution grid can then hold ``a b c`` in at
most 11 of the cells.  A start is a solution with ``a b c`` in 11 of them
and another digit in the twelfth (the *guardian*), reduced to a minimal
grid that keeps the 12 cells empty and, as far as uniqueness lets it, the
digits ``a b c`` of the rows, columns and boxes of the pattern.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

from grader.generator.search import Generator

#: the transversals of a 3x3 box: row i of the box holds column PERMS[k][i]
PERMS: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(range(3)))
#: how many tries at a solution with the pattern before another pattern
FILL_TRIES = 8
#: starts drawn at most for one beyond the depth-1 rules below reductio
START_TRIES = 400


class Pattern(NamedTuple):
    """The 12 cells (box by box, row by row) and the three digits."""

    cells: tuple[int, ...]
    digits: tuple[int, int, int]


def odd(perm: Sequence[int]) -> bool:
    """Whether a permutation of ``0..2`` is odd."""
    return sum(perm[i] > perm[j] for i in range(3) for j in range(i + 1, 3)) % 2 == 1


def random_pattern(rng: random.Random) -> Pattern:
    """Four boxes in a rectangle, three digits, one transversal per box, an
    odd number of them odd (the pattern no filling with three digits fits)."""
    bands = sorted(rng.sample(range(3), 2))
    stacks = sorted(rng.sample(range(3), 2))
    while True:
        perms = [rng.choice(PERMS) for _ in range(4)]
        if sum(map(odd, perms)) % 2 == 1:
            break
    cells: list[int] = []
    for (band, stack), p in zip(itertools.product(bands, stacks), perms, strict=True):
        cells += [(3 * band + i) * 9 + 3 * stack + p[i] for i in range(3)]
    digits = tuple(sorted(rng.sample(range(1, 10), 3)))
    return Pattern(tuple(cells), (digits[0], digits[1], digits[2]))


def _peers(a: int, b: int) -> bool:
    return a // 9 == b // 9 or a % 9 == b % 9 or (a // 27, a % 9 // 3) == (b // 27, b % 9 // 3)


def _fill(cells: Sequence[int], digits: Sequence[int], rng: random.Random,
          done: dict[int, int]) -> dict[int, int] | None:
    """Digits of ``digits`` for ``cells``, no two peers alike (random order)."""
    if len(done) == len(cells):
        return done
    cell = cells[len(done)]
    for v in rng.sample(list(digits), len(digits)):
        if all(done[c] != v for c in done if _peers(c, cell)):
            done[cell] = v
            if _fill(cells, digits, rng, done) is not None:
                return done
            del done[cell]
    return None


def seeded_solution(gen: Generator, rng: random.Random
                    ) -> tuple[tuple[int, ...], Pattern, int]:
    """A random solution grid holding ``a b c`` in 11 cells of a random
    anti-tridagon, and the guardian cell (the twelfth)."""
    while True:
        pat = random_pattern(rng)
        guardian = rng.choice(pat.cells)
        rest = [c for c in pat.cells if c != guardian]
        for _ in range(FILL_TRIES):
            gen._check_time()
            filled = _fill(rest, pat.digits, rng, {})
            if filled is None:
                break
            values = [0] * 81
            for c, v in filled.items():
                values[c] = v
            others = [v for v in range(1, 10) if v not in pat.digits]
            values[guardian] = rng.choice(others)
            # a random box outside the rectangle, to vary the completion
            free = [k for k in range(9) if all(
                (c // 27, c % 9 // 3) != (k // 3, k % 3) for c in pat.cells)]
            box = gen.geo.blocks[rng.choice(free)]
            for c, v in zip(box, rng.sample(range(1, 10), 9), strict=True):
                values[c] = v
            res = gen._solutions(values, 1, max_nodes=50 * 81)
            if res.solution is not None:
                return res.solution, pat, guardian


def erase_order(gen: Generator, solution: Sequence[int], pat: Pattern,
                rng: random.Random) -> list[tuple[int, ...]]:
    """The orbits in the order to erase: the pattern's first, then those
    holding ``a b c`` in the pattern's rows, columns and boxes, then the rest
    (each group in random order)."""
    cells = set(pat.cells)
    rows = {c // 9 for c in cells}
    cols = {c % 9 for c in cells}
    boxes = {(c // 27, c % 9 // 3) for c in cells}

    def near(c: int) -> bool:
        return solution[c] in pat.digits and (
            c // 9 in rows or c % 9 in cols or (c // 27, c % 9 // 3) in boxes)

    groups: tuple[list[tuple[int, ...]], ...] = ([], [], [])
    for o in gen.orbits:
        k = 0 if cells.intersection(o) else 1 if any(near(c) for c in o) else 2
        groups[k].append(o)
    order: list[tuple[int, ...]] = []
    for g in groups:
        rng.shuffle(g)
        order += g
    return order


def start(gen: Generator, rng: random.Random) -> tuple[list[int], tuple[int, ...]]:
    """A minimal grid around an anti-tridagon and its solution."""
    solution, pat, _ = seeded_solution(gen, rng)
    values = list(solution)
    givens = 81
    for orbit in erase_order(gen, solution, pat, rng):
        if not gen._can_erase(givens, orbit):
            continue
        new = values[:]
        for c in orbit:
            new[c] = 0
        gen._check_time()
        if gen._unique(new):
            values = new
            givens -= len(orbit)
    return values, solution


def first_start(gen: Generator, rng: random.Random,
                key: Callable[[list[int], tuple[int, ...]], tuple[float, ...]],
                ) -> tuple[list[int], tuple[int, ...]]:
    """The first start whose climbing ``key`` (the hard search's, tier
    first) is at tier 0: the depth-1 rules below reductio leave it unsolved
    (about one start in 40; fresh minimal grids, one in 2,000); else the
    best by ``key`` of ``START_TRIES``."""
    best: tuple[tuple[float, ...], list[int], tuple[int, ...]] | None = None
    for _ in range(START_TRIES):
        values, solution = start(gen, rng)
        k = key(values, solution)
        if k[0] == 0.0:
            return values, solution
        if best is None or k < best[0]:
            best = (k, values, solution)
    assert best is not None
    return best[1], best[2]


__all__ = ["PERMS", "Pattern", "first_start", "odd", "random_pattern", "seeded_solution",
           "start"]
