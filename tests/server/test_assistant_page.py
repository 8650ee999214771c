"""The assistant at a real table: ``GET /api/assist`` and the ``/assistant`` page, at desktop
and phone sizes. No room, account or WebSocket is involved."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

import pytest

from .helpers import ServerProcess


def _assist(base: str, **query: str) -> tuple[int, Any]:
    url = f"{base}/api/assist?{urllib.parse.urlencode(query)}"
    try:
        with urllib.request.urlopen(url, timeout=60) as res:
            return res.status, json.loads(res.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_the_api_answers_each_view_and_names_bad_input(sqlite_server: ServerProcess) -> None:
    base = sqlite_server.base
    status, body = _assist(base, table="R1 R2 R3 | K5 B5 O5", rack="R4 J K9")
    assert status == 200
    assert body["table"] == [["R1", "R2", "R3"], ["K5", "B5", "O5"]]
    views = [a["views"] for a in body["alternatives"]]
    assert views == [["most-tiles", "most-value", "fewest-changes"], ["keep-joker"]]
    first = body["alternatives"][0]
    assert first["play"] == ["R4", "J"] and first["tiles"] == 2
    assert [t["mark"] for t in first["table"][0]] == ["kept", "kept", "kept", "rack", "rack"]
    # typed with new lines for sets, lower case
    status, body = _assist(base, table="r1 r2 r3\nk5 b5 o5", rack="r4")
    assert status == 200 and body["alternatives"][0]["play"] == ["R4"]
    # nothing to place; an opening that does not reach the value
    assert _assist(base, table="", rack="R1 K5")[1]["alternatives"] == []
    assert _assist(base, rack="R1 R2 R3", opened="false")[1]["alternatives"] == []
    # bad input: 400 naming what was wrong, in the engine's codes
    status, body = _assist(base, table="R1 R2 X3", rack="R4")
    assert status == 400 and body["code"] == "bad-notation" and "X3" in body["error"]
    status, body = _assist(base, table="R1 R2 R4", rack="R5")
    assert status == 400 and body["code"] != "bad-notation" and "R1 R2 R4" in body["error"]
    status, body = _assist(base, table="R1 R2 R3 | R1 R2 R3 | R1 R2 R3", rack="R4")
    assert status == 400 and "R1" in body["error"]
    status, body = _assist(base, rack="R4", preset="nope")
    assert status == 400 and body["params"] == {"field": "preset"}
    assert _assist(base, rack="R4 " * 400)[0] == 422  # longer than any real rack


@pytest.mark.parametrize(
    ("size", "touch"),
    [({"width": 1280, "height": 800}, False), ({"width": 390, "height": 844}, True)],
    ids=["desktop", "phone"],
)
def test_the_page_lays_out_the_best_play(
    browser: Any, sqlite_server: ServerProcess, size: dict[str, int], touch: bool
) -> None:
    ctx = browser.new_context(locale="en-GB", viewport=size, has_touch=touch, is_mobile=touch)
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(sqlite_server.base)
    page.click("#nav-assistant")
    page.wait_for_selector("#assist-table")
    # type the table, tap the rack: R4, a joker, K9
    page.fill("#assist-table", "r1 r2 r3 | k5 b5 o5")
    page.click("#assist-to-rack")
    page.click(".key-colour[data-colour='R']")
    page.click(".key-number[data-number='4']")
    page.click("#assist-joker")
    page.click(".key-colour[data-colour='K']")
    page.click(".key-number[data-number='9']")
    assert page.input_value("#assist-rack") == "R4 J K9"
    page.click("#assist-go")
    page.wait_for_selector("#assist-new-table .piece")
    assert page.input_value("#assist-table") == "R1 R2 R3 | K5 B5 O5"
    tabs = page.locator(".assist-tab")
    assert tabs.count() == 2
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width == [size["width"], size["width"]]
    assert page.locator("#assist-new-table .piece[data-mark='rack']").count() == 2
    assert page.locator("#assist-new-table .piece[data-mark='kept']").count() == 6
    assert "2 tiles" in page.inner_text("#assist-summary")
    # the joker shows what it stands for
    assert page.locator("#assist-new-table .piece.joker .role").inner_text() == "=R5"
    tabs.nth(1).click()
    page.wait_for_selector(".assist-tab[aria-selected='true'][data-views='keep-joker']")
    assert page.locator("#assist-new-table .piece[data-mark='rack']").count() == 1
    # play it: the new table is the next position, the placed tile leaves the rack
    page.click("#assist-play")
    assert page.input_value("#assist-table") == "R1 R2 R3 R4 | K5 B5 O5"
    assert page.input_value("#assist-rack") == "J K9"
    # the position is kept in this browser
    page.reload()
    page.wait_for_selector("#assist-table")
    assert page.input_value("#assist-rack") == "J K9"
    # a bad tile is named
    page.fill("#assist-rack", "J K9 Z4")
    page.click("#assist-go")
    page.wait_for_selector("#assist-error")
    assert "Z4" in page.inner_text("#assist-error")
    # nothing to place says what to do
    page.fill("#assist-rack", "K1")
    page.click("#assist-go")
    page.wait_for_selector("#assist-nothing")
    # the page fits the screen: no sideways scrolling, and no zooming out to make it fit
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width == [size["width"], size["width"]]
    page.screenshot(path=f"/tmp/assistant-{size['width']}.png", full_page=True)
    # the one failed request is the refused rack, which the browser logs itself
    assert [e for e in errors if "status of 400" not in e] == [], errors
    assert len(errors) <= 1, errors
    ctx.close()
