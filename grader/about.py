"""What is installed and in use: ``--version`` of every command.

Kept cheap on purpose (no engine, no pydantic, no typer): ``grade --version``
answers in a fraction of a second.  The accelerator is looked up, not loaded
through :mod:`grader.kernel.c`; the hierarchy is read with :mod:`tomllib`; rule
plugins are listed from their entry points with the distribution that ships
each one.
"""

from __future__ import annotations

import os
import sys

from grader.core.env import accelerator_built, accelerator_disabled

DIST = "sudoku-grader"
#: the package version when the distribution metadata is not there (a bare checkout)
FALLBACK_VERSION = "0.2.0"
#: the entry-point group of rule plugins (grader.strategy.plugins.GROUP, not imported:
#: it loads the engine)
GROUP = "sudoku_grader.rules"


def _dist_infos() -> list[tuple[str, str, str]]:
    """(name, version, entry_points.txt text) of every installed distribution on
    ``sys.path``, first one of a name wins, as :mod:`importlib.metadata` sees them.

    Read straight from the ``*.dist-info`` / ``*.egg-info`` directories:
    importing :mod:`importlib.metadata` alone costs more than 0.1 s."""
    found: dict[str, tuple[str, str, str]] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for d in names:
            if not d.endswith((".dist-info", ".egg-info")):
                continue
            base = os.path.join(entry or ".", d)
            name, version = _name_version(base, d)
            key = name.lower().replace("-", "_").replace(".", "_")
            if key in found:
                continue
            try:
                with open(os.path.join(base, "entry_points.txt"), encoding="utf-8") as fh:
                    eps = fh.read()
            except OSError:
                eps = ""
            found[key] = (name, version, eps)
    return list(found.values())


def _name_version(path: str, dirname: str) -> tuple[str, str]:
    stem = dirname.rsplit(".", 1)[0]
    name, _, version = stem.partition("-")
    for meta in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(path, meta), encoding="utf-8") as fh:
                for line in fh:
                    if line.startswith("Name:"):
                        name = line[5:].strip()
                    elif line.startswith("Version:"):
                        version = line[8:].strip()
                    elif not line.strip():
                        break
            break
        except OSError:
            continue
    return name, version


def _group(text: str, group: str) -> list[tuple[str, str]]:
    """``(name, value)`` of the entries of one ``[group]`` of an entry_points.txt."""
    out: list[tuple[str, str]] = []
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            inside = line == f"[{group}]"
        elif inside and "=" in line and not line.startswith(("#", ";")):
            k, v = line.split("=", 1)
            out.append((k.strip(), v.strip()))
    return out


def version() -> str:
    for name, ver, _ in _dist_infos():
        if name.lower().replace("_", "-") == DIST:
            return ver
    return FALLBACK_VERSION


def accelerator_state() -> str:
    if not accelerator_built():
        return ("not built (pure Python, 7-15x slower: reinstall with a C compiler, "
                "e.g. apt-get install gcc)")
    if accelerator_disabled():
        return "built, disabled by SUDOKU_GRADER_PURE"
    if not accelerator_built("grader.kernel._expert"):
        return "built, enabled (the expert score's families are not built: pure Python)"
    return "built, enabled (trials, exact solver and the expert score's families)"


def hierarchy_line(path: str | None = None) -> str:
    """The hierarchy's name, source and size, read without validating it."""
    import tomllib
    from importlib import resources
    from pathlib import Path

    try:
        if path is None:
            text = resources.files("grader").joinpath("data/hierarchy.toml").read_text("utf-8")
            source = "built-in (grader/data/hierarchy.toml)"
        else:
            text = Path(path).read_text("utf-8")
            source = path
        if source.endswith(".json"):
            import json

            data = json.loads(text)
        else:
            data = tomllib.loads(text)
    except (OSError, ValueError, RecursionError) as e:
        return f"{path}: cannot read: {e}"
    if not isinstance(data, dict):
        return f"{path}: not a hierarchy table"
    rules = data.get("rules", [])
    rules = rules if isinstance(rules, list) else []
    levels = sorted({r["level"] for r in rules
                     if isinstance(r, dict) and type(r.get("level")) is int})
    extends = " extending the default" if data.get("extends") else ""
    span = (f", levels {levels[0]}-{levels[-1]}" if len(levels) > 1
            else f", level {levels[0]}" if levels else "")
    count = f"{len(rules)} rule{'' if len(rules) == 1 else 's'}"
    return f"{data.get('name', '?')}{extends}: {source}, {count}{span}"


def plugin_lines() -> list[str]:
    """``name = module:Class (distribution version)`` for each rule plugin."""
    lines = [f"{name} = {value} ({dist} {ver})"
             for dist, ver, eps in _dist_infos() for name, value in _group(eps, GROUP)]
    return sorted(lines)


def report(hierarchy: str | None = None) -> str:
    """The text of ``--version``."""
    import platform

    impl = platform.python_implementation()
    py = f"{impl} {platform.python_version()} ({sys.executable})"
    plugins = plugin_lines()
    lines = [
        f"sudoku-grader {version()}",
        f"python: {py}",
        f"accelerator: {accelerator_state()}",
        f"hierarchy: {hierarchy_line(hierarchy)}",
        f"rule plugins ({len(plugins)}):" if plugins else "rule plugins: none",
        *(f"  {p}" for p in plugins),
    ]
    from grader.core.textsafe import escape_controls

    return escape_controls("\n".join(lines))


def hierarchy_from_argv(argv: list[str]) -> str | None:
    """The ``--hierarchy FILE`` of a command line, if any."""
    for i, a in enumerate(argv):
        if a == "--":
            break
        if a == "--hierarchy" and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith("--hierarchy="):
            return a.split("=", 1)[1]
    return None
