"""The puzzle page in Chromium at phone size: a shipped puzzle (80c1efe6: rack R3 R4 R6, the
group K5 R5 B5 to be taken apart) answered wrongly first (the page says which set is not
valid), then solved by its known solution with taps, accepted by the server and rated in the
browser's storage; the Puzzles link of the lobby leads to the page. A signed-in player's
solution is rated on the server, and his profile's Puzzles card shows it."""

from __future__ import annotations

from typing import Any

from .browser_helpers import english_context, open_page
from .helpers import ServerProcess

PID = "80c1efe6"
TABLE = ".meld .tile[data-tile='{}']"
RACK = ".rack .tile[data-tile='{}']"


def _move(page: Any, selector: str, onto: str) -> None:
    """Tap the tile ``selector``, then the table tile ``onto``: the first joins the set of the
    second."""
    face = page.locator(selector).first.get_attribute("data-face")
    page.locator(selector).first.click()
    page.locator(onto).first.click()
    page.wait_for_function(
        "([f, o]) => [...document.querySelectorAll('.meld')].some(m =>"
        " m.querySelector(`[data-tile='${f}']`) && m.querySelector(`[data-tile='${o}']`))",
        arg=[face, page.locator(onto).first.get_attribute("data-face")],
    )


def _solve(page: Any) -> None:
    """Lay out the known solution of PID: K5 to the black run, B5 to the blue run, the rack
    onto R5."""
    _move(page, TABLE.format("K5"), TABLE.format("K6"))
    _move(page, TABLE.format("B5"), TABLE.format("B6"))
    for face in ("R3", "R4", "R6"):
        _move(page, RACK.format(face), TABLE.format("R5"))
    assert page.locator(".meld.invalid").count() == 0


def test_a_puzzle_answered_wrongly_then_solved(browser: Any, sqlite_server: ServerProcess) -> None:
    ctx = browser.new_context(
        locale="en-GB", viewport={"width": 390, "height": 844}, has_touch=True
    )
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(sqlite_server.base + "/")
    page.click("#puzzles-link")
    page.wait_for_selector(".puzzle-page[data-puzzle]")  # the next puzzle near 1500
    page.goto(sqlite_server.base + f"/puzzles/{PID}")
    page.wait_for_selector(f".puzzle-page[data-puzzle='{PID}']")
    assert "whole rack" in page.inner_text("#puzzle-goal")
    # a wrong answer: R3 alone in a new set
    page.click(RACK.format("R3"))
    page.click("#puzzle-new-set")
    page.wait_for_selector(TABLE.format("R3"))
    page.click("#puzzle-check")
    page.wait_for_selector(".puzzle-page[data-result='false']")
    said = page.inner_text("#puzzle-message")
    assert "R3" in said and "not a valid set" in said, said
    assert "Rated:" in page.inner_text("#puzzle-rated")
    page.click("#puzzle-undo")
    page.wait_for_selector(RACK.format("R3"))
    _solve(page)
    page.click("#puzzle-check")
    page.wait_for_function(
        "() => document.querySelector('#puzzle-message').textContent.startsWith('Solved')"
    )
    assert "3 tiles placed" in page.inner_text("#puzzle-message")
    stored = page.evaluate("JSON.parse(localStorage.getItem('rummikub.puzzles'))")
    assert PID in stored["done"] and stored["rating"]["rating"] < 1500  # the first try failed
    # the solution is laid out with the moved tiles marked
    page.click("#puzzle-solution")
    page.wait_for_selector(".meld .piece.mark-moved")
    assert page.locator(".meld .piece.mark-rack").count() == 3
    assert not errors, errors
    ctx.close()


def test_a_signed_in_players_solution_is_rated_on_his_profile(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    base = sqlite_server.base
    ctx = english_context(browser, viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = open_page(ctx, base + "/account")
        page.fill("#signup-name", "Ann")
        page.fill("#signup-password", "correct horse battery")
        page.click("#signup-submit")
        page.wait_for_selector("#account-card")
        page.goto(base + f"/puzzles/{PID}")
        page.wait_for_selector(f".puzzle-page[data-puzzle='{PID}']")
        assert page.inner_text("#puzzle-my-rating") == "Your puzzle rating: 1500"
        _solve(page)
        page.click("#puzzle-check")
        page.wait_for_selector(".puzzle-page[data-result='true']")
        rated = page.inner_text("#puzzle-rated")
        assert rated.startswith("Rated: ") and "(+" in rated, rated
        rating = int(rated.removeprefix("Rated: ").split(" ")[0])
        assert rating > 1500
        assert page.inner_text("#puzzle-my-rating") == f"Your puzzle rating: {rating}"
        # the account's rating is the server's: the guest's in this browser is untouched
        guest = page.evaluate("JSON.parse(localStorage.getItem('rummikub.puzzles'))")
        assert guest["rating"]["rating"] == 1500 and guest["done"] == []
        # the profile's Puzzles card
        page.goto(base + "/players/Ann")
        page.wait_for_selector("#profile-puzzles")
        assert page.inner_text("#profile-puzzle-rating") == f"Rating {rating}"
        assert page.inner_text("#profile-puzzle-counts") == "Solved: 1 of 1"
        assert "after two rated puzzles" in page.inner_text("#no-puzzle-graph")
        line = page.locator(f"#profile-puzzles li[data-puzzle='{PID}']")
        assert "solved" in line.inner_text() and f"Rating {rating}" in line.inner_text()
        line.locator("a").click()
        page.wait_for_selector(f".puzzle-page[data-puzzle='{PID}']")
        assert page.inner_text("#puzzle-my-rating") == f"Your puzzle rating: {rating}"
        assert not page.errors, page.errors
    finally:
        ctx.close()


def test_the_next_puzzles_are_of_the_theme_chosen(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    """The page's menu of goals and themes (in the page's language): a choice loads a puzzle of
    it, and the address keeps it, so the next puzzles are of it too."""
    ctx = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844})
    ctx.set_default_timeout(20_000)
    ctx.add_init_script("localStorage.setItem('rummikub.lang', 'en');")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(sqlite_server.base + "/puzzles")
    page.wait_for_selector("#puzzle-theme option[value='joker-retrieval']", state="attached")
    labels = page.locator("#puzzle-theme option").all_inner_texts()
    assert labels[:3] == ["Any theme", "Go out", "Most tiles"] and "joker retrieval" in labels
    first = page.get_attribute(".puzzle-page", "data-puzzle")
    page.select_option("#puzzle-theme", "joker-retrieval")
    page.wait_for_function(
        "(f) => { const p = document.querySelector('.puzzle-page[data-puzzle]');"
        " return p && p.dataset.puzzle !== f; }",
        arg=first,
    )
    page.wait_for_function("() => location.search === '?theme=joker-retrieval'")
    assert "joker retrieval" in page.inner_text(".puzzle-page")  # its themes line
    shown = page.get_attribute(".puzzle-page", "data-puzzle")
    page.click("#puzzle-next")
    page.wait_for_function(
        "(f) => { const p = document.querySelector('.puzzle-page[data-puzzle]');"
        " return p && p.dataset.puzzle !== f; }",
        arg=shown,
    )
    assert "joker retrieval" in page.inner_text(".puzzle-page")
    assert page.input_value("#puzzle-theme") == "joker-retrieval"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # fits a phone
    assert not errors, errors
    ctx.close()
