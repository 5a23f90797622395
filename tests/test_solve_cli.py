"""The `solve` command: one grid or a batch, output in the input's own format,
--pretty, --count, --all, verdicts, --time-limit, --output, --output-pretty,
--format jsonl, --compare and --plot; bad input never gives a traceback."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA, ROOT, book_figures, scaled
from typer.testing import CliRunner

from grader.cli.main import build_app
from grader.formats import iter_source, iter_text

FIG = book_figures()
P = FIG["fig2.1"]["puzzle"]
SOL = FIG["fig2.1"]["solution"]
TWO = ".42.7........3.....7....9..5.68.......1..53......41....6...2.1..2..5.7.8..36..5.."
runner = CliRunner()
app = build_app()


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    res = runner.invoke(app, ["solve", *args], input=input)
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise AssertionError(f"solve {args} raised {res.exception!r}") from res.exception
    assert "Traceback" not in res.stdout + res.stderr
    return res.exit_code, res.stdout, res.stderr


@pytest.mark.parametrize("engine", ["native", "sat", "csp", "cp"])
def test_one_grid_prints_its_solution(engine: str) -> None:
    code, out, _ = run(P, "--engine", engine)
    assert code == 0 and out.strip() == SOL


def test_nt_input_gives_nt_output() -> None:
    nt = "3 " + P.replace(".", "0")
    code, out, _ = run(nt, "-e", "sat")
    assert code == 0 and out.strip() == "3 " + SOL


def test_25x25_nt_file_by_native_and_sat_stays_nt(tmp_path: Path) -> None:
    lines = (DATA / "engines-25x25.nt.txt").read_text().splitlines()
    f = tmp_path / "one.txt"
    f.write_text(lines[0] + "\n")
    for engine in ("native", "sat"):
        code, out, _ = run(str(f), "-e", engine)
        assert code == 0 and out.strip() == lines[1]


def test_block_input_gives_block_output(tmp_path: Path) -> None:
    rows = [P[i:i + 9] for i in range(0, 81, 9)]
    f = tmp_path / "block.txt"
    f.write_text("\n".join(f"{r[:3]}|{r[3:6]}|{r[6:]}" for r in rows) + "\n")
    code, out, _ = run(str(f))
    assert code == 0
    got = [ln.replace(" ", "") for ln in out.strip().splitlines()]
    assert got == [SOL[i:i + 9] for i in range(0, 81, 9)]


def test_line_keeps_its_id_and_comment(tmp_path: Path) -> None:
    f = tmp_path / "g.txt"
    f.write_text(f"grid-7 {P} # from the book\n")
    code, out, _ = run(str(f))
    assert code == 0 and out.strip() == f"grid-7 {SOL} # from the book"


def test_pretty_draws_the_grid_and_reads_back() -> None:
    code, out, _ = run(P, "--pretty")
    assert code == 0
    assert out.count("+-------+-------+-------+") == 4
    back = list(iter_text(io.StringIO(out), "out"))  # a drawn grid reads back as a block
    assert back[0].grid is not None and back[0].grid.normalised() == SOL


@pytest.mark.parametrize("engine", ["native", "sat", "csp", "cp"])
def test_count_finds_two(engine: str) -> None:
    code, out, _ = run(TWO, "--count", "-e", engine)
    assert code == 0 and out.strip() == "2 solutions"


def test_all_lists_both_solutions_and_limit_stops() -> None:
    code, out, err = run(TWO, "--all")
    sols = out.split()
    assert code == 0 and len(sols) == 2 and len(set(sols)) == 2
    assert all(len(s) == 81 and "." not in s for s in sols)
    assert "2 solutions" in err
    code, out, err = run("." * 81, "--all", "--limit", "3", "-e", "cp")
    # the limit was hit: "at least 3", not an exact count, exit 1 (as the README says)
    assert code == 1 and len(out.split()) == 3 and "stopped at --limit 3" in err
    code, out, _ = run("." * 16, "--count")
    assert out.strip() == "288 solutions"


def test_verdicts_of_one_grid() -> None:
    code, out, err = run(TWO)
    assert code == 1 and out == "" and "multiple-solutions" in err
    code, out, err = run("11" + "." * 79)
    assert code == 1 and "contradiction: 1 appears twice in row R1, at (1, 1) and (1, 2)" in err
    code, out, err = run("12345678." + "........9" + "." * 63, "-e", "sat")
    assert code == 1 and "no-solution" in err
    code, out, err = run("1x" + "." * 79)
    assert code == 1 and "malformed" in err and "position 2" in err


def test_usage_errors_exit_2() -> None:
    code, _, err = run(P, "--engine", "z3")
    assert code == 2 and "unknown engine 'z3'" in err
    code, _, err = run("no-such-file.txt")
    assert code == 2 and "no-such-file.txt" in err
    code, _, err = run(P, "--count", "--all")
    assert code == 2
    code, _, err = run(P, "--compare", "native,minizinc")
    assert code == 2 and "minizinc" in err
    code, _, err = run(P, "-e", "sat", "--sat-solver", "nope")
    assert code == 2 and "unknown SAT solver" in err


def _batch(tmp_path: Path) -> Path:
    f = tmp_path / "batch.txt"
    f.write_text(f"# a batch\nA {P} # fig2.1\nB {TWO}\nC {'1x' + '.' * 79}\n"
                 f"D {'11' + '.' * 79}\nE {FIG['fig6.2']['puzzle']} 7.5\n")
    return f


@pytest.mark.parametrize("engine", ["native", "sat", "csp", "cp"])
def test_batch_report_and_outputs(tmp_path: Path, engine: str) -> None:
    f = _batch(tmp_path)
    sol_file = tmp_path / "solutions.txt"
    pretty_file = tmp_path / "pretty.txt"
    code, out, err = run(str(f), "-e", engine, "-o", str(sol_file), "--output-pretty",
                         str(pretty_file))
    assert code == 1  # some grids have no unique solution
    lines = out.strip().splitlines()
    assert len(lines) == 5
    verdicts = [ln.split()[3] for ln in lines]
    assert verdicts == ["ok", "multiple-solutions", "malformed", "contradiction", "ok"]
    assert [ln.split()[2] for ln in lines] == ["2", "3", "4", "5", "6"]  # file lines
    assert SOL in lines[0] and FIG["fig6.2"]["solution"] in lines[4]
    assert " s " in lines[0]  # a timing per grid
    assert f"5 grids, engine {engine}: ok 2" in err
    written = sol_file.read_text().splitlines()
    assert written[0] == f"A {SOL} # fig2.1"
    assert written[1].startswith("# grid 2 (line 3): multiple-solutions")
    assert written[4] == f"E {FIG['fig6.2']['solution']} 7.5"
    back = [r for r in iter_source(str(sol_file)) if r.grid is not None]
    assert [r.grid.normalised() for r in back] == [SOL, FIG["fig6.2"]["solution"]]
    drawn = [r.grid.normalised() for r in iter_source(str(pretty_file)) if r.grid]
    assert drawn == [SOL, FIG["fig6.2"]["solution"]]


def test_batch_jsonl(tmp_path: Path) -> None:
    code, out, _ = run(str(_batch(tmp_path)), "-f", "jsonl", "-e", "cp")
    objs = [json.loads(x) for x in out.splitlines()]
    assert [o["verdict"] for o in objs] == ["ok", "multiple-solutions", "malformed",
                                            "contradiction", "ok"]
    assert objs[0]["solution"] == SOL and objs[0]["engine"] == "cp"
    assert objs[1]["count"] == 2 and objs[1]["solution"] is None


def test_nt_batch_output_file_stays_nt(tmp_path: Path) -> None:
    src = tmp_path / "nt.txt"
    lines = (DATA / "engines-16x16.nt.txt").read_text().splitlines()
    src.write_text(f"{lines[0]}\n{lines[2]}\n")
    dst = tmp_path / "nt-solutions.txt"
    code, out, _ = run(str(src), "-o", str(dst), "-e", "sat")
    assert code == 0
    assert dst.read_text().splitlines() == [lines[1], lines[3]]


def test_time_limit_per_grid_gives_timeout(tmp_path: Path) -> None:
    f = tmp_path / "t.txt"
    f.write_text(f"{P}\n{'.' * 81}\n")
    code, out, _ = run(str(f), "--count", "--limit", "100000000", "--time-limit", "0.3",
                       "-e", "native")
    lines = out.strip().splitlines()
    assert lines[0].split()[3:5] == ["ok", "1"]
    verdict, count = lines[1].split()[3:5]
    assert verdict == "multiple-solutions" and count.endswith("+") and int(count[:-1]) > 2
    assert code == 1  # not every grid was fully counted
    code, out, _ = run(str(f), "--time-limit", "0.3", "--limit", "1", "-e", "csp")
    assert code == 0  # limit 1: one solution found in time is all that was asked
    code, out, _ = run("." * 81, "--count", "--limit", "100000000", "--time-limit", "0.3")
    assert code == 1 and "at least" in out and "time limit reached" in out


def test_compare_table_and_plot(tmp_path: Path) -> None:
    f = tmp_path / "c.txt"
    f.write_text("\n".join(d["puzzle"] for d in list(FIG.values())[:6]) + "\n")
    png = tmp_path / "cmp.png"
    code, out, err = run(str(f), "--compare", "native,sat", "--compare", "csp,cp",
                         "--plot", str(png))
    assert code == 0, err
    for name in ("native", "sat", "csp", "cp"):
        assert name in out
    assert "grids/s" in out and "agree" in out and "differ" not in out
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_stats_report_both_encodings() -> None:
    code, _, err = run(P, "-e", "sat", "--stats")
    assert code == 0
    assert "classic 729 variables, 11774 clauses" in err
    assert "reduced" in err and "conflicts" in err


def test_umbrella_and_console_script() -> None:
    res = subprocess.run([sys.executable, "-m", "grader", "solve", P, "-e", "cp"],
                         capture_output=True, text=True, cwd=ROOT, timeout=scaled(120))
    assert res.returncode == 0 and res.stdout.strip() == SOL
    code, out, _ = run("--help")
    assert code == 0 and "--engine" in out and "--compare" in out
