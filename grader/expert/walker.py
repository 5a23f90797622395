"""The easiest-first walk that rates an expert grid (see README, "Expert
score").

From the fixpoint of the plain rules (levels 1-12), try the families in
order; the first that yields a useful hint rates the position at its
easiest hint.  Keep the running maximum, apply every conclusion of that
family rated at most the maximum, propagate again, repeat.  When no family
fires, the engine's own trial step rates the position at
9.0 + 0.5 (depth - 1).  The grid's estimate is the maximum.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from .. import native
from ..board import Board
from ..engine import Engine, SoundnessError
from ..propagate import fixpoint
from ..rule import Rule
from . import accel
from .chains import StaticGraph, chains_and_cycles, multiple_chains
from .dynamic import Dynamic, nishio
from .hint import Hint, Position
from .links import strong_link_chains
from .rectangles import jellyfish, unique_rectangles
from .wings import (aligned_pair_exclusions, als_wings, bug_plus_one, xy_wings, xyz_wings)

#: The rated sizes: Sudoku Explainer's scale is about 9x9 grids.
RATED_SIZES = (9,)


class Context:
    """One position and the searches its families share."""

    def __init__(self, board: Board) -> None:
        self.pos = Position(board)
        self._graph: StaticGraph | None = None
        self._dynamic: Dynamic | None = None

    @property
    def graph(self) -> StaticGraph:
        if self._graph is None:
            self._graph = StaticGraph(self.pos)
        return self._graph

    @property
    def dynamic(self) -> Dynamic:
        if self._dynamic is None:
            self._dynamic = Dynamic(self.pos)
        return self._dynamic


Finder = Callable[[Context], Iterator[Hint]]

#: The families in the order they are tried (Sukaku Explainer's order).
FAMILIES: tuple[tuple[str, Finder], ...] = (
    ("strong-link chain, 2 links", lambda x: strong_link_chains(x.pos, 2)),
    ("XY-Wing", lambda x: xy_wings(x.pos)),
    ("XYZ-Wing", lambda x: xyz_wings(x.pos)),
    ("unique rectangle", lambda x: unique_rectangles(x.pos)),
    ("jellyfish", lambda x: jellyfish(x.pos)),
    ("strong-link chain, 3 links", lambda x: strong_link_chains(x.pos, 3)),
    ("WXYZ-Wing", lambda x: als_wings(x.pos, 4)),
    ("BUG+1", lambda x: bug_plus_one(x.pos)),
    ("strong-link chain, 4 links", lambda x: strong_link_chains(x.pos, 4)),
    ("VWXYZ-Wing", lambda x: als_wings(x.pos, 5)),
    ("aligned pair exclusion", lambda x: aligned_pair_exclusions(x.pos)),
    ("UVWXYZ-Wing", lambda x: als_wings(x.pos, 6)),
    ("chains and cycles", lambda x: chains_and_cycles(x.pos, x.graph)),
    ("Nishio", lambda x: nishio(x.pos)),
    ("multiple chains", lambda x: multiple_chains(x.pos, x.graph)),
    ("dynamic chains", lambda x: x.dynamic.hints()),
)

NESTED = 90  # 9.0, plus 0.5 per nesting level beyond the first


@dataclass(frozen=True)
class Move:
    """One rated position of the walk: the family that fired, its easiest
    hint's rating, and the hints applied."""

    family: str
    rating: int
    hints: tuple[Hint, ...]


@dataclass
class Walk:
    """The estimate (tenths), the pattern of the hardest position, the path."""

    rating: int = 0
    pattern: str | None = None
    moves: list[Move] = field(default_factory=list)
    solved: bool = False

    @property
    def se(self) -> float | None:
        return self.rating / 10 if self.moves else None


def first_family(board: Board) -> tuple[str, list[Hint]] | None:
    """The first family with a useful hint on ``board`` and all its hints."""
    if accel.available(board):
        got = accel.first_family(board)
        if got is None:
            return None
        fam, raw = got
        hints = [h for h in raw if useful(board, h)]
        if hints:
            return FAMILIES[fam][0], hints
        # pragma: no cover - every hint the accelerator gives is useful
    return first_family_python(board)


def first_family_python(board: Board) -> tuple[str, list[Hint]] | None:
    """:func:`first_family` in pure Python."""
    ctx = Context(board)
    for name, finder in FAMILIES:
        hints = [h for h in finder(ctx) if useful(board, h)]
        if hints:
            return name, hints
    return None


def check_hint(hint: Hint, solution: Sequence[int]) -> None:
    """Raise :class:`SoundnessError` if ``hint`` disagrees with ``solution``."""
    for c, d in hint.placements:
        if solution[c] != d:
            raise SoundnessError(f"{hint.family} places {d} in cell {c}; the solution has "
                                 f"{solution[c]}")
    for c, d in hint.eliminations:
        if solution[c] == d:
            raise SoundnessError(f"{hint.family} removes {d} from cell {c}, its solution")


def useful(board: Board, hint: Hint) -> bool:
    for c, _ in hint.placements:
        if not board.values[c]:
            return True
    return any(board.cands[c] >> (d - 1) & 1 for c, d in hint.eliminations)


def _apply(board: Board, hints: list[Hint]) -> None:
    for h in hints:
        for c, d in h.placements:
            if not board.values[c]:
                board.place(c, d)
        for c, d in h.eliminations:
            board.cands[c] &= ~(1 << (d - 1))


class Rater:
    """Walks grids for one engine (its levels 1-12 propagate)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.plain: tuple[Rule, ...] = engine.base

    def settle(self, board: Board) -> None:
        prog = native.program(self.plain)
        bad = prog.closure(board) if prog is not None else fixpoint(board, self.plain) is not None
        if bad:
            raise AssertionError("the expert walk reached a contradiction")

    def walk(self, board: Board, limit: int = 500,
             solution: Sequence[int] | None = None) -> Walk:
        """Rate ``board`` (a copy is walked); its solution must be unique.

        Debug mode: with ``solution``, every hint found is checked against it
        (a :class:`~grader.engine.SoundnessError` on the first that disagrees)."""
        work = board.copy()
        work.solution = board.solution
        walk = Walk()
        self.settle(work)
        while not work.is_solved() and len(walk.moves) < limit:
            found = first_family(work)
            if found is None:
                move = self._nested(work)
                if move is None:
                    return walk
            else:
                name, hints = found
                if solution is not None:
                    for h in hints:
                        check_hint(h, solution)
                easiest = min(hints, key=lambda h: h.rating)
                top = max(walk.rating, easiest.rating)
                chosen = [h for h in hints if h.rating <= top]
                _apply(work, chosen)
                move = Move(easiest.family, easiest.rating, tuple(chosen))
            self._record(walk, move)
            self.settle(work)
        walk.solved = work.is_solved()
        return walk

    @staticmethod
    def _record(walk: Walk, move: Move) -> None:
        walk.moves.append(move)
        if walk.pattern is None or move.rating > walk.rating:
            walk.rating = move.rating
            walk.pattern = move.family

    def _nested(self, board: Board) -> Move | None:
        step = self.engine.next_step(board)
        if step is None:
            return None
        board.apply(step)
        rating = NESTED + 5 * (max(step.depth, 1) - 1)
        hint = Hint(f"nested {step.rule}", rating, tuple(step.placements),
                    tuple(step.eliminations), ())
        return Move(hint.family, rating, (hint,))
