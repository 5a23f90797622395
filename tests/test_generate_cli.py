"""``generate`` as a user runs it: formats that ``grade`` reads back, seeds,
jobs, the daily pack, timeouts and clear errors for bad options."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from conftest import scaled
from typer.testing import CliRunner

from grader.cli.generate import generate_command
from grader.formats import iter_source, parse_grid_token
from grader.generator import is_symmetric
from grader.kernel import solve
from grader.strategy.grading import CONTRACT_FIELDS, Grader

APP = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
APP.command()(generate_command)
RUNNER = CliRunner()
GRADER = Grader()


def gen(*args: str) -> tuple[int, str, str]:
    """Run ``generate ARGS`` in this process: (exit code, stdout, stderr)."""
    r = RUNNER.invoke(APP, list(args), env={"COLUMNS": "250"})
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    return r.exit_code, r.stdout, r.stderr


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m grader generate ARGS`` in a subprocess (no terminal)."""
    return subprocess.run([sys.executable, "-m", "grader", "generate", *args],
                          capture_output=True, text=True, timeout=scaled(timeout))


def test_line_format_reads_back_with_its_rating(tmp_path: Path) -> None:
    code, out, errtext = gen("--rating", "difficult", "-n", "3", "--seed", "4",
                             "--symmetry", "central")
    assert code == 0, errtext
    lines = out.splitlines()
    assert len(lines) == 3
    path = tmp_path / "g.txt"
    path.write_text(out)
    for rec, line in zip(iter_source(str(path)), lines, strict=True):
        assert rec.grid is not None
        r = GRADER.grade_grid(rec.grid)
        assert r.rating == "difficult"
        assert f"# difficult, level {r.level} (" in line
        assert f"score {r.score:.2f}, {rec.grid.givens} givens" in line
        assert solve(rec.grid.geo, rec.grid.values, 2).count == 1
        assert is_symmetric(rec.grid.geo, rec.grid.values, "central")
    assert "3 of 3 grids" in errtext  # the summary goes to standard error


def test_same_seed_same_output_and_jobs_agree() -> None:
    args = ("-r", "easy,very-difficult,expert", "-n", "3", "--seed", "99", "-f", "text")
    first = gen(*args)
    second = gen(*args)
    assert first[0] == 0 and first[1] == second[1]
    other = gen("-r", "easy,very-difficult,expert", "-n", "3", "--seed", "98")
    assert other[1] != first[1]
    p = cli(*args, "--jobs", "2", "-q")
    assert p.returncode == 0, p.stderr
    assert p.stdout == first[1]
    assert p.stderr == ""


def test_jsonl_is_the_contract_plus_the_solution() -> None:
    code, out, _ = gen("-r", "very-easy,expert", "-n", "2", "--seed", "1", "-f", "jsonl")
    assert code == 0
    rows = [json.loads(x) for x in out.splitlines()]
    assert [r["index"] for r in rows] == [1, 2]
    assert [r["rating"] for r in rows] == ["very easy", "expert"]
    for r in rows:
        assert tuple(r) == (*CONTRACT_FIELDS, "solution")
        grid = parse_grid_token(r["puzzle"])
        res = solve(grid.geo, grid.values, 2)
        assert res.count == 1
        assert "".join(grid.geo.symbols[v - 1] for v in res.solution) == r["solution"]
        again = GRADER.grade_grid(grid)
        assert (again.level, again.score, again.techniques) == (r["level"], r["score"],
                                                               r["techniques"])


