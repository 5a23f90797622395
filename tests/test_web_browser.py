"""The explainer's page in the system's headless Chromium (Playwright with
``executable_path``; never a downloaded browser): paste a grid, step, undo,
hints, moves by click and by key, a wrong move refuted, a depth-1 grid solved
to the end, a nested trial unfolded, the grid of ``--index``, bad input, the
phone width.  One server and one browser for the module; skipped where
Chromium or Playwright is missing (CI installs both)."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from web_helpers import (
    CHROMIUM_ARGS,
    DEPTH1,
    DEPTH2,
    EASY,
    Server,
    candidate_of,
    chromium,
    needs_web,
)

needs_web()
pytest.importorskip("playwright", reason="playwright (test extra) is not installed")
CHROMIUM = chromium()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="the system's Chromium is not "
                                "installed (apt-get install chromium; CI installs it)")

from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402

TIMEOUT = 60_000  # ms: a loaded 2-core machine


@pytest.fixture(scope="module")
def server():
    # the page opens on grid 10 of the book's figures when its URL names none
    with Server("puzzles/book-figures.txt", "--index", "10", "--jobs", "2") as s:
        yield s


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    p = context.new_page()
    p.set_default_timeout(TIMEOUT)
    expect.set_options(timeout=TIMEOUT)
    errors: list[str] = []
    p.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.base = server.url  # type: ignore[attr-defined]
    yield p
    context.close()
    # no script error, and nothing the Content-Security-Policy had to block
    assert not [e for e in errors if "status of 4" not in e], errors


def open_grid(page: Page, grid: str, moves: str = "") -> None:
    url = page.base + "?grid=" + quote(grid) + ("&moves=" + quote(moves) if moves else "")
    page.goto(url)
    expect(page.locator("#board > svg")).to_be_visible()


def at_step(page: Page, n: int) -> None:
    expect(page.locator("#where")).to_have_attribute("data-step", str(n))


def click_board(page: Page, row: int, col: int, value: int | None = None) -> None:
    """Click cell (row, col) of a 9x9 board, or its candidate ``value``."""
    box = page.locator("#board > svg").bounding_box()
    assert box is not None
    scale = box["width"] / 1020  # the drawing's viewBox: 9 cells of 100 and margins of 60
    x, y = 60 + (col - 1) * 100 + 50, 60 + (row - 1) * 100 + 50
    if value is not None:
        x = 60 + (col - 1) * 100 + ((value - 1) % 3 + 0.5) * 100 / 3
        y = 60 + (row - 1) * 100 + ((value - 1) // 3 + 0.5) * 100 / 3
    page.mouse.click(box["x"] + x * scale, box["y"] + y * scale)


def test_paste_step_undo_and_each_hint(page: Page) -> None:
    page.goto(page.base)
    page.fill("#grid", EASY)
    page.click("#load")
    expect(page.locator("#rating")).to_contain_text("Level 1")
    at_step(page, 0)
    for _ in range(5):
        page.click("#next")
    at_step(page, 5)
    expect(page.locator("#text h2")).to_contain_text("Step 5/52")
    page.click("#undo")
    page.click("#undo")
    at_step(page, 3)
    assert "step=3" in page.url and "grid=" in page.url
    page.click("#hint-technique")
    expect(page.locator("#hint")).to_contain_text("Try single position")
    expect(page.locator("#hint")).to_have_attribute("data-level", "technique")
    page.keyboard.press("w")  # the where hint by its key
    expect(page.locator("#hint")).to_have_attribute("data-level", "where")
    expect(page.locator("#hint")).to_contain_text("look at")
    page.click("#hint-full")
    expect(page.locator("#hint .full h2")).to_contain_text("Step 4/52")
    expect(page.locator("#hint .full svg[role=img]")).to_have_count(0)  # on the board
    expect(page.locator("#board > svg title")).to_contain_text("=>")  # the hint's step
    page.click("#redo")
    at_step(page, 4)
    page.reload()  # the URL holds the grid and the step
    at_step(page, 4)


def test_a_move_a_hint_from_there_and_a_wrong_move_refuted(page: Page) -> None:
    open_grid(page, EASY)
    right = candidate_of(EASY, (1, 3), wrong=False)
    page.locator("#board").focus()  # by the keyboard: the arrows, then the digit
    expect(page.locator("#cell")).to_contain_text("Row 1, column 1")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#cell")).to_contain_text("Row 1, column 3")
    page.keyboard.press(str(right))
    expect(page.locator("#message")).to_contain_text(f"Move r1c3={right} made")
    expect(page.locator("#moves-text")).to_have_text(f"r1c3={right}")
    page.click("#hint-where")
    expect(page.locator("#hint")).to_contain_text("look at")
    wrong = candidate_of(EASY, (4, 5), wrong=True)  # a cell the first move leaves alone
    click_board(page, 4, 5)  # by the mouse: the cell, then its candidate
    expect(page.locator("#cell")).to_contain_text("Row 4, column 5")
    click_board(page, 4, 5, wrong)
    expect(page.locator("#status")).to_contain_text(f"r4c5={wrong} was wrong")
    expect(page.locator("#status")).to_have_attribute("data-status", "contradiction")
    page.click("#last")
    expect(page.locator("#text h2")).to_have_text("Contradiction")
    page.click("#undo")  # back to the end frame, then before the wrong move
    page.click("#undo")
    expect(page.locator("#status")).not_to_contain_text("was wrong")
    expect(page.locator("#moves-text")).to_have_text(f"r1c3={right}")


def test_the_grid_given_by_index_opens(page: Page) -> None:
    page.goto(page.base)  # the server's grid: grid 10 of the file, by --index
    expect(page.locator("#rating")).to_contain_text("Level 13 (expert)")
    expect(page.locator("#count")).to_have_text("(58)")  # the pattern path (the default)
    assert page.input_value("#grid") == DEPTH1
    at_step(page, 0)


def test_a_depth_1_grid_solved_to_the_end(page: Page) -> None:
    page.goto(page.base)  # DEPTH1, as above
    expect(page.locator("#count")).to_have_text("(58)")
    page.locator("body").focus()
    for _ in range(59):
        page.keyboard.press("j")
    at_step(page, 59)
    expect(page.locator("#status")).to_contain_text("Solved!")
    expect(page.locator("#text h2")).to_have_text("Solution")
    expect(page.locator("#next")).to_be_disabled()
    # where the book's rules stop, the pattern the rating walks: a skyscraper
    assert page.locator("#steps button", has_text="skyscraper").count() == 1


def test_a_depth_2_grid_and_a_nested_trial_unfolded(page: Page) -> None:
    open_grid(page, DEPTH2)
    nested = page.locator("#steps button[data-depth='2']").first
    # the list of every step is open from the start (issue 42: the step log beside the board)
    page.locator("#all-steps").evaluate("d => { d.open = true; }")
    number = int(nested.get_attribute("data-n") or "0")
    nested.click()
    at_step(page, number)
    inner = page.locator("#text details.branch details.branch").first
    expect(inner).not_to_have_attribute("open", "")
    inner.locator("> summary").click()
    expect(inner).to_have_attribute("open", "")
    expect(inner.locator("ol.chain").first).to_be_visible()
    expect(page.locator("#text figure svg[role=img]").first).to_be_visible()  # a chain drawn


def test_bad_input_shows_its_message(page: Page) -> None:
    page.goto(page.base)
    page.fill("#grid", "12345 is not a grid <img src=x id=injected>")
    page.click("#load")
    expect(page.locator("#message")).to_contain_text("malformed")
    expect(page.locator("#message")).to_contain_text("<img src=x")  # shown as text
    assert page.locator("#injected").count() == 0
    expect(page.locator("#app")).to_be_hidden()
    page.fill("#grid", "1" + "." * 80)
    page.click("#load")
    expect(page.locator("#message")).to_contain_text("multiple-solutions")


def test_phone_width_and_keys(browser, server) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(server.url + "?grid=" + quote(EASY))
    expect(page.locator("#board > svg")).to_be_visible()
    box = page.locator("#board > svg").bounding_box()
    assert box is not None and box["width"] <= 390 and box["x"] >= 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator("body").focus()
    page.keyboard.press("j")
    page.keyboard.press("j")
    at_step(page, 2)
    page.keyboard.press("k")
    at_step(page, 1)
    page.keyboard.press("g")
    page.keyboard.type("7")
    page.keyboard.press("Enter")
    at_step(page, 7)
    for control in ("#prev", "#next", "#undo", "#redo", "#hint-technique", "#mode"):
        label = page.locator(control).get_attribute("aria-label") or page.locator(
            control).inner_text()
        assert label.strip(), control
    assert re.search(r"Place \d", page.locator("#pad-values button").first.get_attribute(
        "aria-label") or "")
    context.close()


# -- issue 42: what a player sees ------------------------------------------------
def test_a_full_hint_is_written_once_on_its_own_board(page: Page) -> None:
    open_grid(page, EASY)
    page.click("#next")
    at_step(page, 1)
    page.click("#hint-full")
    expect(page.locator("#hint .full h2")).to_contain_text("Step 2/52")
    hint = page.locator("#hint").inner_text()
    summary = page.locator("#hint .full .summary").inner_text()
    assert hint.count(summary) == 1  # written once
    # the board shows the hint's step, not the highlight of step 1
    title = page.locator("#board > svg title").text_content()
    assert title == summary, (title, summary)


def test_undo_clears_the_message_of_a_move(page: Page) -> None:
    open_grid(page, EASY)
    right = candidate_of(EASY, (1, 3), wrong=False)
    click_board(page, 1, 3)
    click_board(page, 1, 3, right)
    expect(page.locator("#message")).to_contain_text(f"Move r1c3={right} made")
    page.click("#undo")
    expect(page.locator("#message")).to_be_hidden()
    expect(page.locator("#moves-text")).to_have_text("none yet")


def test_the_step_log_is_labelled_and_jumps_to_a_step(page: Page) -> None:
    page.goto(page.base)  # DEPTH1: a skyscraper on the pattern path
    expect(page.locator("#count")).to_have_text("(58)")
    first = page.locator("#steps button").first
    expect(first.locator(".rate")).to_have_text("level 1")  # labelled
    sky = page.locator("#steps button", has_text="skyscraper")
    expect(sky.locator(".rate")).to_have_text(re.compile(r"^SE \d\.\d$"))
    sky.click()
    number = sky.get_attribute("data-n")
    at_step(page, int(number or 0))
    meta = page.locator("#text h2 .meta").inner_text()
    assert meta.startswith("SE ") and "level 13" not in meta
    assert "(1, " not in page.locator("#text").inner_text()  # one notation: compact


def test_the_digit_filter_and_colouring_by_hand(page: Page) -> None:
    open_grid(page, EASY)
    page.select_option("#filter", "2")
    svg = page.locator("#board > svg")
    expect(svg).to_have_class(re.compile("filtered"))
    assert page.locator("#board g.overlay.filter circle").count() > 0
    page.click("#next")  # the filter stays on from step to step
    expect(page.locator("#board > svg")).to_have_class(re.compile("filtered"))
    page.select_option("#filter", "")
    expect(page.locator("#board g.overlay.filter")).to_have_count(0)
    page.click("#paints button[data-colour='#b2f2bb']")
    click_board(page, 5, 5)
    click_board(page, 1, 1)
    expect(page.locator("#board g.colours rect")).to_have_count(2)
    page.click("#next")  # the colours stay on the board
    expect(page.locator("#board g.colours rect")).to_have_count(2)
    click_board(page, 1, 1)  # a second click clears the cell
    expect(page.locator("#board g.colours rect")).to_have_count(1)
    page.click("#paint-clear")
    expect(page.locator("#board g.colours rect")).to_have_count(0)


def test_givens_entered_on_a_board(page: Page) -> None:
    page.goto(page.base + "?grid=")
    page.click("#edit-givens")
    expect(page.locator("#editor")).to_be_visible()
    page.locator("#editor-grid").focus()
    for ch in EASY:  # a digit fills the cell and moves on; an arrow skips an empty one
        page.keyboard.press(ch if ch != "." else "ArrowRight")
    expect(page.locator("#editor-count")).to_have_text(
        f"{sum(ch != '.' for ch in EASY)} givens")
    page.click("#editor-use")
    expect(page.locator("#rating")).to_contain_text("Level 1")
    assert page.input_value("#grid") == EASY


def test_step_controls_stay_beside_the_board_at_390(browser, server) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(server.url + "?grid=" + quote(EASY))
    expect(page.locator("#board > svg")).to_be_visible()
    board = page.locator("#board").bounding_box()
    step = page.locator("#next").bounding_box()
    pad = page.locator("#pad").bounding_box()
    assert board and step and pad
    assert step["y"] < pad["y"]  # above the number pad
    assert 0 <= step["y"] - (board["y"] + board["height"]) < 80  # right under the board
    # the board and the Step button fit on one screen: stepping, the board stays in view
    assert step["y"] + step["height"] - board["y"] < 844
    context.close()


def test_the_first_step_comes_before_the_whole_path(page: Page) -> None:
    """The page asks for the frame first (a walk up to it only), then the
    whole path; the seconds spent show while it works."""
    calls: list[str] = []
    page.on("request", lambda r: calls.append(r.url.rsplit("/", 1)[-1])
            if "/api/" in r.url else None)
    page.goto(page.base)  # DEPTH1, the server's grid
    expect(page.locator("#board > svg")).to_be_visible()
    at_step(page, 0)
    expect(page.locator("#count")).to_have_text("(58)")
    assert calls[0] == "step" and "explain" in calls, calls


def test_a_grid_of_se_9_gives_its_first_step_without_a_timeout(browser, server) -> None:
    """The frame asked for is a walk up to it only: a grid of SE 9.0
    (puzzles/se-rated-9758.txt) shows its first step long before the whole
    path is walked, whatever the server's time limit (the whole path may
    still pass it on a loaded machine: the page then says so and steps on)."""
    hard = "900500007040060090003009500005000001060000080200000700006700100090020060800003004"
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    answers: list[tuple[str, int]] = []
    page.on("response", lambda r: answers.append((r.url.rsplit("/", 1)[-1], r.status))
            if "/api/" in r.url else None)
    page.goto(server.url + "?grid=" + hard)
    expect(page.locator("#board > svg")).to_be_visible()
    page.click("#next")
    at_step(page, 1)
    expect(page.locator("#text h2")).to_contain_text("Step 1")
    assert all(status == 200 for name, status in answers if name == "step"), answers
    context.close()
