"""The easiest-first walk that rates an expert grid (see README, "Expert
score").

From the fixpoint of the plain rules (levels 1-12), try the families in
order; the first that yields a useful hint rates the position at its
easiest hint, and that one hint is applied, as Sudoku Explainer applies one
hint per step (issue 37; before, every conclusion of the family rated at
most the running maximum was applied); propagate again, repeat.  The
families "chains and cycles", "Nishio" and "multiple chains" are Sudoku
Explainer's own producers (:func:`grader.strategy.serate.rate.producer_hints`).
When no family
fires, Sudoku Explainer's dynamic forcing chains and their nesting levels
rate the position by the easiest hint of the first level that has one, and
that one hint is applied (:mod:`grader.strategy.serate`, docs/se-scale.md).  The
grid's estimate is the maximum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from grader.core.board import Board
from grader.core.rule import Rule
from grader.strategy.engine import Engine, SoundnessError
from grader.strategy.expert import families
from grader.strategy.expert.families import (
    Context,
    first_family,
    first_family_python,
    useful,
)
from grader.strategy.expert.hint import Hint
from grader.strategy.propagate import next_step_of
from grader.strategy.serate.rate import DEFAULT_SETTING, SETTINGS, beyond, chain_step
from grader.strategy.serate.tiers import MAX_LEVEL

__all__ = ["NESTED", "RATED_SIZES", "Context", "Move", "Rater", "Walk",
           "check_hint", "choose", "first_family", "first_family_python", "is_quad", "useful"]

#: The rated sizes: Sudoku Explainer's scale is about 9x9 grids.
RATED_SIZES = (9,)


NESTED = 90  # 9.0, plus 0.5 per nesting level beyond the first


def __getattr__(name: str) -> object:
    """``FAMILIES``, ``SEGMENTS`` (see :func:`families.table`) and
    ``CHAIN_FAMILIES``: the families tried before Sudoku Explainer's chaining
    tiers, all but the last, "dynamic chains", whose place Sudoku Explainer's
    own dynamic forcing chains (level 0) take."""
    if name in ("FAMILIES", "SEGMENTS"):
        return getattr(families, name)
    if name == "CHAIN_FAMILIES":
        return len(families.table().families) - 1
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class Move:
    """One rated position of the walk: the family that fired, its easiest
    hint's rating, and the hints applied."""

    family: str
    rating: int
    hints: tuple[Hint, ...]


@dataclass
class Walk:
    """The estimate (tenths), the pattern of the hardest position, the path.
    ``solved``: the walk came to its end (the grid solved, or a position rated
    by the grid's nesting depth, see :meth:`Rater.walk`)."""

    rating: int = 0
    pattern: str | None = None
    moves: list[Move] = field(default_factory=list)
    solved: bool = False
    #: the first move's rating (Sudoku Explainer's diamond), and the
    #: running maximum when a value was first placed (its pearl); 0: not yet
    diamond: int = 0
    pearl: int = 0

    @property
    def se(self) -> float | None:
        return self.rating / 10 if self.moves else None


def check_hint(hint: Hint, solution: Sequence[int]) -> None:
    """Raise :class:`SoundnessError` if ``hint`` disagrees with ``solution``."""
    for c, d in hint.placements:
        if solution[c] != d:
            raise SoundnessError(f"{hint.family} places {d} in cell {c}; the solution has "
                                 f"{solution[c]}")
    for c, d in hint.eliminations:
        if solution[c] == d:
            raise SoundnessError(f"{hint.family} removes {d} from cell {c}, its solution")


def _filled(board: Board) -> int:
    return sum(1 for v in board.values if v)


def _apply(board: Board, hints: list[Hint]) -> None:
    for h in hints:
        for c, d in h.placements:
            if not board.values[c]:
                board.place(c, d)
        for c, d in h.eliminations:
            board.cands[c] &= ~(1 << (d - 1))


def choose(hints: Sequence[Hint], rating: int) -> Move:
    """The move of a family that fired with ``hints``: its easiest hint (the
    first found among equals), rated and applied alone, as Sudoku Explainer
    applies one hint per step, its producers' easiest first.  (``rating``,
    the walk's rating so far, is no longer read: until issue 37 every hint
    rated at most the running maximum was applied too, which let the walk
    take paths Sudoku Explainer does not.)"""
    del rating
    easiest = min(hints, key=lambda h: h.rating)
    return Move(easiest.family, easiest.rating, (easiest,))


