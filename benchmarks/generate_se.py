"""Generation by Sudoku Explainer's rating: grids per minute for each ER band.

    python -m benchmarks generate_se [--bands 2..4,4..6,...] [--jobs 1,0] [--number N]
        [--budget S] [--seed 1] [--symmetry central] [--minimal] [--serate JAR]

For each band (default: 2..4, 4..6, 6..7, 7..8, 8..9, 9..10, 10.. and 11..)
and each ``--jobs`` value (default ``1,0``: one core, then every core), runs
``grader.generate(se=BAND, ...)`` with a fixed seed until ``--number`` grids
(default 10) are made or ``--budget`` seconds (default 120, wall) pass, and
prints:

* grids per minute (wall) and per CPU minute (this process and its workers);
* the givens (min / median / max), and the share of minimal and of
  symmetric (central) grids;
* with ``--serate JAR`` (or ``SERATE_JAR``), Sudoku Explainer's own serate
  (``java -cp JAR diuf.sudoku.test.serate``) rates every grid made again and
  the share whose ER lies in the band is printed, with each grid outside it.

Every grid counted has been graded again by the grader and its ``se`` is in
the band (that is what ``generate`` writes).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from benchmarks import machine

DEFAULT_BANDS = "2..4,4..6,6..7,7..8,8..9,9..10,10..,11.."


def cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def serate(jar: str, puzzles: list[str]) -> list[float | None]:
    """ER of each grid by Sudoku Explainer's serate (None where it printed none)."""
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "grids.txt"
        src.write_text("".join(p + "\n" for p in puzzles))
        out = subprocess.run(["java", "-Xmx1g", "-cp", jar, "diuf.sudoku.test.serate",
                              "--format=%r", f"--input={src}"],
                             capture_output=True, text=True, check=False).stdout.split()
    vals: list[float | None] = []
    for tok in out[:len(puzzles)]:
        try:
            vals.append(float(tok))
        except ValueError:
            vals.append(None)
    return vals + [None] * (len(puzzles) - len(vals))


def band_of(text: str) -> tuple[float, float]:
    from grader.generator.targets import parse_se

    return parse_se(text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bands", default=DEFAULT_BANDS)
    ap.add_argument("--jobs", default="1,0", help="comma list: 1 one core, 0 every core")
    ap.add_argument("--number", type=int, default=10)
    ap.add_argument("--budget", type=float, default=120.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--symmetry", default="none")
    ap.add_argument("--minimal", action="store_true")
    ap.add_argument("--serate", default=os.environ.get("SERATE_JAR"))
    a = ap.parse_args()

    import grader
    from grader.core.geometry import geometry_for_size
    from grader.generator import Generator, Settings
    from grader.generator.symmetry import is_symmetric

    print(machine())
    geo = geometry_for_size(9)
    check = Generator(Settings())
    head = (f"{'band':>8} {'jobs':>4} {'grids':>5} {'/min':>7} {'/CPU min':>8} "
            f"{'givens':>10} {'minimal':>7} {'central':>7}")
    print(head + ("  serate in band" if a.serate else ""))
    for band in a.bands.split(","):
        lo, hi = band_of(band)
        for jobs in (int(j) for j in a.jobs.split(",")):
            c0, t0 = cpu(), time.perf_counter()
            made = grader.generate(se=band, number=a.number, seed=a.seed, jobs=jobs,
                                   symmetry=a.symmetry, minimal=a.minimal,
                                   stop_after=a.budget)
            wall, used = time.perf_counter() - t0, cpu() - c0
            n = len(made)
            givens = sorted(sum(ch != "." for ch in g.puzzle) for g in made)
            values = [[0 if ch == "." else int(ch) for ch in g.puzzle] for g in made]
            minimal = sum(check.is_minimal(v) for v in values)
            central = sum(is_symmetric(geo, v, "central") for v in values)
            spread = f"{givens[0]}/{statistics.median(givens):g}/{givens[-1]}" if n else "-"
            line = (f"{band:>8} {jobs or os.cpu_count():>4} {n:>5} {60 * n / wall:>7.1f} "
                    f"{60 * n / max(used, 1e-9):>8.1f} {spread:>10} "
                    f"{(f'{minimal / n:.0%}' if n else '-'):>7} "
                    f"{(f'{central / n:.0%}' if n else '-'):>7}")
            if a.serate and n:
                ers = serate(a.serate, [g.puzzle for g in made])
                inside = [e is not None and lo <= e <= hi for e in ers]
                line += f"  {sum(inside)}/{n}"
                for g, e, ok in zip(made, ers, inside, strict=True):
                    if not ok:
                        line += f"\n{'':>10}outside: {g.puzzle} se {g.se} serate {e}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
