"""The solution paths a page can follow, by name, as ``explain --path``.

``patterns`` (the default, as for ``explain``): the book's rules 1-12, then
where they stop the patterns the expert walk finds (skyscraper, XY-Wing,
chains ...), see :mod:`grader.explainer.patterns`.  ``book``: the
minimal-level strategy (always the easiest rule that makes progress, trials
at levels 13-14).  A path is a function that makes the
:class:`~grader.explainer.core.Walkthrough` of a position; the page lists every
path here and the explain request names one (``path`` in the API).  A new
path is an entry with a ``make`` function (in this module, so that the worker
processes know it too) -- nothing else of the server changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from grader.explainer.choices import DEFAULT_PATH
from grader.explainer.choices import PATHS as EXPLAIN_PATHS

if TYPE_CHECKING:
    from grader.core.board import Board
    from grader.explainer.core import Walkthrough
    from grader.strategy.engine import Engine

#: (board, givens, engine, max_level) -> the lazy walkthrough of the position
MakePath = Callable[["Board", frozenset[int], "Engine", "int | None"], "Walkthrough"]


def book_path(board: Board, givens: frozenset[int], engine: Engine,
              max_level: int | None) -> Walkthrough:
    """The book's path: the minimal-level strategy, as ``explain`` gives it."""
    from grader.explainer import walkthrough

    return walkthrough(board, engine, givens=givens, max_level=max_level, path="book")


def pattern_path(board: Board, givens: frozenset[int], engine: Engine,
                 max_level: int | None) -> Walkthrough:
    """The pattern path, as ``explain --path patterns`` gives it."""
    from grader.explainer import walkthrough

    return walkthrough(board, engine, givens=givens, max_level=max_level, path="patterns")


@dataclass(frozen=True)
class PathSpec:
    """A path a page can follow: its label, what it is, how it is made
    (None: announced, not built yet)."""

    label: str
    description: str
    make: MakePath | None = None

    @property
    def available(self) -> bool:
        return self.make is not None


#: the paths of ``explain --path`` (:data:`grader.explainer.choices.PATHS`, in its
#: order), each with its label and how it is made
PATHS: dict[str, PathSpec] = dict(zip(EXPLAIN_PATHS, (
    PathSpec("Pattern path", "the book's rules 1-12, then the patterns players "
             "use (skyscraper, XY-Wing, chains ...) with their value on Sudoku "
             "Explainer's scale", pattern_path),
    PathSpec("Book path", "the minimal-level strategy: always the easiest rule of "
             "the hierarchy that makes progress", book_path)), strict=True))

__all__ = ["DEFAULT_PATH", "PATHS", "MakePath", "PathSpec", "book_path", "pattern_path"]
