"""explain on the book's figures: the explanation reproduces the book's
worked examples (facts: rule, region, cell, value), and the expert grid's
trials read as branches / chains a person can check by hand."""

from __future__ import annotations

import re

import pytest
from conftest import G9, book_figures, cell

import grader
from grader.core.board import Board
from grader.core.steps import Step
from grader.explainer import ExplainError
from grader.explainer.core import walkthrough
from grader.formats import parse_grid_token
from grader.strategy.engine import Engine
from grader.core.trial_text import teach_trial

FIG = book_figures()


def steps_of(name: str) -> list[Step]:
    return grader.explain(FIG[name]["puzzle"])


def names_region(step: Step, region: int) -> bool:
    """The step's pattern and both texts name ``region``."""
    name = G9.region_long_name(region)
    return (region in (step.pattern.regions_with("region") + step.pattern.regions_with("also"))
            and name in step.summary() and name in step.explain("teach"))


def placing(steps: list[Step], r: int, c: int) -> Step:
    hit = [s for s in steps if any(p == cell(G9, r, c) for p, _ in s.placements)]
    assert len(hit) == 1, f"({r}, {c}) is placed {len(hit)} times"
    return hit[0]


def test_fig_2_1_single_position_3_in_column_c6():
    steps = steps_of("fig2.1")
    first = steps[:10]
    step = placing(first, 8, 6)  # among the first steps
    assert step.rule == "single-position" and step.level == 1
    assert step.placements == ((cell(G9, 8, 6), 3),)
    assert step.reference == "rule 2.1"
    assert names_region(step, G9.col_region(5))  # column C6
    assert "3 can only go in (8, 6)" in step.summary()
    assert "(8, 6) <- 3" in step.summary() and "(8, 6) <- 3" in step.explain("teach")


def test_fig_2_2_exercises_1_and_2():
    steps = steps_of("fig2.2")
    two = placing(steps, 8, 5)
    assert two.rule == "single-position" and two.placements == ((cell(G9, 8, 5), 2),)
    assert names_region(two, G9.col_region(4))  # column C5
    six = placing(steps, 2, 3)
    assert six.rule == "single-position" and six.placements == ((cell(G9, 2, 3), 6),)
    assert names_region(six, G9.row_region(1))  # row R2
    # exercise 3: single position alone solves it
    assert {s.rule for s in steps} == {"single-position"}
    assert len(steps) == FIG["fig2.2"]["puzzle"].count(".")


def test_fig_2_3_single_candidate_9_in_1_5():
    steps = steps_of("fig2.3")
    step = placing(steps, 1, 5)
    assert step.rule == "single-candidate" and step.level == 2 and step.reference == "rule 2.2"
    assert step.placements == ((cell(G9, 1, 5), 9),)
    assert "9 is the only candidate left in (1, 5)" in step.summary()
    teach = step.explain("teach")
    # names the cell, its three regions and the cells whose values exclude the others
    for word in ("(1, 5)", "row R1", "column C5", "block B2", "(1, 5) <- 9"):
        assert word in teach
    excl = step.pattern.cells_with("excluder")
    assert len(excl) == 8  # the eight other values are all placed among its peers
    assert all(G9.cell_name(c) in teach for c in excl)
    assert placing(steps, 3, 4).placements == ((cell(G9, 3, 4), 5),)


def _replay_branch(board: Board, step: Step) -> None:
    """Check a trial like a person would: assume, apply each sub-step (each a
    rule application that changes the grid), and see the contradiction or the
    result at the end."""
    for branch in step.branches:
        b = board.copy()
        b.place(branch.cell, branch.value)
        for sub in branch.steps:
            assert sub.level < step.level or sub.branches, "sub-steps use simpler rules"
            assert " => " in sub.summary() and sub.name in sub.summary()
            assert b.progress(sub), f"sub-step changes nothing: {sub.summary()}"
            if sub.branches:
                _replay_branch(b, sub)
            b.apply(sub)
        if branch.conflict is not None:
            assert b.contradiction() is not None, branch.conflict.reason
        else:
            for c, v in step.placements:
                assert b.values[c] == v
            for c, v in step.eliminations:
                assert b.values[c] != v and not b.has(c, v)


