"""Screenshots of the documentation site, and two checks a reader would make.

    mkdocs build --strict && python docs/img/site_screenshots.py

Serves ``site/`` on the loopback and drives the system's Chromium (Playwright,
``executable_path``) at 1200 and 390 pixels over the home page, the CLI
reference of ``grade`` and the API reference: ``docs/img/site-*.png``.  Every
request that would leave the site is counted and refused (the site must
need none: no web font, no repository facts); then the search box is asked
for "--time-limit", and the pages it finds are compared with the pages that
name the option.  Exit status 1 when a request left the site or the search
misses a page.
"""

from __future__ import annotations

import functools
import http.server
import re
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import Route, sync_playwright  # noqa: E402
from web_helpers import CHROMIUM_ARGS, chromium  # noqa: E402

OUT = Path(__file__).resolve().parent
SITE = ROOT / "site"
#: (name, path): the pages shot (an option's anchor, a function's signature)
PAGES = (("home", ""), ("cli", "cli/grade/#grade-time-limit"), ("api", "api/#grader.api.rate"))
WIDTHS = (1200, 390)
QUERY = "--time-limit"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def pages_naming(word: str) -> set[str]:
    """The site's pages (their paths) whose text names ``word``."""
    found = set()
    for html in SITE.rglob("index.html"):
        text = re.sub(r"<[^>]+>", "", html.read_text(encoding="utf-8"))
        main = text.split("Back to top")[0]  # the page, not the navigation
        if word in main:
            rel = html.parent.relative_to(SITE).as_posix()
            found.add("" if rel == "." else rel + "/")
    return found


def main() -> int:
    exe = chromium()
    if exe is None:
        raise SystemExit("the system's Chromium is needed: apt-get install chromium")
    if not (SITE / "index.html").exists():
        raise SystemExit("build the site first: mkdocs build --strict")
    handler = functools.partial(_Quiet, directory=str(SITE))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    outside: list[str] = []

    def guard(route: Route) -> None:
        if urlparse(route.request.url).netloc == urlparse(base).netloc:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        for width in WIDTHS:
            page = browser.new_page(viewport={"width": width, "height": 900},
                                    is_mobile=width < 600, device_scale_factor=1)
            page.route("**/*", guard)
            for name, path in PAGES:
                page.goto(base + path, wait_until="networkidle")
                page.screenshot(path=str(OUT / f"site-{name}-{width}.png"))
            page.close()
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.route("**/*", guard)
        page.goto(base, wait_until="networkidle")
        page.wait_for_timeout(3000)  # the search worker builds its index
        page.click("input.md-search__input")
        page.keyboard.type(QUERY)
        page.wait_for_selector(".md-search-result__item", timeout=10_000)
        page.wait_for_timeout(500)
        page.screenshot(path=str(OUT / "site-search-1200.png"))
        for _ in range(20):  # the results come 10 at a time, as the list scrolls
            page.locator(".md-search-result__item").last.scroll_into_view_if_needed()
            page.mouse.wheel(0, 2000)
            page.wait_for_timeout(300)
        meta = page.inner_text(".md-search-result__meta")
        hrefs = page.eval_on_selector_all(
            ".md-search-result__item a", "els => els.map(e => e.getAttribute('href'))")
        browser.close()
    httpd.shutdown()
    found = {urlparse(h).path.lstrip("/").split("#")[0] for h in hrefs}
    found = {f.removeprefix("./") for f in found}
    naming = pages_naming(QUERY)
    missed = sorted(naming - found)
    print(f"requests outside the site: {len(outside)}", *outside, sep="\n  ")
    print(f"search for {QUERY}: {meta}")
    print(f"pages naming {QUERY}: {len(naming)}; found by the search: "
          f"{len(found & naming)}; missed: {missed}")
    print(f"wrote {len(PAGES) * len(WIDTHS) + 1} screenshots in {OUT}")
    return 1 if outside or missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
