"""The command line described by itself, for the documentation site and the
tests: every command's help as ``--help`` prints it, its options as a table,
and the side-by-side table of every long option of every command, each name
with its one meaning (:data:`MEANINGS`).

``docs/hooks.py`` puts these into the pages at build time; nothing here is
written by hand twice."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator
from contextlib import redirect_stdout
from dataclasses import dataclass
from typing import Any

#: Every long option of the commands, with the one thing it means wherever it
#: appears.  A new option needs a line here (a test says so), and a name
#: already here must keep its meaning in a new command.
MEANINGS: dict[str, str] = {
    "--all": "list every solution (up to --limit)",
    "--ac3-queue": "the csp engine's AC-3 queue policy",
    "--box": "the block shape AxB, for rectangular blocks",
    "--check": "debug: check every step against the solution",
    "--check-engine": "the exact engine that gives the verdicts",
    "--color": "colour: auto, always or never",
    "--column": "the CSV or JSON Lines column holding the grids",
    "--compare": "time several exact engines on the same grids",
    "--count": "count the solutions (up to --limit)",
    "--csp-model": "the csp engine's model: dual or primal",
    "--dask": "grade on a Dask cluster",
    "--dedupe": "drop grids equivalent under the Sudoku symmetries",
    "--depth": "trials nested to this depth",
    "--detail": "how much an explanation says: short or teach",
    "--dimacs": "write the grid's CNF in DIMACS format, do not solve",
    "--encoding": "the SAT encoding: classic, extended or reduced",
    "--engine": "the exact engine: native, sat, csp or cp",
    "--format": "the output format (jsonl or json: the machine-readable one)",
    "--fresh-solver": "a new SAT solver for every grid",
    "--full-trace": "trial branches as the whole propagation",
    "--grid": "draw the candidate grid with each step (--no-grid: not)",
    "--grids": "text: the steps shown in full after the step log",
    "--help": "show the help and exit",
    "--hierarchy": "your own hierarchy table (TOML or JSON)",
    "--hint": "only the next step, at a hint level",
    "--host": "the address the server listens on",
    "--idle-timeout": "seconds a connection may stay open without a request",
    "--index": "which grid of the file (1-based)",
    "--input-format": "how to read the input (auto detects)",
    "--install-completion": "install shell completion for this command",
    "--jobs": "worker processes (0: one per usable CPU)",
    "--keep-columns": "pass the input's other columns through",
    "--level": "the level of the grids to make",
    "--like": "explore around your own grids",
    "--limit": "stop after this many solutions",
    "--list-rules": "list the rules of the hierarchy and exit",
    "--log": "only the step log, one line per step",
    "--max-givens": "at most this many givens",
    "--max-level": "keep only ok grids of at most this level",
    "--method": "how grids are made: guided, top-down or bottom-up",
    "--min-givens": "at least this many givens",
    "--min-level": "keep only ok grids of at least this level",
    "--minimal": "only grids from which no given can be removed",
    "--moves": "moves already made, applied first",
    "--notation": "how cells and conclusions are written: compact or book",
    "--number": "how many grids to make",
    "--open": "open the page in the web browser",
    "--order": "the block order K of a pair (K*K x K*K grids)",
    "--output": "write to FILE instead of standard output",
    "--output-pretty": "write the solutions to FILE as drawn grids",
    "--overwrite": "replace an existing output file",
    "--pack": "write a daily pack into a directory",
    "--path": "where the book's rules stop: the patterns players use, or the book's trials",
    "--plot": "draw a picture of the run (PNG)",
    "--port": "the port the server listens on",
    "--pretty": "draw the grids instead of lines",
    "--progress": "a progress bar on standard error (--no-progress: none)",
    "--propagation": "what trials apply inside branches: all or singles",
    "--queue-time": "seconds a request may wait for a free worker",
    "--quiet": "no progress bar and no summary",
    "--rating": "the rating of the grids to make",
    "--read-timeout": "seconds a client has to send a whole request",
    "--resume": "continue an interrupted run's output",
    "--rules-up-to": "use only the rules up to this level",
    "--sat-solver": "the PySAT solver",
    "--schema": "print the JSON Schema of the output and exit",
    "--score": "a range of the grader's score",
    "--ep": "a range of Sudoku Explainer's EP (the hardest step before the first placement)",
    "--ed": "a range of Sudoku Explainer's ED (the hardest step before the first elimination)",
    "--se": "Sudoku Explainer's rating: how deep grade and explain estimate it (off, fast, "
             "full); the range of it that generate asks for (A..B)",
    "--seed": "the random seed (an integer)",
    "--show-completion": "print the shell completion script",
    "--size": "the side of the grid",
    "--sort": "sort the results, hardest first",
    "--stats": "print the engine's figures",
    "--step": "walk the steps one at a time, or show step N",
    "--stop-after": "stop the whole run after this many seconds",
    "--strict": "stop at the first grid a rule plugin broke",
    "--summary": "the end summary (--no-summary: none)",
    "--summary-only": "print only the summary",
    "--symmetry": "the symmetry of the givens",
    "--time-limit": "seconds for one grid (a request, for serve) before timeout",
    "--top": "with --sort, keep only the first N",
    "--trace": "plot the csp engine's AC-3 queue (PNG)",
    "--verify": "check the result again with a fresh solver",
    "--version": "print the versions and exit",
    "--where": "keep only the results for which EXPR holds",
    "--with-solution": "also write the solution",
}


@dataclass(frozen=True)
class OptionInfo:
    """One option of one command, as its help shows it."""

    names: tuple[str, ...]  # every spelling: "--jobs", "-j"
    secondary: tuple[str, ...]  # "--no-grid" of "--grid/--no-grid"
    spelled: str  # as the help shows it: "-j, --jobs N"
    help: str  # the help, with its "[default: ...]"
    hidden: bool
    flag: bool  # takes no value

    @property
    def long(self) -> str:
        """The long name (the first ``--`` spelling)."""
        return next((n for n in self.names if n.startswith("--")), self.names[0])


def root() -> Any:
    """The umbrella command (``grader``, ``python -m grader``), with every installed
    command."""
    import typer.main

    from grader.cli.main import build_app

    return typer.main.get_command(build_app())


def commands() -> dict[str, Any]:
    """``{"grade": command, ..., "pair solve": command}``: every command that runs."""
    out: dict[str, Any] = {}

    def walk(cmd: Any, path: str) -> None:
        subs = getattr(cmd, "commands", None)
        if subs:
            for name in sorted(subs):
                walk(subs[name], f"{path} {name}".strip())
        else:
            out[path] = cmd

    walk(root(), "")
    return out


def options(cmd: Any, hidden: bool = False) -> list[OptionInfo]:
    """The options of a command (``hidden``: also the deprecated spellings),
    from click's own help records."""
    found = []
    ctx = cmd.make_context(cmd.name or "x", ["--help"], resilient_parsing=True)
    for p in cmd.get_params(ctx):
        if getattr(p, "param_type_name", "") != "option" or (p.hidden and not hidden):
            continue
        was, p.hidden = p.hidden, False  # a hidden option has no help record
        try:
            record = p.get_help_record(ctx)
        finally:
            p.hidden = was
        spelled, text = record if record else (", ".join(p.opts), p.help or "")
        found.append(OptionInfo(tuple(p.opts), tuple(p.secondary_opts), spelled,
                                " ".join(text.split()), bool(p.hidden),
                                bool(getattr(p, "is_flag", False))))
    return found


