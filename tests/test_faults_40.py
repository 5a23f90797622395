"""Issue 40, items 5-10: writes that fail leave the old file, emoji codes and
Markdown in user text, UTF-16 input, a test suite that passes on a loaded
machine.  The command line runs in a subprocess where exit codes, limits or
the environment are the point."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PUZZLES, ROOT, scaled

GOOD = [ln.split()[0] for ln in (PUZZLES / "se-easy-500.txt").read_text().splitlines()
        if ln.strip()]
G = GOOD[0]


def cli(*args: str, env: dict[str, str] | None = None, timeout: float = 300,
        cwd: Path | None = None, preexec_fn=None,
        stdout: int = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    """``python -m grader ARGS`` as a user runs it (no terminal)."""
    e = dict(os.environ, COLUMNS="120", NO_COLOR="1")
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "grader", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=scaled(timeout), env=e,
                          cwd=cwd, preexec_fn=preexec_fn, stdin=subprocess.DEVNULL,
                          errors="replace")


def clean_exit(p: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr, p.stderr


# -- 6: emoji codes in file names and places are text -----------------------------------


def test_6_emoji_codes_in_an_error_are_printed_as_they_are(tmp_path: Path) -> None:
    for name in ("no:thumbs_up:file.txt", "c.jsonl:100:"):
        p = cli("grade", name, cwd=tmp_path)
        assert p.returncode == 2, p.stderr
        clean_exit(p)
        assert name in p.stderr, p.stderr
        assert "\U0001f44d" not in p.stderr and "\U0001f4af" not in p.stderr


def test_6_emoji_codes_in_a_file_name_of_a_table_are_printed_as_they_are(
        tmp_path: Path) -> None:
    (tmp_path / "a:thumbs_up:b.txt").write_text("\n".join(GOOD[:3]) + "\n")
    p = cli("grade", "a:thumbs_up:b.txt", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "a:thumbs_up:b.txt:1" in p.stdout and "\U0001f44d" not in p.stdout


def test_6_the_safe_console_keeps_emoji_codes() -> None:
    import io

    from grader.core.terminal import SafeConsole

    buf = io.StringIO()
    SafeConsole(file=buf, width=80).print("c.jsonl:100: :thumbs_up:")
    assert buf.getvalue().strip() == "c.jsonl:100: :thumbs_up:"


# -- 9: Markdown from the names of a hierarchy -----------------------------------------------


def test_9_markdown_escapes_every_markup_of_a_rule_name(tmp_path: Path) -> None:
    h = tmp_path / "h.toml"
    h.write_text('extends = "default"\n[[rules]]\ncode = "single-position"\nlevel = 1\n'
                 'name = "<img src=x>~~gone~~ a|b *em* `c` [l](u)\\n# head"\n'
                 'reference = "<b>p. 1</b>"\n')
    for depth in ("short", "teach"):
        p = cli("explain", G, "-f", "markdown", "--detail", depth, "--hierarchy", str(h))
        assert p.returncode == 0, p.stderr
        assert not re.search(r"(?<!\\)<[A-Za-z/!?]", p.stdout)
        assert ("**\\<img src=x>\\~\\~gone\\~\\~ a\\|b \\*em\\* \\`c\\` \\[l\\](u)\\x0a# head**"
                in p.stdout), p.stdout
        assert "\n# head" not in p.stdout


# -- 10: slow tests are deselected; the test command runs both legs ---------------------------


def test_10_slow_tests_are_deselected_not_skipped() -> None:
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "--co", "tests/test_generate_hard.py"], cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert re.search(r"\d+ deselected", p.stdout), p.stdout


def test_10_the_readme_test_command_runs_and_reports_both_legs(tmp_path: Path) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    command = next(ln for ln in text.splitlines() if "pip install -e '.[test]'" in ln)
    tests = command.split(" && ", 2)[2]  # after the venv and the install
    pure = "SUDOKU_GRADER_PURE=1 .venv/bin/python -m pytest -q -m kernel"
    assert tests.count(pure) == 1
    fake = tests.replace(pure, "echo SECOND")
    assert fake.count(".venv/bin/python -m pytest -q") == 1
    fake = fake.replace(".venv/bin/python -m pytest -q", "(echo FIRST; exit 1)")
    # as CI runs it (set -e) and as a user pastes it
    for shell in ("set -euo pipefail; ", ""):
        p = subprocess.run(["bash", "-c", shell + fake], capture_output=True, text=True,
                           cwd=tmp_path, timeout=60)
        assert p.returncode != 0, p.stdout
        assert "FIRST" in p.stdout and "SECOND" in p.stdout, p.stdout
        assert "exit 1" in p.stdout and "exit 0" in p.stdout, p.stdout


# -- 5: a write that fails leaves the old file whole -------------------------------------------


def _limit_file_size(limit: int):
    import resource
    import signal

    def preexec() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit: EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return preexec


WRITES = {
    "explain-html": ("explain", G, "-f", "html", "-o", "{out}", "--overwrite"),
    "explain-text": ("explain", G, "--grid", "-o", "{out}", "--overwrite"),
    "explain-json": ("explain", G, "-f", "json", "-o", "{out}", "--overwrite"),
    "grade": ("grade", "{grids}", "-o", "{out}.jsonl", "--overwrite", "-q"),
    "grade-csv-j2": ("grade", "{grids}", "-o", "{out}.csv", "--overwrite", "-q", "-j", "2"),
    "solve": ("solve", "{grids}", "-o", "{out}", "--overwrite", "-q"),
    "generate": ("generate", "-n", "200", "--level", "1", "-o", "{out}", "--overwrite", "-q",
                 "--seed", "1"),
}


@pytest.mark.parametrize("case", sorted(WRITES))
def test_5_a_failed_write_leaves_the_old_output_whole(tmp_path: Path, case: str) -> None:
    grids = tmp_path / "grids.txt"
    grids.write_text("\n".join(GOOD[:200]) + "\n")
    args = [a.format(out="old", grids=grids) for a in WRITES[case]]
    old = tmp_path / args[args.index("-o") + 1]
    before = "an earlier output, which must survive\n" * 600  # 23 KB
    old.write_text(before)
    os.chmod(old, 0o640)
    p = cli(*args, cwd=tmp_path, preexec_fn=_limit_file_size(8192), stdout=subprocess.DEVNULL)
    assert p.returncode == 2, p.stderr
    clean_exit(p)
    assert f"{old.name}: cannot write: File too large ({old.name} is left as it was)" \
        in p.stderr, p.stderr
    assert old.read_text() == before
    assert not [f.name for f in tmp_path.iterdir() if f.name.endswith(".tmp")]
    # without the limit the same command replaces it, with the old file's mode
    p = cli(*args, cwd=tmp_path, stdout=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    assert old.read_text() != before and (old.stat().st_mode & 0o777) == 0o640


def test_5_the_helper_renames_when_complete_and_discards_on_error(tmp_path: Path) -> None:
    from grader.formats.files import open_output, write_output

    f = tmp_path / "f.txt"
    f.write_text("old")
    with pytest.raises(RuntimeError), open_output(f) as fh:
        fh.write("new, half")
        raise RuntimeError
    assert f.read_text() == "old" and sorted(tmp_path.iterdir()) == [f]
    link = tmp_path / "link.txt"
    link.symlink_to(f.name)
    write_output(link, "new")
    assert link.is_symlink() and f.read_text() == "new"
    # the results of a long run: a new file fills as the run goes
    g = tmp_path / "g.txt"
    fh = open_output(g, stream=True)
    fh.write("line 1\n")
    fh.flush()
    assert g.read_text() == "line 1\n"
    fh.close()
    with open_output(g, stream=True) as fh:  # one that holds something is replaced whole
        fh.write("other\n")
        fh.flush()
        assert g.read_text() == "line 1\n"
    assert g.read_text() == "other\n"


# -- 7: UTF-16 (Windows' "Unicode") and UTF-8 with a byte-order mark ------------------------------


ENCODINGS = {"utf-16": "utf-16", "utf-16-be-bom": "utf-16-be", "utf-8-bom": "utf-8-sig",
             "utf-32": "utf-32", "utf-16-crlf": "utf-16"}


def _encoded(text: str, name: str) -> bytes:
    if name == "utf-16-crlf":
        text = text.replace("\n", "\r\n")
    data = text.encode(ENCODINGS[name])
    return b"\xfe\xff" + data if name == "utf-16-be-bom" else data


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_7_a_file_with_a_byte_order_mark_is_read_as_utf8_is(tmp_path: Path, name: str) -> None:
    from grader.formats import iter_binary
    from grader.formats.decode import binary_lines

    text = "# a comment\n" + "\n".join(GOOD[:30]) + "\n"
    data = _encoded(text, name)
    import io

    want = [(n, ln.rstrip("\r\n")) for n, ln in binary_lines(io.BytesIO(text.encode()), "x")]
    got = [(n, ln.rstrip("\r\n")) for n, ln in binary_lines(io.BytesIO(data), "x")]
    assert got == want
    recs = list(iter_binary(io.BytesIO(data), "x"))
    assert [r.grid.normalised() for r in recs] == [r.grid.normalised() for r in
                                                   iter_binary(io.BytesIO(text.encode()), "x")]
    assert [r.line for r in recs] == list(range(2, 32))
    from grader.explainer.position import read_text

    f = tmp_path / "g.txt"
    f.write_bytes(data)
    assert read_text(str(f))[0].replace("\r\n", "\n") == text


def test_7_utf16_as_every_command_reads_it(tmp_path: Path) -> None:
    text = "# a comment\n" + "\n".join(GOOD[:30]) + "\n"
    f = tmp_path / "g.txt"
    f.write_bytes(_encoded(text, "utf-16-crlf"))
    plain = tmp_path / "plain.txt"
    plain.write_text(text)
    for args in (("grade", "-f", "jsonl", "-j", "2", "--time-limit", "60"), ("grade", "-f", "csv"),
                 ("solve", "-q")):
        got_p, want_p = cli(*args, str(f), cwd=tmp_path), cli(*args, str(plain), cwd=tmp_path)
        assert got_p.returncode == 0, got_p.stderr
        strip = re.compile(r'"?seconds"?[:,]?\s*[0-9.e-]+|[0-9.]+ s\b|,[0-9.e-]+,sudoku')
        assert strip.sub("", got_p.stdout) == strip.sub("", want_p.stdout)
    p = cli("explain", str(f), "--index", "3", "-q")
    assert p.returncode == 0 and "solved" in p.stdout, p.stderr
    with f.open("rb") as fh:
        p = subprocess.run([sys.executable, "-m", "grader", "grade", "-", "-f", "jsonl"],
                           stdin=fh, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and len(p.stdout.splitlines()) == 30, p.stderr


def test_7_a_utf16_output_resumes(tmp_path: Path) -> None:
    f = tmp_path / "g.txt"
    f.write_bytes(("\n".join(GOOD[:40]) + "\n").encode("utf-16"))
    out = tmp_path / "o.jsonl"
    p = cli("grade", str(f), "-o", str(out), "-q", "-j", "2")
    assert p.returncode == 0, p.stderr
    whole = out.read_text().splitlines()
    out.write_text("\n".join(whole[:17]) + "\n")
    p = cli("grade", str(f), "-o", str(out), "-q", "--resume")
    assert p.returncode == 0, p.stderr
    key = re.compile(r'"seconds": [0-9.e-]+')
    assert [key.sub("", ln) for ln in out.read_text().splitlines()] == \
        [key.sub("", ln) for ln in whole]


def test_7_utf16_without_its_mark_says_how_to_convert(tmp_path: Path) -> None:
    f = tmp_path / "my grids.txt"
    f.write_bytes(("\n".join(GOOD[:5]) + "\n").encode("utf-16-le"))
    for args in (("grade", str(f)), ("explain", str(f))):
        p = cli(*args)
        assert p.returncode == 2
        clean_exit(p)
        assert "looks like UTF-16LE text without a byte-order mark" in p.stderr, p.stderr
        assert f"iconv -f UTF-16LE -t UTF-8 '{f}'" in p.stderr
    f.write_bytes(b"\x00\x01\x02binary\x00\xff" * 20)
    p = cli("grade", str(f))
    assert p.returncode == 2 and "binary data: a NUL byte at byte 1" in p.stderr


# -- 8: what a plugin prints, wherever the rules run -------------------------------------------


def test_8_what_a_plugin_prints_stays_off_standard_output_in_this_process_too(
        tmp_path: Path) -> None:
    from test_faults import _install

    site = tmp_path / "site"
    site.mkdir()
    _install(site, "t40noisy", 'from grader.core.rule import Rule\n'
             'class Noisy(Rule):\n    family = "t40-noisy"\n    def find(self, board):\n'
             '        print("FIND")\n        return iter(())\n', {"noisy40": "t40noisy:Noisy"})
    h = tmp_path / "h.toml"
    h.write_text('extends = "default"\n[[rules]]\ncode = "noisy40"\nlevel = 2\n'
                 'plugin = "noisy40"\n')
    src = tmp_path / "m.txt"
    medium = [ln.split()[0] for ln in (PUZZLES / "se-medium-500.txt").read_text().splitlines()
              if ln.strip() and not ln.startswith("#")][:6]
    src.write_text("\n".join(medium) + "\n")
    env = {"PYTHONPATH": str(site)}
    # -j 1 (or a machine with the memory for one worker): the grids are graded here
    for args in (("grade", str(src), "-f", "jsonl", "-j", "1"),
                 ("grade", str(src), "-f", "csv", "-j", "1", "--time-limit", "60"),
                 ("explain", medium[0], "-f", "json"), ("explain", medium[0], "-f", "markdown"),
                 ("explain", medium[0])):
        p = cli(*args, "--hierarchy", str(h), env=env)
        assert p.returncode == 0, p.stderr
        assert "FIND" not in p.stdout and "FIND" in p.stderr, args
    p = cli("grade", str(src), "-f", "jsonl", "-j", "1", "--hierarchy", str(h), env=env)
    assert len([json_line for json_line in p.stdout.splitlines() if json_line]) == 6


class _FlipFuture:
    """A Dask future whose chunk is cancelled (the scheduler stopped) just
    after it was seen finished."""

    def __init__(self, *states: str) -> None:
        self.states = list(states)

    @property
    def status(self) -> str:
        return self.states.pop(0) if len(self.states) > 1 else self.states[0]

    def done(self) -> bool:
        return True


class _Client:
    status = "running"

    def __init__(self, fail: bool) -> None:
        self.fail = fail

    def gather(self, futures):
        if self.fail:
            raise OSError("the scheduler went away")
        return [([("answer", None)], 0.01) for _ in futures]


@pytest.mark.parametrize("gather_fails", [False, True])
def test_8_a_chunk_cancelled_while_it_is_collected_is_no_internal_error(
        gather_fails: bool) -> None:
    pytest.importorskip("distributed")
    from grader.bulk.dask import ChunkSize, DaskPool

    pool = DaskPool.__new__(DaskPool)
    pool.client = _Client(gather_fails)
    pool.address = "tcp://127.0.0.1:1"
    pool.cfg = None
    pool.chunks = ChunkSize(8)
    pool._lost = None
    pool._fetch_failures = 0
    fut = _FlipFuture("finished", "cancelled")
    pool._futures = {fut: ["task"]}
    pool._count = 1
    out = pool._collect([fut])
    if gather_fails:  # still in flight: looked at again on the next round
        assert out == [] and fut in pool._futures and pool._count == 1
    else:
        assert out == [("answer", None)] and not pool._futures and pool._count == 0


def test_8_the_summary_in_a_pipe_is_never_cut_however_long_the_path(tmp_path: Path) -> None:
    deep = tmp_path / ("a-folder-with-a-long-name-" * 4) / ("and-another-one-" * 5)
    deep.mkdir(parents=True)
    src = deep / "grids-with-a-long-file-name.txt"
    src.write_text("\n".join(GOOD[:12]) + "\n")
    for args in (("-j", "1"), ("-f", "jsonl", "--summary")):
        p = cli("grade", str(src), *args, env={"COLUMNS": ""})
        assert p.returncode == 0, p.stderr
        text = p.stdout + p.stderr
        assert "slowest grids" in text and "…" not in text, text
        assert f"{src}:" in text, text


def test_8_time_limits_of_the_tests_scale_to_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    import conftest

    monkeypatch.setenv("SUDOKU_GRADER_TEST_TIME_SCALE", "3")
    assert conftest.scaled(10) == 30
    monkeypatch.setenv("SUDOKU_GRADER_TEST_TIME_SCALE", "")
    monkeypatch.setattr(os, "getloadavg", lambda: (16.0, 0.0, 0.0))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    assert conftest.machine_slowness() == 10.0  # a load of 16 on 2 CPUs, at most 10
    monkeypatch.setattr(os, "getloadavg", lambda: (0.5, 0.0, 0.0))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)))
    assert conftest.machine_slowness() == 1.0


def test_5_a_picture_is_saved_whole_or_not_at_all(tmp_path: Path) -> None:
    from grader.formats.files import save_whole

    f = tmp_path / "plot.png"
    f.write_bytes(b"old picture")

    def half(tmp: Path) -> None:
        assert tmp.suffix == ".png" and tmp.parent == tmp_path
        tmp.write_bytes(b"half a pic")
        raise OSError(27, "File too large")

    with pytest.raises(OSError):
        save_whole(f, half)
    assert f.read_bytes() == b"old picture" and sorted(tmp_path.iterdir()) == [f]
    save_whole(f, lambda tmp: tmp.write_bytes(b"new picture"))
    assert f.read_bytes() == b"new picture" and sorted(tmp_path.iterdir()) == [f]
