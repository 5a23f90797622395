"""One ``grade`` run over a collection, as a library call: :func:`grade_collection`.

It checks the :class:`~grader.bulk.options.GradeOptions`, reads the head of
the input (to choose a pool and know the input's columns), sets up
``--resume`` and the sinks, runs the pipeline, and ends with the sorting, the
tables, the summary and the plot.  The command line only parses options into
``GradeOptions`` and maps a :class:`~grader.bulk.options.GradeUsageError` to its
message and exit status.

>>> from grader.bulk import GradeOptions, grade_collection
>>> report = grade_collection(GradeOptions(inputs=["puzzles/se-medium-500.txt"],
...                                        output_format="jsonl", jobs=2))  # doctest: +SKIP
>>> report.exit_code, report.summary.total  # doctest: +SKIP
(0, 500)
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from rich.markup import escape

from grader.bulk.capacity import plan_jobs
from grader.bulk.codec import extra_columns, to_model
from grader.bulk.options import GradeOptions, GradeUsageError, check, normalized
from grader.bulk.pipeline import Entry, RunStats, run
from grader.bulk.pool import ClusterLost, InlinePool, Pool, WorkerFailed
from grader.bulk.progress import Progress
from grader.bulk.resume import ResumeError
from grader.bulk.select import DUPLICATE, KEEP, Selection, TopN, sort_output_file
from grader.bulk.sinks import ResultWriter, TableSink, data_stream
from grader.bulk.sources import Head, records
from grader.bulk.summary import Summary
from grader.bulk.task import GradeConfig
from grader.bulk.where import WHERE_FIELDS, WhereError
from grader.formats import InputError
from grader.formats.files import note_sorted
from grader.strategy.hierarchy import Hierarchy, default_hierarchy

EXIT_OK, EXIT_NOT_OK, EXIT_INTERRUPTED = 0, 1, 130


@dataclass
class GradeReport:
    """What a run did: its exit status (0 all ok, 1 some not, 130 interrupted),
    the summary and the run's statistics."""

    exit_code: int
    summary: Summary
    stats: RunStats
    jobs: int


def consoles() -> tuple[Any, Any]:
    from grader.core.terminal import make_console

    return (make_console(highlight=False, soft_wrap=True),
            make_console(stderr=True, highlight=False, soft_wrap=True))


def grade_collection(opts: GradeOptions, *, out: Any = None, err: Any = None) -> GradeReport:
    """Grade every grid of ``opts.inputs`` as ``grade`` does; results to
    ``opts.output`` or standard output, the summary to ``out`` (or ``err``
    when standard output carries the results).  :class:`GradeUsageError`: a
    request refused, or an input that cannot be read (nothing graded, or the
    results graded before the failure written)."""
    if out is None or err is None:
        out, err = consoles()
    opts = normalized(opts)
    box, where = check(opts)
    h = opts.hierarchy if opts.hierarchy is not None else default_hierarchy()
    return _Run(opts, h, box, where, out, err).go()


