"""Steering by Sudoku Explainer's ratings: ``generate --se A..B`` (and
``--ep``, ``--ed``).

A grid's ER is the rating of the hardest step of Sudoku Explainer's whole
solution, EP of the hardest before the first placement, ED before the first
elimination (see :mod:`grader.strategy.serate`).  The search asks each grid
it meets "below, in or above the band" from the walk of the default setting
(``fast``, milliseconds a grid); past that setting's last tier, 9.5, the walk
only says "9.5 or more", so a band that reaches there is decided by the full
walk (``--se full``), which every grid kept is graded with anyway.

How each band is reached, measured on 200 fresh minimal 9x9 grids (ER 1.x:
22 %, 2.x: 36 %, 3.x: 2.5 %, 4.x: 16 %, 5.x: 3 %, 6.x: 2 %, 7.x: 13.5 %,
8.x: 3.5 %, 9 and more: none):

* up to 9.0: fresh minimal descents graded once each; a grid above the band
  gets its erased givens back, a symmetry orbit at a time in random order,
  until it falls into the band, and then loses again each one that can go
  without leaving it (:meth:`grader.generator.search.Generator.by_se`);
* from 9.0 to 9.5: a climb by small moves on the ER itself
  (:class:`grader.generator.climb.Climber`, :data:`CLIMB_FROM`);
* from 9.5 (the nesting levels of the chains): the climb of nested trials
  from anti-tridagon starts, the grids it finds graded by the full walk
  (:data:`NESTED_FROM`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grader.formats import Grid
from grader.generator.targets import Target
from grader.strategy.grading import Grader
from grader.strategy.serate.rate import DEFAULT_SETTING

BELOW, IN, ABOVE = 0, 1, 2

#: the default walk's last tier: it rates a position beyond it at 9.5, a bound
FAST_CAP = 9.5
#: bands from here up climb on the ER (fresh minimal grids of 9.0 and more:
#: none in 200)
CLIMB_FROM = 9.0
#: bands from here up climb on nested trials (the ER of depth-2 grids: 10.0-10.1)
NESTED_FROM = 9.6


def setting_for(target: Target) -> str:
    """The walk that grades the grids kept: ``full`` when a range reaches the
    default walk's cap, else the default."""
    tops = [r[1] for r in (target.se, target.ep, target.ed) if r is not None]
    return "full" if tops and max(tops) >= FAST_CAP else DEFAULT_SETTING


def climbs_by_se(target: Target) -> bool:
    """Whether a request by Sudoku Explainer's ratings takes the climb."""
    return target.se is not None and target.se[0] >= CLIMB_FROM


def nested_by_se(target: Target) -> bool:
    """Whether it climbs on nested trials (the ratings of the nesting levels)."""
    return target.se is not None and target.se[0] >= NESTED_FROM


class SeSteer:
    """"Below, in or above the band" of a grid, by the default walk."""

    def __init__(self, oracle: Any) -> None:
        """``oracle``: the :class:`grader.generator.oracle.GridOracle` that asks
        (its grader, hierarchy, geometry, stats and time limit)."""
        self.oracle = oracle
        main = oracle.grader
        self.grader = main if main.se == DEFAULT_SETTING else Grader(
            oracle.hierarchy, solver=oracle._verdict_solver, se=DEFAULT_SETTING)

    def status(self, values: Sequence[int], target: Target) -> tuple[int, float]:
        """``(BELOW | IN | ABOVE, er)``: ABOVE also for a grid without one
        solution (er 0 then).  A value the walk only bounds (9.5 or more) is
        IN for a band that reaches past it: the full walk decides."""
        self.oracle._check_time()
        self.oracle.stats.assessments += 1
        r: Any = self.grader.grade_grid(Grid(self.oracle.geo, tuple(values)))
        if r.verdict != "ok" or r.se is None:
            return ABOVE, 0.0
        bound = bool(r.se_pattern and r.se_pattern.endswith("(not searched)"))
        status = IN
        for want, got in ((target.se, r.se), (target.ep, getattr(r, "ep", None)),
                          (target.ed, getattr(r, "ed", None))):
            if want is None:
                continue
            if got is None:
                return ABOVE, float(r.se)
            if got > want[1] and not (bound and got >= FAST_CAP and want[1] >= FAST_CAP):
                return ABOVE, float(r.se)
            if got < want[0] and not (bound and got >= FAST_CAP):
                status = BELOW
        return status, float(r.se)
