"""Former home of bulk rating, now :mod:`grader.bulk` (a package, one
responsibility a module).  Kept so that ``from grader.batch import
ResumeError`` (and the other error classes :mod:`grader.errors` lists) keeps
working; new code imports from :mod:`grader.bulk`."""

from __future__ import annotations

import importlib
from typing import Any

_HOMES = {
    "EngineUnavailable": "grader.bulk.task",
    "GradeConfig": "grader.bulk.task",
    "WorkerFailed": "grader.bulk.pool",
    "ResumeError": "grader.bulk.resume",
    "ResumeCursor": "grader.bulk.resume",
    "WhereError": "grader.bulk.where",
    "Where": "grader.bulk.where",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"grader.batch has no {name!r}: see grader.bulk")
    return getattr(importlib.import_module(home), name)
