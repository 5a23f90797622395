"""The explainer's work without a server: positions read from text only, moves
folded, wrong moves refuted by the contradiction they lead to, frames and
hints, the deadline, and the ``serve`` command's messages."""

from __future__ import annotations

import pytest
from conftest import PUZZLES
from typer.testing import CliRunner
from web_helpers import DEPTH1, DEPTH2, EASY, candidate_of

from grader.cli.main import build_app
from grader.core.board import Board
from grader.explainer.position import apply_moves
from grader.web import views
from grader.web.paths import PATHS
from grader.web.work import (
    BadRequest,
    Query,
    Worker,
    candidate_text,
    fold_move,
    startup_position,
    walk,
)


@pytest.fixture(scope="module")
def worker() -> Worker:
    return Worker(None, 30.0)


def test_a_path_its_frames_and_hints(worker: Worker) -> None:
    s = worker.explain(Query(DEPTH1, path="book"))
    assert s.status == "solved" and len(s.steps) == 57 and s.frames == 58
    assert s.grade is not None and s.grade["level"] == 13 and s.grade["se"] is not None
    first = views.frame(s, 0)
    assert first["kind"] == "start" and first["values"] == DEPTH1
    trial = next(k for k, st in enumerate(s.steps, start=1) if st.branches)
    f = views.frame(s, trial)
    assert f["kind"] == "step" and f["step"]["branches"] and "<details" in f["text"]
    assert views.frame(s, 58)["kind"] == "end" and "Solution" in views.frame(s, 58)["text"]
    with pytest.raises(BadRequest, match="the path has 57 steps"):
        views.frame(s, 59)
    h = views.hint(s, trial - 1, "technique")
    assert h["number"] == trial and h["text"].startswith("Try ")
    assert views.hint(s, 57, "where")["number"] is None
    assert "solved" in views.hint(s, 57, "where")["text"]
    summary = views.summary(s)
    assert summary["total"] == 57 and summary["steps"][trial - 1]["trial"]


def test_steps_taken_then_a_move_are_the_moves_of_the_new_position(worker: Worker) -> None:
    s = worker.explain(Query(DEPTH1))
    moves, made = fold_move(s, 9, "r9c9=1" if s.after(9).has(80, 1) else "r9c9!=9")
    assert moves[-1] == made
    board = apply_moves(s.start, " ".join(moves[:-1]), None)
    assert board.values == s.after(9).values and board.cands == s.after(9).cands
    with pytest.raises(BadRequest, match="already holds"):
        fold_move(s, 0, "r1c6=4")
    with pytest.raises(BadRequest, match="one move at a time"):
        fold_move(s, 0, "r1c1=1 r1c2=2")


@pytest.mark.parametrize("kind", ["place", "eliminate"])
def test_a_wrong_move_leads_to_a_contradiction(worker: Worker, kind: str) -> None:
    right = candidate_of(EASY, (1, 3), wrong=False)
    wrong = candidate_of(EASY, (1, 3), wrong=True)
    move = f"r1c3={wrong}" if kind == "place" else f"r1c3!={right}"
    s = worker.explain(Query(EASY, moves=move))
    assert s.wrong == 0 and s.status == "contradiction" and s.contradiction
    assert s.conflict_cells and s.frames == len(s.steps) + 1
    message = views.wrong_message(s)
    assert message is not None and f"{move} was wrong" in message
    end = views.frame(s, s.frames)
    assert "Contradiction" in end["text"] and views.CONFLICT_FILL in end["board"]
    assert views.hint(s, s.frames, "technique")["text"] == message
    fine = worker.explain(Query(EASY, moves=f"r1c3={right}"))
    assert fine.wrong is None and fine.status == "solved"


def test_positions_are_read_from_text_only(worker: Worker) -> None:
    for bad, kind in [("zz", "malformed"), (str(PUZZLES / "book-figures.txt"), "malformed"),
                      ("1" + "." * 80, "multiple-solutions"), ("11" + "." * 79, "contradiction")]:
        with pytest.raises(BadRequest) as e:
            walk(Query(bad), worker.engine)
        assert e.value.kind == kind, e.value.message
    with pytest.raises(BadRequest, match="no path 'x'"):
        walk(Query(EASY, path="x"), worker.engine)
    assert PATHS["patterns"].available and PATHS["book"].available


def test_pencil_marks_come_back_as_a_candidate_string(worker: Worker) -> None:
    board = Board.from_string(DEPTH1)
    board.eliminate(0, 1)
    text = candidate_text(board)
    assert len(text) == 729
    s = worker.explain(Query(text))
    assert s.input_format == "pencil" and s.position == text and s.grade is None
    assert s.start.cands[0] == board.cands[0] and s.status == "solved"


def test_the_grid_of_a_file_and_its_index() -> None:
    assert startup_position(str(PUZZLES / "book-figures.txt"), 10, None, "auto") == (
        DEPTH1, "auto", None)
    with pytest.raises(BadRequest, match="no grid number 999"):
        startup_position(str(PUZZLES / "book-figures.txt"), 999, None, "auto")


def test_partial_walks_and_the_deadline() -> None:
    quick = Worker(None, 0.5)  # the whole explanation takes about 1 s, its first step ms
    assert quick.answer("explain", (Query(DEPTH2), None)) == ("timeout", 0.5)
    part = quick.answer("explain", (Query(DEPTH2), 1))  # step 1 is a single, step 2 nests
    assert part[0] == "ok" and part[1].status == "partial" and len(part[1].steps) == 1
    assert views.frame(part[1], 1)["total"] is None
    assert quick.answer("explain", (Query("zz"), None))[0] == "bad"


runner = CliRunner()


def test_serve_says_which_extra_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    import grader.web

    monkeypatch.setattr(grader.web, "missing_extra", lambda: "fastapi")
    r = runner.invoke(build_app(), ["serve"])
    assert r.exit_code == 2
    assert "pip install 'sudoku-grader[web]'" in r.output and "fastapi" in r.output


def test_serve_help_and_a_grid_it_cannot_open() -> None:
    r = runner.invoke(build_app(), ["serve", "--help"])
    assert r.exit_code == 0 and "--time-limit" in r.output and "--index" in r.output
    r = runner.invoke(build_app(), ["serve", "nothing/here.txt"])
    assert r.exit_code == 2 and "no such file" in r.output