class _Run:
    """The state of one run: its sinks, selection, summary."""

    def __init__(self, opts: GradeOptions, h: Hierarchy, box: tuple[int, int] | None,
                 where: Any, out: Any, err: Any) -> None:
        self.opts, self.h, self.out, self.err = opts, h, out, err
        # workers: as asked, within the CPUs and the memory (a Dask cluster has its own)
        self.jobs, self.jobs_note = (plan_jobs(opts.jobs) if opts.dask is None
                                     else (opts.njobs, None))
        try:
            self.head = Head(records(opts.inputs, opts.input_format, box, opts.column),
                             2 * self.jobs)
        except InputError as e:
            raise GradeUsageError(str(e)) from None
        if not self.head.records:
            raise GradeUsageError("no grid found in the input")
        if where is not None:
            columns = self.head.columns(opts.keep_columns)
            unknown = where.unknown_names(columns)
            if unknown:
                raise GradeUsageError(
                    f"--where: unknown field {unknown[0]!r} (fields: {', '.join(WHERE_FIELDS)}, "
                    f"or a column of the input: {', '.join(sorted(columns)) or 'none'})")
        self.selection = Selection(where, opts.min_level, opts.max_level, opts.dedupe, box)
        self.summary = Summary(h, filtered=self.selection.filtering)
        self.bad = False
        self.sorter = TopN(opts.sort, opts.top) if opts.sort and opts.output is None else None
        self.table: TableSink | None = None
        self.sink: ResultWriter | TableSink | None = None
        self.output: Any = None  # the output file and its lock

    def go(self) -> GradeReport:
        opts = self.opts
        fields: list[str] | None = None
        if opts.output is not None:
            from grader.bulk.output import OutputFile

            self.output = OutputFile(opts, self.h, self.head)
            fields = self.output.fields
            self._repairs()
        ok = False
        try:
            self._sinks()
            cfg = self._config(fields)
            sources = self._ranged(cfg)
            if sources is not None:
                stats, pool = self._run_ranges(cfg, sources)
            else:
                pool = self._pool(cfg)
                stats = self._run(pool)
            ok = True
        except OSError as e:  # a write that failed (the workers' parts too) names the file
            raise (self.output.failure(e) if self.output is not None else e) from None
        finally:
            if self.output is not None:
                self.output.close(ok)
        return self._finish(stats, pool)

    def _repairs(self) -> None:
        """Say what ``--resume`` repaired in the output (unless -q)."""
        cursor = self.output.cursor if self.output is not None else None
        if cursor is None or self.opts.quiet:
            return
        for lines, what in ((cursor.repaired, "line(s) that repeated an earlier line exactly"),
                            (cursor.retried, "grid(s) written as failed because their worker "
                                             "was stopped (graded again)")):
            if lines:
                shown = ", ".join(map(str, lines[:5])) + (", ..." if len(lines) > 5 else "")
                self.err.print(f"--resume: {self.opts.output}: dropped {len(lines)} {what} "
                               f"(line {shown})", markup=False, highlight=False)

    def _sinks(self) -> None:
        opts = self.opts
        if self.output is not None:
            self.sink = self.output.open()
        elif opts.summary_only:
            self.sink = None
        elif opts.stdout_is_data:
            if self.sorter is None:
                assert opts.output_format is not None
                self.sink = ResultWriter(data_stream(sys.stdout), opts.output_format)
        else:
            self.sink = self.table = TableSink(self.out, self.h)

    def _config(self, fields: list[str] | None) -> GradeConfig:
        """Workers encode the output lines, except where the parent changes the
        results (--keep-columns) or they are sorted or drawn first."""
        opts = self.opts
        encode: str | None = None
        if not opts.keep_columns and isinstance(self.sink, ResultWriter) and \
                (self.sink.fmt == "jsonl" or fields is not None):
            encode = self.sink.fmt
        return GradeConfig(hierarchy=self.h, check=opts.check, engine=opts.check_engine,
                           with_solution=opts.with_solution, canonical=opts.dedupe,
                           encode=encode, fields=tuple(fields) if fields else None,
                           se=opts.se)

    def _pool(self, cfg: GradeConfig) -> Pool:
        opts = self.opts
        try:
            return open_pool(cfg, self.jobs, opts.time_limit, opts.dask,
                             len(self.head.records) if self.head.small else None)
        except (OSError, RuntimeError, ValueError) as e:
            raise GradeUsageError(f"cannot start the workers: {e}") from None

    def _run(self, pool: Pool) -> RunStats:
        opts = self.opts
        if self.jobs_note is not None and not opts.quiet and pool.jobs < opts.njobs:
            self.err.print(f"note: {self.jobs_note}", markup=False, highlight=False)
        if not self.head.small and not opts.quiet:
            _warn_pure_python(self.err)
        show = opts.progress if opts.progress is not None else (self.err.is_terminal
                                                                and not opts.quiet)
        bar = Progress(list(opts.inputs), bool(show), self.err)
        sink = self.sink
        cursor = self.output.cursor if self.output is not None else None
        try:
            stats = run(self.head, pool, self.emit, with_solution=opts.with_solution,
                        cursor=cursor, progress=bar,
                        settled=sink.flush if sink is not None else None)
            if cursor is not None and not stats.interrupted:
                cursor.finish(stats.read)
            return stats
        except (InputError, ResumeError, WorkerFailed) as e:
            raise GradeUsageError(str(e)) from None
        except ClusterLost as e:  # stopped mid-way (exit 1): what was written is kept
            more = f": rerun with --resume to continue {opts.output}" if opts.output else ""
            raise GradeUsageError(f"{e}{more}", EXIT_NOT_OK) from None
        finally:
            bar.stop()

    def _ranged(self, cfg: GradeConfig) -> list[tuple[str, bool]] | None:
        """The inputs as (file, "N T" only) when the workers read their own byte
        ranges and write their own parts (:mod:`grader.bulk.ranges`): files of
        one grid per line, several worker processes, JSON Lines or CSV lines
        encoded by the workers, no timeout, and nothing the parent decides
        grid by grid in input order (--dedupe, --strict, sorting in memory);
        else None (``SUDOKU_GRADER_RANGES=0`` turns them off)."""
        import os

        opts = self.opts
        if ((opts.dask is not None and opts.dask != "local") or self.jobs < 2 or self.head.small
                or opts.time_limit is not None or opts.strict or opts.dedupe
                or opts.keep_columns or cfg.encode is None or self.sorter is not None
                or not isinstance(self.sink, ResultWriter)
                or os.environ.get("SUDOKU_GRADER_RANGES", "1") == "0"):
            return None
        cursor = self.output.cursor if self.output is not None else None
        if cursor is not None and cursor.retried:
            return None
        try:
            if not hasattr(self.sink.stream, "fileno"):
                return None
            self.sink.stream.fileno()
        except (OSError, ValueError, AttributeError):
            return None
        from grader.formats.sources import line_format

        sources: list[tuple[str, bool]] = []
        for src in opts.inputs:
            try:
                how = line_format(src, opts.input_format, opts.column)
            except (OSError, InputError):
                return None
            if how is None:
                return None
            sources.append((src, how == "nt"))
        return sources

    def _run_ranges(self, cfg: GradeConfig,
                    sources: list[tuple[str, bool]]) -> tuple[RunStats, Any]:
        """The run in byte ranges (see :mod:`grader.bulk.ranges`)."""
        import time

        from grader.bulk.ranges import Planner, RangeJob, RangeRun, part_dir, remove_parts

        opts = self.opts
        sink = self.sink
        assert isinstance(sink, ResultWriter)
        if self.jobs_note is not None and not opts.quiet and self.jobs < opts.njobs:
            self.err.print(f"note: {self.jobs_note}", markup=False, highlight=False)
        if not opts.quiet:
            _warn_pure_python(self.err)
        show = opts.progress if opts.progress is not None else (self.err.is_terminal
                                                                and not opts.quiet)
        bar = Progress(list(opts.inputs), bool(show), self.err)
        stats = RunStats()
        t0 = time.perf_counter()
        cursor = self.output.cursor if self.output is not None else None
        parts = part_dir()

        def header() -> None:
            if sink.header:
                sink.header = False
                sink.stream.write(sink.encoder.header(None))
                sink.stream.flush()

        try:
            after = 0
            if cursor is not None:  # the grids in the output are handed back here
                after = cursor.last
                for rec in self.head:
                    if rec.index > after:
                        break
                    stats.read += 1
                    done, row = cursor.skip(rec)
                    if done and row is not None:
                        stats.resumed += 1
                        e = Entry(rec.index, rec.line, rec.source, rec.extra, row)
                        self.emit(e, True)
                        bar(e)
            sink.flush()
            job = RangeJob(cfg, self._box(), opts.where, opts.min_level, opts.max_level)
            planner = Planner(sources, parts, self.jobs, after)
            try:
                run = RangeRun(job, planner, self.jobs, sink.stream, header, self.summary, bar,
                               stats, opts.dask)
            except (OSError, RuntimeError, ValueError) as e:
                raise GradeUsageError(f"cannot start the workers: {e}") from None
            run.run()
            sink.flush()
            self.bad = self.bad or run.bad
            stats.read = max(stats.read, planner.total)
            stats.seconds = time.perf_counter() - t0
            if run.where_error is not None:
                raise GradeUsageError(f"--where: {run.where_error}")
            if planner.error is not None and not stats.interrupted:
                raise GradeUsageError(str(planner.error))
            if cursor is not None and not stats.interrupted:
                cursor.finish(stats.read)
            return stats, run.pool
        except (InputError, ResumeError, WorkerFailed) as e:
            raise GradeUsageError(str(e)) from None
        except ClusterLost as e:  # stopped mid-way (exit 1): what was written is kept
            more = f": rerun with --resume to continue {opts.output}" if opts.output else ""
            raise GradeUsageError(f"{e}{more}", EXIT_NOT_OK) from None
        finally:
            bar.stop()
            remove_parts(parts)

    def _box(self) -> tuple[int, int] | None:
        from grader.core.geometry import parse_box

        return parse_box(self.opts.box) if self.opts.box is not None else None

    def emit(self, e: Entry, resumed: bool) -> None:
        """A result, in input order: counted, selected, sent to its sink."""
        d = e.result
        assert d is not None
        opts = self.opts
        self.summary.add(d, e.source, resumed)
        verdict = d.get("verdict")
        if verdict != "ok":
            self.bad = True
            if opts.strict and verdict == "rule-error":
                raise GradeUsageError(f"{e.source}, line {d.get('line')}: {d.get('message')} "
                                 "(--strict stops at the first rule error)")
        if opts.keep_columns and e.extra and not resumed:
            d = {**d, **extra_columns(e.extra)}
        if self.selection.filtering:
            try:
                judged = self.selection.judge(d, e.extra, e.source, resumed)
            except WhereError as ex:
                raise GradeUsageError(f"--where: {ex}") from None
            if judged != KEEP:
                if judged == DUPLICATE:
                    self.summary.duplicates += 1
                return
        self.summary.selected += 1
        if resumed:
            return  # already in the output
        if self.sorter is not None:
            if not (opts.summary_only and opts.output is None):
                self.sorter.add(d)
        elif self.sink is not None:
            self.sink.write(d, e.text)

    def _finish(self, stats: RunStats, pool: Pool) -> GradeReport:
        opts = self.opts
        if opts.output is not None and opts.sort is not None and not stats.interrupted:
            sort_output_file(opts.output, opts.sort, opts.top)
            note_sorted(opts.output, opts.sort, opts.top)
        if self.sorter is not None and not opts.summary_only:
            rows = self.sorter.result()
            if opts.stdout_is_data:
                assert opts.output_format is not None
                w = ResultWriter(data_stream(sys.stdout), opts.output_format)
                for d in rows:
                    w.write(d)
                w.flush()
            else:
                self.table = TableSink(self.out, self.h)
                self.table.rows = [to_model(d) for d in rows]
        if self.table is not None:
            self.table.finish(opts.output_format is None and self.summary.total == 1,
                              self.head.records[0].source)
        self._summary(stats, pool.jobs)
        if opts.plot is not None:
            try:
                from grader.bulk.report import plot_summary

                plot_summary(self.summary, opts.plot)
            except OSError as e:
                raise GradeUsageError(f"--plot {opts.plot}: cannot write: {e.strerror or e}") \
                    from None
        code = EXIT_INTERRUPTED if stats.interrupted else (EXIT_NOT_OK if self.bad else EXIT_OK)
        return GradeReport(code, self.summary, stats, pool.jobs)

    def _summary(self, stats: RunStats, jobs: int) -> None:
        opts = self.opts
        want = opts.summary
        if want is None and opts.quiet:
            want = False
        if want is None:
            if opts.summary_only or opts.output is not None:
                want = True
            elif opts.stdout_is_data:
                want = self.err.is_terminal
            else:
                want = self.summary.total > 1
        if want:
            from grader.core.terminal import print_uncut

            console = self.err if opts.stdout_is_data else self.out
            from grader.bulk.report import render_summary

            print_uncut(console, render_summary(self.summary, stats, jobs))
            if stats.interrupted and opts.output is not None:
                console.print(f"[yellow]interrupted: rerun with --resume to continue "
                              f"{escape(str(opts.output))}[/]")
        elif stats.interrupted:
            self.err.print("interrupted" + (f": rerun with --resume to continue {opts.output}"
                                            if opts.output is not None else ""), markup=False)


