"""Grids and records: the symbols of a grid, parsing one grid, finding the grid
on a line of text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from math import isqrt

from ..board import Board
from ..errors import GraderError
from ..geometry import EMPTY_SYMBOLS, SYMBOLS, Geometry, default_box, geometry

FORMATS = ("auto", "line", "nt", "block", "csv", "jsonl")
JSON_KEYS = ("puzzle", "quizzes", "grid")
MAX_SIDE = len(SYMBOLS)
_GRID_CHARS = frozenset(SYMBOLS + EMPTY_SYMBOLS)
_SPLIT = re.compile(r"[\s,;\"']+")
_BOX_CHARS = str.maketrans("", "", " \t|+-=")


class MalformedGrid(GraderError, ValueError):
    """A grid that cannot be read: wrong length or symbol."""

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


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


def _valid_side(n: int) -> bool:
    if n < 4 or n > MAX_SIDE:
        return False
    a, _ = default_box(n)
    return a >= 2


def _expected_lengths() -> str:
    return ", ".join(str(n * n) for n in (4, 6, 8, 9, 12, 16, 25))


def parse_grid_token(token: str, box: tuple[int, int] | None = None,
                     side: int | None = None) -> Grid:
    """Parse n*n symbols into a :class:`Grid` or raise :class:`MalformedGrid`."""
    length = len(token)
    n = side if side is not None else isqrt(length)
    if n * n != length or not _valid_side(n):
        if box is not None:
            want = (box[0] * box[1]) ** 2
            raise MalformedGrid(
                f"{length} symbols, expected {want} for a {box[0] * box[1]}x{box[0] * box[1]} grid")
        raise MalformedGrid(
            f"{length} symbols: a grid has n*n symbols ({_expected_lengths()}, ...)")
    if box is not None:
        a, b = box
        if a * b != n:
            raise MalformedGrid(f"a {n}x{n} grid does not have {a}x{b} blocks")
    else:
        a, b = default_box(n)
    geo = geometry(a, b)
    lookup = _lookup(n)
    try:
        return Grid(geo, tuple([lookup[ch] for ch in token]))
    except KeyError:
        pass  # find and name the first bad symbol
    values = []
    for i, ch in enumerate(token):
        v = lookup.get(ch)
        if v is None:
            raise MalformedGrid(
                f"symbol {ch!r} at position {i + 1} (row {i // n + 1}, column {i % n + 1}) "
                f"is not valid in a {n}x{n} grid (use {geo.symbols[0]}-{geo.symbols[-1]}, "
                f"and . or 0 for empty)", position=i + 1)
        values.append(v)
    return Grid(geo, tuple(values))


_LOOKUPS: dict[int, dict[str, int]] = {}


def _lookup(n: int) -> dict[str, int]:
    t = _LOOKUPS.get(n)
    if t is None:
        t = {ch: 0 for ch in EMPTY_SYMBOLS}
        for v in range(1, n + 1):
            t[SYMBOLS[v - 1]] = v
            if SYMBOLS[v - 1].isalpha():
                t[SYMBOLS[v - 1].lower()] = v
        _LOOKUPS[n] = t
    return t


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

