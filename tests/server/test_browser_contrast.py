"""Contrast in the browser (WCAG AA): every text and link of the lobby, the game (during a turn
and on its score card), the replay, the profile, the leaderboard, the account page, the
assistant and the page of an unknown address reads at 4.5:1 against what is behind it (3:1
for large text), and every focus indicator met by Tab is an outline of 2 px or more at 3:1
against its surroundings. Measured from the browser's computed styles (contrast.py), on a
seeded deal, at desktop size, one page load each.

States a load does not show by itself (each verdict of the replay, a good or bad status line,
a set's reason) are added to the page with the classes the client gives them, so that the
stylesheet's colours for them are measured too."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .accounts_helpers import player, sign_up
from .browser_helpers import english_context, open_page
from .contrast import focus_rings, low_contrast
from .helpers import SMALL, Client, ServerProcess, draw_until_round_over

ARTIFACTS = Path(os.environ.get("RUMMIKUB_ARTIFACTS", "/tmp/rummikub-browser"))
ARTIFACTS.mkdir(parents=True, exist_ok=True)

# (parent, html): the states each page is given to measure (the client's own classes)
SWATCHES = {
    "game": (
        ".table-area",
        '<div class="status-line"><span class="bad">Not valid</span> '
        '<span class="good">Valid: 30 points</span></div>'
        '<div class="meld-reason">a run needs three tiles</div><div class="meld-value">+30</div>',
    ),
    "replay": (
        ".replay",
        "".join(
            f'<div class="replay-verdict verdict-{v}"><span class="verdict-text">{v} move</span>'
            ' <span class="finding">a finding</span></div>'
            for v in ("best", "good", "forced", "inaccuracy", "mistake", "blunder")
        ),
    ),
}
ADD = "([parent, html]) => document.querySelector(parent).insertAdjacentHTML('beforeend', html)"


def test_every_text_link_and_focus_ring_meets_wcag_aa(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    srv = seeded_server
    c = player(srv, sign_up(srv, "Annabel"))
    clients.append(c)
    bots = [{"kind": "bot", "level": level} for level in ("greedy", "beginner", "strategic")]
    joined = c.request(
        type="create",
        name="Annabel",
        rules=SMALL,
        seats=[{"kind": "human"}, *bots],
        settings={"bot_delay": 0},
    )
    assert joined["type"] == "joined", joined
    code = joined["room"]
    seat = f'{{"seat": {joined["seat"]}, "token": "{joined["token"]}"}}'
    ctx = english_context(
        browser,
        viewport={"width": 1280, "height": 800},
        init=f"localStorage.setItem('rummikub.seat.{code}', '{seat}');",
    )
    low: dict[str, list[list[Any]]] = {}
    rings: dict[str, list[list[Any]]] = {}
    try:
        page = open_page(ctx, srv.base + "/")
        page.wait_for_selector("#room-preset option", state="attached")
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        low["lobby"] = low_contrast(page)
        rings["lobby"] = focus_rings(page, 14)

        page.goto(f"{srv.base}/r/{code}")
        page.wait_for_selector(".rack .tile")
        page.evaluate(ADD, list(SWATCHES["game"]))
        low["game"] = low_contrast(page)
        rings["game"] = focus_rings(page, 12)
        page.screenshot(path=str(ARTIFACTS / "contrast-game.png"))
        assert draw_until_round_over(c)["game"]["match_over"]
        page.wait_for_selector(".overlay .score-card")
        low["score card"] = low_contrast(page)

        page.goto(f"{srv.base}/replay/{code}")
        page.wait_for_selector(".standings-box")
        page.evaluate(ADD, list(SWATCHES["replay"]))
        low["replay"] = low_contrast(page)
        rings["replay"] = focus_rings(page, 8)

        for name, path, ready in (
            ("profile", "/players/Annabel", "#recent-games li"),
            ("leaderboard", "/leaderboard", ".leaderboard-card"),
            ("assistant", "/assistant", "#assist-preset option"),
            ("not found", "/no/such/page", "#not-found"),
        ):
            page.goto(srv.base + path)
            page.wait_for_selector(ready, state="attached")
            low[name] = low_contrast(page)
            if name == "profile":
                rings[name] = focus_rings(page, 6)
        # the account page as a visitor sees it: the log-in and sign-up forms
        ctx.clear_cookies()
        page.goto(srv.base + "/account")
        page.wait_for_selector("#login-form")
        page.fill("#login-password", "secret words")
        low["account"] = low_contrast(page)
        rings["account"] = focus_rings(page, 8)
        assert not page.errors, page.errors
    finally:
        ctx.close()
    # what was measured, for reading when it fails
    (ARTIFACTS / "contrast.json").write_text(json.dumps({"low": low, "rings": rings}, indent=1))
    assert {k: v for k, v in low.items() if v} == {}
    weak = {
        k: [r for r in v if r[1] < 2 or r[2] < 3] for k, v in rings.items() if len(v) >= 4
    }
    assert set(weak) == set(rings), rings  # every page had controls to reach with Tab
    assert {k: v for k, v in weak.items() if v} == {}
