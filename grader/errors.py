"""One exception family for the whole library: :class:`GraderError`.

Every error the library raises on purpose for bad input or an impossible
request is a :class:`GraderError`, so ``except grader.errors.GraderError``
catches them all.  Each one is also a subclass of the built-in exception it
always was (``ValueError``, ``OSError``, ...), and stays importable where it
was defined, so older ``except`` clauses keep working:

============================  =======================  ================================
class                         also a                   defined in
============================  =======================  ================================
``GridTypeError``             ``TypeError``            here: not a grid at all (``None``)
``MalformedGrid``             ``ValueError``           :mod:`grader.formats`
``InputError``                ``OSError``              :mod:`grader.formats`
``ExplainError``              ``ValueError``           :mod:`grader.explain.core`
``UsageError``                ``ExplainError``         :mod:`grader.explain.core`
``HierarchyError``            ``ValueError``           :mod:`grader.hierarchy`
``PluginError``               ``LookupError``          :mod:`grader.plugins`
``EngineError``               ``RuntimeError``         :mod:`grader.engines.base`
``EngineUnavailable``         ``RuntimeError``         :mod:`grader.bulk.task`
``WorkerFailed``              ``RuntimeError``         :mod:`grader.bulk.pool`
``GradeUsageError``           ``ValueError``           :mod:`grader.bulk.options`
``ResumeError``               ``ValueError``           :mod:`grader.bulk.resume`
``WhereError``                ``ValueError``           :mod:`grader.bulk.where`
``TargetError``               ``ValueError``           :mod:`grader.generator.targets`
``GenerationError``           ``ValueError``           :mod:`grader.generator.search`
============================  =======================  ================================

This module imports nothing of the engine: the subclasses are looked up
lazily (``grader.errors.MalformedGrid`` imports :mod:`grader.formats` on
first use).
"""

from __future__ import annotations

import importlib
from typing import Any


class GraderError(Exception):
    """The base of every error the library raises for bad input or requests."""


class GridTypeError(GraderError, TypeError):
    """An API call given something that is not a grid at all (``None``, a number)."""


#: name -> module that defines it (imported on first access)
_HOMES = {
    "MalformedGrid": "grader.formats",
    "InputError": "grader.formats",
    "ExplainError": "grader.explain.core",
    "UsageError": "grader.explain.core",
    "HierarchyError": "grader.hierarchy",
    "PluginError": "grader.plugins",
    "EngineError": "grader.engines.base",
    "EngineUnavailable": "grader.bulk.task",
    "WorkerFailed": "grader.bulk.pool",
    "GradeUsageError": "grader.bulk.options",
    "ResumeError": "grader.bulk.resume",
    "WhereError": "grader.bulk.where",
    "TargetError": "grader.generator.targets",
    "GenerationError": "grader.generator.search",
}

__all__ = ["GraderError", "GridTypeError", *_HOMES]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'grader.errors' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)


def __dir__() -> list[str]:
    return sorted(__all__)
