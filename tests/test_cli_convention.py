"""The CLI convention (README, "The command line: one convention") and the
Python API that mirrors it: shared options, --version, explain --step N, the
overwrite policy, --jobs, --seed, --quiet, --color, the exception family."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import PUZZLES, scaled
from typer.testing import CliRunner

import grader
from grader.cli.explain import step_args
from grader.cli.main import build_app
from grader.core.errors import GraderError, GridTypeError
from grader.formats import InputError, MalformedGrid

G = "64.5.98......3..7.3.8.1...4.....7...4..965..7...3.....8...9.4.3.2..5......36.4.92"
SOL = "642579831159438276378216954536827149481965327297341685865792413924153768713684592"
runner = CliRunner()
app = build_app()
COMMANDS = ["grade", "explain", "solve", "generate", "pair"]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "grader", *args], capture_output=True,
                          text=True, timeout=scaled(300))


# ---------------------------------------------------------------- --version


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)])
def test_version_tells_the_accelerator_hierarchy_and_plugins(command: list[str]) -> None:
    t0 = time.perf_counter()
    p = cli(*command, "--version")
    wall = time.perf_counter() - t0
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == f"sudoku-grader {grader.about.version()}"
    assert lines[1].startswith("python: ")
    acc = lines[2]
    from grader.kernel import c as native

    assert acc.startswith("accelerator: built, enabled" if native.available()
                          else "accelerator: ")
    assert "hierarchy: jussien: built-in" in p.stdout and "14 rules, levels 1-14" in p.stdout
    assert "single-position = grader.rules.singles:SinglePosition (sudoku-grader " in p.stdout
    assert wall < 30  # (the speed itself is measured by benchmarks, not here)


def test_version_in_process_and_when_not_built(monkeypatch: pytest.MonkeyPatch) -> None:
    r = runner.invoke(app, ["solve", "--version"])
    assert r.exit_code == 0 and "accelerator:" in r.output
    from grader import about

    monkeypatch.setattr(about, "accelerator_built", lambda: False)
    assert "accelerator: not built (pure Python" in about.report()
    monkeypatch.setenv("SUDOKU_GRADER_PURE", "1")
    monkeypatch.setattr(about, "accelerator_built", lambda: True)
    assert "accelerator: built, disabled by SUDOKU_GRADER_PURE" in about.report()


def test_plugin_group_matches_the_engine() -> None:
    from grader import about
    from grader.strategy import plugins

    assert about.GROUP == plugins.GROUP


def test_import_grader_does_not_load_the_engine() -> None:
    code = ("import sys, grader; bad = [m for m in ('grader.core.board', 'grader.strategy.engine', "
            "'pydantic', 'typer', 'rich') if m in sys.modules]; print(bad)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.stdout.strip() == "[]", p.stdout + p.stderr


# ---------------------------------------------------------------- help


@pytest.mark.parametrize("command", [[c] for c in COMMANDS if c != "pair"]
                         + [["pair", "solve"], ["pair", "generate"], []])
def test_help_has_no_bool_metavars_and_shared_spellings(command: list[str]) -> None:
    r = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert r.exit_code == 0
    assert "<bool>" not in r.output and "<list[str]>" not in r.output
    assert "--color" in r.output and "--version" in r.output
    if command and command != ["pair"]:
        assert "--quiet" in r.output
    if command in (["grade"], ["solve"], ["explain"], ["pair", "solve"]):
        assert "-i, --input-format" in r.output.replace("  ", " ") or "-i" in r.output


def test_explain_index_lost_its_short_flag_to_input_format() -> None:
    r = runner.invoke(app, ["explain", str(PUZZLES / "book-figures.txt"), "-i", "line",
                            "--index", "2", "--detail", "short", "--no-grid"])
    assert r.exit_code == 0, r.output
    assert "Step 1 ·" in r.output


# ---------------------------------------------------------------- explain --step N


def test_step_args_rewrites_only_an_integer_after_step() -> None:
    assert step_args(["G", "--step", "5"]) == ["G", "--step-number", "5"]
    assert step_args(["G", "--step=7"]) == ["G", "--step-number", "7"]
    assert step_args(["G", "--step"]) == ["G", "--step"]
    assert step_args(["--step", "G"]) == ["--step", "G"]
    assert step_args(["--", "--step", "5"]) == ["--", "--step", "5"]


@pytest.mark.parametrize("form", [["--step", "2"], ["--step=2"]])
def test_explain_step_n_shows_that_step_with_its_board_and_reasoning(form: list[str]) -> None:
    r = runner.invoke(app, ["explain", G, *form])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Step 2 · single position (hidden single) · level 1 · rule 2.1")
    assert "r8c6=3" in r.output  # the compact notation, the default
    assert "Look at column 6: 3 is not placed there yet." in r.output  # teach detail
    assert r.output.count("┏") == 1  # the board before the step
    assert "Step 1 ·" not in r.output and "Step 3 ·" not in r.output


def test_explain_step_alone_still_walks_and_past_the_end_is_a_usage_error() -> None:
    r = runner.invoke(app, ["explain", G, "--step", "--no-grid"])
    assert r.exit_code == 0 and "step 52" in r.output and "step 1 " in r.output
    r = runner.invoke(app, ["explain", G, "--step", "53"])
    assert r.exit_code == 2 and "the solution has 52 steps" in r.output


def test_explain_step_n_json() -> None:
    import json

    r = runner.invoke(app, ["explain", G, "--step", "2", "-f", "json"])
    d = json.loads(r.output)
    assert d["number"] == 2 and d["placements"] == [{"cell": [8, 6], "value": 3}]


def test_explain_missing_file() -> None:
    p = cli("explain", "no-such-grids.txt")
    assert p.returncode == 2 and "no-such-grids.txt: no such file" in p.stderr
    assert "Traceback" not in p.stderr


# ---------------------------------------------------------------- -o, --jobs, --seed


@pytest.mark.parametrize("args", [
    ["grade", G, "-o", "{out}.jsonl"],
    ["explain", G, "-o", "{out}"],
    ["solve", G, "-o", "{out}"],
    ["solve", G, "--output-pretty", "{out}"],
    ["generate", "-r", "easy", "--seed", "1", "-o", "{out}"],
    ["pair", "generate", "--order", "2", "--seed", "1", "-o", "{out}"],
])
def test_an_existing_output_is_refused_without_overwrite(args: list[str],
                                                         tmp_path: Path) -> None:
    target = tmp_path / "existing"
    real = [a.replace("{out}", str(target)) for a in args]
    path = Path(next(a for a in real if str(target) in a))
    path.write_text("keep me\n")
    r = runner.invoke(app, real)
    assert r.exit_code == 2 and "exists" in r.output, r.output
    assert path.read_text() == "keep me\n"
    r = runner.invoke(app, [*real, "--overwrite"])
    assert r.exit_code == 0, r.output
    assert path.read_text() != "keep me\n"


def test_jobs_zero_means_all_cores_and_negative_is_refused() -> None:
    for cmd in (["grade", G], ["generate", "-r", "easy", "--seed", "1"]):
        assert runner.invoke(app, [*cmd, "-j", "0", "-q"]).exit_code == 0
        r = runner.invoke(app, [*cmd, "-j", "-1"])
        assert r.exit_code == 2


def test_seed_is_an_integer_everywhere_and_reported() -> None:
    for cmd in (["generate", "-r", "easy"], ["pair", "generate", "--order", "2"]):
        r = runner.invoke(app, [*cmd, "--seed", "2026-03-14"])
        assert r.exit_code == 2  # not an integer
        p = cli(*cmd)
        assert p.returncode == 0, p.stderr
        seed = next(ln for ln in p.stderr.splitlines() if ln.startswith("seed ")).split()[1]
        again = cli(*cmd, "--seed", seed, "-q")
        assert again.stdout == p.stdout and again.stderr == ""


def test_grade_time_limit_and_its_deprecated_alias() -> None:
    p = cli("grade", G, "--time-limit", "30", "-f", "jsonl")
    assert p.returncode == 0 and '"verdict": "ok"' in p.stdout
    assert "deprecated" not in p.stderr
    p = cli("grade", G, "--timeout", "30", "-f", "jsonl")
    assert p.returncode == 0 and '"verdict": "ok"' in p.stdout
    assert p.stderr.strip() == ("grade: warning: --timeout is deprecated, use --time-limit "
                                "(seconds per grid) (the old name goes in 0.3.0)")


def test_quiet_drops_the_summary() -> None:
    many = str(PUZZLES / "book-calibration.txt")
    loud = cli("grade", many, "-j", "1", "-f", "jsonl", "--summary")
    assert "grids" in loud.stderr
    p = cli("grade", many, "-j", "1", "-f", "jsonl", "-q")
    assert p.returncode == 0 and p.stderr == ""
    p = cli("solve", many, "-q")
    assert p.returncode == 0 and p.stderr == ""


def test_color_always_and_never() -> None:
    p = cli("grade", G, "--color", "always")
    assert "\x1b[" in p.stdout
    p = cli("grade", G, "--color", "never")
    assert "\x1b[" not in p.stdout and "very easy" in p.stdout
    r = runner.invoke(app, ["grade", G, "--color", "sometimes"])
    assert r.exit_code == 2


# ---------------------------------------------------------------- solve


def test_solve_count_exits_1_when_the_limit_is_hit() -> None:
    p = cli("solve", "1" + "." * 80, "--count", "--limit", "5")
    assert p.returncode == 1 and p.stdout.strip() == "at least 5 solutions (stopped at --limit 5)"
    p = cli("solve", G, "--count")
    assert p.returncode == 0 and p.stdout.strip() == "1 solution"


def test_solve_puzzle_solution_lines(tmp_path: Path) -> None:
    f = tmp_path / "pairs.txt"
    f.write_text(f"{G} {SOL}\nid-2 {G},{SOL} # c\n")
    p = cli("solve", str(f), "-o", str(tmp_path / "out.txt"), "-q")
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "out.txt").read_text().splitlines() == [SOL, f"id-2 {SOL} # c"]
    one = tmp_path / "one.txt"
    one.write_text(f"{G} {SOL}\n")
    assert cli("solve", str(one)).stdout.strip() == SOL


# ---------------------------------------------------------------- the API


def test_api_grade_reads_what_the_cli_reads() -> None:
    r = grader.grade(f"grid-7 {G}  # a comment")
    assert (r.verdict, r.rating, r.level, r.steps) == ("ok", "very easy", 1, 52)
    nt = grader.grade("3 " + G.replace(".", "0"))
    assert nt.model_dump(exclude={"seconds"}) == r.model_dump(exclude={"seconds"})
    assert grader.grade("." * 81).verdict == "multiple-solutions"
    with pytest.raises(MalformedGrid):
        grader.grade("garbage")
    with pytest.raises(GridTypeError):
        grader.grade(None)  # type: ignore[arg-type]


def test_api_explain_errors_are_one_family() -> None:
    from grader.explainer import ExplainError

    with pytest.raises(GridTypeError) as e:
        grader.explain(None)
    assert isinstance(e.value, TypeError) and isinstance(e.value, GraderError)
    assert "got None" in str(e.value)
    with pytest.raises(ExplainError, match="malformed: no grid found in 'garbage'"):
        grader.explain("garbage")
    with pytest.raises(ExplainError, match="contradiction: 1 appears twice in row R1"):
        grader.explain("11" + "." * 79)
    with pytest.raises(ExplainError, match="multiple-solutions"):
        grader.explain("." * 81)


def test_api_explain_takes_pencil_marks_and_moves() -> None:
    steps = grader.explain(G)
    assert len(steps) == 52 and steps[1].placements
    later = grader.explain(G, moves="r1c8=3 r2c4=4")
    assert len(later) == 50
    doc = grader.explanation(G)
    assert doc.level == 1 and len(doc.steps) == 52 and doc.final == SOL


def test_api_solve_rate_file_generate() -> None:
    s = grader.solve(G)
    assert isinstance(s, grader.SolveReport) and s.verdict == "ok" and s.solution == SOL
    two = grader.solve("." * 16, limit=10, all_solutions=True)
    assert two.verdict == "multiple-solutions" and len(two.solutions or []) == 10
    rows = list(grader.rate_file(PUZZLES / "book-calibration.txt"))
    cli_rows = cli("grade", str(PUZZLES / "book-calibration.txt"), "-f", "jsonl", "-j", "1")
    import json

    want = [json.loads(ln) for ln in cli_rows.stdout.splitlines()]
    assert [r.model_dump(exclude={"seconds"}) for r in rows] == \
        [{k: v for k, v in d.items() if k != "seconds"} for d in want]
    with pytest.raises(InputError):
        grader.rate_file("no-such-file.txt")
    made = grader.generate("easy", number=2, seed=1)
    assert [g.rating for g in made] == ["easy", "easy"]
    assert all(getattr(g, "solution", None) for g in made)


def test_existing_exceptions_are_grader_errors_where_they_were() -> None:
    from grader.bulk.resume import ResumeError
    from grader.bulk.where import WhereError
    from grader.exact.base import EngineError
    from grader.explainer import ExplainError
    from grader.formats import InputError, MalformedGrid
    from grader.strategy.hierarchy import HierarchyError
    from grader.strategy.plugins import PluginError

    for cls, base in ((MalformedGrid, ValueError), (InputError, OSError),
                      (ExplainError, ValueError), (HierarchyError, ValueError),
                      (PluginError, LookupError), (EngineError, RuntimeError),
                      (ResumeError, ValueError), (WhereError, ValueError)):
        assert issubclass(cls, GraderError) and issubclass(cls, base)


# ---------------------------------------------------------------- text without colour


def test_plain_text_marks_roles_regions_and_placed_values_with_characters() -> None:
    r = runner.invoke(app, ["explain", G, "--step", "2", "--moves", "r1c8=3"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[-1] == ("T target   X excluder   r region   a also   *v placed   "
                         "(v) placed earlier; bare values are givens")
    row8 = [ln for ln in lines if ln.startswith("  ┃") or ln.startswith("8 ┃")]
    assert any("*3T┃" in ln for ln in row8)  # the target (8, 6): placed 3, marked T
    assert any("(4)" in ln for ln in lines)  # (8, 3) was placed by step 1, not a given
    step = grader.explain(G, moves="r1c8=3")[1]
    excluders = sum(1 for _, role in step.pattern.cells if role == "excluder")
    assert excluders >= 2
    assert sum(ln.count("X┃") + ln.count("X│") for ln in lines) == excluders
    r = runner.invoke(app, ["explain", G, "--step", "2"], color=True)
    assert "(4)" in r.output  # CliRunner has no colour system: still plain


def test_colour_output_keeps_the_coloured_drawing() -> None:
    p = cli("explain", G, "--step", "2", "--color", "always")
    assert "\x1b[42m" in p.stdout and "T┃" not in p.stdout and "(4)" not in p.stdout


def test_version_reads_the_same_plugins_as_importlib_metadata(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import metadata

    from grader import about

    info = tmp_path / "acme_rules-2.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-rules\nVersion: 2.3\n\n")
    (info / "entry_points.txt").write_text(
        "[console_scripts]\nacme = acme:main\n\n"
        "[sudoku_grader.rules]\nxy-wing = acme.wings:XYWing\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    want = sorted(f"{ep.name} = {ep.value} ({ep.dist.name} {ep.dist.version})"
                  for ep in metadata.entry_points(group=about.GROUP))
    assert about.plugin_lines() == want
    assert "xy-wing = acme.wings:XYWing (acme-rules 2.3)" in want
    assert about.version() == metadata.version("sudoku-grader")
