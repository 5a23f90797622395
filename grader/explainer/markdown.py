"""Markdown for sharing an explanation in a forum: the starting grid in a
code block, every step as a numbered item with the book's notation (and the
reasoning at ``teach`` depth), trial branches as nested lists."""

from __future__ import annotations

import re

from grader.core.board import Board
from grader.core.steps import Link, Step
from grader.core.textsafe import escape_controls
from grader.explainer.core import Walkthrough
from grader.explainer.document import facts
from grader.explainer.names import beside, shown_level
from grader.explainer.notation import shown


def values_block(board: Board) -> str:
    """The values as a plain grid (``.`` for empty, blocks separated)."""
    geo = board.geo
    n, a, b = geo.n, geo.a, geo.b
    width = max(len(s) for s in geo.symbols)
    rows = []
    for i in range(n):
        if i and i % a == 0:
            rows.append("+".join("-" * ((width + 1) * b + 1) for _ in range(n // b)))
        cells = []
        for j in range(n):
            if j and j % b == 0:
                cells.append("|")
            v = board.values[i * n + j]
            cells.append((geo.symbol(v) if v else ".").rjust(width))
        rows.append(" " + " ".join(cells))
    return "\n".join(rows)


def _code(text: str) -> str:
    return f"`{text}`"


#: ``<`` where it would start HTML or an autolink (before a letter, ``/``, ``!``
#: or ``?``): ``<-`` in our sentences is left alone.
_TAG = re.compile(r"<(?=[A-Za-z/!?])")


def _escape(text: str) -> str:
    """Escape the characters Markdown would read as markup in our sentences
    and in names from a hierarchy file: emphasis, strikethrough, links, code,
    table cells and HTML (a rule named ``<script>`` is shown, never run);
    control characters (a newline too) are written as escapes."""
    for ch in ("\\", "*", "_", "[", "]", "`", "~", "|"):
        text = text.replace(ch, "\\" + ch)
    return escape_controls(_TAG.sub(r"\\<", text.replace("&", "&amp;")), newlines=False)


def _item(lines: list[str], indent: int, marker: str, text: str) -> int:
    """Append a list item; return the content column for its children."""
    lines.append(" " * indent + marker + " " + text)
    return indent + len(marker) + 1


def _branches(lines: list[str], step: Step, indent: int, full: bool = False,
              nest: int = 0) -> None:
    """A trial's branches as nested lists; ``nest``: how many trials this
    one is nested in (its assumptions' label)."""
    from grader.core.chain_text import (
        assumed,
        branch_end,
        chain_notation,
        end_text,
        has_short,
        label,
    )

    many = len(step.branches) > 1
    mark = label(nest)
    for i, b in enumerate(step.branches, start=1):
        head = f"branch {i}: " if many else ""
        col = _item(lines, indent, "-", f"*{head}assume* {_code(assumed(step, b))} ({mark})")
        if full or b.chain is None:
            for k, sub in enumerate(b.steps, start=1):
                sub_col = _item(lines, col, f"{k}.", _step_text(sub))
                if sub.branches:
                    _branches(lines, sub, sub_col, full, nest + 1)
            end = branch_end(step, b, mark)
        else:
            for link in b.chain.links:
                sub_col = _item(lines, col, f"{link.index}.", _link_text(step, link, mark))
                if link.step.branches:
                    _branches(lines, link.step, sub_col, nest=nest + 1)
            end = end_text(step, b, mark)
        if end.startswith("contradiction:"):
            end = end.replace("contradiction:", "**contradiction**:", 1)
        _item(lines, col, "-", _escape(end).replace("\\*\\*", "**"))
        if not full and has_short(b):
            _item(lines, col, "-", f"in short: {_code(chain_notation(step, b))}")


def _link_text(step: Step, link: Link, mark: str = "A") -> str:
    from grader.core.chain_text import uses_text
    from grader.core.phrases import effects

    sub = link.step
    eff = effects(step.geo, link.placements, link.eliminations)
    return (f"{_code(eff)} by **{_escape(sub.name)}**: {_escape(sub.reason())} "
            f"({_escape(uses_text(link.uses, mark))})")


def _step_text(step: Step) -> str:
    geo = step.geo
    effects = ", ".join([f"{geo.cell_name(c)} <- {geo.symbol(v)}" for c, v in step.placements]
                        + [f"{geo.cell_name(c)} != {geo.symbol(v)}" for c, v in step.eliminations])
    named = f" ({_escape(beside(step))})" if beside(step) else ""
    if step.se is not None:
        named += f" (SE {step.se:.1f})"
    return f"**{_escape(step.name)}**{named}: {_escape(step.reason())} => {_code(effects)}"


def render_markdown(wt: Walkthrough, detail: str = "short", grids: bool = True,
                    title: str | None = None, full_trace: bool = False,
                    notation: str | None = None) -> str:
    """The explanation for a forum post; ``notation``: the sentences'
    (``book`` or ``compact``)."""
    f = facts(wt)
    out = [f"# {_escape(title or 'Sudoku explained')}", "",
           f"Puzzle {_code(f.puzzle)} ({f.size}x{f.size}): {_escape(f.sentence())}", ""]
    if grids:
        out += ["```text", values_block(wt.start), "```", ""]
    for number, _board, step in wt:
        ref = f", {_escape(step.reference)}" if step.reference else ""
        col = _item(out, 0, f"{number}.", f"{_step_text(step)} (level {shown_level(step)}{ref})")
        if detail == "teach":
            if step.branches:
                from grader.core.trial_text import trial_parts

                intro, outro = trial_parts(step)
                out += ["", " " * col + _escape(intro), ""]
                _branches(out, step, col, full_trace)
                out += ["", " " * col + _escape(outro), ""]
            else:
                out += ["", " " * col + _escape(step.explain("teach")), ""]
        elif step.branches:
            _branches(out, step, col, full_trace)
    if grids:
        label = "Solution" if f.solved else "Where the rules stop"
        out += ["", f"{label}:", "", "```text", values_block(wt.final()), "```"]
    return shown("\n".join(out) + "\n", notation)
