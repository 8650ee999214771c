"""Browser tests of the language of the server's refusals: a Swedish page words every refusal
from the message catalogue (by its code and params), never with the server's English."""

from __future__ import annotations

import json
from typing import Any

from rummikub.i18n import translator

from .helpers import Client, ServerProcess, create_vs_bots


def _swedish_page(browser: Any, server: ServerProcess, code: str, token: str) -> Any:
    ctx = browser.new_context(locale="en-GB")  # the page's own choice wins over the browser's
    ctx.set_default_timeout(20_000)
    ctx.add_init_script(
        f"localStorage.setItem('rummikub.seat.{code}', "
        f"JSON.stringify({{seat: 0, token: {json.dumps(token)}}}));"
        "localStorage.setItem('rummikub.lang', 'sv');"
    )
    page = ctx.new_page()
    page.errors = []
    page.frames_in = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: page.frames_in.append(f)))
    page.goto(f"{server.base}/r/{code}")
    return page


def _english_texts(frames: list[Any]) -> set[str]:
    """The English the server sent next to its codes: error messages, refused melds and plays."""
    out: set[str] = set()
    for frame in frames:
        msg = json.loads(frame if isinstance(frame, str) else frame.decode())
        if msg.get("type") == "error":
            out.add(msg["message"])
        if msg.get("type") == "checked":
            out |= {m["reason"] for m in msg["melds"] if not m["ok"]}
            if msg.get("play") and not msg["play"]["ok"]:
                out.add(msg["play"]["message"])
    return out


def test_a_swedish_page_shows_the_servers_refusals_in_swedish(
    browser: Any, sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(sqlite_server.ws_url)
    clients.append(c)
    joined = create_vs_bots(c, bots=1, rules="casual", bot_delay=0.05)
    page = _swedish_page(browser, sqlite_server, joined["room"], joined["token"])
    page.wait_for_selector("#btn-draw:not([disabled])", timeout=60_000)
    assert page.evaluate("() => document.documentElement.lang") == "sv"
    # one rack tile alone on the table: the server's check refuses the meld and the play
    tile = page.locator(".rack .tile").first.get_attribute("data-tile")
    page.locator(".rack .tile").first.click()
    page.locator(".new-meld").click()
    page.wait_for_selector(".meld.invalid .tile")
    page.wait_for_selector(".meld-reason")
    sv = translator("sv")
    expected = sv.coded("invalid-meld", {"meld": tile, "why": "meld-too-short", "count": 1})
    assert expected.startswith(f"{tile} är ingen giltig kombination: en kombination behöver")
    assert page.locator(".meld-reason").first.inner_text() == expected
    page.wait_for_selector(".status-line .bad")
    assert page.locator(".status-line .bad").inner_text() == expected
    english = _english_texts(page.frames_in)
    assert english, "the server sent no refusal"
    shown = page.inner_text("body")
    assert not [text for text in english if text in shown]
    assert not page.errors
    page.context.close()


def test_an_error_reply_is_shown_in_swedish(
    browser: Any, sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(sqlite_server.ws_url)
    clients.append(c)
    joined = create_vs_bots(c, bots=1, rules="casual", bot_delay=0.05)
    # a seat saved with a key that does not hold it: the server refuses ("bad-token")
    page = _swedish_page(browser, sqlite_server, joined["room"], "not-the-token-0000")
    page.wait_for_selector("#toast.error:not([hidden])")
    assert page.locator("#toast").inner_text() == translator("sv").coded("bad-token")
    assert page.locator("#toast").inner_text() == "Den nyckeln ger ingen plats här."
    english = _english_texts(page.frames_in)
    assert "that token does not hold a seat here" in english
    assert not [text for text in english if text in page.inner_text("body")]
    # the catalogue's plural rules run in the browser too (Intl.PluralRules)
    forms = page.evaluate(
        "async () => { const i18n = await import('/static/js/i18n.js');"
        " return [0, 1, 2].map((n) => i18n.t('game.play_ok', { n })); }"
    )
    assert forms == [
        "Klart: avsluta turen för att lägga 0 brickor.",
        "Klart: avsluta turen för att lägga 1 bricka.",
        "Klart: avsluta turen för att lägga 2 brickor.",
    ]
    assert not page.errors
    page.context.close()
