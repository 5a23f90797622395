"""The command line's loose ends (issue 31): one error style, exit 2 for every
usage error (click's own included), a closed pipe exits 0, shell completion,
missing extras named before any work, deprecated spellings that warn, tables
never cut in a pipe, ``-j 0`` and the CPU affinity, the two rule listings'
exit status, ``--version``'s "1 rule"."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PUZZLES, scaled
from typer.testing import CliRunner

G = "64.5.98......3..7.3.8.1...4.....7...4..965..7...3.....8...9.4.3.2..5......36.4.92"
BIN = Path(sys.executable).parent
runner = CliRunner()
#: one line ``COMMAND: error: ...``
ONE_LINE = re.compile(r"^[a-z]+( [a-z]+)?: error: \S.*\n$")


def run(*args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    """A console script of this Python, as a user runs it (no terminal)."""
    return subprocess.run([str(BIN / args[0]), *args[1:]], capture_output=True, text=True,
                          timeout=scaled(120), stdin=subprocess.DEVNULL, **kw)  # type: ignore[call-overload]


@pytest.mark.parametrize("args", [
    ("explain",), ("solve",), ("grade",),                       # a missing argument
    ("solve", G, "--bogus"), ("pair", "solve", "x", "--pretty"),  # no such option / file
    ("explain", G, "--step", "0"), ("explain", G, "--index", "x"),  # bad values
    ("grade", "123"), ("explain", "123"),                       # neither a file nor a grid
    ("generate", "--rating", "hard"), ("pair", "generate", "--order", "9"),
])
def test_every_usage_error_is_one_line_with_exit_2(args: tuple[str, ...]) -> None:
    p = run(*args)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert ONE_LINE.match(p.stderr), p.stderr
    assert p.stderr.startswith(f"{args[0]}") and "Traceback" not in p.stderr


def test_explain_step_0_names_step_and_no_hidden_option() -> None:
    p = run("explain", G, "--step", "0")
    assert p.stderr == "explain: error: --step 0: steps are numbered from 1\n"


def test_grade_and_explain_agree_on_what_is_not_a_file_nor_a_grid() -> None:
    a, b = run("grade", "123"), run("explain", "123")
    assert a.returncode == b.returncode == 2
    assert a.stderr.split(": ", 2)[2] == b.stderr.split(": ", 2)[2]  # the same message


def test_the_umbrella_names_the_subcommand() -> None:
    p = subprocess.run([sys.executable, "-m", "grader", "pair", "generate", "--bogus"],
                       capture_output=True, text=True, timeout=scaled(120))
    assert p.returncode == 2 and p.stderr == "pair generate: error: No such option: --bogus\n"


@pytest.mark.parametrize("fmt", ["jsonl", "text"])
def test_a_closed_pipe_exits_0_quietly(fmt: str) -> None:
    cmd = (f"'{BIN / 'grade'}' '{PUZZLES / 'se-easy-500.txt'}' -f {fmt} -j 1 | head -1 "
           "> /dev/null; echo ${PIPESTATUS[0]}")
    p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=scaled(120))
    assert p.stdout.strip() == "0" and p.stderr == ""


def test_shell_completion_is_offered() -> None:
    help_ = run("grade", "--help").stdout
    assert "--install-completion" in help_ and "--show-completion" in help_
    # typer finds the shell among the command's parent processes: run it from bash
    # (a second command keeps bash from replacing itself with the first)
    p = subprocess.run(["bash", "-c", f"'{BIN / 'grade'}' --show-completion; exit $?"],
                       capture_output=True, text=True, timeout=scaled(120),
                       stdin=subprocess.DEVNULL)
    # one script for every command (grader.cli.completion), never bound to python
    assert p.returncode == 0 and "_sudoku_grader_completion" in p.stdout, p.stderr
    bound = p.stdout.strip().splitlines()[-1].split()
    assert bound[-6:] == ["grader", "grade", "explain", "solve", "generate", "pair"]
    assert "python" not in bound


# -------------------------------------------------------------- missing extras


def _without(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    from grader.cli import common

    real = common.have
    monkeypatch.setattr(common, "have", lambda m: m not in modules and real(m))


@pytest.mark.parametrize(("args", "module", "extra"), [
    (["solve", G, "-e", "csp", "--trace", "x.png"], "matplotlib", "plot"),
    (["solve", G, "-e", "sat"], "pysat", "sat"),
    (["solve", G, "--compare", "native,cp"], "ortools", "cp"),
])
def test_a_missing_extra_is_named_before_any_work(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path, args: list[str],
                                                  module: str, extra: str) -> None:
    from grader.cli.main import build_app

    _without(monkeypatch, module)
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(build_app(), args)
    assert r.exit_code == 2
    assert f"needs the '{extra}' extra" in r.output
    assert f"pip install 'sudoku-grader[{extra}]'" in r.output
    assert SOL not in r.output  # nothing was solved first
    assert not (tmp_path / "x.png").exists()


SOL = "642579831159438276378216954536827149481965327297341685865792413924153768713684592"


def test_pair_without_pysat_names_the_extra_whatever_the_options() -> None:
    import typer

    from grader.cli.main import _missing, _register

    app = typer.Typer(add_completion=False)
    _register(app, "pair", _missing("pair", "pysat", "sat"))
    r = runner.invoke(app, ["generate", "--order", "3"])
    assert r.exit_code == 2
    assert "pair needs the 'sat' extra (python-sat is not installed)" in r.output
    assert "No such option" not in r.output


# -------------------------------------------------------------- deprecated spellings


@pytest.mark.parametrize(("args", "old", "new"), [
    (["grade", G, "--timeout", "30", "-f", "jsonl"], "--timeout", "--time-limit"),
    (["explain", G, "--max-level", "2", "--no-grid"], "--max-level", "--rules-up-to"),
    (["generate", "--count", "1", "--seed", "1", "-q", "-r", "easy", "-j", "1"],
     "--count", "--number"),
    (["generate", "-n", "1", "--seed", "1", "-q", "-r", "easy", "-j", "1", "--timeout", "60"],
     "--timeout", "--stop-after"),
])
def test_a_deprecated_spelling_works_and_warns_in_one_line(args: list[str], old: str,
                                                           new: str) -> None:
    from grader.cli.main import build_app

    r = runner.invoke(build_app(), args)
    assert r.exit_code == 0, r.output
    warning = [ln for ln in r.stderr.splitlines() if "deprecated" in ln]
    assert warning == [f"{args[0]}: warning: {old} is deprecated, use {new}"
                       + warning[0].split(new, 1)[1]]
    assert "goes in 0.3.0" in warning[0]


# -------------------------------------------------------------- output and jobs


def test_a_table_in_a_pipe_is_never_cut() -> None:
    p = run("grade", str(PUZZLES / "book-calibration.txt"), "-j", "1")
    assert p.returncode == 0
    assert "…" not in p.stdout and "disjunctive-construction" in p.stdout
    assert "very difficult" in p.stdout


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity here")
def test_jobs_0_counts_the_cpus_the_process_may_use() -> None:
    cpu = min(os.sched_getaffinity(0))
    p = subprocess.run([str(BIN / "grade"), str(PUZZLES / "se-easy-500.txt"), "-f", "jsonl",
                        "--summary"], capture_output=True, text=True, timeout=scaled(120),
                       preexec_fn=lambda: os.sched_setaffinity(0, {cpu}))
    assert p.returncode == 0
    assert "· 1 job" in p.stderr, p.stderr[-500:]


# -------------------------------------------------------------- rules, --version


def test_both_rule_listings_exit_alike_on_a_bad_hierarchy(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "default"\n[[rules]]\ncode = "nope"\nlevel = 12\n'
                   'plugin = "no-such-plugin"\n')
    a = subprocess.run([sys.executable, "-m", "grader", "rules", "--hierarchy", str(bad)],
                       capture_output=True, text=True, timeout=scaled(120))
    b = run("grade", "--list-rules", "--hierarchy", str(bad))
    assert a.returncode == b.returncode == 1
    assert "no-such-plugin" in a.stdout and "no-such-plugin" in b.stdout


def test_version_says_1_rule(tmp_path: Path) -> None:
    from grader.about import hierarchy_line

    one = tmp_path / "one.toml"
    one.write_text('name = "one"\n[[rules]]\nlevel = 1\ncode = "single-position"\n'
                   '[[ratings]]\nname = "x"\nlevels = [1]\n')
    assert hierarchy_line(str(one)).endswith(", 1 rule, level 1")
    assert "14 rules, levels 1-14" in hierarchy_line()
