"""The cost of a Python rule plugin inside trials.

Grades a file (default: puzzles/bench-mixed.txt) on one core with
the book's hierarchy and with a hierarchy that adds a plugin rule (default:
the example XY-Wing of examples/xywing at level 12, so that it also runs in
every trial branch), in the same process, alternating, and prints the CPU
seconds of each and their ratio.  The accelerator runs the built-in rules
and the trials in C and calls the Python rule back at its turn.

    python benchmarks/bench_plugin.py [FILE] [--hierarchy FILE] [--rounds N] [--pure]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from benchmarks import puzzles
from grader import Grader, load_hierarchy
from grader.formats import iter_source
from grader.kernel import c as native

XY12 = 'extends = "default"\n[[rules]]\ncode = "xy-wing"\nlevel = 12\n'


def cpu_seconds(grader: Grader, grids: list) -> tuple[float, list[tuple]]:
    t = time.process_time()
    out = [(r.verdict, r.level, r.depth) for r in (grader.grade_grid(g) for g in grids)]
    return time.process_time() - t, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", nargs="?", default=None)
    ap.add_argument("--hierarchy", help="hierarchy with the plugin (default: XY-Wing at 12)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--pure", action="store_true", help="also time pure Python with the plugin")
    a = ap.parse_args()
    a.file = a.file or str(puzzles("bench-mixed.txt"))
    grids = [r.grid for r in iter_source(a.file) if r.grid is not None]
    if a.hierarchy:
        h = load_hierarchy(a.hierarchy)
    else:
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / "xy12.toml"
            p.write_text(XY12)
            h = load_hierarchy(p)
    print(f"{a.file}: {len(grids)} grids, accelerator {'on' if native.available() else 'off'}")
    for k in range(a.rounds):
        base, r0 = cpu_seconds(Grader(), grids)
        plug, r1 = cpu_seconds(Grader(h), grids)
        print(f"round {k + 1}: book {base:.2f} s, with the plugin {plug:.2f} s, "
              f"ratio {plug / base:.2f}")
    changed = sum(1 for x, y in zip(r0, r1, strict=True) if x != y)
    print(f"grids whose (verdict, level, depth) the plugin changes: {changed}")
    if a.pure and native.available():
        native.set_enabled(False)
        pure, r2 = cpu_seconds(Grader(h), grids)
        native.set_enabled(True)
        print(f"pure Python with the plugin: {pure:.2f} s ({pure / plug:.1f}x the accelerated "
              f"run); same results: {r2 == r1}")


if __name__ == "__main__":
    main()
