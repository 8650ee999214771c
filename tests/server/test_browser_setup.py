"""Setting up a room in the page: turn time, rounds or a target score, the joker rule, the
penalties, hints and a bot level per seat, sent as the server's `create` takes them; and the
lobby lists each open room's rules, free seats and spectators. Desktop and phone sizes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from .helpers import Client, ServerProcess

SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True},
}


ARTIFACTS = Path(os.environ.get("RUMMIKUB_ARTIFACTS", "/tmp/rummikub-browser"))
ARTIFACTS.mkdir(parents=True, exist_ok=True)


def _page(browser: Any, size: str) -> Any:
    ctx = browser.new_context(locale="en-GB", **SIZES[size])
    ctx.set_default_timeout(20_000)
    ctx.add_init_script("localStorage.setItem('rummikub.lang', 'en');")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_room_is_set_up_in_the_page_and_listed_with_its_rules(
    browser: Any, sqlite_server: ServerProcess, clients: list[Client], size: str
) -> None:
    page = _page(browser, size)
    page.goto(sqlite_server.base + "/")
    page.fill("#player-name", "Ann")
    page.click("#room-rules summary")
    # the fields start from the preset, and follow it
    assert page.input_value("#room-turn") == "120"  # standard: two minutes
    page.select_option("#room-preset", "casual")
    assert page.input_value("#room-turn") == ""  # casual: no clock
    page.select_option("#room-preset", "standard")
    assert page.is_hidden("#room-target") and page.is_hidden("#room-invalid-penalty")
    page.select_option("#room-players", "3")
    page.select_option(".seat-kind >> nth=0", "bot:expert")
    page.select_option("#room-turn", "45")
    page.select_option("#room-match", "target")
    page.fill("#room-target", "300")
    page.select_option("#room-joker", "strict")
    page.select_option("#room-invalid", "penalty")
    page.fill("#room-invalid-penalty", "2")
    page.fill("#room-timeout-penalty", "2")
    page.uncheck("#room-hints")
    page.locator(".card", has=page.locator("#create-room")).screenshot(
        path=str(ARTIFACTS / f"setup-{size}.png")
    )
    page.click("#create-room")
    page.wait_for_selector("#invite-link")
    code = page.url.rsplit("/", 1)[1]
    # the server made the room with those rules
    watcher = Client(sqlite_server.ws_url)
    clients.append(watcher)
    assert watcher.request(type="watch", room=code)["type"] == "watching"
    room = watcher.wait_state(lambda s: s["room"]["code"] == code)["room"]
    rules = room["rules"]
    assert rules["turn_seconds"] == 45
    assert rules["match"] == {"rounds": None, "target": 300}
    assert (rules["joker_rule"], rules["invalid_play"]) == ("strict", "penalty")
    assert (rules["invalid_penalty"], rules["timeout_penalty"]) == (2, 2)
    assert room["settings"]["hints"] is False
    assert [(s["kind"], s["bot"]) for s in room["seats"]][1:] == [
        ("bot", "expert"),
        ("human", None),
    ]
    # the lobby says what the room plays, its free seat and its spectator
    lobby = _page(browser, size)
    lobby.goto(sqlite_server.base + "/")
    row = lobby.locator(f"#game-list li[data-code='{code}']")
    row.wait_for()
    lobby.wait_for_function(
        f"() => document.querySelector(\"li[data-code='{code}'] .spectators\")"
        ".textContent === '1 watching'"
    )
    assert row.locator(".rules-line").inner_text() == (
        "Standard · 45 s a turn · to 300 points · strict jokers"
        " · an invalid play costs 2 tiles · no hints"
    )
    assert row.locator(".free-seats").inner_text() == "1 seat free"
    row.screenshot(path=str(ARTIFACTS / f"lobby-room-{size}.png"))
    assert lobby.locator(".lobby").evaluate("e => e.scrollWidth <= e.clientWidth")
    assert not page.errors and not lobby.errors, page.errors + lobby.errors
    page.context.close()
    lobby.context.close()


def test_the_round_count_is_sent_when_the_match_has_rounds(
    browser: Any, sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    page = _page(browser, "desktop")
    page.goto(sqlite_server.base + "/")
    page.fill("#player-name", "Ann")
    page.click("#room-rules summary")
    page.select_option("#room-players", "2")
    page.fill("#room-rounds", "3")
    page.select_option("#room-turn", "")
    page.click("#create-room")
    page.wait_for_selector("#invite-link")
    code = page.url.rsplit("/", 1)[1]
    watcher = Client(sqlite_server.ws_url)
    clients.append(watcher)
    watcher.request(type="watch", room=code)
    rules = watcher.wait_state(lambda s: s["room"]["code"] == code)["room"]["rules"]
    assert rules["match"] == {"rounds": 3, "target": None}
    assert rules["turn_seconds"] is None
    page.context.close()
