"""Playing from the keyboard alone (keys.js), as in the terminal game: the arrows move the
focus between the rack's tiles and the table's sets, Space picks a tile up, N puts it on a new
set and Enter on a set; U / Y undo and redo, G / T sort, E ends the turn; `?` lists the keys.
A key typed into the chat is the chat's. On a seeded deal."""

from __future__ import annotations

from typing import Any

from rummikub.core import Rules, pack_melds, parse_tiles

from .browser_helpers import seat_page
from .helpers import Client, ServerProcess

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
