"""The commands as library calls: each command parses its options into a typed
object and hands it over; these tests call the library with that object
directly, in-process (no command line, no subprocess).

solve: :class:`grader.exact.solving.SolveOptions`; generate:
:class:`grader.generator.request.GenerateOptions`; explain:
:class:`grader.explainer.request.ExplainOptions`; pair generate:
:class:`grader.exact.pairs.PairGenerateOptions`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from conftest import book_figures

from grader.exact import EngineError, is_solution
from grader.exact.pairs import (
    PairGenerateOptions,
    pair_generate,
    pair_text,
    solve_pair,
    verify_pair,
)
from grader.exact.solving import (
    SolveOptions,
    all_good,
    compare,
    compare_names,
    report_line,
    solve_inputs,
    summary,
    write_outputs,
)
from grader.explainer.core import ExplainError, UsageError
from grader.explainer.request import ExplainOptions, explain_text, load, walk
from grader.formats import iter_source, iter_text, parse_grid_token
from grader.generator import GenerationError, TargetError
from grader.generator.request import GenerateOptions, pack_command, prepare, produce
from grader.kernel import solve

FIG = book_figures()
P = FIG["fig2.1"]["puzzle"]
SOL = FIG["fig2.1"]["solution"]
#: a grid with exactly two solutions
TWO = ".42.7........3.....7....9..5.68.......1..53......41....6...2.1..2..5.7.8..36..5.."


# -- solve ------------------------------------------------------------------------------
def test_solve_options_solve_a_batch_with_every_verdict(tmp_path: Path) -> None:
    dup = "11" + P[2:]
    f = tmp_path / "grids.txt"
    f.write_text(f"{P}\n{TWO}\n{dup}\nnot a grid 123\n")
    seen = []
    run = solve_inputs(SolveOptions(engine="csp"), [str(f)], on_outcome=seen.append)
    assert [o.verdict for o in run.outcomes] == ["ok", "multiple-solutions", "contradiction",
                                                 "malformed"]
    assert seen == run.outcomes and run.engine.name == "csp"
    ok = run.outcomes[0]
    assert ok.rec.grid is not None and ok.result is not None
    assert is_solution(ok.rec.grid.geo, ok.rec.grid.values, ok.result.solutions[0])
    assert "".join(map(str, ok.result.solutions[0])) == SOL
    assert run.outcomes[1].message == "the grid has at least 2 solutions"
    assert not all_good(run.outcomes, SolveOptions())
    line = report_line(ok, count=False)
    assert line.split()[:4] == ["1", "line", "1", "ok"] and line.endswith(SOL)
    assert summary("csp", run.outcomes, 2.0).startswith("4 grids, engine csp: ")


def test_solve_options_count_and_limit_decide_the_status() -> None:
    counted = solve_inputs(SolveOptions(count=True), [TWO])
    assert counted.outcomes[0].count == 2 and counted.outcomes[0].result.complete
    assert all_good(counted.outcomes, SolveOptions(count=True))
    cut = SolveOptions(count=True, limit=2)
    assert cut.solution_limit == 2 and SolveOptions(listing=True).solution_limit == 1000
    assert not all_good(solve_inputs(cut, [TWO]).outcomes, cut)


def test_solve_outputs_keep_the_input_format() -> None:
    nt = "3 " + P.replace(".", "0")
    o = solve_inputs(SolveOptions(), [nt]).outcomes[0]
    fh, pretty = io.StringIO(), io.StringIO()
    write_outputs(o, False, fh, pretty)
    assert fh.getvalue() == "3 " + SOL + "\n"
    assert pretty.getvalue().startswith("# grid 1 (line 1): ok\n")
    two = solve_inputs(SolveOptions(), [TWO]).outcomes[0]
    fh = io.StringIO()
    write_outputs(two, False, fh, None)
    assert fh.getvalue() == "# grid 1 (line 1): multiple-solutions: the grid has at least 2 " \
                            "solutions\n"


def test_compare_engines_agree_and_names_are_checked() -> None:
    recs = list(iter_text(io.StringIO(f"{P}\n{TWO}\n"), "<test>"))
    cmp = compare(["native", "csp"], recs, SolveOptions())
    assert cmp.disagreements() == []
    assert [o.verdict for o in cmp.runs["csp"]] == ["ok", "multiple-solutions"]
    assert compare_names(["native,csp", "native"]) == ["native", "csp"]
    with pytest.raises(EngineError, match="unknown engine 'nope' in --compare"):
        compare_names(["nope"])


# -- generate -----------------------------------------------------------------------------
def test_generate_options_make_graded_unique_grids() -> None:
    plan = prepare(GenerateOptions(rating="easy,medium", number=2, seed=7, symmetry="central"))
    assert plan.seed == 7 and [t.target.label for t in plan.tasks()] == ["easy", "medium"]
    out = io.StringIO()
    made = produce(plan, out)
    assert [g.result.rating for g in made.made] == ["easy", "medium"] and not made.missing
    recs = list(iter_text(io.StringIO(out.getvalue()), "<made>"))
    assert len(recs) == 2
    for rec, g in zip(recs, made.made, strict=True):
        assert rec.grid is not None and rec.grid.values == g.puzzle
        assert solve(rec.grid.geo, rec.grid.values, 2).count == 1
    again = io.StringIO()
    produce(prepare(GenerateOptions(rating="easy,medium", number=2, seed=7,
                                    symmetry="central")), again)
    assert again.getvalue() == out.getvalue()  # the same seed, the same grids


@pytest.mark.parametrize(("opts", "error", "message"), [
    (GenerateOptions(size=7), GenerationError, "--size 7: use one of"),
    (GenerateOptions(size=6, output_format="nt"), GenerationError, "--format nt needs square"),
    (GenerateOptions(with_solution=True, output_format="block"), GenerationError,
     "the block format has no place"),
    (GenerateOptions(pack=Path("p"), rating="easy"), GenerationError, "--pack makes one grid"),
    (GenerateOptions(rating="nonsense"), TargetError, "nonsense"),
    (GenerateOptions(min_givens=50, max_givens=40), GenerationError, "is more than"),
])
def test_generate_options_refused_with_the_commands_message(opts: GenerateOptions,
                                                            error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        prepare(opts)


def test_generate_like_file_problems_name_file_and_line(tmp_path: Path) -> None:
    f = tmp_path / "like.txt"
    f.write_text(f"{TWO}\n")
    with pytest.raises(GenerationError, match=r"like.txt:1: the grid has several solutions"):
        prepare(GenerateOptions(like=f))


def test_pack_command_says_how_to_make_it_again() -> None:
    plan = prepare(GenerateOptions(pack=Path("daily"), seed=3, size=6, symmetry="central"))
    assert pack_command(plan) == ["generate", "--pack", "daily", "--seed", "3", "--size", "6",
                                  "--symmetry", "central"]
    assert plan.count == len(plan.targets) > 3


# -- explain ------------------------------------------------------------------------------
def test_explain_options_give_the_documented_json() -> None:
    doc = json.loads(explain_text(ExplainOptions(P, fmt="json")))
    steps = doc["steps"]
    assert steps and all(s["level"] >= 1 for s in steps)
    placed = {(p["cell"][0], p["cell"][1]): p["value"] for s in steps for p in s["placements"]}
    for (r, c), v in placed.items():
        assert SOL[(r - 1) * 9 + c - 1] == str(v)


def test_explain_options_step_and_hint() -> None:
    one = json.loads(explain_text(ExplainOptions(P, fmt="json", step_number=1)))
    pos, board = load(ExplainOptions(P))
    wt = walk(ExplainOptions(P), pos, board)
    first = wt.step(0)
    # JSON writes the default notation (compact), the step itself the book's
    from grader.explainer.notation import DEFAULT, shown

    assert first is not None and one["summary"] == shown(first.summary(), DEFAULT)
    hint = json.loads(explain_text(ExplainOptions(P, fmt="json", hint="technique")))
    assert hint["level"] == "technique" and hint["hint"].startswith(f"Try {first.name}")
    total = len(json.loads(explain_text(ExplainOptions(P, fmt="json")))["steps"])
    with pytest.raises(UsageError, match=rf"--step 999: the solution has {total} steps"):
        explain_text(ExplainOptions(P, fmt="json", step_number=999))


def test_explain_options_refuse_what_cannot_be_explained() -> None:
    with pytest.raises(ExplainError, match="multiple-solutions"):
        load(ExplainOptions(TWO))
    with pytest.raises(UsageError, match="--moves: cannot read"):
        load(ExplainOptions(P, moves="what?"))
    assert ExplainOptions(P).depth == "short" and ExplainOptions(P, hint="full").depth == "teach"


# -- pair generate ------------------------------------------------------------------------
def test_pair_generate_options_make_a_verified_minimal_pair() -> None:
    opts = PairGenerateOptions(order=2, seed=4, output_format="line", with_solution=True)
    gen = pair_generate(opts)
    check = verify_pair(gen)
    assert check.ok and check.count == 1 and check.removable == []
    assert check.line().startswith("verify: 1 joint solution; 0 givens removable")
    lines = pair_text(gen, opts).splitlines()
    assert len(lines) == 4  # two puzzles, then the two solutions
    a, b = (parse_grid_token(x) for x in lines[:2])
    res = solve_pair(a.geo, a.values, b.values, 2)
    assert res.count == 1 and res.solutions[0] == (gen.solution_a, gen.solution_b)
    with pytest.raises(ValueError, match="unknown pair format"):
        pair_generate(PairGenerateOptions(order=2, output_format="svg"))


def test_library_reads_the_same_records_as_the_command() -> None:
    recs = list(iter_source(P))
    assert SolveOptions().records([P]).__next__() == recs[0]


@pytest.mark.parametrize("module", ["grader.exact.solving", "grader.generator.request",
                                    "grader.explainer.request"])
def test_the_modules_examples_are_true(module: str) -> None:
    import doctest
    import importlib

    res = doctest.testmod(importlib.import_module(module))
    assert res.attempted > 0 and res.failed == 0
