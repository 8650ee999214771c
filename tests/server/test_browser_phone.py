"""The game on a phone (390×844, touch): the player bar and the score table of four players fit
the width, the connection line stays one line beside the language switch, the clock's text
fits its ring, a tile held at the table's edge scrolls the table, "+ new set" stays in view,
"Copy link" has a fallback where the Clipboard API is refused, and no page is wider than the
phone in any language the page offers."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from rummikub.i18n import LANGUAGES

from .helpers import Client, ServerProcess, create_vs_bots, draw_until_round_over

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True}
ARTIFACTS = Path(os.environ.get("RUMMIKUB_ARTIFACTS", "/tmp/rummikub-browser"))
ARTIFACTS.mkdir(parents=True, exist_ok=True)

# how far an element reaches past the window's right edge (0: it fits)
PAST_RIGHT = "e => Math.max(0, e.getBoundingClientRect().right - window.innerWidth)"


def _page(
    browser: Any, server: ServerProcess, joined: dict[str, Any] | None = None, **kw: Any
) -> Any:
    ctx = browser.new_context(locale="en-GB", **PHONE, **kw)
    ctx.set_default_timeout(20_000)
    ctx.add_init_script("localStorage.setItem('rummikub.lang', 'en');")
    if joined is not None:
        code, seat, token = joined["room"], joined["seat"], joined["token"]
        ctx.add_init_script(
            f"localStorage.setItem('rummikub.seat.{code}', "
            f"JSON.stringify({{seat: {seat}, token: '{token}'}}));"
        )
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    if joined is not None:
        page.goto(f"{server.base}/r/{joined['room']}")
        page.wait_for_selector(".rack .tile")
    return page


def _four_players(c: Client, **rules: Any) -> dict[str, Any]:
    bots = [{"kind": "bot", "level": level} for level in ("greedy", "beginner", "strategic")]
    joined = c.request(
        type="create",
        name="Annabel",
        rules={"preset": "standard", **rules},
        seats=[{"kind": "human"}, *bots],
        settings={"bot_delay": 0},
    )
    assert joined["type"] == "joined", joined
    return joined


def test_four_players_and_their_scores_fit_a_phone(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(seeded_server.ws_url)
    clients.append(c)
    joined = _four_players(c, rack_size=6, opening_value=10)
    page = _page(browser, seeded_server, joined)
    page.wait_for_function("() => document.querySelector('.turn-clock').textContent !== ''")
    page.screenshot(path=str(ARTIFACTS / "phone-players.png"))
    bar = page.locator(".players")
    assert bar.evaluate("b => b.scrollWidth <= b.clientWidth")
    for part in (".player", ".pool", "#btn-sound"):
        for i in range(page.locator(f".players {part}").count()):
            assert page.locator(f".players {part}").nth(i).evaluate(PAST_RIGHT) == 0, part
    # every name whole (none cut with an ellipsis)
    names = page.locator(".pname")
    for i in range(names.count()):
        assert names.nth(i).evaluate("n => n.scrollWidth <= n.clientWidth"), names.nth(
            i
        ).inner_text()
    # the turn clock is on the chip of the player to play, once, and its time fits it
    clock = page.locator(".players .player.current .turn-clock")
    assert page.locator(".turn-clock").count() == 1 and clock.count() == 1
    assert clock.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert clock.evaluate(PAST_RIGHT) == 0
    assert page.locator(".controls .turn-clock, .controls .clock").count() == 0
    # the round ends (the bots go out): the score table fits the card
    draw_until_round_over(c, timeout=120)
    card = page.locator(".overlay .score-card")
    card.wait_for()
    assert card.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert page.locator("table.scores").evaluate(PAST_RIGHT) == 0
    cells = page.locator("table.scores tr.totals td")
    assert cells.count() == 5
    for i in range(5):
        assert cells.nth(i).evaluate(PAST_RIGHT) == 0
    page.screenshot(path=str(ARTIFACTS / "phone-scores.png"))
    assert not page.errors, page.errors
    page.context.close()


#: the pages a visitor reaches without a room, and what each shows once it is drawn
PAGES = {
    "/": "#room-preset option",
    "/assistant": "#assist-preset option",
    "/account": "#login-form",
    "/leaderboard": ".leaderboard-card",
    "/?tutorial=1": "#tutorial-reset",
}
# the elements of the page that reach past the window's right edge
TOO_WIDE = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getClientRects().length && e.getBoundingClientRect().right > innerWidth + 0.5)
  .map(e => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`)"""


