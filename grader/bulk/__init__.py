"""Grading whole collections (``grade FILE ...``), one responsibility a module.

==============  ==============================================================
module          what it does
==============  ==============================================================
options         :class:`GradeOptions`, everything ``grade`` is asked, checked
collection      :func:`grade_collection`: one run, from options to exit status
sources         reading records lazily, counting lines for the progress bar
task            a worker's job: the grader, one grid graded, the one timeout
clock           the clock of time limits: it stands still while the run is stopped
pool            the :class:`Pool` protocol, the inline pool, choosing a pool
processes       the pool of worker processes
outbox          a worker process's side of it: its loop, its batches of answers
dask            the pool on a Dask cluster (``--dask``)
dask_worker     a Dask worker's side: the run's plugin, a chunk graded
dask_local      reaching a scheduler, or starting ``--dask local``'s cluster
dask_warm       what ``--dask local``'s fork server loads for every worker
pipeline        the ordered run loop: read, grade, hand back in input order
resume          reading an output back; ``--resume``'s cursor and settings
output          the ``--output`` file: lock, columns, resume checks, appending
where           the ``--where`` language
select          what is kept and in what order: --where, levels, dedupe, sort, top
codec           the result model's one codec: JSON Lines and CSV, both ways
sinks           where results go: a file, standard output, a table
summary         the counts of a run (bounded memory)
report          the summary drawn: rich tables, ``--plot``
tables          one grid's panel and the results table
progress        the progress bar
==============  ==============================================================

``import grader.bulk`` loads none of them; :func:`grade_collection` and
:class:`GradeOptions` are imported on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {"grade_collection": "grader.bulk.collection", "GradeReport": "grader.bulk.collection",
         "GradeOptions": "grader.bulk.options", "GradeUsageError": "grader.bulk.options"}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module 'grader.bulk' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
