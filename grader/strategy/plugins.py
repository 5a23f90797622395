"""Rule discovery through the ``sudoku_grader.rules`` entry-point group.

Built-in rules are registered exactly like third-party ones (see
``pyproject.toml``), and the engine loads rules from nowhere else.

A name registered by two packages (two plugins, or a plugin named like a
built-in rule) is never chosen silently: using it is a :class:`PluginError`
naming both packages, and a hierarchy chooses one by qualifying the name
with its package, ``plugin = "PACKAGE:NAME"`` (``sudoku-grader:fish``, the
built-in).

Listing the entry points loads nothing (:func:`entries`); a plugin is
imported only when a hierarchy names it (:func:`rule_class`), so that a
broken package the hierarchy does not use costs nothing, not even a look.
Listings of every plugin (``rules``, ``grade --list-rules``) load them all
(:func:`discover`).  A third-party plugin is imported in a thread of its
own: one that raises anything (even ``SystemExit``) or does not finish
within :data:`LOAD_SECONDS` is reported as broken, with the reason, and
never ends or hangs the command.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import EntryPoint, PackageNotFoundError, entry_points, version
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from grader.core.errors import GraderError
from grader.core.rule import BUILTIN_PACKAGES, Rule, RuleContext, distributions, package_of
from grader.kernel import families_header

if TYPE_CHECKING:
    from grader.strategy.hierarchy import Hierarchy

GROUP = "sudoku_grader.rules"
#: The entry-point group of the expert walk's pattern families (how each
#: pattern is read and drawn on the pattern path of ``explain``).
PATTERNS = "sudoku_grader.patterns"
#: A plugin whose import takes longer than this is reported as broken.
LOAD_SECONDS = 10.0


class PluginError(GraderError, LookupError):
    """A plugin that is missing or not a rule."""


@dataclass(frozen=True)
class Discovery:
    """What one look at the entry points found: rule classes by entry-point
    name, and why each plugin that failed to load did."""

    rules: Mapping[str, type[Rule]]
    broken: Mapping[str, str]


@functools.cache
def _installed() -> Any:  # EntryPoints (SelectableGroups on Python 3.11)
    """Every installed entry point, read once (a look scans every
    distribution): the rules and the pattern families are chosen from it."""
    return entry_points()


@functools.cache
def entries() -> Mapping[str, tuple[EntryPoint, ...]]:
    """Every registered rule plugin by entry-point name, **not loaded**.

    Names and values are sorted, so the choice never depends on installation
    order: a name registered twice is the first by value that loads."""
    found: dict[str, list[EntryPoint]] = {}
    for ep in sorted(_installed().select(group=GROUP), key=lambda e: (e.name, e.value)):
        found.setdefault(ep.name, []).append(ep)
    return MappingProxyType({k: tuple(v) for k, v in found.items()})


#: (name, value) -> the loaded class, or why it could not be loaded
_LOADED: dict[tuple[str, str], type[Rule] | str] = {}


def _import(ep: EntryPoint) -> object:
    """``ep.load()``; a third-party one in a thread of its own, bounded by
    :data:`LOAD_SECONDS` (PluginError: it failed, or is still loading)."""
    if ep.value.split(".")[0].split(":")[0] in BUILTIN_PACKAGES:
        return ep.load()
    box: dict[str, object] = {}

    def load() -> None:
        try:
            box["obj"] = ep.load()
        except BaseException as e:  # noqa: BLE001 - even sys.exit() is the plugin's failure
            box["error"] = e

    thread = threading.Thread(target=load, name=f"load-plugin-{ep.name}", daemon=True)
    out, sys.stdout = sys.stdout, sys.stderr  # what it prints never mixes with results
    try:
        thread.start()
        thread.join(LOAD_SECONDS)
    finally:
        sys.stdout = out
    if thread.is_alive():
        raise PluginError(f"rule plugin {ep.name!r} ({ep.value}) did not finish loading "
                          f"within {LOAD_SECONDS:g} s")
    if "error" in box:
        e = box["error"]
        what = f"{type(e).__name__}: {e}" if isinstance(e, BaseException) and not isinstance(
            e, Exception) else str(e)
        raise PluginError(f"rule plugin {ep.name!r} ({ep.value}) failed to load: {what}")
    return box.get("obj")


def load(ep: EntryPoint) -> type[Rule]:
    """The rule class of one entry point, loaded once (PluginError: broken)."""
    key = (ep.name, ep.value)
    got = _LOADED.get(key)
    if got is None:
        try:
            obj = _import(ep)
        except PluginError as e:
            got = str(e)
        except Exception as e:  # noqa: BLE001 - a broken built-in: named, not a traceback
            got = f"rule plugin {ep.name!r} ({ep.value}) failed to load: {e}"
        else:
            got = obj if isinstance(obj, type) and issubclass(obj, Rule) else (
                f"rule plugin {ep.name!r} ({ep.value}) is not a Rule subclass")
        _LOADED[key] = got
    if isinstance(got, str):
        raise PluginError(got)
    return got


@functools.cache
def pattern_families() -> Mapping[str, type]:
    """The hint name (a pattern's usual name, the walk's ``se_pattern``) ->
    the family class that presents it: every family registered under
    :data:`PATTERNS`, loaded now (sorted by entry-point name and value: a name
    two families claim is the first's).  A broken one raises PluginError."""
    found: dict[str, type] = {}
    for ep in sorted(_installed().select(group=PATTERNS), key=lambda e: (e.name, e.value)):
        try:
            cls = _import(ep)
        except PluginError:
            raise
        except Exception as e:  # noqa: BLE001 - named, not a traceback
            raise PluginError(f"pattern family {ep.name!r} ({ep.value}) failed to load: "
                              f"{e}") from None
        for name in getattr(cls, "names", ()):
            found.setdefault(name, cls)  # type: ignore[arg-type]
    return MappingProxyType(found)


@functools.cache
def declared_families() -> tuple[Mapping[str, Any], ...]:
    """The expert families declared by the modules of the
    :data:`PATTERNS` entry points (their ``FAMILIES``), each module once, in
    no particular order (each declares its place: ``order``).  Read as data,
    as setup.py reads them: the modules are not imported (a finder's is, when
    the walk first calls it in Python)."""
    out: list[Mapping[str, Any]] = []
    for module in dict.fromkeys(ep.module for ep in _installed().select(group=PATTERNS)):
        spec = importlib.util.find_spec(module)
        if spec is None or not spec.origin:
            raise PluginError(f"pattern family module {module!r} is not installed")
        try:
            out += families_header.read(Path(spec.origin))
        except (OSError, SyntaxError, ValueError) as e:
            raise PluginError(f"the expert families of {module!r} cannot be read as data "
                              f"(FAMILIES must be a literal): {e}") from None
    return tuple(out)


def discover() -> Discovery:
    """Every rule class registered in the entry-point group, by entry-point
    name, all loaded (see :func:`entries` for the order).

    A plugin that fails to load (or is not a rule) is left out and its error
    kept in :attr:`Discovery.broken`: it must not hide the others; asking for
    it by name (:func:`rule_class`) raises that error."""
    found: dict[str, type[Rule]] = {}
    broken: dict[str, str] = {}
    for name, eps in entries().items():
        try:
            found[name] = _load_first(_chosen(name, eps, None))
        except PluginError as e:
            broken[name] = str(e)
    return Discovery(MappingProxyType(found), MappingProxyType(broken))


def _load_first(eps: tuple[EntryPoint, ...]) -> type[Rule]:
    """The first of the entry points of one name that loads (else the first error)."""
    first: PluginError | None = None
    for ep in eps:
        try:
            return load(ep)
        except PluginError as e:
            first = first or e
    assert first is not None
    raise first


@functools.cache
def discovered() -> Discovery:
    """:func:`discover`, once per process (the installed plugins do not
    change while it runs).  :func:`reset` forgets it, after installing a
    plugin in a running process (tests do)."""
    return discover()


_generation = 0


def generation() -> int:
    """How many times :func:`reset` has run: what is built from the plugins
    (a shared grader) is built again when it changes."""
    return _generation


def reset() -> None:
    """Forget the cached entry points, loads and discovery, and the cached
    module-to-distribution map (:func:`grader.core.rule.package_of`): the next
    look reads the entry points again."""
    global _generation
    _generation += 1
    _installed.cache_clear()
    entries.cache_clear()
    discovered.cache_clear()
    _LOADED.clear()
    _PACKAGES.clear()
    distributions.cache_clear()


def plugins(refresh: bool = False) -> dict[str, type[Rule]]:
    """The discovered rule classes, all loaded (looked at again when ``refresh``)."""
    if refresh:
        reset()
    return dict(discovered().rules)


def rule_class(name: str) -> type[Rule]:
    """The rule class of the plugin ``name`` (or ``PACKAGE:NAME``, the plugin
    of that package): only that plugin is loaded.  A name two packages
    register, unqualified, is a :class:`PluginError` naming both."""
    package, _, bare = name.rpartition(":")
    eps = entries().get(bare)
    if eps is None:
        _installed.cache_clear()  # it may have been installed since
        entries.cache_clear()
        eps = entries().get(bare)
    if eps is None:
        known = ", ".join(sorted(entries())) or "none"
        raise PluginError(f"no rule plugin named {bare!r} in group {GROUP} (known: {known})")
    return _load_first(_chosen(bare, eps, package or None))


#: a distribution's metadata directory -> its name: reading the metadata
#: parses the whole METADATA file (about 1.5 ms each)
_PACKAGES: dict[str, str] = {}


def package_name(ep: EntryPoint) -> str:
    """The distribution that registers an entry point (as pip names it), read
    once per distribution and process (:func:`reset` forgets it)."""
    dist = getattr(ep, "dist", None)
    if dist is None:
        return "?"
    where = getattr(dist, "_path", None)
    key = str(where) if where is not None else ""
    got = _PACKAGES.get(key) if key else None
    if got is None:
        name = dist.metadata["Name"]
        got = str(name) if name else "?"
        if key:
            _PACKAGES[key] = got
    return got


def _key(package: str) -> str:
    return package.lower().replace("_", "-").replace(".", "-")


def _chosen(name: str, eps: tuple[EntryPoint, ...], package: str | None) -> tuple[EntryPoint, ...]:
    """The entry points of ``name`` to load: those of ``package`` when given;
    else all of them when one package registers the name, a clash otherwise."""
    if package is not None:
        mine = tuple(ep for ep in eps if _key(package_name(ep)) == _key(package))
        if not mine:
            have = ", ".join(sorted({package_name(ep) for ep in eps}))
            raise PluginError(f"no rule plugin {name!r} in the package {package!r} "
                              f"(registered by: {have})")
        return mine
    if len(eps) == 1:
        return eps  # one entry point: no clash, and no metadata to read
    owners = sorted({package_name(ep) for ep in eps})
    if len(owners) > 1:
        both = " and ".join(f"{package_name(ep)} ({ep.value})" for ep in eps)
        raise PluginError(
            f"rule plugin {name!r} is registered by more than one package: {both}; "
            f"choose one in your hierarchy, e.g. plugin = \"{owners[0]}:{name}\" "
            f"(see docs/plugins.md)")
    return eps


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
        cls, why = _listed(spec.plugin, found, broken)
        if cls is None:
            rows.append(RuleInfo(spec.plugin, spec.code, spec.level, spec.name or spec.code,
                                 "", "?", "?", False, why))
            continue
        used.add(spec.plugin.rpartition(":")[2])
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


def _listed(plugin: str, found: Mapping[str, type[Rule]],
            broken: Mapping[str, str]) -> tuple[type[Rule] | None, str]:
    """The class a hierarchy's ``plugin`` names (a qualified name chooses among
    the packages of a clash), or None and why."""
    if ":" in plugin:
        try:
            return rule_class(plugin), ""
        except PluginError as e:
            return None, str(e)
    cls = found.get(plugin)
    return cls, "" if cls is not None else broken.get(plugin,
                                                       f"no rule plugin named {plugin!r}")


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
