"""The parent's cost per grid in a bulk run, against a worker's cost per easy grid.

    python benchmarks/bench_parent.py [FILE] [--limit 10000] [--jobs 2] [--profile]

Runs ``grade FILE --jobs J --output tmp.jsonl`` *in this process* twice (on the
first ``--limit`` grids of FILE and on the first ``--small`` of them), and
takes the parent's own CPU time (``resource.getrusage(RUSAGE_SELF)``: this
process and its threads, not the workers) of each run.  The difference over
the difference in grids is the parent's marginal cost per grid (start-up,
imports and the workers' start are paid once and cancel out).  A worker's
cost per easy grid is the CPU time of grading the same grids in this process
with one grader (what a worker does for each grid, JSON encoding included).

The criterion of issue 13 on a machine of C cores: the parent's cost per
grid below 1/(10 C) of a worker's (on 2 cores: 1/20), so that the parent is
never the bottleneck.  ``--profile`` prints the parent's hottest functions.

Default FILE: the 17-clue list of ``../shared/puzzles`` (easy grids).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import resource
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import puzzles

ROOT = Path(__file__).resolve().parent.parent


def cpu_self() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def first_lines(src: Path, n: int, dest: Path) -> Path:
    with src.open("rb") as fh, dest.open("wb") as out:
        for i, line in enumerate(fh):
            if i >= n:
                break
            out.write(line)
    return dest


def grade_in_process(path: Path, jobs: int, prof: cProfile.Profile | None = None
                     ) -> tuple[float, float]:
    """(parent CPU seconds, wall seconds) of one ``grade`` run in this process."""
    from grader.cli.main import main

    out = path.with_suffix(".out.jsonl")
    argv = ["grader", "grade", str(path), "--jobs", str(jobs), "--output", str(out),
            "--overwrite", "--no-progress", "--no-summary"]
    saved, sys.argv = sys.argv, argv
    c0, t0 = cpu_self(), time.perf_counter()
    try:
        if prof is not None:
            prof.enable()
        main()
    except SystemExit:
        pass
    finally:
        if prof is not None:
            prof.disable()
        sys.argv = saved
    return cpu_self() - c0, time.perf_counter() - t0


def worker_cost(path: Path, n: int) -> float:
    """CPU seconds per grid of grading the first ``n`` grids with one grader,
    as a worker does (contract dict and its JSON line)."""
    from grader.formats import iter_sources
    from grader.strategy.grading import Grader

    g = Grader()
    recs = [r for _, r in zip(range(n), iter_sources([str(path)]), strict=False)]
    for r in recs[:50]:  # warm up
        assert r.grid is not None
        g.grade_grid(r.grid)
    c0 = time.process_time()
    for r in recs:
        assert r.grid is not None
        json.dumps(g.grade_grid(r.grid, r.index, r.line).contract())
    return (time.process_time() - c0) / len(recs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", nargs="?", default=None)
    ap.add_argument("--limit", type=int, default=10_000)
    ap.add_argument("--small", type=int, default=500)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--worker-grids", type=int, default=2000)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    src = Path(args.file or puzzles("hodoku-py_sudoku17.sdm"))
    tmp = Path(tempfile.mkdtemp(prefix="bench-parent-"))
    big = first_lines(src, args.limit, tmp / "big.txt")
    small = first_lines(src, args.small, tmp / "small.txt")
    import grader.cli.grade  # noqa: F401 - imports paid before measuring

    grade_in_process(small, args.jobs)  # warm: the forkserver, caches
    c_small, w_small = grade_in_process(small, args.jobs)
    prof = cProfile.Profile() if args.profile else None
    c_big, w_big = grade_in_process(big, args.jobs, prof)
    parent = (c_big - c_small) / (args.limit - args.small)
    worker = worker_cost(big, args.worker_grids)
    print(f"file {src.name}: {args.limit} grids, --jobs {args.jobs}, load "
          f"{os.getloadavg()[0]:.2f}")
    print(f"run of {args.limit}: parent CPU {c_big:.2f} s, wall {w_big:.2f} s "
          f"({args.limit / w_big:.0f} grids/s); run of {args.small}: parent CPU "
          f"{c_small:.2f} s")
    print(f"parent CPU per grid (marginal): {1e6 * parent:.1f} us")
    print(f"worker CPU per easy grid:       {1e6 * worker:.1f} us")
    print(f"ratio parent/worker: 1/{worker / parent:.1f}" if parent > 0 else "ratio: parent ~0")
    if prof is not None:
        s = io.StringIO()
        pstats.Stats(prof, stream=s).sort_stats("tottime").print_stats(25)
        print(s.getvalue())


if __name__ == "__main__":
    main()
