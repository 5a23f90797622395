"""One meaning per option name (issue 31): the side-by-side table of every
long option of every command, generated for the documentation site
(``docs/cli/index.md``), shows no name with two meanings; the deprecated
spellings that made names ambiguous are hidden, warn, and name what replaced
them; the command pages are generated from the commands."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT

from grader.cli import reference
from grader.cli.options import DEPRECATED_UNTIL


@pytest.fixture(scope="module")
def every() -> dict[str, list[reference.OptionInfo]]:
    cmds = {"python -m grader": reference.root(), **reference.commands()}
    return {path: reference.options(cmd, hidden=True) for path, cmd in cmds.items()}


def test_every_command_is_there() -> None:
    assert set(reference.commands()) == {"grade", "explain", "solve", "generate",
                                         "pair solve", "pair generate", "rules", "serve"}


def test_every_long_option_has_one_meaning(every: dict[str, list[reference.OptionInfo]]) -> None:
    used = {o.long for opts in every.values() for o in opts if not o.hidden}
    assert used == set(reference.MEANINGS), (
        f"name a meaning: {sorted(used - set(reference.MEANINGS))}; "
        f"stale: {sorted(set(reference.MEANINGS) - used)}")
    names, rows = reference.side_by_side()
    assert len({opt for opt, _, _ in rows}) == len(rows)  # one row, so one meaning, a name
    assert all(meaning != "?" for _, meaning, _ in rows)


def test_a_name_takes_a_value_everywhere_or_nowhere(
        every: dict[str, list[reference.OptionInfo]]) -> None:
    kinds: dict[str, set[bool]] = {}
    for opts in every.values():
        for o in opts:
            if not o.hidden:
                kinds.setdefault(o.long, set()).add(o.flag)
    assert {k: v for k, v in kinds.items() if len(v) > 1} == {}


def test_the_three_old_clashes_are_gone(every: dict[str, list[reference.OptionInfo]]) -> None:
    visible = {path: {o.long: o for o in opts if not o.hidden} for path, opts in every.items()}
    assert [p for p, o in visible.items() if "--max-level" in o] == ["grade"]
    assert [p for p, o in visible.items() if "--timeout" in o] == []
    counted = [p for p, o in visible.items() if "--count" in o]
    assert counted == ["pair solve", "solve"]
    assert all(visible[p]["--count"].flag for p in counted)
    assert "--rules-up-to" in visible["explain"] and "--stop-after" in visible["generate"]
    assert "--stop-after" in visible["pair generate"]


def test_deprecated_spellings_are_hidden_and_name_their_replacement(
        every: dict[str, list[reference.OptionInfo]]) -> None:
    old = [(path, o) for path, opts in every.items() for o in opts if o.hidden]
    found = {(path, o.long) for path, o in old if o.help.startswith("Deprecated")}
    assert found == {("grade", "--timeout"), ("explain", "--max-level"),
                     ("generate", "--count"), ("generate", "--timeout"),
                     ("pair generate", "--timeout")}
    for path, o in old:
        if not o.help.startswith("Deprecated"):
            continue
        new = re.search(r"of (--[a-z-]+)", o.help)
        assert new, o.help
        assert new.group(1) in {x.long for x in every[path] if not x.hidden}
    assert DEPRECATED_UNTIL == "0.3.0"


def test_the_site_has_the_table_and_a_page_per_command() -> None:
    index = (ROOT / "docs" / "cli" / "index.md").read_text(encoding="utf-8")
    assert "<!-- cli-side-by-side -->" in index
    for path in reference.commands():
        page = ROOT / "docs" / "cli" / f"{path.split()[0]}.md"
        text = page.read_text(encoding="utf-8")
        assert f"<!-- cli-help: {path} -->" in text and f"<!-- cli-options: {path} -->" in text
    table = reference.markdown_side_by_side()
    assert table.count("\n| `--") >= len(reference.MEANINGS)
    assert "| `--max-level` | keep only ok grids of at most this level |" in table


def test_help_text_is_the_commands_own() -> None:
    text = reference.help_text("pair generate")
    assert text.startswith("Usage: pair generate [OPTIONS]")
    assert "--stop-after SECONDS" in text
