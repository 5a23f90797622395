"""Generation speed: grids per minute for each rating and method.

    python benchmarks/bench_generate.py [--budget S] [--methods guided,top-down,bottom-up]
        [--ratings all] [--symmetry central] [--size 9] [--seed 1] [--max-grids N] [--pure]

For each method and rating, makes grids one after another in this process
(one core) with a fixed seed until ``--budget`` seconds (default 20) have
passed or ``--max-grids`` grids are made, and prints:

* grids/min (wall) and grids/min/core (CPU seconds of this process, so other
  work on a shared machine counts less);
* attempts (full grids started) and grading calls per grid made;
* the share of the time spent grading: the assessments (exact-solver
  uniqueness checks, rule fixpoints, capped runs of the strategy) plus the
  final full grade of each grid kept; and the share spent in the exact
  solver outside them (completing random full grids, the uniqueness checks
  of the descents, the bottom-up method's additions).  The rest is the
  generator's own Python (shuffles, erasure bookkeeping);
* the mean number of givens.

Every grid counted has been re-graded by :class:`grader.strategy.grading.Grader` and
is in the requested rating.  The target of issue 6 (``--symmetry central``):
at least 10 grids per minute per core for every rating from very easy to
very difficult, and at least 1 per minute for expert; the last lines say
whether each method meets it.  ``--pure`` turns the C accelerator off.

``--hard`` measures the hard search instead (issue 15): ``--level 14``,
``--rating expert --depth 2`` and score ranges at the top, from nothing
(no ``--like``), one process, ``--budget`` seconds per request and at most
``--max-grids`` grids, the grids per CPU minute of this process counted from
a cold start (the first climb included); each grid is re-graded and checked.
``--budget`` is wall-clock time (it is the run's ``timeout``): on a busy
machine give more.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

from benchmarks import cpu_model
from grader.core.geometry import geometry_for_size
from grader.generator import (
    METHODS,
    Generator,
    Settings,
    Target,
    generate,
    parse_targets,
    rating_bands,
    task_rng,
)
from grader.kernel import c as native
from grader.strategy.hierarchy import load_hierarchy

ROOT = Path(__file__).resolve().parent.parent

TARGET_PER_MIN = {"expert": 1.0}
DEFAULT_TARGET = 10.0


class Timed:
    """Wraps the generator's grading calls (assessments and final grades)
    and its exact-solver calls outside them, to measure their shares."""

    def __init__(self, gen: Generator) -> None:
        self.grading = 0.0
        self.solving = 0.0
        self.calls = 0
        self._inside = False
        assess, grade, solutions = gen.assess, gen.grader.grade_grid, gen._solutions

        def grading(fn):  # type: ignore[no-untyped-def]
            def wrapped(*a, **k):  # type: ignore[no-untyped-def]
                t = time.process_time()
                self._inside = True
                try:
                    return fn(*a, **k)
                finally:
                    self._inside = False
                    self.grading += time.process_time() - t
                    self.calls += 1
            return wrapped

        def timed_solutions(*a, **k):  # type: ignore[no-untyped-def]
            if self._inside:
                return solutions(*a, **k)
            t = time.process_time()
            try:
                return solutions(*a, **k)
            finally:
                self.solving += time.process_time() - t

        gen.assess = grading(assess)  # type: ignore[method-assign]
        gen.grader.grade_grid = grading(grade)  # type: ignore[method-assign]
        gen._solutions = timed_solutions  # type: ignore[method-assign]


def bench(gen: Generator, target: Target, seed: int, budget: float,
          max_grids: int) -> dict[str, float]:
    timed = Timed(gen)
    w0, c0 = time.perf_counter(), time.process_time()
    deadline = time.time() + budget
    made = attempts = givens = 0
    index = 0
    while made < max_grids and time.time() < deadline:
        index += 1
        g = gen.generate(target, task_rng(seed, index, target.label), deadline)
        if g is None:
            break
        assert g.result.verdict == "ok" and target.contains(g.result.level), g.result
        made += 1
        attempts += g.stats.attempts
        givens += g.givens
    wall = time.perf_counter() - w0
    cpu = time.process_time() - c0
    return {"grids": made, "wall": wall, "cpu": cpu,
            "per_min": 60 * made / wall if wall else 0.0,
            "per_min_core": 60 * made / cpu if cpu else 0.0,
            "attempts": attempts / made if made else float(attempts),
            "calls": timed.calls / made if made else float(timed.calls),
            "share": 100 * timed.grading / cpu if cpu else 0.0,
            "solver": 100 * timed.solving / cpu if cpu else 0.0,
            "givens": givens / made if made else 0.0}


#: the hard requests measured by ``--hard``: (label, generate() keywords)
HARD: tuple[tuple[str, dict[str, object]], ...] = (
    ("level 14", {"level": 14}),
    ("expert depth 2", {"rating": "expert", "depth": 2}),
    ("score 140..148", {"score": "140..148"}),
    ("score 148..150", {"score": "148..150"}),
)


def bench_hard(args: argparse.Namespace) -> None:
    from grader.core.geometry import geometry
    from grader.formats import Grid
    from grader.strategy.grading import Grader

    grader = Grader()
    print(f"{'request':18} {'grids':>6} {'cpu s':>7} {'/min/core':>10} {'wall s':>7}")
    wanted = [w.strip() for w in args.requests.split(",")] if args.requests else None
    for label, kw in HARD:
        if wanted is not None and label not in wanted:
            continue
        w0, c0 = time.perf_counter(), time.process_time()
        made = generate(count=args.max_grids, seed=args.seed, symmetry=args.symmetry,
                        timeout=args.budget, **kw)  # type: ignore[arg-type]
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        for g in made:
            r = grader.grade_grid(Grid(geometry(3, 3), g.puzzle))
            assert g.target.accepts(r), (label, r)
        print(f"{label:18} {len(made):6d} {cpu:7.1f} {60 * len(made) / cpu:10.2f} {wall:7.1f}",
              flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", type=float, default=20.0,
                    help="seconds per method and rating (default 20)")
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--ratings", default="all",
                    help="ratings as generate --rating takes them (default: all)")
    ap.add_argument("--symmetry", default="central")
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-grids", type=int, default=500)
    ap.add_argument("--pure", action="store_true", help="turn the C accelerator off")
    ap.add_argument("--hard", action="store_true",
                    help="the hard search: level 14, depth 2, score ranges (9x9)")
    ap.add_argument("--requests", default="",
                    help="with --hard: only these requests, a comma list of the labels "
                         "(level 14, expert depth 2, score 140..148, score 148..150)")
    args = ap.parse_args()
    if args.pure:
        native.set_enabled(False)
    if args.hard:
        print(f"machine: {cpu_model()}, Python {platform.python_version()}, C accelerator "
              f"{'on' if native.available() else 'off'}; symmetry {args.symmetry}, seed "
              f"{args.seed}, {args.budget:g} s per request, at most {args.max_grids} grids")
        bench_hard(args)
        return
    h = load_hierarchy()
    geo = geometry_for_size(args.size)
    targets = rating_bands(h) if args.ratings == "all" else parse_targets(args.ratings, None, h)
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"C accelerator {'on' if native.available() else 'off'}")
    print(f"grids {geo.n}x{geo.n}, symmetry {args.symmetry}, seed {args.seed}, "
          f"{args.budget:g} s per method and rating (at most {args.max_grids} grids)")
    print()
    head = (f"{'method':10} {'rating':15} {'grids':>6} {'/min':>8} {'/min/core':>10} "
            f"{'attempts':>9} {'grading':>8} {'grading':>8} {'solver':>7} {'givens':>7}")
    print(head)
    print(f"{'':10} {'':15} {'':>6} {'(wall)':>8} {'(cpu)':>10} {'/grid':>9} "
          f"{'calls/gr':>8} {'share':>8} {'share':>7} {'':>7}")
    results: dict[str, dict[str, dict[str, float]]] = {}
    for method in methods:
        gen = Generator(Settings(geo.a, geo.b, args.symmetry, method, hierarchy=h))
        for t in targets:
            r = bench(gen, t, args.seed, args.budget, args.max_grids)
            results.setdefault(method, {})[t.label] = r
            print(f"{method:10} {t.label:15} {r['grids']:6d} {r['per_min']:8.1f} "
                  f"{r['per_min_core']:10.1f} {r['attempts']:9.1f} {r['calls']:8.0f} "
                  f"{r['share']:7.0f}% {r['solver']:6.0f}% {r['givens']:7.1f}", flush=True)
        print()
    if args.symmetry == "central" and args.size == 9:
        for method, rows in results.items():
            misses = [f"{label} {r['per_min_core']:.1f}/min"
                      for label, r in rows.items()
                      if r["per_min_core"] < TARGET_PER_MIN.get(label, DEFAULT_TARGET)]
            verdict = "meets the target" if not misses else "misses: " + ", ".join(misses)
            print(f"target (>= 10/min/core very easy..very difficult, >= 1/min expert): "
                  f"{method}: {verdict}")


if __name__ == "__main__":
    main()
