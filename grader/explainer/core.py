"""The solution path of one position, with the board before every step."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from grader.core.board import Board
from grader.core.errors import GraderError
from grader.core.prints import rules_print_to_stderr
from grader.core.steps import Step
from grader.explainer.choices import DEFAULT_PATH
from grader.explainer.history import History
from grader.explainer.names import shown_level
from grader.formats import Grid, parse_grid_token
from grader.strategy.engine import Engine
from grader.strategy.hierarchy import Hierarchy


class ExplainError(GraderError, ValueError):
    """A position that cannot be explained (invalid grid, bad pencil marks)."""


class UsageError(ExplainError):
    """An option that cannot be read (e.g. ``--moves`` syntax)."""


@dataclass
class Walkthrough:
    """The minimal-level strategy on one position, computed lazily.

    ``start``: the starting board (never mutated).  ``givens``: cells drawn
    as givens.  Steps are computed on demand (:meth:`step`, :meth:`ensure`,
    iteration) and the board *before* each step is kept, so a renderer can
    draw the position each step starts from.  Each step carries the numbers
    of the earlier steps that removed the candidates it relies on
    (``removed_by``, see :mod:`grader.explainer.history`), so its text can
    name them."""

    start: Board
    engine: Engine
    givens: frozenset[int] = frozenset()
    max_level: int | None = None
    #: ``book`` (the minimal-level strategy) or ``patterns`` (the expert
    #: walk's patterns where the book's rules 1-12 stop, see
    #: :mod:`grader.explainer.patterns`)
    path: str = DEFAULT_PATH
    steps: list[Step] = field(default_factory=list)
    _before: list[Board] = field(default_factory=list, repr=False)
    _work: Board | None = field(default=None, repr=False)
    _gen: Iterator[Step] | None = field(default=None, repr=False)
    _done: bool = field(default=False, repr=False)
    _history: History | None = field(default=None, repr=False)

    def _advance(self) -> bool:
        if self._done:
            return False
        if self._gen is None:
            self._work = self.start.copy()
            if self.path == "patterns":
                from grader.explainer.patterns import pattern_steps

                self._gen = pattern_steps(self._work, self.engine, self.max_level)
            else:
                self._gen = self.engine.steps(self._work, self.max_level)
        assert self._work is not None
        before = self._work.copy()
        try:
            with rules_print_to_stderr():  # a plugin's print never mixes with the output
                step = next(self._gen)
        except StopIteration:
            self._done = True
            return False
        if self._history is None:
            self._history = History(self.start)
        step = self._history.annotate(len(self.steps) + 1, step, before)
        self.steps.append(step)
        self._before.append(before)
        return True

    def ensure(self, count: int | None = None) -> int:
        """Compute steps until ``count`` exist (all when None); how many exist."""
        while (count is None or len(self.steps) < count) and self._advance():
            pass
        return len(self.steps)

    def step(self, i: int) -> Step | None:
        """Step ``i`` (0-based), or None past the end."""
        self.ensure(i + 1)
        return self.steps[i] if i < len(self.steps) else None

    def before(self, i: int) -> Board:
        """The board before step ``i`` (0-based); past the end, the final board."""
        self.ensure(i + 1)
        if i < len(self._before):
            return self._before[i]
        return self.final()

    def final(self) -> Board:
        self.ensure()
        return self._work.copy() if self._work is not None else self.start.copy()

    @property
    def complete(self) -> bool:
        """Whether every step has been computed."""
        return self._done

    def solved(self) -> bool:
        return self.final().is_solved()

    def level(self) -> int:
        """The highest level the steps show (see
        :func:`grader.explainer.names.shown_level`): on the book path, the
        grid's canonical level, the one ``grade`` gives."""
        self.ensure()
        return max((shown_level(s) for s in self.steps), default=0)

    def depth(self) -> int:
        """The deepest nesting of the steps; a pattern (on the pattern path)
        is a trial in disguise, of depth 1: the grid's canonical depth, the
        one ``grade`` gives."""
        self.ensure()
        levels = self.engine.trial_levels
        first = levels[0] if levels else None
        return max((s.depth or (1 if first is not None and shown_level(s) >= first else 0)
                    for s in self.steps), default=0)

    def __iter__(self) -> Iterator[tuple[int, Board, Step]]:
        """``(number, board before, step)``, numbers from 1."""
        i = 0
        while True:
            step = self.step(i)
            if step is None:
                return
            yield i + 1, self._before[i], step
            i += 1


def walkthrough(board: Board, engine: Engine | None = None,
                givens: frozenset[int] | None = None,
                max_level: int | None = None, path: str = DEFAULT_PATH) -> Walkthrough:
    """A lazy :class:`Walkthrough` of ``board`` (copied) along ``path``."""
    start = board.copy()
    if givens is None:
        givens = frozenset(c for c, v in enumerate(start.values) if v)
    return Walkthrough(start=start, engine=engine or Engine(), givens=givens,
                       max_level=max_level, path=path)


def explain_grid(grid: str | Grid | Board, hierarchy: Hierarchy | None = None,
                 max_level: int | None = None) -> list[Step]:
    """Every step of the minimal-level strategy on ``grid``.

    ``grid``: a one-line grid (any size), a parsed :class:`~grader.formats.Grid`
    or a :class:`~grader.core.board.Board` (for instance with pencil marks).
    Grids are checked first: a grid without exactly one solution raises
    :class:`ExplainError` with the verdict."""
    from grader.strategy.grading import Grader

    engine = Engine(hierarchy)
    if isinstance(grid, Board):
        board = grid.copy()
    else:
        if isinstance(grid, str):
            grid = parse_grid_token(grid.strip())
        grader = Grader(hierarchy)
        verdict, message, _ = grader.verdict(grid)
        if verdict != "ok":
            raise ExplainError(f"{verdict}: {message}")
        board = Board.from_values(grid.geo, grid.values)
    wt = walkthrough(board, engine, max_level=max_level)
    wt.ensure()
    return list(wt.steps)
