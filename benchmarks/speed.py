"""Grading speed against an older commit, back to back on one core.

    python -m benchmarks speed --against 191370e [--runs 3] [--quick]

The older commit is built beside this checkout (a git worktree and a venv of
its own under ``.bench/``, made once and reused), then each workload is run
by both, alternately, as a user runs it: the whole ``grade FILE -f jsonl
-j 1`` process, pinned to one core.  The figure is the CPU time of that
process (user + system, from the kernel's accounting), the smallest of
``--runs`` runs; the ratio is this checkout's over the older commit's.  The
ratings (level, rating, depth, score, and ``se``/``se_pattern`` where both
report them) are compared grid by grid.

Workloads (from ``--puzzles DIR``, by default ``puzzles/`` then ``../shared/puzzles``):

* ``bench-mixed.txt``: 200 grids of every level;
* the first 5,000 grids of ``hodoku-py_sudoku17.sdm`` (mostly easy);
* the 375 grids of ``hodoku-py_HardestDatabase110626.txt`` (skipped with
  ``--quick``).

Then the start-up of the commands (CPU seconds of the process, the smallest
of 10 runs, and this checkout's over the older commit's: ``grade GRID`` is
the one the issue "Rate a million grids" judges), the rate of the API's
``grader.grade(grid)`` called in a loop on the first 2,000 easy grids of
sudoku17 (grids per CPU second, in one process, ``se`` fast and off) and,
with ``--memory N``, the peak memory of the process tree grading N grids
with ``-j 2``.  Both versions' modules are byte-compiled first (as pip
installs them), so that ``PYTHONDONTWRITEBYTECODE`` does not time the
compiler.  Everything is printed with the date and the machine.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks import machine, puzzles

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".bench"
RATING_FIELDS = ("verdict", "level", "rating", "depth", "score", "se", "se_pattern")


@dataclass
class Build:
    """A version of the program: its label and its ``bin`` directory."""

    label: str
    bin: Path

    def cmd(self, name: str, *args: str) -> list[str]:
        return [str(self.bin / name), *args]


def build_commit(commit: str) -> Build:
    """The older commit, checked out and installed under ``.bench/`` (once)."""
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", commit],
                         check=True, capture_output=True, text=True).stdout.strip()
    where = CACHE / sha
    venv = where / ".venv"
    if not (venv / "bin" / "grade").exists():
        CACHE.mkdir(exist_ok=True)
        if where.exists():
            shutil.rmtree(where)
        subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], check=True)
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f", str(where),
                        sha], check=True, capture_output=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        print(f"building {sha} in {where} ...", file=sys.stderr)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "-e", str(where)],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    compiled(venv / "bin", where)
    return Build(sha, venv / "bin")


def compiled(bin_dir: Path, tree: Path) -> None:
    """Byte-compile the program's modules (an editable install leaves them as
    sources: with ``PYTHONDONTWRITEBYTECODE`` every start would compile them)."""
    subprocess.run([str(bin_dir / "python"), "-m", "compileall", "-q", str(tree / "grader"),
                    str(tree / "rules")], check=False, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def pin(core: int | None):  # type: ignore[no-untyped-def]
    """A preexec function that pins the child to one core."""
    if core is None or not hasattr(os, "sched_setaffinity"):
        return None
    return lambda: os.sched_setaffinity(0, {core})


def cpu_run(cmd: list[str], out: Path | None, core: int | None) -> float:
    """Run ``cmd`` to completion; the CPU seconds (user + system) it took."""
    stdout = open(out, "w") if out is not None else subprocess.DEVNULL  # noqa: SIM115
    try:
        proc = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.DEVNULL,
                                preexec_fn=pin(core))
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if out is not None:
            stdout.close()  # type: ignore[union-attr]
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed with exit status {proc.returncode}")
    return usage.ru_utime + usage.ru_stime


def wall_run(cmd: list[str], core: int | None) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   preexec_fn=pin(core), check=False)
    return time.perf_counter() - t0


def ratings(path: Path) -> dict[str, dict[str, object]]:
    """The rating fields of each graded grid of an output, by its puzzle."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {str(r.get("puzzle")): {k: r.get(k) for k in RATING_FIELDS if k in r}
            for r in rows if r.get("verdict") != "malformed"}


