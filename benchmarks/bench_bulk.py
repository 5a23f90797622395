"""Bulk-rating throughput and memory: ``grade`` on a collection with 1 and N jobs.

    python benchmarks/bench_bulk.py [FILE] [--limit 2000] [--jobs 1,2] [--dask]

Runs ``grade FILE --jobs J --output tmp.jsonl`` as a user would (a fresh
process per run), samples the whole process tree (main process and workers)
with psutil, and prints for each J: grids, wall time, grids/s, the scaling
against 1 job, CPU seconds used, peak memory (the whole tree and the largest
process), and memory at 25 / 50 / 75 / 100 % of the run (flat means it does
not grow with the collection).  It checks that every run wrote the same
results (all fields but ``seconds``).

The machine's load average is printed before and after: on a shared machine
other work steals cores and the wall-clock scaling says more about the load
than about grade; ``cpu/grid`` (CPU seconds per grid, all processes) is the
figure that load does not change much.

Default FILE: the 17-clue list if ``../shared/puzzles`` is there, else
``puzzles/se-rated-9758.txt``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from benchmarks import cpu_model, puzzles

ROOT = Path(__file__).resolve().parent.parent


def machine() -> str:
    mem = psutil.virtual_memory().total / 2**30
    return (f"{cpu_model()}, {psutil.cpu_count()} cores, {mem:.0f} GiB, Python "
            f"{platform.python_version()}, {platform.system()} {platform.release()}")


def lines_of(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def run(src: Path, jobs: int, total: int, extra: list[str]) -> dict:
    out = Path(tempfile.mkdtemp(prefix="bench-bulk-")) / "out.jsonl"
    cmd = [sys.executable, "-m", "grader", "grade", str(src), "--jobs", str(jobs),
           "--output", str(out), "--no-progress", "--no-summary", *extra]
    t0 = time.perf_counter()
    proc = psutil.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak_tree = peak_one = 0
    marks: dict[int, float] = {}
    cpu: dict[int, float] = {}
    while proc.poll() is None:
        try:
            procs = [proc, *proc.children(recursive=True)]
            rss = []
            for p in procs:
                try:
                    rss.append(p.memory_info().rss)
                    t = p.cpu_times()
                    cpu[p.pid] = t.user + t.system
                except psutil.Error:
                    pass
            tree = sum(rss)
            peak_tree = max(peak_tree, tree)
            peak_one = max(peak_one, max(rss, default=0))
            done = lines_of(out)
            for q in (25, 50, 75):
                if q not in marks and done >= total * q / 100:
                    marks[q] = tree / 2**20
        except psutil.Error:
            pass
        time.sleep(0.2)
    wall = time.perf_counter() - t0
    err = proc.stderr.read().decode() if proc.stderr else ""
    marks[100] = peak_tree / 2**20
    rows = [json.loads(x) for x in out.read_text().splitlines() if x.strip()]
    return {"jobs": jobs, "grids": len(rows), "wall": wall, "rate": len(rows) / wall,
            "cpu": sum(cpu.values()), "peak_tree": peak_tree / 2**20,
            "peak_one": peak_one / 2**20, "marks": marks, "rows": rows,
            "code": proc.returncode, "stderr": err}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", nargs="?", type=Path,
                    default=None)
    ap.add_argument("--limit", type=int, default=2000,
                    help="grade the first N grids only (0: the whole file)")
    ap.add_argument("--jobs", default=f"1,{os.cpu_count() or 1}",
                    help="job counts to compare, e.g. 1,2")
    ap.add_argument("--dask", action="store_true", help="also run --dask local with N jobs")
    args = ap.parse_args()

    if args.file is None:
        args.file = puzzles("hodoku-py_sudoku17.sdm")
    src = args.file
    if args.limit:
        grids = [ln for ln in src.read_text().splitlines()
                 if ln.strip() and not ln.lstrip().startswith("#")][:args.limit]
        sub = Path(tempfile.mkdtemp(prefix="bench-bulk-")) / f"first{args.limit}{src.suffix}"
        sub.write_text("\n".join(grids) + "\n")
        src, total = sub, len(grids)
    else:
        total = sum(1 for ln in src.read_text().splitlines() if ln.strip())
    print(f"machine: {machine()}")
    part = f", the first {args.limit}" if args.limit else ""
    print(f"input: {args.file} ({total} grids{part})")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    results = []
    plans = [(int(j), []) for j in args.jobs.split(",")]
    if args.dask:
        plans.append((max(j for j, _ in plans), ["--dask", "local"]))
    for jobs, extra in plans:
        r = run(src, jobs, total, extra)
        r["label"] = f"{jobs} job{'s' if jobs > 1 else ''}" + (" (dask local)" if extra else "")
        results.append(r)
        if r["code"] not in (0, 1):
            print(f"{r['label']}: grade failed ({r['code']}): {r['stderr'][-500:]}")
            sys.exit(1)
    base = results[0]["rate"]
    print()
    print(f"{'run':<22}{'grids':>7}{'wall s':>9}{'grids/s':>9}{'scaling':>9}{'cpu/grid ms':>13}"
          f"{'peak MB (all)':>15}{'peak MB (1 proc)':>18}   memory at 25/50/75/100 %")
    for r in results:
        m = r["marks"]
        curve = " / ".join(f"{m[q]:.0f}" if q in m else "-" for q in (25, 50, 75, 100))
        print(f"{r['label']:<22}{r['grids']:>7}{r['wall']:>9.1f}{r['rate']:>9.1f}"
              f"{r['rate'] / base:>8.2f}x{1000 * r['cpu'] / max(r['grids'], 1):>13.2f}"
              f"{r['peak_tree']:>15.0f}{r['peak_one']:>18.0f}   {curve}")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    def strip(rows: list[dict]) -> list[dict]:
        return [{k: v for k, v in d.items() if k != "seconds"} for d in rows]

    same = all(strip(r["rows"]) == strip(results[0]["rows"]) for r in results[1:])
    print("same results in every run:", "yes" if same else "NO")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
