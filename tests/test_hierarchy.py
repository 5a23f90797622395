"""The hierarchy table: the book's Table 6.1 and 6.2 by default; your own in
TOML or JSON (whole, or ``extends = "default"`` with replaced, added and
removed rows); a custom rating table; trial options (``propagation =
"singles"``, ``max_alternatives``)."""

from __future__ import annotations

import json
import textwrap
import tomllib
from pathlib import Path

import pytest
from conftest import book_calibration, book_figures
from typer.testing import CliRunner

from grader import Engine, Grader, load_hierarchy, parse_grid_token
from grader.cli.main import build_app
from grader.strategy.hierarchy import HierarchyError, default_hierarchy
from grader.strategy.propagate import SINGLES

FIGS = book_figures()
#: The book's table as grader/data/hierarchy.toml writes it (the one place a
#: level is written down): read, never copied, so that a new level is one row
#: there and no edit here.
with (Path(__file__).resolve().parent.parent / "grader" / "data" / "hierarchy.toml").open(
        "rb") as _f:
    BOOK_TABLE = sorted((r["level"], r["code"], r["reference"])
                        for r in tomllib.load(_f)["rules"])


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return p


def test_default_is_the_books_table() -> None:
    h = default_hierarchy()
    assert [(r.level, r.code, r.reference) for r in h.ordered()] == BOOK_TABLE
    # levels 1 to n, each once
    assert [level for level, _, _ in BOOK_TABLE] == list(range(1, len(BOOK_TABLE) + 1))
    assert {r.code: r.params for r in h.rules}["x-wing"] == {"size": 2}
    assert {r.code: r.params for r in h.rules}["swordfish"] == {"size": 3}
    bands = {b.name: b.levels for b in h.ratings}
    assert bands == {"solved": [0], "very easy": [1], "easy": [2], "medium": [3, 4],
                     "difficult": [5, 6, 7, 8], "very difficult": [9, 10, 11, 12],
                     "expert": [13, 14]}
    assert [h.rating(level) for level in range(15)] == [
        "solved", "very easy", "easy", "medium", "medium", "difficult", "difficult",
        "difficult", "difficult", "very difficult", "very difficult", "very difficult",
        "very difficult", "expert", "expert"]
    assert h.trials.propagation == "all"


def test_a_whole_hierarchy_in_json_grades_like_the_default(tmp_path: Path) -> None:
    p = tmp_path / "book.json"
    p.write_text(json.dumps(default_hierarchy().model_dump()))
    h = load_hierarchy(p)
    assert h == default_hierarchy()
    g = Grader(h)
    for item in book_calibration()[::5]:
        assert g.grade_grid(parse_grid_token(item["puzzle"])).rating == item["rating"]


def test_extends_default_replace_add_remove(tmp_path: Path) -> None:
    h = load_hierarchy(write(tmp_path, "h.toml", """
        extends = "default"
        name = "mine"
        [[rules]]
        code = "x-wing"
        level = 10
        [[rules]]
        code = "jellyfish"
        name = "Jellyfish"
        level = 12
        plugin = "fish"
        params = { size = 4 }
        [[rules]]
        code = "hidden-tuple"
        remove = true
    """))
    assert h.name == "mine"
    by = {r.code: r for r in h.rules}
    assert "hidden-tuple" not in by
    assert by["x-wing"].level == 10 and by["x-wing"].params == {"size": 2}
    assert by["x-wing"].reference == "rule 4.1"  # kept from the row it replaces
    assert (by["jellyfish"].level, by["jellyfish"].plugin) == (12, "fish")
    assert [r.code for r in h.ordered() if r.level == 12] == ["swordfish", "jellyfish"]
    engine = Engine(h)
    assert [r.code for r in engine.rules() if r.level == 12] == ["swordfish", "jellyfish"]


def test_moving_a_rule_changes_levels(tmp_path: Path) -> None:
    """Figure 3.8 is level 12 by the book's table because of a Swordfish; a
    table with the Swordfish at level 9 rates it 9."""
    h = load_hierarchy(write(tmp_path, "h.toml", """
        extends = "default"
        [[rules]]
        code = "swordfish"
        level = 9
    """))
    puzzle = FIGS["fig3.8"]["puzzle"]
    base = Grader().grade_grid(parse_grid_token(puzzle))
    assert (base.level, base.hardest) == (12, "swordfish")
    moved = Grader(h, check=True).grade_grid(parse_grid_token(puzzle))
    assert (moved.level, moved.rating) == (9, "very difficult")


def test_custom_rating_table(tmp_path: Path) -> None:
    h = load_hierarchy(write(tmp_path, "h.toml", """
        extends = "default"
        [[ratings]]
        name = "gentle"
        levels = [1, 2]
        [[ratings]]
        name = "moderate"
        levels = [3, 4, 5, 6, 7, 8]
        [[ratings]]
        name = "tough"
        levels = [9, 10, 11, 12]
        [[ratings]]
        name = "diabolical"
        levels = [13, 14]
    """))
    assert h.rating_names == ["gentle", "moderate", "tough", "diabolical"]
    g = Grader(h)
    got = {name: g.grade_grid(parse_grid_token(FIGS[name]["puzzle"])).rating
           for name in ("fig2.3", "fig2.4", "fig3.8", "fig4.5")}
    assert got == {"fig2.3": "gentle", "fig2.4": "moderate", "fig3.8": "tough",
                   "fig4.5": "diabolical"}


