"""Scaling: worker processes against a Dask LocalCluster at 1, 2 and N workers.

    python benchmarks/scaling.py [FILE] [--limit 20000] [--workers 1,2,N] [--repeat 3]

For each worker count W (N: the number of cores) it runs, back to back and
``--repeat`` times each, as a user would (a fresh process per run)::

    grade FILE -j W -f jsonl -q -o OUT                 # processes
    grade FILE --dask local -j W -f jsonl -q -o OUT    # Dask

and prints the fastest wall time of each (the least disturbed by other work
on the machine), grids/s, the speed-up against one worker of the same kind,
and Dask's wall time over the processes' (1.00: no overhead; the goal is at
most 1.10).  Every run must write the same results (all fields but
``seconds``); a run that does not stops the benchmark.

FILE (default: the 17-clue list of ``../shared/puzzles``) is cut to its first
``--limit`` lines (0: all).  The machine and its load average, before and
after, are printed with the figures: on a shared machine the load says how
far the wall times can be trusted.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # python benchmarks/scaling.py

from benchmarks import machine  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "puzzles" / "hodoku-py_sudoku17.sdm"


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def results(path: Path) -> list[dict]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    for r in rows:
        r.pop("seconds", None)
    return rows


def run(src: Path, workers: int, dask: bool, out: Path) -> float:
    cmd = [sys.executable, "-m", "grader", "grade", str(src), "-j", str(workers),
           "-f", "jsonl", "-q", "-o", str(out), "--overwrite"]
    if dask:
        cmd += ["--dask", "local"]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr}")
    return wall


def _session_cpu(sid: int, seen: dict[int, tuple[str, float]]) -> None:
    """The CPU seconds so far of every process of the session ``sid`` (from /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[3]) == sid:
            cpu = (int(fields[11]) + int(fields[12])) / tick
            seen[int(entry)] = (name, max(cpu, seen.get(int(entry), ("", 0.0))[1]))


def cpu_split(src: Path, workers: int, dask: bool,
              out: Path) -> tuple[float, list[float], float]:
    """One run sampled every 50 ms: the CPU seconds of ``grade``'s own process, of
    its other processes (workers, the fork server: largest first) and of all.  On an idle machine
    with a core per worker, the wall time is about the busiest worker's CPU time:
    the figure to compare with one job's CPU time on a machine whose load makes
    wall times meaningless."""
    cmd = [sys.executable, "-m", "grader", "grade", str(src), "-j", str(workers),
           "-f", "jsonl", "-q", "-o", str(out), "--overwrite"] + (["--dask", "local"] if dask
                                                                  else [])
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    seen: dict[int, tuple[str, float]] = {}
    while proc.poll() is None:
        _session_cpu(proc.pid, seen)
        time.sleep(0.05)
    own = seen.pop(proc.pid, ("", 0.0))[1]
    others = sorted((cpu for _, cpu in seen.values()), reverse=True)
    return own, others, own + sum(others)


def measure(src: Path, counts: list[int], repeat: int, tmp: Path) -> dict[tuple[str, int], float]:
    best: dict[tuple[str, int], float] = {}
    want: list[dict] | None = None
    for w in counts:
        for _ in range(repeat):
            for kind in ("processes", "dask"):
                out = tmp / f"{kind}-{w}.jsonl"
                wall = run(src, w, kind == "dask", out)
                best[kind, w] = min(wall, best.get((kind, w), wall))
                got = results(out)
                if want is None:
                    want = got
                elif got != want:
                    raise SystemExit(f"{kind} with {w} workers wrote other results")
                print(f"  {kind:9} -j {w:<3} {wall:7.2f} s", file=sys.stderr, flush=True)
    return best


def table(best: dict[tuple[str, int], float], counts: list[int], grids: int) -> str:
    rows = ["| workers | processes s | grids/s | speed-up | Dask s | grids/s | speed-up "
            "| Dask / processes |", "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for w in counts:
        p, d = best["processes", w], best["dask", w]
        p1, d1 = best.get(("processes", 1)), best.get(("dask", 1))
        sp = f"{p1 / p:.2f}x" if p1 else "-"
        sd = f"{d1 / d:.2f}x" if d1 else "-"
        rows.append(f"| {w} | {p:.2f} | {grids / p:,.0f} | {sp} | {d:.2f} | {grids / d:,.0f} "
                    f"| {sd} | {d / p:.2f}x |")
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", nargs="?", type=Path, default=SHARED)
    ap.add_argument("--limit", type=int, default=20000, help="first N lines (0: all)")
    ap.add_argument("--workers", default="1,2,N", help="worker counts; N: the cores")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each; the fastest counts")
    ap.add_argument("--cpu", action="store_true",
                    help="instead of wall times: the CPU seconds of grade's process, of the "
                         "busiest worker and of all (sampled from /proc), for a loaded machine")
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    counts = sorted({cores if w.strip().upper() == "N" else int(w)
                     for w in args.workers.split(",")})
    with tempfile.TemporaryDirectory(prefix="bench-scaling-") as d:
        tmp = Path(d)
        src = args.file
        if args.limit:
            src = tmp / f"first-{args.limit}{args.file.suffix}"
            with args.file.open() as fh:
                src.write_text("".join(line for _, line in zip(range(args.limit), fh,
                                                              strict=False)))
        grids = sum(1 for line in src.read_text().splitlines() if line.strip())
        before = load()
        started = time.strftime("%Y-%m-%d %H:%M")
        if args.cpu:
            print(f"{started}, {machine()}; load average {before}")
            print(f"{args.file.name}, first {grids:,} lines: CPU seconds")
            print("| kind | workers | grade's process | its other processes | all |")
            print("|---|---:|---:|---|---:|")
            for w in counts:
                for kind in ("processes", "dask"):
                    own, others, total = cpu_split(src, w, kind == "dask", tmp / "o.jsonl")
                    rest = ", ".join(f"{c:.2f}" for c in others if c >= 0.01) or "-"
                    print(f"| {kind} | {w} | {own:.2f} | {rest} | {total:.2f} |", flush=True)
            return
        best = measure(src, counts, args.repeat, tmp)
        after = load()
    print(f"{started}, {machine()}")
    print(f"{args.file.name}, first {grids:,} lines; fastest of {args.repeat} runs each, "
          f"back to back; load average before {before}, after {after}")
    print(table(best, counts, grids))


if __name__ == "__main__":
    main()
