"""Accessibility of the game page: a move made with the keyboard alone (focus on tiles, sets,
"+ new set" and the rack), tiles read out in the page's language, and a colour-blind mode
that draws a shape per colour. On a seeded deal, at desktop and phone sizes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import seat_page
from .helpers import Client, ServerProcess, create_vs_bots

ARTIFACTS = Path(os.environ.get("RUMMIKUB_ARTIFACTS", "/tmp/rummikub-browser"))
ARTIFACTS.mkdir(parents=True, exist_ok=True)
SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True},
}


def _game_page(
    browser: Any, server: ServerProcess, clients: list[Client], size: str, lang: str = "en"
) -> Any:
    c = Client(server.ws_url)
    clients.append(c)
    joined = create_vs_bots(c, bots=1)
    return seat_page(
        browser, server.base, joined, lang=lang, wait="#btn-draw:not([disabled])", **SIZES[size]
    )


FOCUSED = "() => document.activeElement && document.activeElement.id"


def test_a_move_is_made_with_the_keyboard(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    page = _game_page(browser, seeded_server, clients, "desktop")
    first = page.locator("#own-rack .tile").first
    tile = first.get_attribute("data-tile")
    piece = first.get_attribute("id")
    first.focus()
    page.keyboard.press("Enter")  # pick it up
    page.wait_for_selector(f"#{piece}.selected")
    assert page.evaluate(FOCUSED) == piece  # the focus stays on it as the page is drawn again
    # Shift+Tab back through the page to "+ new set", and put it there
    for _ in range(60):
        if page.evaluate(FOCUSED) == "new-meld":
            break
        page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUSED) == "new-meld"
    page.keyboard.press("Enter")
    page.wait_for_selector(f".meld #{piece}")
    assert page.evaluate(FOCUSED) == "new-meld"
    label = page.get_attribute("#meld-0", "aria-label")
    assert label is not None and label.startswith("Set 1: ")
    # and back to the rack: the tile, then the rack, each with Enter or Space
    page.focus(f"#{piece}")
    page.keyboard.press("Space")
    page.wait_for_selector(f"#{piece}.selected")
    page.focus("#own-rack")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#own-rack #{piece}")
    assert page.locator(f"#own-rack .tile[data-tile='{tile}']").count() >= 1
    assert page.locator(".meld").count() == 0
    assert not page.errors, page.errors
    page.context.close()


def test_tiles_are_read_out_in_the_pages_language(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    page = _game_page(browser, seeded_server, clients, "desktop", lang="sv")
    words = {"K": "svart", "R": "röd", "B": "blå", "O": "orange"}
    for el in page.locator("#own-rack .tile:not(.joker)").all():
        face = el.get_attribute("data-tile")
        assert face is not None
        assert el.get_attribute("aria-label") == f"{words[face[0]]} {face[1:]}"
    page.select_option("#lang-select", "en")
    page.wait_for_selector("text=Sort 777")
    red = page.locator("#own-rack .tile.c-red").first
    assert red.get_attribute("aria-label") == f"red {red.get_attribute('data-tile')[1:]}"
    page.context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_colour_blind_mode_draws_a_shape_per_colour(
    browser: Any, seeded_server: ServerProcess, clients: list[Client], size: str
) -> None:
    page = _game_page(browser, seeded_server, clients, size)
    shape = (
        "(sel) => { const e = document.querySelector(sel);"
        " const s = getComputedStyle(e, '::before');"
        " return [s.content, s.clipPath, s.borderRadius]; }"
    )
    assert page.evaluate(shape, "#own-rack .tile.c-red")[0] in ("none", "normal")
    page.click("#cb-switch")
    page.wait_for_selector("html.colourblind")
    assert page.get_attribute("#cb-switch", "aria-pressed") == "true"
    red, orange, black = (
        page.evaluate(shape, f"#own-rack .tile.c-{c}") for c in ("red", "orange", "black")
    )
    assert red[0] == '""' and red[1].startswith("polygon(50% 0")
    assert orange[1].startswith("polygon(") and orange[1] != red[1]
    assert black[2] == "50%"
    assert page.locator(".topbar").evaluate("b => b.scrollWidth <= b.clientWidth")
    page.screenshot(path=str(ARTIFACTS / f"colourblind-{size}.png"))
    page.reload()
    page.wait_for_selector("#own-rack .tile")
    assert page.evaluate("() => document.documentElement.classList.contains('colourblind')")
    assert not page.errors, page.errors
    page.context.close()
