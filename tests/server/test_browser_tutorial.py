"""The tutorial: four lessons played in the page (make a set, the opening, rearranging a run,
a joker), each done only when the table is right, at desktop and phone sizes, in English and
Swedish."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import drag_until
from .helpers import ServerProcess

ARTIFACTS = Path(os.environ.get("RUMMIKUB_ARTIFACTS", "/tmp/rummikub-browser"))
ARTIFACTS.mkdir(parents=True, exist_ok=True)
SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True},
}
RACK = ".rack .tile[data-tile='{}']"
LEFT = "document.querySelectorAll('.rack .tile').length"


def _to_new_set(page: Any, face: str) -> None:
    before = page.locator(".meld").count()
    drag_until(
        page,
        page.locator(RACK.format(face)),
        page.locator(".new-meld"),
        f"document.querySelectorAll('.meld').length > {before}",
    )


def _onto(page: Any, selector: str, meld: int) -> None:
    """Drag the piece ``selector`` onto set ``meld``."""
    src = page.locator(selector).first
    face = src.get_attribute("data-face")
    drag_until(
        page,
        src,
        page.locator(f".meld[data-index='{meld}']"),
        f"[...document.querySelectorAll(\".meld[data-index='{meld}'] .piece\")]"
        f".some(e => e.dataset.face === {face!r})",
    )


def _lesson_done(page: Any, key: str) -> None:
    page.wait_for_selector(f".tutorial[data-lesson='{key}'][data-done='1']")


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "sv")])
def test_the_four_lessons(browser: Any, sqlite_server: ServerProcess, size: str, lang: str) -> None:
    ctx = browser.new_context(locale="en-GB", **SIZES[size])
    ctx.set_default_timeout(20_000)
    ctx.add_init_script(f"localStorage.setItem('rummikub.lang', '{lang}');")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(sqlite_server.base + "/")
    page.click("#tutorial-link")
    page.wait_for_selector(".tutorial[data-lesson='set']")
    assert page.is_disabled("#tutorial-next")
    # 1. a run of three
    _to_new_set(page, "R3")
    _onto(page, RACK.format("R4"), 0)
    assert page.is_disabled("#tutorial-next")  # two tiles are not a set yet
    _onto(page, RACK.format("R5"), 0)
    _lesson_done(page, "set")
    page.click("#tutorial-next")
    # 2. the opening: thirty points, from the rack
    page.wait_for_selector(".tutorial[data-lesson='opening']")
    _to_new_set(page, "K10")
    _onto(page, RACK.format("B10"), 0)
    _onto(page, RACK.format("O10"), 0)
    _lesson_done(page, "opening")
    page.click("#tutorial-next")
    # 3. a tile taken from a run for a group
    page.wait_for_selector(".tutorial[data-lesson='rearrange']")
    drag_until(
        page,
        page.locator(".meld .tile[data-tile='B6']"),
        page.locator(".new-meld"),
        "document.querySelectorAll('.meld').length === 2",
    )
    _onto(page, RACK.format("K6"), 1)
    _onto(page, RACK.format("O6"), 1)
    _lesson_done(page, "rearrange")
    page.click("#tutorial-next")
    # 4. the joker: replaced by the tile it stands for, and used again
    page.wait_for_selector(".tutorial[data-lesson='joker']")
    assert page.get_attribute(".meld .joker", "data-face") == "J=K9"
    _onto(page, RACK.format("K9"), 0)
    drag_until(
        page,
        page.locator(".meld .joker"),
        page.locator(".new-meld"),
        "document.querySelectorAll('.meld').length === 2",
    )
    assert page.is_disabled("#tutorial-next")
    _onto(page, RACK.format("R2"), 1)
    _onto(page, RACK.format("R3"), 1)
    _lesson_done(page, "joker")
    assert page.evaluate(f"() => {LEFT}") == 0
    page.screenshot(path=str(ARTIFACTS / f"tutorial-{size}.png"))
    page.click("#tutorial-play")
    page.wait_for_selector("#play-bots")
    assert not errors, errors
    ctx.close()
