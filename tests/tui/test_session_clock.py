"""The turn clock of a :class:`Session`: once the time is over the timeout wins, whatever the
caller submits (item 5 of issue 12)."""

from __future__ import annotations

from collections import Counter

from rummikub.core import Draw, Match, Play, preset
from rummikub.solver import solve
from rummikub.tui import Session


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _session(clock: Clock) -> Session:
    match = Match(preset("standard").replace(turn_seconds=60), ["Ann", "Bob"], seed=3)
    return Session(match, autosave=None, clock=clock)


def _opening(session: Session) -> Play:
    """A legal opening for the player to move (seed 3 deals one)."""
    state = session.match.state
    play = solve(state.table, state.rack, opened=False, rules=state.rules).as_play()
    assert play is not None
    return play


def test_a_play_after_the_clock_ran_out_is_a_timeout() -> None:
    clock = Clock()
    session = _session(clock)
    play = _opening(session)
    rack = session.match.state.rack
    pool = session.match.state.pool
    session.start_turn()
    clock.now += 61
    assert session.timed_out()
    log = session.submit(play)
    assert log.action == "timeout"
    assert session.match.state.table.melds == ()  # nothing of the play reached the table
    assert log.penalty == pool[:1]  # standard: 1 penalty tile
    assert session.match.state.racks[log.player].counts() == rack.counts() + Counter(log.penalty)


def test_a_draw_after_the_clock_ran_out_is_a_timeout() -> None:
    clock = Clock()
    session = _session(clock)
    session.start_turn()
    clock.now += 60
    log = session.submit(Draw())
    assert log.action == "timeout"


def test_a_play_in_time_is_played() -> None:
    clock = Clock()
    session = _session(clock)
    play = _opening(session)
    session.start_turn()
    clock.now += 59
    log = session.submit(play)
    assert log.action == "play"
    assert session.match.state.table.melds != ()
