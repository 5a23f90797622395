"""Every 4x4 grid with one solution, graded by fixpoints: the hardest level.

    python benchmarks/levels_4x4.py

The rules are monotonic, so the strategy solves a grid with levels ``<= L``
exactly when the fixpoint of the rules of levels ``<= L`` solves it.  This
walks every subset of the givens of every 4x4 solution grid whose first row
is 1 2 3 4 (the others are relabellings of these, and relabelling changes no
level), keeps those with exactly one solution (the exact solver), and prints
how many of them the singles (levels 1-2) and single position alone (level
1) solve.  ``generate --size 4`` refuses ratings above the hardest level
found, and the README quotes the counts.
"""

from __future__ import annotations

import time
from collections import Counter

from grader.core.geometry import geometry
from grader.generator.fast import Closures
from grader.kernel import solve
from grader.strategy.engine import Engine


def main() -> None:
    geo = geometry(2, 2)
    t0 = time.perf_counter()
    first = [1, 2, 3, 4] + [0] * 12
    grids = solve(geo, first, 1000).solutions
    levels: Counter[int] = Counter()
    closures = Closures(Engine(record=False))
    unique = 0
    for sol in grids:
        for mask in range(1 << 16):
            vals = [sol[c] if mask >> c & 1 else 0 for c in range(16)]
            if solve(geo, vals, 2).count != 1:
                continue
            unique += 1
            levels[closures.singles(geo, vals)[0]] += 1
    print(f"{len(grids)} solution grids with first row 1234, {unique} grids with one "
          f"solution, in {time.perf_counter() - t0:.0f} s")
    for lv in sorted(levels):
        what = {0: "already solved", 1: "single position solves it",
                2: "the singles solve it", 3: "needs level 3 or more"}[lv]
        print(f"  level {lv if lv < 3 else '>= 3'}: {levels[lv]} ({what})")


if __name__ == "__main__":
    main()
