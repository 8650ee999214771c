"""Mouse helpers for the browser tests: drag and drop the way a person does, again if the page
re-rendered under the pointer (it re-renders on every server message)."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout


def drag(page: Any, src: Any, dst: Any) -> None:
    """Press on ``src``, move in small steps and release over ``dst`` (scrolled into view first,
    as a person scrolls a long table to see where a tile goes)."""
    for _ in range(50):  # retry an element that was detached by a re-render
        try:
            dst.scroll_into_view_if_needed(timeout=1000)
            src.scroll_into_view_if_needed(timeout=1000)
        except PlaywrightError:  # detached by a re-render, or still moving: try again
            page.wait_for_timeout(50)
            continue
        a, b = src.bounding_box(), dst.bounding_box()
        if a is not None and b is not None:
            break
        page.wait_for_timeout(50)
    assert a is not None and b is not None
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(a["x"] + a["width"] / 2 + 10, a["y"] + 5, steps=3)
    page.mouse.move(b["x"] + b["width"] - 6, b["y"] + b["height"] / 2, steps=6)
    page.mouse.up()


def drag_until(page: Any, src: Any, dst: Any, done: str, *, tries: int = 6) -> None:
    """Drag ``src`` onto ``dst`` until the JavaScript expression ``done`` holds: a drop that
    missed because the page re-rendered during the gesture is simply made again."""
    for _ in range(tries):
        drag(page, src, dst)
        try:
            # as a function: a bare expression is run with eval, which the page's policy forbids
            page.wait_for_function(f"() => ({done})", timeout=4000)
            return
        except PlaywrightTimeout:
            continue
    page.screenshot(path="/tmp/rummikub-drop-failed.png")
    raise AssertionError(f"the drop never took effect ({done})")


def build_melds(page: Any, melds: list[list[str]], piece: str, pieces: str) -> None:
    """Build each meld on the table by dragging its pieces from the player's tray: ``piece`` is
    a selector template with ``{}`` for the piece's notation, ``pieces`` selects all of them."""
    for meld in melds:
        index = page.locator(".meld").count()
        drag_until(
            page,
            page.locator(piece.format(meld[0])).first,
            page.locator(".new-meld"),
            f"document.querySelectorAll('.meld').length > {index}",
        )
        for item in meld[1:]:
            before = page.locator(pieces).count()
            drag_until(
                page,
                page.locator(piece.format(item)).first,
                page.locator(f'.meld[data-index="{index}"]'),
                f"document.querySelectorAll({pieces!r}).length < {before}",
            )


def seat_page(
    browser: Any,
    base: str,
    joined: dict[str, Any],
    *,
    lang: str = "en",
    scripts: tuple[str, ...] = (),
    wait: str | None = ".rack .tile",
    console: bool = False,
    timeout: int = 20_000,
    **context: Any,
) -> Any:
    """A new browser context holding the seat of ``joined`` (the ``joined`` reply of a
    ``create``), in ``lang``, with ``scripts`` run before the page's own; the room's page opened
    and ``wait`` awaited. ``page.errors`` collects the page's errors (with ``console``, its
    console errors too)."""
    ctx = browser.new_context(locale="en-GB", **context)
    ctx.set_default_timeout(timeout)
    seat = json.dumps({"seat": joined["seat"], "token": joined["token"]})
    ctx.add_init_script(
        f"localStorage.setItem('rummikub.seat.{joined['room']}', {seat!r});"
        f"localStorage.setItem('rummikub.lang', '{lang}');"
    )
    for script in scripts:
        ctx.add_init_script(script)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    if console:
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.errors = errors
    page.goto(f"{base}/r/{joined['room']}")
    if wait is not None:
        page.wait_for_selector(wait)
    return page


def english_context(browser: Any, *, timeout: int = 30_000, init: str = "", **kw: Any) -> Any:
    """A new browser context whose pages speak English (``init``: more script run before each
    page's own)."""
    ctx = browser.new_context(locale="en-GB", **kw)
    ctx.set_default_timeout(timeout)
    ctx.add_init_script("localStorage.setItem('rummikub.lang', 'en');" + init)
    return ctx


def open_page(ctx: Any, url: str) -> Any:
    """A new page of ``ctx`` at ``url``; ``page.errors`` collects its errors."""
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.errors = errors
    return page


def wait_turn_passed(page: Any, turn: str | None) -> None:
    """Wait until the game page shows another turn than ``turn`` (its ``data-turn``), or the
    score card, or no game."""
    page.wait_for_function(
        "(t) => !document.querySelector('.game') || "
        "document.querySelector('.game').dataset.turn != t || "
        "!!document.querySelector('.overlay .score-card')",
        arg=turn,
    )
