"""Driving the Xpress terminal app from tests: the bot decides on a thread, so a test waits for
what it needs by the clock (a loaded machine is slow), never by a count of pauses."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot

from rummikub.tui.xpress_app import XpressApp

from ..waiting import PATIENCE, until

__all__ = ["PATIENCE", "ask_hint", "play_round", "until", "until_my_turn"]


async def until_my_turn(app: XpressApp, pilot: Pilot[None]) -> None:
    """Wait until the bot has handed the turn over (or the round has ended)."""
    match = app.match
    assert match is not None

    def doing() -> str:  # what the app was doing, should the bot never hand the turn over
        state = match.state
        return (
            f"seat {state.current} to {state.phase}, {state.placed} placed; bot thinking "
            f"{app._bot_thinking}, timer {app._bot_timer}; last lines {app.logged[-3:]}"
        )

    await until(
        pilot,
        lambda: match.state.end is not None or match.state.current == app.human,
        "the bot to hand the turn over",
        state=doing,
    )


async def ask_hint(app: XpressApp, pilot: Pilot[None]) -> None:
    """Press ``h`` and wait for the hint (it is looked for on a thread)."""
    await pilot.press("h")
    await until(pilot, lambda: not app.hinting, "the hint")


async def play_round(
    app: XpressApp, pilot: Pilot[None], after_key: Callable[[], None] | None = None
) -> None:
    """Play the round to its end as the person at the keyboard: throw every die, place what
    the hint selects (it must select dice, and they must go onto the table), end the turn.
    ``after_key`` runs after every key pressed."""
    match = app.match
    assert match is not None
    while True:
        await until_my_turn(app, pilot)
        state = match.state
        if state.end is not None:
            return
        if state.phase == "throw":
            await pilot.press("t")
        elif state.placed == 0 and state.can_place:
            await ask_hint(app, pilot)
            assert app.selected, "the hint selects the dice of the best placement"
            await pilot.press("p")
            assert match.state.placed > 0 or match.state.end is not None
        else:
            await pilot.press("e")
        if after_key is not None:
            after_key()
        await pilot.pause()
