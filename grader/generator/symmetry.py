"""Symmetries of the givens: the cells that must be given or empty together."""

from __future__ import annotations

from grader.core.geometry import Geometry

#: Symmetry names, as the ``--symmetry`` option spells them.
SYMMETRIES: tuple[str, ...] = ("none", "central", "diagonal", "mirror")


def partner(geo: Geometry, cell: int, symmetry: str) -> int:
    """The image of ``cell`` under ``symmetry`` (an involution)."""
    n = geo.n
    r, c = divmod(cell, n)
    if symmetry == "none":
        return cell
    if symmetry == "central":
        return (n - 1 - r) * n + (n - 1 - c)
    if symmetry == "diagonal":
        return c * n + r
    if symmetry == "mirror":
        return r * n + (n - 1 - c)
    raise ValueError(f"unknown symmetry {symmetry!r} (use {', '.join(SYMMETRIES)})")


def orbits(geo: Geometry, symmetry: str) -> tuple[tuple[int, ...], ...]:
    """The cells grouped into orbits (each sorted), ordered by their first cell."""
    seen = [False] * geo.ncells
    result: list[tuple[int, ...]] = []
    for cell in range(geo.ncells):
        if seen[cell]:
            continue
        other = partner(geo, cell, symmetry)
        orbit = (cell,) if other == cell else (cell, other)
        for c in orbit:
            seen[c] = True
        result.append(orbit)
    return tuple(result)


def is_symmetric(geo: Geometry, values: list[int] | tuple[int, ...], symmetry: str) -> bool:
    """True when the givens of ``values`` are closed under ``symmetry``."""
    return all(bool(values[c]) == bool(values[partner(geo, c, symmetry)])
               for c in range(geo.ncells))
