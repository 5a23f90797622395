"""Every example of the README and of every page of the documentation site
(``docs/**/*.md``) runs as written.

``sh`` blocks: each is a test of its own, in a scratch directory of its own
(holding a link to ``puzzles/``), its command lines run in order in a shell
with the console scripts of this Python on the PATH; each must exit 0.  Lines ``NAME=value``
set a variable for the rest of their block.  ``console`` blocks: each ``$ command``
runs and its output must be the lines shown under it.  ``python`` blocks run
in a fresh interpreter.  Examples that need a cluster, the network, a server
or files of your own are skipped with the reason, and so is a block right
after a line ``<!-- skip: why -->``; slow ones need ``--runslow``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, scaled

README = ROOT / "README.md"
#: every page whose examples run: the README, then the site's pages
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
BIN = str(Path(sys.executable).parent)

#: substring -> why the example is not run here
SKIP = {
    "pip install": "installs packages (network)",
    "-m pytest": "runs the test suite itself",
    "--dask tcp://": "needs a Dask cluster",
    "big.csv": "reads a file of your own",
    "big.sdm": "reads a file of your own",
    "mine.txt": "reads a file of your own",
    "pipx ": "installs packages (network)",
    "activate": "needs the virtual environment of your checkout",
    "grader serve": "starts a server, which runs until Ctrl-C",
    "--install-completion": "changes your shell's configuration",
}
#: substrings of examples that take more than a few seconds
SLOW = ("se-medium-500", "se-easy-500", "--compare", "-n 20",
        "--size 16", "--level 9", "--rating all", "--pack", "difficult -n 10",
        "--level 14", "--score 14", "--depth 2", "--order 4", "--dask local",
        "very difficult\", number=3", "depth=2")
#: ``<!-- skip: why -->`` on the line before a block
SKIP_MARK = re.compile(r"<!--\s*skip:\s*(.*?)\s*-->\s*$")


def _blocks(text: str) -> list[tuple[str, int, str, str | None]]:
    """(language, first line number, body, why it is skipped or None) of
    each fenced block."""
    out = []
    lines = text.splitlines()
    for m in re.finditer(r"^( *)```(\w*)\n(.*?)^\1```", text, re.S | re.M):
        line = text[:m.start()].count("\n") + 2
        body = "\n".join(ln[len(m.group(1)):] for ln in m.group(3).splitlines())
        before = lines[line - 3] if line >= 3 else ""
        mark = SKIP_MARK.search(before)
        out.append((m.group(2), line, body, mark.group(1) if mark else None))
    return out


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def _examples(pages: list[Path] | None = None) -> list[object]:
    """One test per block: its commands run in order, in a directory of its
    own, so that the tests pass in any order."""
    params = []
    for page in PAGES if pages is None else pages:
        params += _page_examples(page)
    return params


def _page_examples(page: Path) -> list[object]:
    params = []
    for lang, line, body, why in _blocks(page.read_text(encoding="utf-8")):
        at = f"{_name(page)}:{line}"
        if why is not None and lang in ("sh", "console", "python"):
            params.append(pytest.param(lang, body, id=f"{at}-{lang}",
                                       marks=pytest.mark.skip(reason=why)))
        elif lang == "sh":
            cmds = [c for c in body.splitlines() if c.strip() and not c.lstrip().startswith("#")]
            if cmds:
                # every command slow (or not run here for another reason): a slow
                # test, deselected without --runslow, not a skip
                whys = [_skip(c, False) for c in cmds if not _SETS.fullmatch(c.strip())]
                slow = all(whys) and SLOW_WHY in whys
                params.append(pytest.param("sh", tuple(cmds), id=f"{at}-sh",
                                           marks=[pytest.mark.slow] if slow else []))
        elif lang == "console":
            pairs, cmd, want = [], None, []  # type: ignore[var-annotated]
            for ln in body.splitlines() + ["$ "]:
                if ln.startswith("$ "):
                    if cmd:
                        pairs.append((cmd, tuple(want)))
                    cmd, want = ln[2:], []
                else:
                    want.append(ln)
            if pairs:
                params.append(_param("console", at, tuple(pairs), body))
        elif lang == "python":
            params.append(_param("python", at, body, body))
    return params


def _param(kind: str, at: str, data: object, text: str) -> object:
    marks = []
    why = next((w for s, w in SKIP.items() if s in text), None)
    if why:
        marks.append(pytest.mark.skip(reason=why))
    elif any(s in text for s in SLOW):
        marks.append(pytest.mark.slow)
    return pytest.param(kind, data, id=f"{at}-{kind}", marks=marks)


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    (tmp_path / "puzzles").symlink_to(ROOT / "puzzles")
    return tmp_path


def _env() -> dict[str, str]:
    """The console scripts of this Python first on the PATH, as after
    activating its virtual environment; a fixed width, no colour."""
    return {**os.environ, "PATH": BIN + os.pathsep + os.environ.get("PATH", ""),
            "COLUMNS": "100", "NO_COLOR": "1"}


def _run(cmd: str, cwd: Path, env_lines: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    env = _env()
    script = "\n".join([*env_lines, cmd])
    return subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=scaled(600), stdin=subprocess.DEVNULL)


SLOW_WHY = "slow: run with --runslow"
#: a line ``NAME=value`` of a block: a variable for its next commands
_SETS = re.compile(r"[A-Z_]+=\S+")


def _skip(cmd: str, runslow: bool) -> str | None:
    """Why one command of a block is not run here, or None."""
    why = next((w for s, w in SKIP.items() if s in cmd), None)
    if why is None and not runslow and any(s in cmd for s in SLOW):
        why = SLOW_WHY
    return why


@pytest.mark.parametrize(("kind", "data"), _examples())
def test_example(kind: str, data: object, scratch: Path,
                 request: pytest.FixtureRequest) -> None:
    if kind == "sh":
        env: list[str] = []
        ran = 0
        for cmd in data:  # type: ignore[attr-defined]
            if _SETS.fullmatch(cmd.strip()):
                env.append(cmd.strip())
                continue
            if _skip(cmd, request.config.getoption("--runslow")):
                continue
            ran += 1
            p = _run(cmd, scratch, tuple(env))
            assert p.returncode == 0, f"{cmd}\nexit {p.returncode}\n{p.stdout[-2000:]}{p.stderr}"
            assert "Traceback" not in p.stderr
        if not ran:
            pytest.skip("; ".join(sorted({w for c in data if (w := _skip(c, False))})))  # type: ignore[attr-defined]
    elif kind == "console":
        for cmd, want in data:  # type: ignore[attr-defined]
            p = _run(cmd, scratch)
            assert _lines(p.stdout.splitlines()) == _lines(want), f"{cmd}\n{p.stderr}"
    else:
        p = subprocess.run([sys.executable, "-c", str(data)], cwd=scratch, capture_output=True,
                           text=True, timeout=scaled(600), env=_env())
        assert p.returncode == 0, p.stderr


def _lines(lines: list[str] | tuple[str, ...]) -> list[str]:
    """Lines as compared: trailing blanks and blank lines at the end dropped."""
    out = [ln.rstrip() for ln in lines]
    while out and not out[-1]:
        out.pop()
    return out


def test_the_readme_and_the_site_have_examples_of_every_kind() -> None:
    kinds = {p.values[0] for p in _examples([README])}  # type: ignore[attr-defined]
    assert kinds == {"sh", "console", "python"}
    assert len(_examples()) > 40
    pages = {p.id.split(":")[0] for p in _examples()}  # type: ignore[attr-defined]
    assert {"README.md", "docs/cli/index.md", "docs/api.md", "docs/formats.md"} <= pages


def test_ci_runs_the_readme_test_command() -> None:
    """``.ci/run`` runs the README's test command as written (both legs)."""
    text = README.read_text(encoding="utf-8")
    command = next(ln for ln in text.splitlines() if "pip install -e '.[test]'" in ln)
    assert "SUDOKU_GRADER_PURE=1 .venv/bin/python -m pytest -q -m kernel" in command
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert command.removeprefix("python3 -m venv .venv && ") in ci.splitlines()
    assert "export CI=true" in ci.splitlines()


