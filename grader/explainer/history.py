"""Which earlier step of a walk removed each candidate a step relies on.

A rule's text is written from its step alone; a hidden single whose region
has a cell where an X-Wing removed the value must still name that X-Wing.
:class:`History` follows a walk step by step and fills each step's
``removed_by`` (see :class:`grader.core.steps.Step`): for every candidate of
the step's support (:func:`grader.core.steps.support_of`) that is absent
from the board before it while its cell is empty, the number and name of
the step that eliminated it, or 0 when the position as given lacked it
(pencil marks, ``--moves``).  A candidate absent because a peer holds the
value is the rule's own to name (its excluders), so it is left out."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from grader.core.board import Board
from grader.core.steps import Step, support_of


@dataclass
class History:
    """The walk so far, from ``start``: who removed each candidate."""

    start: Board
    #: (cell, value) -> (step number, step name), for every elimination
    removed: dict[tuple[int, int], tuple[int, str]] = field(default_factory=dict)

    def annotate(self, number: int, step: Step, before: Board) -> Step:
        """``step`` (number ``number``, applied to ``before``) with its
        ``removed_by``; its eliminations are recorded for the steps after it."""
        found = []
        support = support_of(step)
        if support is not None:
            for c, v in dict.fromkeys(support):
                if (before.values[c] or before.cands[c] >> (v - 1) & 1
                        or any(before.values[p] == v for p in before.geo.peers[c])):
                    continue
                src = self.removed.get((c, v))
                if src is not None:
                    found.append((c, v, *src))
                elif self._absent_at_start(c, v):
                    found.append((c, v, 0, ""))
        for c, v in step.eliminations:
            self.removed.setdefault((c, v), (number, step.name))
        return replace(step, removed_by=tuple(found)) if found else step

    def _absent_at_start(self, cell: int, value: int) -> bool:
        """Whether the position as given lacked the candidate in an empty cell
        with no given peer holding the value."""
        b = self.start
        if b.values[cell] or b.cands[cell] >> (value - 1) & 1:
            return False
        return not any(b.values[p] == value for p in b.geo.peers[cell])
