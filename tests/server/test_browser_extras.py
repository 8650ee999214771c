"""What players expect of the table beyond the rules, in Chromium on seeded deals: playing from
the keyboard alone (keys.js), as in the terminal game — the arrows move the focus between the
rack's tiles and the table's sets, Space picks a tile up, N puts it on a new set and Enter on a
set; U / Y undo and redo, G / T sort, E ends the turn; `?` lists the keys, and a key typed into
the chat is the chat's —, the rematch of two people at the end of a match (rematch.js), a
newcomer's first game, a friend who leaves (presence.js) and spectators' chat."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rummikub.core import Rules, pack_melds, parse_tiles

from .browser_helpers import english_context, open_page, seat_page
from .helpers import Client, ServerProcess, game

RULES = {"preset": "standard", "opening_value": 0, "rack_size": 20}
RACK = "() => [...document.querySelectorAll('#own-rack .tile')].map(e => e.dataset.tile)"
IN_RACK = "() => !!document.activeElement && !!document.activeElement.closest('#own-rack')"


def _focus_rack_tile(page: Any, tile: str) -> None:
    """Bring the focus onto ``tile`` of the rack with the arrow keys only."""
    for _ in range(12):
        if page.evaluate(IN_RACK):
            break
        page.keyboard.press("ArrowDown")
    else:
        raise AssertionError("the arrows never reached the rack")
    index = page.evaluate(RACK).index(tile)
    page.keyboard.press("Home")
    for _ in range(index):
        page.keyboard.press("ArrowRight")
    focused = page.evaluate("() => document.activeElement.dataset.tile")
    assert focused == tile, (focused, tile)


def _focus_meld(page: Any, index: int) -> None:
    for _ in range(12):
        if page.evaluate(f"() => document.activeElement.id === 'meld-{index}'"):
            return
        page.keyboard.press("ArrowUp")
    raise AssertionError(f"the arrows never reached set {index + 1}")


def test_a_move_is_played_with_the_keys_alone(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(seeded_server.ws_url)
    clients.append(c)
    joined = c.request(
        type="create",
        name="Ann",
        rules=RULES,
        seats=[{"kind": "human"}, {"kind": "bot", "level": "beginner"}],
        settings={"bot_delay": 0},
    )
    assert joined["type"] == "joined", joined
    page = seat_page(browser, seeded_server.base, joined, wait="#btn-draw:not([disabled])")
    # `?` lists the keys; Esc closes the list
    page.keyboard.press("?")
    page.wait_for_selector("#keys-help")
    listed = page.locator("#keys-help").inner_text()
    assert "end turn" in listed and "undo the last step" in listed, listed
    page.keyboard.press("Escape")
    page.wait_for_selector("#keys-help", state="detached")
    # a key typed into the chat is text, not a draw
    page.click("button[data-tab='chat']")
    page.fill("#chat-input", "")
    page.type("#chat-input", "de")
    assert page.input_value("#chat-input") == "de"
    assert page.locator("#btn-draw:not([disabled])").count() == 1
    page.fill("#chat-input", "")
    page.evaluate("() => document.activeElement.blur()")

    # G and T sort the rack by number and by colour
    page.keyboard.press("g")
    page.wait_for_function("() => localStorage.getItem('rummikub.sort') === '777'")
    page.keyboard.press("t")
    page.wait_for_function("() => localStorage.getItem('rummikub.sort') === '789'")
    # Shift+→ moves the tile with the focus one place along the rack
    before = page.evaluate(RACK)
    _focus_rack_tile(page, before[0])
    page.keyboard.press("Shift+ArrowRight")
    page.wait_for_function(f"() => ({RACK})()[1] === {before[0]!r}")
    assert page.evaluate(RACK) == [before[1], before[0], *before[2:]]
    assert page.evaluate("() => document.activeElement.dataset.tile") == before[0]

    rules = Rules.from_dict(RULES)
    melds = [
        [str(t) for t in m.tiles]
        for m in pack_melds(parse_tiles(" ".join(page.evaluate(RACK))), rules, objective="tiles")
    ]
    assert melds, "the seeded deal gives the rack a set"

    # one tile onto a new set: the arrows to it, Space, N
    first = melds[0][0]
    _focus_rack_tile(page, first)
    page.keyboard.press("Space")
    page.wait_for_selector("#own-rack .tile.selected")
    page.keyboard.press("n")
    page.wait_for_function("() => document.querySelectorAll('.meld .tile.placed').length === 1")
    # U takes it back, Y puts it there again
    page.keyboard.press("u")
    page.wait_for_function("() => document.querySelectorAll('.meld .tile.placed').length === 0")
    page.keyboard.press("y")
    page.wait_for_function("() => document.querySelectorAll('.meld .tile.placed').length === 1")

    placed = 1
    for k, meld in enumerate(melds):
        for i, tile in enumerate(meld):
            if k == 0 and i == 0:
                continue
            _focus_rack_tile(page, tile)
            page.keyboard.press("Space")
            page.wait_for_selector("#own-rack .tile.selected")
            if i == 0:
                page.keyboard.press("n")
            else:
                _focus_meld(page, k)
                page.keyboard.press("Enter")
            placed += 1
            page.wait_for_function(
                f"() => document.querySelectorAll('.meld .tile.placed').length === {placed}"
            )
    page.wait_for_selector("#btn-play:not([disabled])")
    turn = page.get_attribute(".game", "data-turn")
    page.keyboard.press("e")
    page.wait_for_function("(t) => document.querySelector('.game').dataset.turn !== t", arg=turn)
    # the server played the move: every set of it is on the table
    table = page.evaluate(
        "() => [...document.querySelectorAll('.meld')].map(m => [...m.querySelectorAll('.tile')]"
        ".map(e => e.dataset.tile))"
    )
    for meld in melds:
        assert sorted(meld) in [sorted(m) for m in table], (meld, table)
    assert not page.errors, page.errors
    page.context.close()


SMALL = {"preset": "standard", "numbers": 7, "copies": 1, "rack_size": 6, "opening_value": 0}


def _after(acted: tuple[int, int]) -> Callable[[dict[str, Any]], bool]:
    """Whether a state shows a later turn than ``acted`` (round, turn)."""

    def later(s: dict[str, Any]) -> bool:
        return s["game"] is not None and (s["game"]["round"], s["game"]["turn"]) > acted

    return later


def test_two_people_accept_a_rematch_and_play_it_with_the_same_bot(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    ann, bo = Client(seeded_server.ws_url), Client(seeded_server.ws_url)
    clients += [ann, bo]
    a = ann.request(
        type="create",
        name="Ann",
        rules=SMALL,
        seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "beginner"}],
        settings={"bot_delay": 0},
    )
    b = bo.request(type="join", room=a["room"], name="Bo")
    assert b["type"] == "joined", b
    pages = [seat_page(browser, seeded_server.base, j, wait=".players .player") for j in (a, b)]
    # the two play the match out by drawing (from their own connections)
    people = {0: ann, 1: bo}
    for _ in range(300):
        state = ann.wait_state(
            lambda s: (
                s["game"] is not None
                and (s["game"]["round_over"] or s["game"]["current"] in people)
            )
        )
        g = game(state)
        if g["round_over"]:
            break
        acted = (g["round"], g["turn"])
        assert (
            people[g["current"]].request(type="draw" if g["pool_size"] else "pass")["type"] == "ok"
        )
        ann.wait_state(_after(acted))
    assert g["match_over"]
    for page in pages:
        page.wait_for_selector(".score-card #btn-rematch")
    # Ann asks; Bo's card says so, and Ann's that it waits for Bo
    pages[0].click("#btn-rematch")
    pages[0].wait_for_selector("#rematch-waiting")
    assert "Bo" in pages[0].inner_text("#rematch-waiting")
    pages[1].wait_for_selector("#rematch-accepted")
    assert "Ann" in pages[1].inner_text("#rematch-accepted")
    # Bo accepts: both pages go to the new room, where the game is on with the same seats
    pages[1].click("#btn-rematch")
    for page in pages:
        page.wait_for_function(f"() => !location.pathname.endsWith('/{a['room']}')")
        page.wait_for_selector(".rack .tile")
    code = pages[0].evaluate("() => location.pathname.split('/').pop()")
    assert pages[1].evaluate("() => location.pathname.split('/').pop()") == code != a["room"]
    names = pages[1].locator(".players .pname").all_inner_texts()
    assert names[0] == "Ann" and names[1].startswith("Bo") and names[2] == "Beginner bot 3"
    # the first match's replay lists its moves beside the position: a click goes there
    page = pages[0]
    page.goto(f"{seeded_server.base}/replay/{a['room']}")
    page.wait_for_selector("#replay-moves .move.current")
    moves = page.locator("#replay-moves .move")
    assert moves.count() == int(page.get_attribute("#replay-slider", "max") or 0) + 1 > 3
    assert moves.nth(0).inner_text().startswith("Round 1")
    moves.nth(3).click()
    page.wait_for_function("() => document.getElementById('replay-slider').value === '3'")
    assert page.get_attribute("#replay-moves .move.current", "data-index") == "3"
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#replay-moves .move.current[data-index='4']")
    assert page.inner_text(".replay-text") == moves.nth(4).inner_text()
    for page in pages:
        assert not page.errors, page.errors
        page.context.close()


def test_a_newcomer_plays_now_as_a_guest_against_one_beginner_bot(
    browser: Any, seeded_server: ServerProcess
) -> None:
    """*Play now* needs no name typed (a guest name is offered); the first opponent is one
    beginner bot; the leaderboard is a link of the lobby and of the top bar; a number out of
    its range in the room form is refused with a message naming it, not changed."""
    page = open_page(english_context(browser), seeded_server.base + "/")
    page.wait_for_selector("#play-bots")
    assert re.fullmatch(r"Guest \d{4}", page.input_value("#player-name"))
    assert page.input_value("#quick-level") == "beginner"
    assert page.input_value("#quick-opponents") == "1"
    assert page.get_attribute("#nav-leaderboard", "href") == "/leaderboard"
    page.click("#lobby-leaderboard")
    page.wait_for_url(re.compile(r"/leaderboard$"))
    page.click(".brand")
    page.wait_for_selector("#create-room")
    # the room form refuses what is out of range, and says so
    page.click("#room-rules summary")
    page.fill("#room-rounds", "50")
    page.click("#create-room")
    page.wait_for_selector("#room-rounds.invalid")
    assert "from 1 to 20" in page.inner_text("#toast")
    page.fill("#room-rounds", "2")
    page.fill("#room-grace", "-5")
    page.click("#create-room")
    page.wait_for_selector("#room-grace.invalid")
    assert "from 0 to 3600" in page.inner_text("#toast")
    assert page.url.endswith("/")
    assert page.is_checked("#room-spectator-chat")
    # Play now, as the guest
    guest = page.input_value("#player-name")
    page.click("#play-bots")
    page.wait_for_selector(".rack .tile")
    names = page.locator(".players .pname").all_inner_texts()
    assert len(names) == 2 and names[0].startswith(guest) and names[1] == "Beginner bot 2"
    assert not page.errors, page.errors
    page.context.close()


def test_a_friend_who_leaves_is_told_and_spectators_chat(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    """Bo loses his connection: Ann is told at once; once his grace period is over, a line of
    the Moves list says a bot plays his seat. A spectator of this casual room chats."""
    ann, bo = Client(seeded_server.ws_url), Client(seeded_server.ws_url)
    clients += [ann, bo]
    a = ann.request(
        type="create",
        name="Ann",
        seats=[{"kind": "human"}, {"kind": "human"}],
        settings={"bot_delay": 0, "grace_seconds": 2},
    )
    assert bo.request(type="join", room=a["room"], name="Bo")["type"] == "joined"
    page = seat_page(browser, seeded_server.base, a, wait=".players .player")
    page.wait_for_selector(".player[data-seat='1'] .dot.on")
    bo.close()
    page.wait_for_function(
        "() => document.getElementById('toast').textContent.includes('Bo lost the connection')"
    )
    page.click("button[data-tab='log']")
    page.wait_for_selector(".log-list li.log-standin")
    assert "Bo has been away too long" in page.inner_text(".log-list li.log-standin")
    # a spectator's line, in the players' chat
    watcher = open_page(english_context(browser), f"{seeded_server.base}/r/{a['room']}?watch=1")
    watcher.wait_for_selector(".players .player")
    watcher.click("button[data-tab='chat']")
    watcher.fill("#chat-input", "good game")
    watcher.press("#chat-input", "Enter")
    page.click("button[data-tab='chat']")
    page.wait_for_selector(".chat-list li.chat-spectator")
    assert page.inner_text(".chat-list li.chat-spectator") == "Spectator: good game"
    assert not page.errors and not watcher.errors, (page.errors, watcher.errors)
    page.context.close()
    watcher.context.close()
