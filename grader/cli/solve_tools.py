"""``solve --compare`` and ``solve --dimacs``: the two modes of ``solve`` that
do not report one engine's solutions (their work is in
:mod:`grader.exact.solving` and :mod:`grader.exact.cnf`; here the table,
the plot and the messages), and the progress bar of a batch."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from pathlib import Path
from typing import NoReturn

import typer
from rich.table import Table

from grader.cli.common import EXIT_NOT_OK, EXIT_OK, err, fail, print_whole, sigterm_as_interrupt
from grader.exact import EngineError
from grader.exact.cnf import encode
from grader.exact.solving import Comparison, Outcome, SolveOptions, compare, encoding_sizes
from grader.formats import InputError, Record
from grader.formats.files import open_output, save_whole


class Progress:
    """A transient progress bar on standard error (terminals only)."""

    def __init__(self, enabled: bool, label: str) -> None:
        self.bar = None
        self.done = 0
        self.t0 = time.perf_counter()
        self.last = 0.0
        if enabled:
            from rich.progress import Progress, SpinnerColumn, TextColumn

            self.bar = Progress(SpinnerColumn(), TextColumn(label),
                                TextColumn("[bold]{task.fields[n]}[/] grids"),
                                TextColumn("{task.fields[rate]} grids/s"), console=err,
                                transient=True)
            self.task = self.bar.add_task(label, total=None, n=0, rate="-")
            self.bar.start()

    def step(self) -> None:
        self.done += 1
        if self.bar is None:
            return
        now = time.perf_counter()
        if now - self.last >= 0.1:
            self.last = now
            rate = self.done / max(now - self.t0, 1e-9)
            self.bar.update(self.task, n=self.done, rate=f"{rate:.1f}")

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()

def _records(opts: SolveOptions, inputs: list[str]) -> list[Record]:
    try:
        recs = list(opts.records(inputs))
    except InputError as e:
        fail(str(e))
    if not recs:
        fail(f"no grid found in {', '.join(inputs)}")
    return recs


def write_dimacs_files(opts: SolveOptions, inputs: list[str], path: Path) -> NoReturn:
    """``--dimacs FILE``: each grid's CNF in ``opts.encoding`` (several grids:
    FILE-1.cnf, FILE-2.cnf, ...), the sizes of every encoding on standard error."""
    recs = _records(opts, inputs)
    bad = False
    for rec in recs:
        if rec.grid is None:
            err.print(f"grid {rec.index} (line {rec.line}): malformed: {rec.error}",
                      markup=False)
            bad = True
            continue
        target = path if len(recs) == 1 else path.with_name(
            f"{path.stem}-{rec.index}{path.suffix or '.cnf'}")
        enc = encode(rec.grid.geo, rec.grid.values, opts.encoding)
        try:
            with open_output(target, encoding="ascii") as fh:
                enc.write_dimacs(fh, f"grid {rec.index} of {rec.source}, line {rec.line}")
        except OSError as exc:
            fail(f"{target}: cannot write: {exc.strerror or exc}")
        err.print(f"wrote {target} ({opts.encoding} encoding); "
                  + "; ".join(encoding_sizes(rec, ": ")), markup=False, highlight=False)
    raise typer.Exit(EXIT_NOT_OK if bad else EXIT_OK)


def compare_engines(opts: SolveOptions, names: list[str], inputs: list[str],
                    plot: Path | None, quiet: bool) -> NoReturn:
    """``--compare``: every engine on the same grids, a table on standard output
    (and ``--plot``); exit 1 when engines disagree."""
    recs = _records(opts, inputs)
    bar: list[Progress] = []  # the current engine's

    def stop() -> None:
        if bar:
            bar[-1].stop()

    def start(name: str) -> None:
        stop()
        bar.append(Progress(not quiet and err.is_terminal, f"{name}"))

    try:
        with sigterm_as_interrupt():  # kill or a closed terminal: as Ctrl-C
            cmp = compare(names, recs, opts, on_step=lambda _: bar[-1].step(),
                          on_start=start)
    except EngineError as e:
        stop()
        fail(str(e))
    except KeyboardInterrupt:
        stop()
        err.print(f"interrupted during {names[len(bar) - 1] if bar else names[0]}")
        raise typer.Exit(130) from None
    stop()
    disagree = cmp.disagreements()
    print_whole(_table(cmp, names, inputs, opts.time_limit, disagree))
    for idx, detail in disagree[:10]:
        err.print(f"grid {idx}: engines disagree: {detail}", markup=False)
    if plot is not None:
        _plot_compare(cmp.runs, plot, len(recs))
    raise typer.Exit(EXIT_NOT_OK if disagree else EXIT_OK)


def _table(cmp: Comparison, names: list[str], inputs: list[str], time_limit: float | None,
           disagree: list[tuple[int, str]]) -> Table:
    table = Table(title=f"{len(cmp.records)} grids from {', '.join(inputs)}"
                  + (f", time limit {time_limit:g} s per grid" if time_limit else ""))
    for col in ("engine", "grids/s", "total s", "mean ms", "max ms", "ok", "not ok",
                "timeout", "agree"):
        table.add_column(col, justify="left" if col in ("engine", "not ok") else "right",
                         no_wrap=col != "not ok")
    for name in names:
        outs, wall = cmp.runs[name], cmp.walls[name]
        times = [o.seconds for o in outs if o.rec.grid is not None] or [0.0]
        v = Counter(o.verdict for o in outs)
        other = ", ".join(f"{k} {c}" for k, c in sorted(v.items())
                          if k not in ("ok", "timeout"))
        table.add_row(name, f"{len(outs) / wall:.1f}", f"{wall:.2f}",
                      f"{1000 * statistics.fmean(times):.2f}", f"{1000 * max(times):.1f}",
                      str(v.get("ok", 0)), other or "-", str(v.get("timeout", 0)),
                      "yes" if not disagree else f"{len(disagree)} differ")
    return table


def _plot_compare(runs: dict[str, list[Outcome]], path: Path, n: int) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("--plot needs matplotlib (pip install 'sudoku-grader[plot]')")
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    for name, outs in runs.items():
        times = sorted(1000 * o.seconds for o in outs if o.verdict != "timeout")
        total = sum(o.seconds for o in outs)
        ax.plot(range(1, len(times) + 1), times, lw=1.4,
                label=f"{name} ({len(outs) / max(total, 1e-9):.1f} grids/s)")
    ax.set_yscale("log")
    ax.set_xlabel(f"grids solved (of {n}), sorted by time")
    ax.set_ylabel("time per grid (ms, log scale)")
    ax.set_title("Exact engines on the same grids")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    try:
        save_whole(path, fig.savefig)
    except OSError as e:
        fail(f"{path}: cannot write: {e.strerror or e}")
    plt.close(fig)
    err.print(f"wrote {path}", markup=False)
