"""Make ``serate-pins.json``: grids and positions whose SE values serate gave
(issue 37), for tests that need no Java.

    python tests/data/make_serate_pins.py [CACHE] [HELD_OUT]

Reads serate's answers cached by ``benchmarks/serate_diff.py`` (by default
``benchmarks/data/serate-cache.jsonl``), leaving out the grids of HELD_OUT
(a file of grids kept back for measuring, never tuned on).  Keeps the grids
whose ``se``, ``ep`` and ``ed`` are serate's ER, EP and ED, and of those
two per hardest technique (serate's short name without its digits) and ER
value (the family and its length increment):

* ``grids``: the grid and serate's ER, EP, ED and technique;
* ``positions``: for each kept grid whose hardest move is one of Sudoku
  Explainer's chaining producers (forcing chains and cycles, Nishio, static
  multiple chains), the position before that move, the producer, and
  serate's ER, which its easiest hint there must rate.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

from grader.core.board import Board  # noqa: E402
from grader.formats import parse_grid_token  # noqa: E402
from grader.strategy.expert import walker  # noqa: E402
from grader.strategy.grading import Grader  # noqa: E402
from grader.strategy.serate.rate import easy_run  # noqa: E402

#: the walk's hint names of the chaining producers
PRODUCERS = {"forcing chain": "cycles", "Y-cycle": "cycles", "Nishio": "nishio",
             "cell forcing chains": "multiple", "region forcing chains": "multiple"}


def hardest_position(grader: Grader, grid: str) -> tuple[str, list[int], list[int]] | None:
    """(the walk's hint name, values, candidates) before the grid's hardest move."""
    g = parse_grid_token(grid)
    _, _, solution = grader.verdict(g)
    assert solution is not None
    easy = easy_run(g.values, None)
    if easy.values is None or easy.cands is None:
        return None
    rater = walker.Rater(grader.engine)
    work = Board(g.geo, list(easy.values), list(easy.cands), tuple(solution))
    rater.settle(work)
    best: tuple[int, str, list[int], list[int]] | None = None
    rating = 0
    while not work.is_solved():
        move = rater.next_move(work, rating)
        if move is None or not move.hints:
            break
        if best is None or move.rating > best[0]:
            best = (move.rating, move.family, list(work.values), list(work.cands))
        rating = max(rating, move.rating)
        walker._apply(work, list(move.hints))
        rater.settle(work)
    return None if best is None else (best[1], best[2], best[3])


def main() -> None:
    cache = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "benchmarks/data/serate-cache.jsonl"
    held: set[str] = set()
    if len(sys.argv) > 2:
        for line in Path(sys.argv[2]).read_text().splitlines():
            m = re.search(r"[0-9.]{81}", line)
            if m:
                held.add(m.group(0).replace(".", "0"))
    grader = Grader()
    groups: dict[tuple[str, float], list[dict]] = defaultdict(list)
    for line in cache.read_text().splitlines():
        s = json.loads(line)
        if s["grid"] in held:
            continue
        key = (re.sub(r"[0-9]+$", "", s["name"]), s["er"])
        if len(groups[key]) >= 2:
            continue
        r = grader.grade_grid(parse_grid_token(s["grid"]))
        if (r.se, r.ep, r.ed) != (s["er"], s["ep"], s["ed"]):
            continue
        groups[key].append({"grid": s["grid"], "er": s["er"], "ep": s["ep"], "ed": s["ed"],
                            "serate": s["name"]})
    grids = [g for key in sorted(groups) for g in groups[key]]
    positions = []
    for g in grids:
        got = hardest_position(grader, g["grid"])
        if got is not None and got[0] in PRODUCERS:
            positions.append({"grid": g["grid"], "producer": PRODUCERS[got[0]], "er": g["er"],
                              "values": got[1], "cands": got[2]})
    out = HERE / "serate-pins.json"
    out.write_text(json.dumps({"about": __doc__.splitlines()[0], "grids": grids,
                               "positions": positions}, indent=0) + "\n")
    print(f"{out}: {len(grids)} grids, {len(positions)} positions")


if __name__ == "__main__":
    main()
