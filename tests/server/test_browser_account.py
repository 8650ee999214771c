"""Accounts in the browser (real Chromium): sign up, the profile and the leaderboard, a second
browser logging in to the same account, logging out everywhere, wrong passwords, and the pages
on a phone."""

from __future__ import annotations

from typing import Any

from .browser_helpers import english_context, open_page
from .helpers import ServerProcess

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
