"""The outside-bot protocol, with real subprocess bots: the reference bot, and bots that hang,
crash, send garbage or send an illegal play and then retry."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rummikub.bots.beginner import BeginnerBot
from rummikub.bots.conformance import run_conformance
from rummikub.bots.play import play_match
from rummikub.bots.protocol import OutsideBot, ProtocolError, parse_answer
from rummikub.core import PRESETS, Draw, Match, Pass, Play, Timeout, preset

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = Path(__file__).resolve().parent / "programs"
SIMPLE = [sys.executable, str(ROOT / "examples" / "bots" / "simple_bot.py")]


def program(name: str, *args: str) -> list[str]:
    return [sys.executable, str(PROGRAMS / name), *args]


def test_parse_answer_actions() -> None:
    assert parse_answer('{"action": "draw"}') == Draw()
    assert parse_answer('{"action": "pass"}') == Pass()
    play = parse_answer('{"action":"play","play":["R4"],"table":[["R1","R2","R3","R4"]]}')
    assert isinstance(play, Play)
    assert [str(t) for t in play.tiles] == ["R4"]


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("nope", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"action": "dance"}', "'action'"),
        ('{"action": "play", "play": "R4", "table": []}', "'play'"),
        ('{"action": "play", "play": ["R4"], "table": 3}', "'table'"),
        ('{"action": "play", "play": ["X4"], "table": []}', "colour"),
    ],
)
def test_parse_answer_rejects_garbage_with_reason(line: str, words: str) -> None:
    with pytest.raises(ProtocolError, match=words):
        parse_answer(line)


def test_reference_bot_passes_conformance_under_every_preset() -> None:
    made: list[OutsideBot] = []

    def make(_: int) -> OutsideBot:
        made.append(OutsideBot(SIMPLE))
        return made[-1]

    report = run_conformance(make, games=2, opponents=[BeginnerBot], time_limit=10.0)
    for b in made:
        b.close()
    assert report.ok, report.summary()
    assert report.games == 2 * len(PRESETS)
    assert report.plays > 0
    assert all(b.program_name == "simple_bot" for b in made)
    assert sum(b.timeouts + b.crashes + b.rejected for b in made) == 0


def _one_turn(
    bot: OutsideBot, rules_name: str = "standard", limit: float = 0.5
) -> tuple[Match, Timeout | object]:
    match = Match(preset(rules_name), ["a", "b"], seed=3)
    obs = match.observation(match.state.current)
    return match, bot.act(obs, limit)


# the time limit of a turn includes starting the program: tests of what a bot answers (not of
# its time running out) give it ample time, so a slow start on a loaded machine changes nothing
AMPLE = 5.0


def test_hanging_bot_times_out_and_is_restarted() -> None:
    with OutsideBot(program("hang_bot.py"), startup_timeout=5.0) as bot:
        _, action = _one_turn(bot)
        assert isinstance(action, Timeout)
        assert bot.timeouts == 1
        _, action = _one_turn(bot)
        assert isinstance(action, Timeout)
        assert bot.restarts == 1  # a fresh program for the second turn


def test_hanging_bot_in_a_game_draws_timeout_penalties_and_never_hangs_the_host() -> None:
    rules = preset("tournament")  # timeout penalty: 3 tiles
    with OutsideBot(program("hang_bot.py"), max_restarts=1) as bot:
        match = play_match(rules, [bot, BeginnerBot()], seed=5, time_limit=0.3, max_turns=40)
    turns = match.rounds[0].turns
    mine = [t for t in turns if t.player == match.players.index(match.players[0])]
    assert mine and all(t.action == "timeout" for t in mine)
    assert all(len(t.penalty) == 3 for t in mine if t.penalty)
    assert bot.dead  # gave up restarting after max_restarts


def test_crashing_bot_is_marked_and_times_out() -> None:
    with OutsideBot(program("crash_bot.py"), max_restarts=2) as bot:
        results = [_one_turn(bot, limit=AMPLE)[1] for _ in range(4)]
        assert all(isinstance(a, Timeout) for a in results)
        assert bot.crashes >= 3
        assert bot.dead
        assert bot.starts == 3


def test_missing_program_is_dead_not_an_exception() -> None:
    with OutsideBot(["/nonexistent/program/xyz"]) as bot:
        _, action = _one_turn(bot)
    assert isinstance(action, Timeout)
    assert bot.dead


def test_garbage_is_rejected_then_times_out_under_reject() -> None:
    with OutsideBot(program("garbage_bot.py", "garbage")) as bot:
        _, action = _one_turn(bot, limit=2.0)  # waits the whole limit for a valid answer
        assert isinstance(action, Timeout)
        assert bot.rejected >= 2  # the garbage line and the bad retry


def test_garbage_is_an_invalid_play_under_penalty() -> None:
    rules = preset("tournament")
    with OutsideBot(program("garbage_bot.py", "garbage")) as bot:
        match = play_match(rules, [bot, BeginnerBot()], seed=2, time_limit=2.0, max_turns=6)
    mine = [t for t in match.rounds[0].turns if t.player == 0]
    assert mine and all(t.action == "invalid" for t in mine)
    assert all(len(t.penalty) == rules.invalid_penalty for t in mine)


def test_illegal_play_is_rejected_and_the_retry_counts() -> None:
    with OutsideBot(program("garbage_bot.py", "retry")) as bot:
        _, action = _one_turn(bot, limit=AMPLE)
        assert action == Draw()
        assert bot.rejected == 1
        assert bot.timeouts == 0


def test_conformance_reports_a_misbehaving_outside_bot() -> None:
    made: list[OutsideBot] = []

    def make(_: int) -> OutsideBot:
        made.append(OutsideBot(program("crash_bot.py"), max_restarts=0))
        return made[-1]

    report = run_conformance(
        make, games=1, presets=["standard"], opponents=[BeginnerBot], time_limit=1.0
    )
    for b in made:
        b.close()
    assert not report.ok
    assert {v.kind for v in report.violations} == {"timeout"}
