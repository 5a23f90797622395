"""The work on grids, done in the worker processes: read a position, make its
moves, walk its path, grade it.  This is the only module of the web
application that reaches into the grader's engine (the rendering is in
:mod:`.views`), so that a later move of the grader's modules touches it alone.

A position is read from text only (never from a file named by a request:
:func:`parse_position`, not ``load_position``).  Moves are checked as
``explain --moves`` checks them (an empty cell, a remaining candidate) but a
wrong one is accepted: the path from there is walked until it reaches a
contradiction, which is how the page says the move was wrong.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from grader.bulk.task import Deadline, GridTimeout
from grader.core.board import Board
from grader.core.errors import GraderError
from grader.core.geometry import default_box, parse_box
from grader.core.steps import Step
from grader.explainer.core import ExplainError
from grader.explainer.document import facts, values_string
from grader.explainer.position import (
    Position,
    apply_moves,
    check_position,
    load_position,
    parse_position,
    split_moves,
)
from grader.formats import Record
from grader.strategy.engine import Engine
from grader.strategy.hierarchy import Hierarchy
from grader.web.paths import DEFAULT_PATH, PATHS

#: ExplainError messages start with one of these verdicts.
_KINDS = ("malformed", "no-solution", "multiple-solutions", "contradiction")


class BadRequest(Exception):
    """A request that cannot be answered: ``kind`` (``malformed``,
    ``no-solution``, ``bad-move``, ...) and a message for the page."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(kind, message)
        self.kind = kind
        self.message = message


@dataclass(frozen=True)
class Query:
    """One position asked about (hashable: the key of the cache)."""

    grid: str
    index: int = 1
    box: str | None = None
    input_format: str = "auto"
    moves: str = ""
    path: str = DEFAULT_PATH
    max_level: int | None = None


@dataclass
class Solved:
    """A position's path, walked: what the page shows of it.

    ``position``/``input_format``/``box``: the starting position as text the
    API reads back (the values, or the candidate string of pencil marks);
    ``start``: the board once the moves are made; ``before[i]``: the board
    before ``steps[i]``; ``status``: ``solved``, ``stuck``, ``contradiction``
    or ``partial`` (walked up to a step only); ``wrong``: the index of the
    first move that disagrees with the solution."""

    query: Query
    position: str
    input_format: str
    box: str | None
    moves: list[str]
    start: Board
    givens: frozenset[int]
    steps: list[Step] = field(default_factory=list)
    before: list[Board] = field(default_factory=list)
    final: Board | None = None
    status: str = "partial"
    contradiction: str | None = None
    conflict_cells: tuple[int, ...] = ()
    wrong: int | None = None
    grade: dict[str, Any] | None = None
    sentence: str = ""
    #: what the server drew of it, by (view, frame): kept with the path
    views: dict[tuple[str, int], Any] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return self.status != "partial"

    @property
    def size(self) -> int:
        return self.start.geo.n

    @property
    def frames(self) -> int:
        """The last frame: 0 the start, 1..n the steps, n + 1 the end (the end
        is not known yet while the path is partial)."""
        return len(self.steps) + 1 if self.complete else len(self.steps)

    def after(self, k: int) -> Board:
        """The board after ``k`` steps (the learner's position at frame ``k``)."""
        if k < len(self.before):
            return self.before[k]
        if self.final is not None:
            return self.final
        if not self.steps:
            return self.start
        b = self.before[-1].copy()
        b.apply(self.steps[-1])
        return b


def _kind(message: str) -> str:
    head = message.split(":", 1)[0].strip()
    return head if head in _KINDS else "bad-grid"


def candidate_text(board: Board) -> str:
    """The n**3-character candidate string of a board (a value: its only candidate)."""
    geo = board.geo
    out = []
    for c in range(geo.ncells):
        mask = 1 << (board.values[c] - 1) if board.values[c] else board.cands[c]
        out.append("".join(s if mask >> k & 1 else "." for k, s in enumerate(geo.symbols)))
    return "".join(out)


def _box(board: Board) -> str | None:
    """The block shape when it is not the default one of the size."""
    geo = board.geo
    return None if (geo.a, geo.b) == default_box(geo.n) else geo.box


def read_position(grid: str, index: int = 1, box: str | None = None,
                  input_format: str = "auto") -> Position:
    """The ``index``-th position of a request's text, or :class:`BadRequest`."""
    try:
        shape = parse_box(box) if box else None
        pos = parse_position(grid.strip() + "\n", "the grid", index, shape, input_format)
    except (ValueError, GraderError) as e:
        raise BadRequest(_kind(str(e)), str(e)) from None
    if isinstance(pos, Record):
        if (pos.error or "").startswith("no grid"):
            short = grid.strip()[:37] + ("..." if len(grid.strip()) > 37 else "")
            raise BadRequest("malformed", f"malformed: no grid found in {short!r}")
        raise BadRequest("malformed", f"malformed: {pos.error}")
    return pos


