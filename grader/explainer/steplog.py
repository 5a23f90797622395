"""The step log: one line per step, as HoDoKu and SudokuWiki list a
solution (``2-String Kite: 8 in r1c2,r8c7 (connected by r8c3,r9c2) =>
r1c7<>8``), with the step's number, its value on Sudoku Explainer's scale
(the pattern path's steps) and its level.

``explain --log`` prints it alone; it heads ``explain``'s text output, and
the HTML page and the web page show it as a list that jumps to a step.  A
line is at most :data:`WIDTH` characters: a long reason (a chain) is cut in
its middle, the conclusion is kept.
"""

from __future__ import annotations

from collections.abc import Iterable

from grader.core.steps import Step
from grader.explainer.names import shown_level
from grader.explainer.notation import DEFAULT, shown

#: the longest line of the log
WIDTH = 120
#: the log's column heads
HEAD = "  #   SE  lvl  step"


def prefix(number: int, step: Step) -> str:
    """``  7  4.3   13  `` (no SE: blank)."""
    se = f"{step.se:.1f}" if step.se is not None else ""
    return f"{number:>3} {se:>4} {shown_level(step):>4}  "


def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters: the reason (before `` => ``)
    loses its middle first, then the end goes."""
    if len(text) <= width:
        return text
    head, sep, tail = text.partition(" => ")
    if sep and len(tail) + 12 < width:
        room = width - len(tail) - len(sep) - 1
        name, colon, reason = head.partition(": ")
        keep = room - len(name) - len(colon)
        if colon and keep > 8:
            left = keep * 2 // 3
            reason = reason[:left] + "…" + reason[len(reason) - (keep - left):]
            return f"{name}{colon}{reason}{sep}{tail}"[:width]
        return head[:room] + "…" + sep + tail
    return text[:width - 1] + "…"


def log_line(number: int, step: Step, notation: str = DEFAULT, width: int = WIDTH) -> str:
    """The step's line of the log."""
    lead = prefix(number, step)
    return lead + fit(shown(step.summary(), notation), width - len(lead))


def log_lines(steps: Iterable[tuple[int, Step]], notation: str = DEFAULT,
              width: int = WIDTH) -> list[str]:
    """The log of ``(number, step)``, its head first."""
    return [HEAD] + [log_line(n, s, notation, width) for n, s in steps]


def hardest(steps: Iterable[tuple[int, Step]]) -> int | None:
    """The number of the hardest step (the highest SE value, else the
    highest level; the first of equals), or None when there is none."""
    best: tuple[float, int] | None = None
    number = None
    for n, s in steps:
        key = (s.se if s.se is not None else -1.0, shown_level(s))
        if best is None or key > best:
            best, number = key, n
    return number


def expert(step: Step) -> bool:
    """Whether the step is beyond the book's rules 1-12 (a pattern, a chain,
    a trial): what ``--grids expert`` draws."""
    return step.se is not None or step.level >= 13
