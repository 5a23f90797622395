"""explain --step driven through a real terminal (a pty): step 1, Enter shows
step 2, b goes back, q quits."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from conftest import scaled

pexpect = pytest.importorskip("pexpect", reason="pexpect is needed to drive a terminal")

FIG21 = "64.5.98......3..7.3.8.1...4.....7...4..965..7...3.....8...9.4.3.2..5......36.4.92"


def spawn(*args: str) -> pexpect.spawn:
    exe = Path(sys.executable).with_name("explain")
    cmd = str(exe) if exe.exists() else shutil.which("explain")
    if cmd is None:
        pytest.skip("the explain console script is not installed")
    return pexpect.spawn(cmd, [*args, "--notation", "book"], dimensions=(60, 120),
                         encoding="utf-8", timeout=scaled(30),
                         env={"TERM": "xterm-256color", "PATH": "/usr/bin:/bin",
                              "COLUMNS": "120", "LINES": "60"})


def test_step_walk_in_a_terminal():
    child = spawn(FIG21, "--step")
    child.expect(r"Step 1\b")
    child.expect(r"in column C3 \(and row R8 and block B7\), 4 can only go in \(8, 3\)")
    child.expect(r"\[Enter\] next")
    child.send("\r")
    child.expect(r"Step 2\b")
    child.expect(r"3 can only go in \(8, 6\)")
    child.expect(r"\[Enter\] next")
    child.send("b")
    child.expect(r"Step 1\b")
    child.expect(r"\[Enter\] next")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_step_walk_reaches_the_end():
    child = spawn("3.2....1....42..", "--step", "--no-grid")  # the book's 4x4 grid
    for _ in range(12):
        i = child.expect([r"\[Enter\] next", "End of the solution"])
        if i == 1:
            break
        child.send(" ")
    else:
        pytest.fail("the walk did not end")
    child.expect(r"steps; level \d+")
    child.send("\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