def differences(old: Path, new: Path) -> int:
    """Grids whose rating fields (those both versions report) differ, or that
    only one version grades.  An older version without ``se`` scored expert
    grids another way: its ``score`` is not compared."""
    a, b = ratings(old), ratings(new)
    differ = len(a.keys() ^ b.keys())
    for puzzle in a.keys() & b.keys():
        x, y = a[puzzle], b[puzzle]
        differ += any(x[k] != y[k] for k in x.keys() & y.keys() if k != "score" or "se" in x)
    return differ


Find = Callable[[str], "Path | None"]


def finder(directory: Path | None) -> Find:
    """Where puzzle files are: ``directory``, or :func:`benchmarks.puzzles`."""

    def find(name: str) -> Path | None:
        if directory is not None:
            return directory / name if (directory / name).exists() else None
        try:
            return puzzles(name)
        except SystemExit:
            return None

    return find


def workloads(find: Find, quick: bool, tmp: Path) -> list[tuple[str, Path, int]]:
    """(name, file, grids) of the workloads whose files exist."""
    out: list[tuple[str, Path, int]] = []
    mixed = find("bench-mixed.txt")
    if mixed is not None:
        out.append(("bench-mixed (200 grids)", mixed, 200))
    s17 = find("hodoku-py_sudoku17.sdm")
    if s17 is not None:
        head = tmp / "sudoku17-5000.txt"
        with s17.open() as f:
            head.write_text("".join(line for _, line in zip(range(5000), f, strict=False)))
        out.append(("sudoku17, first 5,000", head, 5000))
    hardest = find("hodoku-py_HardestDatabase110626.txt")
    if hardest is not None and not quick:
        out.append(("HardestDatabase (375 grids)", hardest, 375))
    if not out:
        raise SystemExit("no workload found (see --puzzles)")
    return out


def grading(old: Build, new: Build, find: Find, runs: int, core: int | None,
            quick: bool) -> None:
    print("(ratings: verdict, level, rating, depth, and score, se, se_pattern where both "
          "report se)")
    print(f"\nGrading: CPU seconds of `grade FILE -f jsonl -j 1`, the smallest of {runs} runs, "
          f"core {core}")
    print(f"{'workload':<30} {old.label:>10} {new.label:>10} {'ratio':>7} "
          f"{'grids/s':>9}  ratings")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for name, path, n in workloads(find, quick, tmp):
            times: dict[str, list[float]] = {old.label: [], new.label: []}
            for _ in range(runs):
                for b in (old, new):
                    times[b.label].append(cpu_run(b.cmd("grade", str(path), "-f", "jsonl",
                                                        "-j", "1"), tmp / f"{b.label}.jsonl",
                                                  core))
            t_old, t_new = min(times[old.label]), min(times[new.label])
            diff = differences(tmp / f"{old.label}.jsonl", tmp / f"{new.label}.jsonl")
            same = "identical" if diff == 0 else f"{diff} differ"
            print(f"{name:<30} {t_old:10.2f} {t_new:10.2f} {t_new / t_old:6.2f}x "
                  f"{n / t_new:9.0f}  {same}", flush=True)


def cpu_of(cmd: list[str], core: int | None) -> float:
    """CPU seconds (user + system) of one run of ``cmd``, output thrown away."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=pin(core))
    _, _, usage = os.wait4(proc.pid, 0)
    return usage.ru_utime + usage.ru_stime


def startup(old: Build, new: Build, find: Find, core: int | None) -> None:
    grid = "...1.5.9..23...7..1..2......9....8..2...1...7..1....6......6..9..9...43..7.5.4..."
    mixed = find("bench-mixed.txt")
    if mixed is not None:
        grid = mixed.read_text().split()[0]
    cases = {"grade --help": ("grade", "--help"), "explain --help": ("explain", "--help"),
             "grade --version": ("grade", "--version"), "grade GRID": ("grade", grid)}
    print("\nStart-up: CPU seconds of the process, the smallest of 10 runs (in turn)")
    print(f"{'command':<30} {old.label:>10} {new.label:>10} {'ratio':>7}")
    for name, (cmd, *args) in cases.items():
        runs: dict[str, list[float]] = {old.label: [], new.label: []}
        for _ in range(10):
            for b in (old, new):
                runs[b.label].append(cpu_of(b.cmd(cmd, *args), core))
        a, b = min(runs[old.label]), min(runs[new.label])
        print(f"{name:<30} {a:10.3f} {b:10.3f} {b / a:6.2f}x", flush=True)


#: ``grader.grade(grid)`` in a loop: grids per CPU second of the loop.
API_LOOP = """
import sys, time, grader
grids = [line.split()[0] for line in open(sys.argv[1]) if line.strip()][:2000]
kw = {} if sys.argv[2] == "default" else {"se": sys.argv[2]}
grader.grade(grids[0], **kw)
t = time.process_time()
for g in grids:
    grader.grade(g, **kw)