def startup_position(arg: str, index: int, box: str | None,
                     input_format: str) -> tuple[str, str, str | None]:
    """The grid the server opens with (a grid, or a file of grids and its
    ``index``), as (position text, input format, box); :class:`BadRequest`
    when it cannot be read."""
    try:
        pos = load_position(arg, index, parse_box(box) if box else None, input_format)
    except (ValueError, GraderError) as e:
        raise BadRequest(_kind(str(e)), str(e)) from None
    if isinstance(pos, Record):
        raise BadRequest("malformed", f"{pos.source}, line {pos.line}: malformed: {pos.error}")
    text = candidate_text(pos.board) if pos.pencil else values_string(pos.board)
    return text, "pencil" if pos.pencil else "auto", _box(pos.board)


def _first_wrong(board: Board, moves: list[str], solution: tuple[int, ...]) -> int | None:
    """The index of the first move that disagrees with the solution."""
    b = board
    for i, move in enumerate(moves):
        nxt = apply_moves(b, move, None)
        for c in range(b.geo.ncells):
            if nxt.values[c] and not b.values[c] and nxt.values[c] != solution[c]:
                return i
            if not b.values[c] and not nxt.values[c] and (
                    b.cands[c] & ~nxt.cands[c]) >> (solution[c] - 1) & 1:
                return i
        b = nxt
    return None


def position_of(q: Query) -> Solved:
    """The position of ``q`` once its moves are made, not walked yet."""
    pos = read_position(q.grid, q.index, q.box, q.input_format)
    try:
        solution = check_position(pos.board)
    except ExplainError as e:
        raise BadRequest(_kind(str(e)), str(e)) from None
    try:
        moves = split_moves(q.moves)
        board = apply_moves(pos.board, " ".join(moves), None) if moves else pos.board
    except ExplainError as e:
        raise BadRequest("bad-move", str(e).replace("--moves: ", "")) from None
    text = candidate_text(pos.board) if pos.pencil else values_string(pos.board)
    return Solved(query=q, position=text, input_format="pencil" if pos.pencil else "auto",
                  box=_box(pos.board), moves=moves, start=board, givens=pos.givens,
                  wrong=_first_wrong(pos.board, moves, solution) if moves else None)


def walk(q: Query, engine: Engine, upto: int | None = None) -> Solved:
    """The path of ``q`` (every step, or up to step ``upto``)."""
    spec = PATHS.get(q.path)
    if spec is None or spec.make is None:
        known = ", ".join(k for k, p in PATHS.items() if p.available)
        raise BadRequest("bad-path", f"no path {q.path!r} here (available: {known})")
    s = position_of(q)
    wt = spec.make(s.start, s.givens, engine, q.max_level)
    if (s.wrong is not None and _contradiction(s, s.start, 0)) or upto == 0:
        return s
    try:
        for number, before, step in wt:
            s.steps.append(step)
            s.before.append(before)
            if s.wrong is not None:
                after = before.copy()
                after.apply(step)
                if _contradiction(s, after, number):
                    return s
            if upto is not None and number >= upto:
                return s
    except Exception:  # noqa: BLE001 - rules on a position without solution: stop there
        if s.wrong is None:
            raise
    s.final = wt.final() if s.wrong is None else s.after(len(s.steps))
    s.status = "solved" if s.final.is_solved() else "stuck"
    if s.wrong is None and wt.complete:
        s.sentence = facts(wt).sentence()
    return s


def _contradiction(s: Solved, board: Board, number: int) -> bool:
    """Record the contradiction of ``board`` (after step ``number``), if any."""
    k = board.contradiction()
    if k is None:
        return False
    geo = board.geo
    s.final, s.status, s.contradiction = board, "contradiction", k.reason
    cells = list(k.cells) or (list(geo.regions[k.region]) if k.region is not None else [])
    s.conflict_cells = tuple(cells)
    steps = f"{number} {'step' if number == 1 else 'steps'}"
    s.sentence = (f"a contradiction after {steps}: {k.reason}" if number
                  else f"a contradiction at once: {k.reason}")
    return True


def check_frame(s: Solved, k: int) -> None:
    """:class:`BadRequest` unless frame ``k`` of the path exists."""
    if k > s.frames:
        n = len(s.steps)
        raise BadRequest("bad-step", f"step {k}: the path has {n} {'step' if n == 1 else 'steps'}"
                         f" (and its end, {n + 1})")


