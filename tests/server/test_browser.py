"""Browser tests: Playwright driving the system Chromium against a real server."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from rummikub.core import Rack, Rules, pack_melds, parse_tiles, rack_value, read_meld

from .browser_helpers import build_melds, drag_until, wait_turn_passed
from .helpers import Client, ServerProcess, create_vs_bots, draw_and_wait, game


def _context(browser: Any, **kw: Any) -> Any:
    ctx = browser.new_context(locale="en-GB", **kw)
    ctx.set_default_timeout(20_000)
    return ctx


def _seat_page(
    browser: Any, server: ServerProcess, code: str, seat: int, token: str, **kw: Any
) -> Any:
    ctx = _context(browser, **kw)
    ctx.add_init_script(
        f"localStorage.setItem('rummikub.seat.{code}', "
        f"JSON.stringify({{seat: {seat}, token: {json.dumps(token)}}}));"
        "localStorage.setItem('rummikub.lang', 'en');"
    )
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/r/{code}")
    page.wait_for_selector(".rack .tile")
    page.errors = errors
    return page


def _points(page: Any) -> list[int]:
    """The points each hand's label on the page gives ("14 tiles · 117 points")."""
    labels: list[str] = page.eval_on_selector_all(".tray-label", "els => els.map(e => e.innerText)")
    return [int(re.findall(r"worth (\d+)", text)[0]) for text in labels]


def _rack(page: Any) -> list[str]:
    tiles: list[str] = page.eval_on_selector_all(
        ".rack .tile", "els => els.map(e => e.dataset.tile)"
    )
    return tiles


def _play_melds(page: Any, melds: list[list[str]]) -> None:
    """Build each meld on the table by dragging its tiles from the rack."""
    build_melds(page, melds, '.rack .tile[data-tile="{}"]', ".rack .tile")


def _my_turn_or_end(page: Any) -> str:
    page.wait_for_selector("#btn-draw:not([disabled]), .overlay .score-card", timeout=60_000)
    return "end" if page.locator(".overlay .score-card").count() else "turn"


def test_lobby_starts_a_game_against_bots(browser: Any, sqlite_server: ServerProcess) -> None:
    ctx = _context(browser)
    page = ctx.new_page()
    page.goto(sqlite_server.base + "/")
    page.fill("#player-name", "Ann")
    page.select_option("#quick-opponents", "2")
    page.click("#play-bots")
    page.wait_for_selector(".rack .tile")
    assert page.locator(".rack .tile").count() == 14
    assert page.locator(".players .player").count() == 3
    assert "/r/" in page.url
    # the language switch translates the page
    page.select_option("#lang-select", "sv")
    page.wait_for_selector("text=Sortera")
    ctx.close()


