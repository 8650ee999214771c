"""The puzzle page in Chromium at phone size: a shipped puzzle (80c1efe6: rack R3 R4 R6, the
group K5 R5 B5 to be taken apart) answered wrongly first (the page says which set is not
valid), then solved by its known solution with taps, accepted by the server and rated in the
browser's storage; the Puzzles link of the lobby leads to the page. A signed-in player's
solution is rated on the server, and his profile's Puzzles card shows it. The same puzzle
solved from the keyboard alone; a go-out missed in a finished game offered by its review and
opened as a puzzle, not rated."""

from __future__ import annotations

from typing import Any

from rummikub.core import Rules

from .browser_helpers import english_context, open_page
from .helpers import (
    SMALL,
    Client,
    ServerProcess,
    create_vs_bots,
    draw_and_wait,
    game,
    missing_go_outs,
    play_and_wait,
    to_move_or_over,
)

PID = "80c1efe6"
TABLE = ".meld .tile[data-tile='{}']"
RACK = ".rack .tile[data-tile='{}']"


def _move(page: Any, selector: str, onto: str) -> None:
    """Tap the tile ``selector``, then the table tile ``onto``: the first joins the set of the
    second."""
    face = page.locator(selector).first.get_attribute("data-face")
    page.locator(selector).first.click()
    page.locator(onto).first.click()
    page.wait_for_function(
        "([f, o]) => [...document.querySelectorAll('.meld')].some(m =>"
        " m.querySelector(`[data-tile='${f}']`) && m.querySelector(`[data-tile='${o}']`))",
        arg=[face, page.locator(onto).first.get_attribute("data-face")],
    )


def _solve(page: Any) -> None:
    """Lay out the known solution of PID: K5 to the black run, B5 to the blue run, the rack
    onto R5."""
    _move(page, TABLE.format("K5"), TABLE.format("K6"))
    _move(page, TABLE.format("B5"), TABLE.format("B6"))
    for face in ("R3", "R4", "R6"):
        _move(page, RACK.format(face), TABLE.format("R5"))
    assert page.locator(".meld.invalid").count() == 0


def test_a_puzzle_answered_wrongly_then_solved(browser: Any, sqlite_server: ServerProcess) -> None:
    ctx = browser.new_context(
        locale="en-GB", viewport={"width": 390, "height": 844}, has_touch=True
    )
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(sqlite_server.base + "/")
    page.click("#puzzles-link")
    page.wait_for_selector(".puzzle-page[data-puzzle]")  # the next puzzle near 1500
    page.goto(sqlite_server.base + f"/puzzles/{PID}")
    page.wait_for_selector(f".puzzle-page[data-puzzle='{PID}']")
    assert "whole rack" in page.inner_text("#puzzle-goal")
    # a wrong answer: R3 alone in a new set
    page.click(RACK.format("R3"))
    page.click("#puzzle-new-set")
    page.wait_for_selector(TABLE.format("R3"))
    page.click("#puzzle-check")
    page.wait_for_selector(".puzzle-page[data-result='false']")
    said = page.inner_text("#puzzle-message")
    assert "R3" in said and "not a valid set" in said, said
    assert "Rated:" in page.inner_text("#puzzle-rated")
    page.click("#puzzle-undo")
    page.wait_for_selector(RACK.format("R3"))
    _solve(page)
    page.click("#puzzle-check")
    page.wait_for_function(
        "() => document.querySelector('#puzzle-message').textContent.startsWith('Solved')"
    )
    assert "3 tiles placed" in page.inner_text("#puzzle-message")
    stored = page.evaluate("JSON.parse(localStorage.getItem('rummikub.puzzles'))")
    assert PID in stored["done"] and stored["rating"]["rating"] < 1500  # the first try failed
    # the solution is laid out with the moved tiles marked
    page.click("#puzzle-solution")
    page.wait_for_selector(".meld .piece.mark-moved")
    assert page.locator(".meld .piece.mark-rack").count() == 3
    assert not errors, errors
    ctx.close()


