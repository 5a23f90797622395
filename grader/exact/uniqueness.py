"""Making puzzles with a unique solution from a full solution, by SAT with
assumptions: one solver, loaded once, decides "is the solution still
unique with only these givens?" for any subset of the givens.

The solver holds a CNF whose models are the valid fillings (one grid, or a
Sudoku pair), one *selector* literal ``s_i`` per cell with the clause
``not s_i or x(cell_i, value_i)`` ("if given i is kept, its cell holds its
value"), and the clause "not the known solution".  With the selectors of a
set of givens as assumptions the formula is unsatisfiable exactly when the
solution is the only one those givens allow.  Removing givens can only add
solutions, so one pass that drops each given in turn when uniqueness
survives leaves a *minimal* puzzle: no remaining given can be removed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence

from pysat.solvers import Solver  # type: ignore[import-untyped]

from grader.core.geometry import Geometry
from grader.exact.sat import base_clauses


def shifted(clauses: Iterable[Sequence[int]], offset: int) -> Iterator[Sequence[int]]:
    """The clauses with every variable moved up by ``offset``, generated lazily."""
    if not offset:
        yield from clauses
        return
    for cl in clauses:
        yield tuple(lit + offset if lit > 0 else lit - offset for lit in cl)


def pattern_solution(geo: Geometry) -> tuple[int, ...]:
    """A valid full grid of any shape: row ``r`` is the first row shifted by
    ``b * (r mod a) + r div a`` (blocks of ``a`` rows by ``b`` columns)."""
    n, a, b = geo.n, geo.a, geo.b
    return tuple((b * (r % a) + r // a + c) % n + 1 for r in range(n) for c in range(n))


def random_symmetry(geo: Geometry, rng: random.Random) -> tuple[list[int], list[int]]:
    """A random validity-preserving transformation: (cell map, value map).

    ``new[cell] = value_map[old[cell_map[cell]]]``; rows are permuted inside
    bands and bands among themselves, columns inside stacks and stacks among
    themselves, values relabelled (``value_map[0]`` unused)."""
    n, a, b = geo.n, geo.a, geo.b
    bands = list(range(n // a))
    rng.shuffle(bands)
    rows = [band * a + i for band in bands for i in rng.sample(range(a), a)]
    stacks = list(range(n // b))
    rng.shuffle(stacks)
    cols = [st * b + j for st in stacks for j in rng.sample(range(b), b)]
    cell_map = [rows[r] * n + cols[c] for r in range(n) for c in range(n)]
    labels = list(range(1, n + 1))
    rng.shuffle(labels)
    return cell_map, [0, *labels]


def transform(values: Sequence[int], sym: tuple[list[int], list[int]]) -> tuple[int, ...]:
    cell_map, value_map = sym
    return tuple(value_map[values[src]] for src in cell_map)


class UniquenessOracle:
    """One SAT solver answering "is ``solution`` the only model with these
    givens?" for any subset of givens, through assumptions.

    ``grids`` is a list of geometries laid out one after the other in the
    variable space (variable of grid ``g``, cell ``c``, value ``v``:
    ``offset[g] + c * n + v``); ``extra`` are additional clauses over those
    variables (e.g. the Sudoku-pair constraints).  Each grid uses the
    ``extended`` encoding (the classic one plus "each value at least once in
    each region", which speeds unit propagation up)."""

    def __init__(self, geos: Sequence[Geometry], solution: Sequence[Sequence[int]],
                 extra: Iterable[Sequence[int]] = (), solver: str = "cadical153") -> None:
        self.geos = list(geos)
        self.offsets: list[int] = []
        top = 0
        for geo in self.geos:
            self.offsets.append(top)
            top += geo.ncells * geo.n
        self.nvars = top
        self.solver = Solver(name=solver)
        for geo, off in zip(self.geos, self.offsets, strict=True):
            self.solver.append_formula(shifted(base_clauses(geo, "extended"), off))
        self.solver.append_formula(extra)
        #: (grid, cell) of each given, in a fixed order
        self.cells: list[tuple[int, int]] = [(g, c) for g, geo in enumerate(self.geos)
                                             for c in range(geo.ncells)]
        self.solution = [tuple(s) for s in solution]
        self.selectors: list[int] = []
        truth = []
        for g, c in self.cells:
            x = self.var(g, c, self.solution[g][c])
            truth.append(x)
            sel = top + 1 + len(self.selectors)
            self.selectors.append(sel)
            self.solver.add_clause([-sel, x])
        self.solver.add_clause([-x for x in truth])  # not the known solution
        self.calls = 0

    def var(self, grid: int, cell: int, value: int) -> int:
        return self.offsets[grid] + cell * self.geos[grid].n + value

    def unique(self, kept: Iterable[int]) -> bool:
        """Whether the givens ``kept`` (indices into :attr:`cells`) allow only
        the known solution."""
        self.calls += 1
        return not self.solver.solve(assumptions=[self.selectors[i] for i in kept])

    def minimize(self, order: Sequence[int], keep: Iterable[int] = (),
                 max_holes: int | None = None) -> list[int]:
        """Drop the givens in ``order`` one by one while uniqueness survives
        (``keep``: givens never dropped; ``max_holes``: stop after that many
        removals).  Returns the indices of the givens kept, sorted."""
        active = set(range(len(self.cells)))
        holes = 0
        for i in order:
            if i in keep:
                continue
            if max_holes is not None and holes >= max_holes:
                break
            active.discard(i)
            if self.unique(sorted(active)):
                holes += 1
            else:
                active.add(i)
        return sorted(active)

    def removable(self, kept: Sequence[int]) -> list[int]:
        """The givens of ``kept`` whose removal alone keeps the solution unique
        (empty for a minimal puzzle)."""
        out = []
        for i in kept:
            rest = [j for j in kept if j != i]
            if self.unique(rest):
                out.append(i)
        return out

    def close(self) -> None:
        self.solver.delete()

    def __enter__(self) -> UniquenessOracle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def make_puzzle(geo: Geometry, seed: int = 0, max_holes: int | None = None,
                solver: str = "cadical153") -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A puzzle with a unique solution: a shuffled pattern grid, then givens
    removed in random order while the solution stays unique (at most
    ``max_holes`` of them).  Returns (puzzle, solution)."""
    rng = random.Random(seed)
    solution = transform(pattern_solution(geo), random_symmetry(geo, rng))
    order = list(range(geo.ncells))
    rng.shuffle(order)
    with UniquenessOracle([geo], [solution], solver=solver) as oracle:
        kept = set(oracle.minimize(order, max_holes=max_holes))
    puzzle = tuple(v if c in kept else 0 for c, v in enumerate(solution))
    return puzzle, solution


def random_solution(geo: Geometry, rng: random.Random,
                    solver: str = "cadical153") -> tuple[int, ...]:
    """A random full grid: a SAT solver with random decision phases on the
    ``extended`` encoding of the blank grid, then a random symmetry."""
    n = geo.n
    with Solver(name=solver, bootstrap_with=base_clauses(geo, "extended")) as s:
        nv = geo.ncells * n
        s.set_phases([x if rng.random() < 1 / n else -x for x in range(1, nv + 1)])
        # a random first row pins down the search direction
        row = rng.sample(range(1, n + 1), n)
        if not s.solve(assumptions=[c * n + v for c, v in enumerate(row)]):
            raise RuntimeError("no grid with this first row")  # cannot happen
        model = s.get_model()
    vals = [0] * geo.ncells
    for lit in model:
        if 0 < lit <= nv:
            vals[(lit - 1) // n] = (lit - 1) % n + 1
    return transform(vals, random_symmetry(geo, rng))
