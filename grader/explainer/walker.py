"""``explain --step``: walk the solution one deduction at a time.

On a terminal: Enter (or space, ``n``, right arrow) shows the next step, ``b``
(or ``p``, left arrow) goes back, ``q`` (or Escape, Ctrl-C, Ctrl-D) quits;
the screen is redrawn each time.  Otherwise every step is printed in turn
with a separator line, so the walk works in pipes and tests."""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Callable

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from grader.explainer.core import Walkthrough
from grader.explainer.document import facts
from grader.explainer.render import render_step
from grader.explainer.textgrid import Drawing

NEXT = {"\r", "\n", " ", "n", "N", "\x1b[C"}
BACK = {"b", "B", "p", "P", "\x1b[D"}
QUIT = {"q", "Q", "\x1b", "\x03", "\x04", ""}

PROMPT = "[Enter] next   [b] back   [q] quit"


def read_key_tty(fd: int | None = None) -> str:
    """One key press from a terminal (arrow keys as escape sequences)."""
    import termios
    import tty

    fd = sys.stdin.fileno() if fd is None else fd
    old = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        ch = os.read(fd, 1).decode(errors="replace")
        if ch == "\x1b":
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                ch += os.read(fd, 2).decode(errors="replace")
        return ch
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def walk(wt: Walkthrough, console: Console, detail: str = "teach", grid: bool = True,
         read_key: Callable[[], str] = read_key_tty, notation: str | None = None) -> int:
    """Interactive walk; returns how many distinct steps were shown."""
    i = 0
    shown = 0
    while True:
        step = wt.step(i)
        total = len(wt.steps) if wt.complete else None
        console.clear()
        if step is None:
            f = facts(wt)
            console.print(Text("End of the solution", style="bold"))
            console.print(f.sentence(), markup=False)
            if grid:
                console.print(Drawing(wt.final(), None, wt.givens))
            console.print(Text("[b] back   [q] or [Enter] quit", style="dim"))
        else:
            shown = max(shown, i + 1)
            console.print(render_step(i + 1, step, wt.before(i), wt.givens, detail, total, grid,
                                      notation=notation), soft_wrap=False)
            console.print(Text(PROMPT, style="dim"))
        key = read_key()
        if key in QUIT:
            return shown
        if key in BACK:
            i = max(0, i - 1)
        elif key in NEXT:
            if step is None:
                return shown
            i += 1


def print_all(wt: Walkthrough, console: Console, detail: str = "teach",
              grid: bool = True, notation: str | None = None) -> int:
    """Every step in turn, separated by a rule line (non-interactive walk)."""
    count = 0
    for number, board, step in wt:
        console.print(Rule(f"step {number}", characters="═"))
        console.print(render_step(number, step, board, wt.givens, detail, None, grid,
                                  notation=notation), soft_wrap=not console.is_terminal)
        count += 1
    console.print(Rule("end", characters="═"))
    console.print(facts(wt).sentence(), markup=False)
    return count
