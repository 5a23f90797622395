"""One ``explain`` request as a library call, what the command line hands over.

:class:`ExplainOptions` holds the request, typed; :func:`load` reads the
position (a grid or pencil marks, then ``--moves``); :func:`walk` explains it
step by step; :func:`document_text`, :func:`step_json` and :func:`hint_json`
are the texts the command writes for ``--format json|html|markdown``,
``--step N`` and ``--hint``.

>>> from grader.explainer.request import ExplainOptions, explain_text
>>> grid = "64.5.98......3..7.3.8.1...4.....7...4..965..7...3.....8...9.4.3.2..5......36.4.92"
>>> explain_text(ExplainOptions(grid, fmt="json"))[:1]
'{'
"""

from __future__ import annotations

import json
from dataclasses import KW_ONLY, dataclass
from pathlib import Path

from grader.core.board import Board
from grader.explainer.choices import (
    DEFAULT_GRIDS,
    DEFAULT_NOTATION,
    DEFAULT_PATH,
    EXPLAIN_FORMATS,
)
from grader.explainer.core import ExplainError, UsageError, Walkthrough, walkthrough
from grader.explainer.notation import shown
from grader.explainer.position import Position, apply_moves, check_position, load_position
from grader.formats import Record
from grader.strategy.engine import Engine
from grader.strategy.hierarchy import Hierarchy

#: what ``--format`` accepts (declared in :mod:`grader.explainer.choices`)
FORMATS = EXPLAIN_FORMATS


@dataclass(frozen=True)
class ExplainOptions:
    """Everything ``explain`` is asked, typed (the command's options, parsed);
    every field but ``grid`` is given by keyword."""

    #: a grid, a file of grids, ``-``, or pencil marks
    grid: str
    _: KW_ONLY
    index: int = 1
    box: tuple[int, int] | None = None
    input_format: str = "auto"
    #: moves already made: ``r1c5=9 r3c4!=2``
    moves: str | None = None
    hierarchy: Hierarchy | None = None
    max_level: int | None = None
    #: ``short`` or ``teach`` (None: teach for --step and --hint full, else short)
    detail: str | None = None
    step_mode: bool = False
    step_number: int | None = None
    #: ``technique``, ``where`` (``vague``) or ``full``
    hint: str | None = None
    fmt: str = "text"
    grid_drawing: bool = True
    full_trace: bool = False
    output: Path | None = None
    #: ``patterns`` or ``book`` (see :mod:`grader.explainer.patterns`)
    path: str = DEFAULT_PATH
    #: ``book`` ((2, 7) != 3) or ``compact`` (r2c7<>3), see :mod:`grader.explainer.notation`
    notation: str = DEFAULT_NOTATION
    #: the steps drawn in full after the step log (text): ``hardest``,
    #: ``expert``, ``all`` or ``none``; ``log``: the step log alone
    grids: str = DEFAULT_GRIDS
    log: bool = False

    @property
    def depth(self) -> str:
        """The detail of the explanation: ``--detail``, else what the mode needs."""
        if self.detail is not None:
            return self.detail
        teach = self.step_mode or self.step_number or self.hint == "full"
        return "teach" if teach else "short"


def load(opts: ExplainOptions) -> tuple[Position, Board]:
    """The position to explain and the board once ``--moves`` are made.

    Raises :class:`~grader.formats.InputError` (an input that cannot be read),
    :class:`UsageError` (``--moves`` that cannot be read) or
    :class:`ExplainError` (a position that cannot be explained, named)."""
    pos = load_position(opts.grid, opts.index, opts.box, opts.input_format)
    if isinstance(pos, Record):
        raise ExplainError(f"{pos.source}, line {pos.line}: malformed: {pos.error}")
    try:
        solution = check_position(pos.board)
        board = apply_moves(pos.board, opts.moves, solution) if opts.moves else pos.board
    except UsageError:
        raise
    except ExplainError as e:
        raise ExplainError(f"{pos.where}: {e}") from e
    return pos, board


