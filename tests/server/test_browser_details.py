"""Details of the web client: the replay's buttons are drawn icons (no font needed), its jokers
say what they stand for, bots are named alike in the game and the replay, the lobby's felt
has no seam when the page scrolls, and an address with no page shows a page of the site in the
visitor's language with a way back. At desktop and phone sizes, on a seeded deal."""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .helpers import Client, ServerProcess, draw_until_round_over

SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True},
}
ARTIFACTS = Path(os.environ.get("RUMMIKUB_ARTIFACTS", "/tmp/rummikub-browser"))
ARTIFACTS.mkdir(parents=True, exist_ok=True)


def _in_the_lobby(browser: Any, server: ServerProcess, script: str) -> Any:
    """What ``script`` (a JavaScript function) gives in the lobby page of ``server`` (the
    client's modules are imported from there)."""
    ctx = _context(browser, "desktop")
    page = ctx.new_page()
    page.goto(f"{server.base}/")
    page.wait_for_selector("#play-bots")
    try:
        return page.evaluate(script)
    finally:
        ctx.close()


def _context(browser: Any, size: str) -> Any:
    ctx = browser.new_context(locale="en-GB", **SIZES[size])
    ctx.set_default_timeout(20_000)
    ctx.add_init_script("localStorage.setItem('rummikub.lang', 'en');")
    return ctx


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_replay_draws_its_buttons_names_bots_and_shows_joker_roles(
    browser: Any, seeded_server: ServerProcess, clients: list[Client], size: str
) -> None:
    c = Client(seeded_server.ws_url)
    clients.append(c)
    bots = [{"kind": "bot", "level": level} for level in ("greedy", "beginner", "strategic")]
    joined = c.request(
        type="create",
        name="Annabel",
        rules={"preset": "standard", "rack_size": 6, "opening_value": 10},
        seats=[{"kind": "human"}, *bots],
        settings={"bot_delay": 0},
    )
    code = joined["room"]
    ctx = _context(browser, size)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{seeded_server.base}/r/{code}?watch=1")
    page.wait_for_selector(".players .player")
    in_game = page.locator(".pname").all_inner_texts()
    assert in_game[1:] == ["Greedy bot 2", "Beginner bot 3", "Strategic bot 4"]
    draw_until_round_over(c, timeout=120)
    with urllib.request.urlopen(f"{seeded_server.base}/api/rooms/{code}/record") as r:
        record = json.loads(r.read())
    # the first position with a joker on the table (the deal is position 0)
    turns = record["rounds"][0]["turns"]
    step = next(
        i + 1
        for i, turn in enumerate(turns)
        if turn["action"] == "play" and any("J" in meld for meld in turn["table"])
    )
    page.goto(f"{seeded_server.base}/replay/{code}")
    page.wait_for_selector("#replay-next")
    # the buttons: drawn icons with names, no text a font must have
    for button in ("#replay-first", "#replay-prev", "#replay-next", "#replay-last"):
        assert page.locator(f"{button} svg").count() == 1
        assert page.locator(button).inner_text().strip() == ""
        assert page.get_attribute(button, "aria-label")
    head = page.locator(".replay-head").inner_text()
    assert "Greedy bot 2" in head and "Strategic bot 4" in head and "greedy 2" not in head
    page.locator("#replay-slider").evaluate(
        f"s => {{ s.value = '{step}'; s.dispatchEvent(new Event('input')); }}"
    )
    page.wait_for_selector(".replay-table .joker")
    roles = page.locator(".replay-table .joker .role").all_inner_texts()
    assert len(roles) == page.locator(".replay-table .joker").count()
    assert all(role.startswith("=") and len(role) > 1 for role in roles), roles
    page.screenshot(path=str(ARTIFACTS / f"replay-{size}.png"))
    assert not errors, errors
    ctx.close()


