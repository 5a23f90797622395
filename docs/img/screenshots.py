"""Make the screenshots of docs/serve.md: the explainer at 1200 and 390 pixels.

    python docs/img/screenshots.py

Starts ``python -m grader serve`` on grid 10 of puzzles/book-figures.txt and
drives the system's Chromium (Playwright, ``executable_path``): at 1200 px a
trial step with its chain drawn, at 390 px a step with the "where" hint.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import expect, sync_playwright  # noqa: E402
from web_helpers import CHROMIUM_ARGS, Server, chromium  # noqa: E402

OUT = Path(__file__).resolve().parent


def main() -> None:
    exe = chromium()
    if exe is None:
        raise SystemExit("the system's Chromium is needed: apt-get install chromium")
    with Server("puzzles/book-figures.txt", "--index", "10") as s, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        wide = browser.new_page(viewport={"width": 1200, "height": 1000})
        wide.goto(s.url)
        expect(wide.locator("#board > svg")).to_be_visible()
        trial = wide.locator("#steps button.trial").first
        number = trial.get_attribute("data-n")
        wide.click("#all-steps summary")
        trial.click()
        expect(wide.locator("#where")).to_have_attribute("data-step", str(number))
        wide.click("#all-steps summary")  # folded again
        wide.evaluate("window.scrollTo(0, 0)")
        wide.screenshot(path=str(OUT / "serve-1200.png"), full_page=False)
        phone = browser.new_page(viewport={"width": 390, "height": 1100}, is_mobile=True,
                                 has_touch=True, device_scale_factor=1)
        phone.goto(s.url + "?grid=" + "64.5.98......3..7.3.8.1...4.....7...4..965..7...3....."
                   "8...9.4.3.2..5......36.4.92&step=6")
        expect(phone.locator("#where")).to_have_attribute("data-step", "6")
        phone.click("#hint-where")
        expect(phone.locator("#hint")).to_be_visible()
        phone.evaluate("window.scrollTo(0, document.querySelector('#rating').offsetTop - 8)")
        phone.screenshot(path=str(OUT / "serve-390.png"), full_page=False)
        browser.close()
    print(f"wrote {OUT / 'serve-1200.png'} and {OUT / 'serve-390.png'}")


if __name__ == "__main__":
    main()
