"""Readable pages in the browser. Contrast (WCAG AA): every text and link of the lobby, the
game (during a turn and on its score card), the replay, the profile, the leaderboard, the
account page, the assistant and the page of an unknown address reads at 4.5:1 against what is
behind it (3:1 for large text), and every focus indicator met by Tab is an outline of 2 px or
more at 3:1 against its surroundings. Measured from the browser's computed styles
(contrast.py), on a seeded deal, at desktop size, one page load each. On the same loads: the
players' names whole on their chips, the turn clock on the chip of the player to play, bots
named alike everywhere ("Greedy bot 2"), the replay's chart as wide as its box, the
leaderboard's filters in force marked, the password fields styled as the other fields.

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


# a long name (the longest an account may have), whole on its chip at desktop size
#: the connection's status shown as in the state given (app.js sets it from the socket's state)
SHOW_STATUS = """(state) => {
  const e = document.getElementById('conn-status');
  e.hidden = false;
  e.className = `conn-status ${state}`;
  e.textContent = state === 'connecting' ? 'Connecting…' : 'Connection lost, reconnecting…';
}"""
NAME = "AnnabelFitzgeraldLee"
BOTS = ["Greedy bot 2", "Beginner bot 3", "Strategic bot 4"]
WHOLE = "els => els.filter(e => e.scrollWidth > e.clientWidth).map(e => e.textContent)"


def test_every_text_link_and_focus_ring_meets_wcag_aa_and_the_pages_read_well(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    srv = seeded_server
    c = player(srv, sign_up(srv, NAME))
    clients.append(c)
    bots = [{"kind": "bot", "level": level} for level in ("greedy", "beginner", "strategic")]
    joined = c.request(
        type="create",
        name=NAME,
        rules=SMALL,
        seats=[{"kind": "human"}, *bots],
        settings={"bot_delay": 0},
    )
    assert joined["type"] == "joined", joined
    code = joined["room"]
    guest = Client(srv.ws_url)  # a connection holds one room: the dice game is another's
    clients.append(guest)
    dice = guest.request(
        type="create",
        name="Bea",
        game="xpress",
        seats=[{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
        settings={"bot_delay": 0},
    )
    assert dice["type"] == "joined", dice
    seats = "".join(
        f"localStorage.setItem('rummikub.seat.{j['room']}', "
        f'\'{{"seat": {j["seat"]}, "token": "{j["token"]}"}}\');'
        for j in (joined, dice)
    )
    ctx = english_context(browser, viewport={"width": 1280, "height": 800}, init=seats)
    low: dict[str, list[list[Any]]] = {}
    rings: dict[str, list[list[Any]]] = {}
    try:
        page = open_page(ctx, srv.base + "/")
        page.wait_for_selector("#room-preset option", state="attached")
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        low["lobby"] = low_contrast(page)
        live = page.inner_text(f".game-list li[data-code='{code}'] .who")
        assert live.startswith(", ".join([NAME, *BOTS])), live
        # the connection's status in each of its states, shown one after the other (the live
        # list above came through the open connection, which the page then shows no more)
        for state in ("connecting", "closed", "saving"):
            page.evaluate(SHOW_STATUS, state)
            low[f"lobby, the connection {state}"] = low_contrast(page)
        page.evaluate("() => { document.getElementById('conn-status').hidden = true; }")
        rings["lobby"] = focus_rings(page, 14)

        page.goto(f"{srv.base}/r/{code}")
        page.wait_for_selector(".rack .tile")
        # my turn (the bots before me may still be moving)
        page.wait_for_selector(".player.me.current .turn-clock")
        page.wait_for_function("() => document.querySelector('.turn-clock').textContent !== ''")
        assert page.locator(".pname").evaluate_all(WHOLE) == []
        assert page.locator(".pname").all_inner_texts() == [f"{NAME} (you)", *BOTS]
        # the clock: on the chip of the player to play (mine now), none in my controls
        assert page.locator(".turn-clock").count() == 1
        assert page.locator(".player.me.current .turn-clock").count() == 1
        assert page.locator(".controls .clock").count() == 0
        page.evaluate(ADD, list(SWATCHES["game"]))
        low["game"] = low_contrast(page)
        rings["game"] = focus_rings(page, 12)
        page.screenshot(path=str(ARTIFACTS / "contrast-game.png"))
        # the game on a phone (its own layout: chips two to a row, the clock on the avatar)
        phone = english_context(
            browser, viewport={"width": 390, "height": 844}, has_touch=True, init=seats
        )
        try:
            small = open_page(phone, f"{srv.base}/r/{code}")
            small.wait_for_selector(".player.me.current .turn-clock")
            low["game on a phone"] = low_contrast(small)
        finally:
            phone.close()
        # the dice game's page: the dice, the hands, its own words
        page.goto(f"{srv.base}/r/{dice['room']}")
        page.wait_for_selector(".dice-tray.rack .die")
        low["xpress"] = low_contrast(page)
        page.screenshot(path=str(ARTIFACTS / "contrast-xpress.png"))
        page.goto(f"{srv.base}/r/{code}")
        page.wait_for_selector(".rack .tile")
        assert draw_until_round_over(c)["game"]["match_over"]
        page.wait_for_selector(".overlay .score-card")
        low["score card"] = low_contrast(page)

        page.goto(f"{srv.base}/replay/{code}")
        page.wait_for_selector(".standings-box")
        # the chart of points left spans its box; bots named as in the game
        spans = "s => s.querySelector('polyline').getBoundingClientRect().width / s.clientWidth"
        assert page.locator("svg.standings").evaluate(spans) > 0.97
        assert page.locator(".standings-legend .legend").all_inner_texts() == [NAME, *BOTS]
        page.evaluate(ADD, list(SWATCHES["replay"]))
        low["replay"] = low_contrast(page)
        rings["replay"] = focus_rings(page, 8)

        for name, path, ready in (
            ("profile", f"/players/{NAME}", "#recent-games li"),
            ("leaderboard", "/leaderboard", ".leaderboard-card"),
            ("assistant", "/assistant", "#assist-preset option"),
            ("not found", "/no/such/page", "#not-found"),
        ):
            page.goto(srv.base + path)
            page.wait_for_selector(ready, state="attached")
            low[name] = low_contrast(page)
            if name == "profile":
                rings[name] = focus_rings(page, 6)
                who = page.inner_text("#recent-games li .who")
                assert who == f"{NAME} – {', '.join(BOTS)}", who
            if name == "leaderboard":
                marked = page.locator("[aria-current='true']")
                assert [marked.nth(i).get_attribute("id") for i in range(marked.count())] == [
                    "lb-tiles",
                    "lb-all",
                ]
                look = "e => getComputedStyle(e).backgroundImage + getComputedStyle(e).boxShadow"
                assert page.locator("#lb-tiles").evaluate(look) != page.locator(
                    "#lb-xpress"
                ).evaluate(look)
        # the account page as a visitor sees it: the log-in and sign-up forms
        ctx.clear_cookies()
        page.goto(srv.base + "/account")
        page.wait_for_selector("#login-form")
        page.fill("#login-password", "secret words")
        field = (
            "e => ['backgroundColor', 'borderTopColor', 'borderTopLeftRadius', 'minHeight']"
            ".map(p => getComputedStyle(e)[p])"
        )
        assert page.locator("#login-password").evaluate(field) == page.locator(
            "#login-name"
        ).evaluate(field)
        low["account"] = low_contrast(page)
        rings["account"] = focus_rings(page, 8)
        # the finished game in the lobby: its bots named as everywhere
        page.goto(srv.base + "/")
        who = page.locator(f".game-list li:has(a[href='/replay/{code}']) .who").inner_text()
        assert who == ", ".join([NAME, *BOTS]), who
        assert not page.errors, page.errors
    finally:
        ctx.close()
    # what was measured, for reading when it fails
    (ARTIFACTS / "contrast.json").write_text(json.dumps({"low": low, "rings": rings}, indent=1))
    assert {k: v for k, v in low.items() if v} == {}
    weak = {k: [r for r in v if r[1] < 2 or r[2] < 3] for k, v in rings.items() if len(v) >= 4}
    assert set(weak) == set(rings), rings  # every page had controls to reach with Tab
    assert {k: v for k, v in weak.items() if v} == {}
