"""Browser tests of the lobby and the waiting room: the list comes in pages, the choices follow
the server's presets and settings, and the host's start button follows the host when the
creator leaves, or closes his tab and does not come back."""

from __future__ import annotations

import json
from typing import Any

from rummikub.i18n import translator
from rummikub.i18n.presets import xpress_summary
from rummikub.xpress import XpressRules

from .helpers import Client, ServerProcess


def _page(browser: Any) -> Any:
    ctx = browser.new_context(locale="en-GB")
    ctx.set_default_timeout(20_000)
    ctx.add_init_script("localStorage.setItem('rummikub.lang', 'en');")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def test_the_lobby_shows_rooms_in_pages(browser: Any, sqlite_server: ServerProcess) -> None:
    made = 0
    for source in ("127.0.0.3", "127.0.0.4", "127.0.0.5"):  # 20 rooms per address at once
        for _ in range(18):
            c = Client(sqlite_server.ws_url, source=source)
            reply = c.request(type="create", name="Open", seats=[{"kind": "human"}] * 2)
            assert reply["type"] == "joined", reply
            made += 1
            c.close()
    page = _page(browser)
    page.goto(sqlite_server.base + "/")
    waiting = page.locator("#game-list ul").first.locator("li")
    rows = "document.querySelectorAll('#game-list ul:first-of-type li').length"
    page.wait_for_function(f"() => {rows}")
    assert waiting.count() == 50
    more = page.locator("#game-list button.more").first
    assert more.inner_text() == f"Show {made - 50} more"
    more.click()
    page.wait_for_function(f"() => {rows} === {made}")
    assert page.locator("#game-list button.more").count() == 0
    assert page.errors == []
    page.context.close()


def test_the_start_button_follows_the_host(
    browser: Any, sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    host = Client(sqlite_server.ws_url)
    clients.append(host)
    code = host.request(type="create", name="Host", seats=[{"kind": "human"}] * 3)["room"]
    page = _page(browser)
    page.goto(f"{sqlite_server.base}/r/{code}")
    page.fill("#join-name", "Bea")
    page.click("#join-seat")
    page.wait_for_selector(".seat-list")
    assert page.locator("#start-now").count() == 0  # Bea is not the host
    assert host.request(type="leave")["type"] == "left"
    page.wait_for_selector("#start-now")  # now she is
    page.click("#start-now")
    page.wait_for_selector(".rack .tile")
    seat = json.loads(page.evaluate(f"localStorage.getItem('rummikub.seat.{code}')") or "{}").get(
        "seat"
    )
    assert seat == 1
    assert page.errors == []
    page.context.close()


def test_the_start_button_comes_to_who_waits_when_the_host_closed_his_tab(
    browser: Any, sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    """The creator closes his tab without leaving: once his grace period (a second here) is
    over, the person waiting in the room has *Start now* and starts the game."""
    host = Client(sqlite_server.ws_url)
    clients.append(host)
    code = host.request(
        type="create", name="Host", seats=[{"kind": "human"}] * 4, settings={"grace_seconds": 1}
    )["room"]
    page = _page(browser)
    page.goto(f"{sqlite_server.base}/r/{code}")
    page.fill("#join-name", "Bea")
    page.click("#join-seat")
    page.wait_for_selector(".seat-list .dot.on >> nth=1")  # both here
    assert page.locator("#start-now").count() == 0  # Bea is not the host
    host.close()
    page.wait_for_selector("#start-now")  # the host is gone: she is the host now
    assert page.locator(".seat-list .dot.on").count() == 1
    page.click("#start-now")
    page.wait_for_selector(".rack .tile")
    assert page.errors == []
    page.context.close()


def test_the_lobby_offers_what_the_server_allows(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    """The numbers of players and opponents follow the chosen preset, the grace period's range
    and default are the server's, and so is the longest name."""
    status, info = sqlite_server.get("/api/info")
    assert status == 200
    page = _page(browser)
    page.goto(sqlite_server.base + "/")
    page.wait_for_selector("#room-players option", state="attached")

    def options(select: str) -> list[int]:
        found: list[str] = page.eval_on_selector_all(
            f"{select} option", "els => els.map(e => e.value)"
        )
        return [int(v) for v in found]

    assert options("#room-players") == [2, 3, 4]  # standard: 2-4 players
    assert options("#quick-opponents") == [1, 2, 3]
    page.select_option("#room-preset", "xp")
    page.select_option("#quick-preset", "xp")
    assert options("#room-players") == [2, 3, 4, 5, 6]  # xp: up to 6
    assert options("#quick-opponents") == [1, 2, 3, 4, 5]
    assert info["presets"]["xp"]["max_players"] == 6
    grace = info["settings"]["grace_seconds"]
    assert (grace["min"], grace["max"], grace["default"]) == (0, 3600, 30)
    attrs = page.eval_on_selector("#room-grace", "e => [e.min, e.max, e.value]")
    assert attrs == ["0", "3600", "30"]
    assert page.get_attribute("#player-name", "maxlength") == str(info["limits"]["name"])
    # the lobby says of Xpress what the server's rules are (no copy of them in the page)
    assert info["xpress"] == XpressRules().to_dict()
    said = xpress_summary(translator("en"), XpressRules())
    assert page.inner_text(".card-xpress p.muted") == said
    assert page.errors == []
    page.context.close()


def test_a_page_left_before_its_data_came_does_not_cover_the_next(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    """The leaderboard's answer held back until the player has gone back to the lobby: when it
    comes, the leaderboard draws into its own holder, no longer shown, and the lobby stays."""
    page = _page(browser)
    held: list[Any] = []
    page.route("**/api/leaderboard*", lambda route: held.append(route))
    page.goto(sqlite_server.base + "/")
    page.wait_for_selector("#create-room")
    with page.expect_request("**/api/leaderboard*"):
        page.click("#lobby-leaderboard")
    assert len(held) == 1
    left = page.evaluate_handle(
        "() => document.querySelector('#app > .route-page') || document.getElementById('app')"
    )
    page.click(".brand")
    page.wait_for_selector("#create-room")
    held[0].continue_()
    # the leaderboard has drawn itself, into the holder it was given
    page.wait_for_function("(el) => !!el.querySelector('.leaderboard-card')", arg=left)
    assert page.locator(".leaderboard-card").count() == 0
    page.click("#room-rules summary")
    assert page.locator("#room-rules").get_attribute("open") is not None
    assert not page.errors, page.errors
    page.context.close()
