"""Waiting in tests of the terminal apps for what the app does in its own time (bots and hints
think on threads): by the clock, with a generous limit for a loaded machine, never by a count
of pauses."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

#: how long a test waits for the app (far beyond what a quiet machine needs)
PATIENCE = 120.0


async def until(
    pilot: Pilot[Any],
    done: Callable[[], bool],
    what: str,
    *,
    state: Callable[[], str] | None = None,
) -> None:
    """Let the app run until ``done()``; fail, saying ``what`` was awaited (and ``state()``,
    what the app was doing then), after :data:`PATIENCE` seconds."""
    deadline = time.monotonic() + PATIENCE
    while not done():
        if time.monotonic() >= deadline:
            seen = "" if state is None else f" ({state()})"
            raise AssertionError(f"waited {PATIENCE:.0f} s for {what}{seen}")
        await pilot.pause(0.01)
