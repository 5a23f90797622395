"""Make the screenshots of docs/explain.md: one step of the pattern path each
(a skyscraper, a Y-cycle, a forcing chain, a nested chain), drawn as
``explain -f html`` draws it, in the system's Chromium.

    python docs/img/pattern_screenshots.py

The positions are the documented examples of tests/data/pattern-examples.json;
each page holds the step's heading, summary, reasoning (a forcing chain's
branches unfolded, nested ones too) and its drawing with the legend.
"""

from __future__ import annotations

import json
import sys
import tempfile
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402
from web_helpers import CHROMIUM_ARGS, chromium  # noqa: E402

from grader.core.board import Board  # noqa: E402
from grader.core.geometry import Geometry  # noqa: E402
from grader.explainer import html  # noqa: E402
from grader.explainer.patterns import pattern_steps  # noqa: E402
from grader.explainer.svg import grid_svg  # noqa: E402
from grader.strategy.engine import Engine  # noqa: E402

OUT = Path(__file__).resolve().parent
SHOTS = {"skyscraper": "pattern-skyscraper.png", "Y-cycle": "pattern-y-cycle.png",
         "forcing chain": "pattern-forcing-chain.png",
         "Dynamic Forcing Chains (+ Forcing Chains) (not searched)": "pattern-nested-chain.png"}


def board_of(pos: dict) -> Board:
    values = [int(ch) for ch in pos["values"]]
    cands = [sum(1 << (int(d) - 1) for d in s) for s in pos["candidates"]]
    return Board.from_candidates(Geometry(3, 3), cands, values)


def page(board: Board, source: str) -> str:
    step = next(pattern_steps(board.copy(), Engine()))
    se = f" · SE {step.se:.1f}" if step.se is not None else ""
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><style>{html.CSS}'
            f"</style></head><body><main><ol class=\"steps\"><li class=\"step\" id=\"s\">"
            f"<h2>{escape(step.name)} <span class=\"meta\">{se.strip(' ·')} · {escape(source)}"
            f"</span></h2><p class=\"summary\">{escape(step.summary())}</p>"
            f"{html.step_teach(step, board, 420, False, 'x')}"
            f"<figure>{grid_svg(board, step, size_px=420)}"
            f"<figcaption>{html.step_legend(step)}</figcaption></figure></li></ol></main>"
            f"</body></html>")


def main() -> None:
    exe = chromium()
    if exe is None:
        raise SystemExit("the system's Chromium is needed: apt-get install chromium")
    examples = json.loads((ROOT / "tests" / "data" / "pattern-examples.json").read_text())
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        view = browser.new_page(viewport={"width": 760, "height": 900})
        for name, png in SHOTS.items():
            ex = examples[name]
            src = f"{ex['source'].split('/')[-1]} grid {ex['index']}, step {ex['step']}"
            path = Path(tmp) / "step.html"
            path.write_text(page(board_of(ex["position"]), src), encoding="utf-8")
            view.goto(path.as_uri())
            view.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            view.locator("#s").screenshot(path=str(OUT / png))
            print(f"wrote {OUT / png}")
        browser.close()


if __name__ == "__main__":
    main()
