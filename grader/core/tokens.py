"""One grid token (n*n symbols) to values: below :mod:`grader.core.board` and
:mod:`grader.formats`, which both read one (``Board.from_string``,
``parse_grid_token``) without importing each other."""

from __future__ import annotations

from functools import cache
from math import isqrt

from grader.core.errors import GraderError
from grader.core.geometry import EMPTY_SYMBOLS, SYMBOLS, Geometry, default_box, geometry

MAX_SIDE = len(SYMBOLS)


class MalformedGrid(GraderError, ValueError):
    """A grid that cannot be read: wrong length or symbol."""

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


def valid_side(n: int) -> bool:
    if n < 4 or n > MAX_SIDE:
        return False
    a, _ = default_box(n)
    return a >= 2


def _expected_lengths() -> str:
    return ", ".join(str(n * n) for n in (4, 6, 8, 9, 12, 16, 25))


def parse_values(token: str, box: tuple[int, int] | None = None,
                 side: int | None = None) -> tuple[Geometry, tuple[int, ...]]:
    """The geometry and values (0 for empty) of n*n symbols, or
    :class:`MalformedGrid` naming what is wrong."""
    length = len(token)
    n = side if side is not None else isqrt(length)
    if n * n != length or not valid_side(n):
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
        return geo, tuple([lookup[ch] for ch in token])
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
    return geo, tuple(values)


@cache
def _lookup(n: int) -> dict[str, int]:
    t = {ch: 0 for ch in EMPTY_SYMBOLS}
    for v in range(1, n + 1):
        t[SYMBOLS[v - 1]] = v
        if SYMBOLS[v - 1].isalpha():
            t[SYMBOLS[v - 1].lower()] = v
    return t
