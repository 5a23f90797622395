"""Anti-tridagons and nested trials: a study for ``generate --depth 2``
(issue 15).

    python benchmarks/tridagon_seed.py [FILE] [--limit N] [--starts M] [--generate K]
        [--seed S]

``FILE``: for each grid of FILE (9x9, one solution) that needs nested
trials (bottleneck 0 in ``benchmarks/nested_basin.py``), the fewest
*guardians* of an anti-tridagon at the fixpoint of every depth-1 rule:
candidates other than ``a b c`` in the 12 cells of a pattern (four boxes
in a rectangle, three digits, a transversal in each box, an odd number of
them odd permutations, every cell empty and admitting one of ``a b c``),
and the digits ``a b c`` given in the four boxes of the best pattern.
FILE is studied, never used as a seed.

``--starts M``: ``M`` starts of :mod:`grader.generator.tridagon` and ``M``
plain starts of the hard search (fresh minimal grids beyond level 12), and
how many are at each tier and bottleneck (tier 0: the depth-1 rules below
reductio leave the grid unsolved; bottleneck 0: nested trials needed).

``--generate K``: ``K`` grids of ``generate --rating expert --depth 2``
(one process) and the same guardian count for each, with the CPU time.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import random
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.nested_basin import climber, profile
from grader.core.board import Board
from grader.formats import iter_source
from grader.generator import generate, tridagon
from grader.generator.climb import Climber

ROOT = Path(__file__).resolve().parent.parent


def box_cells(band: int, stack: int, perm: Sequence[int]) -> list[int]:
    return [(3 * band + i) * 9 + 3 * stack + perm[i] for i in range(3)]


def fewest_guardians(board: Board) -> tuple[int, tuple[int, ...], list[tuple[int, int]]] | None:
    """``(guardians, digits, boxes)`` of the anti-tridagon with the fewest
    guardians on ``board`` (None when none fits)."""
    best: tuple[int, tuple[int, ...], list[tuple[int, int]]] | None = None
    cands, values = board.cands, board.values
    for bands in itertools.combinations(range(3), 2):
        for stacks in itertools.combinations(range(3), 2):
            boxes = list(itertools.product(bands, stacks))
            for digits in itertools.combinations(range(1, 10), 3):
                mask = sum(1 << (d - 1) for d in digits)
                per: list[list[tuple[int, bool]]] = []
                for band, stack in boxes:
                    opts = []
                    for p in tridagon.PERMS:
                        cs = box_cells(band, stack, p)
                        if any(values[c] or not cands[c] & mask for c in cs):
                            continue
                        g = sum(bin(cands[c] & ~mask).count("1") for c in cs)
                        opts.append((g, tridagon.odd(p)))
                    per.append(opts)
                for combo in itertools.product(*per):
                    if sum(o for _, o in combo) % 2 == 1:
                        g = sum(g for g, _ in combo)
                        if best is None or g < best[0]:
                            best = (g, digits, boxes)
    return best


def depth1_fixpoint(cl: Climber, values: Sequence[int], solution: Sequence[int]) -> Board:
    assert cl.blockers is not None
    board = Board.from_values(cl.geo, values)
    cl._close(board, cl.blockers, solution)
    return board


def study_file(cl: Climber, path: str, limit: int) -> None:
    nested = 0
    few = 0
    print(f"{'givens':>6} {'guard':>5}  digits  boxes (band, stack)  a-b-c given in them")
    for rec in itertools.islice(iter_source(path), limit):
        if rec.grid is None or rec.grid.geo.ncells != 81:
            continue
        values = list(rec.grid.values)
        res = cl.gen._solutions(values, 2)
        if res.count != 1 or res.solution is None:
            continue
        _, tier, bneck, _ = profile(cl, values, res.solution)
        if tier != 0 or bneck != 0:
            continue
        nested += 1
        best = fewest_guardians(depth1_fixpoint(cl, values, res.solution))
        if best is None:
            print(f"{sum(1 for v in values if v):6d}  none")
            continue
        g, digits, boxes = best
        few += g <= 3
        shown = sum(1 for c, v in enumerate(values)
                    if v in digits and (c // 27, c % 9 // 3) in boxes)
        print(f"{sum(1 for v in values if v):6d} {g:5d}  {digits}  {boxes}  {shown}")
    print(f"{nested} grids need nested trials; {few} hold an anti-tridagon with <= 3 guardians")


def study_starts(cl: Climber, count: int, rng: random.Random) -> None:
    for name in ("tridagon", "plain"):
        c0 = time.process_time()
        tally: collections.Counter[str] = collections.Counter()
        givens = 0
        for i in range(count):
            if name == "tridagon":
                values, solution = tridagon.start(cl.gen, rng)
            else:
                cl.seeded = False
                got = cl._start(rng, i + 1)
                assert got is not None
                values, solution = got
            _, tier, bneck, _ = profile(cl, values, solution)
            tally[f"tier {tier}" if tier else "tier 0"] += 1
            tally["bottleneck 0"] += tier == 0 and bneck == 0
            tally["bottleneck 1-3"] += tier == 0 and 1 <= bneck <= 3
            givens += sum(1 for v in values if v)
        print(f"{name:>8} starts: {count}, {time.process_time() - c0:.1f} s CPU, "
              f"mean givens {givens / count:.1f}, " + ", ".join(
                  f"{k} {tally[k]}" for k in ("tier 2", "tier 1", "tier 0",
                                              "bottleneck 1-3", "bottleneck 0")))


def study_generated(cl: Climber, count: int, seed: int) -> None:
    c0 = time.process_time()
    made = generate("expert", depth=2, count=count, seed=seed)
    cpu = time.process_time() - c0
    print(f"{len(made)} grids of depth 2 in {cpu:.1f} s CPU "
          f"({60 * len(made) / max(cpu, 1e-9):.1f} per CPU minute)")
    for g in made:
        best = fewest_guardians(depth1_fixpoint(cl, g.puzzle, g.solution))
        print(f"  {g.result.depth=} givens {sum(1 for v in g.puzzle if v)}, "
              f"fewest guardians {None if best is None else best[0]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", nargs="?")
    ap.add_argument("--limit", type=int, default=200)
    ap.add_argument("--starts", type=int, default=0)
    ap.add_argument("--generate", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    cl = climber()
    if args.file:
        study_file(cl, args.file, args.limit)
    if args.starts:
        study_starts(cl, args.starts, random.Random(args.seed))
    if args.generate:
        study_generated(cl, args.generate, args.seed)


if __name__ == "__main__":
    main()
