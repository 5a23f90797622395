"""Expert score: the rating of grids that need a trial (levels 13-14) on
Sudoku Explainer's scale, by the easiest patterns and chains along an
easiest-first path.  See :mod:`grader.expert.walker`."""

from .hint import Hint, Position, length_tenths
from .walker import FAMILIES, RATED_SIZES, Move, Rater, Walk, first_family

__all__ = ["FAMILIES", "RATED_SIZES", "Hint", "Move", "Position", "Rater", "Walk",
           "first_family", "length_tenths"]