def test_custom_rating_table_through_the_cli(tmp_path: Path) -> None:
    f = write(tmp_path, "h.json", json.dumps({
        "extends": "default",
        "ratings": [{"name": "easy-ish", "levels": list(range(0, 5))},
                    {"name": "hard-ish", "levels": list(range(5, 15))}]}))
    res = CliRunner().invoke(build_app(), ["grade", FIGS["fig2.4"]["puzzle"],
                                           FIGS["fig4.5"]["puzzle"], "--hierarchy", str(f),
                                           "-f", "jsonl"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in res.stdout.splitlines()]
    assert [(r["level"], r["rating"]) for r in rows] == [(3, "easy-ish"), (13, "hard-ish")]


def trial_substeps(trace) -> list:
    return [sub for s in trace.steps for b in s.branches for sub in b.steps]


def test_propagation_singles(tmp_path: Path) -> None:
    h = load_hierarchy(write(tmp_path, "h.toml", """
        extends = "default"
        [trials]
        propagation = "singles"
    """))
    assert h.trials.propagation == "singles"
    engine = Engine(h)
    for rule in engine.rules():
        if rule.kind == "trial":
            assert {r.family for r in rule.context.propagation} <= set(SINGLES)
    fig = FIGS["fig4.5"]
    trace = engine.solve(parse_grid_token(fig["puzzle"]).board(),
                         solution=[int(ch) for ch in fig["solution"]])
    assert trace.solved and trace.level >= 13
    subs = trial_substeps(trace)
    assert subs and {s.family for s in subs} <= set(SINGLES)
    # with the default propagation, branches may use every rule of levels 1-12
    full = Engine().solve(parse_grid_token(fig["puzzle"]).board())
    assert all(s.level <= 12 for s in trial_substeps(full))


def test_propagation_option_of_the_cli_overrides_the_table() -> None:
    res = CliRunner().invoke(build_app(), ["grade", FIGS["fig4.5"]["puzzle"], "--propagation",
                                           "singles", "-f", "jsonl"])
    assert res.exit_code == 0, res.output
    row = json.loads(res.stdout)
    assert row["verdict"] == "ok" and row["level"] in (13, 14)


def test_max_alternatives(tmp_path: Path) -> None:
    h = load_hierarchy(write(tmp_path, "h.toml", """
        extends = "default"
        [trials]
        max_alternatives = 3
    """))
    engine = Engine(h)
    dc = next(r for r in engine.rules() if r.code == "disjunctive-construction")
    assert dc.context.options["max_alternatives"] == 3
    fig = FIGS["fig4.5"]
    trace = engine.solve(parse_grid_token(fig["puzzle"]).board(),
                         solution=[int(ch) for ch in fig["solution"]])
    assert trace.solved


def test_without_trials_an_expert_grid_is_unsolved_not_rated(tmp_path: Path) -> None:
    h = load_hierarchy(write(tmp_path, "h.toml", """
        extends = "default"
        [[rules]]
        code = "disjunctive-construction"
        remove = true
        [[rules]]
        code = "reductio-ad-absurdum"
        remove = true
    """))
    r = Grader(h).grade_grid(parse_grid_token(FIGS["fig4.5"]["puzzle"]))
    assert r.verdict == "unsolved" and r.rating is None
    assert r.steps == 31 and r.level == 5  # the partial grid of exercise 30
    f = write(tmp_path, "h2.toml", (tmp_path / "h.toml").read_text())
    res = CliRunner().invoke(build_app(), ["grade", FIGS["fig4.5"]["puzzle"],
                                           "--hierarchy", str(f), "-f", "jsonl"])
    assert res.exit_code == 1 and json.loads(res.stdout)["verdict"] == "unsolved"


@pytest.mark.parametrize(("text", "message"), [
    ('extends = "default"\n[[rules]]\nlevel = 3\n', "needs a code"),
    ('extends = "default"\n[[rules]]\ncode = "x"\nlevel = 0\n', "level"),
    ('extends = "default"\n[trials]\npropagation = "some"\n', "propagation"),
    ('extends = "default"\n[trials]\nmax_alternatives = 1\n', "max_alternatives"),
    ('extends = "default"\nbogus = 1\n', "bogus"),
    # regressions: with extends, a misspelt table was ignored; wrong shapes crashed
    ('extends = "default"\n[trial]\npropagation = "singles"\n', "trial"),
    ('extends = "default"\ntrials = 5\n', r"trials: expected a \[trials\] table"),
    ('extends = "default"\nrules = 5\n', "rules: expected a list"),
    ('extends = "default"\n[[rules]]\ncode = [1]\nlevel = 3\n', "needs a code"),
    ('[[rules]]\ncode = "a"\nlevel = 1\n[[rules]]\ncode = "a"\nlevel = 2\n'
     '[[ratings]]\nname = "x"\nlevels = [1]\n', "repeated"),
])
def test_invalid_hierarchies(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(HierarchyError, match=message) as info:
        load_hierarchy(write(tmp_path, "h.toml", text))
    assert str(info.value).startswith(str(tmp_path / "h.toml"))
