"""Following the game in the browser: what another player's move did is highlighted (and again
on "Last move"), its pieces fly in unless the system asks for reduced motion, the move log
follows new moves and words a play by its sets, the player chips say what their numbers are,
and the turn coming to the player is told by a sound (mutable), the title and a vibration.
At desktop (1280×800) and phone (390×844, touch) sizes, on seeded deals."""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import seat_page
from .helpers import Client, ServerProcess, create_vs_bots, draw_and_wait, game

# screenshots kept as test artifacts (CI may upload the folder)
ARTIFACTS = Path(os.environ.get("RUMMIKUB_ARTIFACTS", "/tmp/rummikub-browser"))
ARTIFACTS.mkdir(parents=True, exist_ok=True)

SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}

# The page's vibrations and tones are counted (the real AudioContext still makes the tones).
COUNT = """
localStorage.setItem('rummikub.lang', 'en');
window.__vibrations = 0;
navigator.vibrate = () => { window.__vibrations++; return true; };
window.__tones = 0;
window.AudioContext = class extends window.AudioContext {
  createOscillator() { window.__tones++; return super.createOscillator(); }
};
"""


def _seat_page(browser: Any, server: ServerProcess, joined: dict[str, Any], **kw: Any) -> Any:
    return seat_page(browser, server.base, joined, scripts=(COUNT,), console=True, **kw)


def _vs_greedy(server: ServerProcess, clients: list[Client]) -> dict[str, Any]:
    c = Client(server.ws_url)
    clients.append(c)
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    joined = c.request(type="create", name="Ann", seats=seats, settings={"bot_delay": 0})
    assert joined["type"] == "joined", joined
    return joined


def _press(page: Any, selector: str, touch: bool) -> None:
    if touch:
        page.tap(selector)
    else:
        page.click(selector)


def _my_turn(page: Any) -> None:
    page.wait_for_selector("#btn-draw:not([disabled])")


def test_a_play_made_by_another_is_in_the_log_by_its_sets(
    seeded_server: ServerProcess, clients: list[Client]
) -> None:
    """The state's log words a play by the sets it made (new or changed), with joker roles."""
    c = Client(seeded_server.ws_url)
    clients.append(c)
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    c.request(type="create", name="Ann", seats=seats, settings={"bot_delay": 0})
    plays: list[dict[str, Any]] = []
    while len(plays) < 2:
        g = game(c.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == 0))
        plays = [e for e in g["log"] if e["action"] == "play"]
        if len(plays) < 2:
            draw_and_wait(c, g)
    # the seeded deal: the bot opens with a run, then lays a group beside it
    assert plays[0]["sets"] == [["K11", "K12", "K13"]]
    assert plays[1]["sets"] == [["K11", "R11", "O11"]]
    assert g["table"] == [["K11", "K12", "K13"], ["K11", "R11", "O11"]]


@pytest.mark.parametrize(("size", "motion"), [("desktop", "no-preference"), ("phone", "reduce")])
def test_another_players_move_is_shown_and_the_turn_is_told(
    browser: Any, seeded_server: ServerProcess, clients: list[Client], size: str, motion: str
) -> None:
    touch = size == "phone"
    joined = _vs_greedy(seeded_server, clients)
    page = _seat_page(browser, seeded_server, joined, reduced_motion=motion, **SIZES[size])
    _my_turn(page)
    assert page.title().startswith("Your turn")
    # the chips say what their numbers are
    chip = page.locator(".player.me")
    assert chip.locator(".rack-count").get_attribute("aria-label") == "14 tiles on the rack"
    assert chip.locator(".score .unit").inner_text() == "pts"
    assert chip.locator(".dot").get_attribute("aria-label") == "Online"
    assert page.locator(".player[data-seat='1'] .rack-count").get_attribute("aria-label") == (
        "14 tiles on the rack"
    )
    _press(page, "#btn-draw", touch)
    # the bot opens with K11 K12 K13 (seeded): its three tiles are marked as from its rack
    page.wait_for_function("() => document.querySelectorAll('.meld .piece.last-rack').length === 3")
    marked = page.eval_on_selector_all(
        ".meld .piece.last-rack", "els => els.map(e => e.dataset.face)"
    )
    assert marked == ["K11", "K12", "K13"]
    assert page.locator("#last-info").inner_text().startswith("Greedy bot 2 laid 3 tiles")
    flying = page.locator(".meld .piece.fly").count()
    assert flying == (0 if motion == "reduce" else 3)
    # the log words the play by its set, and follows it
    entry = page.locator(".log-list li").last
    assert entry.locator(".set-chip").inner_text().split() == ["K11", "K12", "K13"]
    page.screenshot(path=str(ARTIFACTS / f"follow-{size}.png"))
    # the turn came back: title, sound and vibration
    _my_turn(page)
    page.wait_for_function("() => document.querySelector('.game').dataset.alerts === '1'")
    assert page.title().startswith("Your turn")
    # a click for the bot's play, two notes for the turn
    assert page.evaluate("() => window.__tones") == 3
    assert page.evaluate("() => window.__vibrations") == 1
    # the highlight goes after a few seconds; "Last move" shows it again
    page.wait_for_selector(".piece.last", state="detached", timeout=10_000)
    assert page.locator("#last-info").count() == 0
    _press(page, "#btn-last-move", touch)
    page.wait_for_function("() => document.querySelectorAll('.meld .piece.last-rack').length === 3")
    assert page.locator("#btn-last-move").get_attribute("aria-pressed") == "true"
    # muted, the next turn makes no sound (and the choice is kept)
    _press(page, "#btn-sound", touch)
    page.wait_for_selector("#btn-sound[aria-pressed='false']")
    assert page.evaluate("() => localStorage.getItem('rummikub.sound')") == "off"
    _press(page, "#btn-draw", touch)
    page.wait_for_function("() => document.querySelector('.game').dataset.alerts === '2'")
    assert page.evaluate("() => window.__tones") == 3
    assert page.evaluate("() => window.__vibrations") == 2
    page.reload()
    page.wait_for_selector("#btn-sound[aria-pressed='false']")
    assert not page.errors, page.errors
    page.context.close()


