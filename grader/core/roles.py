"""The vocabulary of pattern roles: what a cell or region does in a step.

A rule's :class:`~grader.core.steps.Pattern` names its cells and regions by role;
every renderer (text grid, SVG, HTML legend) looks the role up here, never at
the rule.  The built-in roles are :class:`Role`; a plugin adds its own with
:func:`add_role` (or the ``roles`` class attribute of its rule), giving each a
colour and the words of the legend.  This module depends on nothing else of
the package, so rules can use it without pulling in the explanations.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal


class Role(StrEnum):
    """The roles the built-in rules use."""

    TARGET = "target"        # where a value goes
    EXCLUDER = "excluder"    # a placed value that excludes others
    BASE = "base"            # a pattern cell, or a fish's base line
    SUBSET = "subset"        # a cell of a naked or hidden subset
    PIVOT = "pivot"          # the pivot of a trial
    REGION = "region"        # the region a step is about
    ALSO = "also"            # another region the same step holds in
    BLOCK = "block"          # the block of a candidate-lines step
    LINE = "line"            # the line of a candidate-lines step
    COVER = "cover"          # a fish's cover line
    FULL_HOUSE = "full-house"  # the unit a full house completes


Kind = Literal["cell", "region"]


@dataclass(frozen=True)
class RoleStyle:
    """``rich``: a rich style string; ``fill``: an SVG/HTML colour; ``label``:
    the words used in legends; ``letter``: the mark of the role in text without
    colour (a pipe, a file), upper case for cells, lower case for regions."""

    rich: str
    fill: str
    label: str
    letter: str = ""


class RoleClash(ValueError):
    """Two packages gave the same role different styles."""


#: Cell roles (strong colours).
CELL_ROLES: dict[str, RoleStyle] = {
    Role.TARGET: RoleStyle("on dark_green", "#b2f2bb", "where the value goes", "T"),
    Role.EXCLUDER: RoleStyle("on dark_blue", "#a5d8ff", "excludes the value", "X"),
    Role.BASE: RoleStyle("on dark_goldenrod", "#ffe066", "pattern cell", "B"),
    Role.SUBSET: RoleStyle("on dark_orange3", "#ffc078", "subset cell", "S"),
    Role.PIVOT: RoleStyle("on dark_magenta", "#d0bfff", "pivot of the trial", "P"),
}

#: Region roles (pale tints under the cells).
REGION_ROLES: dict[str, RoleStyle] = {
    Role.REGION: RoleStyle("on grey23", "#e9ecef", "region", "r"),
    Role.ALSO: RoleStyle("on grey15", "#f1f3f5", "also a region", "a"),
    Role.FULL_HOUSE: RoleStyle("on grey23", "#e9ecef", "full house", "h"),
    Role.BLOCK: RoleStyle("on #3a3000", "#fff3bf", "block", "b"),
    Role.LINE: RoleStyle("on #002a40", "#d0ebff", "line", "l"),
    Role.BASE: RoleStyle("on #3a3000", "#fff3bf", "base line", "e"),
    Role.COVER: RoleStyle("on #002a40", "#d0ebff", "cover line", "c"),
    Role.PIVOT: RoleStyle("on #2b1040", "#f3f0ff", "pivot region", "p"),
}

#: Colours cycled through for roles added without one.
_PALETTE = (("on dark_red", "#ffc9c9"), ("on dark_cyan", "#99e9f2"),
            ("on purple4", "#eebefa"), ("on dark_olive_green3", "#d8f5a2"),
            ("on orange4", "#ffd8a8"), ("on deep_sky_blue4", "#a5d8ff"))


def add_role(name: str, label: str, *, kind: Kind = "cell", fill: str | None = None,
             rich: str | None = None, letter: str | None = None) -> RoleStyle:
    """Add a role to the vocabulary: ``label`` is the legend's text, ``fill``
    an HTML colour (``#rrggbb``), ``rich`` a rich style for the terminal.
    Adding a role again with the same style is harmless; with another style
    it raises :class:`RoleClash` (the first style stays)."""
    table = CELL_ROLES if kind == "cell" else REGION_ROLES
    if fill is None or rich is None:
        base_rich, base_fill = _PALETTE[len(table) % len(_PALETTE)]
        fill = fill or base_fill
        rich = rich or base_rich
    if letter is None:
        first = name[:1].upper() if kind == "cell" else name[:1].lower()
        taken = {s.letter for s in table.values()}
        letter = first if first and first not in taken else ("C" if kind == "cell" else "g")
    style = RoleStyle(rich, fill, label, letter)
    known = table.get(name)
    if known is not None and known != style:
        raise RoleClash(f"the {kind} role {name!r} is already defined as {known.label!r} "
                        f"({known.fill}); choose another role name")
    table[name] = style
    return style


def cell_style(role: str) -> RoleStyle:
    """The style of a cell role; an unknown role is grey, labelled by its name."""
    return CELL_ROLES.get(role) or RoleStyle("on grey37", "#dee2e6", role, "C")


def region_style(role: str) -> RoleStyle:
    """The style of a region role; an unknown role is pale grey, labelled by its name."""
    return REGION_ROLES.get(role) or RoleStyle("on grey19", "#f1f3f5", f"{role} region", "g")
