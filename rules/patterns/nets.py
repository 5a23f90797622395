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
from grader.core.trial_text import teach_trial
from grader.strategy.engine import Engine
from grader.strategy.expert.hint import Hint
from grader.strategy.serate.chainhint import chain_name
from grader.strategy.serate.rate import beyond
from grader.strategy.serate.tiers import MAX_LEVEL
from grader.strategy.trials.branches import after, phases, record_branch
from grader.strategy.trials.chains import Target, holds

from ..singles import SinglePosition
from .base import PatternFamily, cand, cells, conclusion, rc, unit

#: The expert families this module presents, declared once: the walk's order
#: (``order``), its finder, whether the engine consults it to choose trials,
#: and its C twin (number, calls, hint codes).  Pure data: setup.py reads it
#: without importing the package, to write grader/kernel/_families.h.
#: ``"walk": "python"``: the walk runs the finder, Sudoku Explainer's own
#: producer (which calls C itself), not the C twin (still built: hint codes).
FAMILIES = (
    {"name": "Nishio", "order": 190, "consulted": False,
     "finder": "grader.strategy.expert.families:producer", "uses": ["board", "kernel"],
     "args": ["nishio"], "walk": "python",
     "c": {"index": 13, "run": ["nishio(P)"], "compact": True, "hints": [["Nishio", "N_NISHIO"]]}},
    {"name": "multiple chains", "order": 200, "consulted": False,
     "finder": "grader.strategy.expert.families:producer", "uses": ["board", "kernel"],
     "args": ["multiple"], "walk": "python",
     "c": {"index": 14, "run": ["multiple_chains(P, G)"], "graph": True,
           "hints": [["cell forcing chains", "N_CELLF"], ["region forcing chains", "N_REGIONF"]]}},
    {"name": "dynamic chains", "order": 210, "consulted": False,
     "finder": "grader.strategy.expert.dynamic:Dynamic.hints", "uses": ["dynamic"],
     "c": {"index": 15, "run": ["dynamic(P)"], "compact": True,
           "hints": [["dynamic contradiction chain", "N_DYNCON"],
                     ["dynamic cell forcing chains", "N_DYNCELL"],
                     ["dynamic region forcing chains", "N_DYNREGION"]]}},
)

#: the deepest nesting tried for a proof (the walk's nested levels need 2)
MAX_DEPTH = 3

CONTRADICTION = ("Nishio", "dynamic contradiction chain")
CELL = ("cell forcing chains", "dynamic cell forcing chains")
REGION = ("region forcing chains", "dynamic region forcing chains")
#: Sudoku Explainer's dynamic chains, by name: (shape, level)
SE_CHAINS = {chain_name(shape, level): (shape, level)
             for shape in ("contradiction", "double", "cell", "region")
             for level in range(MAX_LEVEL + 1)}
#: the name of a book trial shown where the walk ends or stops (see
#: :func:`grader.explainer.patterns._beyond`), and of the walk's own trials
BOOK = ("forcing chains (book)", "nested trials")
#: the walk's bound where it stops before a nesting level (``--se fast``): a
#: book trial shown with that name and the level's base
BEYOND = tuple(dict.fromkeys(beyond(level)[0] for level in range(1, MAX_LEVEL + 2)))


class OneValueSingles(SinglePosition):
    """Single positions of one value only (a Nishio's propagation): the
    steps of :class:`~grader.rules.singles.SinglePosition` that place ``value``."""

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


def _paired(board: Board, cell: int, value: int) -> bool:
    """Whether the candidate has one alternative only: its cell has two
    candidates, or its value two places in a region of the cell.  A
    contradiction from it is then the dead branch of a disjunctive
    construction on that pivot (level 13), not a reductio (14)."""
    if board.cands[cell].bit_count() == 2:
        return True
    bit = 1 << (value - 1)
    return any(sum(1 for c in board.geo.regions[r] if board.cands[c] & bit) == 2
               for r in board.geo.cell_regions[cell])


