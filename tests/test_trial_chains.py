"""Minimal chains of trial branches (grader.strategy.trials.chains): on real grids, every
chain line holds by its rule from the lines above it only, the chain reaches
its contradiction or its conclusion, its facts are true of the solution
(except what follows from a refuted assumption), nested trials are complete,
and both kernels give the same chains.  Also the renderings of the chains
(text, JSON, Markdown, HTML) and --full-trace."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import DATA, SMALL_HIERARCHY, book_figures
from typer.testing import CliRunner

from grader import Grader, load_hierarchy, parse_grid_token
from grader.cli.main import build_app
from grader.core.board import Board
from grader.core.steps import Branch, Conflict, Step
from grader.explainer.core import walkthrough
from grader.explainer.html import render_html
from grader.explainer.model import EndKind, Explanation, LinkRole
from grader.kernel import c as native
from grader.kernel import solve
from grader.strategy.engine import Engine
from grader.strategy.trials.chains import build_chain, holds, support
from grader.core.trial_text import chain_notation


def top1465(line: int) -> str:
    for text in (DATA / "top1465-sample.txt").read_text().splitlines():
        if text.endswith(f"top1465 line {line}") or f"top1465 line {line}:" in text:
            return text.split()[0]
    raise KeyError(line)


GRIDS = [book_figures()["fig4.5"]["puzzle"], top1465(200), top1465(93), top1465(77),
         top1465(187)]



def trial_steps(puzzle: str, engine: Engine | None = None) -> list[tuple[Board, Step]]:
    """(board before, step) for every trial step of the explanation."""
    grid = parse_grid_token(puzzle)
    wt = walkthrough(grid.board(), engine or Engine(), path="book")
    return [(board, step) for _, board, step in wt if step.branches]


def solution_of(puzzle: str) -> tuple[int, ...]:
    grid = parse_grid_token(puzzle)
    res = solve(grid.geo, list(grid.values), limit=2)
    assert res.count == 1 and res.solution is not None
    return tuple(res.solution)


def absent(board: Board, c: int, v: int) -> bool:
    return not board.cands[c] >> (v - 1) & 1


def conflict_holds(board: Board, k: Conflict) -> bool:
    geo = board.geo
    if k.region is not None and k.value is not None and len(k.cells) == 2:
        return all(board.values[c] == k.value for c in k.cells)
    if k.region is not None and k.value is not None:
        return all(board.values[c] != k.value and absent(board, c, k.value)
                   for c in geo.regions[k.region])
    (c,) = k.cells
    return not board.values[c] and not board.cands[c]


def check_trial(board: Board, step: Step, solution: tuple[int, ...], context_true: bool) -> int:
    """Check every branch of ``step`` (tried on ``board``); return how many
    chain lines were checked, nested ones included."""
    checked = 0
    for b in step.branches:
        checked += check_branch(board, step, b, solution, context_true)
    return checked


def check_branch(board: Board, step: Step, b: Branch, solution: tuple[int, ...],
                 context_true: bool) -> int:
    chain = b.chain
    assert chain is not None
    work = board.copy()
    work.place(b.cell, b.value)
    tainted = {0} if solution[b.cell] != b.value else set()
    checked = 0
    for i, link in enumerate(chain.links, start=1):
        assert link.index == i
        # each line uses only lines above it
        assert link.uses and all(0 <= u < i for u in link.uses), (i, link.uses)
        # and its rule's pattern holds from those lines alone
        for c, v in support(link.step):
            assert absent(work, c, v), (step.summary(), i, link.step.summary(), c, v)
        if link.step.branches:
            inner_true = context_true and not (tainted & set(link.uses))
            checked += check_trial(work, link.step, solution, inner_true)
        assert link.placements or link.eliminations
        for c, v in link.placements:
            assert not work.values[c] and not absent(work, c, v)
            work.place(c, v)
        for c, v in link.eliminations:
            assert not absent(work, c, v)
            work.eliminate(c, v)
        if tainted & set(link.uses):
            tainted.add(i)
        elif context_true:
            # a fact that does not follow from a refuted assumption is true
            for c, v in link.placements:
                assert solution[c] == v, link.step.summary()
            for c, v in link.eliminations:
                assert solution[c] != v, link.step.summary()
        checked += 1
    # the branch ends in its contradiction or its conclusion, from its lines
    assert chain.end and all(0 <= u <= len(chain.links) for u in chain.end)
    if b.conflict is not None:
        assert chain.conflict == b.conflict
        assert conflict_holds(work, b.conflict), b.conflict.reason
        assert solution[b.cell] != b.value or not context_true
    else:
        for c, v in step.placements:
            assert holds(work, (True, c, v))
        for c, v in step.eliminations:
            assert holds(work, (False, c, v))
    return checked


@pytest.mark.parametrize("puzzle", GRIDS)
def test_chains_are_sound_minimal_and_reach_their_end(puzzle: str) -> None:
    solution = solution_of(puzzle)
    steps = trial_steps(puzzle)
    assert steps
    lines = sum(check_trial(board, step, solution, True) for board, step in steps)
    assert lines > 0


def small_engine(tmp_path: Path) -> Engine:
    p = tmp_path / "small.toml"
    p.write_text(SMALL_HIERARCHY.format(depth=2))
    return Engine(load_hierarchy(p))


def test_nested_chains_are_complete(tmp_path: Path) -> None:
    """Singles-only propagation: top1465 line 153 needs reductio inside
    reductio; every nested trial a chain uses is explained in full."""
    puzzle = top1465(153)
    solution = solution_of(puzzle)
    steps = trial_steps(puzzle, small_engine(tmp_path))
    deep = [(board, s) for board, s in steps if s.depth == 2]
    assert deep
    for board, step in deep:
        check_trial(board, step, solution, True)
        inner = [link.step for b in step.branches if b.chain is not None
                 for link in b.chain.links if link.step.branches]
        assert inner and all(s.depth == 1 and s.branches[0].chain for s in inner)


#: A grid of HardestDatabase110626 (line 165 of ../shared/puzzles/bench-mixed.txt,
#: rated ER 10.2) that needs trials nested to depth 2 with the default hierarchy.
NESTED = ".......8...67......8...36.5.4..3..5......4..66....83.4..1.9..2..3...25..9........"


def _conclusions(step: Step) -> list[tuple[bool, int, int]]:
    return ([(True, c, v) for c, v in step.placements]
            + [(False, c, v) for c, v in step.eliminations])


def test_nested_trials_of_a_depth_2_grid_are_sound_complete_and_deterministic() -> None:
    """Default hierarchy: the outer branches' inner trials (chosen by what the
    branch must reach) are explained in full, every line sound."""
    solution = solution_of(NESTED)
    steps = trial_steps(NESTED)
    deep = [(board, s) for board, s in steps if s.depth == 2]
    assert deep
    for board, step in steps:
        check_trial(board, step, solution, True)
    inner = [link.step for _, s in deep for b in s.branches if b.chain is not None
             for link in b.chain.links if link.step.branches]
    assert inner and all(s.depth == 1 and all(b.chain for b in s.branches) for s in inner)
    again = trial_steps(NESTED)
    assert [[b.chain for b in s.branches] for _, s in steps] == [
        [b.chain for b in s.branches] for _, s in again]


def test_a_nested_branch_is_no_longer_than_its_breadth_first_derivation() -> None:
    """The chain shown is the shorter of the breadth-first derivation and the
    goal-directed one, nested lines included; on this grid the goal-directed
    one wins at least once (the steps found first in scanning order)."""
    from grader.strategy.trials.nested import _drawn, _thin, chain_size

    h = load_hierarchy()
    engine = Engine(h.model_copy(update={"trials": h.trials.model_copy(update={"order": "scan"})}))
    shorter = 0
    for board, step in trial_steps(NESTED, engine):
        if step.depth != 2:
            continue
        rule = next(r for r in engine.rules(2) if r.code == step.rule)
        rules, targets = rule.context.propagation, _conclusions(step)
        for b in step.branches:
            assert b.chain is not None
            scan = _thin(board, b.cell, b.value, rules, targets,
                         _drawn(board, b.cell, b.value, rules, targets))
            assert chain_size(b.chain) <= chain_size(scan[0])
            shorter += chain_size(b.chain) < chain_size(scan[0])
    assert shorter


def test_goal_trials_need_an_inner_reductio() -> None:
    from grader.strategy.trials.nested import goal_trials

    board, step = trial_steps(NESTED)[0]
    plain = [r for r in Engine().rules(1) if r.kind != "trial"]
    b = step.branches[0]
    assert goal_trials(board, b.cell, b.value, plain, _conclusions(step)) is None


@pytest.mark.slow
def test_python_and_the_accelerator_give_the_same_nested_chains() -> None:
    fast = _same_in_both_kernels(NESTED)
    assert any(s.depth == 2 for _, s in fast)


def test_the_chain_is_a_part_of_the_trace() -> None:
    """The chain keeps fewer lines than propagation applied, never more."""
    shorter = 0
    for _, step in trial_steps(top1465(200)):
        for b in step.branches:
            assert b.chain is not None
            assert len(b.chain.links) <= len(b.chain.steps)
            shorter += len(b.chain.links) < len(b.steps)
    assert shorter


def test_build_chain_keeps_only_the_ancestors_of_the_end() -> None:
    """Replaying a trace with a useless step: the step is not in the chain."""
    from grader.strategy.propagate import record_chain

    board, step = next((b, s) for b, s in reversed(trial_steps(top1465(200)))
                       if any(x.conflict is not None for x in s.branches))
    b = next(x for x in step.branches if x.conflict is not None)
    work = board.copy()
    work.place(b.cell, b.value)
    trace, conflict = record_chain(work, Engine().rules())
    assert conflict is not None
    chain = build_chain(board, b.cell, b.value, trace, conflict)
    used = {id(link.step) for link in chain.links}
    assert len(used) <= len(trace)
    assert chain.end and all(u <= len(chain.links) for u in chain.end)


def _same_in_both_kernels(puzzle: str) -> list:
    """The trial steps of ``puzzle`` with the accelerator, after checking that
    pure Python gives the same steps and chains."""
    if not native.available():
        pytest.skip("the accelerator is not built")
    fast = trial_steps(puzzle)
    native.set_enabled(False)
    try:
        pure = trial_steps(puzzle)
    finally:
        native.set_enabled(True)
    assert [s for _, s in fast] == [s for _, s in pure]
    assert [[b.chain for b in s.branches] for _, s in fast] == [
        [b.chain for b in s.branches] for _, s in pure]
    return fast


@pytest.mark.parametrize("puzzle", GRIDS[:3])
def test_python_and_the_accelerator_give_the_same_chains(puzzle: str) -> None:
    _same_in_both_kernels(puzzle)


def test_chains_are_deterministic() -> None:
    a = trial_steps(top1465(93))
    b = trial_steps(top1465(93))
    assert [s for _, s in a] == [s for _, s in b]


def test_disjunctive_construction_takes_every_common_conclusion_at_once() -> None:
    """One split, every conclusion its branches share: the next trial step
    never repeats the same split for another conclusion."""
    steps = [s for _, s in trial_steps(top1465(200))]
    dc = [s for s in steps if s.rule == "disjunctive-construction"]
    assert dc
    for a, b in zip(steps, steps[1:], strict=False):
        if a.rule == b.rule == "disjunctive-construction":
            assert [(x.cell, x.value) for x in a.branches] != [
                (x.cell, x.value) for x in b.branches] or a.placements != b.placements


def test_grading_is_unchanged_by_recording_chains() -> None:
    for puzzle in GRIDS:
        grid = parse_grid_token(puzzle)
        fast = Grader().grade_grid(grid).contract(True)
        full = Grader(record=True).grade_grid(grid).contract(True)
        fast.pop("seconds"), full.pop("seconds")
        assert fast == full


# -- renderings ------------------------------------------------------------------------
runner = CliRunner()
app = build_app()


def test_json_gives_each_branch_its_chain_and_end() -> None:
    puzzle = top1465(200)
    r = runner.invoke(app, ["explain", puzzle, "-f", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["schema"] == "sudoku-grader/explain/3"
    Explanation.model_validate(data)
    seen = 0
    for step in data["steps"]:
        for b in step["branches"]:
            chain = b["chain"]
            assert chain[0]["role"] == LinkRole.assumption and chain[0]["index"] == 0
            assert chain[0]["placements"] == [b["assume"]]
            assert b["steps"] is None  # the full trace only with --full-trace
            for i, link in enumerate(chain[1:], start=1):
                assert link["index"] == i and link["role"] == LinkRole.deduction
                assert link["rule"] and all(u < i for u in link["uses"])
                assert link["placements"] or link["eliminations"]
                seen += 1
            end = b["end"]
            assert end["kind"] in {k.value for k in EndKind}
            assert end["uses"] and all(u < len(chain) for u in end["uses"])
            if b["contradiction"] is not None:
                assert end["kind"] == "contradiction" and end["reason"] == b["contradiction"]
    assert seen
    # a later version of the same schema may add fields: they are ignored
    data["steps"][0]["future_field"] = 1
    Explanation.model_validate(data)


def test_json_full_trace_keeps_the_recorded_propagation() -> None:
    r = runner.invoke(app, ["explain", top1465(200), "-f", "json", "--full-trace"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    trials = [s for s in data["steps"] if s["branches"]]
    assert any(b["steps"] for s in trials for b in s["branches"])
    assert sum(len(b["steps"]) for s in trials for b in s["branches"]) >= sum(
        len(b["chain"]) - 1 for s in trials for b in s["branches"])


def test_text_shows_numbered_chains_with_their_reasons_and_the_notation() -> None:
    r = runner.invoke(app, ["explain", top1465(200), "--no-grid"])
    assert r.exit_code == 0, r.output
    out = r.output
    assert "(from A)" in out and "(from the assumption)" not in out
    assert "in short: r" in out and " -> " in out and " => " in out
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("contradiction:"))
    assert "(from " in line and "is impossible" in line
    full = runner.invoke(app, ["explain", top1465(200), "--no-grid", "--full-trace"])
    assert full.exit_code == 0
    assert "in short:" not in full.output
    assert len(full.output.splitlines()) > len(out.splitlines())


def test_chain_notation() -> None:
    _, step = trial_steps(top1465(200))[0]
    b = step.branches[0]
    text = chain_notation(step, b)
    geo = step.geo
    assert text.startswith(f"r{geo.cell_row[b.cell] + 1}c{geo.cell_col[b.cell] + 1}="
                           f"{b.value}")
    assert text.count(" -> ") == len(b.chain.links)


def test_markdown_shows_the_chain() -> None:
    r = runner.invoke(app, ["explain", top1465(200), "-f", "markdown", "--no-grid"])
    assert r.exit_code == 0
    assert "in short: `r" in r.output and "(from A)" in r.output


def test_html_draws_folds_and_navigates() -> None:
    grid = parse_grid_token(top1465(200))
    page = render_html(walkthrough(grid.board(), path="book"))
    assert '<nav class="toc" id="steps">' in page
    assert '<details class="branch"' in page and "</details>" in page
    assert 'href="#step-2">next' in page and "<script>" in page
    assert 'marker-end="url(#arrow-' in page  # arrows of the chains
    assert "A: the assumption" in page
    assert page.count("<svg") > page.count('<li class="step"')  # chain figures
    assert "#c92a2a" in page  # a contradiction outlined


def test_rule_supports_name_what_is_absent_where_the_rules_fire() -> None:
    """Each built-in rule's support lists only candidates really absent on
    the board its step was found on (so chains never cite a false premise)."""
    families = set()
    for puzzle in (book_figures()["fig4.5"]["puzzle"], top1465(200)):
        wt = walkthrough(parse_grid_token(puzzle).board(), path="book")
        for _, board, step in wt:
            if step.branches:
                continue
            families.add(step.family)
            for c, v in support(step):
                assert absent(board, c, v), (step.summary(), c, v)
    assert {"single-position", "naked-subset", "candidate-lines"} <= families


def test_a_rule_without_support_uses_every_fact_about_its_pattern() -> None:
    from grader.core.geometry import geometry
    from grader.core.steps import Pattern
    from grader.strategy.trials.chains import default_support

    geo = geometry(3, 3)
    step = Step(rule="plugin", name="plugin", level=5, family="no-such-family",
                placements=(), eliminations=((40, 1),),
                pattern=Pattern(cells=((0, "base"),), regions=((9, "region"),)), geo=geo)
    got = set(support(step))
    assert got == set(default_support(step))
    cells = {0} | set(geo.regions[9])
    assert got == {(c, v) for c in cells for v in range(1, 10)}


def sample_grids() -> list[str]:
    return [ln.split()[0] for ln in (DATA / "top1465-sample.txt").read_text().splitlines()
            if ln.strip() and not ln.startswith("#")]


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", sample_grids())
def test_every_sample_grid_has_sound_chains_in_both_kernels(puzzle: str) -> None:
    solution = solution_of(puzzle)
    steps = trial_steps(puzzle)
    for board, step in steps:
        check_trial(board, step, solution, True)
    if native.available():
        native.set_enabled(False)
        try:
            pure = trial_steps(puzzle)
        finally:
            native.set_enabled(True)
        assert [s for _, s in steps] == [s for _, s in pure]
