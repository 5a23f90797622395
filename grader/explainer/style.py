"""Semantic roles of a step's pattern mapped to styles, for every renderer.

A rule's pattern names its cells and regions by role (``target``,
``excluder``, ``base``, ``cover``, ``subset``, ``pivot``, ``region``,
``block``, ``line``, ``also``, ``full-house``).  Renderers never look at the rule: they look
up the role here.  The role vocabulary itself lives in :mod:`grader.core.roles` (a plugin's roles
are declared by its rule); an unknown role is drawn grey and labelled by its name.
"""

from __future__ import annotations

from grader.core.roles import (
    CELL_ROLES,
    REGION_ROLES,
    Role,
    RoleStyle,
    cell_style,
    region_style,
)

__all__ = ["CELL_ROLES", "REGION_ROLES", "Role", "RoleStyle", "cell_style",
           "region_style", "DEFAULT_CELL", "DEFAULT_REGION", "GIVEN", "PLACED", "CANDIDATE",
           "PATTERN_VALUE", "LINKED", "PLACEMENT", "ELIMINATION"]


DEFAULT_CELL = RoleStyle("on grey37", "#dee2e6", "pattern cell", "C")
DEFAULT_REGION = RoleStyle("on grey19", "#f1f3f5", "region", "g")

#: Values and effects.
GIVEN = RoleStyle("bold bright_white", "#000000", "given")
PLACED = RoleStyle("bold cyan", "#1864ab", "placed earlier")
CANDIDATE = RoleStyle("grey62", "#868e96", "candidate")
PATTERN_VALUE = RoleStyle("bold bright_white", "#212529", "value of the pattern")
PLACEMENT = RoleStyle("bold black on bright_green", "#2b8a3e", "placed by this step")
#: A candidate at an end of a pattern's link, and the links themselves (a
#: strong link drawn solid, a weak one dashed).
LINKED = RoleStyle("bold bright_yellow", "#1c7ed6", "linked candidate")
ELIMINATION = RoleStyle("bold strike bright_red", "#e03131", "eliminated by this step")