class ForcingNet(PatternFamily):
    """The trials of the walk (see the module's doc)."""

    family = "forcing-chains"
    names = (*CONTRADICTION, *CELL, *REGION, *SE_CHAINS, *BOOK, *BEYOND)
    roles: ClassVar[dict[str, Any]] = {"pivot": ("where the branches start", "#d0bfff",
                                                 "on dark_magenta")}

    @classmethod
    def step(cls, hint: Hint, board: Board, engine: Engine | None = None) -> Step:
        engine = engine or Engine()
        if hint.family in BOOK or hint.family in BEYOND:
            book = engine.next_step(board)
            if book is None:
                raise ValueError("no trial of the book moves this position")
            return cls.label(book, hint.family, hint.rating)
        targets = [(True, c, v) for c, v in hint.placements] + [
            (False, c, v) for c, v in hint.eliminations]
        found = sources(hint, board)
        # a Nishio is one assumption: no pivot of two stands for it
        for alts, region in found if hint.family == "Nishio" else _pivots_first(found, board):
            for depth, rules in propagations(engine, hint, alts, targets, board):
                want = () if len(alts) == 1 or hint.placements and all(
                    p[0] == alts[0][0] for p in hint.placements) else targets
                branches = tuple(record_branch(board, c, v, rules, want) for c, v in alts)
                return cls.net(hint, board, alts, region, branches, depth)
        raise ValueError(f"no proof of the walk's {hint.family} on this position within "
                         f"{MAX_DEPTH} nested trials")

    @classmethod
    def label(cls, step: Step, name: str, rating: int) -> Step:
        """A book trial ``step`` shown as the walk names and values it."""
        return replace(step, name=name, rule=name.replace(" ", "-").lower(), family=cls.family,
                       se=rating / 10, technique=cls, pattern_name="")

    @classmethod
    def net(cls, hint: Hint, board: Board, alts: Sequence[tuple[int, int]], region: int,
            branches: tuple[Branch, ...], depth: int) -> Step:
        pivots = tuple((c, "pivot") for c in dict.fromkeys(c for c, _ in alts))
        pattern = Pattern(cells=pivots, regions=((region, "pivot"),) if region >= 0 else (),
                          values=tuple(sorted({v for _, v in alts})))
        step = cls.make(hint, board, pattern)
        return replace(step, branches=branches, depth=depth,
                       level=14 if len(alts) == 1 and not _paired(board, *alts[0]) else 13)

    @staticmethod
    def summarize(step: Step) -> str:
        """``r9c9=2 leads to a contradiction``, ``r5c2 is 3, 5 or 8, and each
        leads there``, ``8 is in r9c4, r9c5 or r9c7 (row 9), and each leads
        there (r9c7=8 to a contradiction)``."""
        geo = step.geo
        branches = step.branches
        if len(branches) == 1:
            b = branches[0]
            return f"{cand(geo, b.cell, b.value)} leads to a contradiction"
        dead = [cand(geo, b.cell, b.value) for b in branches if b.conflict is not None]
        if step.pattern.regions:
            region = step.pattern.regions[0][0]
            head = (f"{geo.symbol(step.pattern.values[0])} is in "
                    f"{_or([rc(geo, b.cell) for b in branches])} ({unit(geo, region)})")
        else:
            head = (f"{rc(geo, branches[0].cell)} is "
                    f"{_or([geo.symbol(b.value) for b in branches])}")
        if len(dead) == len(branches):
            return f"{head}, and each leads to a contradiction"
        tail = f" ({_or(dead)} to a contradiction)" if dead else ""
        return f"{head}, and each leads there{tail}"

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
        if len(dead) == len(step.branches):
            outro = f"Every one of them leads to a contradiction: {what}."
        elif dead:
            outro = (f"The possibilities that lead to a contradiction drop out, and every one "
                     f"left gives {what}: {what}.")
        else:
            outro = f"Every possibility gives {what}, and one of them is true: {what}."
        return intro, outro

    @staticmethod
    def teach(step: Step) -> str:
        text = teach_trial(step)
        if step.name.endswith("(not searched)"):
            text += ("\nThe rating's walk ends here: the default setting does not search this "
                     "nesting level of Sudoku Explainer's chains (grade --se full does), so the "
                     "value is the level's base, a lower bound, and the steps after this one "
                     "are not rated.")
        return text

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


def _pivots_first(found: Iterator[tuple[list[tuple[int, int]], int]], board: Board,
                  ) -> Iterator[tuple[list[tuple[int, int]], int]]:
    """``found``, with the pivots of two alternatives (cells with two
    candidates, cell order, then values with two places in a region) tried
    before a single assumption that is not one of a pair: a contradiction
    from it is a reductio (level 14), where both branches of a pivot reaching
    the same conclusion are a disjunctive construction (13), the level a
    grid solved without reductio shows."""
    tried = False
    for alts, region in found:
        if len(alts) == 1 and not tried and not _paired(board, *alts[0]):
            tried = True
            geo = board.geo
            for c in range(geo.ncells):
                if not board.values[c] and board.cands[c].bit_count() == 2:
                    yield [(c, v) for v in values_of(board.cands[c])], -1
            for r, cells_ in enumerate(geo.regions):
                for v in range(1, geo.n + 1):
                    bit = 1 << (v - 1)
                    pos = [c for c in cells_ if board.cands[c] & bit]
                    if len(pos) == 2:
                        yield [(c, v) for c in pos], r
        yield alts, region


