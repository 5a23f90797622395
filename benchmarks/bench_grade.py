"""Grading speed: grids per second per rating band, overall, and peak memory.

    python benchmarks/bench_grade.py [FILE ...] [--pure] [--compare-pure N]

Grades each file serially in this process (one core) and prints, per file,
the time spent per rating band (CPU seconds of this process, so that other
work on the machine counts less), the rate, and the overall figures; then the
peak resident memory.  With no file: the bundled easy sample
(puzzles/se-easy-500.txt) and, when the shared data directory is beside the
checkout, ../shared/puzzles/bench-mixed.txt (200 grids from newspaper level to
the forum's hardest).

``--compare-pure N`` also grades the first N grids of each file (those that
need no nested trials) with the C accelerator turned off, in the same
process, and prints the ratio: absolute times on shared machines are noisy,
ratios measured side by side are not.
"""

from __future__ import annotations

import argparse
import platform
import resource
import time
from collections import defaultdict
from pathlib import Path

from grader.formats import iter_source
from grader.kernel import c as native
from grader.strategy.grading import Grader

ROOT = Path(__file__).resolve().parent.parent

DEFAULTS = [ROOT / "puzzles" / "se-easy-500.txt", ROOT / "puzzles" / "bench-mixed.txt"]


def grade_file(grader: Grader, path: Path, limit: int | None = None,
               only: set[int] | None = None) -> tuple[dict, float, int, set[int]]:
    """(per-band [count, cpu seconds], total cpu seconds, grids, indices of the
    grids that did not need nested trials) for one file."""
    bands: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    total = 0.0
    n = 0
    shallow: set[int] = set()
    for rec in iter_source(str(path)):
        if limit is not None and n >= limit:
            break
        if only is not None and rec.index not in only:
            continue
        t = time.process_time()
        r = grader.grade_record(rec)
        dt = time.process_time() - t
        key = r.rating if r.verdict == "ok" else r.verdict
        if r.verdict == "ok" and r.depth and r.depth > 1:
            key = f"{r.rating} (depth {r.depth})"
        bands[key or "?"][0] += 1
        bands[key or "?"][1] += dt
        total += dt
        n += 1
        if not r.depth or r.depth <= 1:
            shallow.add(rec.index)
    return bands, total, n, shallow


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--pure", action="store_true", help="turn the C accelerator off")
    ap.add_argument("--compare-pure", type=int, default=0, metavar="N",
                    help="also grade the first N grids of each file without the accelerator")
    args = ap.parse_args()
    files = args.files or [p for p in DEFAULTS if p.exists()]
    if args.pure:
        native.set_enabled(False)
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, "
          f"Python {platform.python_version()}, accelerator "
          f"{'on' if native.available() else 'off'}")
    grader = Grader()
    order = grader.hierarchy.rating_names
    for path in files:
        bands, total, n, shallow = grade_file(grader, path)
        print(f"\n{path} - {n} grids")
        print(f"  {'rating':<26}{'grids':>7}{'cpu s':>10}{'grids/s':>10}")

        def rank(k: str) -> tuple[int, str]:
            base = k.split(" (")[0]
            return (order.index(base) if base in order else 99, k)

        for key in sorted(bands, key=rank):
            cnt, sec = bands[key]
            print(f"  {key:<26}{int(cnt):>7}{sec:>10.3f}{(cnt / sec if sec else 0):>10.1f}")
        print(f"  {'overall':<26}{n:>7}{total:>10.3f}{(n / total if total else 0):>10.1f}")
        if args.compare_pure and native.available():
            # nested trials take minutes in pure Python: compare on the others
            k = args.compare_pure
            _, fast, m, _ = grade_file(grader, path, k, shallow)
            native.set_enabled(False)
            _, slow, _, _ = grade_file(Grader(), path, k, shallow)
            native.set_enabled(True)
            print(f"  {m} grids (without nested trials): accelerator {fast:.3f} s, "
                  f"pure Python {slow:.3f} s, ratio {slow / fast if fast else 0:.1f}x")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory (resident): {peak:.0f} MB")


if __name__ == "__main__":
    main()