def test_jokers_are_read_as_the_tile_they_stand_for(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    ctx = _context(browser, "desktop")
    page = ctx.new_page()
    page.goto(sqlite_server.base + "/")
    page.wait_for_selector("#player-name")
    read = page.evaluate(
        """async () => {
          const { withRoles } = await import('/static/js/pieces.js');
          return [['R4', 'J', 'R6'], ['R5', 'J', 'J'], ['K7', 'B7', 'J'], ['R12', 'R13', 'J'],
                  ['R4', 'R6', 'J'], ['R1', 'K2', 'J']].map((m) => withRoles(m).join(' '));
        }"""
    )
    assert read == [
        "R4 J=R5 R6",
        "R5 J=R6 J=R7",
        "K7 B7 J=7",
        "R12 R13 J=R11",
        "R4 R6 J=R5",
        "R1 K2 J",
    ]
    ctx.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_lobby_felt_does_not_end_at_the_window(
    browser: Any, sqlite_server: ServerProcess, size: str
) -> None:
    """The felt is drawn for the window and stays while the page scrolls, over a dark page:
    scrolled to its end, the page shows the felt's top edge nowhere."""
    ctx = _context(browser, size)
    page = ctx.new_page()
    page.goto(sqlite_server.base + "/")
    page.wait_for_selector("#player-name")
    assert page.evaluate("() => document.documentElement.scrollHeight > window.innerHeight")
    style = page.evaluate(
        "() => { const b = getComputedStyle(document.body);"
        " const h = getComputedStyle(document.documentElement);"
        " return [b.backgroundAttachment, h.backgroundColor]; }"
    )
    assert style == ["fixed", "rgb(18, 68, 48)"]
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.screenshot(path=str(ARTIFACTS / f"lobby-scrolled-{size}.png"))
    ctx.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_rooms_rules_are_one_click_away_in_both_languages(
    browser: Any, sqlite_server: ServerProcess, clients: list[Client], size: str
) -> None:
    c = Client(sqlite_server.ws_url)
    clients.append(c)
    rules = {"preset": "tournament", "turn_seconds": 90, "match": {"rounds": 3, "target": None}}
    code = c.request(
        type="create", name="Ann", rules=rules, seats=[{"kind": "human"}, {"kind": "human"}]
    )["room"]
    ctx = _context(browser, size)
    page = ctx.new_page()
    page.goto(f"{sqlite_server.base}/r/{code}?watch=1")
    # in the waiting room
    page.click("#waiting-rules summary")
    text = page.locator("#waiting-rules").inner_text()
    assert "How to play" in text and "90 seconds a turn" in text
    assert "The match is 3 rounds." in text
    # and in the game, a tab of the side panel
    bea = Client(sqlite_server.ws_url)
    clients.append(bea)
    assert bea.request(type="join", room=code, name="Bea")["type"] == "joined"
    page.wait_for_selector(".tab[data-tab='rules']")
    page.click(".tab[data-tab='rules']")
    pane = page.locator("#rules-pane")
    pane.wait_for()
    opening = sqlite_server.get("/api/info")[1]["presets"]["tournament"]["opening_value"]
    assert f"at least {opening} points" in pane.inner_text()
    assert "This room: Tournament" in pane.inner_text()
    page.select_option("#lang-select", "sv")
    page.wait_for_selector("#rules-pane:has-text('Så spelar du')")
    assert f"minst {opening} poäng" in pane.inner_text()
    assert "90 sekunder per tur" in pane.inner_text()
    page.screenshot(path=str(ARTIFACTS / f"rules-{size}.png"))
    ctx.close()


def test_the_replay_says_a_better_throw_by_the_win_chance_it_lost(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    """An Xpress turn's throw, as the web replay reads it from the analysis: the better dice to
    keep are named when the choice gave away more win chance than the best choice may (the
    verdicts' 2 points), by that loss; never for the best choice, nor for a small loss."""
    said = _in_the_lobby(
        browser,
        sqlite_server,
        """async () => {
          const { betterThrowText } = await import("/static/js/review.js");
          const turn = (kept, best, loss) => ({ throw: { kept, best_kept: best,
            win_chance: { before: 0.5, after: 0.5 - loss / 100 }, loss, expected: 9,
            best_expected: 11, lost: 2 } });
          return [
            betterThrowText(turn(["R4"], ["R4", "K9"], 6.25)),
            betterThrowText(turn([], [], 0)),
            betterThrowText(turn(["R4"], ["K9"], 1.5)),
            betterThrowText(turn(["R4"], [], 3)),
            betterThrowText({ throw: { kept: ["R4"], best_kept: ["K9"], expected: 9,
              best_expected: 11, lost: 2 } }),
          ];
        }""",
    )
    assert said == [
        "Better to keep R4 K9 and throw the rest (6.3 points of win chance)",
        None,
        None,
        "Better to keep nothing and throw the rest (3.0 points of win chance)",
        "Better to keep K9 and throw the rest (about 2 points more expected)",
    ]


def test_a_hint_to_draw_says_whether_tiles_would_fit(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    """The tile game's hint to draw, as the page words the server's answer: keeping the tiles
    is the better move when some would fit (``placeable``), nothing fits otherwise."""
    said = _in_the_lobby(
        browser,
        sqlite_server,
        """async () => {
          const { tilesGame } = await import("/static/js/game_tiles.js");
          return [
            tilesGame.hintText({ tiles: [], table: null, placeable: 3 }),
            tilesGame.hintText({ tiles: [], table: null, placeable: 1 }),
            tilesGame.hintText({ tiles: [], table: null, placeable: 0 }),
            tilesGame.hintText({ tiles: ["R4"], table: [["R1", "R2", "R3", "R4"]] }),
          ];
        }""",
    )
    assert said == [
        "Hint: you could place 3 tiles, but keeping them and drawing a tile is the better move "
        "now.",
        "Hint: you could place 1 tile, but keeping it and drawing a tile is the better move now.",
        "Hint: no play is possible — draw a tile.",
        "Hint: play R4",
    ]


@pytest.mark.parametrize(("lang", "title"), [("en", "Page not found"), ("sv", "Sidan finns inte")])
def test_an_unknown_address_shows_a_page_of_the_site_with_a_way_back(
    browser: Any, shared_server: ServerProcess, lang: str, title: str
) -> None:
    """Not raw JSON: the site's page (its top bar, the language switch) saying in the visitor's
    language that there is nothing here, with a link back to the lobby; a 404 all the same.
    The API keeps answering JSON."""
    ctx = browser.new_context(locale="en-GB", **SIZES["phone"])
    ctx.set_default_timeout(20_000)
    ctx.add_init_script(f"localStorage.setItem('rummikub.lang', '{lang}');")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        for path in ("/no/such/page", "/r/ABC123/more", "/players/"):
            answer = page.goto(shared_server.base + path)
            assert answer.status == 404, path
            assert answer.headers["content-type"].startswith("text/html"), path
            page.wait_for_selector("#not-found")
            assert page.inner_text("#not-found h1") == title
            assert page.locator("#lang-select").is_visible()
            assert page.locator("#nav-assistant").is_visible()
            assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        page.click("#not-found-back")
        page.wait_for_selector("#room-preset option", state="attached")
        assert page.url == shared_server.base + "/"
        assert page.locator("#not-found").count() == 0
        api = page.goto(shared_server.base + "/api/nothing")
        assert api.status == 404 and api.headers["content-type"] == "application/json"
        assert not errors, errors
    finally:
        ctx.close()
