"""``rules``: the rules available, where they sit in the hierarchy in use,
where they come from, and the plugins that failed to load."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table

from grader.cli.common import (
    EXIT_NOT_OK,
    EXIT_OK,
    choices,
    hierarchy_option,
    listed,
    metavar,
    out,
    renamed,
)
from grader.core.terminal import SafeConsole as Console
from grader.strategy.hierarchy import Hierarchy
from grader.strategy.plugins import RuleInfo, rule_table

#: ``rules --format``: the table as text, or JSON Lines (one object per rule)
RULES_FORMATS: tuple[str, ...] = ("text", "json")
#: old names, still accepted (not listed)
RULES_FORMAT_ALIASES = {"table": "text"}

if TYPE_CHECKING:
    RulesFormat = str
else:
    RulesFormat = choices("RulesFormat", RULES_FORMATS, RULES_FORMAT_ALIASES)


def rules_command(
    hierarchy: Annotated[Path | None, typer.Option(
        "--hierarchy", metavar="FILE",
        help="A hierarchy table (TOML or JSON) instead of the book's.")] = None,
    output_format: Annotated[RulesFormat, typer.Option(
        "--format", "-f", metavar=metavar(RULES_FORMATS),
        callback=renamed("--format", RULES_FORMAT_ALIASES),
        autocompletion=listed(RULES_FORMATS),
        help="text (a table) or json (one object per rule).")] = RULES_FORMATS[0],
) -> None:
    """List every rule: its level in the hierarchy in use, code, family, the
    package and version it comes from, whether the C accelerator runs it
    inside trials; then installed rule plugins the hierarchy does not use,
    and plugins that failed to load, with their error.

    Exit status 1 when a rule of the hierarchy is missing or broken."""
    h = hierarchy_option(hierarchy)
    raise typer.Exit(list_rules(h, str(output_format)))


def list_rules(h: Hierarchy, fmt: str = RULES_FORMATS[0]) -> int:
    """``rules`` and ``grade --list-rules``: the listing, and the exit status
    both give (1 when a rule of the hierarchy is missing or broken, else 0)."""
    rows = rule_table(h)
    if fmt == "json":
        for r in rows:
            out.print(json.dumps(asdict(r)), markup=False, highlight=False)
    else:
        print_rules(rows, h.name)
    return EXIT_NOT_OK if any(r.error and r.code is not None for r in rows) else EXIT_OK


def print_rules(rows: list[RuleInfo], name: str) -> None:
    """The table on standard output: the terminal's width, or 120 columns in
    a pipe or a file, so that codes and packages are never cut."""
    if out.is_terminal:
        out.print(render_rules(rows, name))
    else:
        Console(width=120, highlight=False, no_color=out.no_color, emoji=False,
                force_terminal=False).print(render_rules(rows, name))


def render_rules(rows: list[RuleInfo], name: str) -> Table:
    t = Table(title=f"rules of the hierarchy {escape(repr(name))}", title_justify="left")
    for col in ("level", "code", "name", "family", "package", "version", "C"):
        # codes, packages and versions are read whole; names and families may wrap
        t.add_column(col, justify="right" if col == "level" else "left",
                     no_wrap=col not in ("name", "family"), overflow="fold")
    for r in rows:
        level = "" if r.level is None else str(r.level)
        code = r.code or ("(broken)" if r.error else "(not used)")
        if r.error:
            t.add_row(level, escape(code), escape(r.plugin), "", "", "",
                      "", style="red")
            t.add_row("", "", f"[red]{escape(r.error)}[/]", "", "", "", "")
            continue
        t.add_row(level, escape(code), escape(r.name), escape(r.family), escape(r.package),
                  escape(r.version), "yes" if r.accelerated else "")
    return t
