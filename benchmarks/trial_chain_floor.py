"""How short the trials of depth 1 could be made by choosing them otherwise.

    python benchmarks/trial_chain_floor.py [FILE] [--limit N]

For every grid of FILE (default: ../shared/puzzles/bench-mixed.txt beside
the checkout) whose explanation nests trials (depth 2), takes the engine's
path and splits the chain lines inside its trial branches (as
``benchmarks/trial_chain_sizes.py`` counts them) in two parts: the steps that
nest trials, and the trials of depth 1 after the last of them.  It then
solves the position after the last nested step again with another order:
at every position where the strategy needs a reductio, the candidate whose
refutation has the *shortest chain* is refuted (every wrong candidate is
tried; the chain is the one the explanation would draw); a disjunctive
construction, where the strategy needs one, is the engine's.  Prints, per
grid, the engine's lines and trials after the nested steps, the same for
the shortest-chain order, and the shortest chain available at each of the
engine's own reductio positions, summed ("floor on the path").  For each
nested step it also prints how many steps its rule offers there (of the first
``grader.strategy.trials.lookahead.AHEAD`` the engine compares) and the fewest chain lines
any of them draws.

It measures how far the choice of depth-1 trials can shorten an explanation
at all: the rule of each step (reductio, one refuted candidate per step) is
the strategy's, so the figures bound what any order of those steps gives.
"""

from __future__ import annotations

import argparse
import statistics
import time
from itertools import islice
from pathlib import Path

from benchmarks import puzzles
from benchmarks.trial_chain_sizes import grids
from grader.core.board import Board
from grader.core.rule import Rule
from grader.core.steps import Step
from grader.explainer.core import walkthrough
from grader.strategy.engine import Engine
from grader.strategy.trials.lookahead import AHEAD
from grader.strategy.trials.nested import chain_size, short_chain

ROOT = Path(__file__).resolve().parent.parent

REDUCTIO = "reductio-ad-absurdum"


def lines(step: Step) -> int:
    """Chain lines inside the branches of ``step``, nested lines included."""
    return sum(chain_size(b.chain) for b in step.branches if b.chain is not None)


def solved(board: Board, solution: list[int]) -> Board:
    """A copy of ``board`` carrying ``solution``."""
    work = board.copy()
    work.solution = tuple(solution)
    return work


def shortest_refutation(board: Board, plain: list[Rule]) -> tuple[int, int, int] | None:
    """(chain lines, cell, value) of the wrong candidate of ``board`` whose
    refutation by the plain rules has the shortest chain (the first of equals)."""
    sol = board.solution
    if sol is None:
        raise ValueError("the board carries no solution")
    best: tuple[int, int, int] | None = None
    for c, v0 in enumerate(board.values):
        if v0:
            continue
        for v in range(1, board.geo.n + 1):
            if v == sol[c] or not board.cands[c] >> (v - 1) & 1:
                continue
            chain, conflict = short_chain(board, c, v, plain)
            if conflict is not None and (best is None or len(chain.links) < best[0]):
                best = (len(chain.links), c, v)
    return best


def shortest_first(engine: Engine, board: Board, plain: list[Rule]) -> tuple[int, int]:
    """Solve ``board`` taking the shortest refutation wherever the strategy
    needs a reductio: (chain lines, trial steps)."""
    total = trials = 0
    while not board.is_solved():
        step = engine.next_step(board)
        if step is None:
            raise RuntimeError("stuck")
        if step.depth and step.rule == REDUCTIO:
            found = shortest_refutation(board, plain)
            assert found is not None
            n, c, v = found
            board.cands[c] &= ~(1 << (v - 1))
            total += n
        else:
            board.apply(step)
            total += lines(step)
        trials += step.depth > 0
    return total, trials


def nested_choices(engine: Engine, board: Board, step: Step) -> tuple[int, int]:
    """(how many steps the rule of the nested ``step`` offers on ``board``, of
    the first :data:`AHEAD` that the engine compares; the fewest chain lines
    any of them draws)."""
    rule = next(r for r in engine.rules(step.depth) if r.code == step.rule and r.kind == "trial")
    sizes = [lines(c.build()) for c in islice(rule.choices(board), AHEAD)]  # type: ignore[attr-defined]
    return len(sizes), min(sizes)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=None)
    ap.add_argument("--limit", type=int, default=None, help="only the first N grids")
    args = ap.parse_args()
    engine = Engine()
    plain = [r for r in engine.rules(1) if r.kind != "trial"]
    rows = []
    t0 = time.process_time()
    args.file = args.file or str(puzzles("bench-mixed.txt"))
    for rec in grids(args.file, args.limit):
        assert rec.grid is not None
        wt = walkthrough(Board.from_values(rec.grid.geo, list(rec.grid.values)), engine)
        steps = wt.steps[:wt.ensure()]
        deep = [i for i, s in enumerate(steps) if s.depth > 1]
        if not deep:
            continue
        solution = wt.final().values
        after = steps[deep[-1] + 1:]
        nested = sum(lines(s) for s in steps[:deep[-1] + 1])
        offered = [nested_choices(engine, solved(wt.before(i), solution), steps[i])
                   for i in deep]
        mine = sum(lines(s) for s in after)
        floor = 0
        for i, s in enumerate(after, start=deep[-1] + 1):
            if s.depth and s.rule == REDUCTIO:
                found = shortest_refutation(solved(wt.before(i), solution), plain)
                floor += found[0] if found else 0
            else:
                floor += lines(s)
        other, other_trials = shortest_first(engine, solved(wt.before(deep[-1] + 1), solution),
                                             plain)
        rows.append((nested + mine, nested, mine, other, floor))
        print(f"grid {rec.index}: {nested + mine} lines = nested {nested} + after {mine} "
              f"({sum(1 for s in after if s.depth)} trials); shortest-chain order after: "
              f"{other} ({other_trials} trials); floor on the path: {floor}", flush=True)
        print("    nested steps: " + ", ".join(
            f"{lines(steps[i])} lines (fewest of {k} choices: {m})"
            for i, (k, m) in zip(deep, offered, strict=True)), flush=True)
    if rows:
        def med(k: int) -> float:
            return statistics.median(r[k] for r in rows)
        print(f"{len(rows)} grids: median total {med(0):g}; after the nested steps: engine "
              f"{med(2):g}, shortest-chain order {med(3):g}, floor on the path {med(4):g}; "
              f"best of both orders, total: "
              f"{statistics.median(r[1] + min(r[2], r[3]) for r in rows):g}")
    else:
        print(f"{args.file}: no grid nests trials")
    print(f"{time.process_time() - t0:.1f} s CPU")


if __name__ == "__main__":
    main()
