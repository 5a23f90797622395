"""The fast exact solver: bitmask backtracking with naked and hidden singles,
minimum-remaining-values branching, counting solutions up to a limit.

This is the ``native`` engine: the grader uses it to give every grid its
verdict before grading, and the debug mode checks every step against the
solution it finds.  A kernel runs it (:mod:`grader.kernel`): in C, or in pure
Python (:func:`grader.reference.solve_python`, the same search).
"""

from __future__ import annotations

from collections.abc import Sequence

from .geometry import Geometry
from .kernel import Kernel, default_kernel
from .reference import BIG, SolveResult, solve_python

__all__ = ["BIG", "SolveResult", "solve", "solve_python"]


def solve(geo: Geometry, values: Sequence[int], limit: int = 2,
          max_nodes: int | None = None, kernel: Kernel | None = None) -> SolveResult:
    """Count the solutions of the grid ``values`` (0 = empty) up to ``limit``,
    with ``kernel`` (the default one when None).

    ``max_nodes`` bounds the search (``count`` is then a lower bound and
    ``nodes`` exceeds it)."""
    return (kernel or default_kernel()).solve(geo, values, limit, max_nodes)