def is_quad(rule: Rule) -> bool:
    """Naked and hidden subsets of four and more: Sudoku Explainer rates quads
    (5.0 and 5.4), so the walk leaves these rules out of its propagation and
    tries quads as families (larger subsets are quads of the other kind)."""
    return (rule.family in ("naked-subset", "hidden-subset")
            and int(rule.params.get("min_size", 2)) >= 4)


class Rater:
    """Walks grids for one engine (its levels 1-12 propagate)."""

    def __init__(self, engine: Engine, se: str = DEFAULT_SETTING) -> None:
        self.engine = engine
        self.plain: tuple[Rule, ...] = tuple(r for r in engine.base if not is_quad(r))
        #: the deepest chaining level searched (see grader.strategy.serate.rate.SETTINGS)
        self.deepest = SETTINGS[se]

    def settle(self, board: Board) -> None:
        if self.engine.kernel.closure(board, self.plain):
            raise AssertionError("the expert walk reached a contradiction")

    def walk(self, board: Board, limit: int = 500,
             solution: Sequence[int] | None = None, depth: int | None = None) -> Walk:
        """Rate ``board`` (a copy is walked); its solution must be unique.

        A position that no family moves is rated by Sudoku Explainer's
        chaining tiers up to the setting's deepest level; one that needs a
        deeper level ends the walk, rated at that level's base (a lower
        bound).  ``depth`` (the nesting depth the engine needed on the grid,
        when known) only serves where no chaining level moves a position.

        Debug mode: with ``solution``, every hint found is checked against it
        (a :class:`~grader.strategy.engine.SoundnessError` on the first that disagrees)."""
        work = board.copy()
        work.solution = board.solution
        walk = Walk()
        self.settle(work)
        while not work.is_solved() and len(walk.moves) < limit:
            move = self.next_move(work, walk.rating, depth, solution)
            if move is None:
                return walk
            self._record(walk, move)
            if not move.hints:  # rated by a bound: the walk ends
                walk.solved = True
                walk.pearl = walk.pearl or walk.rating
                return walk
            filled = _filled(work) if not walk.pearl else 0
            _apply(work, list(move.hints))
            self.settle(work)
            if not walk.pearl and _filled(work) > filled:
                walk.pearl = walk.rating
        walk.solved = work.is_solved()
        walk.pearl = walk.pearl or walk.rating
        return walk

    def next_move(self, board: Board, rating: int = 0, depth: int | None = None,
                  solution: Sequence[int] | None = None) -> Move | None:
        """The walk's move at ``board``, a position the plain rules leave
        (not applied; the walk's rating so far being ``rating``): the first
        family's hints, else the easiest hint of the first chaining level,
        else the engine's trial.  A move without hints ends the walk, rated
        by a bound; None: nothing moves.  With ``solution``, every hint found
        is checked against it."""
        found = first_family(board, last=len(families.table().families) - 1,
                             kernel=self.engine.kernel.name)
        if found is None:
            move = self._chains(board, depth)
        else:
            move = choose(found[1], rating)
        if move is not None and solution is not None:
            for h in (found[1] if found is not None else move.hints):
                check_hint(h, solution)
        return move

    @staticmethod
    def _record(walk: Walk, move: Move) -> None:
        if not walk.moves:
            walk.diamond = move.rating
        walk.moves.append(move)
        if walk.pattern is None or move.rating > walk.rating:
            walk.rating = move.rating
            walk.pattern = move.family

    def _chains(self, board: Board, depth: int | None) -> Move | None:
        """The easiest hint of the first chaining level that has one, or a
        move without hints that ends a walk stopping before the level the
        position needs."""
        step = chain_step(board.values, board.cands, 0, self.deepest, self.engine.kernel.name)
        if step is None:
            if self.deepest < MAX_LEVEL:
                name, rating = beyond(self.deepest + 1)
                return Move(name, rating, ())
            return self._nested(board, depth)
        hint = Hint(step.name, step.tenths, (step.placement,) if step.placement else (),
                    step.removable, ())
        return Move(hint.family, hint.rating, (hint,))

    def _nested(self, board: Board, depth: int | None) -> Move | None:
        """The engine's trial step, or with ``depth`` known and no trial of
        depth 1 that moves, a move without hints rated by it."""
        step = self.engine.next_step(board) if depth is None else next_step_of(
            board, self.engine.rules(1))
        if step is None:
            if depth is None or depth < 2:
                return None
            return Move("nested trials", NESTED + 5 * (depth - 1), ())
        rating = NESTED + 5 * (max(step.depth, 1) - 1)
        hint = Hint("nested trials", rating, tuple(step.placements),
                    tuple(step.eliminations), ())
        return Move(hint.family, rating, (hint,))
