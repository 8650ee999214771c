"""Accounts in the browser (real Chromium): sign up, the profile and the leaderboard, a second
browser logging in to the same account, logging out everywhere, wrong passwords, the pages
on a phone, and the profile's recent games readable on a desktop and on a phone."""

from __future__ import annotations

from typing import Any

from .accounts_helpers import get_json, player, sign_up
from .browser_helpers import english_context, open_page
from .helpers import SMALL, Client, ServerProcess, draw_until_round_over

PASSWORD = "correct horse battery"


def test_sign_up_profile_leaderboard_and_a_second_browser(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    base = sqlite_server.base
    first, second = english_context(browser), english_context(browser)
    try:
        page = open_page(first, base + "/account")
        page.wait_for_selector("#signup-form")
        assert page.inner_text("#nav-account") == "Log in"
        page.fill("#signup-name", "Ann")
        page.fill("#signup-password", PASSWORD)
        page.click("#signup-submit")
        page.wait_for_selector("#account-card")
        assert page.inner_text("#account-card h2") == "Logged in as Ann"
        assert page.inner_text("#nav-account") == "Ann"
        # the session cookie is out of the page's reach
        assert "rummikub_session" not in page.evaluate("document.cookie")
        page.click("#my-profile")
        page.wait_for_selector(".profile-page [data-game='tiles'] .profile-rating")
        assert page.inner_text("[data-game='tiles'] .profile-rating") == "Rating 1000"
        assert page.locator("#no-graph").count() == 2  # no rated games yet, in either game
        page.click(".account-links a")
        page.wait_for_selector(".leaderboard-card")
        assert page.inner_text("#leaderboard-empty") == "No rated games yet."
        page.click("#lb-month")
        page.wait_for_function("() => location.search.includes('period=month')")
        page.wait_for_selector("#leaderboard-empty")

        # a second browser logs in to the same account; a wrong password first
        other = open_page(second, base + "/account")
        other.wait_for_selector("#login-form")
        other.fill("#login-name", "ann")
        other.fill("#login-password", "not the password")
        other.click("#login-submit")
        other.wait_for_selector("#login-form .form-error:not([hidden])")
        assert other.inner_text("#login-form .form-error") == "Wrong username or password."
        other.fill("#login-password", PASSWORD)
        other.click("#login-submit")
        other.wait_for_selector("#account-card")
        assert other.inner_text("#nav-account") == "Ann"

        # log out everywhere from the first: the second is logged out too
        page.goto(base + "/account")
        page.click("#logout-all")
        page.wait_for_selector("#signup-form")
        assert page.inner_text("#nav-account") == "Log in"
        other.reload()
        other.wait_for_selector("#login-form")
        assert other.inner_text("#nav-account") == "Log in"
        assert not page.errors and not other.errors, (page.errors, other.errors)
    finally:
        first.close()
        second.close()


def test_bad_names_are_named_and_the_pages_fit_a_phone(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    ctx = english_context(browser, viewport={"width": 390, "height": 844}, has_touch=True,
                   is_mobile=True)  # fmt: skip
    try:
        page = open_page(ctx, sqlite_server.base + "/account")
        page.wait_for_selector("#signup-form")
        page.fill("#signup-name", "greedy-2")
        page.fill("#signup-password", PASSWORD)
        page.click("#signup-submit")
        page.wait_for_selector("#signup-form .form-error:not([hidden])")
        assert "mistaken for a bot" in page.inner_text("#signup-form .form-error")
        assert page.evaluate("[document.documentElement.scrollWidth, innerWidth]") == [390, 390]
        page.select_option("#lang-select", "sv")
        page.wait_for_selector("text=Skapa ett konto")
        assert page.inner_text("#nav-account") == "Logga in"
        page.goto(sqlite_server.base + "/leaderboard")
        page.wait_for_selector("#leaderboard-empty")
        assert page.evaluate("[document.documentElement.scrollWidth, innerWidth]") == [390, 390]
        assert not page.errors, page.errors
    finally:
        ctx.close()


# a line of the profile's recent games as the page lays it out: the widths of the row and of its
# players, and for the players and for the date and result their lines, clipped or not
RECENT_LINE = """li => {
  const lines = (e) => {
    const style = getComputedStyle(e);
    const line = parseFloat(style.lineHeight) || 1.25 * parseFloat(style.fontSize);
    return Math.round(e.getBoundingClientRect().height / line);
  };
  const who = li.querySelector('.who'), facts = li.querySelector('.recent-facts, .room-facts');
  return {
    row: li.clientWidth, text: who.clientWidth,
    who: who.innerText, whoLines: lines(who), clipped: who.scrollWidth > who.clientWidth,
    facts: facts.innerText, factsLines: lines(facts),
  };
}"""


def test_the_profiles_recent_games_are_readable_on_a_desktop_and_a_phone(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    """Players, date and result of a recent game each read on a line or two as wide as the
    row, not in a column a few letters wide (the links go under them on a phone)."""
    c = player(seeded_server, sign_up(seeded_server, "Annabel"))
    clients.append(c)
    bots = [{"kind": "bot", "level": level} for level in ("greedy", "beginner", "strategic")]
    joined = c.request(
        type="create",
        name="Annabel",
        rules=SMALL,
        seats=[{"kind": "human"}, *bots],
        settings={"bot_delay": 0},
    )
    assert joined["type"] == "joined", joined
    assert draw_until_round_over(c)["game"]["match_over"]
    recent = get_json(seeded_server, "/api/players/Annabel")["recent"]
    assert [g["room"] for g in recent] == [joined["room"]]
    for size in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        ctx = english_context(browser, viewport=size)
        try:
            page = open_page(ctx, seeded_server.base + "/players/Annabel")
            line = page.wait_for_selector("#recent-games li").evaluate(RECENT_LINE)
            assert line["who"].startswith("Annabel – "), line
            assert not line["clipped"] and line["whoLines"] <= 2, (size, line)
            assert "lost" in line["facts"] and line["factsLines"] <= 2, (size, line)
            assert line["text"] >= line["row"] / 2, (size, line)
            assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"]
            assert not page.errors, page.errors
        finally:
            ctx.close()
