"""Forcing chains and nets: Nishio (7.5 +), cell and region forcing chains
(8.0 +), dynamic contradiction, cell and region forcing chains (8.5 +) and
Sudoku Explainer's dynamic and nested forcing chains.

Each is a trial whose shape the name says: one assumption that ends in a
contradiction (Nishio, contradiction chains), or every candidate of a cell,
or every place of a value in a unit, each leading to the same conclusion
(cell and region forcing chains).  The walk rates the position from its own
search; the step shows each branch as the book's trials do, as its minimal
chain (:mod:`grader.strategy.trials.chains`): only the facts the end needs,
each with the lines it rests on.  The chains use the weakest propagation
that proves the conclusion: singles (a Nishio: the single positions of its
one value only), then the rules of levels 1-12; where the walk's step needs
chains inside chains (Sudoku Explainer's nested levels), the branches nest
trials, each inner chain shown, and folded in HTML, the same way; the
drawings of the branches draw their chains.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from grader.core.board import Board
from grader.core.geometry import values_of
from grader.core.rule import Rule
from grader.core.steps import Branch, Pattern, Step
from grader.strategy.engine import Engine
from grader.strategy.expert.hint import Hint
from grader.strategy.trials.branches import after, phases, record_branch
from grader.strategy.trials.chains import Target, holds
from rules.patterns.base import PatternFamily, cand, cells, conclusion, rc, unit
from rules.singles import SinglePosition
from rules.trial_text import teach_trial

#: the deepest nesting tried for a proof (the walk's nested levels need 2)
MAX_DEPTH = 3

CONTRADICTION = ("Nishio", "dynamic contradiction chain")
CELL = ("cell forcing chains", "dynamic cell forcing chains")
REGION = ("region forcing chains", "dynamic region forcing chains")


class OneValueSingles(SinglePosition):
    """Single positions of one value only (a Nishio's propagation): the
    steps of :class:`~rules.singles.SinglePosition` that place ``value``."""

    family = "single-position-of-one-value"

    def __init__(self, base: Rule, value: int) -> None:
        super().__init__(base.spec, base.context)
        self.value = value

    def find(self, board: Board) -> Iterator[Step]:
        for step in super().find(board):
            if step.placements[0][1] == self.value:
                yield replace(step, family=SinglePosition.family)

    def native(self) -> None:  # type: ignore[override]
        return None  # the kernel would place every value


class ForcingNet(PatternFamily):
    """The trials of the walk (see the module's doc)."""

    family = "forcing-chains"
    names = (*CONTRADICTION, *CELL, *REGION)
    roles: ClassVar[dict[str, Any]] = {"pivot": ("where the branches start", "#d0bfff",
                                                 "on dark_magenta")}

    @classmethod
    def step(cls, hint: Hint, board: Board, engine: Engine | None = None) -> Step:
        engine = engine or Engine()
        alts, region = alternatives(hint, board)
        targets = [(True, c, v) for c, v in hint.placements] + [
            (False, c, v) for c, v in hint.eliminations]
        for depth, rules in propagations(engine, hint, alts, targets, board):
            want = () if len(alts) == 1 else targets
            branches = tuple(record_branch(board, c, v, rules, want) for c, v in alts)
            return cls.net(hint, board, alts, region, branches, depth)
        raise LookupError(f"no proof of the walk's {hint.family} on this position within "
                          f"{MAX_DEPTH} nested trials")

    @classmethod
    def net(cls, hint: Hint, board: Board, alts: Sequence[tuple[int, int]], region: int,
            branches: tuple[Branch, ...], depth: int) -> Step:
        pivots = tuple((c, "pivot") for c in dict.fromkeys(c for c, _ in alts))
        pattern = Pattern(cells=pivots, regions=((region, "pivot"),) if region >= 0 else (),
                          values=tuple(sorted({v for _, v in alts})))
        step = cls.make(hint, board, pattern)
        return replace(step, branches=branches, depth=depth,
                       level=14 if len(alts) == 1 else 13)

    @staticmethod
    def summarize(step: Step) -> str:
        geo = step.geo
        ends = [_end_word(b) for b in step.branches]
        if len(step.branches) == 1:
            b = step.branches[0]
            return f"{cand(geo, b.cell, b.value)} leads to {ends[0]}"
        alts = ", ".join(f"{cand(geo, b.cell, b.value)} ({e})"
                         for b, e in zip(step.branches, ends, strict=True))
        return f"each of {alts}"

    @staticmethod
    def trial_parts(step: Step) -> tuple[str, str]:
        """(intro, conclusion) of the teach text, around the branches."""
        geo = step.geo
        what = conclusion(step)
        inner = (f"; a link that needs a chain of its own is proved by one, nested "
                 f"{step.depth - 1} deep" if step.depth > 1 else "")
        rules = _propagation_words(step)
        if len(step.branches) == 1:
            b = step.branches[0]
            return (f"{step.name}: assume {cand(geo, b.cell, b.value)} and follow its "
                    f"consequences with {rules}{inner}; each line uses only the lines above it:",
                    f"The assumption leads to a contradiction, so it is false: {what}.")
        if step.pattern.regions:
            region = step.pattern.regions[0][0]
            v = geo.symbol(step.pattern.values[0])
            head = (f"{step.name}: in {unit(geo, region)}, {v} can only go in "
                    f"{cells(geo, (b.cell for b in step.branches))}")
        else:
            c = step.branches[0].cell
            head = (f"{step.name}: {rc(geo, c)} can only hold "
                    f"{' or '.join(geo.symbol(b.value) for b in step.branches)}")
        intro = (f"{head}.  Follow each possibility with {rules}{inner}; each line uses only "
                 f"the lines above it:")
        dead = [b for b in step.branches if b.conflict is not None]
        outro = (f"{'Every possibility' if not dead else 'Every possibility left'} gives "
                 f"{what}, and one of them is true: {what}.")
        return intro, outro

    @staticmethod
    def teach(step: Step) -> str:
        return teach_trial(step)

    @staticmethod
    def where(step: Step) -> str:
        geo = step.geo
        if len(step.branches) == 1:
            c = step.branches[0].cell
            return (f"assume one candidate of {rc(geo, c)} and follow its consequences to a "
                    f"contradiction")
        if step.pattern.regions:
            region = step.pattern.regions[0][0]
            return (f"follow each place of {geo.symbol(step.pattern.values[0])} in "
                    f"{unit(geo, region)} to what they all give")
        return f"follow each candidate of {rc(geo, step.branches[0].cell)} to what they all give"


def alternatives(hint: Hint, board: Board) -> tuple[list[tuple[int, int]], int]:
    """The assumptions of the hint's branches, and the unit of a region's
    (-1 otherwise)."""
    geo = board.geo
    if hint.family in CONTRADICTION:
        return [hint.eliminations[0]], -1
    if hint.family in CELL:
        c = hint.cells[0]
        return [(c, v) for v in values_of(board.cands[c])], -1
    places = sorted(hint.cells)
    for r in range(len(geo.regions)):
        if not all(c in geo.regions[r] for c in places):
            continue
        for v in values_of(board.cands[places[0]]):
            bit = 1 << (v - 1)
            if [c for c in geo.regions[r] if board.cands[c] & bit and not board.values[c]] == \
                    places:
                return [(c, v) for c in places], r
    raise ValueError(f"{hint.family}: {places} are not the places of one value in a unit")


def propagations(engine: Engine, hint: Hint, alts: Sequence[tuple[int, int]],
                 targets: Sequence[Target], board: Board) -> Iterator[tuple[int, tuple[Rule, ...]]]:
    """(depth, rules) of the propagations that prove the hint, weakest first."""
    kernel = engine.kernel
    for depth in range(1, MAX_DEPTH + 1):
        trial = next(r for r in engine.rules(depth) if r.kind == "trial")
        sets = phases(trial.context.propagation, depth)
        if depth == 1 and hint.family == "Nishio":
            (c, v), = alts
            single = next(r for r in sets[0] if r.family == SinglePosition.family)
            sets = [(OneValueSingles(single, v),), *sets]
        for rules in sets:
            if _proves(board, alts, targets, rules, kernel):
                yield depth, rules
                return


def _proves(board: Board, alts: Sequence[tuple[int, int]], targets: Sequence[Target],
            rules: Sequence[Rule], kernel: Any) -> bool:
    ends = [after(board, c, v, rules, kernel) for c, v in alts]
    if len(alts) == 1:
        return ends[0] is None
    live = [e for e in ends if e is not None]
    return bool(live) and all(holds(e, t) for e in live for t in targets)


def _end_word(b: Branch) -> str:
    if b.conflict is not None:
        return "a contradiction"
    k = len(b.chain.links) if b.chain is not None else len(b.steps)
    return f"the conclusion in {k} step{'s' if k != 1 else ''}"


def _propagation_words(step: Step) -> str:
    if step.name == "Nishio":
        return f"the single positions of {step.geo.symbol(step.pattern.values[0])} only"
    names = {link.step.name for b in step.branches if b.chain is not None
             for link in b.chain.links}
    if names <= {"single position", "single candidate"}:
        return "singles"
    return "the rules of levels 1-12"


__all__ = ["ForcingNet", "OneValueSingles"]
