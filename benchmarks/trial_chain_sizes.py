"""How long trial explanations are: steps inside trial branches per grid.

    python benchmarks/trial_chain_sizes.py [FILE] [--full-trace] [--top] [--limit N] [--show N]

Grades every grid of FILE (default: ../shared/puzzles/bench-mixed.txt beside
the checkout) to learn its nesting depth, then builds the ``explain -f json``
document of every grid that needs trials and counts the lines inside trial
branches, nested branches included: the links of each branch's chain (or,
with ``--full-trace``, the sub-steps of the recorded propagation, as
``explain --full-trace`` prints them); with ``--top``, only the lines of the
trial steps' own branches (a nested trial is one line, its inner lines are
not counted).  Prints, per depth, the number of
grids, the median and the maximum, how many of those lines are in the steps
that nest trials (depth 2 and more) and the CPU seconds one grid's
explanation takes (median, max), then how many branches end in neither a
contradiction nor a conclusion (should be 0) and the seconds spent.

The figures are per grid: the sum over all its trial steps.  On documents of
the first schema (branches with ``steps`` only) the script counts ``steps``,
so the same script measures the code before and after the chains.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks import puzzles
from grader.core.board import Board
from grader.explainer.core import walkthrough
from grader.explainer.document import document
from grader.formats import Grid, Record, iter_source
from grader.strategy.engine import Engine
from grader.strategy.grading import Grader

ROOT = Path(__file__).resolve().parent.parent


def count(step: dict[str, Any], full: bool, top: bool = False) -> tuple[int, int]:
    """(lines inside the branches of ``step``, branches without an ending);
    with ``top``, a nested trial is one line of its branch (its own lines are
    not counted)."""
    lines = unended = 0
    for b in step.get("branches") or []:
        items = b["steps"] if full or "chain" not in b else b["chain"]
        if "chain" in b and not full:
            items = [x for x in items if x.get("role") != "assumption"]
        lines += len(items)
        if "chain" in b and not b.get("end"):
            unended += 1
        for sub in [] if top else items:
            n, u = count(sub.get("trial") or sub, full)
            lines += n
            unended += u
    return lines, unended


def grids(path: str, limit: int | None) -> Iterator[Record]:
    """The records of ``path`` that hold a grid, of its first ``limit`` (all
    when None)."""
    for n, rec in enumerate(iter_source(path), start=1):
        if limit is not None and n > limit:
            return
        if rec.grid is not None:
            yield rec


def explain_json(grid: Grid, engine: Engine, full: bool) -> dict[str, Any]:
    wt = walkthrough(Board.from_values(grid.geo, list(grid.values)), engine)
    try:
        doc = document(wt, full_trace=full)  # type: ignore[call-arg]
    except TypeError:  # the code before the chains: always the full trace
        doc = document(wt)
    return doc.model_dump(by_alias=True, mode="json")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=None)
    ap.add_argument("--full-trace", action="store_true",
                    help="count the recorded propagation instead of the chains")
    ap.add_argument("--top", action="store_true",
                    help="count a nested trial as one line of its branch")
    ap.add_argument("--limit", type=int, default=None, help="only the first N grids")
    ap.add_argument("--show", type=int, default=0, help="print the N longest grids")
    args = ap.parse_args()

    grader = Grader()
    engine = Engine()
    sizes: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    nested: dict[int, list[int]] = defaultdict(list)
    cpu: dict[int, list[float]] = defaultdict(list)
    unended = 0
    t0 = time.process_time()
    args.file = args.file or str(puzzles("bench-mixed.txt"))
    for rec in grids(args.file, args.limit):
        assert rec.grid is not None
        r = grader.grade_record(rec)
        if r.verdict != "ok" or not r.depth:
            continue
        t = time.process_time()
        doc = explain_json(rec.grid, engine, args.full_trace)
        cpu[r.depth].append(time.process_time() - t)
        total = deep = 0
        for step in doc["steps"]:
            lines, u = count(step, args.full_trace, args.top)
            total += lines
            deep += lines if (step.get("depth") or 0) > 1 else 0
            unended += u
        sizes[r.depth].append((total, rec.index, len(doc["steps"])))
        nested[r.depth].append(deep)
    seconds = time.process_time() - t0
    what = ("sub-steps of the recorded propagation" if args.full_trace
            else "chain links, nested trials as one line" if args.top else "chain links")
    print(f"{args.file}: {what} inside trial branches, per grid")
    for depth in sorted(sizes):
        xs = [t for t, _, _ in sizes[depth]]
        print(f"  depth {depth}: {len(xs)} grids, median {statistics.median(xs):g}, "
              f"max {max(xs)}, total {sum(xs)}")
        if depth > 1:
            print(f"    of which in steps nesting trials: median "
                  f"{statistics.median(nested[depth]):g}, total {sum(nested[depth])}")
        print(f"    explanation CPU per grid: median {statistics.median(cpu[depth]):.2f} s, "
              f"max {max(cpu[depth]):.2f} s")
        for t, idx, nsteps in sorted(sizes[depth], reverse=True)[:args.show]:
            print(f"    grid {idx}: {t} lines ({nsteps} steps)")
    print(f"  branches ending in neither a contradiction nor a conclusion: {unended}")
    print(f"  {seconds:.1f} s CPU")


if __name__ == "__main__":
    main()
