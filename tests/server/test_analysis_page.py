"""The analysis of a finished game: served by the server (off its event loop) and shown on the
web replay page, with the better play laid out on the table."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from .helpers import Client, ServerProcess, create_vs_bots, draw_until_round_over


def _get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=30) as res:
            return res.status, json.loads(res.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_the_replay_page_shows_the_analysis(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(seeded_server.ws_url)
    clients.append(c)
    playing = create_vs_bots(c, bots=1)
    code = playing["room"]
    status, body = _get(f"{seeded_server.base}/api/rooms/{code}/analysis")
    assert status == 403 and body["code"] == "not-finished"  # no analysis of a game in play
    draw_until_round_over(c)  # Ann only ever draws: the seeded deal lets her do better
    status, analysis = _get(f"{seeded_server.base}/api/rooms/{code}/analysis")
    assert status == 200 and analysis["format"] == "rummikub-analysis/1"
    ann = analysis["players"][0]
    assert ann["name"] == "Ann" and ann["verdicts"]["blunder"] + ann["verdicts"]["mistake"] > 0
    miss = next(
        t for t in analysis["turns"]
        if t["player"] == 0 and t["verdict"] not in ("best", "forced")
    )  # fmt: skip
    assert miss["round"] == 0 and miss["action"] == "draw" and miss["best"]
    assert _get(f"{seeded_server.base}/api/rooms/NOSUCH/analysis")[0] == 404

    ctx = browser.new_context(locale="en-GB")
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{seeded_server.base}/replay/{code}")
    page.wait_for_selector("#replay-next")
    assert page.locator(".replay-verdict").count() == 0  # off until asked for
    # the standings: one line per player over every position, and a marker where the replay is
    assert page.locator(".standings polyline").count() == 2
    points = page.get_attribute(".standings polyline.curve-0", "points")
    assert points is not None and len(points.split()) == page.locator("#replay-slider").evaluate(
        "(el) => Number(el.max) + 1"
    )
    for _ in range(miss["turn"] + 1):  # the deal is the first position, then one per turn
        page.click("#replay-next")
    page.click("#replay-analyse")
    page.wait_for_selector(".replay-verdict[data-verdict]", timeout=30_000)
    verdict = page.locator(".replay-verdict")
    assert verdict.get_attribute("data-verdict") == miss["verdict"]
    text = verdict.inner_text()
    assert f"points lost: {miss['lost']}" in text
    assert "Better: place " + " ".join(miss["best_placed"]) in text
    # Ann drew although a play (or an opening) existed: the finding says which
    assert miss["findings"] and set(miss["findings"]) <= {"drew-with-play", "missed-opening"}
    shown = page.eval_on_selector_all(
        ".replay-verdict .finding", "els => els.map(e => e.dataset.finding)"
    )
    assert shown == miss["findings"]
    page.click("#replay-better")
    page.wait_for_selector(".replay-table.better")
    faces = page.eval_on_selector_all(
        ".replay-table.better .piece", "els => els.map(e => e.dataset.face)"
    )
    # a joker shows the tile it stands for (J=B11); the analysis writes it J
    base = [f.partition("=")[0] for f in faces]
    assert sorted(base) == sorted(t.partition("=")[0] for meld in miss["best"] for t in meld)
    page.click("#replay-better")  # back to the play that was made
    page.wait_for_selector(".replay-table:not(.better)")
    # the score card's link opens the replay with the analysis asked for at once
    page.goto(f"{seeded_server.base}/replay/{code}?analyse=1")
    page.wait_for_selector("#replay-next")
    for _ in range(miss["turn"] + 1):
        page.click("#replay-next")
    page.wait_for_selector(".replay-verdict[data-verdict]", timeout=30_000)
    assert page.locator(".replay-verdict").get_attribute("data-verdict") == miss["verdict"]
    assert not errors, errors
    ctx.close()
