"""``grader.rate_file``: ``grade FILE ...`` as an iterator of results, with the
command's selection (``where``, levels, ``dedupe``) and order (``sort``,
``top``); ``grader.rate``: the same machinery over grids held in memory; see
:mod:`grader.api`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from grader.bulk.codec import Result, extra_columns
from grader.formats import Record, iter_sources
from grader.strategy.grading import GradeResult
from grader.strategy.hierarchy import Hierarchy


def graded(names: list[str], input_format: str, box: tuple[int, int] | None,
           column: str | None, hierarchy: Hierarchy | None, jobs: int,
           time_limit: float | None, with_solution: bool, check: bool,
           check_engine: str | None, where: str | None, min_level: int | None,
           max_level: int | None, dedupe: bool, keep_columns: bool, sort: str | None,
           top: int | None, se: str = "fast") -> Iterator[GradeResult]:
    """The results of ``grade`` over ``names`` (checked by :func:`grader.api.rate_file`)."""
    from grader.bulk.capacity import plan_jobs
    from grader.bulk.options import time_limit as seconds_or_none
    from grader.bulk.select import SORT_KEYS, Selection
    from grader.bulk.task import GradeConfig
    from grader.bulk.where import Where
    from grader.core.errors import ArgumentError

    if sort is not None and sort not in SORT_KEYS:
        raise ArgumentError(f"sort must be one of {', '.join(SORT_KEYS)}, not {sort!r}")
    if top is not None and (sort is None or top < 1):
        raise ArgumentError("top needs sort, and a number of results >= 1")
    for name, lv in (("min_level", min_level), ("max_level", max_level)):
        if lv is not None and lv < 0:
            raise ArgumentError(f"{name} must be >= 0, not {lv}")
    try:
        seconds = seconds_or_none(time_limit)  # inf: no limit
    except ValueError as e:
        raise ArgumentError(f"time_limit: {e}") from None
    selection = Selection(Where(where) if where else None, min_level, max_level, dedupe, box)
    cfg = GradeConfig(hierarchy=hierarchy, check=check, engine=check_engine,
                      with_solution=with_solution, canonical=dedupe, se=se)
    recs = iter_sources(names, input_format, box, column)
    njobs, _ = plan_jobs(jobs)  # within the CPUs and the memory
    return _selected(_results(recs, cfg, njobs, seconds), selection, keep_columns, sort, top)


def rated(recs: Iterator[Record], hierarchy: Hierarchy | None, jobs: int,
          time_limit: float | None, with_solution: bool, check: bool,
          check_engine: str | None, se: str) -> Iterator[GradeResult]:
    """The results of ``recs`` (grids in memory, checked by :func:`grader.api.rate`),
    in input order, by the pool of ``grade -j N``."""
    from grader.bulk.capacity import plan_jobs
    from grader.bulk.options import time_limit as seconds_or_none
    from grader.bulk.task import GradeConfig
    from grader.core.errors import ArgumentError

    try:
        seconds = seconds_or_none(time_limit)  # inf: no limit
    except ValueError as e:
        raise ArgumentError(f"time_limit: {e}") from None
    cfg = GradeConfig(hierarchy=hierarchy, check=check, engine=check_engine,
                      with_solution=with_solution, se=se)
    njobs, _ = plan_jobs(jobs)  # within the CPUs and the memory
    return (GradeResult(**d) for d, _, _ in _results(recs, cfg, njobs, seconds))


def _selected(results: Iterator[tuple[Result, dict[str, str], str]], selection: Any,
              keep_columns: bool, sort: str | None,
              top: int | None) -> Iterator[GradeResult]:
    """The results kept by the selection, with the input's columns on request,
    in input order or sorted."""
    from grader.bulk.select import KEEP, TopN

    best = TopN(sort, top) if sort is not None else None
    for d, extra, source in results:
        if selection.judge(d, extra, source, False) != KEEP:
            continue
        if keep_columns:
            d = {**d, **extra_columns(extra)}
        if best is None:
            yield GradeResult(**d)
        else:
            best.add(d)
    if best is not None:
        yield from (GradeResult(**d) for d in best.result())


def _results(recs: Iterator[Record], cfg: Any, jobs: int,
             time_limit: float | None) -> Iterator[tuple[Result, dict[str, str], str]]:
    """(result, record) of every grid, in input order: in this process, lazily,
    with one job and no time limit; else by a pool of worker processes."""
    from grader.bulk.pool import InlinePool
    from grader.bulk.task import malformed_result, task_of

    if jobs == 1 and time_limit is None:
        worker = InlinePool(cfg).worker
        for rec in recs:
            d = (malformed_result(rec, cfg.with_solution) if rec.grid is None
                 else worker.grade(task_of(rec)))
            yield d, rec.extra, rec.source
        return
    from grader.bulk.pipeline import run
    from grader.bulk.processes import ProcessPool

    got: list[tuple[Result, dict[str, str], str]] = []
    pool = ProcessPool(cfg, jobs, time_limit)
    run(recs, pool, lambda e, _resumed: got.append((e.result or {}, e.extra, e.source)),
        with_solution=cfg.with_solution, window=pool.window)
    yield from got