def open_pool(cfg: GradeConfig, jobs: int, timeout: float | None = None,
              dask: str | None = None, grids: int | None = None) -> Pool:
    """The pool for a run: a Dask cluster when ``dask`` names one; this process
    for one job (or ``grids``, a small input, all read already) without a
    timeout; else ``jobs`` worker processes (no more than ``grids``)."""
    if dask is not None:
        from grader.bulk.dask import DaskPool

        return DaskPool(cfg, dask, jobs=jobs, timeout=timeout)
    small = grids is not None and grids <= 2 * jobs
    if (jobs == 1 or small) and timeout is None:
        return InlinePool(cfg)
    from grader.bulk.processes import ProcessPool

    return ProcessPool(cfg, min(jobs, max(1, grids or jobs)), timeout)


def _warn_pure_python(err: Any) -> None:
    """A bulk run without the accelerator because it is not built: say so once."""
    from grader.core.env import accelerator_built, accelerator_disabled

    if not accelerator_built() and not accelerator_disabled():
        err.print("warning: the C accelerator is not built: grading runs on pure Python, "
                  "7-15x slower (reinstall with a C compiler; see grade --version)",
                  markup=False, highlight=False)


__all__ = ["GradeOptions", "GradeReport", "GradeUsageError", "grade_collection"]
