"""Browser tests of the languages: a Swedish page words every refusal from the message
catalogue (by its code and params), never with the server's English; every language shows the
lobby, a game and its rules, the tutorial, the assistant, the account and leaderboard pages
with no English left and no page wider than a phone or a laptop; Hebrew is laid out right to
left with its tiles still reading left to right; the page's language comes from the browser
(``Accept-Language``, ``navigator.languages``) or ``?lang=``. One server for the module."""

from __future__ import annotations

import html as html_module
import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest

from rummikub.core.rules import PRESETS
from rummikub.i18n import LANGUAGES, catalogue, direction, language_names, translator
from rummikub.i18n.check import same_as_english
from rummikub.i18n.presets import preset_label

from .browser_helpers import build_melds
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
    browser: Any, shared_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(shared_server.ws_url)
    clients.append(c)
    joined = create_vs_bots(c, bots=1, rules="casual", bot_delay=0.05)
    page = _swedish_page(browser, shared_server, joined["room"], joined["token"])
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
    browser: Any, shared_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(shared_server.ws_url)
    clients.append(c)
    joined = create_vs_bots(c, bots=1, rules="casual", bot_delay=0.05)
    # a seat saved with a key that does not hold it: the server refuses ("bad-token")
    page = _swedish_page(browser, shared_server, joined["room"], "not-the-token-0000")
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


SIZES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True},
    "laptop": {"viewport": {"width": 1280, "height": 800}},
}
#: every page a person reads, and what shows it is drawn ({room}: a game against bots)
PAGES = {
    "/": "#room-preset option",
    "/r/{room}": ".rack .tile",
    "/?tutorial=1": "#tutorial-reset",
    "/assistant": "#assist-preset option",
    "/account": "#login-form",
    "/leaderboard": "#leaderboard-empty, table.leaderboard",
}
# the x of each tile of a row, in the row's order
TILE_XS = "row => [...row.querySelectorAll('.tile')].map(t => t.getBoundingClientRect().x)"
# the x and y of each tile of the rack (a row that may wrap onto more lines), read in one call:
# the bots' moves render the game again, and a rack found in one call and measured in another
# can be gone by then (every tile at 0, 0)
TILE_XYS = """() => [...document.querySelectorAll('#own-rack .tile')].map(t => {
  const r = t.getBoundingClientRect(); return [r.x, r.y]; })"""


def reads_left_to_right(places: list[list[float]]) -> bool:
    """Each tile right of the one before it on its line, or on a line below (a wrapped row)."""
    return all(
        (y2 > y1 + 1) or (abs(y2 - y1) <= 1 and x2 > x1) for (x1, y1), (x2, y2) in pairwise(places)
    )


@pytest.fixture(scope="module")
def room(shared_server: ServerProcess) -> Iterator[dict[str, Any]]:
    """A game against two bots, without a clock, the person to play (it waits for him). His
    grace period is the longest there is: however slow the machine, no stand-in plays for him
    while the pages of every language are visited (the rack must stay as dealt)."""
    c = Client(shared_server.ws_url)
    try:
        yield create_vs_bots(c, bots=2, rules="casual", grace_seconds=3600)
    finally:
        c.close()


def english_left(lang: str) -> set[str]:
    """The English of the catalogue a page in ``lang`` must not show: each English message's
    text between its placeholders, where the language says it otherwise (a text the language
    writes as English does, such as "Joker", is no finding) and no text of the language holds
    it, nor is it a shared word such as the game's name (``Rummikub``); at least two words, or
    one of five letters or more."""
    english, ours = catalogue("en"), catalogue(lang)
    everything = "\n".join(ours.values())
    out: set[str] = set()
    for key, text in english.items():
        if ours.get(key.partition("#")[0]) == english.get(key.partition("#")[0]):
            continue
        for part in re.split(r"\{\w+\}", text):
            part = part.strip(" \n·:;,.()[]–—-|/+↩…!?“”'\"")
            words = re.findall(r"[A-Za-z]+", part)
            long_enough = len(words) >= 2 or (words and len(words[0]) >= 5)
            if long_enough and part not in everything and not same_as_english(lang, part):
                out.add(part)
    return out


