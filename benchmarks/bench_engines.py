"""Compare the exact engines (native, sat, csp, cp) on the same grid files.

For every file and engine: grids solved per second, mean and maximum time per
grid, verdict counts, timeouts, and whether every engine that finished gave
the same verdict and the same solution on every grid.  ``--sat-variants``
adds the SAT engine's encodings and solvers side by side.

    .venv/bin/python benchmarks/bench_engines.py                       # bundled files
    .venv/bin/python benchmarks/bench_engines.py ../shared/puzzles/hodoku-py_top1465.sdm
    .venv/bin/python benchmarks/bench_engines.py FILE --engines native,sat --sample 200

Figures are wall-clock on this machine; compare engines within one run.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from grader.exact import ENGINES, get_engine
from grader.exact.solving import Outcome, solve_record
from grader.formats import Record, iter_source

ROOT = Path(__file__).resolve().parent.parent

DEFAULT_FILES = [
    "puzzles/book-figures.txt",
    "puzzles/book-calibration.txt",
    "puzzles/se-easy-500.txt",
    "puzzles/se-medium-500.txt",
    "tests/data/engines-sizes.txt",
    "tests/data/engines-16x16.nt.txt",
    "tests/data/engines-25x25.nt.txt",
]

SAT_VARIANTS = [
    ("sat classic, fresh solver per grid", {"encoding": "classic", "incremental": False}),
    ("sat classic, incremental (default)", {"encoding": "classic"}),
    ("sat extended, incremental", {"encoding": "extended"}),
    ("sat reduced", {"encoding": "reduced"}),
    ("sat classic, glucose4", {"encoding": "classic", "solver": "glucose4"}),
    ("sat classic, minisat22", {"encoding": "classic", "solver": "minisat22"}),
]


def load(path: str, sample: int | None) -> list[Record]:
    recs = [r for r in iter_source(path) if r.grid is not None]
    if sample is not None and len(recs) > sample:
        step = len(recs) / sample
        recs = [recs[int(i * step)] for i in range(sample)]
    return recs


def run(label: str, engine_name: str, options: dict, recs: list[Record],
        time_limit: float | None) -> tuple[list[Outcome], float]:
    eng = get_engine(engine_name, **options)
    t0 = time.perf_counter()
    outs = [solve_record(eng, rec, 2, time_limit) for rec in recs]
    return outs, time.perf_counter() - t0


def row(label: str, outs: list[Outcome], wall: float) -> str:
    times = [o.seconds for o in outs] or [0.0]
    v = Counter(o.verdict for o in outs)
    other = ", ".join(f"{k} {c}" for k, c in sorted(v.items()) if k not in ("ok", "timeout"))
    return (f"| {label:<36} | {len(outs):>5} | {len(outs) / wall:>9.1f} | "
            f"{1000 * statistics.fmean(times):>8.2f} | {1000 * max(times):>9.1f} | "
            f"{v.get('ok', 0):>5} | {v.get('timeout', 0):>4} | {other or '-'} |")


HEADER = ("| engine                               | grids |   grids/s |  mean ms |    max ms |"
          "    ok | tout | other |\n"
          "|--------------------------------------|------:|----------:|---------:|----------:|"
          "------:|-----:|-------|")


def disagreements(runs: dict[str, list[Outcome]]) -> int:
    bad = 0
    n = len(next(iter(runs.values())))
    for i in range(n):
        seen = set()
        for outs in runs.values():
            o = outs[i]
            if o.verdict == "timeout":
                continue
            sol = o.result.solutions[:1] if o.result is not None and o.verdict == "ok" else ()
            seen.add((o.verdict, sol))
        bad += len(seen) > 1
    return bad


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", help="grid files (any format); default: the bundled "
                    "collections and the test grids")
    ap.add_argument("--engines", default=",".join(ENGINES),
                    help="comma-separated engines (default: all)")
    ap.add_argument("--sample", type=int, default=None,
                    help="at most this many grids per file, evenly spaced")
    ap.add_argument("--time-limit", type=float, default=None, help="seconds per grid")
    ap.add_argument("--sat-variants", action="store_true",
                    help="also compare the SAT encodings and solvers")
    args = ap.parse_args()
    files = args.files or [str(ROOT / f) for f in DEFAULT_FILES]
    names = [n.strip() for n in args.engines.split(",") if n.strip()]
    print(f"# exact engines on {platform.machine()}, Python {platform.python_version()}")
    total_bad = 0
    for path in files:
        recs = load(path, args.sample)
        if not recs:
            print(f"\n## {path}: no grid")
            continue
        sizes = sorted({r.grid.size for r in recs if r.grid})
        print(f"\n## {Path(path).name}: {len(recs)} grids "
              f"({', '.join(f'{n}x{n}' for n in sizes)})")
        print(HEADER)
        runs: dict[str, list[Outcome]] = {}
        for name in names:
            outs, wall = run(name, name, {}, recs, args.time_limit)
            runs[name] = outs
            print(row(name, outs, wall), flush=True)
        if args.sat_variants:
            for label, opts in SAT_VARIANTS:
                outs, wall = run(label, "sat", opts, recs, args.time_limit)
                runs[label] = outs
                print(row(label, outs, wall), flush=True)
        bad = disagreements(runs)
        total_bad += bad
        print("\nagreement: " + ("all engines give the same verdict and solution on every "
                                 "grid" if not bad else f"{bad} grids differ"))
    print(f"\n# {'no disagreement' if not total_bad else f'{total_bad} disagreements'}")
    sys.exit(1 if total_bad else 0)


if __name__ == "__main__":
    main()
