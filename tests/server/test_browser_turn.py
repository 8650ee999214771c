"""The rack and the turn in the browser: the player arranges his rack by hand (kept over a
reload) as well as sorting it; every step of a move can be undone and redone; Draw with a move
being built asks first; a move pressed while disconnected is not lost, nor by the reconnect.
At desktop (1280×800) and phone (390×844, touch) sizes, on seeded deals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .browser_helpers import drag_until, seat_page
from .helpers import Client, ServerProcess, create_vs_bots

SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True},
}

RACK = "() => [...document.querySelectorAll('.rack .tile')].map(e => e.dataset.tile)"


def _start(
    browser: Any, server: ServerProcess, clients: list[Client], size: str
) -> tuple[Any, dict[str, Any]]:
    c = Client(server.ws_url)
    clients.append(c)
    joined = create_vs_bots(c, bots=1)
    page = seat_page(browser, server.base, joined, wait="#btn-draw:not([disabled])", **SIZES[size])
    return page, joined


def _press(page: Any, selector: str, size: str) -> None:
    if size == "phone":
        page.tap(selector)
    else:
        page.click(selector)


def _place(page: Any, size: str, n: int) -> None:
    """Put rack tiles on the table, one at a time (tap the tile, then "+ new set")."""
    for _ in range(n):
        before = page.locator(".meld .tile.placed").count()
        _press(page, ".rack .tile >> nth=0", size)
        page.wait_for_selector(".rack .tile.selected")
        _press(page, ".new-meld", size)
        page.wait_for_function(
            f"() => document.querySelectorAll('.meld .tile.placed').length === {before + 1}"
        )


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_player_arranges_his_rack_by_hand(
    browser: Any, seeded_server: ServerProcess, clients: list[Client], size: str
) -> None:
    page, _ = _start(browser, seeded_server, clients, size)
    rack: list[str] = page.evaluate(RACK)
    # drag the first tile onto the right half of the fifth: it goes after the fifth
    drag_until(
        page,
        page.locator(".rack .tile").nth(0),
        page.locator(".rack .tile").nth(4),
        f"(({RACK})())[4] === {rack[0]!r}",
    )
    arranged: list[str] = page.evaluate(RACK)
    assert arranged == [*rack[1:5], rack[0], *rack[5:]]
    # the player's order survives a reload of the page
    page.reload()
    page.wait_for_selector("#btn-draw:not([disabled])")
    assert page.evaluate(RACK) == arranged
    # and sorting puts it in order again
    _press(page, "#btn-sort", size)
    page.wait_for_function(f"() => JSON.stringify(({RACK})()) !== {json.dumps(arranged)!r}")
    assert sorted(page.evaluate(RACK)) == sorted(rack)
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_every_step_of_a_move_is_undone_and_redone(
    browser: Any, seeded_server: ServerProcess, clients: list[Client], size: str
) -> None:
    page, _ = _start(browser, seeded_server, clients, size)
    assert page.is_disabled("#btn-undo") and page.is_disabled("#btn-redo")
    _place(page, size, 2)
    placed = "() => document.querySelectorAll('.meld .tile.placed').length === {}"
    for n in (1, 0):
        _press(page, "#btn-undo", size)
        page.wait_for_function(placed.format(n))
    assert page.is_disabled("#btn-undo")
    for n in (1, 2):
        _press(page, "#btn-redo", size)
        page.wait_for_function(placed.format(n))
    assert page.is_disabled("#btn-redo")
    # a new step forgets what was undone
    _press(page, "#btn-undo", size)
    page.wait_for_function(placed.format(1))
    _place(page, size, 1)
    assert page.is_disabled("#btn-redo")
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_draw_asks_before_undoing_a_move_being_built(
    browser: Any, seeded_server: ServerProcess, clients: list[Client], size: str
) -> None:
    page, _ = _start(browser, seeded_server, clients, size)
    rack = len(page.evaluate(RACK))
    _place(page, size, 1)
    _press(page, "#btn-draw", size)
    page.wait_for_selector("#confirm-draw")
    _press(page, "#btn-keep-move", size)
    page.wait_for_selector("#confirm-draw", state="detached")
    assert page.locator(".meld .tile.placed").count() == 1
    _press(page, "#btn-draw", size)
    _press(page, "#btn-draw-anyway", size)
    page.wait_for_function(f"() => document.querySelectorAll('.rack .tile').length === {rack + 1}")
    assert page.locator(".meld .tile.placed").count() == 0
    assert not page.errors, page.errors
    page.context.close()


def test_a_move_survives_a_lost_connection_and_the_reconnect(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    page, _ = _start(browser, seeded_server, clients, "phone")
    rack = len(page.evaluate(RACK))
    _place(page, "phone", 2)
    seeded_server.stop(keep_log=True)
    page.wait_for_selector("#conn-status.closed")
    # pressed while disconnected: nothing is sent and nothing is lost
    for button in ("#btn-draw", "#btn-undo"):
        page.tap(button)
    page.wait_for_selector("#toast.error:has-text('Not connected')")
    assert page.locator(".meld .tile.placed").count() == 1  # only the undo took effect
    page.tap("#btn-redo")
    page.wait_for_function("() => document.querySelectorAll('.meld .tile.placed').length === 2")
    seeded_server.start()
    page.wait_for_selector("#conn-status", state="hidden", timeout=30_000)
    page.wait_for_selector("#btn-draw:not([disabled])")
    assert page.locator(".meld .tile.placed").count() == 2
    assert len(page.evaluate(RACK)) == rack - 2
    assert not page.errors, page.errors
    page.context.close()