def _shown_text(page: Any) -> str:
    """What a person reads on the page: its text, the hints of its fields, its buttons'
    labels."""
    return str(
        page.evaluate(
            """() => {
              const texts = [document.body.innerText, document.title];
              for (const e of document.querySelectorAll('[placeholder]')) texts.push(e.placeholder);
              for (const e of document.querySelectorAll('[title], [aria-label]'))
                texts.push(e.title || '', e.getAttribute('aria-label') || '');
              return texts.join('\\n');
            }"""
        )
    )


def _found(fragments: set[str], text: str) -> list[str]:
    return sorted(f for f in fragments if re.search(rf"(?<!\w){re.escape(f)}(?!\w)", text))


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_page_speaks_the_language_and_fits_the_screen(
    browser: Any, shared_server: ServerProcess, room: dict[str, Any], lang: str
) -> None:
    """Each page in ``lang`` at 390×844 and 1280×800: the page's language and direction, no
    English of the catalogue on it (the game with its rules open), nothing wider than the
    window, the presets labelled from their rules, and the tiles of a row left to right."""
    english = english_left(lang)
    assert len(english) > 300, "the English to look for"
    t = translator(lang)
    seat = json.dumps({"seat": room["seat"], "token": room["token"]})
    errors: list[str] = []
    for size, options in SIZES.items():
        width = options["viewport"]["width"]
        ctx = browser.new_context(locale="en-GB", **options)
        ctx.set_default_timeout(20_000)
        ctx.add_init_script(f"localStorage.setItem('rummikub.seat.{room['room']}', {seat!r});")
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        for path, ready in PAGES.items():
            address = path.format(room=room["room"])
            joint = "&" if "?" in address else "?"
            page.goto(f"{shared_server.base}{address}{joint}lang={lang}")
            page.wait_for_selector(ready, state="attached")
            page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
            assert page.evaluate("() => document.documentElement.dir") == direction(lang)
            if path == "/r/{room}":
                page.locator('.tab[data-tab="rules"]').click()
                page.wait_for_selector(".rules-view")
                rack = page.locator("#own-rack")
                assert rack.get_attribute("dir") == "ltr"
                places = page.evaluate(TILE_XYS)
                assert len(places) == 14 and reads_left_to_right(places), (lang, size, places)
            if path == "/":
                labels = page.locator("#room-preset option").all_inner_texts()
                assert labels == [preset_label(t, name) for name in PRESETS], (lang, labels)
            page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
            shown = _shown_text(page)
            assert _found(english, shown) == [], (lang, size, address)
            scroll = page.evaluate("() => document.documentElement.scrollWidth")
            assert scroll <= width, (lang, size, address, scroll)
        ctx.close()
    assert not errors, errors


def test_hebrew_is_right_to_left_and_a_run_still_ascends_left_to_right(
    browser: Any, shared_server: ServerProcess
) -> None:
    """In Hebrew the page is mirrored (the brand at the right, the language menu at the left)
    while a run laid on the table reads R3 R4 R5 from left to right, as printed."""
    ctx = browser.new_context(locale="he-IL", viewport={"width": 1280, "height": 800})
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    page.goto(shared_server.base + "/?tutorial=1")
    page.wait_for_selector("#tutorial-reset")
    assert page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]") == [
        "he",
        "rtl",
    ]
    brand = page.locator(".brand").bounding_box()
    menu = page.locator("#lang-select").bounding_box()
    assert brand is not None and menu is not None
    assert brand["x"] > menu["x"], "the brand is at the right of a right-to-left page"
    assert page.locator(".tutorial-text").evaluate("e => getComputedStyle(e).direction") == "rtl"
    tile = '.rack .tile[data-tile="{}"]'
    run = [page.locator(tile.format(face)).bounding_box() for face in ("R3", "R4", "R5")]
    assert all(box is not None for box in run)
    xs = [box["x"] for box in run if box is not None]
    assert xs == sorted(xs), xs
    build_melds(page, [["R3", "R4", "R5"]], tile, ".rack .tile")
    meld = page.locator(".meld").first
    assert meld.get_attribute("dir") == "ltr"
    faces = meld.evaluate("m => [...m.querySelectorAll('.tile')].map(t => t.dataset.tile)")
    assert faces == ["R3", "R4", "R5"]
    xs = meld.evaluate(TILE_XS)
    assert xs == sorted(xs) and xs[0] < xs[-1], xs
    page.wait_for_selector('.tutorial[data-done="1"]')
    ctx.close()


