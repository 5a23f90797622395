"""Make the test grids of the exact engines (tests/data/engines-*.txt).

Each grid is built here, not copied: a random full grid (a SAT solver with
random decision phases, then a random symmetry), then givens removed in a
random order while one incremental SAT solver, asked with assumptions,
confirms that the solution stays unique (grader.exact.uniqueness).  Small
grids (and one 16x16) are made minimal; the other 16x16, 25x25 and 36x36 ones keep many givens
(a bounded number of holes) so that every engine solves them in well under a
second or two.  Run from the repository root:

    .venv/bin/python tests/data/make_engine_grids.py
"""

from __future__ import annotations

import random
from pathlib import Path

from grader.core.geometry import geometry_for_size
from grader.exact.render import nt_line, token
from grader.exact.uniqueness import UniquenessOracle, random_solution

HERE = Path(__file__).parent


def make(n: int, seed: int, holes: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    geo = geometry_for_size(n)
    rng = random.Random(f"engines-{n}-{seed}")
    solution = random_solution(geo, rng)
    order = list(range(geo.ncells))
    rng.shuffle(order)
    with UniquenessOracle([geo], [solution]) as oracle:
        kept = set(oracle.minimize(order, max_holes=holes))
    return tuple(v if c in kept else 0 for c, v in enumerate(solution)), solution


def main() -> None:
    lines = ["# Grids made by tests/data/make_engine_grids.py: puzzle, then # and the solution."]
    for n, holes in ((4, None), (6, None), (8, None), (9, None), (12, None), (16, 128)):
        geo = geometry_for_size(n)
        for seed in (1, 2):
            p, s = make(n, seed, holes)
            lines.append(f"{token(geo, p)} # {token(geo, s)}")
    (HERE / "engines-sizes.txt").write_text("\n".join(lines) + "\n")
    p, s = make(16, 5, None)  # minimal: singles alone do not finish it
    geo = geometry_for_size(16)
    (HERE / "engines-16x16-minimal.txt").write_text(
        "# A minimal 16x16 made by tests/data/make_engine_grids.py, then # and its solution.\n"
        f"{token(geo, p)} # {token(geo, s)}\n")
    for n, holes in ((16, 120), (25, 290), (36, 500)):
        geo = geometry_for_size(n)
        out = []
        for seed in (1, 2):
            p, s = make(n, seed, holes)
            out.append(nt_line(geo, p))
            out.append(nt_line(geo, s))
        (HERE / f"engines-{n}x{n}.nt.txt").write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
