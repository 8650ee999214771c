"""The analysis of a finished game: served by the server (off its event loop) and shown on the
web replay page as a review: a summary per player, the evaluation graph with the mistakes
marked (a click or a key goes to one), the verdict of a turn and the better move laid out as
the whole new table with what it changes marked."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from typing import Any

from playwright.sync_api import expect

from .helpers import SMALL, Client, ServerProcess, create_vs_bots, draw_until_round_over

MISTAKES = ("inaccuracy", "mistake", "blunder")


def _get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=60) as res:
            return res.status, json.loads(res.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _percent(x: float) -> str:
    """A percentage as the page writes it in English: 87.5%, 100%."""
    return f"{x:.1f}".removesuffix(".0") + "%"


def _base(face: str) -> str:
    """A joker's role left out (J=B11 -> J): the analysis writes a joker J."""
    return face.partition("=")[0]


def _at(page: Any, position: int) -> None:
    """Wait until the replay shows position ``position`` (0: the deal)."""
    expect(page.locator("#replay-slider")).to_have_value(str(position))


def test_the_replay_page_reviews_the_game(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(seeded_server.ws_url)
    clients.append(c)
    playing = create_vs_bots(c, bots=1, rules=SMALL)  # a short game, quickly reviewed
    code = playing["room"]
    status, body = _get(f"{seeded_server.base}/api/rooms/{code}/analysis")
    assert status == 403 and body["code"] == "not-finished"  # no analysis of a game in play
    draw_until_round_over(c)  # Ann only ever draws: the seeded deal lets her do better
    status, analysis = _get(f"{seeded_server.base}/api/rooms/{code}/analysis")
    assert status == 200 and analysis["format"] == "rummikub-analysis/2"
    assert _get(f"{seeded_server.base}/api/rooms/NOSUCH/analysis")[0] == 404
    # made and kept, it is done (how it goes meanwhile: test_analysis_progress.py)
    progress = _get(f"{seeded_server.base}/api/rooms/{code}/analysis/progress")
    assert progress == (200, {"state": "done"})
    turns = analysis["turns"]
    # one round: the deal is the first position, then one per turn
    assert {t["round"] for t in turns} == {0} and [t["turn"] for t in turns] == list(
        range(len(turns))
    )
    marked = [t for t in turns if t["verdict"] in MISTAKES]
    assert len(marked) >= 2
    # Ann drew although she could play: one of those draws is the turn looked at here
    miss = next(
        t for t in marked
        if t["player"] == 0 and t["action"] == "draw" and t["best_action"] == "play"
    )  # fmt: skip
    assert miss["best"] and miss["best_changed"] and miss["best_placed"]
    calm = next(t for t in turns if t["verdict"] not in MISTAKES)  # a turn with no mark

    ctx = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{seeded_server.base}/replay/{code}")
    page.wait_for_selector("#replay-next")
    # off until asked for: the replay and its standings work without an analysis
    assert page.locator(".replay-verdict").count() == 0
    assert page.locator("#replay-review").is_hidden()
    assert page.locator(".standings polyline").count() == 2
    points = page.get_attribute(".standings polyline.curve-0", "points")
    assert points is not None and len(points.split()) == len(turns) + 1
    page.click("#replay-analyse")
    page.wait_for_selector(".review-summary", timeout=30_000)
    assert page.locator("#replay-progress").count() == 0  # the progress bar went with the wait

    # the summary: each player's accuracy, inaccuracies, mistakes, blunders and mean loss
    rows = page.locator(".review-summary tbody tr")
    assert rows.count() == 2
    for seat, player in enumerate(analysis["players"]):
        row = rows.nth(seat)
        assert row.locator("th").inner_text().strip() == ("Ann", "Beginner bot 2")[seat]
        assert row.locator("td.accuracy").inner_text() == _percent(player["accuracy"])
        for verdict in MISTAKES:
            assert row.locator(f"td.count-{verdict}").inner_text() == str(
                player["verdicts"][verdict]
            )
        assert row.locator("td.loss").inner_text() == f"{player['loss']:.1f}"

    # the graph: a line per player, a mark per inaccuracy, mistake and blunder, each named
    assert page.locator(".review-svg polyline.curve").count() == 2
    marks = page.locator(".review-mark")
    assert marks.count() == len(marked) >= 1
    mark = page.locator(f'.review-mark[data-round="0"][data-turn="{miss["turn"]}"]')
    assert mark.get_attribute("data-verdict") == miss["verdict"]
    assert mark.get_attribute("aria-label") == (
        f"Round 1, turn {miss['turn'] + 1}: Ann, {miss['verdict']}"
    )

    # a click on the mark goes to that turn, which the graph then marks
    mark.click()
    page.wait_for_selector(f'.replay-verdict[data-verdict="{miss["verdict"]}"]')
    _at(page, miss["turn"] + 1)
    assert "Round 1, turn " + str(miss["turn"] + 1) in page.inner_text(".replay-counter")
    expect(mark).to_have_class(re.compile(r"\bcurrent\b"))
    # the verdict line: the mover's win chance before and after, what the move cost, the
    # findings, and the better move
    text = page.inner_text(".replay-verdict")
    assert re.search(r"win chance \d+% → \d+%", text), text
    assert f"({miss['loss']:.1f} points of win chance lost)" in text
    assert "Better: play " + " ".join(miss["best_placed"]) in text
    shown = page.eval_on_selector_all(
        ".replay-verdict .finding", "els => els.map(e => e.dataset.finding)"
    )
    assert shown == miss["findings"]

    # the better move laid out: the whole new table, its new or changed sets framed and the
    # tiles it places marked; the sets it leaves alone plain
    page.click("#replay-better")
    page.wait_for_selector(".replay-table.better")
    faces = page.eval_on_selector_all(
        ".replay-table.better .piece", "els => els.map(e => e.dataset.face)"
    )
    assert sorted(map(_base, faces)) == sorted(_base(t) for m in miss["best"] for t in m)
    changed = page.eval_on_selector_all(
        ".replay-table.better .meld", "els => els.map(e => e.classList.contains('best-changed'))"
    )
    assert [i for i, x in enumerate(changed) if x] == sorted(miss["best_changed"])
    placed = page.eval_on_selector_all(
        ".replay-table.better .piece.best-placed", "els => els.map(e => e.dataset.face)"
    )
    assert sorted(map(_base, placed)) == sorted(map(_base, miss["best_placed"]))
    assert page.locator(".replay-table.better .meld:not(.best-changed) .best-placed").count() == 0
    assert page.locator(".review-better-key").is_visible()
    page.click("#replay-better")  # back to the move that was made
    page.wait_for_selector(".replay-table:not(.better)")

    # a click on the graph where no mark is goes to that turn too
    box = page.locator(".review-area").bounding_box()
    assert box is not None
    x = box["x"] + (calm["turn"] + 0.5) / len(turns) * box["width"]
    page.mouse.click(x, box["y"] + box["height"] / 2)
    _at(page, calm["turn"] + 1)
    # the keys: Shift+→ and ] to the next mistake, Shift+← and [ to the previous one; and the
    # buttons
    page.click("#replay-first")
    _at(page, 0)
    steps = [t["turn"] + 1 for t in marked]
    page.keyboard.press("Shift+ArrowRight")
    _at(page, steps[0])
    page.keyboard.press("]")
    _at(page, steps[1])
    page.keyboard.press("Shift+ArrowLeft")
    _at(page, steps[0])
    page.keyboard.press("[")
    _at(page, steps[0])  # no mistake before the first
    page.click("#review-next")
    _at(page, steps[1])
    page.click("#review-prev")
    _at(page, steps[0])

    # the score card's link opens the replay with the analysis asked for at once
    page.goto(f"{seeded_server.base}/replay/{code}?analyse=1")
    page.wait_for_selector(".review-mark")
    page.locator(f'.review-mark[data-turn="{miss["turn"]}"]').click()
    page.wait_for_selector(f'.replay-verdict[data-verdict="{miss["verdict"]}"]')
    assert not errors, errors
    ctx.close()
