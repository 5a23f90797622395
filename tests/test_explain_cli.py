"""The explain command: text, JSON, Markdown, hints, pencil-mark positions,
moves, the non-terminal --step walk, and clear errors."""

from __future__ import annotations

import json
import re

import pytest
from conftest import PUZZLES, book_figures
from typer.testing import CliRunner

from grader.cli.main import build_app
from grader.core.board import Board
from grader.explainer.model import Explanation
from grader.formats import parse_grid_token

FIG = book_figures()
FIG21 = FIG["fig2.1"]["puzzle"]
runner = CliRunner()
app = build_app()


def run(*args: str, input: str | None = None):
    """``explain`` as these tests read it: the book's notation and every step in
    full (``--notation book --grids all``) unless the test chooses (the default
    is the compact notation and the step log: see the tests at the end)."""
    extra = [] if any(a.startswith("--notation") for a in args) else ["--notation", "book"]
    if not any(a in ("--grids", "--log") for a in args):
        extra += ["--grids", "all"]
    return runner.invoke(app, ["explain", *args, *extra], input=input)


def candidate_string(board: Board) -> str:
    geo = board.geo
    out = []
    for c in range(geo.ncells):
        for v in range(1, geo.n + 1):
            has = board.values[c] == v or (not board.values[c] and board.has(c, v))
            out.append(geo.symbol(v) if has else ".")
    return "".join(out)


def pencil_rows(board: Board) -> str:
    geo = board.geo
    rows = []
    for i in range(geo.n):
        cells = []
        for j in range(geo.n):
            c = i * geo.n + j
            v = board.values[c]
            cells.append(geo.symbol(v) if v else "".join(geo.symbol(w)
                                                         for w in board.candidates(c)))
        rows.append(" ".join(f"{t:<9}" for t in cells).rstrip())
    return "\n".join(rows)


def test_text_prints_every_step_with_rule_level_reference_and_grid():
    r = run(FIG21)
    assert r.exit_code == 0, r.output
    assert "Step 2 · single position (hidden single) · level 1 · rule 2.1" in r.output
    assert "in column C6 (and row R8 and block B8), 3 can only go in (8, 6) => (8, 6) <- 3" \
        in r.output
    assert r.output.count("┏") == 52 + 1  # a grid per step, plus the start
    assert "52 steps; level 1 (very easy); solved." in r.output


def test_index_picks_a_grid_of_a_file():
    r = run(str(PUZZLES / "book-figures.jsonl"), "--index", "4", "--no-grid")
    assert r.exit_code == 0, r.output
    assert "Step 1 · single candidate" in r.output  # fig2.3, the 4th record
    assert "9 is the only candidate left in (1, 5)" in r.output
    assert "┏" not in r.output


def test_teach_detail():
    r = run(FIG21, "--detail", "teach", "--no-grid")
    assert "Look at column C6: 3 is not placed there yet." in r.output
    assert "In row R8 and block B8 too, (8, 6) is the only place left for 3." in r.output


def test_json_is_the_documented_model():
    r = run(FIG21, "-f", "json")
    assert r.exit_code == 0, r.output
    doc = Explanation.model_validate_json(r.output)
    data = json.loads(r.output)
    assert data["schema"] == "sudoku-grader/explain/3"
    assert doc.solved and doc.level == 1 and doc.rating == "very easy"
    assert len(doc.steps) == 52 and [s.number for s in doc.steps] == list(range(1, 53))
    s2 = doc.steps[1]
    assert s2.placements[0].cell == [8, 6] and s2.placements[0].value == 3
    regions = [x.model_dump() for x in s2.pattern.regions]
    assert {"region": "C6", "role": "region"} in regions
    assert {"region": "R8", "role": "also"} in regions
    assert doc.final == FIG["fig2.1"]["solution"]
    again = run(FIG21, "-f", "json")
    assert again.output == r.output  # deterministic


def test_markdown_for_forums():
    r = run(FIG21, "-f", "markdown")
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert lines[0] == "# Sudoku explained"
    assert "```text" in lines
    step2 = next(ln for ln in lines if ln.startswith("2. "))
    assert "**single position**" in step2 and "`(8, 6) <- 3`" in step2
    assert "in column C6" in step2 and "(level 1, rule 2.1)" in step2


def test_markdown_nests_trial_branches():
    r = run(FIG["fig4.5"]["puzzle"], "-f", "markdown", "--no-grid", "--path", "book")
    assert r.exit_code == 0
    lines = r.output.splitlines()
    i = next(k for k, ln in enumerate(lines) if "**disjunctive construction**" in ln
             or "**reductio ad absurdum**" in ln)
    item = lines[i]
    col = len(item) - len(item.lstrip()) + item.lstrip().index(" ") + 1
    branch = lines[i + 1]
    assert branch.startswith(" " * col + "- *") and "assume" in branch
    assert any("**contradiction**" in ln for ln in lines[i:i + 60])


