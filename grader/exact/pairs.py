"""Sudoku pairs: two grids of the same shape, each a Sudoku, whose
corresponding cells must hold different values.

Both grids are encoded for SAT side by side (grid A's variables
``1 .. n**3``, grid B's ``n**3 + 1 .. 2 n**3``, each with the ``extended``
encoding of :mod:`grader.exact.sat`) plus, for every cell and value,
the clause ``not a(cell, v) or not b(cell, v)``.

:func:`solve_pair` counts the joint solutions up to a limit (blocking
clauses).  :func:`generate_pair` builds a random solution pair, then removes
givens of both grids in random order while the joint solution stays unique,
deciding each removal with one incremental solver and selector assumptions
(:class:`grader.exact.uniqueness.UniquenessOracle`): the result is
*minimal*, no remaining given can be removed without losing uniqueness.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from pysat.solvers import Solver  # type: ignore[import-untyped]

from grader.core.geometry import Geometry, geometry
from grader.exact.base import given_conflict
from grader.exact.sat import base_clauses, resolve_solver
from grader.exact.uniqueness import UniquenessOracle, random_symmetry, shifted, transform

Values = tuple[int, ...]
#: the SAT solver pairs use unless told otherwise
DEFAULT_PAIR_SOLVER = "cadical153"


def pair_clauses(geo: Geometry) -> list[tuple[int, int]]:
    """``not a(c, v) or not b(c, v)`` for every cell and value."""
    off = geo.ncells * geo.n
    return [(-x, -(x + off)) for x in range(1, off + 1)]


def _pair_cnf(geo: Geometry) -> Iterator[Sequence[int]]:
    """Both grids' clauses (extended encoding) and the pair constraints, lazily."""
    off = geo.ncells * geo.n
    base = base_clauses(geo, "extended")
    return chain(base, shifted(base, off), pair_clauses(geo))


def _pair_cnf_size(geo: Geometry) -> int:
    return 2 * len(base_clauses(geo, "extended")) + geo.ncells * geo.n


