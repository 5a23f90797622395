"""Verdicts before grades, and every kind of bad input through the `grade`
command: each gets its verdict or a clear error with the file and line,
exit status 0 (all ok), 1 (some grid not ok) or 2 (usage error, unreadable
input), and never a traceback."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import book_figures, scaled
from typer.testing import CliRunner

from grader import Grader, parse_grid_token
from grader.cli.main import build_app
from grader.strategy.grading import CONTRACT_FIELDS

FIGS = book_figures()
P = FIGS["fig2.1"]["puzzle"]
SOL = FIGS["fig2.1"]["solution"]
runner = CliRunner()
app = build_app()


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    """Run `grade` in-process: (exit code, stdout, stderr); fails on a traceback."""
    res = runner.invoke(app, ["grade", *args], input=input)
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise AssertionError(f"grade {args} raised {res.exception!r}") from res.exception
    assert "Traceback" not in res.stdout + res.stderr
    return res.exit_code, res.stdout, res.stderr


def jsonl(*args: str, input: str | None = None) -> tuple[int, list[dict], str]:
    code, out, err = run(*args, "-f", "jsonl", input=input)
    return code, [json.loads(x) for x in out.splitlines() if x.strip()], err


def write(tmp_path: Path, name: str, text: str | bytes) -> str:
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text)
    return str(p)


def no_solution_grid() -> str:
    """Figure 2.1 plus one wrong given that conflicts with no other given: a
    uniquely solvable grid with a wrong extra given has no solution."""
    board = parse_grid_token(P).board()
    for c, ch in enumerate(P):
        if ch == ".":
            for v in board.candidates(c):
                if str(v) != SOL[c]:
                    return P[:c] + str(v) + P[c + 1:]
    raise AssertionError("unreachable")


def multi_solution_grid() -> str:
    """Figure 1.6 is minimal (17 givens): without any one given it has several solutions."""
    p = FIGS["fig1.6"]["puzzle"]
    i = next(i for i, ch in enumerate(p) if ch != ".")
    return p[:i] + "." + p[i + 1:]


# -- the verdicts themselves --------------------------------------------------------
@pytest.mark.parametrize(("puzzle", "verdict", "message"), [
    (P, "ok", None),
    (SOL, "ok", None),
    ("66" + P[2:], "contradiction", "6 appears twice in row R1, at (1, 1) and (1, 2)"),
    ("6" + P[1:9] + "6" + P[10:], "contradiction",
     "6 appears twice in column C1, at (1, 1) and (2, 1)"),
    ("6" + P[1:10] + "6" + P[11:], "contradiction",
     "6 appears twice in block B1, at (1, 1) and (2, 2)"),
    (no_solution_grid(), "no-solution", "the givens admit no solution"),
    (multi_solution_grid(), "multiple-solutions", "the grid has more than one solution"),
    ("." * 81, "multiple-solutions", None),
])
def test_verdicts(puzzle: str, verdict: str, message: str | None) -> None:
    grid = parse_grid_token(puzzle)
    r = Grader().grade_grid(grid, index=3, line=7)
    assert (r.index, r.line, r.verdict) == (3, 7, verdict)
    if message is not None:
        assert r.message == message
    if verdict != "ok":
        assert r.level is None and r.rating is None and r.score is None


def test_a_solved_grid_is_ok_at_level_0() -> None:
    r = Grader().grade_grid(parse_grid_token(SOL))
    assert (r.verdict, r.level, r.rating, r.score, r.steps, r.depth, r.hardest) == (
        "ok", 0, "solved", 0.0, 0, 0, None)
    assert r.techniques == {}


def test_contract_fields_in_order() -> None:
    r = Grader().grade_grid(parse_grid_token(P))
    d = r.contract()
    assert list(d) == list(CONTRACT_FIELDS) == [
        "index", "line", "puzzle", "size", "verdict", "message", "level", "rating", "score",
        "depth", "steps", "techniques", "hardest", "se", "se_pattern", "ep", "ed", "seconds",
        "schema"]
    assert list(r.contract(with_solution=True))[-1] == "solution"
    assert r.contract(with_solution=True)["solution"] == SOL


# -- bad grids through the CLI ---------------------------------------------------------
def test_wrong_length(tmp_path: Path) -> None:
    f = write(tmp_path, "short.txt", "# one short grid\n" + P[:80] + "\n")
    code, out, _ = jsonl(f)
    assert code == 1
    (r,) = out
    assert (r["verdict"], r["line"], r["size"]) == ("malformed", 2, None)
    assert r["message"].startswith("80 symbols")


def test_bad_symbol_with_its_position(tmp_path: Path) -> None:
    f = write(tmp_path, "bad.txt", P[:40] + "x" + P[41:] + "\n")
    code, out, _ = jsonl(f)
    assert code == 1
    assert out[0]["verdict"] == "malformed"
    assert "symbol 'x' at position 41 (row 5, column 5)" in out[0]["message"]


def test_repeated_given_names_the_region() -> None:
    code, out, _ = jsonl("66" + P[2:])
    assert code == 1
    assert (out[0]["verdict"], out[0]["message"]) == (
        "contradiction", "6 appears twice in row R1, at (1, 1) and (1, 2)")


def test_no_solution_and_multiple_solutions() -> None:
    code, out, _ = jsonl(no_solution_grid())
    assert code == 1 and out[0]["verdict"] == "no-solution"
    code, out, _ = jsonl(multi_solution_grid())
    assert code == 1 and out[0]["verdict"] == "multiple-solutions"


def test_solved_grid_exit_0() -> None:
    code, out, _ = jsonl(SOL)
    assert code == 0
    assert (out[0]["verdict"], out[0]["level"], out[0]["rating"]) == ("ok", 0, "solved")
    code, out, _ = run(SOL)
    assert code == 0 and "solved" in out


def test_bulk_run_reports_bad_grids_per_puzzle_and_goes_on(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [P[:80], "66" + P[2:], no_solution_grid(), multi_solution_grid(), SOL, P]
    write(tmp_path, "mixed.txt", "\n".join(lines) + "\n")
    monkeypatch.chdir(tmp_path)
    f = "mixed.txt"
    code, out, _ = jsonl(f)
    assert code == 1
    assert [(r["index"], r["line"], r["verdict"]) for r in out] == [
        (1, 1, "malformed"), (2, 2, "contradiction"), (3, 3, "no-solution"),
        (4, 4, "multiple-solutions"), (5, 5, "ok"), (6, 6, "ok")]
    # the table names the file and line of every grid that is not ok
    code, table, _ = run(f)
    assert code == 1
    for line in (1, 2, 3, 4):
        assert f"mixed.txt:{line}" in table.replace("\n", "")


def test_single_bad_grid_from_a_file_names_file_and_line(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "one.txt", "# a comment\n" + "66" + P[2:] + "\n")
    monkeypatch.chdir(tmp_path)
    code, out, err = run("one.txt")
    assert code == 1
    assert "appears twice in row R1" in out
    assert "one.txt" in out + err and "2" in out + err


def test_markup_characters_in_a_bad_grid_do_not_crash_the_panel(tmp_path: Path) -> None:
    f = write(tmp_path, "markup.txt", "." * 79 + "[/]\n")
    code, out, _ = run(f)
    assert code == 1 and "malformed" in out


def test_csv_output(tmp_path: Path) -> None:
    f = write(tmp_path, "two.txt", f"{P}\n{'66' + P[2:]}\n")
    code, out, _ = run(f, "-f", "csv", "--with-solution")
    assert code == 1
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == list(CONTRACT_FIELDS) + ["solution"]
    assert (rows[0]["verdict"], rows[0]["level"], rows[0]["solution"]) == ("ok", "1", SOL)
    assert rows[0]["techniques"].startswith("single-position=")
    assert rows[1]["verdict"] == "contradiction" and rows[1]["solution"] == ""


# -- unreadable inputs and usage errors (exit 2) -----------------------------------------
def test_missing_file_exit_2() -> None:
    code, _, err = run("no/such/file.txt")
    assert code == 2
    assert "no/such/file.txt" in err and "cannot open" in err


def test_directory_exit_2(tmp_path: Path) -> None:
    code, _, err = run(str(tmp_path))
    assert code == 2 and str(tmp_path) in err


def test_binary_file_exit_2(tmp_path: Path) -> None:
    f = write(tmp_path, "image.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe\xfd")
    code, _, err = run(f)
    assert code == 2
    assert "image.png" in err and "not a text file of grids" in err


def test_file_of_nul_bytes_has_no_grid(tmp_path: Path) -> None:
    f = write(tmp_path, "zeros.dat", b"\x00" * 300)
    code, _, err = run(f)
    assert code == 2 and "not a text file of grids" in err


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n"])
def test_input_without_any_grid_exit_2(tmp_path: Path, text: str) -> None:
    f = write(tmp_path, "empty.txt", text)
    code, _, err = run(f)
    assert code == 2 and "no grid" in err


def test_lines_of_prose_are_malformed_records(tmp_path: Path) -> None:
    """Issue 11: every line that is neither blank nor a comment gives a record."""
    f = write(tmp_path, "prose.txt", "some prose\nno grid\n")
    code, out, err = run(f)
    assert code == 1 and out.count("no grid on this line") == 2


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_input_without_any_grid_exit_2_in_every_output_format(tmp_path: Path, fmt: str) -> None:
    f = write(tmp_path, "empty.txt", "")
    code, _, err = run(f, "-f", fmt)
    assert code == 2 and "no grid" in err


@pytest.mark.parametrize(("box", "message"), [
    ("foo", "box must look like 2x3, got 'foo'"),
    ("0x9", "box must have positive sides"),
    ("3x", "box must look like 2x3"),
])
def test_bad_box_exit_2(box: str, message: str) -> None:
    code, _, err = run(P, "--box", box)
    assert code == 2 and message in err


def test_box_that_does_not_fit_the_grid_is_malformed() -> None:
    code, out, _ = jsonl(P, "--box", "2x4")
    assert code == 1
    assert (out[0]["verdict"], out[0]["message"]) == ("malformed",
                                                      "a 9x9 grid does not have 2x4 blocks")


@pytest.mark.parametrize(("name", "text", "message"), [
    ("bad.toml", "this is [not toml\n", "not valid TOML"),
    ("bad.json", '{"rules": [', "not valid JSON"),
    ("level.toml", 'extends = "default"\n[[rules]]\ncode = "x"\nlevel = "high"\n',
     "level"),
    ("norules.toml", 'name = "x"\n', "rules"),
    ("extends.toml", 'extends = "mine"\n', 'extends must be "default"'),
    ("top.json", "[1, 2]", "expected a table"),
])
def test_bad_hierarchy_file_exit_2(tmp_path: Path, name: str, text: str, message: str) -> None:
    f = write(tmp_path, name, text)
    code, _, err = run(P, "--hierarchy", f)
    assert code == 2
    assert name in err and message in err


def test_error_messages_keep_their_brackets(tmp_path: Path) -> None:
    """Regression: errors were printed as rich markup, so '[[rules]]' came out as '[]'."""
    f = write(tmp_path, "h.toml", 'extends = "default"\n[[rules]]\nlevel = 3\n')
    code, _, err = run(P, "--hierarchy", f)
    assert code == 2 and "every [[rules]] row needs a code" in err


def test_missing_hierarchy_file_exit_2(tmp_path: Path) -> None:
    code, _, err = run(P, "--hierarchy", str(tmp_path / "nope.toml"))
    assert code == 2 and "nope.toml" in err and "cannot read" in err


def test_unknown_plugin_in_a_hierarchy_exit_2(tmp_path: Path) -> None:
    f = write(tmp_path, "h.toml", 'extends = "default"\n[[rules]]\ncode = "xy-wing"\n'
              'level = 9\nplugin = "no-such-plugin"\n')
    code, _, err = run(P, "--hierarchy", f)
    assert code == 2
    assert "no-such-plugin" in err and "xy-wing" in err and "sudoku_grader.rules" in err


def test_bad_propagation_and_input_format_exit_2() -> None:
    code, _, err = run(P, "--propagation", "bogus")
    assert code == 2 and "bogus" in err
    code, _, _ = run(P, "--input-format", "yaml")
    assert code == 2


def test_unknown_csv_column_exit_2(tmp_path: Path) -> None:
    f = write(tmp_path, "g.csv", f"puzzle,rating\n{P},1\n")
    code, _, err = run(f, "--column", "nope")
    assert code == 2 and "g.csv" in err and "no column named 'nope'" in err


def test_no_arguments_is_a_usage_error() -> None:
    code, _, _ = run()
    assert code == 2


# -- the installed command, as a user runs it ---------------------------------------------
def grade_exe() -> list[str]:
    exe = Path(sys.executable).parent / "grade"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "grader", "grade"]


@pytest.mark.parametrize(("make", "code", "needle"), [
    (lambda d: P, 0, "very easy"),
    # (not starting with a byte-order mark: \xff\xfe would be read as UTF-16)
    (lambda d: (d / "bin.dat").write_bytes(b"\x01\x00\xff\xfe\x00\x01") and str(d / "bin.dat"), 2,
     "not a text file of grids"),
])
def test_installed_grade_command(tmp_path: Path, make, code: int, needle: str) -> None:
    arg = make(tmp_path)
    res = subprocess.run([*grade_exe(), arg], capture_output=True, text=True, timeout=scaled(60),
                         env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"})
    assert res.returncode == code, res.stderr
    assert needle in res.stdout + res.stderr
    assert "Traceback" not in res.stderr


def test_python_dash_m_grader_grade() -> None:
    res = subprocess.run([sys.executable, "-m", "grader", "grade", SOL, "-f", "jsonl"],
                         capture_output=True, text=True, timeout=scaled(60))
    assert res.returncode == 0
    assert json.loads(res.stdout)["rating"] == "solved"