def test_a_signed_in_players_solution_is_rated_on_his_profile(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    base = sqlite_server.base
    ctx = english_context(browser, viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = open_page(ctx, base + "/account")
        page.fill("#signup-name", "Ann")
        page.fill("#signup-password", "correct horse battery")
        page.click("#signup-submit")
        page.wait_for_selector("#account-card")
        page.goto(base + f"/puzzles/{PID}")
        page.wait_for_selector(f".puzzle-page[data-puzzle='{PID}']")
        assert page.inner_text("#puzzle-my-rating") == "Your puzzle rating: 1500"
        _solve(page)
        page.click("#puzzle-check")
        page.wait_for_selector(".puzzle-page[data-result='true']")
        rated = page.inner_text("#puzzle-rated")
        assert rated.startswith("Rated: ") and "(+" in rated, rated
        rating = int(rated.removeprefix("Rated: ").split(" ")[0])
        assert rating > 1500
        assert page.inner_text("#puzzle-my-rating") == f"Your puzzle rating: {rating}"
        # the account's rating is the server's: the guest's in this browser is untouched
        guest = page.evaluate("JSON.parse(localStorage.getItem('rummikub.puzzles'))")
        assert guest["rating"]["rating"] == 1500 and guest["done"] == []
        # the profile's Puzzles card
        page.goto(base + "/players/Ann")
        page.wait_for_selector("#profile-puzzles")
        assert page.inner_text("#profile-puzzle-rating") == f"Rating {rating}"
        assert page.inner_text("#profile-puzzle-counts") == "Solved: 1 of 1"
        assert "after two rated puzzles" in page.inner_text("#no-puzzle-graph")
        line = page.locator(f"#profile-puzzles li[data-puzzle='{PID}']")
        assert "solved" in line.inner_text() and f"Rating {rating}" in line.inner_text()
        line.locator("a").click()
        page.wait_for_selector(f".puzzle-page[data-puzzle='{PID}']")
        assert page.inner_text("#puzzle-my-rating") == f"Your puzzle rating: {rating}"
        assert not page.errors, page.errors
    finally:
        ctx.close()


def test_the_next_puzzles_are_of_the_theme_chosen(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    """The page's menu of goals and themes (in the page's language): a choice loads a puzzle of
    it, and the address keeps it, so the next puzzles are of it too."""
    ctx = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844})
    ctx.set_default_timeout(20_000)
    ctx.add_init_script("localStorage.setItem('rummikub.lang', 'en');")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(sqlite_server.base + "/puzzles")
    page.wait_for_selector("#puzzle-theme option[value='joker-retrieval']", state="attached")
    labels = page.locator("#puzzle-theme option").all_inner_texts()
    assert labels[:3] == ["Any theme", "Go out", "Most tiles"] and "joker retrieval" in labels
    first = page.get_attribute(".puzzle-page", "data-puzzle")
    page.select_option("#puzzle-theme", "joker-retrieval")
    page.wait_for_function(
        "(f) => { const p = document.querySelector('.puzzle-page[data-puzzle]');"
        " return p && p.dataset.puzzle !== f; }",
        arg=first,
    )
    page.wait_for_function("() => location.search === '?theme=joker-retrieval'")
    assert "joker retrieval" in page.inner_text(".puzzle-page")  # its themes line
    shown = page.get_attribute(".puzzle-page", "data-puzzle")
    page.click("#puzzle-next")
    page.wait_for_function(
        "(f) => { const p = document.querySelector('.puzzle-page[data-puzzle]');"
        " return p && p.dataset.puzzle !== f; }",
        arg=shown,
    )
    assert "joker retrieval" in page.inner_text(".puzzle-page")
    assert page.input_value("#puzzle-theme") == "joker-retrieval"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # fits a phone
    assert not errors, errors
    ctx.close()


# Where the keyboard's focus is and where a tile is: (row, column) in the rows the arrows move
# between (keys.js): each set of the table (the set itself first, then its tiles), then the rack.
_WHERE = """(sel) => {
  const rows = [...document.querySelectorAll('.melds .meld')]
    .map((m) => [m, ...m.querySelectorAll('.piece')]);
  rows.push([...document.querySelectorAll('#puzzle-rack .piece')]);
  const find = (el) => { for (let r = 0; r < rows.length; r++) { const c = rows[r].indexOf(el);
    if (c >= 0) return [r, c]; } return null; };
  return [find(document.activeElement), find(sel ? document.querySelector(sel) : null)];
}"""


def _key_to(page: Any, selector: str) -> None:
    """Move the focus onto ``selector`` with the arrow keys only."""
    for _ in range(60):
        at, to = page.evaluate(_WHERE, selector)
        assert to is not None, selector
        if at == to:
            return
        if at is None or at[0] != to[0]:
            page.keyboard.press("ArrowDown" if at is None or at[0] < to[0] else "ArrowUp")
        else:
            page.keyboard.press("ArrowRight" if at[1] < to[1] else "ArrowLeft")
    raise AssertionError(f"the arrows did not reach {selector}")


def _key_move(page: Any, selector: str, onto: str) -> None:
    """From the keyboard: pick the tile ``selector`` up (Space), go to the set of the table
    tile ``onto`` (the arrows, Home: the set itself) and put it there (Enter)."""
    face = page.locator(selector).first.get_attribute("data-face")
    other = page.locator(onto).first.get_attribute("data-face")
    _key_to(page, selector)
    page.keyboard.press(" ")
    page.wait_for_selector(".piece.selected")
    _key_to(page, onto)
    page.keyboard.press("Home")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "([f, o]) => [...document.querySelectorAll('.meld')].some(m =>"
        " m.querySelector(`[data-face='${f}']`) && m.querySelector(`[data-face='${o}']`))",
        arg=[face, other],
    )


