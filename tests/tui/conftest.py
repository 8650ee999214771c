"""Helpers to drive the real app: rigged deals, a fake clock, clicking tiles."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from rummikub.core import Match, PlayerInfo, Rack, RoundLog, RoundState, Rules, parse_tiles
from rummikub.tui import RummikubApp, Session
from rummikub.tui.screens import GameScreen
from rummikub.tui.widgets import RackView, TableView

SIZE = (110, 34)


class FakeClock:
    """A turn clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def rigged_match(
    rules: Rules,
    players: list[PlayerInfo],
    racks: list[str],
    front: str,
    *,
    first: int = 0,
    seed: int = 1,
) -> Match:
    """A match whose first round deals ``racks`` and whose pool starts with ``front`` (the
    rest of the set follows in canonical order), as a real record would hold it."""
    match = Match(rules, players, seed)
    dealt = [Rack(parse_tiles(r)) for r in racks]
    head = list(parse_tiles(front))
    rest = Counter(rules.all_tiles())
    for r in dealt:
        rest.subtract(r.tiles)
    rest.subtract(head)
    assert not -rest, f"more tiles than the set has: {-rest}"
    pool = tuple(head) + tuple(rest.elements())
    match.rounds[-1] = RoundLog(pool, first, tuple(dealt))
    match.state = RoundState.start(rules, dealt, pool, first)
    return match


#: Ann (a person) against a beginner bot; racks of 8. Ann can open with R10 R11 R12, then
#: rearrange (R9 + B12 O12 with the R12), then go out with K1 K2 + the K3 and K4 she draws.
RULES = Rules(rack_size=8, turn_seconds=120)
ANN = "R10 R11 R12 R9 B12 O12 K1 K2"
BOT = "K5 R2 B3 O4 R6 B8 O10 K12"
FRONT = "O1 B1 K3 R1 K4 B2"  # bot, bot, Ann (draw), bot, Ann (timeout), bot


def duel(*, rules: Rules = RULES) -> Match:
    return rigged_match(
        rules, [PlayerInfo("Ann"), PlayerInfo("Bot", "bot", "beginner")], [ANN, BOT], FRONT
    )


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_app(clock: FakeClock, tmp_path: Path) -> Iterator[object]:
    def make(match: Match | None = None, **kwargs: object) -> RummikubApp:
        session = None if match is None else Session(match, autosave=None)
        opts: dict[str, object] = {
            "lang": "en",
            "clock": clock,
            "tick": 0.05,
            "speed": 4,
            "save_path": tmp_path / "saved.json",
        }
        opts.update(kwargs)
        return RummikubApp(session=session, **opts)  # type: ignore[arg-type]

    yield make


async def settle(pilot: Pilot[None], app: RummikubApp, rounds: int = 40) -> None:
    """Let bot workers and timers run until a person is to move (or a screen waits)."""
    for _ in range(rounds):
        await app.workers.wait_for_complete()
        await pilot.pause(0.02)
        screen = app.screen
        if not isinstance(screen, GameScreen) or screen.editor is not None:
            return


def game(app: RummikubApp) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen), f"on {screen!r}"
    return screen


def piece(screen: GameScreen, tile: str, origin: str) -> int:
    ed = screen.editor
    assert ed is not None
    pool = ed.rack if origin == "rack" else [p for m in ed.melds for p in m]
    want = parse_tiles(tile)[0]
    return next(p.id for p in pool if p.tile == want)


async def click_tile(pilot: Pilot[None], tile: str, origin: str = "rack") -> None:
    screen = game(pilot.app)  # type: ignore[arg-type]
    pid = piece(screen, tile, origin)
    view = screen.query_one(
        "#rack" if origin == "rack" else "#table", RackView if origin == "rack" else TableView
    )
    offset = view.offset_of(lambda h: h.kind == "tile" and h.piece == pid)
    assert await pilot.click(view, offset=(offset.x, offset.y))
    await pilot.pause()


async def click_hit(pilot: Pilot[None], view_id: str, kind: str, meld: int | None = None) -> None:
    screen = game(pilot.app)  # type: ignore[arg-type]
    view = screen.query_one(view_id, TableView if view_id == "#table" else RackView)
    offset = view.offset_of(lambda h: h.kind == kind and (meld is None or h.meld == meld))
    assert await pilot.click(view, offset=(offset.x, offset.y))
    await pilot.pause()


def table_text(screen: GameScreen) -> list[str]:
    ed = screen.editor
    if ed is not None:
        return [" ".join(str(p.tile) for p in m) for m in ed.melds]
    return [str(m) for m in screen.session.match.state.table.melds]


def screen_lines(app: App[Any]) -> list[str]:
    """The text the terminal shows now, one string per screen row (what a user sees, not what
    a widget holds: a widget laid out off-screen or cut off shows nothing here)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]