def help_text(path: str) -> str:
    """What ``COMMAND --help`` prints (``path``: ``grade``, ``pair solve``)."""
    buf = io.StringIO()
    with redirect_stdout(buf), contextlib.suppress(SystemExit):
        root().main(args=[*path.split(), "--help"], prog_name="python -m grader",
                    standalone_mode=False)
    text = buf.getvalue().replace("python -m grader ", "", 1)
    return text


def deprecated() -> Iterator[tuple[str, str, str]]:
    """``(command, old spelling, its help)`` of every deprecated spelling."""
    for path, cmd in commands().items():
        for o in options(cmd, hidden=True):
            if o.hidden and o.help.startswith("Deprecated"):
                yield path, o.long, o.help


def side_by_side() -> tuple[list[str], list[tuple[str, str, list[bool]]]]:
    """The table of every long option (rows) of every command (columns, the
    umbrella first: its options are those of every console script too, shell
    completion included): ``(commands, [(option, meaning, [used by each])])``."""
    cmds = {"grader": root(), **commands()}
    names = list(cmds)
    used: dict[str, set[str]] = {}
    for path, cmd in cmds.items():
        for o in options(cmd):
            used.setdefault(o.long, set()).add(path)
    rows = [(opt, MEANINGS.get(opt, "?"), [c in used[opt] for c in names])
            for opt in sorted(used)]
    return names, rows


