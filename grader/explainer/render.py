"""Rich rendering of steps for the terminal: header, sentence, branches,
candidate grid with the pattern highlighted."""

from __future__ import annotations

from collections.abc import Collection

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

from grader.core.board import Board
from grader.core.steps import Step
from grader.core.trial_text import branch_lines, teach_trial
from grader.explainer.names import beside, shown_level
from grader.explainer.notation import cased, shown
from grader.explainer.textgrid import Drawing


def header(number: int, step: Step, total: int | None = None,
           notation: str | None = None) -> Text:
    """``Step 4/52 · single position · level 1 · rule 2.1`` (a step of the
    pattern path: ``Step 18/60 · skyscraper · SE 4.0 · level 13``)."""
    t = Text()
    t.append(f"Step {number}" + (f"/{total}" if total else ""), "bold")
    t.append(" · ")
    t.append(step.name if notation is None else cased(step.name), "bold cyan")
    if beside(step):
        t.append(f" ({beside(step)})", "cyan")
    if step.se is not None:
        t.append(f" · SE {step.se:.1f}", "yellow")
    t.append(f" · level {shown_level(step)}", "magenta")
    if step.reference:
        t.append(f" · {step.reference}", "dim")
    if step.depth > 1:
        t.append(f" · nesting depth {step.depth}", "dim")
    return t


def _style_line(line: str) -> Text:
    s = line.strip()
    if s.startswith("contradiction:"):
        return Text(line, Style(color="red"))
    if s.startswith("no contradiction"):
        return Text(line, Style(color="green"))
    if s.startswith("branch ") or s.startswith("assume "):
        return Text(line, Style(color="magenta", bold=True))
    if s.startswith("in short:"):
        return Text(line, Style(color="cyan"))
    return Text(line)


def body_lines(step: Step, detail: str = "short", full: bool = False,
               notation: str | None = None) -> list[str]:
    """The text of a step at ``detail``: the summary (and a trial's branches:
    their chains, or with ``full`` the whole recorded propagation) or the
    teach explanation, in ``notation`` (``book`` or ``compact``)."""
    if detail == "teach":
        if step.branches:
            lines = [step.summary(), *teach_trial(step, full).splitlines()]
        else:
            lines = [step.summary(), *step.explain("teach").splitlines()]
    else:
        lines = [step.summary()]
        if step.branches:
            lines += branch_lines(step, full=full)
    return [shown(line, notation) for line in lines]


def body(step: Step, detail: str = "short", full: bool = False,
         notation: str | None = None) -> Text:
    """The step's text; at ``teach`` depth the summary line comes first, in bold."""
    out = Text()
    for i, line in enumerate(body_lines(step, detail, full, notation)):
        if i:
            out.append("\n")
        if i == 0 and detail == "teach":
            out.append(line, "bold")
        else:
            out.append_text(_style_line(line))
    return out


def render_step(number: int, step: Step, board: Board | None = None,
                givens: Collection[int] | None = None, detail: str = "short",
                total: int | None = None, grid: bool = True,
                full: bool = False, notation: str | None = None) -> RenderableType:
    """One step: header, text, and (with ``board``, the position before the
    step) the candidate grid with the pattern highlighted.  ``full``: a
    trial's branches as the whole recorded propagation; ``notation``: the
    sentences' (``book`` or ``compact``)."""
    parts: list[RenderableType] = [header(number, step, total, notation),
                                   body(step, detail, full, notation)]
    if grid and board is not None:
        parts.append(Text())
        parts.append(Drawing(board, step, givens))
    return Group(*parts)