def _decode(geo: Geometry, model: Sequence[int]) -> tuple[Values, Values]:
    n = geo.n
    off = geo.ncells * n
    a = [0] * geo.ncells
    b = [0] * geo.ncells
    for lit in model:
        if 0 < lit <= off:
            a[(lit - 1) // n] = (lit - 1) % n + 1
        elif off < lit <= 2 * off:
            b[(lit - off - 1) // n] = (lit - off - 1) % n + 1
    return tuple(a), tuple(b)


@dataclass(frozen=True)
class PairResult:
    """Joint solutions of a pair, up to ``limit``: (grid A, grid B) each."""

    count: int
    solutions: tuple[tuple[Values, Values], ...]
    limit: int
    seconds: float
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def unique(self) -> bool:
        return self.count == 1


def is_pair_solution(geo: Geometry, a_values: Sequence[int], b_values: Sequence[int],
                     a: Sequence[int], b: Sequence[int]) -> bool:
    """An independent check: both grids valid, keep their givens, and differ cell by cell."""
    from grader.exact.base import is_solution

    return (is_solution(geo, a_values, a) and is_solution(geo, b_values, b)
            and all(x != y for x, y in zip(a, b, strict=True)))


def solve_pair(geo: Geometry, a_values: Sequence[int], b_values: Sequence[int],
               limit: int = 2, solver: str = DEFAULT_PAIR_SOLVER) -> PairResult:
    """Count the joint solutions of a pair of grids (0 = empty) up to ``limit``."""
    t0 = time.perf_counter()
    n = geo.n
    off = geo.ncells * n
    name = resolve_solver(solver)
    if given_conflict(geo, a_values) or given_conflict(geo, b_values):
        return PairResult(0, (), limit, time.perf_counter() - t0, {"solver": name, "calls": 0})
    units = [(c * n + v,) for c, v in enumerate(a_values) if v]
    units += [(off + c * n + v,) for c, v in enumerate(b_values) if v]
    cnf = _pair_cnf(geo)
    found: list[tuple[Values, Values]] = []
    calls = 0
    with Solver(name=name, bootstrap_with=cnf) as s:
        s.append_formula(units)
        while len(found) < limit:
            calls += 1
            if not s.solve():
                break
            a, b = _decode(geo, s.get_model())
            found.append((a, b))
            block = [-(c * n + v) for c, v in enumerate(a) if not a_values[c]]
            block += [-(off + c * n + v) for c, v in enumerate(b) if not b_values[c]]
            if not block:
                break
            s.add_clause(block)
    stats = {"solver": name, "calls": calls, "variables": 2 * off,
             "clauses": _pair_cnf_size(geo) + len(units)}
    return PairResult(len(found), tuple(sorted(found)), limit, time.perf_counter() - t0, stats)


def random_pair_solution(geo: Geometry, rng: random.Random,
                         solver: str = DEFAULT_PAIR_SOLVER) -> tuple[Values, Values]:
    """A random solved pair: SAT with random decision phases (and a random
    first row of A), then one random symmetry applied to both grids (the same
    cell permutation and value relabelling keep corresponding cells different)."""
    n = geo.n
    off = geo.ncells * n
    with Solver(name=resolve_solver(solver), bootstrap_with=_pair_cnf(geo)) as s:
        s.set_phases([x if rng.random() < 1 / n else -x for x in range(1, 2 * off + 1)])
        row = rng.sample(range(1, n + 1), n)
        if not s.solve(assumptions=[c * n + v for c, v in enumerate(row)]):
            raise RuntimeError(f"no Sudoku pair of order {geo.a}")  # order 1 only
        a, b = _decode(geo, s.get_model())
    sym = random_symmetry(geo, rng)
    return transform(a, sym), transform(b, sym)


@dataclass(frozen=True)
class GeneratedPair:
    """A pair puzzle with a unique joint solution and no removable given."""

    geo: Geometry
    puzzle_a: Values
    puzzle_b: Values
    solution_a: Values
    solution_b: Values
    seed: int
    sat_calls: int
    seconds: float
    #: False when a deadline stopped the removals: the joint solution is still
    #: unique, but the givens not tried yet may be removable.
    complete: bool = True

    @property
    def givens(self) -> int:
        return sum(1 for v in self.puzzle_a if v) + sum(1 for v in self.puzzle_b if v)


#: The block orders :func:`generate_pair` takes: order 4 (16x16) takes seconds;
#: order 5 (25x25) does not finish in reasonable time, so it is refused.
PAIR_ORDERS = range(2, 5)


def check_pair_order(order: int) -> None:
    """Raise ValueError, saying why, for an order :func:`generate_pair` refuses."""
    if order not in PAIR_ORDERS:
        lo, hi = PAIR_ORDERS[0], PAIR_ORDERS[-1]
        why = (" (order 5 and above do not finish in reasonable time)" if order > hi else "")
        raise ValueError(f"--order {order}: a Sudoku pair is generated for orders {lo} to {hi} "
                         f"({lo * lo}x{lo * lo} to {hi * hi}x{hi * hi}){why}")


def generate_pair(order: int, seed: int = 0, solver: str = DEFAULT_PAIR_SOLVER,
                  progress: Callable[[int, int], None] | None = None,
                  timeout: float | None = None) -> GeneratedPair:
    """A pair of ``order**2 x order**2`` grids with a unique joint solution and
    maximal holes: every given of both grids was tried for removal, in a random
    order, and kept only when removing it would let another solution in.

    ``progress(done, total)`` is called after each tried removal.  After
    ``timeout`` seconds no more removals are tried: the pair comes back with
    ``complete`` False (unique, perhaps with removable givens)."""
    check_pair_order(order)
    t0 = time.perf_counter()
    geo = geometry(order, order)
    rng = random.Random(seed)
    sa, sb = random_pair_solution(geo, rng, solver)
    cells = list(range(2 * geo.ncells))
    rng.shuffle(cells)
    with UniquenessOracle([geo, geo], [sa, sb], pair_clauses(geo),
                          solver=resolve_solver(solver)) as oracle:
        deadline = None if timeout is None else t0 + timeout
        kept_list, complete = _minimize(oracle, cells, progress, deadline)
        kept = set(kept_list)
        calls = oracle.calls
    nc = geo.ncells
    pa = tuple(v if c in kept else 0 for c, v in enumerate(sa))
    pb = tuple(v if nc + c in kept else 0 for c, v in enumerate(sb))
    return GeneratedPair(geo, pa, pb, sa, sb, seed, calls, time.perf_counter() - t0, complete)


def _minimize(oracle: UniquenessOracle, order: list[int],
              progress: Callable[[int, int], None] | None,
              deadline: float | None = None) -> tuple[list[int], bool]:
    """The givens kept, and whether every one was tried before ``deadline``."""
    if progress is None and deadline is None:
        return oracle.minimize(order), True
    active = set(range(len(oracle.cells)))
    for k, i in enumerate(order, 1):
        if deadline is not None and time.perf_counter() > deadline:
            return sorted(active), False
        active.discard(i)
        if not oracle.unique(sorted(active)):
            active.add(i)
        if progress is not None:
            progress(k, len(order))
    return sorted(active), True


def pair_oracle(geo: Geometry, solution_a: Sequence[int], solution_b: Sequence[int],
                solver: str = DEFAULT_PAIR_SOLVER) -> UniquenessOracle:
    """A uniqueness oracle for a solved pair: ``unique(kept)`` for any set of
    givens (indices ``cell`` for grid A, ``ncells + cell`` for grid B)."""
    return UniquenessOracle([geo, geo], [solution_a, solution_b], pair_clauses(geo),
                            solver=resolve_solver(solver))


def given_indices(puzzle_a: Sequence[int], puzzle_b: Sequence[int]) -> list[int]:
    """The oracle indices of the givens of a pair puzzle."""
    nc = len(puzzle_a)
    return ([c for c, v in enumerate(puzzle_a) if v]
            + [nc + c for c, v in enumerate(puzzle_b) if v])


# -- ``pair generate`` as a library call ------------------------------------------------
#: what ``pair generate --format`` accepts (declared once: the command's choices
#: derive from it); ``text``: a grid a line
PAIR_FORMATS: tuple[str, ...] = ("block", "text", "nt")
#: old names, still accepted (not listed), and what each means
PAIR_FORMAT_ALIASES = {"line": "text"}


def render_pair(geo: Geometry, a: Sequence[int], b: Sequence[int], fmt: str,
                empty: str = "0") -> str:
    """The two grids of a pair as ``nt`` (two "N T" lines), ``text`` (two lines)
    or ``block`` (two blocks of rows, a blank line between)."""
    from grader.exact.render import block_lines, nt_line, token

    fmt = PAIR_FORMAT_ALIASES.get(fmt, fmt)
    if fmt == "nt":
        return f"{nt_line(geo, a)}\n{nt_line(geo, b)}"
    if fmt == "text":
        return f"{token(geo, a, empty)}\n{token(geo, b, empty)}"
    return "\n".join(block_lines(geo, a, empty)) + "\n\n" + "\n".join(block_lines(geo, b, empty))


@dataclass(frozen=True)
class PairGenerateOptions:
    """What ``pair generate`` is asked, typed (the command's options, parsed)."""

    order: int = 3
    seed: int = 0
    output_format: str = "block"
    with_solution: bool = False
    sat_solver: str = DEFAULT_PAIR_SOLVER
    #: seconds for the removals (None: no limit)
    timeout: float | None = None


def pair_generate(opts: PairGenerateOptions,
                  progress: Callable[[int, int], None] | None = None) -> GeneratedPair:
    """:func:`generate_pair` with the options (ValueError for an order it refuses
    or an unknown format, :class:`~grader.exact.EngineError` for an unknown solver)."""
    if opts.output_format not in (*PAIR_FORMATS, *PAIR_FORMAT_ALIASES):
        raise ValueError(f"unknown pair format {opts.output_format!r} "
                         f"(choose from {', '.join(PAIR_FORMATS)})")
    return generate_pair(opts.order, opts.seed, opts.sat_solver, progress, opts.timeout)


def pair_text(gen: GeneratedPair, opts: PairGenerateOptions) -> str:
    """The puzzle pair in the requested format (and the joint solution after it
    with ``with_solution``), without a final newline."""
    fmt = opts.output_format
    text = render_pair(gen.geo, gen.puzzle_a, gen.puzzle_b, fmt)
    if opts.with_solution:
        text += "\n\n" if fmt == "block" else "\n"
        text += render_pair(gen.geo, gen.solution_a, gen.solution_b, fmt)
    return text


def pair_summary(gen: GeneratedPair, opts: PairGenerateOptions) -> str:
    """The run in one line: order, size, seed, givens, SAT calls, time."""
    geo = gen.geo
    na = sum(1 for v in gen.puzzle_a if v)
    nb = sum(1 for v in gen.puzzle_b if v)
    return (f"order {opts.order} pair ({geo.n}x{geo.n}), seed {opts.seed}: {gen.givens} givens "
            f"({na} + {nb}) of {2 * geo.ncells} cells, {gen.sat_calls} SAT calls, "
            f"{gen.seconds:.2f} s")


@dataclass(frozen=True)
class PairCheck:
    """``--verify``: the joint solutions a fresh solver counts (up to 2) and the
    givens that could go without losing uniqueness."""

    count: int
    removable: list[int]
    seconds: float

    @property
    def ok(self) -> bool:
        return self.count == 1 and not self.removable

    def line(self) -> str:
        c, r = self.count, len(self.removable)
        return (f"verify: {c} joint solution{'s' if c != 1 else ''}; "
                f"{r} given{'s' if r != 1 else ''} removable without losing uniqueness "
                f"({self.seconds:.2f} s): " + ("ok" if self.ok else "FAILED"))


def verify_pair(gen: GeneratedPair, solver: str = DEFAULT_PAIR_SOLVER) -> PairCheck:
    """Check a generated pair again, from scratch: one joint solution, minimal."""
    t0 = time.perf_counter()
    res = solve_pair(gen.geo, gen.puzzle_a, gen.puzzle_b, 2, solver)
    with pair_oracle(gen.geo, gen.solution_a, gen.solution_b, solver) as oracle:
        removable = oracle.removable(given_indices(gen.puzzle_a, gen.puzzle_b))
    return PairCheck(res.count, list(removable), time.perf_counter() - t0)
