"""Xpress in the browser: Playwright driving the system Chromium against a real server."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from rummikub.core import Table, parse_tile, parse_tiles
from rummikub.xpress import best_placement

from .browser_helpers import build_melds, english_context, open_page
from .helpers import Client, ServerProcess


def _page(browser: Any, url: str, init: str = "", **kw: Any) -> Any:
    return open_page(english_context(browser, timeout=20_000, init=init, **kw), url)


def _faces(page: Any, selector: str) -> list[str]:
    faces: list[str] = page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.face)")
    return faces


def _seq(page: Any) -> str:
    seq: str = page.get_attribute(".game", "data-seq")
    return seq


def _wait_change(page: Any, seq: str) -> None:
    page.wait_for_function(
        "(s) => !!document.querySelector('.overlay .score-card') || "
        "(document.querySelector('.game') && document.querySelector('.game').dataset.seq != s)",
        arg=seq,
        timeout=60_000,
    )


def _place_new_sets(page: Any, melds: list[list[str]]) -> None:
    """Build each set on the table by dragging its dice from the tray onto + new set."""
    build_melds(page, melds, '.dice-tray.rack .die[data-face="{}"]', ".dice-tray.rack .die")


# keeps every line the *Last move* button says (its tooltip), as the page shows them
WATCH_LAST_MOVE = """window.lastMoves = [];
new MutationObserver(() => {
  const b = document.getElementById('btn-last-move');
  if (b && b.title && window.lastMoves[window.lastMoves.length - 1] !== b.title)
    window.lastMoves.push(b.title);
}).observe(document, {subtree: true, childList: true, attributes: true,
             attributeFilter: ['title']});
