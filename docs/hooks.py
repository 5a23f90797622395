"""MkDocs hooks (``hooks:`` in mkdocs.yml): the command pages are generated
from the command line itself at build time, never written by hand.

In a page, a line ``<!-- cli-help: grade -->`` becomes what ``grade --help``
prints (folded, under its own heading), ``<!-- cli-options: grade -->`` one
heading per argument and option (one anchor each: ``#grade-time-limit``), and
``<!-- cli-side-by-side -->`` the table of every long option of every command,
each name linked to its heading (:mod:`grader.cli.reference`).
``<!-- changelog -->`` becomes CHANGELOG.md.  Sphinx roles left in docstrings
(``:func:`x```) are shown as code.

The pages indent what belongs to a list item by two spaces (a second
paragraph, a nested list, a code block), as GitHub reads them; Python-Markdown
wants four, and without them the rest of the list showed as text with literal
"- ": :func:`four_space_lists` indents them for the site."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

MARKER = re.compile(
    r"^<!-- (cli-help|cli-options|cli-side-by-side|changelog)(?:: ([a-z ]+))? -->$", re.M)
ROLE = re.compile(r":(?:func|class|mod|meth|data|attr|exc):(<code>)~?(?:[\w.]+\.)?")
ROOT = Path(__file__).resolve().parent.parent


def _replace(m: re.Match[str]) -> str:
    from grader.cli import reference

    kind, path = m.group(1), (m.group(2) or "").strip()
    if kind == "changelog":
        text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
        return text.split("\n", 1)[1]  # the page has its own title
    if path and path not in reference.commands():
        raise SystemExit(f"docs: the command {path!r} is not installed here (a missing "
                         f"extra?): pip install -e '.[all,docs]'")
    if kind == "cli-help":
        body = reference.help_text(path).rstrip().splitlines()
        return "\n".join([f'??? example "`{path} --help`, as it prints"', "",
                          "    ```text", *(f"    {ln}" if ln else "" for ln in body),
                          "    ```"])
    if kind == "cli-options":
        return reference.markdown_options(path)
    return reference.markdown_side_by_side(link=True)


ITEM = re.compile(r"^(?:[-*+]|\d+\.) ")
FENCE = re.compile(r"^\s*(```|~~~)")


def four_space_lists(markdown: str) -> str:
    """Every line inside a top-level list item that is indented (by two
    spaces, the pages' style) indented two more, code blocks included; in a
    list whose items hold paragraphs, a blank line before each item."""
    out: list[str] = []
    in_item = fence = loose = False
    for line in markdown.split("\n"):
        if FENCE.match(line) and not line.startswith(" "):
            fence = not fence
            in_item = loose = False
        elif not fence and line and not line.startswith(" "):
            item = bool(ITEM.match(line))
            if item and loose and out and out[-1]:
                out.append("")  # a list with paragraphs: its items apart
            in_item = item
            loose = loose and item
        elif in_item and line.startswith("  "):
            line = "  " + line
        elif in_item and not line:
            loose = True
        out.append(line)
    return "\n".join(out)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    return four_space_lists(MARKER.sub(_replace, markdown))


def on_page_content(html: str, **kwargs: Any) -> str:
    return ROLE.sub(r"\1", html)
