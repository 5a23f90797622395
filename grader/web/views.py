"""A walked path drawn and written for the page, frame by frame.

Frame 0 is the starting position (the grid once the learner's moves are
made), frame ``k`` step ``k`` drawn on the board before it (its pattern
highlighted, what it places circled, what it removes struck out) with its
reasoning, a trial's branches folded with their chains drawn, as
``explain -f html`` draws them; the last frame is the end: the solution,
where the rules stop, or the contradiction a wrong move led to.  The
position at frame ``k`` (where hints and moves start) is the board after
``k`` steps.  Every text is escaped here or by the explain renderers.
"""

from __future__ import annotations

from html import escape
from typing import Any

from grader.core.steps import Step
from grader.explainer import hint as hint_text
from grader.explainer.document import candidates_list, values_string
from grader.explainer.html import step_legend, step_teach
from grader.explainer.model import step_model
from grader.explainer.names import beside, common_name, shown_level
from grader.explainer.notation import DEFAULT, cased, shown
from grader.explainer.steplog import log_line
from grader.explainer.svg import grid_svg
from grader.web.work import Solved, check_frame, fold_move

#: The board's drawing size in pixels (it scales down to the screen's width).
BOARD_PX = 540
#: The chains' drawings in the reasoning.
CHAIN_PX = 420
#: The fill of the cells of a contradiction.
CONFLICT_FILL = "#ffc9c9"

__all__ = ["check_frame", "frame", "hint", "move", "summary"]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def wrong_message(s: Solved) -> str | None:
    """What the page says of a wrong move, once the path shows it."""
    if s.wrong is None or not s.complete:
        return None
    move = s.moves[s.wrong]
    if s.status == "contradiction":
        n = len(s.steps)
        if not n:
            return (f"The move {move} was wrong: it leads at once to a contradiction "
                    f"({s.contradiction}). Undo it.")
        return (f"The move {move} was wrong: {_plural(n, 'step')} from here lead to a "
                f"contradiction ({s.contradiction}). Undo it, or step through them to see why.")
    return (f"The move {move} was wrong: this position has no solution (the rules stop "
            f"without finding the contradiction). Undo it.")


def end_title(s: Solved) -> str:
    return {"solved": "Solution", "contradiction": "Contradiction",
            "stuck": "Where the rules stop"}.get(s.status, "So far")


def summary(s: Solved) -> dict[str, Any]:
    """The answer of ``/api/explain``: the position, the rating, the list of steps."""
    geo = s.start.geo
    return {
        "position": s.position, "input_format": s.input_format, "box": s.box,
        "size": geo.n, "block": [geo.a, geo.b], "symbols": geo.symbols,
        "path": s.query.path, "moves": s.moves,
        "wrong": None if s.wrong is None else {
            "index": s.wrong, "move": s.moves[s.wrong], "message": wrong_message(s)},
        "status": s.status, "contradiction": s.contradiction, "sentence": s.sentence,
        "grade": s.grade, "total": len(s.steps), "end": len(s.steps) + 1,
        "steps": [{"number": i, "name": cased(st.name), "level": shown_level(st),
                   "depth": st.depth,
                   "trial": bool(st.branches), "common_name": common_name(st),
                   "se": st.se, "summary": shown(st.summary(), DEFAULT),
                   "log": log_line(i, st, DEFAULT)}
                  for i, st in enumerate(s.steps, start=1)],
    }


def _heading(step: Step, number: int, total: int | None) -> str:
    ref = f" · {escape(step.reference)}" if step.reference else ""
    named = f" ({escape(beside(step))})" if beside(step) else ""
    of = f"/{total}" if total is not None else ""
    # a pattern's value is its SE rating (the book's level of the trial it
    # stands for would say 13 for a turbot fish)
    rate = f"SE {step.se:.1f}" if step.se is not None else f"level {shown_level(step)}"
    return (f'<h2>Step {number}{of} · {escape(cased(step.name))}{named} '
            f'<span class="meta">{rate}{ref}</span></h2>'
            f'<p class="summary">{escape(step.summary())}</p>')