print(len(grids) / (time.process_time() - t))
"""


def api_loop(old: Build, new: Build, find: Find, core: int | None) -> None:
    files = [(name, path) for name, path in (
        ("se-easy-500", find("se-easy-500.txt") or ROOT / "puzzles" / "se-easy-500.txt"),
        ("sudoku17, first 2,000", find("hodoku-py_sudoku17.sdm"))) if path is not None]
    print("\nAPI: grader.grade(grid) in a loop (at most 2,000 grids), grids per CPU second "
          "(the best of 3; '-': the version has no such option)")
    print(f"{'grids, se':<30} {old.label:>10} {new.label:>10}")
    for name, path in files:
        for se in ("default", "off"):
            row = []
            for b in (old, new):
                best = 0.0
                for _ in range(3):
                    p = subprocess.run([str(b.bin / "python"), "-c", API_LOOP, str(path), se],
                                       capture_output=True, text=True, preexec_fn=pin(core),
                                       check=False)
                    if p.returncode != 0:
                        break
                    best = max(best, float(p.stdout.strip()))
                row.append(f"{best:10.0f}" if best else f"{'-':>10}")
            print(f"{name + ', ' + se:<30} {row[0]} {row[1]}", flush=True)


def tree_rss(pid: int) -> int:
    """Resident bytes of ``pid`` and all its descendants (from /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()
            children.setdefault(int(fields[1]), []).append(int(entry.name))
            rss[int(entry.name)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            continue
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo.extend(children.get(p, []))
    return total


def memory(new: Build, find: Find, grids: int) -> None:
    s17 = find("hodoku-py_sudoku17.sdm")
    if s17 is None:
        print("\nMemory: hodoku-py_sudoku17.sdm not found, skipped")
        return
    lines = s17.read_text().splitlines()
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "many.txt"
        src.write_text("\n".join(lines[i % len(lines)] for i in range(grids)) + "\n")
        proc = subprocess.Popen(new.cmd("grade", str(src), "-f", "jsonl", "-j", "2", "-q",
                                        "-o", str(Path(d) / "out.jsonl")),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        peak = 0
        while proc.poll() is None:
            peak = max(peak, tree_rss(proc.pid))
            time.sleep(0.05)
    print(f"\nMemory: grading {grids:,} grids with -j 2, peak of the process tree: "
          f"{peak / 2**20:.0f} MB")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", default="191370e", help="the older commit (default 191370e)")
    ap.add_argument("--runs", type=int, default=3, help="runs of each workload (default 3)")
    ap.add_argument("--core", type=int, default=0, help="the core to pin to (default 0)")
    ap.add_argument("--puzzles", type=Path, default=None,
                    help="where the puzzle files are (default: puzzles/, then ../shared/puzzles)")
    ap.add_argument("--quick", action="store_true", help="skip the 375 hardest grids")
    ap.add_argument("--memory", type=int, default=0, metavar="N",
                    help="also the peak memory grading N grids with -j 2")
    args = ap.parse_args(argv)
    old = build_commit(args.against)
    new = Build("this", Path(sys.executable).parent)
    compiled(new.bin, ROOT)
    print(f"{datetime.date.today()}  {machine(system=False)}")
    print(f"baseline {old.label} ({args.against}) against this checkout ({new.bin})")
    find = finder(args.puzzles)
    grading(old, new, find, args.runs, args.core, args.quick)
    startup(old, new, find, args.core)
    api_loop(old, new, find, args.core)
    if args.memory:
        memory(new, find, args.memory)


if __name__ == "__main__":
    main()