def walk(opts: ExplainOptions, pos: Position, board: Board,
         engine: Engine | None = None) -> Walkthrough:
    """Every step from ``board`` along the options' path (a rule plugin's
    failure surfaces as :class:`~grader.core.rule.RuleError`)."""
    engine = engine if engine is not None else Engine(opts.hierarchy)
    return walkthrough(board, engine, givens=pos.givens, max_level=opts.max_level,
                       path=opts.path)


def document_text(opts: ExplainOptions, pos: Position, wt: Walkthrough) -> str:
    """The whole explanation as ``--format json``, ``html`` or ``markdown`` write it."""
    if opts.fmt == "json":
        from grader.explainer.document import document

        doc = document(wt, pencil=pos.pencil, full_trace=opts.full_trace, notation=opts.notation)
        return doc.model_dump_json(by_alias=True, indent=2) + "\n"
    if opts.fmt == "html":
        from grader.explainer.html import render_html

        return render_html(wt, full_trace=opts.full_trace, notation=opts.notation)
    if opts.fmt == "markdown":
        from grader.explainer.markdown import render_markdown

        return render_markdown(wt, opts.depth, opts.grid_drawing, full_trace=opts.full_trace,
                               notation=opts.notation)
    raise ValueError(f"no document for --format {opts.fmt!r} (choose from json, html, "
                     f"markdown)")


def step_count_error(wt: Walkthrough, number: int) -> str | None:
    """Why ``--step N`` cannot be shown (None when step N exists)."""
    if wt.step(number - 1) is not None:
        return None
    return (f"--step {number}: the solution has {len(wt.steps)} "
            f"step{'s' if len(wt.steps) != 1 else ''}")


def step_json(wt: Walkthrough, number: int, full_trace: bool = False,
              notation: str | None = None) -> str:
    """Step ``number`` (1-based, which exists) as ``--step N --format json`` writes it."""
    from grader.explainer.model import step_model

    step = wt.step(number - 1)
    assert step is not None
    text = step_model(step, number, full_trace).model_dump_json(by_alias=True, indent=2)
    return shown(text, notation) + "\n"


def no_step_message(wt: Walkthrough) -> str:
    """What ``--hint`` says when no step comes next."""
    return ("The grid is already solved." if wt.start.is_solved()
            else "No rule of the hierarchy applies from here.")


def hint_json(wt: Walkthrough, level: str, full_trace: bool = False,
              notation: str | None = None) -> str:
    """``--hint LEVEL --format json``: the level and the hint (and the step, at
    ``full``); ``{"hint": null, ...}`` when no step comes next."""
    from grader.explainer.hints import hint_level, technique_hint, where_hint
    from grader.explainer.model import step_model

    step = wt.step(0)
    if step is None:
        return '{"hint": null, "message": "' + no_step_message(wt) + '"}\n'
    level = hint_level(level)
    pointer = technique_hint(step) if level == "technique" else where_hint(step)
    data: dict[str, object] = {"level": level, "hint": pointer}
    if level == "full":
        data["step"] = step_model(step, 1, full_trace).model_dump(mode="json")
    return shown(json.dumps(data, indent=2, ensure_ascii=False), notation) + "\n"


def explain_text(opts: ExplainOptions) -> str:
    """The whole request as one text, for the formats that need no terminal
    (json, html, markdown; with ``--hint`` or ``--step N``: json only)."""
    pos, board = load(opts)
    wt = walk(opts, pos, board)
    if (opts.step_number is not None or opts.hint is not None) and opts.fmt != "json":
        raise UsageError("explain_text: --step N and --hint give text only as json "
                         "(the command draws the others on the terminal)")
    if opts.step_number is not None:
        why = step_count_error(wt, opts.step_number)
        if why is not None:
            raise UsageError(why)
        return step_json(wt, opts.step_number, opts.full_trace, opts.notation)
    if opts.hint is not None:
        return hint_json(wt, opts.hint, opts.full_trace, opts.notation)
    return document_text(opts, pos, wt)


__all__ = [
    "FORMATS", "ExplainOptions", "document_text", "explain_text", "hint_json", "load",
    "no_step_message", "step_count_error", "step_json", "walk",
]