def _board(s: Solved, k: int) -> str:
    if k == 0:
        return grid_svg(s.start, size_px=BOARD_PX, givens=s.givens, title="Starting position")
    if k <= len(s.steps):
        step = s.steps[k - 1]
        svg = grid_svg(s.before[k - 1], step, size_px=BOARD_PX, givens=s.givens,
                       title=shown(step.summary(), DEFAULT))
        return f'{svg}<p class="legend">{step_legend(step)}</p>'
    fills = dict.fromkeys(s.conflict_cells, CONFLICT_FILL)
    return grid_svg(s.after(k), size_px=BOARD_PX, givens=s.givens, title=end_title(s),
                    fills=fills)


def _text(s: Solved, k: int) -> tuple[str, str]:
    """(title, html) of frame ``k``'s reasoning."""
    total = len(s.steps) if s.complete else None
    if k == 0:
        moves = (f"<p>Your moves: <span class=\"short\">{escape(' '.join(s.moves))}</span>"
                 "</p>" if s.moves else "")
        return "Starting position", (f"<h2>Starting position</h2>{moves}<p>Take the first "
                                     "step, ask for a hint, or make a move.</p>")
    if k <= len(s.steps):
        step = s.steps[k - 1]
        body = step_teach(step, s.before[k - 1], CHAIN_PX, False, f"s{k}")
        return f"Step {k}: {cased(step.name)}", _heading(step, k, total) + body
    title = end_title(s)
    said = escape(s.sentence[0].upper() + s.sentence[1:]) if s.sentence else ""
    wrong = wrong_message(s)
    extra = f'<p class="wrong">{escape(wrong)}</p>' if wrong else ""
    return title, f"<h2>{escape(title)}</h2><p>{said}</p>{extra}"


def frame(s: Solved, k: int) -> dict[str, Any]:
    """The answer of ``/api/step``: frame ``k`` drawn and written, the position
    there, and (for a step) the step as ``explain --step N -f json`` gives it."""
    check_frame(s, k)
    title, text = _text(s, k)
    text = shown(text, DEFAULT, html=True)
    after = s.after(k)
    step = s.steps[k - 1] if 0 < k <= len(s.steps) else None
    kind = "start" if k == 0 else "step" if step is not None else "end"
    return {
        "number": k, "kind": kind, "total": len(s.steps) if s.complete else None,
        "title": title, "board": _board(s, k), "text": text,
        "values": values_string(after), "candidates": candidates_list(after),
        "step": step_model(step, k).model_dump(mode="json") if step is not None else None,
        "size": after.geo.n, "block": [after.geo.a, after.geo.b], "symbols": after.geo.symbols,
    }


def _no_step(s: Solved) -> str:
    if s.status == "solved":
        return "The grid is solved: no step comes next."
    wrong = wrong_message(s)
    if wrong:
        return wrong
    return "No rule of the hierarchy applies from here."


def hint(s: Solved, k: int, level: str) -> dict[str, Any]:
    """The answer of ``/api/hint``: the next step from frame ``k``'s position,
    told at ``level`` (``technique``, ``where`` or ``full``)."""
    check_frame(s, k)
    if k >= len(s.steps):
        return {"level": level, "number": None, "text": _no_step(s), "html": None}
    step = s.steps[k]
    out = {"level": level, "number": k + 1, "text": shown(hint_text(step, level), DEFAULT),
           "html": None,
           # the board the hint speaks of: the position, without the last step's highlight
           "board": grid_svg(s.before[k], size_px=BOARD_PX, givens=s.givens,
                             title="The position of the hint")}
    if level == "full":  # the step drawn on the board, written once beside it
        svg = grid_svg(s.before[k], step, size_px=BOARD_PX, givens=s.givens,
                       title=shown(step.summary(), DEFAULT))
        out["board"] = f'{svg}<p class="legend">{step_legend(step)}</p>'
        out["html"] = shown(_heading(step, k + 1, len(s.steps) if s.complete else None)
                            + step_teach(step, s.before[k], CHAIN_PX, False, f"h{k + 1}"),
                            DEFAULT, html=True)
    return out


def move(s: Solved, k: int, text: str) -> dict[str, Any]:
    """The answer of ``/api/moves``: the moves of the position that ``text``
    makes at frame ``k`` (the steps taken become moves too)."""
    moves, made = fold_move(s, k, text)
    return {"move": made, "moves": " ".join(moves), "count": len(moves)}
