"""Issue 30, end to end: every listed case run as a user would (subprocesses,
``timeout``, signals, odd files and environments), pass or fail per case,
each in bounded time.

    python benchmarks/hostile_check.py            # every case (about 1-2 min)
    python benchmarks/hostile_check.py -k resume  # the cases whose name holds "resume"

A case passes when the command ends within its time limit with the expected
exit status and a clear one-line message where one is due, no traceback and
no "internal error", and no good grid's result lost or changed (compared with
a clean run where results are written).  Exit status 0 when every case
passes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
LIMIT = 120.0  # seconds a command may take
COMMANDS = ("grade", "explain", "solve", "generate", "pair", "rules")


class Failed(Exception):
    pass


def check(cond: object, why: str) -> None:
    if not cond:
        raise Failed(why)


def run(*args: str, env: dict[str, str] | None = None, timeout: float = LIMIT,
        prefix: tuple[str, ...] = (), cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m grader ARGS`` (after ``prefix``, e.g. ``timeout 2``); ``grade``
    when ARGS do not start with a command."""
    if not args or args[0] not in COMMANDS:
        args = ("grade", *args)
    e = dict(os.environ, COLUMNS="120", NO_COLOR="1")
    e.update(env or {})
    try:
        p = subprocess.run([*prefix, sys.executable, "-m", "grader", *args], capture_output=True,
                           text=True, env=e, timeout=timeout, cwd=cwd, errors="replace",
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise Failed(f"did not end within {timeout:g} s: {' '.join(args)}") from None
    text = p.stdout + p.stderr
    check("Traceback" not in text, f"a traceback: {p.stderr[-300:]}")
    check("internal error" not in text, f"an internal error: {p.stderr[-300:]}")
    return p


def rows(path: Path) -> list[dict]:
    return [json.loads(ln) for ln in path.read_text().splitlines() if ln.strip()]


def plain(rs: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rs]


def one_line_error(p: subprocess.CompletedProcess[str], code: int = 2, *words: str) -> None:
    check(p.returncode == code, f"exit {p.returncode}, not {code}: {p.stderr[-300:]}")
    last = [ln for ln in p.stderr.splitlines() if ln.strip()]
    check(last and all(w in p.stderr for w in words), f"message: {p.stderr[-300:]}")


class Cases:
    """The cases, each a method ``case_NAME`` (run in the order written)."""

    def __init__(self, d: Path) -> None:
        self.d = d
        lines = [ln for ln in (PUZZLES / "se-easy-500.txt").read_text().splitlines() if ln]
        self.good = [ln.split()[0] for ln in lines]
        self.g = self.good[0]
        self.five = d / "five.txt"
        self.five.write_text("\n".join(self.good[:5]) + "\n")
        rated = [ln.split() for ln in (PUZZLES / "se-rated-9758.txt").read_text().splitlines()
                 if ln.strip()]
        hard = sorted(rated, key=lambda r: -float(r[2]))[:150]
        self.hard = d / "hard.txt"
        self.hard.write_text("".join(f"{r[1]}\n" for r in hard))
        self._clean: list[dict] | None = None

    def clean(self) -> list[dict]:
        if self._clean is None:
            out = self.d / "clean.jsonl"
            p = run(str(self.hard), "-j", "2", "-q", "-o", str(out))
            check(p.returncode == 0, f"the clean run: {p.stderr}")
            self._clean = plain(rows(out))
        return self._clean

    # -- 1 ----------------------------------------------------------------------------
    def _group_signal(self, sig: str) -> None:
        out = self.d / f"t-{sig}.jsonl"
        prefix = ("timeout", "-s", sig, "2")
        p = run(str(self.hard), "-j", "2", "-q", "-o", str(out), prefix=prefix)
        # timeout(1) exits 124 (or dies of the signal it sends its own group)
        check(p.returncode in (124, 130, 137, -9), f"exit {p.returncode}")
        cut = [ln for ln in out.read_text().split("\n")[:-1] if ln]
        check(len(cut) < 150, "the run ended before the signal: nothing to check")
        bad = [json.loads(ln)["index"] for ln in cut if json.loads(ln)["verdict"] != "ok"]
        check(not bad, f"grids written as failed by the stop: {bad}")
        p = run(str(self.hard), "-j", "2", "-q", "-o", str(out), "--resume")
        check(p.returncode == 0, f"resume: exit {p.returncode}: {p.stderr[-300:]}")
        got = rows(out)
        check([r["index"] for r in got] == list(range(1, 151)), "not every grid exactly once")
        check(plain(got) == self.clean(), "results differ from a clean run")

    def case_1_timeout_sigterm_to_the_group_then_resume(self) -> None:
        self._group_signal("TERM")

    def case_1_sigint_to_the_group_then_resume(self) -> None:
        self._group_signal("INT")

    def case_1_sighup_to_the_group_then_resume(self) -> None:
        self._group_signal("HUP")

    def case_1_sigkill_then_resume(self) -> None:
        self._group_signal("KILL")

    # -- 2 ----------------------------------------------------------------------------
    def _cut(self, name: str) -> tuple[Path, list[str]]:
        src = self.d / "forty.txt"
        src.write_text("\n".join(self.good[:40]) + "\n")
        out = self.d / name
        for f in (out, Path(f"{out}.meta.json")):
            f.unlink(missing_ok=True)
        run(str(src), "-j", "1", "-q", "-o", str(out))
        return src, out.read_text().splitlines(keepends=True)

    def case_2_resume_with_a_line_written_twice(self) -> None:
        src, lines = self._cut("dup.jsonl")
        out = self.d / "dup.jsonl"
        out.write_text("".join(lines[:20] + lines[19:30]))
        p = run(str(src), "-j", "1", "-q", "-o", str(out), "--resume")
        check(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
        check([r["index"] for r in rows(out)] == list(range(1, 41)), "grid 20 twice")

    def case_2_resume_refuses_conflicting_missing_foreign_lines_and_a_broken_meta(self) -> None:
        src, lines = self._cut("bad.jsonl")
        out = self.d / "bad.jsonl"
        meta = Path(f"{out}.meta.json")
        good_meta = meta.read_text()
        other = json.loads(lines[19])
        other["level"] = 99
        damaged = {
            "conflict": lines[:20] + [json.dumps(other) + "\n"] + lines[20:30],
            "missing": lines[:10] + lines[11:30], "foreign": lines[:15] + ["hello\n"],
            "reordered-missing": [lines[2], lines[1]], "index 0": ['{"index": 0, "puzzle": 1}\n'],
        }
        for what, body in [*damaged.items(), ("meta", lines[:30])]:
            out.write_text("".join(body))
            meta.write_text("{broken" if what == "meta" else good_meta)
            before = out.read_text()
            p = run(str(src), "-j", "1", "-q", "-o", str(out), "--resume")
            one_line_error(p, 2, "bad.jsonl")
            check(out.read_text() == before, f"{what}: the output changed")

    # -- 3 ----------------------------------------------------------------------------
    def case_3_outputs_onto_a_named_pipe_no_program_reads(self) -> None:
        fifo = self.d / "pipe.jsonl"
        fifo.unlink(missing_ok=True)
        os.mkfifo(fifo)
        for args in (("grade", str(self.hard), "-o", str(fifo)),
                     ("grade", str(self.five), "-o", str(fifo), "--resume"),
                     ("explain", self.g, "-o", str(fifo)), ("solve", str(self.five), "-o",
                                                              str(fifo)),
                     ("generate", "-n", "1", "--seed", "1", "-q", "-o", str(fifo))):
            one_line_error(run(*args, timeout=20), 2, "pipe")

    # -- 4 ----------------------------------------------------------------------------
    def case_4_infinite_and_huge_numbers(self) -> None:
        f = str(self.five)
        for args in ((f, "--time-limit", "inf"), (f, "--time-limit", "1e308", "-j", "2"),
                     (f, "--timeout", "1e300"), (f, "--time-limit", "inf", "-j", "2")):
            p = run(*args, "-f", "jsonl")
            check(p.returncode == 0 and len(p.stdout.splitlines()) == 5, f"{args}: {p.stderr}")
        for args in (("solve", self.g, "--count", "--limit", "9" * 23),
                     ("generate", "-n", "9" * 23, "--seed", "1"),
                     ("pair", "solve", "-", "--limit", "9" * 23),
                     ("grade", f, "--time-limit", "nan"), ("solve", self.g, "--time-limit", "nan")):
            p = run(*args, timeout=30)
            check(p.returncode == 2, f"{args}: exit {p.returncode}")

    # -- 5 ----------------------------------------------------------------------------
    def case_5_output_encodings(self) -> None:
        out = self.d / "enc.jsonl"
        for enc in ("ascii", "latin-1"):
            env = {"PYTHONIOENCODING": enc}
            for args in ((str(self.five), "-j1"), ("explain", self.g),
                         (str(self.five), "-j1", "-o", str(out), "--overwrite")):
                p = run(*args, env=env)
                check(p.returncode == 0, f"{enc} {args}: exit {p.returncode}: {p.stderr}")
            check(len(rows(out)) == 5, "the output is incomplete")

    def case_5_environment_variables(self) -> None:
        for env in ({"SUDOKU_GRADER_DEBUG": "0"}, {"SUDOKU_GRADER_PURE": "false"},
                    {"COLUMNS": "0"}, {"COLUMNS": "5"}, {"COLUMNS": "99999999"},
                    {"NO_COLOR": ""}, {"TERM": "dumb"}):
            p = run(str(self.five), "--time-limit", "inf", env=env)
            check(p.returncode == 0 and p.stdout.count("very easy") >= 5, f"{env}: {p.stdout}")

    # -- 6 ----------------------------------------------------------------------------
    def _site(self) -> dict[str, str]:
        site = self.d / "site"
        if not site.exists():
            site.mkdir()
            plugins = {"loopplug": "while True:\n    pass\n", "exitplug": "import sys\n"
                       "sys.exit(3)\n"}
            for name, source in plugins.items():
                (site / f"{name}.py").write_text(source)
                info = site / f"{name}-1.0.dist-info"
                info.mkdir()
                (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\n"
                                               f"Version: 1.0\n")
                (info / "entry_points.txt").write_text(f"[sudoku_grader.rules]\n"
                                                       f"{name} = {name}:Rule\n")
        return {"PYTHONPATH": str(site)}

    def case_6_plugins_the_hierarchy_does_not_use(self) -> None:
        env = self._site()
        for args in ((str(self.five),), ("explain", self.g)):
            t0 = time.monotonic()
            p = run(*args, env=env, timeout=30)
            check(p.returncode == 0, f"{args}: exit {p.returncode}: {p.stderr}")
            check(time.monotonic() - t0 < 10, f"{args}: slow")

    def case_6_a_broken_plugin_the_hierarchy_uses(self) -> None:
        env = self._site()
        for plugin in ("exitplug", "loopplug"):
            h = self.d / f"{plugin}.toml"
            h.write_text(f'extends = "default"\n[[rules]]\ncode = "x"\nlevel = 2\n'
                         f'plugin = "{plugin}"\n')
            p = run(str(self.five), "--hierarchy", str(h), env=env, timeout=60)
            one_line_error(p, 2, plugin)
        p = run("rules", env=env, timeout=60)
        check(p.returncode == 0 and "exitplug" in p.stdout, f"rules: {p.stderr}")

    # -- 7 ----------------------------------------------------------------------------
    def case_7_csv_formula_injection(self) -> None:
        f = self.d / "formula.csv"
        f.write_text(f"puzzle,cmd,link\n{self.g},=cmd|' /C calc'!A0,\"=HYPERLINK(\"\"x\"\")\"\n"
                     f"-cmd|calc!A0,@x,+y\n")
        t = self.d / "formula.txt"
        t.write_text(f"=cmd|' /C calc'!A0\n=HYPERLINK(\"x\")\n-cmd|calc!A0\n+x\n@x\n{self.g}\n")
        for args in ((str(f), "-f", "csv", "--keep-columns"), (str(t), "-f", "csv")):
            p = run(*args)
            for row in csv.reader(io.StringIO(p.stdout)):
                for cell in row:
                    if not re.fullmatch(r"-?[0-9.]+(e-?[0-9]+)?", cell):
                        check(not cell.startswith(("=", "+", "-", "@", "\t", "\r")),
                              f"a cell starts a formula: {cell!r}")

    # -- 8 ----------------------------------------------------------------------------
    def case_8_terminal_escapes_in_file_names(self) -> None:
        name = "esc\x1b]0;PWNED\x07\x1b[2J.txt"
        shutil.copy(self.five, self.d / name)
        for args in ((name, "-o", "o.jsonl", "--overwrite"), (name,), ("nope\x1b[2J.txt",),
                     ("explain", "nope\x1b[2J.txt")):
            p = run(*args, cwd=self.d)
            check("\x1b" not in p.stdout + p.stderr and "\x07" not in p.stdout + p.stderr,
                  f"{args!r}: a raw escape reached the terminal")
        (self.d / "[bold red]x.txt").write_text(self.five.read_text())
        p = run("[bold red]x.txt", cwd=self.d)
        check("[bold red]x.txt:1" in p.stdout, "markup in a file name was read as markup")

    # -- 9 ----------------------------------------------------------------------------
    def case_9_markdown_with_html_in_rule_names(self) -> None:
        h = self.d / "html.toml"
        h.write_text('extends = "default"\n[[rules]]\ncode = "single-position"\nlevel = 1\n'
                     'name = "<img src=x onerror=alert(1)><script>alert(2)</script>[/]"\n')
        for fmt in ("markdown", "html"):
            p = run("explain", self.g, "-f", fmt, "--hierarchy", str(h))
            check(p.returncode == 0, f"{fmt}: exit {p.returncode}")
            if fmt == "markdown":
                found = re.search(r"(?<![\\])<(img|script)", p.stdout)
            else:  # the page has a <script> of its own: the name's must be escaped
                found = "<img" in p.stdout or "&lt;script&gt;" not in p.stdout
            check(not found, f"{fmt}: raw HTML from a rule name")
        p = run(self.g, "--hierarchy", str(h))
        check(p.returncode == 0, "grade with markup in a rule name")

    # -- 10 ---------------------------------------------------------------------------
    def case_10_jobs_beyond_the_machine(self) -> None:
        p = run(str(self.hard), "-j", "64", "-f", "jsonl", "--time-limit", "0.2")
        check(p.returncode in (0, 1) and len(p.stdout.splitlines()) == 150, "results lost")
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 64
        check(cpus >= 64 or "note: -j 64:" in p.stderr, f"not said: {p.stderr}")
        p = run("generate", "-n", "2", "--seed", "1", "-j", "64")
        check(p.returncode == 0, f"generate: {p.stderr}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", default="", help="only the cases whose name holds this")
    args = ap.parse_args(argv)
    failed = 0
    with tempfile.TemporaryDirectory(prefix="hostile-check-") as tmp:
        cases = Cases(Path(tmp))
        names = [n for n in Cases.__dict__ if n.startswith("case_") and args.k in n]
        for name in names:
            t0 = time.monotonic()
            method: Callable[[], None] = getattr(cases, name)
            try:
                method()
                verdict, why = "PASS", ""
            except Failed as e:
                verdict, why = "FAIL", f": {e}"
                failed += 1
            print(f"{verdict}  {name[5:]}  ({time.monotonic() - t0:.1f} s){why}", flush=True)
    print(f"{len(names) - failed} of {len(names)} cases pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