def test_hint_levels_technique_where_full():
    r = run(FIG21, "--hint", "technique")
    assert r.exit_code == 0
    assert r.output.strip() == "Try single position (hidden single; rule 2.1, level 1)."
    r = run(FIG21, "--hint", "where")
    assert r.exit_code == 0
    where = ("Try single position (hidden single; rule 2.1, level 1): look at column C3: "
             "one value has a single possible cell there.")
    assert r.output.strip() == where
    r = run(FIG21, "--hint", "vague")  # the old name of 'where': accepted, said deprecated
    assert r.exit_code == 0 and r.stdout.strip() == where
    assert "--hint vague is deprecated, use --hint where" in r.stderr
    r = run(FIG21, "--hint", "full")
    assert "Step 1 · single position" in r.output
    assert "Look at column C3" in r.output and "(8, 3) <- 4" in r.output
    assert "Step 2" not in r.output


def test_hint_json_names_its_level():
    r = run(FIG21, "--hint", "technique", "-f", "json")
    assert r.exit_code == 0
    assert json.loads(r.output) == {
        "level": "technique", "hint": "Try single position (hidden single; rule 2.1, level 1)."}
    doc = json.loads(run(FIG21, "--hint", "full", "-f", "json").output)
    assert doc["level"] == "full" and doc["step"]["placements"] == [
        {"cell": [8, 3], "value": 4}]


def test_hint_level_unknown_is_refused():
    r = run(FIG21, "--hint", "small")
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_moves_then_hint_continues_from_there():
    r = run(FIG21, "--moves", "r8c3=4", "--hint", "full", "--no-grid")
    assert r.exit_code == 0, r.output
    assert "(8, 6) <- 3" in r.output  # the book's step is next once the first one is made
    assert "in column C6" in r.output


@pytest.mark.parametrize("moves,code,message", [
    ("r1c8=1", 1, "is a mistake: the grid's solution has 3 there"),
    ("r1c1=3", 1, "(1, 1) already holds 6"),
    ("r1c3=6", 1, "cannot place 6 in (1, 3): 6 is already in (1, 1)"),
    ("r10c1=1", 1, "no cell (10, 1)"),
    ("place 3 at r1c8", 2, "cannot read"),
])
def test_bad_moves_are_named(moves, code, message):
    r = run(FIG21, "--moves", moves)
    assert r.exit_code == code
    assert message in r.output
    assert "Traceback" not in r.output


def test_pencil_marks_as_candidate_string_and_grid(tmp_path):
    # the book's marked figure 2.3, in both pencil-mark formats
    g = parse_grid_token(FIG["fig2.3"]["puzzle"])
    b = g.board()
    cs = candidate_string(b)
    assert len(cs) == 729
    r1 = run(cs, "-f", "json")
    assert r1.exit_code == 0, r1.output
    doc = Explanation.model_validate_json(r1.output)
    # a cell with one pencil mark is a placed value: (1, 5) is 9, and the book's
    # exercise 4, (3, 4) <- 5, is the next single candidate
    assert doc.candidates is not None and doc.candidates[4] == "9"
    assert doc.steps[0].summary == "single candidate: 5 is the only candidate left in (3, 4) " \
                                   "=> (3, 4) <- 5"
    f = tmp_path / "marks.txt"
    f.write_text(pencil_rows(b) + "\n", encoding="utf-8")
    r2 = run(str(f), "-f", "json")
    assert r2.exit_code == 0, r2.output
    assert json.loads(r2.output)["steps"] == json.loads(r1.output)["steps"]


def test_pencil_marks_are_the_position_not_the_givens(tmp_path):
    """Remove a candidate by hand: the explanation starts from the marks."""
    b = Board.from_string(FIG21)
    b.cands[7] = 1 << 2  # (1, 8): only 3 left -> a placed value in a pencil-mark grid
    r = run(candidate_string(b), "--hint", "vague")
    assert r.exit_code == 0, r.output
    assert "Try single position" in r.output and "row R1" not in r.output


def test_pencil_marks_that_remove_the_solution_are_refused():
    b = Board.from_string(FIG21)
    b.eliminate(7, 3)  # (1, 8) is 3 in the solution
    r = run(candidate_string(b))
    assert r.exit_code == 1
    assert "the pencil marks remove 3 from (1, 8), but the solution needs it there" in r.output


def test_step_without_terminal_prints_steps_with_separators():
    r = run(FIG21, "--step", "--no-grid")
    assert r.exit_code == 0
    assert r.output.count("═══ step ") == 52
    assert "Look at row R1" in r.output  # teach is the default for --step
    assert r.output.index("step 1 ═") < r.output.index("step 2 ═")


