"""Differential test against Sudoku Explainer's own rater (serate): ER, EP, ED.

    python -m benchmarks serate_diff FILE [--serate JAR] [--cache CACHE]
        [--se fast|full] [--limit N] [--chunk N] [--misses N] [--no-run]

Rates every 9x9 grid of ``FILE`` (one puzzle a line: the first 81-character
token of the line) with the project (``se``, ``ep``, ``ed`` of
:class:`grader.strategy.grading.Grader`) and with serate, SukakuExplainer's
command-line rater that the user built (``--serate JAR``, or the environment
variable ``SERATE_JAR``; a jar or a classes directory, run as ``java -Xmx1g
-cp JAR diuf.sudoku.test.serate``; see docs/se-scale.md).  serate's answers are
cached by grid in ``CACHE`` (JSON Lines, by default
``benchmarks/data/serate-cache.jsonl``), with its steps and its CPU time, so a
grid is rated by Java once; ``--no-run`` uses the cache only (grids not in it
are left out), which needs no Java.

Prints, for ER, EP and ED: the grids exact, within 0.1, and Spearman's rho;
the CPU time of each program (ours in this process, per grid, one core;
serate's from its JVM's user + system time, shared among the grids of one run
by their elapsed times, JVM start included); then, for each grid whose ER
differs, the first step where the two part: the first point where the
running maximum of the ratings differs, with the step each side took there
(ours: the loop below 4.0, then the walk's moves; serate: its ``--after``
log).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from grader.formats import parse_grid_token  # noqa: E402
from grader.strategy.grading import Grader  # noqa: E402

DEFAULT_CACHE = ROOT / "benchmarks" / "data" / "serate-cache.jsonl"
GRID = re.compile(r"(?<![0-9.])[0-9.]{81}(?![0-9.])")
MAIN = "diuf.sudoku.test.serate"


def grids_of(path: Path) -> list[str]:
    """The 81-character grids of ``path`` in order ('.' read as 0), duplicates kept once."""
    out: list[str] = []
    seen: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        m = GRID.search(line)
        if m:
            g = m.group(0).replace(".", "0")
            if g not in seen:
                seen.add(g)
                out.append(g)
    return out


def load_cache(path: Path) -> dict[str, dict]:
    out: dict[str, dict] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                out[rec["grid"]] = rec
    return out


def _seconds(text: str) -> float:
    """serate's elapsed time ("1.23s", "2m05s", "1h02m")."""
    total = 0.0
    for num, unit in re.findall(r"([0-9.]+)([hms])", text):
        total += float(num) * {"h": 3600, "m": 60, "s": 1}[unit]
    return total


def parse_serate(text: str) -> list[dict]:
    """The records of one serate run made with :func:`serate_command`'s formats."""
    out: list[dict] = []
    steps: list[list] = []
    for line in text.splitlines():
        if line.startswith("@ "):
            r, _, what = line[2:].partition("|")
            steps.append([float(r), what.strip()])
        elif line.startswith("= "):
            grid, er, ep, ed, name, elapsed = line[2:].split("|")
            out.append({"grid": grid.strip(), "er": float(er), "ep": float(ep), "ed": float(ed),
                        "name": name.strip(), "elapsed": _seconds(elapsed), "steps": steps})
            steps = []
    return out


def serate_command(jar: str, infile: str) -> list[str]:
    return ["java", "-Xmx1g", "-cp", jar, MAIN, "--format== %g|%r|%p|%d|%S|%e",
            "--after=@ %r|%s", f"--input={infile}"]


def run_serate(jar: str, grids: list[str], cache: dict[str, dict], cache_path: Path,
               chunk: int) -> None:
    """Rate ``grids`` with serate, ``chunk`` grids per JVM, appending each run's
    records to the cache as it ends."""
    cache_path.parent.mkdir(parents=True, exist_ok=True)
    for i in range(0, len(grids), chunk):
        part = grids[i:i + chunk]
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("".join(g + "\n" for g in part))
            name = f.name
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            done = subprocess.run(serate_command(jar, name), capture_output=True, text=True,
                                  check=True)
        finally:
            os.unlink(name)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        recs = parse_serate(done.stdout)
        elapsed = sum(r["elapsed"] for r in recs) or 1.0
        with cache_path.open("a", encoding="utf-8") as out:
            for r in recs:
                r["cpu"] = round(cpu * (r["elapsed"] or elapsed / len(recs)) / elapsed, 3)
                cache[r["grid"]] = r
                out.write(json.dumps(r) + "\n")
        print(f"serate: {min(i + chunk, len(grids))}/{len(grids)} grids", file=sys.stderr)


def spearman(xs: list[float], ys: list[float]) -> float | None:
    def ranks(v: list[float]) -> list[float]:
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return r
    if len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return None if not sxx or not syy else sxy / (sxx * syy) ** 0.5


def our_steps(grader: Grader, grid: str, depth: int | None) -> list[tuple[str, int]]:
    """(name, tenths) of our steps: the loop below 4.0 as one step, then the walk's moves."""
    from grader.strategy.serate.rate import easy_run
    g = parse_grid_token(grid)
    _, _, solution = grader.verdict(g)
    easy = easy_run(g.values, None, grader.engine.kernel.name)
    steps = [(f"loop below 4.0 ({easy.steps} steps, hardest {easy.name})", easy.tenths)]
    walk = grader.expert(g, solution, depth)
    if walk is not None:
        steps += [(m.family, m.rating) for m in walk.moves]
    return steps