def test_csv_nt_block_formats(tmp_path: Path) -> None:
    code, out, _ = gen("-r", "medium", "-n", "2", "--seed", "5", "-f", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 2 and rows[0]["rating"] == "medium" and len(rows[0]["solution"]) == 81
    assert list(rows[0]) == [*CONTRACT_FIELDS, "solution"]
    puzzles = [r["puzzle"] for r in rows]
    for fmt, read_as in (("nt", "nt"), ("block", "block"), ("text", "line")):
        code, out, _ = gen("-r", "medium", "-n", "2", "--seed", "5", "-f", fmt)
        assert code == 0
        path = tmp_path / f"g.{fmt}"
        path.write_text(out)
        recs = list(iter_source(str(path)))
        assert [rec.format for rec in recs] == [read_as, read_as]
        assert [rec.grid.normalised() for rec in recs if rec.grid] == puzzles
    code, out, _ = gen("-r", "medium", "-n", "1", "--seed", "5", "-f", "nt")
    assert out.startswith("3 ") and "." not in out.split()[1]
    code, out, _ = gen("-r", "easy", "-n", "1", "--seed", "5", "--with-solution")
    puzzle, solution = out.split()[:2]
    assert len(solution) == 81
    assert all(p in ".0" or p == s for p, s in zip(puzzle, solution, strict=True))


def test_other_sizes_on_the_command_line() -> None:
    code, out, _ = gen("--size", "6", "--box", "3x2", "-n", "1", "--seed", "2", "-f", "jsonl")
    assert code == 0
    r = json.loads(out)
    assert r["size"] == 6 and r["verdict"] == "ok"
    grid = parse_grid_token(r["puzzle"], box=(3, 2))
    assert solve(grid.geo, grid.values, 2).count == 1
    code, out, _ = gen("--size", "16", "-r", "medium", "-n", "1", "--seed", "2")
    assert code == 0 and "# medium, level" in out
    assert len(out.split()[0]) == 256


def test_pack_writes_every_rating_and_a_printable_page(tmp_path: Path) -> None:
    code, _, errtext = gen("--pack", str(tmp_path / "pack"), "--seed", "2026",
                           "--symmetry", "central")
    assert code == 0, errtext
    d = tmp_path / "pack"
    rows = [json.loads(x) for x in (d / "pack.jsonl").read_text().splitlines()]
    assert [r["rating"] for r in rows] == ["very easy", "easy", "medium", "difficult",
                                           "very difficult", "expert"]
    puzzles = [rec.grid.normalised() for rec in iter_source(str(d / "pack.txt"))]
    solutions = [rec.grid.normalised() for rec in iter_source(str(d / "solutions.txt"))]
    assert puzzles == [r["puzzle"] for r in rows]
    assert solutions == [r["solution"] for r in rows]
    html = (d / "pack.html").read_text()
    assert html.startswith("<!DOCTYPE html>") and html.count("<svg") == 12
    assert "Solutions" in html and "page-break-before" in html
    assert f"generate --pack {d} --seed 2026 --symmetry central" in html
    for r in rows:
        assert f"<title>Grid {rows.index(r) + 1}: {r['rating']}</title>" in html


def test_timeout_keeps_what_was_made() -> None:
    # an expert grid with 70 givens does not come (every 4x4 grid is very easy,
    # but generate refuses that request at once: test_generate_hard.py); one job:
    # starting worker processes on a loaded machine can take the whole second
    code, out, errtext = gen("-r", "very-easy,expert", "--min-givens", "70", "-n", "2",
                             "--seed", "1", "--stop-after", "1", "-j", "1")
    assert code == 1
    assert len(out.splitlines()) == 1 and "very easy" in out
    assert "timeout: 1 grid(s) not made (expert) within 1 s" in errtext


@pytest.mark.parametrize(("args", "words"), [
    (["-r", "hard"], "unknown rating 'hard'"),
    (["-r", "easy", "-l", "3"], "not both"),
    (["-l", "15"], "no rule has level 15"),
    (["--size", "10"], "--size 10: use one of"),
    (["--size", "9", "--box", "2x3"], "does not fit a 9x9 grid"),
    (["--box", "3-3"], "box must look like 2x3"),
    (["--min-givens", "40", "--max-givens", "30"], "more than --max-givens"),
    (["--max-givens", "3", "--size", "6"], "needs at least 5 givens"),
    (["--max-givens", "16"], "needs at least 17 givens"),
    (["--max-givens", "3", "--size", "4"], "needs at least 4 givens"),
    (["--min-givens", "81"], "already solved"),
    (["--size", "6", "-f", "nt"], "needs square blocks"),
    (["-f", "block", "--with-solution"], "no place for a solution"),
    (["--pack", "x", "-r", "easy"], "leave out --rating"),
    (["--symmetry", "spiral"], "spiral"),
    (["--method", "sideways"], "sideways"),
    (["-n", "0"], "Invalid value for '--number'"),
    (["--hierarchy", "/nonexistent/h.toml"], "/nonexistent/h.toml"),
])
def test_bad_options_give_clear_errors(args: list[str], words: str) -> None:
    code, out, errtext = gen(*args)
    assert code == 2
    assert out == ""
    assert words in errtext
    assert "Traceback" not in errtext


def test_unwritable_output_is_a_clear_error(tmp_path: Path) -> None:
    code, _, errtext = gen("-o", str(tmp_path / "missing" / "out.txt"), "--seed", "1")
    assert code == 2 and "cannot write" in errtext


def test_umbrella_and_help() -> None:
    code, out, _ = gen("--help")
    assert code == 0
    for option in ("--rating", "--level", "--number", "--size", "--symmetry", "--minimal",
                   "--min-givens", "--max-givens", "--seed", "--method", "--jobs", "--stop-after",
                   "--format", "--pack"):
        assert option in out
    p = cli("-r", "easy", "-n", "1")  # the umbrella command, in a process of its own
    assert p.returncode == 0
    assert p.stderr.startswith("seed ")  # a random seed is printed so it can be reused
    seed = p.stderr.split()[1]
    code, again, _ = gen("-r", "easy", "-n", "1", "--seed", seed, "-q")
    assert code == 0 and again == p.stdout


def test_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    out = tmp_path / "grids.txt"
    child = pexpect.spawn(sys.executable, ["-m", "grader", "generate", "-r", "difficult",
                                           "-n", "40", "--seed", "3", "-o", str(out)],
                          encoding="utf-8", timeout=scaled(120), dimensions=(24, 120))
    child.expect("generating")  # the bar, on standard error (a terminal here)
    child.expect(r"40 of 40 grids")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert len(out.read_text().splitlines()) == 40


def test_number_of_grids_and_its_old_name() -> None:
    """-n/--number is how many grids; --count (solve's word for counting
    solutions) is still accepted as the old name."""
    for flag in ("-n", "--number", "--count"):
        code, out, errtext = gen("-r", "easy", flag, "2", "--seed", "1", "-j", "1")
        assert code == 0 and len(out.splitlines()) == 2
        assert ("--count is deprecated, use --number" in errtext) == (flag == "--count")
