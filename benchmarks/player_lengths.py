"""Measure what a player reads of hard grids (issue 42): on grids of SE >= 8.5
from puzzles/se-rated-9758.txt (id, grid, ER per line), the default text's
line count, the HTML page's size and the step log's longest line.

    python benchmarks/player_lengths.py [COUNT]      # COUNT grids spread over the list (9)
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from typer.testing import CliRunner  # noqa: E402

from grader.cli.main import build_app  # noqa: E402


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    rows = [ln.split() for ln in (ROOT / "puzzles" / "se-rated-9758.txt").read_text().splitlines()
            if ln.strip()]
    hard = [r[1] for r in rows if len(r) >= 3 and float(r[2]) >= 8.5]
    picked = hard[:: max(1, len(hard) // count)][:count]
    app, runner = build_app(), CliRunner()
    lines, sizes, widest = [], [], 0
    for grid in picked:
        text = runner.invoke(app, ["explain", grid, "--color", "never"]).output
        page = runner.invoke(app, ["explain", grid, "-f", "html"]).output
        log = runner.invoke(app, ["explain", grid, "--log"]).output.splitlines()
        lines.append(len(text.splitlines()))
        sizes.append(len(page.encode()) / 1024)
        widest = max(widest, *(len(ln) for ln in log))
        print(f"{grid}  text {lines[-1]} lines  html {sizes[-1]:.0f} KB", flush=True)
    print(f"{len(picked)} grids of SE >= 8.5: default text median {statistics.median(lines):.0f} "
          f"lines (max {max(lines)}), HTML median {statistics.median(sizes):.0f} KB "
          f"(max {max(sizes):.0f} KB), step log's longest line {widest} characters")


if __name__ == "__main__":
    main()