def test_the_browsers_languages_choose_the_page_and_the_menu_changes_it(
    browser: Any, shared_server: ServerProcess
) -> None:
    """A browser set to German gets German (navigator.languages) with nothing chosen before;
    the menu lists every language in itself, and choosing Hebrew turns the page right to left
    at once and is kept."""
    ctx = browser.new_context(locale="de-DE", viewport={"width": 1280, "height": 800})
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    page.goto(shared_server.base + "/leaderboard")
    page.wait_for_selector("#leaderboard-empty, table.leaderboard")
    assert page.evaluate("() => document.documentElement.lang") == "de"
    assert page.locator(".leaderboard-card h2").first.inner_text() == translator("de")(
        "leaderboard.title"
    )
    menu = page.locator("#lang-select option")
    assert menu.evaluate_all("os => os.map(o => [o.value, o.textContent])") == [
        [code, name] for code, name in language_names().items()
    ]
    page.select_option("#lang-select", "he")
    page.wait_for_function("() => document.documentElement.dir === 'rtl'")
    assert page.locator(".leaderboard-card h2").first.inner_text() == translator("he")(
        "leaderboard.title"
    )
    page.reload()
    page.wait_for_function("() => document.documentElement.lang === 'he'")
    page.select_option("#lang-select", "de")
    page.wait_for_function("() => document.documentElement.dir === 'ltr'")
    ctx.close()


def _get(url: str, accept_language: str) -> tuple[int, str, str]:
    request = urllib.request.Request(
        url, headers={"Accept": "text/html", "Accept-Language": accept_language}
    )
    try:
        with urllib.request.urlopen(request) as reply:
            return reply.status, reply.headers.get("Vary", ""), reply.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.headers.get("Vary", ""), err.read().decode()


def test_the_server_serves_the_page_in_the_browsers_language(
    shared_server: ServerProcess,
) -> None:
    """The first page (and the page of an address that has none) carries the language of
    ``Accept-Language`` (or ``?lang=``) and its direction, and the list of languages."""
    status, vary, html = _get(shared_server.base + "/", "he-IL,he;q=0.9,en;q=0.5")
    assert status == 200 and "Accept-Language" in vary
    head = re.search(r"<html [^>]*>", html)
    assert head is not None
    assert 'lang="he"' in head.group(0) and 'dir="rtl"' in head.group(0)
    listed = re.search(r'data-languages="([^"]*)"', head.group(0))
    assert listed is not None
    languages = json.loads(html_module.unescape(listed.group(1)))
    assert [x["code"] for x in languages] == list(LANGUAGES)
    assert {x["code"]: x["dir"] for x in languages}["he"] == "rtl"
    status, _, html = _get(shared_server.base + "/account?lang=de", "he")
    assert status == 200 and '<html lang="de" dir="ltr"' in html
    status, vary, html = _get(shared_server.base + "/no/such/page", "fr-CH, de;q=0.9")
    assert status == 404 and "Accept-Language" in vary
    assert '<html lang="fr" dir="ltr"' in html and 'data-missing="1"' in html
    status, _, html = _get(shared_server.base + "/", "ja")
    assert '<html lang="en" dir="ltr"' in html
