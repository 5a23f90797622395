"""Where nested-trial grids live: the depth-1 *bottleneck* of grids and of
their neighbours (a study for ``generate --depth 2``, issue 15).

    python benchmarks/nested_basin.py FILE [--limit N] [--neighbours M] [--seed S]
    python benchmarks/nested_basin.py --level14 K [--max-givens G] [--seed S]

A grid needs nested trials exactly when the fixpoint of every depth-1 rule
(levels 1-12, disjunctive construction and reductio of depth 1) leaves it
unsolved.  The rules are monotonic, so the fixpoint does not depend on the
order of the steps; it is reached here in *rounds*: the fixpoint of the
depth-1 rules below reductio, then every candidate a depth-1 reductio
refutes there, all at once, then that fixpoint again, and so on.  The
*bottleneck* is the fewest refutations of a round: 0 when some round
refutes nothing before the grid is solved (nested trials needed).

For each grid of FILE (9x9, one solution) it prints the givens, the cells
the rules of levels 1-12 fill at the start, the tier (2: levels 1-12 solve
it, 1: the depth-1 rules below reductio do, 0: they do not), the
bottleneck and the refutations of each round.  With ``--neighbours M`` it
takes, around each grid of bottleneck 0, a neighbour of bottleneck 1-3 (one
move of the hard search away) and counts, over ``M`` moves from that
neighbour, those that keep one solution, those at tier 0 and those of
bottleneck 0.  ``--level14 K`` does the same profile for ``K`` grids of
``generate --level 14`` (the hard search's level-14 climb), for contrast.
FILE is studied, never used as a seed.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from pathlib import Path

from grader.formats import iter_source
from grader.generator import Settings, Target, generate
from grader.generator.climb import Climber
from grader.generator.search import Generator

ROOT = Path(__file__).resolve().parent.parent


def climber(settings: Settings | None = None) -> Climber:
    """A climber of ``--rating expert --depth 2`` (its moves and closures)."""
    gen = Generator(settings or Settings())
    return Climber(gen, Target(13, 14, "expert, depth 2", depth=(2, 2)))


def profile(cl: Climber, values: Sequence[int], solution: Sequence[int],
            ) -> tuple[int, int, int, list[int]]:
    """``(placed, tier, bottleneck, refutations per round)``; the bottleneck
    is -1 below tier 0."""
    gen, geo = cl.gen, cl.geo
    board, _ = gen.closures.fixpoint(geo, list(values), cl.plain_top)
    placed = sum(1 for v in values if not v) - sum(1 for v in board.values if not v)
    if all(board.values):
        return placed, 2, -1, []
    assert cl.disj is not None and cl.reductio is not None
    cl._close(board, cl.disj, solution)
    if all(board.values):
        return placed, 1, -1, []
    rule = cl.reductio
    counts: list[int] = []
    while not all(board.values):
        board.solution = tuple(solution)
        hits = list(rule._contradictions(board, rule.context.propagation))  # type: ignore[attr-defined]
        counts.append(len(hits))
        if not hits:
            break
        for cell, v in hits:
            board.cands[cell] &= ~(1 << (v - 1))
        cl._close(board, cl.disj, solution)
    return placed, 0, min(counts), counts


def vicinity(cl: Climber, values: list[int], solution: tuple[int, ...], moves: int,
             rng: random.Random) -> tuple[int, int, int, int] | None:
    """From a neighbour of bottleneck 1-3 of a grid of bottleneck 0: its
    bottleneck and, over ``moves`` moves, how many keep one solution, reach
    tier 0, reach bottleneck 0 (None when no such neighbour comes in 400)."""
    for _ in range(400):
        nb = cl.neighbour(values, solution, rng)
        if nb is None:
            continue
        _, tier, b, _ = profile(cl, *nb)
        if tier == 0 and 1 <= b <= 3:
            break
    else:
        return None
    unique = tier0 = nested = 0
    for _ in range(moves):
        nb2 = cl.neighbour(nb[0], nb[1], rng)
        if nb2 is None:
            continue
        _, t2, b2, _ = profile(cl, *nb2)
        unique += 1
        tier0 += t2 == 0
        nested += t2 == 0 and b2 == 0
    return b, unique, tier0, nested


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", nargs="?")
    ap.add_argument("--limit", type=int, default=50)
    ap.add_argument("--neighbours", type=int, default=0)
    ap.add_argument("--level14", type=int, default=0)
    ap.add_argument("--max-givens", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    cl = climber()
    rng = random.Random(args.seed)
    grids: list[tuple[list[int], tuple[int, ...]]] = []
    if args.file:
        for rec in iter_source(args.file):
            if rec.grid is None or rec.grid.geo.ncells != 81:
                continue
            res = cl.gen._solutions(list(rec.grid.values), 2)
            if res.count == 1 and res.solution is not None:
                grids.append((list(rec.grid.values), res.solution))
            if len(grids) >= args.limit:
                break
    if args.level14:
        c0 = time.process_time()
        made = generate(level=14, count=args.level14, seed=args.seed,
                        max_givens=args.max_givens)
        print(f"level 14: {len(made)} grids in {time.process_time() - c0:.1f} s CPU")
        grids += [(list(g.puzzle), g.solution) for g in made]
    print(f"{'givens':>6} {'placed':>6} {'tier':>4} {'bneck':>5}  refutations per round")
    for values, solution in grids:
        placed, tier, b, counts = profile(cl, values, solution)
        print(f"{sum(1 for v in values if v):6d} {placed:6d} {tier:4d} {b:5d}  {counts[:8]}")
        if args.neighbours and tier == 0 and b == 0:
            got = vicinity(cl, values, solution, args.neighbours, rng)
            if got is not None:
                print(f"{'':>6} a neighbour of bottleneck {got[0]}: of {args.neighbours} moves "
                      f"{got[1]} keep one solution, {got[2]} tier 0, {got[3]} bottleneck 0")


if __name__ == "__main__":
    main()
