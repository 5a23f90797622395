"""Issue 27 on the book path: truthful names, sentences, common names and the
compact notation.

Each defect the issue lists has a test naming its grid (``--index`` in
``puzzles/bench-mixed.txt``) and step; ``tests/walk_checks.py`` detects
every defect kind, in every output, and runs on a fast sample of
bench-mixed by default and on all 200 grids with ``--runslow``.  The last
tests show the checks find each kind when it comes back.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache

import pytest
from conftest import PUZZLES
from typer.testing import CliRunner
from walk_checks import (
    excluder_problems,
    label_problems,
    name_problems,
    short_problems,
    step_problems,
    step_texts,
    walk_problems,
)

from grader.cli.main import build_app
from grader.core.steps import Step
from grader.explainer.core import Walkthrough, walkthrough
from grader.explainer.document import document
from grader.explainer.hints import hint, technique_hint, where_hint
from grader.explainer.html import render_html
from grader.explainer.markdown import render_markdown
from grader.explainer.model import step_model
from grader.explainer.notation import compact, shown
from grader.explainer.render import body_lines, header
from grader.formats import iter_source, parse_grid_token
from grader.strategy.engine import Engine
from grader.core.chain_text import chain_notation
from grader.core.trial_text import teach_trial

BENCH = PUZZLES / "bench-mixed.txt"
runner = CliRunner()

#: The grids the issue quotes, checked whole by default.
SAMPLE = (2, 42, 43, 77, 111, 116, 139, 159)


@cache
def _grids() -> dict[int, str]:
    return {r.index: r.text for r in iter_source(str(BENCH))}


@cache
def _walk(index: int) -> Walkthrough:
    wt = walkthrough(parse_grid_token(_grids()[index]).board(), Engine(), path="book")
    wt.ensure()
    return wt


def _step(index: int, number: int) -> Step:
    step = _walk(index).step(number - 1)
    assert step is not None
    return step


def _teach(index: int, number: int) -> str:
    return "\n".join(body_lines(_step(index, number), "teach"))


# -- 2. truthful names ------------------------------------------------------------------

@pytest.mark.parametrize("index,number,rated", [
    (159, 18, "skyscraper"), (139, 21, "empty rectangle"), (116, 9, "empty rectangle"),
    (43, 21, "UVWXYZ-Wing"),
])
def test_a_trial_is_never_called_the_pattern_the_rating_found(index: int, number: int,
                                                               rated: str) -> None:
    step = _step(index, number)
    assert step.rated_pattern == rated and step.pattern_name == "cell forcing chains"
    head = header(number, step).plain
    assert head.startswith(f"Step {number} · disjunctive construction (cell forcing chains)")
    assert rated not in head
    teach = _teach(index, number)
    assert "Players call" not in teach
    article = "an" if rated[0] == "e" else "a"
    assert (f"At this position the rating's walk finds {article} {rated} (see explain --path "
            f"patterns).") in teach
    data = step_model(step, number).model_dump()
    assert "pattern_name" not in data
    assert (data["rated_pattern"], data["common_name"]) == (rated, "cell forcing chains")


def test_the_hint_at_an_expert_position_points_to_the_pattern() -> None:
    step = _step(159, 18)
    assert "skyscraper" not in technique_hint(step)
    assert where_hint(step).endswith(
        "At this position the rating's walk finds a skyscraper (see explain --path patterns).")


# -- 3. sentences ------------------------------------------------------------------------

def test_grid_2_step_35_names_the_x_wing_of_step_25() -> None:
    assert _step(2, 25).name == "X-Wing"
    assert "; the X-Wing of step 25 removed 6 from (2, 4). So 6 can only go in (5, 4)" in _teach(
        2, 35)


@pytest.mark.parametrize("index,numbers", [
    (2, (35,)), (42, (9, 12, 14, 16, 24, 39)), (111, (14, 17, 19, 20, 38)),
    (159, (19, 26, 27, 28, 29, 38)),
])
def test_every_excluder_of_a_single_is_named(index: int, numbers: tuple[int, ...]) -> None:
    wt = _walk(index)
    removed: dict[tuple[int, int], int] = {}
    for number, board, step in wt:
        if number in numbers:
            assert step.family in ("single-position", "single-candidate")
            assert " of step " in step.explain("teach"), step.explain("teach")
            assert not list(excluder_problems(step, board, removed))
        for c, v in step.eliminations:
            removed.setdefault((c, v), number)


def test_grid_42_step_9_names_the_candidate_lines_of_step_8() -> None:
    assert "; the candidate lines of step 8 removed 9. Only 7 is left: (8, 2) <- 7." in _teach(
        42, 9)


def test_grid_116_step_2_says_its_conclusions_once_and_naturally() -> None:
    teach = _teach(116, 2)
    assert "(5, 4) != 3, (6, 4) != 3 holds" not in teach
    assert teach.endswith("Both possibilities give the same 2 conclusions, and one of them "
                          "must be true, so both hold: (5, 4) != 3, (6, 4) != 3.")


def test_grid_159_step_18_the_branch_left_is_not_a_chain() -> None:
    step = _step(159, 18)
    live = step.branches[1]
    assert chain_notation(step, live) == "r4c9=8"
    md = render_markdown(_walk(159), "teach")
    assert "r4c9=8 => r4c9=8" not in md
    page = render_html(_walk(159))
    assert "after 0 lines" not in page
    assert "assume (4, 9) &lt;- 8 (A)</span> &mdash; the only possibility left" in page


def test_grid_159_step_18_arrows_join_only_facts_that_follow_from_each_other() -> None:
    step = _step(159, 18)
    short = chain_notation(step, step.branches[0])
    assert "r7c9=8 -> r6c5=1" not in short  # r6c5=1 comes from the assumption
    assert short.startswith("r4c9=1 -> r7c9=8, r6c5=1; r7c9=8 & r6c5=1 => ")
    assert not list(short_problems(step, step.branches[0]))


def test_grid_77_step_2_a_nested_proof_is_shown_as_such() -> None:
    step = _step(77, 2)
    short = chain_notation(step, step.branches[0])
    assert " -[nested trial, 10 lines]-> r8c5<>4;" in short
    assert " -> r8c5<>4" not in short


def test_grid_111_step_13_one_name_for_the_naked_tuple() -> None:
    step = _step(111, 13)
    assert header(13, step).plain.startswith("Step 13 · naked tuple (naked quad) · level 10")
    teach = step.explain("teach")
    assert "(a naked tuple)" in teach and "quad" not in teach


def test_grid_77_step_2_shows_the_level_its_branches_use() -> None:
    step = _step(77, 2)
    assert step.level == 13
    assert " · level 14 · " in header(2, step).plain
    assert "level 14)" in technique_hint(step)
    assert ("Its branches use level 14 (reductio ad absurdum), so the step is of level 14, "
            "not 13.") in teach_trial(step)
    data = step_model(step, 2).model_dump()
    assert (data["level"], data["rule_level"]) == (14, 13)


def test_grid_77_step_2_nested_assumptions_have_their_labels() -> None:
    lines = body_lines(_step(77, 2), "short")
    assert "    branch 1: assume (1, 5) <- 7 (A)" in lines
    assert "            branch 1: assume (6, 4) <- 6 (B)" in lines
    assert any(ln.endswith("(from B)") for ln in lines)
    assert not any("the assumption" in ln for ln in lines)
    assert not list(label_problems(lines))


# -- 4. common names and the compact notation -----------------------------------------------

@pytest.mark.parametrize("index,number,common", [
    (2, 35, "hidden single"), (42, 9, "naked single"), (111, 13, "naked quad"),
])
def test_common_names_beside_the_books(index: int, number: int, common: str) -> None:
    step = _step(index, number)
    assert f"{step.name} ({common})" in header(number, step).plain
    assert step_model(step, number).common_name == common
    assert f"({common})</span>" in render_html(_walk(index))
    assert f"({common}; " in technique_hint(step)


def test_pointing_and_claiming() -> None:
    names = {s.rule: set() for s in _walk(42).steps}
    for index in SAMPLE:
        for s in _walk(index).steps:
            names.setdefault(s.rule, set()).add(step_model(s, 1).common_name)
    assert names["candidate-lines"] == {"pointing", "claiming"}
    assert names["single-position"] == {"hidden single", "full house"}


def test_the_compact_notation() -> None:
    text = ("so (4, 9) <- 8; (4, 4) != 8, (4, 6) != 8, (6, 7) != 8, (2, 7) != 3, (2, 7) != 8 "
            "and cells (9, 7), (9, 8)")
    assert compact(text) == "so r4c9=8; r4c46,r6c7<>8, r2c7<>38 and cells r9c7, r9c8"
    assert compact("(4, 9) &lt;- 8, (1, 1) != 6", html=True) == "r4c9=8, r1c1&lt;&gt;6"
    assert shown(text) == text
    with pytest.raises(ValueError, match="unknown notation"):
        shown(text, "eureka")


def test_every_output_honours_the_notation() -> None:
    step = _step(159, 18)
    compact_text = "\n".join(body_lines(step, "teach", notation="compact"))
    assert "r4c9=1 -> r7c9=8, r6c5=1" in compact_text and "(4, 9)" not in compact_text
    assert "(4, 9)" not in hint(step, "full", notation="compact")
    doc = document(_walk(139), notation="compact")
    assert doc.notation == "compact" and "<-" not in doc.model_dump_json()
    assert "(1, 2) &lt;-" not in render_html(_walk(139), notation="compact")


@pytest.mark.parametrize("args", [
    [], ["-f", "json"], ["-f", "markdown"], ["-f", "html"], ["--step", "18"],
    ["--step", "18", "-f", "json"], ["--hint", "full"], ["--hint", "full", "-f", "json"],
])
def test_the_command_writes_the_compact_notation(args: list[str]) -> None:
    r = runner.invoke(build_app(), ["explain", str(BENCH), "--index", "159", "--no-grid",
                            "--notation", "compact", *args])
    assert r.exit_code == 0, r.output
    assert "<-" not in r.output and "(4, 9)" not in r.output
    assert "r" in r.output
    if args[:2] == ["-f", "json"]:
        assert json.loads(r.output)["notation"] == "compact"


def test_the_api_writes_the_compact_notation() -> None:
    from grader.api import explanation

    doc = explanation(_grids()[159], notation="compact", path="book")
    assert doc.steps[17].summary.endswith("=> r4c9=8")


# -- the checks, on a sample by default and on every grid with --runslow ----------------------

@pytest.mark.parametrize("index", SAMPLE)
def test_the_sample_of_bench_mixed_has_no_defect(index: int) -> None:
    problems = walk_problems(_walk(index))
    assert not problems, "\n".join(problems[:10])


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(10))
def test_every_grid_of_bench_mixed_has_no_defect(chunk: int) -> None:
    engine = Engine()
    problems = []
    for index, text in sorted(_grids().items())[chunk * 20:(chunk + 1) * 20]:
        wt = walkthrough(parse_grid_token(text).board(), engine, path="book")
        problems += [f"grid {index} {p}" for p in walk_problems(wt)]
    assert not problems, "\n".join(problems[:10])


def test_the_checks_find_each_kind_when_it_comes_back(monkeypatch: pytest.MonkeyPatch) -> None:
    wt = _walk(2)
    board = wt.before(34)
    removed = {(c, v): n for n, _, s in wt for c, v in s.eliminations if n < 35}
    bare = replace(_step(2, 35), removed_by=())  # the walk's history forgotten
    assert any(p.startswith("excluder:") for p in excluder_problems(bare, board, removed))

    step = _step(159, 18)
    import grader.core.chain_text as chain_text

    def linear(step: Step, b: object) -> str:  # the old "in short": one arrow after another
        geo = step.geo
        facts = [chain_text.fact_notation(geo, b.cell, b.value, True)]  # type: ignore[attr-defined]
        facts += [chain_text.link_notation(geo, k) for k in b.chain.links]  # type: ignore
        return " -> ".join(facts) + " => " + chain_text.end_notation(step, b)  # type: ignore

    monkeypatch.setattr("walk_checks.chain_notation", linear)
    assert any("in short:" in p for p in short_problems(step, step.branches[0]))
    monkeypatch.undo()

    tuple13 = _step(111, 13)
    texts = step_texts(tuple13)
    texts["teach"] = texts["teach"].replace("(a naked tuple)", "(a naked quad)")
    assert any(p.startswith("one name:") for p in name_problems(tuple13, texts))
    trial = _step(159, 18)
    texts = step_texts(trial)
    texts["teach"] += " Players call this pattern a skyscraper."
    assert any(p.startswith("name:") for p in name_problems(trial, texts))

    nested = _step(77, 2)
    lines = [ln.replace("(B)", "(A)") for ln in body_lines(nested, "short")]
    assert any(p.startswith("label:") for p in label_problems(lines))
    monkeypatch.setattr("walk_checks.header", lambda n, s: header(n, replace(s, level=13)))
    monkeypatch.setattr("grader.explainer.names.proof_level", lambda s: s.level)
    assert any(p.startswith("level:") for p in step_problems(nested, wt.before(0), {}))
