"""How long the pattern path's expert steps are, against the book path's trials.

    python -m benchmarks pattern_lengths [FILE] [--limit N]

For every grid of FILE (default: puzzles/bench-mixed.txt) that needs a trial,
by the nesting depth ``grade`` reports:

* depth 1: the links of each expert step of the pattern path (``explain
  --path patterns``): the strong and weak links of a pattern (a skyscraper
  has 3), the lines of a forcing chain's branches (nested lines included);
  the median over all of them, and over those that have links (subsets,
  fish, unique rectangles and BUGs are made of cells, not links);
* depth 2: the lines inside chains over the whole solution, per grid (a
  pattern's links, and the lines of every trial's branches, nested lines
  included), for the pattern path and for the book path (``--path book``),
  with the medians.

Prints one line per depth-2 grid, then the figures the README quotes.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from benchmarks import puzzles
from grader.core.steps import Step
from grader.explainer.core import walkthrough
from grader.formats import parse_grid_token
from grader.strategy.grading import Grader
from grader.strategy.trials.nested import size


def links(step: Step) -> int:
    """A pattern's links, or the lines of a trial's branches."""
    return len(step.pattern.arcs) + size(step)


def path_steps(token: str, path: str) -> list[Step]:
    wt = walkthrough(parse_grid_token(token).board(), path=path)
    wt.ensure()
    return list(wt.steps)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=None)
    ap.add_argument("--limit", type=int, default=None)
    args = ap.parse_args()
    source = args.file or str(puzzles("bench-mixed.txt"))
    text = Path(source).read_text(encoding="utf-8")
    tokens = [ln.split()[0] for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    grader = Grader()
    per_step: list[int] = []
    with_links: list[int] = []
    deep: list[tuple[int, int, int]] = []
    t0 = time.perf_counter()
    for index, token in enumerate(tokens[:args.limit], start=1):
        r = grader.grade_grid(parse_grid_token(token))
        if not r.depth:
            continue
        steps = path_steps(token, "patterns")
        expert = [s for s in steps if s.se is not None]
        if r.depth == 1:
            for s in expert:
                per_step.append(links(s))
                if links(s):
                    with_links.append(links(s))
        else:
            pattern = sum(links(s) for s in steps)
            book = sum(links(s) for s in path_steps(token, "book"))
            deep.append((index, pattern, book))
            print(f"grid {index:>4}: pattern path {pattern:>5} lines in chains, "
                  f"book path {book:>5}", flush=True)
    print(f"\n{source}: {time.perf_counter() - t0:.0f} s")
    if per_step:
        print(f"depth-1 grids: {len(per_step)} expert steps, median links per step "
              f"{statistics.median(per_step):g} (steps with links: {len(with_links)}, median "
              f"{statistics.median(with_links) if with_links else 0:g}; max {max(per_step)})")
    if deep:
        print(f"depth-2 grids: {len(deep)}, median lines inside chains: pattern path "
              f"{statistics.median(p for _, p, _ in deep):g}, book path "
              f"{statistics.median(b for _, _, b in deep):g}")


if __name__ == "__main__":
    main()
