"""One exception family for the whole library: :class:`GraderError`.

Every error the library raises on purpose for bad input or an impossible
request is a :class:`GraderError`, so ``except grader.core.errors.GraderError``
catches them all.  Each one is also a subclass of the built-in exception it
always was (``ValueError``, ``OSError``, ...), and stays importable where it
was defined, so older ``except`` clauses keep working:

============================  =======================  ================================
class                         also a                   defined in
============================  =======================  ================================
``GridTypeError``             ``TypeError``            here: not a grid at all (``None``)
``ArgumentError``             ``ValueError``           here: an API argument out of range
``MalformedGrid``             ``ValueError``           :mod:`grader.formats`
``InputError``                ``OSError``              :mod:`grader.formats`
``ExplainError``              ``ValueError``           :mod:`grader.explainer.core`
``UsageError``                ``ExplainError``         :mod:`grader.explainer.core`
``HierarchyError``            ``ValueError``           :mod:`grader.strategy.hierarchy`
``PluginError``               ``LookupError``          :mod:`grader.strategy.plugins`
``EngineError``               ``RuntimeError``         :mod:`grader.exact.base`
``EngineUnavailable``         ``RuntimeError``         :mod:`grader.bulk.task`
``WorkerFailed``              ``RuntimeError``         :mod:`grader.bulk.pool`
``GradeUsageError``           ``ValueError``           :mod:`grader.bulk.options`
``ResumeError``               ``ValueError``           :mod:`grader.bulk.resume`
``WhereError``                ``ValueError``           :mod:`grader.bulk.where`
``TargetError``               ``ValueError``           :mod:`grader.generator.targets`
``GenerationError``           ``ValueError``           :mod:`grader.generator.search`
============================  =======================  ================================

Each class is defined, and imported from, the module that raises it.
"""

from __future__ import annotations


class GraderError(Exception):
    """The base of every error the library raises for bad input or requests."""


class GridTypeError(GraderError, TypeError):
    """An API call given something that is not a grid at all (``None``, a number)."""


class ArgumentError(GraderError, ValueError):
    """An API call given an argument the command line would refuse (``jobs=-1``,
    an unknown input format, a malformed ``box``); the message names it."""


__all__ = ["ArgumentError", "GraderError", "GridTypeError"]
