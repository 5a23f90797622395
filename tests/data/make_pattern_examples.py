"""Write tests/data/pattern-examples.json: one documented position per name
of the pattern path (``explain --path patterns``), the first met on the
pattern paths of puzzles/bench-mixed.txt (then puzzles/se-rated-9758.txt for
names bench-mixed lacks), with the step the pattern path takes there.

Each example: the grid's source and index, the step's number on its path,
the position (values, and each cell's candidates as a string of digits) and
what the step must be (name, family, SE value, summary line).  A position
is kept only where the pattern path started from it takes that very step
first.  Run from the repository root:

    python tests/data/make_pattern_examples.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from grader.core.board import Board  # noqa: E402
from grader.explainer.patterns import pattern_steps  # noqa: E402
from grader.formats import parse_grid_token  # noqa: E402
from grader.strategy.engine import Engine  # noqa: E402

OUT = ROOT / "tests" / "data" / "pattern-examples.json"


def position(board: Board) -> dict[str, object]:
    return {"values": "".join(str(v) for v in board.values),
            "candidates": [("".join(str(d) for d in range(1, 10) if m >> (d - 1) & 1))
                           for m in board.cands]}


def board_of(pos: dict) -> Board:
    from grader.core.geometry import Geometry

    geo = Geometry(3, 3)
    values = [int(ch) for ch in pos["values"]]
    cands = [sum(1 << (int(d) - 1) for d in s) for s in pos["candidates"]]
    return Board.from_candidates(geo, cands, values)


def solution(token: str) -> str:
    from grader.strategy.grading import Grader

    return str(Grader().grade_grid(parse_grid_token(token)).solution)


def first_step(board: Board):
    return next(pattern_steps(board.copy(), Engine()), None)


def wanted(index: int) -> bool:
    """The SE bank is sorted by rating: its first 400 grids (2.5-2.8), then
    every 200th grid up to 6.0, one per rating band (BUG+1 first appears
    at 5.6)."""
    return index <= 400 or (index % 200 == 15 and index < 5000)


def main() -> None:
    from grader.explainer.core import walkthrough

    found: dict[str, dict] = {}
    for name in ("bench-mixed.txt", "se-rated-9758.txt"):
        lines = [next(t for t in ln.split() if len(t) == 81)
                 for ln in (ROOT / "puzzles" / name).read_text().splitlines()
                 if ln.strip() and not ln.startswith("#")]
        for index, token in enumerate(lines, start=1):
            if name != "bench-mixed.txt" and not wanted(index):
                continue
            wt = walkthrough(parse_grid_token(token).board(), path="patterns")
            try:
                for n, before, step in wt:
                    if step.se is None or step.name in found:
                        continue
                    again = first_step(before)
                    if again is None or again.summary() != step.summary():
                        continue
                    found[step.name] = {
                        "source": f"puzzles/{name}", "index": index, "step": n,
                        "grid": token, "solution": solution(token),
                        "position": position(before), "name": step.name,
                        "family": step.family, "se": step.se, "summary": step.summary()}
                    print(step.name, name, index, n, flush=True)
            except LookupError as e:  # a name no family presents yet
                print(index, e, flush=True)
    OUT.write_text(json.dumps(dict(sorted(found.items())), indent=1) + "\n")


if __name__ == "__main__":
    main()
