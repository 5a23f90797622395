"""The ``grader`` command (issue 43): every command as a subcommand, one
completion install for all of them that never touches ``python``, one name
for the plain-text format, and ``--color``, ``-q``, ``--schema`` where they
mean something."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PUZZLES, ROOT

from grader.cli.completion import PROGRAMS, script
from grader.cli.reference import commands, options

BIN = Path(sys.executable).parent
G = "64.5.98......3..7.3.8.1...4.....7...4..965..7...3.....8...9.4.3.2..5......36.4.92"


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / args[0]), *args[1:]], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "COLUMNS": "100", **(env or {})})


def test_grader_has_every_command() -> None:
    p = run("grader", "--help")
    assert p.returncode == 0
    for name in ("grade", "explain", "solve", "generate", "pair", "rules", "serve"):
        assert f"\n  {name} " in p.stdout
    via, direct = (json.loads(run(*c, G, "-f", "jsonl").stdout)
                   for c in (["grader", "grade"], ["grade"]))
    assert {**via, "seconds": 0} == {**direct, "seconds": 0}
    assert run("grader", "rules", "-f", "json").returncode == 0


@pytest.mark.parametrize("prog", [["grader"], [sys.executable, "-m", "grader"]])
def test_help_does_not_cut_a_summary_at_an_initial(prog: list[str]) -> None:
    cmd = [str(BIN / prog[0])] if len(prog) == 1 else prog
    out = subprocess.run([*cmd, "--help"], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "COLUMNS": "200"}).stdout
    assert "with N." not in out and "by N." not in out
    assert "Rate Sudoku grids by the technique hierarchy of Jussien's" in out


def _bash(home: Path, code: str) -> str:
    env = {**os.environ, "HOME": str(home), "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(["bash", "-ic", code], capture_output=True, text=True, timeout=120,
                          env=env, stdin=subprocess.DEVNULL).stdout


@pytest.mark.parametrize("prog", [["grader"], [sys.executable, "-m", "grader"], ["grade"]])
def test_one_bash_completion_for_every_command_and_never_python(tmp_path: Path,
                                                                prog: list[str]) -> None:
    cmd = [str(BIN / prog[0])] if len(prog) == 1 else prog
    env = {**os.environ, "HOME": str(tmp_path), "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    p = subprocess.run([*cmd, "--install-completion", "bash"], capture_output=True, text=True,
                       timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    assert [f.name for f in (tmp_path / ".bash_completions").iterdir()] == ["grader.sh"]
    bound = _bash(tmp_path, "complete -p " + " ".join(PROGRAMS) + "; complete -p python")
    assert bound.count("-F _sudoku_grader_completion") == len(PROGRAMS)
    assert "python" not in bound
    got = _bash(tmp_path, 'COMP_WORDS=(grade --se ""); COMP_CWORD=2; '
                          '_sudoku_grader_completion grade; echo "${COMPREPLY[*]}"; '
                          'COMP_WORDS=(grader explain x --path ""); COMP_CWORD=4; '
                          '_sudoku_grader_completion grader; echo "${COMPREPLY[*]}"; '
                          'COMP_WORDS=(generate -f ""); COMP_CWORD=2; '
                          '_sudoku_grader_completion generate; echo "${COMPREPLY[*]}"')
    # the old names (-f line) are accepted, never offered
    assert got.splitlines()[-3:] == ["off fast full", "patterns book", "text nt block csv jsonl"]


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_one_zsh_completion_for_every_command(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1",
           "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    p = subprocess.run([str(BIN / "grader"), "--install-completion", "zsh"], capture_output=True,
                       text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / ".zfunc" / "_grader").read_text() == script("zsh")
    out = subprocess.run(
        ["zsh", "-i", "-c", "print -r -- $_comps[grade] $_comps[pair] x$_comps[python]; "
         'words=(solve --engine ""); print -r -- "_${${${words[1]:t}//-/_}:u}_COMPLETE"'],
        capture_output=True, text=True, timeout=120, env=env, stdin=subprocess.DEVNULL).stdout
    assert out.split() == ["_grader", "_grader", "x", "_SOLVE_COMPLETE"]


def test_the_pexpect_tab_in_bash(tmp_path: Path) -> None:
    """A real Tab in an interactive bash, after the install."""
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "HOME": str(tmp_path), "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1",
           "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "PS1": "$ "}
    subprocess.run([str(BIN / "grader"), "--install-completion", "bash"], env=env, check=True,
                   capture_output=True, timeout=120)
    sh = pexpect.spawn("bash", ["--norc", "-i"], env=env, encoding="utf-8", timeout=60)
    try:
        sh.sendline(f"source '{tmp_path}/.bash_completions/grader.sh'; PS1='$ '")
        sh.expect_exact("$ ")
        sh.send("grade --se fu\t")  # one choice: completed on the line
        sh.expect_exact("grade --se full")
        sh.send("\x15grader expl\t")
        sh.expect_exact("grader explain")
    finally:
        sh.close(force=True)


@pytest.mark.parametrize(("command", "old", "new"), [
    (["grade", G], ["-f", "table"], ["-f", "text"]),
    (["generate", "-r", "easy", "-n", "1", "--seed", "1", "-q"], ["-f", "line"], ["-f", "text"]),
    (["grader", "rules"], ["-f", "table"], ["-f", "text"]),
    (["pair", "generate", "--order", "2", "--seed", "3", "-q"], ["-f", "line"], ["-f", "text"]),
    (["explain", G], ["--hint", "vague"], ["--hint", "where"]),
])
def test_old_names_work_say_so_and_are_not_listed(command: list[str], old: list[str],
                                                 new: list[str]) -> None:
    was, now = run(*command, *old), run(*command, *new)
    assert was.returncode == now.returncode == 0
    assert was.stdout == now.stdout
    option = "--format" if old[0] == "-f" else old[0]
    assert f"{option} {old[1]} is deprecated, use {option} {new[1]}" in was.stderr
    assert "deprecated" not in now.stderr
    sub = {"grader": ["rules"], "pair": ["generate"]}.get(command[0], [])
    helped = run(command[0], *sub, "--help").stdout
    assert old[1] not in helped.split(old[0])[1].split("\n")[0]


def test_one_name_for_the_plain_text_format() -> None:
    for path, cmd in commands().items():
        for o in options(cmd):
            if o.long == "--format":
                assert "table" not in o.spelled and "|line" not in o.spelled, (path, o.spelled)


def test_color_quiet_and_schema_where_they_mean_something() -> None:
    have = {path: {o.long for o in options(cmd)} for path, cmd in commands().items()}
    assert {"--color", "--quiet"} <= have["serve"]
    assert "--schema" in have["solve"] and "--schema" in have["generate"]
    solve_schema = json.loads(run("solve", "--schema").stdout)
    assert solve_schema["$id"].endswith("solve:1")
    assert run("generate", "--schema").stdout == (ROOT / "schemas" /
                                                  "grade.schema.json").read_text()


def test_solve_records_follow_their_schema(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    out = run("solve", str(PUZZLES / "book-calibration.txt"), "-f", "jsonl", "-q").stdout
    schema = json.loads((ROOT / "schemas" / "solve.schema.json").read_text())
    for line in out.splitlines()[:10]:
        jsonschema.validate(json.loads(line), schema)
