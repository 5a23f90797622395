"""Make the screenshots of docs/serve.md: the explainer at 1200 and 390 pixels.

    python docs/img/screenshots.py

Starts ``python -m grader serve`` on grid 10 of puzzles/book-figures.txt and
drives the system's Chromium (Playwright, ``executable_path``):

* ``serve-1200.png``: the pattern step (a skyscraper) with its links drawn, the step log beside
  it, the digit filter on 4 and two cells coloured by hand;
* ``serve-390.png``: a phone, the full hint of the next step on the board (its
  pattern, not the last step's) with the Step controls under the board;
* ``serve-givens.png``: givens entered by clicking on a board.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402
from web_helpers import CHROMIUM_ARGS, Server, chromium  # noqa: E402

OUT = Path(__file__).resolve().parent
EASY = "64.5.98......3..7.3.8.1...4.....7...4..965..7...3.....8...9.4.3.2..5......36.4.92"


def click_cell(page: Page, row: int, col: int) -> None:
    box = page.locator("#board > svg").bounding_box()
    assert box is not None
    scale = box["width"] / 1020
    page.mouse.click(box["x"] + (60 + (col - 1) * 100 + 50) * scale,
                     box["y"] + (60 + (row - 1) * 100 + 50) * scale)


def main() -> None:
    exe = chromium()
    if exe is None:
        raise SystemExit("the system's Chromium is needed: apt-get install chromium")
    with Server("puzzles/book-figures.txt", "--index", "10") as s, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        wide = browser.new_page(viewport={"width": 1200, "height": 1000})
        wide.set_default_timeout(120_000)
        wide.goto(s.url)
        expect(wide.locator("#count")).not_to_contain_text("walking")
        trial = wide.locator("#steps button", has_text=re.compile(r"SE \d")).first
        number = trial.get_attribute("data-n")
        trial.click()
        expect(wide.locator("#where")).to_have_attribute("data-step", str(number))
        wide.select_option("#filter", "4")
        wide.click("#paints button[data-colour='#a5d8ff']")
        click_cell(wide, 1, 1)
        click_cell(wide, 5, 5)
        wide.click("#paints button[data-colour='']")
        wide.evaluate("window.scrollTo(0, document.querySelector('#rating').offsetTop - 8)")
        wide.screenshot(path=str(OUT / "serve-1200.png"), full_page=False)
        phone = browser.new_page(viewport={"width": 390, "height": 1100}, is_mobile=True,
                                 has_touch=True, device_scale_factor=1)
        phone.set_default_timeout(120_000)
        phone.goto(s.url + "?grid=" + EASY + "&step=6")
        expect(phone.locator("#where")).to_have_attribute("data-step", "6")
        phone.click("#hint-full")
        expect(phone.locator("#hint .full h2")).to_be_visible()
        phone.evaluate("window.scrollTo(0, document.querySelector('#rating').offsetTop - 8)")
        phone.screenshot(path=str(OUT / "serve-390.png"), full_page=False)
        editor = browser.new_page(viewport={"width": 1200, "height": 800})
        editor.goto(s.url + "?grid=")
        editor.click("#edit-givens")
        for i, ch in enumerate(EASY[:30]):
            if ch != ".":
                editor.click(f"#editor-grid button[data-cell='{i}']")
                editor.click(f"#editor-pad button[data-sym='{ch}']")
        editor.screenshot(path=str(OUT / "serve-givens.png"), full_page=False)
        browser.close()
    print(f"wrote {OUT / 'serve-1200.png'}, {OUT / 'serve-390.png'} and "
          f"{OUT / 'serve-givens.png'}")


if __name__ == "__main__":
    main()