def test_the_site_lists_every_where_field() -> None:
    # the fields --where knows, as grade --help lists them (from the code)
    from grader.bulk.where import WHERE_FIELDS

    text = (ROOT / "docs" / "collections.md").read_text(encoding="utf-8")
    start = text.index("over the result fields", text.index("- **Select**"))
    listed = re.findall(r"`([a-z_\s]+)`", text[start:text.index("columns:", start)])
    assert " ".join(listed).split() == list(WHERE_FIELDS)


def test_the_readme_is_short_with_a_table_of_contents_and_real_grade_output() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    assert "## Contents" in text
    toc = text[text.index("## Contents"):].split("\n## ", 1)[0]
    for heading in re.findall(r"^## (.+)$", text, re.M):
        if heading != "Contents":
            anchor = re.sub(r"[^a-z0-9 -]", "", heading.lower()).replace(" ", "-")
            assert f"(#{anchor})" in toc, heading
    consoles = [body for lang, _, body, why in _blocks(text) if lang == "console" and not why]
    assert any(body.startswith("$ grade ") for body in consoles)


def _skipped_ids() -> set[str]:
    """The examples a run without --runslow skips (not the slow ones, which it
    deselects): marked skip, or every command not run here."""
    ids = set()
    for p in _examples():
        kind, data = p.values  # type: ignore[attr-defined]
        names = [m.name for m in p.marks]  # type: ignore[attr-defined]
        if "skip" in names:
            ids.add(p.id)  # type: ignore[attr-defined]
        elif kind == "sh" and "slow" not in names:
            whys = [_skip(c, False) for c in data if not _SETS.fullmatch(c.strip())]
            if all(whys):
                ids.add(p.id)  # type: ignore[attr-defined]
    return ids


def test_every_skipped_example_is_explained_in_the_development_page() -> None:
    text = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    table = text[text.index("### What is skipped in CI, and why"):]
    table = table[:table.index("\n### ")]
    listed = {page: int(n) for page, n in re.findall(r"^\| `([\w./-]+\.md)` \| (\d+) \|",
                                                     table, re.M)}
    skipped: dict[str, int] = {}
    for test_id in _skipped_ids():
        page = test_id.split(":")[0]
        skipped[page] = skipped.get(page, 0) + 1
    assert skipped == listed, f"skipped (page: count) {skipped}; explained {listed}"
    assert f"skips these {sum(skipped.values())} tests" in text
