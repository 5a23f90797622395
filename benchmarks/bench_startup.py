"""Start-up time of the commands: ``--version`` of each console script and of
``python -m grader``, ``--help``, and ``import grader``.

    python benchmarks/bench_startup.py [--runs N]

Prints the median and the maximum wall time of N runs (default 7) of each, as
a user would run them (a fresh process each time).  The target for
``--version`` is under 0.5 s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent


def timed(cmd: list[str], runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), max(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    runs = ap.parse_args().runs
    cases = {
        "python -c 'import grader'": [sys.executable, "-c", "import grader"],
        "python -m grader --version": [sys.executable, "-m", "grader", "--version"],
        **{f"{c} --version": [str(BIN / c), "--version"]
           for c in ("grade", "explain", "solve", "generate", "pair")},
        "grade --help": [str(BIN / "grade"), "--help"],
    }
    print(f"{'command':<32} {'median s':>9} {'max s':>7}   ({runs} runs each)")
    for name, cmd in cases.items():
        med, worst = timed(cmd, runs)
        print(f"{name:<32} {med:9.3f} {worst:7.3f}")


if __name__ == "__main__":
    main()
