"""How well ``score`` orders grids the way Sudoku Explainer rates them.

    python benchmarks/bench_expert_score.py FILE [--sample all|even|odd]
        [--per-value N] [--limit N] [--pure] [--se fast|full] [--jsonl OUT]

FILE has ``puzzle rating`` lines (a first id column is allowed, as in
puzzles/se-rated-9758.txt).  ``--sample even`` (odd) keeps the grids on even
(odd) line numbers, and ``--per-value N`` at most N grids per rating value in
file order: a stratified half to design on and another to report on.  Each
grid is graded serially in this process (one core, CPU seconds), and the
script prints Spearman's rho (average ranks) between ``score`` and the
rating over all grids, among the expert grids (those that need a trial) and
inside rating bands (and among the grids rated 8.8 and up), rho between ``se``
and the rating among expert grids and among all grids, and the time per
grid.  ``--se``: how deep the estimate searches Sudoku Explainer's nested
chains (the grader's setting, default fast).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

from grader.formats import parse_grid_token
from grader.kernel import c as native
from grader.strategy.grading import Grader

ROOT = Path(__file__).resolve().parent.parent

BANDS = ((1.0, 2.5), (2.5, 4.0), (4.0, 4.2), (4.2, 5.0), (5.0, 6.0), (6.0, 6.5), (6.5, 7.0),
         (7.0, 7.5), (7.5, 8.0), (8.0, 8.5), (8.5, 9.0), (9.0, 12.0))


def ranks(xs: list[float]) -> list[float]:
    """Average ranks (ties share the mean of their positions), 1-based."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: list[float], ys: list[float]) -> float | None:
    """Spearman's rho: Pearson's correlation of the average ranks."""
    if len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if not sxx or not syy:
        return None
    return sxy / (sxx * syy) ** 0.5


def read_sample(path: Path, sample: str, per_value: int | None,
                limit: int | None) -> list[tuple[int, str, float]]:
    """(line number, puzzle, rating) of the chosen lines."""
    out: list[tuple[int, str, float]] = []
    count: dict[float, int] = defaultdict(int)
    with path.open(encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, start=1):
            parts = raw.split()
            if len(parts) < 2 or raw.startswith("#"):
                continue
            if sample == "even" and lineno % 2 or sample == "odd" and not lineno % 2:
                continue
            try:
                rating = float(parts[-1])
            except ValueError:
                raise SystemExit(f"{path}:{lineno}: the last column is not a rating: "
                                 f"{parts[-1]!r}") from None
            if per_value is not None and count[rating] >= per_value:
                continue
            count[rating] += 1
            out.append((lineno, parts[-2], rating))
            if limit is not None and len(out) >= limit:
                break
    return out


def fmt(x: float | None) -> str:
    return "  -  " if x is None else f"{x:.3f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", type=Path)
    ap.add_argument("--sample", choices=("all", "even", "odd"), default="all")
    ap.add_argument("--per-value", type=int, default=None, metavar="N")
    ap.add_argument("--limit", type=int, default=None, metavar="N")
    ap.add_argument("--pure", action="store_true", help="turn the C accelerators off")
    ap.add_argument("--se", choices=("fast", "full"), default="fast",
                    help="how deep the estimate searches nested chains")
    ap.add_argument("--jsonl", type=Path, default=None, metavar="OUT",
                    help="also write puzzle, rating, level, score, se, se_pattern per grid")
    args = ap.parse_args(argv)
    if args.pure:
        native.set_enabled(False)
    grids = read_sample(args.file, args.sample, args.per_value, args.limit)
    grader = Grader(se=args.se)
    rows = []
    cpu = 0.0
    cpu_expert = 0.0
    out = args.jsonl.open("w", encoding="utf-8") if args.jsonl else None
    for lineno, puzzle, rating in grids:
        t = time.process_time()
        r = grader.grade_grid(parse_grid_token(puzzle), line=lineno)
        dt = time.process_time() - t
        cpu += dt
        if r.verdict != "ok" or r.score is None:
            print(f"line {lineno}: {r.verdict} {r.message or ''}", file=sys.stderr)
            continue
        expert = bool(r.depth)
        cpu_expert += dt if expert else 0.0
        rows.append((rating, r.score, r.se, expert, r.se_pattern))
        if out is not None:
            out.write(json.dumps({"line": lineno, "puzzle": puzzle, "rating": rating,
                                  "level": r.level, "score": r.score, "se": r.se,
                                  "se_pattern": r.se_pattern, "cpu": round(dt, 4)}) + "\n")
    if out is not None:
        out.close()
    report(args, rows, cpu, cpu_expert)
    return 0


def report(args: argparse.Namespace, rows: list, cpu: float, cpu_expert: float) -> None:
    n = len(rows)
    ex = [r for r in rows if r[3]]
    print(f"{args.file} sample={args.sample} per-value={args.per_value} grids={n} "
          f"expert={len(ex)} se={args.se} "
          f"accelerator={'on' if native.available() else 'off'}")
    print(f"rho(score, rating) all:    {fmt(spearman([r[1] for r in rows], [r[0] for r in rows]))}")
    print(f"rho(score, rating) expert: {fmt(spearman([r[1] for r in ex], [r[0] for r in ex]))}")
    se = [r for r in ex if r[2] is not None]
    print(f"rho(se, rating) expert:    {fmt(spearman([r[2] for r in se], [r[0] for r in se]))}"
          f"  (mean |se - rating| {sum(abs(r[2] - r[0]) for r in se) / max(1, len(se)):.2f})")
    rated = [r for r in rows if r[2] is not None]
    print(f"rho(se, rating) all:       "
          f"{fmt(spearman([r[2] for r in rated], [r[0] for r in rated]))}  ({len(rated)} with se)")
    top = [r for r in rows if r[0] >= 8.8]
    print(f"rho(score, rating) 8.8+:   {fmt(spearman([r[1] for r in top], [r[0] for r in top]))}"
          f"  ({len(top)} grids)")
    print("band        grids  rho(score)")
    for lo, hi in BANDS:
        b = [r for r in rows if lo <= r[0] < hi]
        if b:
            print(f"{lo:4.1f}-{hi - 0.1:4.1f}  {len(b):6d}  "
                  f"{fmt(spearman([r[1] for r in b], [r[0] for r in b]))}")
    per_expert = 1000 * cpu_expert / max(1, len(ex))
    print(f"CPU: {cpu:.1f} s, {1000 * cpu / max(1, n):.1f} ms per grid, "
          f"{n / cpu if cpu else 0:.1f} grids/s; expert grids {per_expert:.1f} ms per grid, "
          f"{len(ex) / cpu_expert if cpu_expert else 0:.1f} grids/s")


if __name__ == "__main__":
    sys.exit(main())