def _after(turn: int, movers: tuple[int, ...], state: dict[str, Any]) -> bool:
    """A state after ``turn`` with one of ``movers`` to move."""
    g = state["game"]
    return g is not None and g["turn"] > turn and g["current"] in movers


def test_the_last_move_stays_through_the_draws_after_it(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    """The bot lays sets, then another player draws: when the turn comes back, "Last move" still
    shows the bot's move (the table is as it left it)."""
    host = Client(seeded_server.ws_url)
    clients.append(host)
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}, {"kind": "human"}]
    joined = host.request(type="create", name="Ann", seats=seats, settings={"bot_delay": 0})
    bob = Client(seeded_server.ws_url)
    clients.append(bob)
    assert bob.request(type="join", room=joined["room"], name="Bob")["seat"] == 2
    page = _seat_page(browser, seeded_server, joined, **SIZES["desktop"])
    turn = -1  # the last turn handled
    for _ in range(40):  # the seeded deal: the bot lays its first sets within a few rounds
        g = game(host.wait_state(partial(_after, turn, (0, 2)), timeout=60))
        turn = g["turn"]
        if g["current"] == 2:
            draw_and_wait(bob, game(bob.wait_state(partial(_after, turn - 1, (2,)))))
            continue
        if g["table"]:
            break
        _my_turn(page)
        page.click("#btn-draw")
    plays = [e for e in g["log"] if e["action"] == "play"]
    assert [e["seat"] for e in plays] == [1] and g["log"][-1]["seat"] == 2  # the bot, then Bob
    page.wait_for_function(
        "(t) => document.querySelector('.game').dataset.turn === t", arg=f"{g['round']}:{turn}"
    )
    _my_turn(page)
    page.wait_for_selector(".piece.last", state="detached", timeout=10_000)
    page.click("#btn-last-move")
    laid = sum(len(m) for m in g["table"])
    page.wait_for_function(
        f"() => document.querySelectorAll('.meld .piece.last-rack').length === {laid}"
    )
    assert page.locator("#last-info").inner_text().startswith("Greedy bot 2 laid")
    assert not page.errors, page.errors
    page.context.close()


def test_what_a_move_did_is_read_from_the_tables(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    """Laid from the rack, moved from another set, a joker taken: as the page reads them."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(sqlite_server.base + "/")
    page.wait_for_selector("#player-name")
    marks = page.evaluate(
        """async () => {
          const { tableMarks } = await import('/static/js/follow.js');
          return [
            tableMarks([['R1', 'R2', 'R3']], [['R1', 'R2', 'R3'], ['K5', 'B5', 'O5']]),
            tableMarks([['R1', 'R2', 'R3', 'R4']], [['R1', 'R2', 'R3'], ['R4', 'R5', 'R6']]),
            tableMarks([['K5', 'B5', 'J=O5']], [['K5', 'B5', 'O5'], ['J=B7', 'B8', 'B9']]),
          ];
        }"""
    )
    assert marks == [
        [[None, None, None], ["rack", "rack", "rack"]],
        [[None, None, None], ["moved", "rack", "rack"]],
        [[None, None, "rack"], ["joker", "rack", "rack"]],
    ]
    ctx.close()


def test_the_log_follows_new_moves_unless_scrolled_up(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    joined = _vs_greedy(seeded_server, clients)
    page = _seat_page(browser, seeded_server, joined, **SIZES["phone"])
    log = page.locator(".log-list")
    at_end = "l => l.scrollTop + l.clientHeight >= l.scrollHeight - 4"
    entries = 0
    while log.evaluate("l => l.scrollHeight <= l.clientHeight"):  # until the log overflows
        _my_turn(page)
        entries = page.locator(".log-list li").count()
        page.tap("#btn-draw")
        page.wait_for_function(
            f"() => document.querySelectorAll('.log-list li').length >= {entries + 2}"
        )
    assert log.evaluate(at_end)
    # the reader scrolls up: new moves leave the list where he put it
    log.evaluate("l => { l.scrollTop = 0; }")
    page.wait_for_function("() => document.querySelector('.log-list').follow === false")
    _my_turn(page)
    entries = page.locator(".log-list li").count()
    page.tap("#btn-draw")
    page.wait_for_function(f"() => document.querySelectorAll('.log-list li').length > {entries}")
    assert log.evaluate("l => l.scrollTop") == 0
    # scrolled back to the end, it follows again
    log.evaluate("l => { l.scrollTop = l.scrollHeight; }")
    page.wait_for_function("() => document.querySelector('.log-list').follow === true")
    _my_turn(page)
    entries = page.locator(".log-list li").count()
    page.tap("#btn-draw")
    page.wait_for_function(f"() => document.querySelectorAll('.log-list li').length > {entries}")
    assert log.evaluate(at_end)
    assert not page.errors, page.errors
    page.context.close()


def test_the_last_seconds_of_ones_turn_tick(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(seeded_server.ws_url)
    clients.append(c)
    joined = create_vs_bots(c, bots=1, rules={"preset": "standard", "turn_seconds": 7})
    page = _seat_page(browser, seeded_server, joined, **SIZES["desktop"])
    _my_turn(page)
    # five ticks, one a second, as the clock runs out (a tone each)
    page.wait_for_function("() => window.__tones >= 5", timeout=15_000)
    assert not page.errors, page.errors
    page.context.close()
