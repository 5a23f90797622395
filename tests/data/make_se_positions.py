"""Make ``se-positions.json``: positions for the tests of :mod:`grader.strategy.serate`.

    python tests/data/make_se_positions.py SHARED_PUZZLES_DIR

* ``chains``: grids of ``puzzles/se-rated-9758.txt`` (rated 6.6 and up, every
  7th line), at the first position of the walk where the family "chains and
  cycles" fires: static forcing chains and cycles, multiple forcing chains
  and dynamic forcing chains of levels 0 and 1 all have hints there.
* ``nested``: positions of the full walk of the forum's hardest grids
  (``hodoku-py_HardestDatabase110626.txt`` in SHARED_PUZZLES_DIR, grids with
  an ER) where the chain step's first level with a hint is 1, 2, 3 and 4 (two
  each), with that step (C accelerator) and pivot cells (the cells of its
  eliminations) on which the tests compare C and Python searches.
* ``late``: the last position of the full walk of the first of those grids
  where the chains rate a position (late in the walk, so that levels 4 and 5
  searched from two pivot cells, its first two bivalue cells, take a second
  in Python).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

from grader.core.board import Board  # noqa: E402
from grader.formats import parse_grid_token  # noqa: E402
from grader.strategy.engine import Engine  # noqa: E402
from grader.strategy.expert import walker  # noqa: E402
from grader.strategy.expert.families import first_family  # noqa: E402
from grader.strategy.serate import rate  # noqa: E402


def chain_positions(count: int = 10) -> list[dict]:
    rater = walker.Rater(Engine(record=False))
    out: list[dict] = []
    lines = (ROOT / "puzzles" / "se-rated-9758.txt").read_text().splitlines()
    for i, line in enumerate(lines):
        _, puzzle, rating = line.split()
        if float(rating) < 6.6 or i % 7:
            continue
        grid = parse_grid_token(puzzle)
        board = Board.from_values(grid.geo, grid.values)
        rater.settle(board)
        while not board.is_solved():
            found = first_family(board, last=walker.CHAIN_FAMILIES)
            if found is None:
                break
            name, hints = found
            if name == "chains and cycles":
                out.append({"puzzle": puzzle, "values": list(board.values),
                            "cands": list(board.cands)})
                break
            walker._apply(board, hints)
            rater.settle(board)
        if len(out) >= count:
            return out
    return out


def nested_positions(shared: Path, per_level: int = 2) -> list[dict]:
    path = shared / "hodoku-py_HardestDatabase110626.txt"
    rows = [line.split(",") for line in path.read_text().splitlines()[2:]]
    found: dict[int, list[dict]] = {level: [] for level in (1, 2, 3, 4)}
    original = walker.chain_step

    def spy(values: list[int], cands: list[int], first: int, last: int,
            kernel: str | None = None) -> rate.ChainStep | None:
        step = original(values, cands, first, last, kernel)
        if step is not None and len(found.get(step.level, [0] * per_level)) < per_level:
            cells = sorted({c for c, _ in step.removable})[:2]
            found[step.level].append({
                "values": list(values), "cands": list(cands), "level": step.level,
                "tenths": step.tenths, "complexity": step.complexity,
                "removable": [list(x) for x in step.removable], "pivots": cells})
        return step

    walker.chain_step = spy  # type: ignore[assignment]
    try:
        rater = walker.Rater(Engine(record=False), se="full")
        for row in rows:
            if not row[5]:
                continue
            grid = parse_grid_token(row[0])
            rater.walk(Board.from_values(grid.geo, grid.values))
            if all(len(v) >= per_level for v in found.values()):
                break
    finally:
        walker.chain_step = original  # type: ignore[assignment]
    return [x for level in sorted(found) for x in found[level]]


def late_position(shared: Path) -> dict:
    path = shared / "hodoku-py_HardestDatabase110626.txt"
    row = next(line.split(",") for line in path.read_text().splitlines()[2:]
               if line.split(",")[5])
    seen: list[tuple[list[int], list[int]]] = []
    original = walker.chain_step

    def spy(values: list[int], cands: list[int], first: int, last: int,
            kernel: str | None = None) -> rate.ChainStep | None:
        seen.append((list(values), list(cands)))
        return original(values, cands, first, last, kernel)

    walker.chain_step = spy  # type: ignore[assignment]
    try:
        grid = parse_grid_token(row[0])
        walker.Rater(Engine(record=False), se="full").walk(Board.from_values(grid.geo,
                                                                              grid.values))
    finally:
        walker.chain_step = original  # type: ignore[assignment]
    values, cands = seen[-1]
    pivots = [c for c in range(81) if bin(cands[c]).count("1") == 2][:2]
    return {"values": values, "cands": cands, "pivots": pivots, "levels": [4, 5]}


def main() -> None:
    shared = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "puzzles"
    data = {"chains": chain_positions(), "nested": nested_positions(shared),
            "late": late_position(shared)}
    (HERE / "se-positions.json").write_text(json.dumps(data, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
