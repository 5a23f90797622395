"""Rule discovery through the ``sudoku_grader.rules`` entry-point group.

Built-in rules are registered exactly like third-party ones (see
``pyproject.toml``), and the engine loads rules from nowhere else.
"""

from __future__ import annotations

from importlib.metadata import entry_points

from .errors import GraderError
from .rule import Rule

GROUP = "sudoku_grader.rules"


class PluginError(GraderError, LookupError):
    """A plugin that is missing or not a rule."""


#: Plugins that failed to load at the last discovery: name -> why.
broken: dict[str, str] = {}


def discover() -> dict[str, type[Rule]]:
    """Every rule class registered in the entry-point group, by entry-point name.

    Names are sorted, so discovery order never depends on installation order.
    A plugin that fails to load (or is not a rule) is left out and its error
    kept in :data:`broken`: it must not hide the others; asking for it by
    name (:func:`rule_class`) raises that error."""
    found: dict[str, type[Rule]] = {}
    broken.clear()
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
    return found


_cache: dict[str, type[Rule]] | None = None


def plugins(refresh: bool = False) -> dict[str, type[Rule]]:
    """Cached :func:`discover`."""
    global _cache
    if _cache is None or refresh:
        _cache = discover()
    return _cache


def rule_class(name: str) -> type[Rule]:
    table = plugins()
    if name not in table:
        table = plugins(refresh=True)
    if name not in table and name in broken:
        raise PluginError(broken[name])
    if name not in table:
        known = ", ".join(sorted(table)) or "none"
        raise PluginError(f"no rule plugin named {name!r} in group {GROUP} (known: {known})")
    return table[name]
