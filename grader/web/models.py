"""The JSON of the API, as pydantic models (they make its OpenAPI schema).

Every request names a position as ``explain`` reads one: ``grid`` (any
one-grid text: 81 characters, an "N T" line, a block of rows, pencil marks,
a candidate string; or a text of several grids and ``index``), ``box`` and
``input_format``, then the learner's ``moves`` (as ``explain --moves``) and
the ``path``.  Frames count from 0 (the position itself); frame ``k`` shows
step ``k``; ``after`` is the frame whose position a hint or a move starts
from (the board after ``after`` steps).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from grader.explainer.choices import DEFAULT_PATH, HINT_LEVELS, INPUT_FORMATS
from grader.web.work import Query

#: The longest grid text a request may hold (a 25x25 candidate string is 15625).
MAX_GRID = 200_000
#: The longest moves text (every step of a 25x25 grid written as moves).
MAX_MOVES = 100_000

if TYPE_CHECKING:
    InputFormat = str
    HintLevel = str
else:  # the choices declared once (grader.explainer.choices), as JSON Schema enums
    InputFormat = Literal[INPUT_FORMATS]
    HintLevel = Literal[HINT_LEVELS]


class Position(BaseModel):
    """A position: a grid and the moves made on it."""

    model_config = ConfigDict(extra="forbid")

    grid: str = Field(min_length=1, max_length=MAX_GRID,
                      description="a grid in any format explain reads, pencil marks included")
    index: int = Field(1, ge=1, le=10_000_000, description="which grid of the text (1-based)")
    box: str | None = Field(None, pattern=r"^\d{1,2}[xX*]\d{1,2}$",
                            description="block shape AxB, for rectangular blocks")
    input_format: InputFormat = "auto"
    moves: str = Field("", max_length=MAX_MOVES,
                       description="moves made, as explain --moves: r1c5=9 r3c4!=2 ...")
    path: str = Field(DEFAULT_PATH, max_length=40,
                      description="the solution path: 'patterns' (the book's rules 1-12, then the "
                                  "patterns players use) or 'book' (the book's trials)")

    def query(self) -> Query:
        return Query(self.grid, self.index, self.box, self.input_format, self.moves.strip(),
                     self.path)


class GradeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    grid: str = Field(min_length=1, max_length=MAX_GRID)
    index: int = Field(1, ge=1, le=10_000_000)
    box: str | None = Field(None, pattern=r"^\d{1,2}[xX*]\d{1,2}$")
    input_format: InputFormat = "auto"

    def query(self) -> Query:
        return Query(self.grid, self.index, self.box, self.input_format)


class StepRequest(Position):
    number: int = Field(ge=0, le=1_000_000, description="the frame: 0 the position, "
                        "k step k, total + 1 the end")


class HintRequest(Position):
    level: HintLevel = Field(description="technique, where, or full")
    after: int = Field(0, ge=0, le=1_000_000,
                       description="the hint is for the position after this many steps")


class MoveRequest(Position):
    move: str = Field(min_length=1, max_length=40, description="one move: r1c5=9 or r1c5!=9")
    after: int = Field(0, ge=0, le=1_000_000,
                       description="the move is made after this many steps of the path")


class Wrong(BaseModel):
    index: int = Field(description="which of the moves (0-based)")
    move: str
    message: str | None


class StepItem(BaseModel):
    number: int
    name: str
    level: int
    depth: int
    trial: bool
    common_name: str | None = Field(None, description="the name players give the step's "
                                                      "technique (as explain's JSON)")
    se: float | None = Field(None, description="a pattern's value on Sudoku Explainer's "
                                               "scale (the pattern path), else null")
    summary: str
    log: str = Field(default="", description="the step's line of the step log: number, SE "
                                             "value, level, what and where (compact notation)")


class ExplainAnswer(BaseModel):
    """The path from a position: its steps, how it ends, the grid's rating."""

    position: str = Field(description="the starting grid as text the API reads back "
                                      "(values, or the candidate string of pencil marks)")
    input_format: str
    box: str | None
    size: int
    block: list[int] = Field(description="[rows, columns] of a block")
    symbols: str
    path: str
    moves: list[str] = Field(description="the moves, each written r1c5=9 or r1c5!=9")
    wrong: Wrong | None = Field(description="the first wrong move, once the path shows it")
    status: Literal["solved", "stuck", "contradiction"]
    contradiction: str | None
    sentence: str
    grade: dict[str, Any] | None = Field(
        description="the grid's rating as grade gives it (verdict, level, rating, se, ...); "
                    "null for pencil marks")
    total: int = Field(description="the number of steps")
    end: int = Field(description="the frame of the end (total + 1)")
    steps: list[StepItem]


class FrameAnswer(BaseModel):
    """One frame: the board drawn (SVG), the reasoning (HTML), the position there."""

    number: int
    kind: Literal["start", "step", "end"]
    total: int | None = Field(description="the number of steps, null while not all are known")
    title: str
    board: str = Field(description="the board as an SVG drawing, the step highlighted")
    text: str = Field(description="the reasoning, as HTML (every text escaped)")
    values: str = Field(description="the values after this frame's steps, '.' for empty")
    candidates: list[str] = Field(description="per cell: its value or its candidates")
    step: dict[str, Any] | None = Field(description="the step as explain --step N -f json "
                                                    "gives it")
    size: int = Field(default=9, description="the grid's size n (n x n cells)")
    block: list[int] = Field(default=[3, 3], description="a block's rows and columns")
    symbols: str = Field(default="123456789", description="the values, in order")


class HintAnswer(BaseModel):
    level: HintLevel
    number: int | None = Field(description="the step the hint is about (null: none comes)")
    text: str
    html: str | None = Field(description="at level full: the step explained")
    board: str | None = Field(default=None, description="the board the hint is about: the "
                                                        "position (its pattern highlighted at "
                                                        "level full), with its legend")


class MoveAnswer(BaseModel):
    move: str = Field(description="the move, written r1c5=9 or r1c5!=9")
    moves: str = Field(description="the moves of the new position (the steps taken "
                                   "before the move are moves too)")
    count: int


class ErrorAnswer(BaseModel):
    """Every error: a kind (malformed, no-solution, bad-move, timeout, too-large,
    busy, ...) and a message for the page."""

    error: str
    detail: str


class PathInfo(BaseModel):
    name: str
    label: str
    description: str
    available: bool