def test_no_page_is_wider_than_a_phone(browser: Any, shared_server: ServerProcess) -> None:
    """At 390 px no page scrolls sideways: the rules menus are as wide as their longest preset
    only where there is room. Every folded part is opened. In English here; every other
    language of the menu is checked the same way, with the game's page too, by
    ``test_browser_i18n.py::test_every_page_speaks_the_language_and_fits_the_screen`` (one
    language list: ``rummikub.i18n.LANGUAGES``)."""
    errors: list[str] = []
    page = _page(browser, shared_server)
    page.on("pageerror", lambda e: errors.append(str(e)))
    languages = page.locator("#lang-select option")
    for path, ready in PAGES.items():
        page.goto(shared_server.base + path)
        page.wait_for_selector(ready, state="attached")
        page.wait_for_function("() => document.documentElement.lang === 'en'")
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, (path, width, page.evaluate(TOO_WIDE))
    menu = languages.evaluate_all("os => os.map(o => o.value)")
    assert menu == list(LANGUAGES)  # the languages the other test goes through
    page.context.close()
    assert not errors, errors


def test_the_connection_line_is_one_line_beside_the_language_switch(
    browser: Any, sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(sqlite_server.ws_url)
    clients.append(c)
    joined = _four_players(c)
    page = _page(browser, sqlite_server, joined)
    sqlite_server.kill()
    status = page.locator("#conn-status")
    page.wait_for_selector("#conn-status.closed")
    height = status.evaluate("s => s.getBoundingClientRect().height")
    line = status.evaluate("s => parseFloat(getComputedStyle(s).lineHeight) || 20")
    assert height < 2 * line, height
    assert page.locator("#lang-select").evaluate(PAST_RIGHT) == 0
    assert page.locator(".topbar").evaluate("b => b.scrollWidth <= b.clientWidth")
    assert status.inner_text() == "Reconnecting…"
    assert status.get_attribute("title") == "Connection lost — reconnecting…"
    page.screenshot(path=str(ARTIFACTS / "phone-connection-lost.png"))
    page.context.close()


def test_a_tile_held_at_the_edge_scrolls_a_crowded_table(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(seeded_server.ws_url)
    clients.append(c)
    joined = create_vs_bots(c, bots=1)
    page = _page(browser, seeded_server, joined)
    page.wait_for_selector("#btn-draw:not([disabled])")
    area = page.locator(".table-area")
    for mine in range(1, 11):  # ten lone tiles, each an invalid set with its reason under it
        page.locator(".rack .tile").first.tap()
        page.locator(".new-meld").tap()
        page.wait_for_function(f"() => document.querySelectorAll('.meld.invalid').length >= {mine}")
    assert area.evaluate("a => a.scrollHeight - a.clientHeight") > 100
    area.evaluate("a => { a.scrollTop = 0; }")
    # "+ new set" (after the last set) is in view all the same
    inside = (
        "e => { const a = document.querySelector('.table-area').getBoundingClientRect();"
        " const r = e.getBoundingClientRect(); return r.top >= a.top && r.bottom <= a.bottom; }"
    )
    assert page.locator(".new-meld").evaluate(inside)
    # a tile held near the table's bottom edge scrolls it down, at its top edge back up
    tile = page.locator(".rack .tile").first.bounding_box()
    box = area.bounding_box()
    page.mouse.move(tile["x"] + tile["width"] / 2, tile["y"] + tile["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] - 40, steps=5)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] - 12, steps=3)
    page.wait_for_function("() => document.querySelector('.table-area').scrollTop > 60")
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 8, steps=4)
    page.wait_for_function("() => document.querySelector('.table-area').scrollTop === 0")
    page.mouse.up()
    assert not page.errors, page.errors
    page.context.close()


def _waiting_room(browser: Any, server: ServerProcess, init: str) -> Any:
    page = _page(browser, server)
    page.context.add_init_script(init)
    page.goto(server.base + "/")
    page.fill("#player-name", "Ann")
    page.select_option("#room-players", "2")
    page.click("#create-room")
    page.wait_for_selector("#invite-link")
    return page


REFUSED = """
Object.defineProperty(Navigator.prototype, 'clipboard', { configurable: true, get: () => ({
  writeText: () => Promise.reject(new DOMException('refused', 'NotAllowedError')) }) });
"""


def test_copy_link_selects_the_link_when_the_clipboard_is_refused(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    page = _waiting_room(browser, sqlite_server, REFUSED + "delete Navigator.prototype.share;")
    link = page.locator("#invite-link").input_value()
    page.tap("#copy-link")
    page.wait_for_function("() => document.activeElement.id === 'invite-link'")
    selected = page.evaluate(
        "() => { const f = document.activeElement;"
        " return f.value.slice(f.selectionStart, f.selectionEnd); }"
    )
    assert selected == link
    assert "selected" in page.locator("#toast").inner_text()
    page.context.close()


def test_copy_link_offers_the_share_sheet_when_there_is_one(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    shared = (
        "window.__shared = [];"
        " navigator.share = (d) => { window.__shared.push(d.url); return Promise.resolve(); };"
    )
    page = _waiting_room(browser, sqlite_server, REFUSED + shared)
    link = page.locator("#invite-link").input_value()
    page.tap("#copy-link")
    page.wait_for_function("() => window.__shared.length === 1")
    assert page.evaluate("() => window.__shared") == [link]
    page.context.close()
