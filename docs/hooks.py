"""MkDocs hooks (``hooks:`` in mkdocs.yml): the command pages are generated
from the command line itself at build time, never written by hand.

In a page, a line ``<!-- cli-help: grade -->`` becomes what ``grade --help``
prints, ``<!-- cli-options: grade -->`` the table of its options, and
``<!-- cli-side-by-side -->`` the table of every long option of every command
(:mod:`grader.cli.reference`).  Sphinx roles left in docstrings
(``:func:`x```) are shown as code."""

from __future__ import annotations

import re
from typing import Any

MARKER = re.compile(r"^<!-- (cli-help|cli-options|cli-side-by-side)(?:: ([a-z ]+))? -->$",
                    re.M)
ROLE = re.compile(r":(?:func|class|mod|meth|data|attr|exc):(<code>)~?(?:[\w.]+\.)?")


def _replace(m: re.Match[str]) -> str:
    from grader.cli import reference

    kind, path = m.group(1), (m.group(2) or "").strip()
    if path and path not in reference.commands():
        raise SystemExit(f"docs: the command {path!r} is not installed here (a missing "
                         f"extra?): pip install -e '.[all,docs]'")
    if kind == "cli-help":
        return "```text\n" + reference.help_text(path).rstrip() + "\n```"
    if kind == "cli-options":
        return reference.markdown_options(path)
    return reference.markdown_side_by_side()


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    return MARKER.sub(_replace, markdown)


def on_page_content(html: str, **kwargs: Any) -> str:
    return ROLE.sub(r"\1", html)