def test_a_person_plays_against_bots_to_the_end_of_a_round(
    browser: Any, sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(sqlite_server.ws_url)
    clients.append(c)
    joined = create_vs_bots(c, bots=1, rules="casual", bot_delay=0.05)
    page = _seat_page(browser, sqlite_server, joined["room"], 0, joined["token"])
    rules = Rules.from_dict("casual")
    played = 0
    for _ in range(150):
        if _my_turn_or_end(page) == "end":
            break
        turn = page.get_attribute(".game", "data-turn")
        rack = _rack(page)
        opened = page.locator(".player.me .opened").count() > 0
        melds = pack_melds(
            parse_tiles(" ".join(rack)), rules, objective="tiles" if opened else "value"
        )
        value = sum(read_meld(m, rules).value for m in melds)
        if melds and (opened or value >= rules.opening_value):
            _play_melds(page, [[str(t) for t in m.tiles] for m in melds])
            try:
                page.wait_for_selector("#btn-play:not([disabled])")
            except Exception:
                page.screenshot(path="/tmp/rummikub-play-failed.png")
                raise
            page.click("#btn-play")
            played += 1
        else:
            page.click("#btn-draw")
        wait_turn_passed(page, turn)
    else:
        raise AssertionError("the round did not end")
    card = page.locator(".overlay .score-card")
    assert card.locator("table.scores tr.totals").count() == 1
    assert page.locator("a[href^='/replay/']").count() == 2  # the replay, and its analysis
    assert page.get_attribute("#btn-analysis", "href", timeout=1000).endswith("?analyse=1")
    assert not page.errors
    page.click("a[href^='/replay/']:not(#btn-analysis)")
    page.wait_for_selector("#replay-next")
    page.click("#replay-last")
    assert page.locator(".replay-end").count() == 1
    page.context.close()


def _first_to_move(*pages: Any) -> Any:
    """The page whose player may draw (the first player is chosen by the deal)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for page in pages:
            if page.locator("#btn-draw:not([disabled])").count():
                return page
        time.sleep(0.05)
    raise AssertionError("nobody may move")


def test_two_people_play_each_other(browser: Any, sqlite_server: ServerProcess) -> None:
    ctx_a = _context(browser)
    a = ctx_a.new_page()
    a.goto(sqlite_server.base + "/")
    a.fill("#player-name", "Ann")
    a.select_option("#room-players", "2")
    a.click("#create-room")
    link = a.locator("#invite-link").input_value()
    ctx_b = _context(browser, viewport={"width": 390, "height": 844}, has_touch=True)
    b = ctx_b.new_page()
    b.goto(link)
    b.fill("#join-name", "Bo")
    b.click("#join-seat")
    a.wait_for_selector(".rack .tile")
    b.wait_for_selector(".rack .tile")
    mover = _first_to_move(a, b)
    other = b if mover is a else a
    for _ in range(4):  # with two players a draw passes the turn to the other
        before = other.locator(".log-list li").count()
        mover.click("#btn-draw")
        other.wait_for_function(
            f"() => document.querySelectorAll('.log-list li').length > {before}"
        )
        other.wait_for_selector("#btn-draw:not([disabled])")
        mover.wait_for_selector("#btn-draw[disabled]")
        mover, other = other, mover
    for page in (a, b):  # each drew twice; wait for the last draw to be drawn on the page
        page.wait_for_function("() => document.querySelectorAll('.rack .tile').length === 16")
    b.click(".tab[data-tab='chat']")
    b.fill("#chat-input", "Hej Ann!")
    b.press("#chat-input", "Enter")
    a.click(".tab[data-tab='chat']")
    a.wait_for_selector("text=Hej Ann!")
    ctx_a.close()
    ctx_b.close()


def test_reload_mid_turn_reconnects(
    browser: Any, sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(sqlite_server.ws_url)
    clients.append(c)
    joined = create_vs_bots(c, bots=1, rules="casual", bot_delay=0.05)
    page = _seat_page(browser, sqlite_server, joined["room"], 0, joined["token"])
    assert _my_turn_or_end(page) == "turn"
    rack = _rack(page)
    drag_until(
        page,
        page.locator(".rack .tile").first,
        page.locator(".new-meld"),
        "!!document.querySelector('.meld .tile.placed')",
    )
    assert len(_rack(page)) == len(rack) - 1
    page.reload()
    page.wait_for_selector("#btn-draw:not([disabled])")
    # the tab kept the unfinished move (it was not played: drawing now undoes it)
    page.wait_for_selector(".meld .tile.placed")
    assert len(_rack(page)) == len(rack) - 1
    page.click("#btn-draw")
    page.click("#btn-draw-anyway")
    page.wait_for_function(
        f"() => document.querySelectorAll('.rack .tile').length == {len(rack) + 1}"
    )
    page.context.close()


def test_a_spectator_sees_no_racks(
    browser: Any, sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(sqlite_server.ws_url)
    clients.append(c)
    joined = create_vs_bots(c, bots=1, rules="casual", bot_delay=0.05)
    ctx = _context(browser)
    page = ctx.new_page()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    page.goto(f"{sqlite_server.base}/r/{joined['room']}?watch=1")
    page.wait_for_selector(".players .player")
    c.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == 0)
    c.request(type="draw")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and len(frames) < 3:
        page.wait_for_timeout(100)
    assert page.locator(".rack").count() == 0
    assert page.locator(".spectator-bar").count() == 1
    assert frames and all('"rack":' not in f for f in frames)
    ctx.close()


def test_a_long_table_keeps_its_scroll_and_shows_a_new_meld(
    browser: Any, sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    """On a table taller than the window, every move re-renders the page: the table must stay
    where the player scrolled it, and a meld just made (at the end) must come into view."""
    c = Client(sqlite_server.ws_url)
    clients.append(c)
    joined = create_vs_bots(c, bots=1, rules="casual", bot_delay=0.05)
    page = _seat_page(browser, sqlite_server, joined["room"], 0, joined["token"],
                      viewport={"width": 1000, "height": 460})  # fmt: skip
    assert _my_turn_or_end(page) == "turn"
    area = page.locator(".table-area")
    visible = (
        "(i) => { const a = document.querySelector('.table-area').getBoundingClientRect();"
        ' const m = document.querySelector(`.meld[data-index="${i}"]`);'
        " if (!m) return false; const r = m.getBoundingClientRect();"
        " return r.top >= a.top - 1 && r.bottom <= a.bottom + 1; }"
    )
    made = page.locator(".meld").count()
    for mine in range(1, 13):  # one rack tile per new meld, tapped (select the tile, tap the zone)
        page.locator(".rack .tile").first.click()
        page.locator(".new-meld").click()
        # drawn with the server's check (a lone tile is an invalid meld, with its reason)
        page.wait_for_function(f"() => document.querySelectorAll('.meld.invalid').length >= {mine}")
        made += 1
        assert page.evaluate(visible, made - 1), f"meld {made - 1} is not in view"
    scroll_height = area.evaluate("a => a.scrollHeight - a.clientHeight")
    assert scroll_height > 50, "the table should be taller than its area in this window"
    # the player scrolls back to the top; selecting a tile re-renders; the table stays there
    area.evaluate("a => { a.scrollTop = 0; }")
    page.locator(".rack .tile").first.click()
    page.wait_for_selector(".rack .tile.selected")
    assert area.evaluate("a => a.scrollTop") == 0
    area.evaluate("a => { a.scrollTop = 40; }")
    page.locator(".rack .tile").first.click()  # unselect: another re-render
    page.wait_for_selector(".rack .tile.selected", state="detached")
    assert area.evaluate("a => a.scrollTop") == 40
    assert not page.errors
    page.context.close()


def _others_draw(others: dict[int, Client], turn: int, current: int, until: int) -> int:
    """The players of ``others`` (protocol clients by seat) draw in turn until seat ``until``
    is to move; the turn reached."""
    while current != until:
        c = others[current]

        def this_turn(s: dict[str, Any], t: int = turn) -> bool:
            return s["game"] is not None and s["game"]["turn"] == t

        state = c.wait_state(this_turn)
        g = game(draw_and_wait(c, game(state)))
        turn, current = g["turn"], g["current"]
    return turn


def test_chat_keeps_its_text_while_the_others_move(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    """A player types into the chat while the three others move and chat: every state the
    server sends re-renders the table, but the text, its caret and the focus stay where they
    were, and Enter sends the text."""
    host = Client(seeded_server.ws_url)
    clients.append(host)
    code = host.request(type="create", name="Ann", seats=[{"kind": "human"}] * 4)["room"]
    ctx = _context(browser)
    ctx.add_init_script("localStorage.setItem('rummikub.lang', 'en');")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{seeded_server.base}/r/{code}")
    page.fill("#join-name", "Bea")
    page.click("#join-seat")
    page.wait_for_selector(".seat-list")
    others = {0: host}
    for seat, name in ((2, "Cid"), (3, "Dan")):
        c = Client(seeded_server.ws_url)
        clients.append(c)
        joined = c.request(type="join", room=code, name=name)
        assert joined["type"] == "joined" and joined["seat"] == seat, joined
        others[seat] = c
    page.wait_for_selector(".rack .tile")
    g = game(host.wait_state(lambda s: s["game"] is not None))
    turn = _others_draw(others, g["turn"], g["current"], until=1)
    page.click("#btn-draw:not([disabled])")  # Bea draws: now the three others move in turn
    g = game(host.wait_state(lambda s: s["game"] is not None and s["game"]["turn"] == turn + 1))
    page.click(".tab[data-tab='chat']")
    page.click("#chat-input")
    page.keyboard.type("Hi all")
    for _ in range(3):
        page.keyboard.press("ArrowLeft")  # the caret after "Hi "
    seq = int(page.get_attribute(".game", "data-seq"))
    assert host.request(type="chat", text="Ann here")["type"] == "ok"
    _others_draw(others, g["turn"], g["current"], until=1)
    page.wait_for_selector("#btn-draw:not([disabled])")  # the last of the three moves is drawn
    page.wait_for_selector(".chat-list li >> text=Ann here")
    assert int(page.get_attribute(".game", "data-seq")) >= seq + 3
    kept = page.evaluate(
        "() => { const i = document.getElementById('chat-input');"
        " return [document.activeElement === i, i.value, i.selectionStart, i.selectionEnd]; }"
    )
    assert kept == [True, "Hi all", 3, 3]
    page.keyboard.type("there ")
    page.keyboard.press("Enter")
    said = host.wait(lambda m: m["type"] == "chat" and m["seat"] == 1)
    assert said["text"] == "Hi there all"
    page.wait_for_selector(".chat-list li >> text=Hi there all")
    assert page.input_value("#chat-input") == ""
    assert not errors, errors
    ctx.close()


def test_the_rack_counts_a_joker_as_the_rooms_rules_say(
    browser: Any, sqlite_url: str, clients: list[Client]
) -> None:
    """The rack's points come from the room's rules (a joker counts ``joker_penalty``), not
    from a number the client knows: a room whose jokers count 50."""
    srv = ServerProcess(sqlite_url, env={"RUMMIKUB_TEST_SEED": "3"}).start()  # deals seat 0 a joker
    try:
        c = Client(srv.ws_url)
        clients.append(c)
        rules = {"preset": "casual", "joker_penalty": 50}
        joined = create_vs_bots(c, bots=1, rules=rules, bot_delay=0.05)
        state = c.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == 0)
        rack = game(state)["rack"]
        assert "J" in rack
        page = _seat_page(browser, srv, joined["room"], 0, joined["token"])
        page.wait_for_selector("#btn-draw:not([disabled])")
        assert _points(page) == [rack_value(Rack.parse(" ".join(rack)), Rules.from_dict(rules))]
        assert not page.errors
        page.context.close()
    finally:
        srv.stop()


def test_no_replay_of_a_game_still_being_played(
    browser: Any, sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(sqlite_server.ws_url)
    clients.append(c)
    joined = create_vs_bots(c, bots=1)
    ctx = _context(browser)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{sqlite_server.base}/replay/{joined['room']}")
    page.wait_for_selector("text=No replay for this game (yet).")
    assert "not finished" in page.inner_text(".card")
    assert page.locator("#replay-next").count() == 0
    assert not errors, errors
    ctx.close()
