"""The JSON API, under ``/api``: grade, explain, step, hint, moves, paths.

Each answer is computed by the worker pool (or from the paths the server
keeps); errors are :class:`~grader.web.models.ErrorAnswer` with a 4xx status
for bad input, 504 for a request past the time limit, 503 when too many wait
or one waited past the queue time.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from grader.web.models import (
    ErrorAnswer,
    ExplainAnswer,
    FrameAnswer,
    GradeRequest,
    HintAnswer,
    HintRequest,
    MoveAnswer,
    MoveRequest,
    PathInfo,
    Position,
    StepRequest,
)
from grader.web.paths import PATHS
from grader.web.service import Service

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorAnswer, "description": "a grid, a move or a step that cannot be used"},
    413: {"model": ErrorAnswer, "description": "the request is too large"},
    422: {"model": ErrorAnswer, "description": "the request is not what the API reads"},
    503: {"model": ErrorAnswer, "description": "too many requests wait already (busy), or "
                                               "this one waited past --queue-time "
                                               "(queue-timeout)"},
    504: {"model": ErrorAnswer, "description": "the work took longer than the time limit"},
}

router = APIRouter(prefix="/api", responses=ERRORS)


def _service(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


@router.post("/grade", summary="Rate a grid, as grade does")
async def grade(body: GradeRequest, request: Request) -> dict[str, Any]:
    """The grid's ``GradeResult`` (verdict, level, rating, score, se, ...), the
    record ``grade -f jsonl`` writes."""
    return await _service(request).grade(body.query())


@router.post("/explain", response_model=ExplainAnswer,
             summary="The solution path from a position")
async def explain(body: Position, request: Request) -> dict[str, Any]:
    """Every step from the position (the grid once ``moves`` are made), how the
    path ends (solved, stuck, or a contradiction a wrong move led to), and the
    grid's rating."""
    return await _service(request).explain(body.query())


@router.post("/step", response_model=FrameAnswer, summary="One frame of the path, drawn")
async def step(body: StepRequest, request: Request) -> dict[str, Any]:
    """Frame ``number``: 0 the position, k step k (drawn on the board before it,
    with its reasoning), total + 1 the end."""
    return await _service(request).step(body.query(), body.number)


@router.post("/hint", response_model=HintAnswer, summary="A hint for the next step")
async def hint(body: HintRequest, request: Request) -> dict[str, Any]:
    """The next step from the position after ``after`` steps, told at ``level``:
    technique, where (the region or cells to look at), or full."""
    return await _service(request).hint(body.query(), body.after, body.level)


@router.post("/moves", response_model=MoveAnswer, summary="Make a move")
async def moves(body: MoveRequest, request: Request) -> dict[str, Any]:
    """Check ``move`` on the position after ``after`` steps (an empty cell, a
    candidate still there) and give the moves of the position it makes.  A
    wrong move is accepted: the path from there shows the contradiction."""
    return await _service(request).move(body.query(), body.after, body.move)


@router.get("/paths", response_model=list[PathInfo], summary="The solution paths")
async def paths() -> list[dict[str, Any]]:
    """The paths a page can follow (``path`` of the requests)."""
    return [{"name": k, "label": p.label, "description": p.description,
             "available": p.available} for k, p in PATHS.items()]


@router.get("/health", summary="Whether the server answers")
async def health(request: Request) -> dict[str, Any]:
    """A trivial answer: the server is up, its workers, how many work, how many
    requests wait for one, and how many jobs were cancelled in their worker
    (their client left)."""
    pool = _service(request).pool
    return {"ok": True, "workers": pool.size, "busy": pool.busy, "waiting": pool.waiting,
            "cancelled": pool.cancelled}
