"""Generating grids of a requested rating (``generate``).

>>> from grader.generator import generate
>>> [g.result.rating for g in generate("easy", count=2, seed=1)]
['easy', 'easy']

See :mod:`grader.generator.search` for the methods,
:mod:`grader.generator.oracle` for how grids are assessed,
:mod:`grader.generator.run` for parallel, reproducible runs and
:mod:`grader.generator.request` for the ``generate`` command as a library call.
"""

from __future__ import annotations

from collections.abc import Sequence

from grader.core.geometry import geometry_for_size
from grader.generator.output import OUTPUT_FORMATS, CsvWriter, format_grid, record
from grader.generator.pack import write_pack
from grader.generator.run import Task, plan_tasks, run, run_task
from grader.generator.search import (
    METHODS,
    Generated,
    GenerationError,
    Generator,
    Settings,
    Stats,
    task_rng,
)
from grader.generator.symmetry import SYMMETRIES, is_symmetric, orbits
from grader.generator.targets import (
    Target,
    TargetError,
    impossible,
    narrow,
    parse_depth,
    parse_score,
    parse_targets,
    rating_bands,
)
from grader.strategy.hierarchy import Hierarchy, load_hierarchy

__all__ = [
    "METHODS", "OUTPUT_FORMATS", "SYMMETRIES", "CsvWriter", "Generated", "GenerationError",
    "Generator", "Settings", "Stats", "Target", "TargetError", "Task", "format_grid", "generate",
    "is_symmetric", "orbits", "parse_targets", "plan_tasks", "rating_bands", "record", "run",
    "run_task", "task_rng", "write_pack",
]


def generate(rating: str | None = None, *, level: str | int | None = None, count: int = 1,
             size: int = 9, box: tuple[int, int] | None = None, symmetry: str = "none",
             method: str = "guided", minimal: bool = False, min_givens: int | None = None,
             max_givens: int | None = None, seed: int | str = 0, jobs: int = 1,
             timeout: float | None = None, hierarchy: Hierarchy | None = None,
             depth: str | int | None = None, score: str | None = None,
             like: Sequence[Sequence[int]] = ()) -> list[Generated]:
    """``count`` grids of ``rating`` (or ``level``), trials nested to
    ``depth`` (``2``, ``"2..3"``), a ``score`` in a range (``"140..145"``),
    explored around the grids ``like`` (values, 0 for empty); see
    ``generate --help``.

    Grids the ``timeout`` (seconds, for the whole run) cut short are left out."""
    h = hierarchy or load_hierarchy()
    geo = geometry_for_size(size, box)
    settings = Settings(geo.a, geo.b, symmetry, method, minimal, min_givens, max_givens, h,
                        tuple(tuple(g) for g in like))
    settings.check()
    targets = parse_targets(rating, None if level is None else str(level), h)
    d = None if depth is None else parse_depth(str(depth), h)
    sc = None if score is None else parse_score(score)
    if d is not None or sc is not None:
        targets = [narrow(t, h, d, sc) for t in targets]
    for t in targets:
        why = impossible(t, geo.n, min_givens)
        if why is not None:
            raise TargetError(why)
    tasks = plan_tasks(targets, count, seed)
    return [g for _, g in run(settings, tasks, jobs, timeout) if g is not None]
