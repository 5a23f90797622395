"""The solution paths a page can follow, by name: the hook for a second path.

``book`` is the minimal-level strategy of ``explain`` (always the easiest
rule that makes progress).  A path is a function that makes the
:class:`~grader.explainer.core.Walkthrough` of a position; the page lists every
path here and the explain request names one (``path`` in the API).  The
``pattern`` path (the easiest named pattern first) is announced and not built
yet: to add it, give its entry a ``make`` function (in this module, so that
the worker processes know it too) -- nothing else of the server changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

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

    return walkthrough(board, engine, givens=givens, max_level=max_level)


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


PATHS: dict[str, PathSpec] = {
    "book": PathSpec("Book path", "the minimal-level strategy: always the easiest rule of "
                     "the hierarchy that makes progress", book_path),
    "pattern": PathSpec("Pattern path", "the easiest named pattern first (not built yet)"),
}
DEFAULT_PATH = "book"