def parting(ours: list[tuple[str, int]], theirs: list[list]) -> str:
    """Where the running maxima of the two step lists first differ."""
    def rises(seq: list[tuple[str, int]]) -> list[tuple[int, str, int]]:
        top, out = 0, []
        for i, (name, t) in enumerate(seq, start=1):
            if t > top:
                top = t
                out.append((t, name, i))
        return out
    # the loop below 4.0 is Sudoku Explainer's own (tests/test_serate_easy.py):
    # compare from the first rise to 4.0 and above, where the walk starts
    a = [x for x in rises(ours) if x[0] >= 40]
    b = [x for x in rises([(what, round(r * 10)) for r, what in theirs]) if x[0] >= 40]
    for k in range(max(len(a), len(b))):
        x = a[k] if k < len(a) else None
        y = b[k] if k < len(b) else None
        if x is None or y is None or x[0] != y[0]:
            left = f"ours {x[0] / 10:.1f} at move {x[2]} ({x[1]})" if x else "ours: no further rise"
            right = (f"serate {y[0] / 10:.1f} at step {y[2]} ({y[1]})" if y
                     else "serate: no further rise")
            return f"{left}; {right}"
    return "same running maxima"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", type=Path)
    ap.add_argument("--serate", default=os.environ.get("SERATE_JAR"),
                    help="serate's jar or classes directory (default: $SERATE_JAR)")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--se", default="fast", choices=("fast", "full"))
    ap.add_argument("--limit", type=int, default=0, help="the first N grids only")
    ap.add_argument("--chunk", type=int, default=10, help="grids per serate JVM")
    ap.add_argument("--misses", type=int, default=40, help="misses to show (0: none)")
    ap.add_argument("--no-run", action="store_true", help="use the cache only")
    ap.add_argument("--jsonl", type=Path, help="write one record per grid here")
    args = ap.parse_args()

    grids = grids_of(args.file)
    if args.limit:
        grids = grids[:args.limit]
    cache = load_cache(args.cache)
    todo = [g for g in grids if g not in cache]
    if todo and not args.no_run:
        if not args.serate:
            raise SystemExit(f"{len(todo)} grids are not in {args.cache}: give serate's jar "
                             "(--serate JAR or SERATE_JAR), or --no-run")
        run_serate(args.serate, todo, cache, args.cache, args.chunk)
    grids = [g for g in grids if g in cache]
    if not grids:
        raise SystemExit("no grid rated by serate")

    grader = Grader(se=args.se)
    rows = []
    cpu_ours = 0.0
    for g in grids:
        t = time.process_time()
        r = grader.grade_grid(parse_grid_token(g))
        cpu = time.process_time() - t
        cpu_ours += cpu
        rows.append((g, r, cache[g], cpu))

    print(f"{args.file}: {len(rows)} grids rated by both (--se {args.se})")
    print(f"{'':4} {'exact':>13} {'within 0.1':>13} {'rho':>7}")
    for key in ("er", "ep", "ed"):
        ours = [(r.se if key == "er" else getattr(r, key, None)) for _, r, _, _ in rows]
        theirs = [s[key] for _, _, s, _ in rows]
        pairs = [(o, t) for o, t in zip(ours, theirs, strict=True) if o is not None]
        n = len(rows)
        exact = sum(1 for o, t in pairs if round(o * 10) == round(t * 10))
        near = sum(1 for o, t in pairs if abs(round(o * 10) - round(t * 10)) <= 1)
        rho = spearman([o for o, _ in pairs], [t for _, t in pairs])
        print(f"{key.upper():4} {exact:>5}/{n} {100 * exact / n:5.1f}% {near:>5}/{n} "
              f"{100 * near / n:5.1f}% {rho if rho is None else f'{rho:7.4f}'}")
    timed = [(s["cpu"], cpu) for _, _, s, cpu in rows if s.get("cpu")]
    print(f"CPU: ours {cpu_ours:.2f} s ({cpu_ours / len(rows):.3f} s/grid)")
    if timed:
        se_cpu, our_cpu = sum(t for t, _ in timed), sum(c for _, c in timed)
        print(f"     on the {len(timed)} grids whose serate CPU time is cached: serate "
              f"{se_cpu:.1f} s ({se_cpu / len(timed):.2f} s/grid, JVM start included), ours "
              f"{our_cpu:.2f} s: {se_cpu / our_cpu if our_cpu else float('inf'):.0f}x")
    misses = [(g, r, s) for g, r, s, _ in rows
              if r.se is None or round(r.se * 10) != round(s["er"] * 10)]
    if misses and args.misses:
        print(f"\nER misses ({len(misses)}), where the two part:")
        for g, r, s in misses[:args.misses]:
            where = parting(our_steps(grader, g, r.depth), s["steps"])
            print(f"{g} ours {r.se} ({r.se_pattern}) serate {s['er']} ({s['name']})\n    {where}")
    if args.jsonl:
        with args.jsonl.open("w", encoding="utf-8") as f:
            for g, r, s, cpu in rows:
                f.write(json.dumps({"grid": g, "se": r.se, "ep": r.ep, "ed": r.ed,
                                    "se_pattern": r.se_pattern, "er": s["er"], "sep": s["ep"],
                                    "sed": s["ed"], "serate": s["name"],
                                    "cpu": round(cpu, 4)}) + "\n")


if __name__ == "__main__":
    main()
