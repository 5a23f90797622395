"""Rule discovery through the ``sudoku_grader.rules`` entry-point group.

Built-in rules are registered exactly like third-party ones (see
``pyproject.toml``), and the engine loads rules from nowhere else.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, entry_points, version
from types import MappingProxyType
from typing import TYPE_CHECKING

from .errors import GraderError
from .rule import Rule, RuleContext, _distributions, package_of

if TYPE_CHECKING:
    from .hierarchy import Hierarchy

GROUP = "sudoku_grader.rules"


class PluginError(GraderError, LookupError):
    """A plugin that is missing or not a rule."""


@dataclass(frozen=True)
class Discovery:
    """What one look at the entry points found: rule classes by entry-point
    name, and why each plugin that failed to load did."""

    rules: Mapping[str, type[Rule]]
    broken: Mapping[str, str]


def discover() -> Discovery:
    """Every rule class registered in the entry-point group, by entry-point name.

    Names are sorted, so discovery order never depends on installation order.
    A plugin that fails to load (or is not a rule) is left out and its error
    kept in :attr:`Discovery.broken`: it must not hide the others; asking for
    it by name (:func:`rule_class`) raises that error.  No state is kept:
    :func:`discovered` is the cached one."""
    found: dict[str, type[Rule]] = {}
    broken: dict[str, str] = {}
    for ep in sorted(entry_points(group=GROUP), key=lambda e: (e.name, e.value)):
        if ep.name in found:
            continue
        try:
            obj = ep.load()
        except Exception as e:  # a broken third-party plugin must not hide the others
            broken[ep.name] = f"rule plugin {ep.name!r} ({ep.value}) failed to load: {e}"
            continue
        if not (isinstance(obj, type) and issubclass(obj, Rule)):
            broken[ep.name] = f"rule plugin {ep.name!r} ({ep.value}) is not a Rule subclass"
            continue
        found[ep.name] = obj
        broken.pop(ep.name, None)
    return Discovery(MappingProxyType(found), MappingProxyType(broken))


@functools.cache
def discovered() -> Discovery:
    """:func:`discover`, once per process (the installed plugins do not
    change while it runs).  :func:`reset` forgets it, after installing a
    plugin in a running process (tests do)."""
    return discover()


def reset() -> None:
    """Forget the cached discovery and the cached module-to-distribution map
    (:func:`grader.rule.package_of`): the next look reads the entry points again."""
    discovered.cache_clear()
    _distributions.cache_clear()


def plugins(refresh: bool = False) -> dict[str, type[Rule]]:
    """The discovered rule classes (looked at again when ``refresh``)."""
    if refresh:
        reset()
    return dict(discovered().rules)


def rule_class(name: str) -> type[Rule]:
    found = discovered()
    if name not in found.rules:
        reset()  # it may have been installed since
        found = discovered()
    if name not in found.rules and name in found.broken:
        raise PluginError(found.broken[name])
    if name not in found.rules:
        known = ", ".join(sorted(found.rules)) or "none"
        raise PluginError(f"no rule plugin named {name!r} in group {GROUP} (known: {known})")
    return found.rules[name]


@dataclass(frozen=True)
class RuleInfo:
    """One row of ``python -m grader rules``: a rule of a hierarchy, or an
    installed rule plugin the hierarchy does not use, or a broken one."""

    plugin: str
    code: str | None
    level: int | None
    name: str
    family: str
    package: str
    version: str
    accelerated: bool
    error: str | None = None


def rule_table(hierarchy: Hierarchy) -> list[RuleInfo]:
    """Every rule of ``hierarchy`` (by level), then every other installed
    rule plugin, then every plugin that failed to load, with its error."""
    reset()
    found, broken = discovered().rules, discovered().broken
    rows: list[RuleInfo] = []
    used: set[str] = set()
    for spec in hierarchy.ordered():
        cls = found.get(spec.plugin)
        if cls is None:
            why = broken.get(spec.plugin, f"no rule plugin named {spec.plugin!r}")
            rows.append(RuleInfo(spec.plugin, spec.code, spec.level, spec.name or spec.code,
                                 "", "?", "?", False, why))
            continue
        used.add(spec.plugin)
        rule = cls(spec, RuleContext())
        rows.append(_info(spec.plugin, cls, spec.code, spec.level, rule.name,
                          rule.accelerated() is not None))
    for name, cls in sorted(found.items()):
        if name not in used:
            rows.append(_info(name, cls, None, None, cls.default_name or name, False))
    for name, why in sorted(broken.items()):
        if name not in used:
            rows.append(RuleInfo(name, None, None, name, "", "?", "?", False, why))
    return rows


def _info(plugin: str, cls: type[Rule], code: str | None, level: int | None, name: str,
          accelerated: bool) -> RuleInfo:
    package = package_of(cls.__module__)
    return RuleInfo(plugin, code, level, name, cls.family, package, _version(package),
                    accelerated)


def _version(package: str) -> str:
    try:
        return version(package)
    except PackageNotFoundError:
        return "?"
