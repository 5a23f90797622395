"""The whole Sudoku Explainer scale (issue 29): how ``se`` matches Sudoku
Explainer's own ratings at the top and at the bottom, and what it costs.

    python benchmarks/bench_se_scale.py [--hardest FILE] [--se full|fast]
        [--jobs N] [--limit N] [--jsonl OUT] [--no-bottom]

* The top: the grids of the forum's hardest (``FILE``, by default
  ``../shared/puzzles/hodoku-py_HardestDatabase110626.txt`` next to the
  project) that carry Sudoku Explainer's ER (the column the file's header
  line names ER).  Each grid is graded whole (``Grader(se=...)``, verdict,
  trace and estimate) and timed in CPU seconds in the process that grades it;
  ``--jobs N`` grades in N processes (each grid still on one core) to finish
  sooner.  Prints Spearman's rho (average ranks) between ``se`` and ER, the
  share of grids with ``|se - ER| <= 0.2`` and with ``se == ER``, and the
  median, 90th percentile and largest CPU time per grid.
* The bottom (unless ``--no-bottom``): the share of ``puzzles/se-easy-500.txt``
  rated below 1.5 and of ``puzzles/se-medium-500.txt`` rated 1.5 to 2.4, and
  the grids of either without ``se``.

The SE-rated bank (``puzzles/se-rated-9758.txt``) is measured by
``bench_expert_score.py``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_expert_score import spearman  # noqa: E402

from grader import native  # noqa: E402
from grader.formats import parse_grid_token  # noqa: E402
from grader.strategy.grading import Grader  # noqa: E402

DEFAULT_HARDEST = ROOT.parent / "shared" / "puzzles" / "hodoku-py_HardestDatabase110626.txt"


def er_grids(path: Path) -> list[tuple[int, str, float]]:
    """(line number, puzzle, ER) of the grids that carry an ER."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = next(line for line in lines if line.startswith("#"))
    columns = [c.strip() for c in header.split(",")]
    if columns[0].startswith("#"):  # "#!sudoku -c1": a directive, then the columns
        columns = columns[1:]
    er = columns.index("ER")
    out = []
    for lineno, line in enumerate(lines, start=1):
        parts = line.split(",")
        if line.startswith("#") or len(parts) <= er or not parts[er].strip():
            continue
        try:
            out.append((lineno, parts[0].strip(), float(parts[er])))
        except ValueError:
            continue
    return out


_GRADER: Grader | None = None


def _start(setting: str) -> None:
    global _GRADER
    _GRADER = Grader(se=setting)


def _grade(task: tuple[int, str, float]) -> dict:
    lineno, puzzle, er = task
    assert _GRADER is not None
    t = time.process_time()
    r = _GRADER.grade_grid(parse_grid_token(puzzle))
    cpu = time.process_time() - t
    return {"line": lineno, "puzzle": puzzle, "er": er, "se": r.se, "se_pattern": r.se_pattern,
            "level": r.level, "cpu": round(cpu, 4)}


def top(args: argparse.Namespace) -> None:
    grids = er_grids(args.hardest)[:args.limit]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs, _start, (args.se,)) as pool:
            rows = pool.map(_grade, grids, chunksize=1)
    else:
        _start(args.se)
        rows = [_grade(g) for g in grids]
    if args.jsonl:
        with args.jsonl.open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row) + "\n")
    rated = [r for r in rows if r["se"] is not None]
    near = sum(abs(r["se"] - r["er"]) <= 0.2 + 1e-9 for r in rated)
    same = sum(abs(r["se"] - r["er"]) < 1e-9 for r in rated)
    cpu = sorted(r["cpu"] for r in rows)
    rho = spearman([r["se"] for r in rated], [r["er"] for r in rated])
    print(f"{args.hardest.name}: {len(rows)} grids with an ER, se={args.se}, "
          f"accelerator={'on' if native.available() else 'off'}, jobs={args.jobs}")
    print(f"rho(se, ER): {rho:.4f}   |se - ER| <= 0.2: {near} ({near / len(rows):.1%})   "
          f"se == ER: {same} ({same / len(rows):.1%})   without se: {len(rows) - len(rated)}")
    print(f"CPU per grid (one core): median {statistics.median(cpu):.2f} s, "
          f"90th percentile {cpu[int(0.9 * (len(cpu) - 1))]:.2f} s, max {cpu[-1]:.2f} s, "
          f"total {sum(cpu):.0f} s")
    for r in rated:
        if abs(r["se"] - r["er"]) > 0.2 + 1e-9:
            print(f"  line {r['line']}: ER {r['er']} se {r['se']} ({r['se_pattern']})")


def bottom(se: str) -> None:
    grader = Grader(se=se)
    for name, lo, hi in (("se-easy-500.txt", 0.0, 1.4), ("se-medium-500.txt", 1.5, 2.4)):
        lines = (ROOT / "puzzles" / name).read_text(encoding="utf-8").splitlines()
        got = [grader.grade_grid(parse_grid_token(line.split()[0])).se for line in lines]
        inside = sum(s is not None and lo <= s <= hi for s in got)
        print(f"{name}: {inside} of {len(got)} ({inside / len(got):.1%}) rated {lo}-{hi}; "
              f"without se: {sum(s is None for s in got)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hardest", type=Path, default=DEFAULT_HARDEST, metavar="FILE")
    ap.add_argument("--se", choices=("fast", "full"), default="full")
    ap.add_argument("--jobs", type=int, default=1, metavar="N")
    ap.add_argument("--limit", type=int, default=None, metavar="N")
    ap.add_argument("--jsonl", type=Path, default=None, metavar="OUT")
    ap.add_argument("--no-bottom", action="store_true")
    args = ap.parse_args(argv)
    top(args)
    if not args.no_bottom:
        bottom(args.se)
    return 0


if __name__ == "__main__":
    sys.exit(main())
