"""Playing under an account in the browser (real Chromium): a rated quick match against a bot
fill, played to the end, with the rating change on the score card, the profile and the
leaderboard; the same game taken up again in a second browser logged in to the account; and a
guest's game claimed by signing up (on a phone)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from .browser_helpers import english_context, open_page, wait_turn_passed
from .helpers import ServerProcess

PASSWORD = "correct horse battery"


@pytest.fixture
def quick_server(sqlite_url: str) -> Iterator[ServerProcess]:
    """Deals fixed; bots fill a quick match after a second and move without a pause."""
    srv = ServerProcess(
        sqlite_url,
        args=["--quick-bots-after", "1", "--quick-bot-delay", "0"],
        env={"RUMMIKUB_TEST_SEED": "5"},
    ).start()
    try:
        yield srv
    finally:
        srv.stop()


def _enter(page: Any, form: str, name: str) -> None:
    """Sign up (``form`` "signup") or log in ("login") on the account page."""
    page.wait_for_selector(f"#{form}-form")
    page.fill(f"#{form}-name", name)
    page.fill(f"#{form}-password", PASSWORD)
    page.click(f"#{form}-submit")
    page.wait_for_selector("#account-card")


def _rack(page: Any) -> list[str]:
    """The tiles of the rack as text (their text content without white space: the rendered
    text's line breaks depend on whether the page's styles were applied yet)."""
    page.wait_for_selector(".rack .tile")
    return sorted("".join(t.split()) for t in page.locator(".rack .tile").all_text_contents())


def _draw_to_the_end(page: Any) -> None:
    """Draw on every turn of the player until the score card shows (the bot goes out)."""
    for _ in range(120):
        page.wait_for_selector("#btn-draw:not([disabled]), .overlay .score-card", timeout=60_000)
        if page.locator(".overlay .score-card").count():
            return
        turn = page.get_attribute(".game", "data-turn")
        page.click("#btn-draw")
        wait_turn_passed(page, turn)
    raise AssertionError("the game did not end")


def test_a_rated_quick_match_against_bots_moves_the_rating(
    browser: Any, quick_server: ServerProcess
) -> None:
    base = quick_server.base
    ctx = english_context(browser)
    try:
        page = open_page(ctx, base + "/account")
        _enter(page, "signup", "Ann")
        page.goto(base + "/")
        page.wait_for_selector("#qm-find")
        assert page.is_checked("#qm-size-2") and page.is_checked("#qm-bots")
        page.click("#qm-find")
        # matched with a bot after a second: the room's page, the game on
        page.wait_for_url(re.compile(r"/r/[A-Z0-9]+$"))
        page.wait_for_selector(".rack .tile")
        _draw_to_the_end(page)
        change = page.wait_for_selector("#rated-change").inner_text()
        found = re.search(r"Ann: rating 1000 → (\d+)", change)
        assert found is not None, change
        after = found.group(1)
        assert after != "1000"

        page.goto(base + "/players/Ann")
        page.wait_for_selector("[data-game='tiles'] .profile-rating")
        assert page.inner_text("[data-game='tiles'] .profile-rating") == f"Rating {after}"
        assert page.locator("#recent-games li").count() == 1
        line = page.inner_text("#recent-games li")
        assert "rated" in line and "greedy" in line.lower()
        page.goto(base + "/leaderboard?period=month")
        page.wait_for_selector("table.leaderboard")
        assert page.locator("table.leaderboard tbody tr").all_inner_texts() == [
            f"1\tAnn\t{after}\t1"
        ]
        assert not page.errors, page.errors
    finally:
        ctx.close()


def test_a_second_browser_takes_up_the_same_game(browser: Any, quick_server: ServerProcess) -> None:
    base = quick_server.base
    first, second = english_context(browser), english_context(browser)
    try:
        page = open_page(first, base + "/account")
        _enter(page, "signup", "Ann")
        page.goto(base + "/")
        page.wait_for_selector("#play-bots")
        page.click("#play-bots")
        page.wait_for_url(re.compile(r"/r/[A-Z0-9]+$"))
        code = page.url.rsplit("/", 1)[1]
        rack = _rack(page)

        other = open_page(second, base + "/account")
        _enter(other, "login", "Ann")
        other.goto(base + "/")
        other.wait_for_selector(f"#my-games li[data-code='{code}']")
        other.click(f"#my-games li[data-code='{code}'] a")
        other.wait_for_url(re.compile(f"/r/{code}$"))
        assert _rack(other) == rack  # the same seat, with no token in this browser
        assert other.locator(".game").count() == 1
        assert not page.errors and not other.errors, (page.errors, other.errors)
    finally:
        first.close()
        second.close()


def test_a_guest_game_is_claimed_by_signing_up(browser: Any, quick_server: ServerProcess) -> None:
    base = quick_server.base
    ctx = english_context(browser, viewport={"width": 390, "height": 844}, has_touch=True,
                   is_mobile=True)  # fmt: skip
    try:
        page = open_page(ctx, base + "/")
        page.wait_for_selector("#qm-login")  # a guest is offered to log in for quick matches
        page.fill("#player-name", "Gus")
        page.click("#play-bots")
        page.wait_for_url(re.compile(r"/r/[A-Z0-9]+$"))
        code = page.url.rsplit("/", 1)[1]
        page.wait_for_selector(".rack .tile")
        page.goto(base + "/account")
        _enter(page, "signup", "Gus")
        claimed = "Games you played as a guest on this browser are now on your account: 1."
        page.wait_for_selector(f"text={claimed}")
        page.goto(base + "/")
        page.wait_for_selector(f"#my-games li[data-code='{code}']")
        page.wait_for_selector("#qm-find")
        assert page.evaluate("[document.documentElement.scrollWidth, innerWidth]") == [390, 390]
        assert not page.errors, page.errors
    finally:
        ctx.close()
