"""Snapshots of the main screens (fixed deal, fixed size, frozen clock)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from rummikub.core import Draw, load_record, match_record
from rummikub.tui import RummikubApp, Session

from .conftest import SIZE, FakeClock, click_hit, click_tile, duel, settle

SnapCompare = Any


def app_for(session: Session | None = None, **kwargs: Any) -> RummikubApp:
    opts: dict[str, Any] = {"lang": "en", "clock": FakeClock(), "tick": 3600.0, "speed": 4}
    opts.update(kwargs)
    return RummikubApp(session=session, **opts)


def test_new_game_screen(snap_compare: SnapCompare) -> None:
    assert snap_compare(app_for(seed=7), terminal_size=SIZE)


def test_game_screen_with_an_invalid_meld(snap_compare: SnapCompare) -> None:
    app = app_for(Session(duel(), autosave=None))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await click_tile(pilot, "R10")
        await click_tile(pilot, "R11")
        await click_hit(pilot, "#table", "new")
        await click_tile(pilot, "B12")

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_game_screen_in_swedish(snap_compare: SnapCompare) -> None:
    app = app_for(Session(duel(), autosave=None), lang="sv")

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot, app)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_handover_screen(snap_compare: SnapCompare) -> None:
    from rummikub.core import PlayerInfo

    match = duel()
    match.players = (PlayerInfo("Ann"), PlayerInfo("Ben"))
    assert snap_compare(app_for(Session(match, autosave=None)), terminal_size=SIZE)


def test_round_end_screen(snap_compare: SnapCompare) -> None:
    from rummikub.core import Play

    match = duel()
    match.act(Play.of("R10 R11 R12", "R10 R11 R12"))
    match.act(Draw())
    match.act(Play.of("R9 B12 O12", "R9 R10 R11 | R12 B12 O12"))
    match.act(Draw())
    match.act(Draw())  # Ann draws K3
    match.act(Draw())
    match.act(Draw())  # Ann draws K4
    match.act(Draw())
    match.act(Play.of("K1 K2 K3 K4", "R9 R10 R11 | R12 B12 O12 | K1 K2 K3 K4"))
    assert match.round_over
    assert snap_compare(app_for(Session(match, autosave=None)), terminal_size=SIZE)


def test_replay_viewer(snap_compare: SnapCompare, tmp_path: Path) -> None:
    from rummikub.core import Play

    match = duel()
    match.act(Play.of("R10 R11 R12", "R10 R11 R12"))
    match.act(Draw())
    match.act(Play.of("R9 B12 O12", "R9 R10 R11 | R12 B12 O12"))
    record = load_record(match_record(match))
    assert snap_compare(app_for(record=record), terminal_size=SIZE, press=["end"])


def test_assistant_at_80x24(snap_compare: SnapCompare) -> None:
    """The assistant's answer on the smallest terminal it supports: the form, the new table
    with its marks, and the key line all in sight."""
    from rummikub.tui.assistant import AssistantApp

    app = AssistantApp(table="R1 R2 R3 | K5 B5 O5 | R7 R8 R9 R10", rack="R4 J K7", lang="en")
    assert snap_compare(app, terminal_size=(80, 24))


def test_new_game_screen_at_80x24(snap_compare: SnapCompare) -> None:
    """The form on the smallest terminal: its fields, Start with its key (F5) and the key line
    in sight."""
    assert snap_compare(app_for(seed=7), terminal_size=(80, 24))
