"""Grids and records: the symbols of a grid, parsing one grid, finding the grid
on a line of text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from grader.core.board import Board
from grader.core.errors import GraderError
from grader.core.geometry import EMPTY_SYMBOLS, SYMBOLS, Geometry
from grader.core.tokens import MAX_SIDE as MAX_SIDE  # re-exported
from grader.core.tokens import MalformedGrid as MalformedGrid  # re-exported
from grader.core.tokens import parse_values
from grader.core.tokens import valid_side as valid_side  # used by the format readers

FORMATS = ("auto", "line", "nt", "block", "csv", "jsonl")
JSON_KEYS = ("puzzle", "quizzes", "grid")
_GRID_CHARS = frozenset(SYMBOLS + EMPTY_SYMBOLS)
_SPLIT = re.compile(r"[\s,;\"']+")
_BOX_CHARS = str.maketrans("", "", " \t|+-=")


class InputError(GraderError, OSError):
    """An input that cannot be opened or read at all."""


#: Malformed records show at most this many characters of what was read.
MAX_SHOWN = 2000


def _clip(text: str) -> str:
    text = text.strip()
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "..."


@dataclass(frozen=True)
class Grid:
    """A parsed grid: its geometry and values (0 for empty)."""

    geo: Geometry
    values: tuple[int, ...]

    def board(self) -> Board:
        return Board.from_values(self.geo, self.values)

    def normalised(self, empty: str = ".") -> str:
        sym = self.geo.symbols
        return "".join(sym[v - 1] if v else empty for v in self.values)

    @property
    def size(self) -> int:
        return self.geo.n

    @property
    def givens(self) -> int:
        return sum(1 for v in self.values if v)


@dataclass(frozen=True)
class Record:
    """One grid of an input, parsed or not.

    ``index`` counts records from 1 in input order; ``line`` is the 1-based
    line where the record starts; ``text`` the raw grid text; ``grid`` is
    None when ``error`` says why it could not be read."""

    index: int
    line: int
    source: str
    text: str
    grid: Grid | None
    error: str | None = None
    format: str = "line"
    extra: dict[str, str] = field(default_factory=dict)


def parse_grid_token(token: str, box: tuple[int, int] | None = None,
                     side: int | None = None) -> Grid:
    """Parse n*n symbols into a :class:`Grid` or raise :class:`MalformedGrid`."""
    return Grid(*parse_values(token, box, side))


_DROP_GRID_CHARS = str.maketrans("", "", "".join(_GRID_CHARS))


def _looks_like_grid(token: str) -> bool:
    if len(token) < 16:
        return False
    good = len(token) - len(token.translate(_DROP_GRID_CHARS))
    return good * 2 >= len(token)


def _nt_token(tokens: list[str]) -> tuple[int, str] | None:
    if len(tokens) >= 2 and len(tokens[0]) == 1 and tokens[0] in "23456":
        order = int(tokens[0])
        if len(tokens[1]) == order ** 4:
            return order, tokens[1]
    return None


def parse_line(text: str, box: tuple[int, int] | None = None,
               ) -> tuple[str, Grid | None, str | None, str]:
    """Find and parse the grid on one line: (token, grid, error, format).

    Returns an empty token and no error when the line holds no grid at all."""
    tokens = [t for t in _SPLIT.split(text.strip()) if t]
    nt = _nt_token(tokens)
    if nt is not None:
        order, tok = nt
        try:
            return tok, parse_grid_token(tok, box=box or (order, order)), None, "nt"
        except MalformedGrid as e:
            return tok, None, e.message, "nt"
    for tok in tokens:
        if _looks_like_grid(tok):
            try:
                return tok, parse_grid_token(tok, box=box), None, "line"
            except MalformedGrid as e:
                return tok, None, e.message, "line"
    return "", None, None, "line"