@pytest.mark.parametrize("args,code,message", [
    (["no-such-file.txt"], 2, "no-such-file.txt: no such file"),
    (["1234"], 2, "1234: cannot open"),  # neither a file nor a grid: as grade says
    (["1234" * 20 + "x"], 1, "malformed"),
    (["." * 81], 1, "multiple-solutions"),
    ([FIG21[:2] + "6" + FIG21[3:]], 1, "contradiction: 6 appears twice in row R1"),
    ([str(PUZZLES / "book-figures.jsonl"), "--index", "99"], 2, "no grid number 99"),
])
def test_errors_are_clear(args, code, message):
    r = run(*args)
    assert r.exit_code == code, r.output
    assert message in r.output
    assert "Traceback" not in r.output


def test_standard_input_and_rules_up_to():
    r = run("-", "--rules-up-to", "1", "--no-grid", input=FIG["fig2.3"]["puzzle"] + "\n")
    assert r.exit_code == 0, r.output
    assert "single candidate" not in r.output
    assert "stuck" in r.output  # single position alone cannot start Fig 2.3
    assert "cells still empty" in r.output
    assert "very easy" not in r.output  # an unfinished grid has no rating


def test_help_documents_every_option():
    r = runner.invoke(app, ["explain", "--help"])
    for opt in ("--index", "--format", "--detail", "--step", "--hint", "--moves", "--grid",
                "--output", "--rules-up-to", "--input-format", "--box", "--hierarchy",
                "--full-trace"):
        assert opt in r.output


@pytest.mark.parametrize("path,index,number", [
    ("book-figures.txt", 2, 2), ("generated-mixed-9x9.txt", 4, 16),
    ("generated-mixed-9x9.txt", 5, 13), ("book-figures.txt", 13, 34),
])
def test_readme_explanations_are_the_programs_output(path, index, number):
    """The explaining guide's four examples (a single, a subset, a fish, a trial) are
    what `explain ... --detail teach --no-grid` prints for that step."""
    r = run(str(PUZZLES / path), "--index", str(index), "--detail", "teach", "--no-grid",
            "--notation", "compact")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(f"Step {number} · "))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("Step "))
    block = "\n".join("  " + ln for ln in lines[start:end])
    readme = (PUZZLES.parent / "docs" / "explain.md").read_text(encoding="utf-8")
    assert block in readme


def test_readme_hint_example_is_true():
    import grader
    from grader.explainer import HINT_LEVELS, hint

    readme = (PUZZLES.parent / "docs" / "explain.md").read_text(encoding="utf-8")
    pattern = next(s for s in grader.explain(FIG["fig6.2"]["puzzle"]) if s.se is not None)
    tech, where, full = (hint(pattern, lv, notation="compact") for lv in HINT_LEVELS)
    assert f"# {tech}\n" in readme
    assert f"# {where}\n" in readme or f"# {where[:90]} ...\n" in readme
    assert f"# {full.splitlines()[0]}   (then" in readme
    assert "\n".join("  " + ln for ln in full.splitlines()[1:]) in readme


# -- the defaults: the compact notation, the step log, the hardest step in full --
def test_the_default_text_is_the_step_log_and_the_hardest_step():
    r = runner.invoke(app, ["explain", FIG["fig6.2"]["puzzle"]])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "Step log"
    log = lines[2:lines.index("", 2)]
    assert log and all(len(ln) <= 120 for ln in log)
    assert all(re.match(r"^ *\d+ ", ln) for ln in log)
    assert "The hardest step (" in r.output
    assert "(1, " not in r.output and "<-" not in r.output  # one notation: compact
    assert " R1" not in r.output and "block B" not in r.output


def test_log_alone_and_grids_choices():
    grid = FIG["fig6.2"]["puzzle"]
    log = runner.invoke(app, ["explain", grid, "--log"]).output.splitlines()
    assert log[0] == "Step log" and "The hardest step" not in "\n".join(log)
    steps = log[2:log.index("", 2)]
    expert = runner.invoke(app, ["explain", grid, "--grids", "expert", "--no-grid"]).output
    every = runner.invoke(app, ["explain", grid, "--grids", "all", "--no-grid"]).output
    assert every.count("\nStep ") + every.startswith("Step ") == len(steps)
    assert 0 < expert.count("\nStep ") < len(steps)


def test_the_book_notation_throughout():
    r = runner.invoke(app, ["explain", FIG["fig6.2"]["puzzle"], "--notation", "book", "--log"])
    assert r.exit_code == 0, r.output
    assert not re.search(r"\br\d+c\d+", r.output), r.output