def sources(hint: Hint, board: Board) -> Iterator[tuple[list[tuple[int, int]], int]]:
    """The assumptions the hint's branches may start from, with the unit of
    a region's (-1 otherwise), in the order they are tried: the walk's own
    families name theirs; for Sudoku Explainer's dynamic chains, whose
    search does not say where its chains start, every start of the hint's
    shape (a candidate it removes; every cell, bivalue for a double forcing
    chain; every value's places in a unit, two for a double one).  A double
    forcing chain from a candidate of a cell (or unit) with more than two
    starts ("A on, A off") is shown split: "A off" is one of the other
    candidates, each of which implies it, so each leads there too."""
    if hint.family in SE_CHAINS:
        shape, _ = SE_CHAINS[hint.family]
        if shape == "contradiction" and hint.eliminations and not hint.placements:
            yield [hint.eliminations[0]], -1
            return
        if shape == "contradiction":  # every other value of the cell is impossible
            (c, v), = hint.placements
            yield [(c, w) for w in values_of(board.cands[c]) if w != v], -1
            return
        most = 2 if shape in ("double", "contradiction") else board.geo.n
        if shape != "region":
            yield from _cells(board, most, hint)
        if shape != "cell":
            yield from _regions(board, most, hint)
        if shape == "double":  # "A on, A off": the off side split by the other values
            yield from _cells(board, board.geo.n, hint, least=3)
            yield from _regions(board, board.geo.n, hint, least=3)
        return
    yield from _named(hint, board)


def _cells(board: Board, most: int, hint: Hint,
           least: int = 2) -> Iterator[tuple[list[tuple[int, int]], int]]:
    for c in range(board.geo.ncells):
        if (not board.values[c] and least <= board.cands[c].bit_count() <= most
                and c not in _target_cells(hint)):
            yield [(c, v) for v in values_of(board.cands[c])], -1


def _regions(board: Board, most: int, hint: Hint,
             least: int = 2) -> Iterator[tuple[list[tuple[int, int]], int]]:
    geo = board.geo
    for r in range(len(geo.regions)):
        for v in range(1, geo.n + 1):
            bit = 1 << (v - 1)
            places = [c for c in geo.regions[r] if board.cands[c] & bit and not board.values[c]]
            if least <= len(places) <= most and not _target_cells(hint) & set(places):
                yield [(c, v) for c in places], r


def _target_cells(hint: Hint) -> set[int]:
    """The cells the hint's conclusions are about: a branch starting there
    would prove them in no line at all."""
    return {c for c, _ in (*hint.placements, *hint.eliminations)}


def _named(hint: Hint, board: Board) -> Iterator[tuple[list[tuple[int, int]], int]]:
    """The start of a hint of the walk's own families (for a region's, every
    value whose places in a unit are the hint's cells: the hint does not
    say which)."""
    geo = board.geo
    if hint.family in CONTRADICTION:
        yield [hint.eliminations[0]], -1
        return
    if hint.family in CELL:
        c = hint.cells[0]
        yield [(c, v) for v in values_of(board.cands[c])], -1
        return
    places = sorted(hint.cells)
    for r in range(len(geo.regions)):
        if not all(c in geo.regions[r] for c in places):
            continue
        for v in values_of(board.cands[places[0]]):
            bit = 1 << (v - 1)
            if [c for c in geo.regions[r] if board.cands[c] & bit and not board.values[c]] == \
                    places:
                yield [(c, v) for c in places], r


def propagations(engine: Engine, hint: Hint, alts: Sequence[tuple[int, int]],
                 targets: Sequence[Target], board: Board) -> Iterator[tuple[int, tuple[Rule, ...]]]:
    """(depth, rules) of the propagations that prove the hint, weakest first."""
    kernel = engine.kernel
    deepest = 1 if hint.family not in SE_CHAINS or SE_CHAINS[hint.family][1] < 2 else MAX_DEPTH
    for depth in range(1, deepest + 1):
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
    """Whether the branches of ``alts`` prove ``targets``: each ends in a
    contradiction or gives them all; every one dead proves only that the
    targets' cell holds none of them (a contradiction's shape)."""
    ends = [after(board, c, v, rules, kernel) for c, v in alts]
    live = [e for e in ends if e is not None]
    if not live:
        return len({c for c, _ in alts}) == 1 and _rest(board, alts, targets)
    return len(alts) > 1 and all(holds(e, t) for e in live for t in targets)


def _rest(board: Board, alts: Sequence[tuple[int, int]], targets: Sequence[Target]) -> bool:
    """Whether refuting ``alts`` gives ``targets``: the alternatives'
    removal, or the cell's one value left."""
    c = alts[0][0]
    left = board.cands[c]
    for _, v in alts:
        left &= ~(1 << (v - 1))
    gives = {(False, c, v) for _, v in alts}
    if left.bit_count() == 1:
        gives.add((True, c, left.bit_length()))
    return set(targets) <= gives


def _or(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _propagation_words(step: Step) -> str:
    if step.name == "Nishio":
        return f"the single positions of {step.geo.symbol(step.pattern.values[0])} only"
    names = {link.step.name for b in step.branches if b.chain is not None
             for link in b.chain.links}
    if names <= {"single position", "single candidate"}:
        return "singles"
    return "the rules of levels 1-12"


__all__ = ["ForcingNet", "OneValueSingles"]
