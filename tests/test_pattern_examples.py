"""One documented position per name of the pattern path
(tests/data/pattern-examples.json, written by make_pattern_examples.py from
bench-mixed and the SE-rated bank): the step the path takes there, and each
of its outputs -- the short line, the teach text naming every link, the
three hint levels, the drawing (strong links solid, weak links dashed, the
pattern's cells and removed candidates marked; marks on the text grid too)
and the JSON facts."""

from __future__ import annotations

import json
from functools import cache

import pytest
from conftest import DATA
from pattern_shapes import check_step
from rich.console import Console

from grader.core.board import Board
from grader.core.geometry import Geometry
from grader.core.steps import Step
from grader.explainer.hints import hint
from grader.explainer.model import step_model
from grader.explainer.names import shown_level
from grader.explainer.patterns import pattern_steps
from grader.explainer.svg import grid_svg
from grader.explainer.textgrid import Drawing
from grader.strategy.engine import Engine
from grader.strategy.plugins import pattern_families
from grader.rules.patterns.base import arc_sentence

EXAMPLES = json.loads((DATA / "pattern-examples.json").read_text())


def board_of(pos: dict) -> Board:
    values = [int(ch) for ch in pos["values"]]
    cands = [sum(1 << (int(d) - 1) for d in s) for s in pos["candidates"]]
    return Board.from_candidates(Geometry(3, 3), cands, values)


@cache
def example(name: str) -> tuple[Board, Step]:
    board = board_of(EXAMPLES[name]["position"])
    step = next(pattern_steps(board.copy(), Engine()))
    return board, step


def test_every_family_has_an_example() -> None:
    names = {n for fam in pattern_families().values() for n in fam.names}
    assert {e["family"] for e in EXAMPLES.values()} == {
        fam.family for fam in pattern_families().values()}
    assert set(EXAMPLES) <= names


#: Contradictions from one assumption (reductio, level 14) at positions that
#: disjunctive constructions solve (level 13): the pattern path shows the
#: book's trial of that level there, valued as the walk rates the position
#: (issue 37: explain says the level grade says).
ABOVE_THE_GRID = ("Dynamic Contradiction Forcing Chains", "Nishio")


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_example_gives_its_step(name: str) -> None:
    want = EXAMPLES[name]
    board, step = example(name)
    if name in ABOVE_THE_GRID:
        assert (step.name, step.family, step.se) == ("forcing chains (book)", want["family"],
                                                     want["se"])
        assert shown_level(step) == 13 and step.depth == 1
        check_step(board, step)
        return
    assert (step.name, step.family, step.se) == (want["name"], want["family"], want["se"])
    assert step.summary() == want["summary"]
    check_step(board, step)
    sol = [int(ch) for ch in want["solution"]]  # the conclusions hold in the solution
    assert all(sol[c] != v for c, v in step.eliminations)
    assert all(sol[c] == v for c, v in step.placements)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_teach_text_names_every_link(name: str) -> None:
    _, step = example(name)
    text = step.explain("teach")
    for arc in step.pattern.arcs:
        if step.family == "empty-rectangle" and arc.strong and arc.unit >= 2 * step.geo.n:
            assert "a grouped strong link" in text  # the box's row or column: told as such
            continue
        assert arc_sentence(step.geo, arc) in text, (name, arc)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_three_hint_levels(name: str) -> None:
    _, step = example(name)
    technique, where, full = (hint(step, level) for level in ("technique", "where", "full"))
    assert technique.startswith("Try ") and step.name in technique
    assert f"SE {step.se:.1f}" in technique
    for c, _ in (*step.eliminations, *step.placements):  # no conclusion before "full"
        rc = f"r{c // 9 + 1}c{c % 9 + 1}"
        assert f"{rc}<>" not in where and f"{rc}=" not in technique
    assert len(where) > len(technique) and where.startswith(technique[:-1])
    if step.branches:  # a trial: its branches are drawn as chains, after its opening
        from grader.core.trial_text import trial_parts

        assert step.summary() in full and trial_parts(step)[0] in full
    else:
        assert step.explain("teach") in full


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_drawing_shows_the_links(name: str) -> None:
    board, step = example(name)
    svg = grid_svg(board, step)
    strong = sum(1 for a in step.pattern.arcs if a.strong and a.a[0] != a.b[0])
    weak = sum(1 for a in step.pattern.arcs if not a.strong and a.a[0] != a.b[0])
    assert (svg.count('class="strong"') + svg.count('class="grouped-strong"') >= strong
            and svg.count('class="weak"') + svg.count('class="grouped-weak"') >= weak)
    assert svg.count("stroke-dasharray") == svg.count('class="weak"') + svg.count(
        'class="grouped-weak"')
    # a grouped end is drawn as one box around the group's candidates
    assert svg.count('class="group"') == len({
        (cs, v) for a in step.pattern.arcs for cs, v in ((a.a_group, a.a[1]), (a.b_group, a.b[1]))
        if cs})
    text = Console(no_color=True, width=120, record=True)
    text.print(Drawing(board, step))
    out = text.export_text()
    if step.pattern.arcs:
        assert "+v linked" in out and "links (= strong, - weak): " in out
    if step.eliminations:
        assert "-v eliminated" in out


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_json_facts(name: str) -> None:
    _, step = example(name)
    m = step_model(step, 1).model_dump()
    assert m["se"] == step.se and m["name"] == step.name
    assert [link["kind"] for link in m["pattern"]["links"]] == [a.kind for a in step.pattern.arcs]
    assert len(m["pattern"]["cells"]) == len(step.pattern.cells)
    assert len(m["eliminations"]) == len(step.eliminations)
