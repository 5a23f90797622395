"""The vocabulary of pattern roles: what a cell or region does in a step.

A rule's :class:`~grader.core.steps.Pattern` names its cells and regions by role;
every renderer (text grid, SVG, HTML legend) looks the role up here.  The
built-in roles are :class:`Role`; a plugin declares its own in the ``roles``
class attribute of its rule, giving each a colour and the words of the
legend, and renderers read them from the step's technique: nothing is
registered anywhere, so no installed package and no import order changes
another's styles.  This module depends on nothing else of the package.
"""

from __future__ import annotations

import functools
import zlib
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal


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

#: Colours for a technique's roles declared without one (the same role name
#: always gets the same colour, whatever else is installed).
_PALETTE = (("on dark_red", "#ffc9c9"), ("on dark_cyan", "#99e9f2"),
            ("on purple4", "#eebefa"), ("on dark_olive_green3", "#d8f5a2"),
            ("on orange4", "#ffd8a8"), ("on deep_sky_blue4", "#a5d8ff"))


@functools.cache
def declared(technique: Any) -> tuple[dict[str, RoleStyle], dict[str, RoleStyle]]:
    """The (cell, region) roles a technique declares in its ``roles`` class
    attribute: ``{"pincer": "pincer of the wing"}`` or with colours
    ``{"pincer": ("pincer of the wing", "#ffd8a8", "on orange4")}``; a region
    role's name starts with ``region:``.  A built-in role keeps its style."""
    cells: dict[str, RoleStyle] = {}
    regions: dict[str, RoleStyle] = {}
    for name, spec in (getattr(technique, "roles", None) or {}).items():
        label, fill, rich = (spec, None, None) if isinstance(spec, str) else (
            tuple(spec) + (None, None))[:3]
        kind, role = ("region", name.removeprefix("region:")) if name.startswith(
            "region:") else ("cell", name)
        builtin, table = (REGION_ROLES, regions) if kind == "region" else (CELL_ROLES, cells)
        if role in builtin:
            continue
        base_rich, base_fill = _PALETTE[zlib.crc32(role.encode()) % len(_PALETTE)]
        taken = {st.letter for st in (*builtin.values(), *table.values())}
        first = role[:1].upper() if kind == "cell" else role[:1].lower()
        letter = first if first and first not in taken else ("C" if kind == "cell" else "g")
        table[role] = RoleStyle(rich or base_rich, fill or base_fill, str(label), letter)
    return cells, regions


def cell_style(role: str, technique: Any = None) -> RoleStyle:
    """The style of a cell role: a built-in one, or one ``technique`` (the
    class of the step's rule) declares; an unknown role is grey, labelled by
    its name.  A role the technique declares comes first (a wing's pivot is
    not a trial's)."""
    return (declared(technique)[0].get(role) or CELL_ROLES.get(role)
            or RoleStyle("on grey37", "#dee2e6", role, "C"))


def region_style(role: str, technique: Any = None) -> RoleStyle:
    """The style of a region role (see :func:`cell_style`); an unknown role is
    pale grey, labelled by its name."""
    return (declared(technique)[1].get(role) or REGION_ROLES.get(role)
            or RoleStyle("on grey19", "#f1f3f5", f"{role} region", "g"))