"""


def _play_one_round(
    browser: Any, server: ServerProcess, c: Client, lang: str = "en"
) -> tuple[Any, dict[str, int], list[str]]:
    """A person plays a one-round Xpress game in the page (in ``lang``) against greedy; the
    page at the score card, what the person did, and the lines saying what the bot's moves did
    (the *Last move* button's, each time it says something new)."""
    joined = c.request(
        type="create",
        name="Ann",
        game="xpress",
        rules={"rounds": 1},
        seats=[{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
        settings={"bot_delay": 0.05},
    )
    code, token = joined["room"], joined["token"]
    seat = json.dumps({"seat": 0, "token": token})
    page = _page(
        browser,
        f"{server.base}/r/{code}",
        f"localStorage.setItem('rummikub.seat.{code}', {json.dumps(seat)});"
        f"localStorage.setItem('rummikub.lang', '{lang}');" + WATCH_LAST_MOVE,
        reduced_motion="reduce",
    )
    page.wait_for_selector(".dice-tray.rack .die")
    # all 18 dice are shown: yours, the other player's (he may have moved already), the table's
    shown = page.evaluate(
        "['.dice-tray.rack .die', '.dice-tray.other-tray .die', '.meld .die']"
        ".map(s => document.querySelectorAll(s).length)"
    )
    assert shown[0] + shown[1] + shown[2] == 18 and shown[0] >= 6, shown
    counts = {"throw": 0, "drag": 0, "hint": 0}
    for _ in range(200):
        page.wait_for_selector(".dice-tray.rack.active, .overlay .score-card", timeout=60_000)
        if page.locator(".overlay .score-card").count():
            return page, counts, page.evaluate("() => window.lastMoves")
        seq = _seq(page)
        if page.locator("#btn-throw:not([disabled])").count():
            # select two dice to throw again (tap them), and throw
            dice = page.locator(".dice-tray.rack .die")
            if dice.count() > 2:
                dice.nth(0).click()
                dice.nth(1).click()
                page.wait_for_selector(".dice-tray.rack .die.to-throw >> nth=1")
                assert "2" in page.inner_text("#btn-throw")
            page.click("#btn-throw")
            counts["throw"] += 1
        elif page.locator("#btn-end:not([disabled])").count():
            page.click("#btn-end")
        else:  # a placement is possible and required
            hand = _faces(page, ".dice-tray.rack .die")
            own = best_placement(Table(), [parse_tile(f) for f in hand])
            if own.count:
                _place_new_sets(page, [[str(t) for t in m.tiles] for m in own.table.melds])
                counts["drag"] += 1
            else:  # the dice only fit with the table's sets: let the hint lay them out
                page.click("#btn-hint")
                page.click("#btn-apply-hint")
                counts["hint"] += 1
            page.wait_for_selector("#btn-end:not([disabled])")
            assert page.locator(".meld.invalid").count() == 0
            before = page.get_attribute(".game", "data-turn")
            page.click("#btn-end")
            # the button sends two actions, the placement and the end of the turn: wait until
            # both are done (two steps later: the turn has passed; a fast bot may have moved
            # and passed it back already) or the round is over
            page.wait_for_function(
                "(b) => { if (document.querySelector('.overlay .score-card')) return true;"
                " const [r0, s0] = b.split(':').map(Number);"
                " const [r, s] = document.querySelector('.game').dataset.turn.split(':')"
                ".map(Number); return r !== r0 || s >= s0 + 2; }",
                arg=before,
                timeout=60_000,
            )
            continue
        _wait_change(page, seq)
    raise AssertionError("the round did not end")


def test_a_person_plays_xpress_against_a_bot(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(seeded_server.ws_url)
    clients.append(c)
    # a fixed deal (and so fixed throws: the person's choices and the bot are deterministic) in
    # which the person both throws again and places before the round ends
    page, counts, _ = _play_one_round(browser, seeded_server, c)
    card = page.locator(".overlay .score-card")
    assert card.locator("table.scores tr.totals").count() == 1
    assert counts["throw"] > 0 and counts["drag"] + counts["hint"] > 0, counts
    assert not page.errors, page.errors
    page.click("a[href^='/replay/']")
    page.wait_for_selector("#replay-next")
    assert "Round 1" in page.inner_text(".replay-text")
    page.click("#replay-next")
    page.click("#replay-last")
    assert page.locator(".replay-end").count() == 1
    assert page.locator(".xpress-replay .die").count() > 0
    page.context.close()


#: what the dice game says of a move and of the replay's chart, in each language: the words it
#: must use, and the tile game's words it must not
DICE_WORDS = {
    "en": (
        r"^Greedy bot 2 placed (\d+ dice|1 die) from the hand( · (\d+ dice|1 die) moved)?"
        r"( · a joker die taken)?$",
        "Points left in each hand over the game",
    ),
    "sv": (
        r"^Girig bot 2 lade ut (\d+ tärningar|1 tärning) från handen"
        r"( · (\d+ tärningar|1 tärning) flyttades)?( · en jokertärning togs)?$",
        "Poäng kvar i varje hand under partiet",
    ),
}


@pytest.mark.parametrize("lang", sorted(DICE_WORDS))
def test_xpress_speaks_of_dice_and_the_hand(
    browser: Any, seeded_server: ServerProcess, clients: list[Client], lang: str
) -> None:
    """The line saying what the other player's move did and the replay's chart of the points
    left speak of dice and the hand, not of tiles and the rack."""
    line, chart = DICE_WORDS[lang]
    c = Client(seeded_server.ws_url)
    clients.append(c)
    page, _, lines = _play_one_round(browser, seeded_server, c, lang)
    assert lines, "the bot's moves were never shown"
    for said in lines:
        assert re.match(line, said), said
    page.click("a[href^='/replay/']")
    page.wait_for_selector(".standings-box")
    assert page.inner_text(".standings-box > .muted") == chart
    assert page.get_attribute("svg.standings", "aria-label") == chart
    assert not page.errors, page.errors
    page.context.close()


def test_lobby_starts_xpress_on_a_phone(browser: Any, sqlite_server: ServerProcess) -> None:
    page = _page(
        browser,
        sqlite_server.base + "/",
        viewport={"width": 390, "height": 844},
        has_touch=True,
    )
    page.fill("#player-name", "Bo")
    page.select_option("#xpress-level", "greedy")
    page.click("#play-xpress")
    page.wait_for_selector(".dice-tray.rack .die")
    assert "/r/" in page.url
    assert page.locator(".players .player").count() == 2
    # every die fits on the screen (no horizontal scrolling on a phone)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    page.select_option("#lang-select", "sv")
    page.wait_for_selector("text=Dina tärningar")
    assert not page.errors, page.errors
    page.context.close()


def test_dice_count_a_joker_as_the_rooms_rules_say(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    """Both hands' points come from the room's rules (a joker die counts ``joker_value``),
    not from a number the client knows: a room whose jokers count 7."""
    c = Client(seeded_server.ws_url)
    clients.append(c)
    joined = c.request(
        type="create",
        name="Ann",
        game="xpress",
        rules={"rounds": 1, "joker_value": 7},
        seats=[{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
        settings={"bot_delay": 0.05},
    )
    code, token = joined["room"], joined["token"]
    # the bot moves first; then nothing changes until Ann moves
    state = c.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == 0)
    hands = [[d["face"] for d in hand] for hand in state["game"]["hands"]]
    assert "J" in hands[0]  # the seeded deal rolled a joker for Ann
    seat = json.dumps({"seat": 0, "token": token})
    page = _page(
        browser,
        f"{seeded_server.base}/r/{code}",
        f"localStorage.setItem('rummikub.seat.{code}', {json.dumps(seat)});",
    )
    page.wait_for_function(f"() => document.querySelector('.game')?.dataset.seq == {state['seq']}")
    labels: list[str] = page.eval_on_selector_all(".tray-label", "els => els.map(e => e.innerText)")
    shown = sorted(int(re.findall(r"worth (\d+)", text)[0]) for text in labels)
    value = [sum(7 if t.is_joker else t.number for t in parse_tiles(" ".join(h))) for h in hands]
    assert shown == sorted(value)
    assert not page.errors, page.errors
    page.context.close()