def test_fig_4_5_trials_are_checkable_chains():
    g = parse_grid_token(FIG["fig4.5"]["puzzle"])
    wt = walkthrough(g.board(), path="book")
    trials = [(board, step) for _, board, step in wt if step.branches]
    assert wt.solved() and trials
    assert {s.family for _, s in trials} <= {"disjunctive-construction", "reductio"}
    for board, step in trials:
        _replay_branch(board, step)
        text = step.explain("teach")
        lines = text.splitlines()
        # each assumption, each numbered sub-step (indented) and each contradiction shown
        for b in step.branches:
            assume = f"{G9.cell_name(b.cell)} <- {b.value}"
            assert assume in text
            assert b.chain is not None
            for link in b.chain.links:
                assert any(re.match(rf"^\s{{4,}}{link.index}\. ", ln) and link.step.reason() in ln
                           for ln in lines), link.step.summary()
            if b.conflict is not None:
                assert f"contradiction: {b.conflict.reason}" in text
        assert step.effects_text() in lines[-1]
        # the full trace keeps every recorded sub-step
        full = teach_trial(step, full=True)
        for b in step.branches:
            for sub in b.steps:
                assert sub.summary() in full


def test_fig_4_5_json_branches_nest_substeps():
    from grader.explainer.document import document

    g = parse_grid_token(FIG["fig4.5"]["puzzle"])
    doc = document(walkthrough(g.board(), path="book"))
    trial = next(s for s in doc.steps if s.branches)
    assert trial.level >= 13
    dead = [b for b in trial.branches if b.contradiction]
    assert dead and all(b.chain and b.end and b.steps is None for b in dead)
    link = dead[0].chain[1]
    assert link.index == 1 and link.summary and link.rule and link.uses == [0]
    full = document(walkthrough(g.board(), path="book"), full_trace=True)
    trial = next(s for s in full.steps if s.branches)
    dead = [b for b in trial.branches if b.contradiction]
    assert dead and all(b.steps for b in dead)
    sub = dead[0].steps[0]
    assert sub.number == 1 and sub.summary and sub.explanation and sub.rule


def test_nested_trials_indent_deeper():
    """A trial inside a branch is expanded one level deeper (a constructed
    step: the data shape is what the engine produces at depth 2)."""
    from grader.core.steps import Branch, Conflict, Pattern
    from grader.core.trial_text import INDENT, branch_lines

    inner_sub = grader.explain(FIG["fig2.2"]["puzzle"])[0]
    inner = Step("reductio-ad-absurdum", "reductio ad absurdum", 14, "reductio", (),
                 ((cell(G9, 1, 1), 5),), Pattern(cells=((cell(G9, 1, 1), "pivot"),),
                                                 values=(5,)), G9,
                 (Branch(cell(G9, 1, 1), 5, (inner_sub,), Conflict("cell (1, 3) has no "
                                                                   "candidate left")),),
                 depth=1, reference="section 4.3.2")
    outer = Step("disjunctive-construction", "disjunctive construction", 13,
                 "disjunctive-construction", ((cell(G9, 2, 2), 4),), (),
                 Pattern(cells=((cell(G9, 2, 2), "pivot"),), values=(4, 7)), G9,
                 (Branch(cell(G9, 2, 2), 4, ()), Branch(cell(G9, 2, 2), 7, (inner,),
                                                         Conflict("7 has no place left"))),
                 depth=2, reference="section 4.3.1")
    lines = branch_lines(outer)
    sub_line = next(ln for ln in lines if inner_sub.summary() in ln)
    inner_line = next(ln for ln in lines if inner.summary() in ln)
    depth_of = lambda ln: (len(ln) - len(ln.lstrip())) // len(INDENT)  # noqa: E731
    assert depth_of(sub_line) > depth_of(inner_line) > 0
    assert "contradiction: cell (1, 3) has no candidate left" in "\n".join(lines)
    assert "(2, 2) <- 4" in outer.explain("teach").splitlines()[-1]


@pytest.mark.parametrize("name", ["fig2.1", "fig5.1"])
def test_api_returns_steps_that_solve(name):
    g = parse_grid_token(FIG[name]["puzzle"])
    steps = grader.explain(FIG[name]["puzzle"])
    b = g.board()
    for s in steps:
        b.apply(s)
    assert "".join(g.geo.symbol(v) for v in b.values) == FIG[name]["solution"]
    assert steps == Engine().solve(g.board()).steps  # the minimal-level strategy's steps


def test_api_rejects_invalid_grids():
    with pytest.raises(ExplainError, match="multiple-solutions"):
        grader.explain("." * 81)