def markdown_side_by_side(link: bool = False) -> str:
    """:func:`side_by_side` as a Markdown table (``link``: each mark links to
    the option's heading in its command's page, as the site has them)."""
    names, rows = side_by_side()
    head = "| option | meaning | " + " | ".join(f"`{n}`" for n in names) + " |"
    rule = "|---|---|" + "---|" * len(names)

    def mark(command: str, opt: str) -> str:
        if not link or command not in commands():
            return "✓"
        return f"[✓]({command.split()[0]}.md#{anchor(command, opt)})"

    body = [f"| `{opt}` | {meaning} | "
            + " | ".join(mark(n, opt) if u else "" for n, u in zip(names, marks, strict=True))
            + " |" for opt, meaning, marks in rows]
    old = [f"| `{path}` | `{name}` | {text} |" for path, name, text in deprecated()]
    return "\n".join([head, rule, *body, "", "Deprecated spellings (they work, say so on "
                      "standard error, and go in 0.3.0):", "", "| command | spelling | "
                      "what it is now |", "|---|---|---|", *old]) + "\n"


#: the bracketed notes click puts at the end of a help text
_NOTES = re.compile(r"\s*\[((?:default|env var|required|x>=|x<=|\d)[^\]]*)\]\s*$")


def anchor(path: str, option: str) -> str:
    """The anchor of an option in the site's page of its command:
    ``grade-time-limit`` (``pair-generate-order``; an argument: ``grade-args``)."""
    return "-".join([*path.split(), option.lstrip("-")]).lower()


def _split_notes(text: str) -> tuple[str, list[str]]:
    """A help text without its trailing ``[default: ...]`` notes, and the notes."""
    notes: list[str] = []
    while (m := _NOTES.search(text)) is not None:
        notes.insert(0, m.group(1))
        text = text[:m.start()]
    return text.strip(), notes


def _argument_markdown(path: str, cmd: Any) -> list[str]:
    ctx = cmd.make_context(cmd.name or "x", ["--help"], resilient_parsing=True)
    out: list[str] = []
    for p in cmd.get_params(ctx):
        if getattr(p, "param_type_name", "") != "argument" or getattr(p, "hidden", False):
            continue
        record = p.get_help_record(ctx) if hasattr(p, "get_help_record") else None
        shown = record[0] if record else (p.metavar or p.name or "").upper()
        text, notes = _split_notes(" ".join((record[1] if record else "").split()))
        out += [f"### `{shown}` {{ #{anchor(path, 'args')} }}", "", _prose(text), ""]
        out += [f"*{n}*" for n in notes] + ([""] if notes else [])
    return out


def markdown_options(path: str) -> str:
    """A command's arguments and options, one heading (one anchor) each, as
    its help gives them: the spellings and the value, the help, then its
    default (no table: a ``|`` in ``text|jsonl|csv`` needs no escape)."""
    cmd = commands()[path]
    lines = _argument_markdown(path, cmd)
    for o in options(cmd):
        text, notes = _split_notes(o.help)
        lines += [f"### `{o.long}` {{ #{anchor(path, o.long)} }}", "", f"`{o.spelled}`", "",
                  _prose(text), ""]
        if notes:
            parts = [_unwrap(part) for n in notes for part in n.split("; ")]
            lines += ["*" + _prose("; ".join(parts)) + "*", ""]
    return "\n".join(lines).rstrip() + "\n"


def _unwrap(note: str) -> str:
    """``default: (the book's)`` -> ``default: the book's``."""
    key, sep, value = note.partition(": ")
    if sep and value.startswith("(") and value.endswith(")"):
        value = value[1:-1]
    return f"{key}{sep}{value}"


def _prose(text: str) -> str:
    """Help text as Markdown: its `code` kept, nothing else read as markup."""
    parts = text.split("`")
    for i in range(0, len(parts), 2):  # outside the code spans
        parts[i] = (parts[i].replace("\\", "\\\\").replace("*", "\\*").replace("_", "\\_")
                    .replace("<", "&lt;"))
    return "`".join(parts)
