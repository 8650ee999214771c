"""The README's pictures of the web game, taken from a real game so they stay current: the table
at desktop size just after a bot's move (highlighted, the log by sets), and the same on a
phone. Always kept as test artifacts; with ``RUMMIKUB_DOC_SHOTS=1`` also written to
``docs/img/`` (``make`` or a person refreshing the README runs it so)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import seat_page
from .helpers import ROOT, Client, ServerProcess

ARTIFACTS = Path(os.environ.get("RUMMIKUB_ARTIFACTS", "/tmp/rummikub-browser"))
ARTIFACTS.mkdir(parents=True, exist_ok=True)
DOCS = ROOT / "docs" / "img"
SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_readme_pictures_of_the_web_game(
    browser: Any, seeded_server: ServerProcess, clients: list[Client], size: str
) -> None:
    c = Client(seeded_server.ws_url)
    clients.append(c)
    seats = [
        {"kind": "human"},
        {"kind": "bot", "level": "greedy"},
        {"kind": "bot", "level": "expert"},
    ]
    joined = c.request(type="create", name="Ann", seats=seats, settings={"bot_delay": 0})
    page = seat_page(
        browser, seeded_server.base, joined, wait=None, timeout=30_000, reduced_motion="reduce",
        **SIZES[size],
    )  # fmt: skip
    # draw until a bot has put down sets, and show the last move
    for _ in range(30):
        page.wait_for_selector("#btn-draw:not([disabled])")
        if page.locator(".meld").count() >= 2:
            break
        turn = page.get_attribute(".game", "data-turn")
        page.click("#btn-draw")
        page.wait_for_function(
            "(t) => document.querySelector('.game').dataset.turn !== t", arg=turn
        )
    page.wait_for_selector("#btn-draw:not([disabled])")
    page.click("#btn-last-move")
    page.wait_for_selector(".piece.last")
    page.locator("#own-rack .tile").first.click()  # a tile picked up, as in play
    shot = ARTIFACTS / f"web-{size}.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    assert page.locator(".meld").count() >= 2
    if os.environ.get("RUMMIKUB_DOC_SHOTS"):
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, DOCS / f"web-{size}.png")
    page.context.close()
