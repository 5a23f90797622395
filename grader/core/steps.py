"""Deduction steps as frozen data.

A :class:`Step` carries the technique, its level, the placements and
eliminations, and the pattern that justifies them.  Summaries, explanations,
drawings and JSON are all derived from it; nothing re-searches the grid.

Cells are indices into the grid (row-major, 0-based); the step keeps a
reference to its :class:`~grader.core.geometry.Geometry` so it can name them in the
book's notation: cell ``(i, j)`` 1-based, regions ``R1``/``C1``/``B1``,
``(i, j) <- v`` for a placement and ``(i, j) != v`` for an elimination.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from grader.core.geometry import Geometry

Cell = int
Effect = tuple[int, int]  # (cell, value)


@dataclass(frozen=True, slots=True)
class Arc:
    """A link between two candidates of a pattern, ``(cell, value)`` each.

    Strong: at least one of the two is true (a cell with two candidates, or a
    value with two places in a unit).  Weak: at most one of the two is true
    (two cells that see each other, or two values of one cell)."""

    a: Effect
    b: Effect
    strong: bool
    #: the unit the link holds in (a strong link: where the value has just
    #: these two places; a weak one: a unit the two cells share); -1 for two
    #: values of one cell
    unit: int = -1
    #: a grouped end: every cell of the group (the value is in one of them;
    #: ``a``'s or ``b``'s cell stands for the group); empty for one candidate
    a_group: tuple[int, ...] = ()
    b_group: tuple[int, ...] = ()

    @property
    def grouped(self) -> bool:
        """Whether an end is a group of cells (a box's or a line's segment)."""
        return bool(self.a_group or self.b_group)

    @property
    def kind(self) -> str:
        """``strong``, ``weak``, ``grouped-strong`` or ``grouped-weak``."""
        base = "strong" if self.strong else "weak"
        return f"grouped-{base}" if self.grouped else base

    @property
    def a_cells(self) -> tuple[int, ...]:
        """The cells of the first end (one, or the group)."""
        return self.a_group or (self.a[0],)

    @property
    def b_cells(self) -> tuple[int, ...]:
        return self.b_group or (self.b[0],)


@dataclass(frozen=True, slots=True)
class Pattern:
    """What justifies a step: cells and regions with their roles, values,
    and for a pattern of the expert walk the links that make it (``arcs``,
    in the order the pattern is read).

    Roles are short words the templates and the drawing understand, e.g.
    ``"target"`` (where the value goes), ``"subset"``, ``"base"``, ``"cover"``,
    ``"pivot"``, ``"region"``, ``"block"``, ``"line"``."""

    cells: tuple[tuple[int, str], ...] = ()
    regions: tuple[tuple[int, str], ...] = ()
    values: tuple[int, ...] = ()
    arcs: tuple[Arc, ...] = ()

    def cells_with(self, role: str) -> tuple[int, ...]:
        return tuple(c for c, r in self.cells if r == role)

    def regions_with(self, role: str) -> tuple[int, ...]:
        return tuple(g for g, r in self.regions if r == role)


@dataclass(frozen=True, slots=True)
class Conflict:
    """A contradiction reached inside a trial."""

    reason: str
    cells: tuple[int, ...] = ()
    region: int | None = None
    value: int | None = None


@dataclass(frozen=True, slots=True)
class Link:
    """One line of a branch's chain: the effects of one rule application
    (``step``, as propagation applied it) that the chain needs, and the lines
    they come from (``uses``: indexes of earlier lines, 0 = the assumption)."""

    index: int
    step: Step
    placements: tuple[Effect, ...]
    eliminations: tuple[Effect, ...]
    uses: tuple[int, ...]

    @property
    def effects(self) -> tuple[tuple[int, int, bool], ...]:
        """``(cell, value, placed)`` for each effect, placements first."""
        return (tuple((c, v, True) for c, v in self.placements)
                + tuple((c, v, False) for c, v in self.eliminations))


@dataclass(frozen=True, slots=True)
class Chain:
    """The minimal chain of a branch (see :mod:`grader.strategy.trials.chains`): only the
    lines its end needs, each using only lines above it.

    ``end``: the lines the contradiction (or the conclusions) rest on.
    ``premises``: ``(cell, value)`` candidates already absent before the
    assumption that the chain relies on (what the position itself gives; a
    trial nested in a branch maps them onto the lines of the outer branch).
    ``steps``: the derivation the chain was drawn from (its links' steps in
    order, with the steps the chain does not need).  ``conflict``: the
    contradiction the chain ends in (None when it ends in the conclusions)."""

    links: tuple[Link, ...]
    end: tuple[int, ...]
    premises: tuple[Effect, ...] = ()
    steps: tuple[Step, ...] = field(default=(), compare=False, repr=False)
    conflict: Conflict | None = None


@dataclass(frozen=True, slots=True)
class Branch:
    """One alternative of a trial: the assumption ``cell <- value``, the
    sub-steps that propagation applied (``steps``, the full trace, in the
    minimal-level order), how it ended (``conflict``; the chain's own
    contradiction when there is a chain, ``trace_conflict`` the trace's), and
    ``chain``: the minimal chain (None when the engine does not record)."""

    cell: int
    value: int
    steps: tuple[Step, ...]
    conflict: Conflict | None = None
    chain: Chain | None = None
    trace_conflict: Conflict | None = field(default=None, compare=False)

    @property
    def trace_end(self) -> Conflict | None:
        """The contradiction the full trace ends in."""
        return self.trace_conflict if self.chain is not None else self.conflict

    @property
    def contradicts(self) -> bool:
        return self.conflict is not None


class Technique(Protocol):
    """What a step asks of the technique that made it (a
    :class:`grader.core.rule.Rule` subclass; its ``roles`` are read by the
    renderers, see :mod:`grader.core.roles`)."""

    @staticmethod
    def summarize(step: Step) -> str: ...
    @staticmethod
    def support(step: Step) -> Iterable[tuple[int, int]] | None: ...
    @staticmethod
    def where(step: Step) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Step:
    """One deduction: what one technique concludes at one position.

    :func:`grader.explain` returns a grid's steps, in order.  ``step.explain()``
    tells one in a line, ``step.explain("teach")`` in full sentences;
    ``step.summary()`` is the one line with its conclusion in the book's
    notation.

    :ivar rule: the code of the rule that made it (``single-position``)
    :ivar name: its name in the book (``single position``)
    :ivar level: its level in the hierarchy (1-14)
    :ivar family: the family of techniques it belongs to
    :ivar placements: ``(cell, value)`` pairs it places (cells from 0)
    :ivar eliminations: ``(cell, value)`` candidates it removes
    :ivar pattern: the cells, regions and values it highlights (:class:`Pattern`)
    :ivar branches: a trial's branches (:class:`Branch`), empty otherwise
    :ivar depth: how deep a trial's trials nest (0 for a pattern)
    :ivar reference: where the book describes it (``rule 2.1``)
    :ivar se: its value on Sudoku Explainer's scale, on the pattern path
    """

    rule: str
    name: str
    level: int
    family: str
    placements: tuple[Effect, ...]
    eliminations: tuple[Effect, ...]
    pattern: Pattern
    geo: Geometry = field(compare=False, repr=False)
    branches: tuple[Branch, ...] = ()
    depth: int = 0
    reference: str = ""
    #: The name players give what a trial shows, set by its rule: cell or
    #: region forcing chains, a contradiction forcing chain (nested ...); empty
    #: otherwise.  Renderers show it beside the name (see ``common_name``).
    pattern_name: str = ""
    #: The family of the pattern the rating's walk finds at this position
    #: (e.g. "skyscraper"), when a trial gives that pattern's conclusion too;
    #: the trial's chain need not form it, so it is never called by that name
    #: (the pattern path shows the pattern itself).  Empty otherwise.
    rated_pattern: str = ""
    #: ``(cell, value, step number, step name)``: candidates the step relies on
    #: (its support) that an earlier step of the walk removed (number 0:
    #: absent from the position as given).  Filled by the explainer's
    #: walkthrough (:mod:`grader.explainer.history`), so that the rule's text
    #: can name that step; empty outside a walkthrough.
    removed_by: tuple[tuple[int, int, int, str], ...] = field(default=(), compare=False)
    #: The pattern's value on Sudoku Explainer's scale (a step of the
    #: pattern path, see :mod:`grader.explainer.patterns`); None otherwise.
    se: float | None = None
    #: The level a trial step counts at when the rules its branches may use
    #: (its nested trials) go above its own rule's level: a disjunctive
    #: construction nested over a reductio counts at 14.  0 otherwise (the
    #: step counts at ``level``).  See :attr:`counted_level`.
    proof_top: int = 0
    #: The technique (the rule's class) that made the step: its sentences,
    #: hints, support and roles are the step's (a class pickles by name).
    technique: Technique | None = field(default=None, compare=False, repr=False)

    @property
    def counted_level(self) -> int:
        """The level the strategy counts the step at: the highest level of
        the rules its proof may use (its rule's, or its nested trials'), see
        :attr:`grader.core.rule.Rule.proof_top`."""
        return self.proof_top if self.proof_top > self.level else self.level

    # -- text ----------------------------------------------------------
    def effects_text(self) -> str:
        """``(8, 6) <- 3`` and ``(1, 2) != 4`` in the book's notation."""
        geo = self.geo
        parts = [f"{geo.cell_name(c)} <- {geo.symbol(v)}" for c, v in self.placements]
        parts += [f"{geo.cell_name(c)} != {geo.symbol(v)}" for c, v in self.eliminations]
        return ", ".join(parts)

    def reason(self) -> str:
        """The reason (the part before ``=>``), in the words of the technique
        that made the step."""
        if self.technique is None:
            return "the pattern"
        return self.technique.summarize(self)

    def summary(self) -> str:
        """One line: ``single position: in column C6, 3 can only go in (8, 6) => (8, 6) <- 3``."""
        return f"{self.name}: {self.reason()} => {self.effects_text()}"

    def explain(self, detail: str = "short") -> str:
        """The explanation sentence at the given depth (``short`` or ``teach``)."""
        if detail != "short":
            teach = getattr(self.technique, "teach", None)
            if teach is not None:
                return str(teach(self))
        return self.summary()

    def __str__(self) -> str:
        return self.summary()

    # -- data ----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (cells as 1-based ``[row, column]``)."""
        geo = self.geo

        def rc(c: int) -> list[int]:
            return [geo.cell_row[c] + 1, geo.cell_col[c] + 1]

        d: dict[str, Any] = {
            "rule": self.rule,
            "name": self.name,
            "level": self.level,
            "reference": self.reference,
            "summary": self.summary(),
            "placements": [{"cell": rc(c), "value": v} for c, v in self.placements],
            "eliminations": [{"cell": rc(c), "value": v} for c, v in self.eliminations],
            "pattern": {
                "cells": [{"cell": rc(c), "role": r} for c, r in self.pattern.cells],
                "regions": [{"region": geo.region_name(g), "role": r}
                            for g, r in self.pattern.regions],
                "values": list(self.pattern.values),
            },
            "depth": self.depth,
        }
        if self.branches:
            d["branches"] = [
                {
                    "assume": {"cell": rc(b.cell), "value": b.value},
                    "steps": [s.to_dict() for s in b.steps],
                    "contradiction": None if b.conflict is None else b.conflict.reason,
                    "chain": None if b.chain is None else [
                        {"index": k.index, "rule": k.step.rule,
                         "placements": [{"cell": rc(c), "value": v} for c, v in k.placements],
                         "eliminations": [{"cell": rc(c), "value": v}
                                          for c, v in k.eliminations],
                         "uses": list(k.uses)}
                        for k in b.chain.links],
                }
                for b in self.branches
            ]
        return d


Template = Callable[[Step], str]


def support_of(step: Step) -> Iterable[tuple[int, int]] | None:
    """The ``(cell, value)`` candidates whose absence ``step`` relies on, as
    the technique that made it says (None: every fact about its pattern)."""
    technique = step.technique
    return None if technique is None else technique.support(step)


def absent_outside(step: Step, base: str, cover: str) -> list[tuple[int, int]]:
    """The support of a pattern whose value is confined: the value is absent
    from the cells of the ``base`` regions that lie outside the ``cover``
    regions (candidate lines: blocks outside lines; fish: base lines outside
    cover lines)."""
    geo = step.geo
    v = step.pattern.values[0]
    inside: set[int] = set()
    for r in step.pattern.regions_with(cover):
        inside |= geo.region_set[r]
    return [(c, v) for r in step.pattern.regions_with(base) for c in geo.regions[r]
            if c not in inside]