def steps_as_moves(start: Board, target: Board) -> list[str]:
    """The moves that make ``target`` from ``start`` (placements, then the
    eliminations the placements do not make)."""
    geo = start.geo
    b = start.copy()
    out = []

    def rc(c: int) -> str:
        return f"r{geo.cell_row[c] + 1}c{geo.cell_col[c] + 1}"

    for c in range(geo.ncells):
        if target.values[c] and not start.values[c]:
            out.append(f"{rc(c)}={geo.symbol(target.values[c])}")
            b.place(c, target.values[c])
    for c in range(geo.ncells):
        if not b.values[c]:
            gone = b.cands[c] & ~target.cands[c]
            out += [f"{rc(c)}!={geo.symbol(v + 1)}" for v in range(geo.n) if gone >> v & 1]
    return out


def fold_move(s: Solved, k: int, move: str) -> tuple[list[str], str]:
    """The moves of the position ``move`` makes at frame ``k``: the moves so
    far, the ``k`` steps taken (as moves) and ``move``; and ``move`` written
    as ``r1c5=9``.  :class:`BadRequest` for a move that cannot be made there."""
    check_frame(s, k)
    try:
        made = split_moves(move)
        if len(made) != 1:
            raise BadRequest("bad-move", f"one move at a time, please (got {len(made)})")
        board = s.after(min(k, len(s.steps)))
        apply_moves(board, made[0], None)
    except ExplainError as e:
        raise BadRequest("bad-move", str(e).replace("--moves: ", "")) from None
    return [*s.moves, *steps_as_moves(s.start, board), made[0]], made[0]


def grade_of(s: Solved, hierarchy: Hierarchy | None) -> dict[str, Any] | None:
    """The rating of the starting grid (level, rating, se), as ``grade`` gives
    it; None for pencil marks (grading reads values only)."""
    if s.input_format == "pencil":
        return None
    from grader.api import grade

    r = grade(s.position, hierarchy=hierarchy, box=parse_box(s.box) if s.box else None)
    return r.model_dump(include={"verdict", "level", "rating", "se", "score", "depth",
                                 "steps", "techniques"})


#: The deadline of a job when the server has no time limit: far away, but
#: armed, so that the job can still be cancelled (:meth:`Worker.cancel`).
NO_LIMIT = 1e7


class Worker:
    """What a worker process keeps: the hierarchy, one engine, the deadline.

    A job can be cancelled from another thread (:meth:`cancel`, when the
    client that asked for it left): the deadline ends it at once, as if its
    time were up, and the worker is free for the next one."""

    def __init__(self, hierarchy: Hierarchy | None, time_limit: float | None) -> None:
        self.hierarchy = hierarchy
        self.time_limit = time_limit
        self.engine = Engine(hierarchy)
        self.deadline = Deadline()  # made by the thread that runs the jobs
        self._grades: dict[tuple[str, str | None], dict[str, Any] | None] = {}
        self._lock = threading.Lock()
        self._job: int | None = None
        self._cancelled = False

    def explain(self, q: Query, upto: int | None = None) -> Solved:
        s = walk(q, self.engine, upto)
        if upto is None:
            key = (s.position, s.box)
            if key not in self._grades:
                self._grades[key] = grade_of(s, self.hierarchy)
            s.grade = self._grades[key]
        return s

    def grade(self, q: Query) -> dict[str, Any]:
        pos = read_position(q.grid, q.index, q.box, q.input_format)
        from grader.api import grade

        r = grade(values_string(pos.board), hierarchy=self.hierarchy,
                  box=(pos.board.geo.a, pos.board.geo.b))
        return r.model_dump()

    def cancel(self, job: int) -> bool:
        """Stop job number ``job`` if it is the one under way (from any
        thread); its answer is then ``("cancelled",)``.  False when it is not."""
        with self._lock:
            if self._job != job or self._cancelled:
                return False
            self._cancelled = True
            return self.deadline.interrupt()

    def answer(self, name: str, args: tuple[Any, ...], job: int | None = None) -> tuple[Any, ...]:
        """``("ok", value)``, ``("bad", kind, message)``, ``("timeout", seconds)``,
        ``("cancelled",)`` or ``("error", message)``: never raises.  ``job``:
        the number :meth:`cancel` names it by."""
        jobs: dict[str, Callable[..., Any]] = {"explain": self.explain, "grade": self.grade}
        fn = jobs[name]
        with self._lock:
            self._job, self._cancelled = job, False
        try:
            out = self.deadline.run(lambda: {"value": fn(*args)}, self.time_limit or NO_LIMIT)
            return ("ok", out["value"])
        except GridTimeout:
            self.engine = Engine(self.hierarchy)  # nothing half-done is kept
            return ("cancelled",) if self._cancelled else ("timeout", self.time_limit)
        except BadRequest as e:
            return ("bad", e.kind, e.message)
        except Exception as e:  # noqa: BLE001 - one request fails, the worker goes on
            return ("error", f"{type(e).__name__}: {e}")
        finally:
            with self._lock:
                self._job = None
