"""Semantic roles of a step's pattern mapped to styles, for every renderer.

A rule's pattern names its cells and regions by role (``target``,
``excluder``, ``base``, ``cover``, ``subset``, ``pivot``, ``region``,
``block``, ``line``, ``also``).  Renderers never look at the rule: they look
up the role here.  Unknown roles (a third-party rule's) fall back to
:data:`DEFAULT_CELL` / :data:`DEFAULT_REGION`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RoleStyle:
    """``rich``: a rich style string; ``fill``: an SVG/HTML colour; ``label``:
    the word used in legends; ``letter``: the mark of the role in text without
    colour (a pipe, a file), upper case for cells, lower case for regions."""

    rich: str
    fill: str
    label: str
    letter: str = ""


#: Cell roles (strong colours).
CELL_ROLES: dict[str, RoleStyle] = {
    "target": RoleStyle("on dark_green", "#b2f2bb", "where the value goes", "T"),
    "excluder": RoleStyle("on dark_blue", "#a5d8ff", "excludes the value", "X"),
    "base": RoleStyle("on dark_goldenrod", "#ffe066", "pattern cell", "B"),
    "subset": RoleStyle("on dark_orange3", "#ffc078", "subset cell", "S"),
    "pivot": RoleStyle("on dark_magenta", "#d0bfff", "pivot of the trial", "P"),
}
DEFAULT_CELL = RoleStyle("on grey37", "#dee2e6", "pattern cell", "C")

#: Region roles (pale tints under the cells).
REGION_ROLES: dict[str, RoleStyle] = {
    "region": RoleStyle("on grey23", "#e9ecef", "region", "r"),
    "also": RoleStyle("on grey15", "#f1f3f5", "also a region", "a"),
    "block": RoleStyle("on #3a3000", "#fff3bf", "block", "b"),
    "line": RoleStyle("on #002a40", "#d0ebff", "line", "l"),
    "base": RoleStyle("on #3a3000", "#fff3bf", "base line", "e"),
    "cover": RoleStyle("on #002a40", "#d0ebff", "cover line", "c"),
    "pivot": RoleStyle("on #2b1040", "#f3f0ff", "pivot region", "p"),
}
DEFAULT_REGION = RoleStyle("on grey19", "#f1f3f5", "region", "g")

#: Values and effects.
GIVEN = RoleStyle("bold bright_white", "#000000", "given")
PLACED = RoleStyle("bold cyan", "#1864ab", "placed earlier")
CANDIDATE = RoleStyle("grey62", "#868e96", "candidate")
PATTERN_VALUE = RoleStyle("bold bright_white", "#212529", "value of the pattern")
PLACEMENT = RoleStyle("bold black on bright_green", "#2b8a3e", "placed by this step")
ELIMINATION = RoleStyle("bold strike bright_red", "#e03131", "eliminated by this step")


def cell_style(role: str) -> RoleStyle:
    return CELL_ROLES.get(role, DEFAULT_CELL)


def region_style(role: str) -> RoleStyle:
    return REGION_ROLES.get(role, DEFAULT_REGION)
