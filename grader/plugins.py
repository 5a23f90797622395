"""Rule discovery through the ``sudoku_grader.rules`` entry-point group.

Built-in rules are registered exactly like third-party ones (see
``pyproject.toml``), and the engine loads rules from nowhere else.
"""

from __future__ import annotations

from importlib.metadata import entry_points

from .rule import Rule

GROUP = "sudoku_grader.rules"


class PluginError(LookupError):
    """A plugin that is missing or not a rule."""


def discover() -> dict[str, type[Rule]]:
    """Every rule class registered in the entry-point group, by entry-point name.

    Names are sorted, so discovery order never depends on installation order."""
    found: dict[str, type[Rule]] = {}
    for ep in sorted(entry_points(group=GROUP), key=lambda e: (e.name, e.value)):
        if ep.name in found:
            continue
        try:
            obj = ep.load()
        except Exception as e:  # a broken third-party plugin must not hide the others
            raise PluginError(f"rule plugin {ep.name!r} ({ep.value}) failed to load: {e}") from e
        if not (isinstance(obj, type) and issubclass(obj, Rule)):
            raise PluginError(f"rule plugin {ep.name!r} ({ep.value}) is not a Rule subclass")
        found[ep.name] = obj
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
    if name not in table:
        known = ", ".join(sorted(table)) or "none"
        raise PluginError(f"no rule plugin named {name!r} in group {GROUP} (known: {known})")
    return table[name]