def test_a_puzzle_solved_from_the_keyboard(browser: Any, sqlite_server: ServerProcess) -> None:
    """The puzzle page plays with the game's keys: the arrows, Space/Enter, U/Y, Esc, E checks;
    `?` lists them."""
    ctx = english_context(browser, viewport={"width": 1280, "height": 900})
    try:
        page = open_page(ctx, sqlite_server.base + f"/puzzles/{PID}")
        page.wait_for_selector(f".puzzle-page[data-puzzle='{PID}']")
        page.keyboard.press("?")
        page.wait_for_selector("#keys-help")
        assert "check the answer" in page.inner_text("#keys-help")
        page.keyboard.press("Escape")
        page.wait_for_selector("#keys-help", state="detached")
        # a move undone (U) and done again (Y); Esc puts a piece picked up back
        _key_move(page, TABLE.format("K5"), TABLE.format("K6"))
        page.keyboard.press("u")
        page.wait_for_function("() => !document.querySelector('.meld.invalid')")
        page.keyboard.press("y")
        page.wait_for_selector(".meld.invalid")  # the group K5 R5 B5 lost a tile
        _key_to(page, RACK.format("R3"))
        page.keyboard.press("Enter")
        page.wait_for_selector(".piece.selected")
        page.keyboard.press("Escape")
        page.wait_for_selector(".piece.selected", state="detached")
        _key_move(page, TABLE.format("B5"), TABLE.format("B6"))
        for face in ("R3", "R4", "R6"):
            _key_move(page, RACK.format(face), TABLE.format("R5"))
        assert page.locator(".meld.invalid").count() == 0
        page.keyboard.press("e")
        page.wait_for_selector(".puzzle-page[data-result='true']")
        assert page.inner_text("#puzzle-message").startswith("Solved")
        assert not page.errors, page.errors
    finally:
        ctx.close()


def test_a_missed_go_out_is_offered_by_the_review_as_a_puzzle(
    browser: Any, seeded_server: ServerProcess, clients: list[Client]
) -> None:
    """Ann misses going out (the seeded deal lets her, more than once); the review of the
    finished game lists each miss, and its puzzle opens on the puzzle page, not rated."""
    base = seeded_server.base
    c = Client(seeded_server.ws_url)
    clients.append(c)
    code = create_vs_bots(c, bots=1, rules=SMALL)["room"]
    rules = Rules.from_dict(SMALL)
    missed: list[tuple[int, int, list[str]]] = []
    for _ in range(200):
        state = c.wait_state(to_move_or_over)
        g = game(state)
        if g["round_over"]:
            break
        table, could = missing_go_outs(g, state["you"], rules)
        if could:
            missed.append((g["round"], g["turn"], list(g["rack"])))
        if table is None:
            draw_and_wait(c, g)
        else:
            play_and_wait(c, g, table)
    assert len(missed) >= 2, missed
    ids = [f"{code}-{r + 1}-{t + 1}" for r, t, _ in missed]

    ctx = english_context(browser, viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = open_page(ctx, f"{base}/replay/{code}")
        page.click("#replay-analyse")
        page.wait_for_selector("#review-puzzles", timeout=30_000)
        listed = page.locator("#review-puzzles li[data-player='0']")
        assert listed.evaluate_all("(els) => els.map((e) => e.dataset.puzzle)") == ids
        r, t, held = missed[0]
        first = listed.first
        assert first.inner_text().startswith(
            f"Ann could have placed the whole rack in round {r + 1}, turn {t + 1}."
        )
        first.get_by_text("Show the position").click()
        page.wait_for_function(
            "(t) => document.querySelector('.replay-counter').textContent.includes(`turn ${t}`)",
            arg=t,  # the position before her turn: the turn before it
        )
        first.get_by_text("Solve it").click()
        page.wait_for_selector(f".puzzle-page[data-puzzle='{ids[0]}']")
        assert page.inner_text("#puzzle-game").startswith(
            f"From game {code}, round {r + 1}, turn {t + 1}: practice, not rated."
        )
        assert "whole rack" in page.inner_text("#puzzle-goal")
        rack = page.locator("#puzzle-rack .piece").evaluate_all(
            "(els) => els.map((e) => e.dataset.face)"
        )
        assert sorted(rack) == sorted(held)  # her rack then
        page.click("#puzzle-solution")
        page.wait_for_selector(".meld .piece.mark-rack")
        assert page.locator(".meld .piece.mark-rack").count() == len(rack)
        assert page.locator("#puzzle-rated").count() == 0  # not rated
        stored = page.evaluate("JSON.parse(localStorage.getItem('rummikub.puzzles'))")
        assert stored is None or ids[0] not in stored["done"]
        page.click("#puzzle-game a")
        page.wait_for_selector("#replay-analyse")
        assert page.url.endswith(f"/replay/{code}")
        assert not page.errors, page.errors
    finally:
        ctx.close()
