"""Grade the stored files again: ``python tests/data/ratings/regrade.py NAME...``.

Rewrites ``tests/data/ratings/NAME.jsonl`` with the current grader, keeping the
header and the grids' order, and says how many rows changed and which fields
(issue 37 changed ``se`` and the expert scores; the level, rating and depth
must not change: a change there stops the script)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent.parent))

from grader.formats import parse_grid_token  # noqa: E402
from grader.strategy.grading import Grader  # noqa: E402

FIELDS = ("level", "rating", "depth", "score", "se", "se_pattern")
KEPT = ("level", "rating", "depth")


def main() -> None:
    grader = Grader()
    for name in sys.argv[1:]:
        path = HERE / f"{name}.jsonl"
        lines = path.read_text(encoding="utf-8").splitlines()
        head, rows = lines[0], [json.loads(line) for line in lines[1:] if line.strip()]
        changed: Counter[str] = Counter()
        out = [head]
        for row in rows:
            r = grader.grade_grid(parse_grid_token(str(row[0])))
            new = [row[0], *(getattr(r, f) for f in FIELDS)]
            for i, f in enumerate(FIELDS, start=1):
                if new[i] != row[i]:
                    if f in KEPT:
                        raise SystemExit(f"{name}: {row[0]} {f} {row[i]} -> {new[i]}")
                    changed[f] += 1
            out.append(json.dumps(new))
        path.write_text("\n".join(out) + "\n", encoding="utf-8")
        print(f"{name}: {len(rows)} rows, changed: {dict(changed)}")


if __name__ == "__main__":
    main()
