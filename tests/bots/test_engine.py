"""The engine's side of ``rummikub-bot/1`` (:mod:`rummikub.bots.engine`) in one process: an
observation survives its JSON, every message gets the answer the protocol asks, and a bad
message is named."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.bots.engine import EngineSession, action_to_json, observation_from_json, serve
from rummikub.bots.greedy import GreedyBot
from rummikub.bots.play import play_decision
from rummikub.bots.protocol import PROTOCOL, ProtocolError, parse_answer
from rummikub.bots.random import RandomBot
from rummikub.core import Draw, Match, Observation, Pass, preset
from rummikub.games import get_game


def observation_after(seed: int, turns: int, rules: str = "standard") -> Observation:
    """An observation ``turns`` decisions into a seeded game of two random bots."""
    game = get_game("tiles")
    match = Match(preset(rules), ["a", "b"], seed=seed)
    bots = [RandomBot(seed), RandomBot(seed + 1)]
    for _ in range(turns):
        if match.round_over:
            break
        play_decision(game, match, bots[match.state.current], None)
    return match.observation(match.state.current, 12.5)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), turns=st.integers(0, 40),
       rules=st.sampled_from(["standard", "tournament", "casual", "swedish-tin"]))  # fmt: skip
def test_an_observation_survives_its_json(seed: int, turns: int, rules: str) -> None:
    obs = observation_after(seed, turns, rules)
    assert observation_from_json(json.loads(json.dumps(obs.to_json()))) == obs


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"rack": "R1"}, "'rack' must be list"),
        ({"rack": ["Q4"]}, "unknown colour letter"),
        ({"pool_size": True}, "'pool_size' must be int"),
        ({"player": 5}, "'player' 5"),
        ({"opened": [1, 0]}, "'opened' must be a list of true/false"),
        ({"time_left": "soon"}, "'time_left' must be a number"),
        ({"round": "first"}, "'round' must be int"),
        ({"table": [["R1", "Q2"]]}, "unknown colour letter"),
        ({"rules": {"colours": 99}}, "the observation:"),
    ],
)
def test_a_bad_observation_is_named(change: dict[str, object], words: str) -> None:
    data = {**observation_after(1, 3).to_json(), **change}
    with pytest.raises(ProtocolError, match=words):
        observation_from_json(data)


def test_actions_as_answer_lines() -> None:
    obs = observation_after(4, 0)
    play = GreedyBot().act(obs)
    assert parse_answer(json.dumps(action_to_json(play))) == play
    assert action_to_json(Draw()) == {"action": "draw"}
    assert action_to_json(Pass()) == {"action": "pass"}


class Recorder:
    """A bot that remembers the hooks it was told."""

    name = "recorder"

    def __init__(self, seed: int | None) -> None:
        self.seed = seed
        self.calls: list[tuple[object, ...]] = []

    def start_game(self, rules: object, seat: int, players: int) -> None:
        self.calls.append(("start", seat, players))

    def end_game(self, scores: tuple[int, ...], winners: tuple[int, ...]) -> None:
        self.calls.append(("end", scores, winners))

    def act(self, obs: Observation, time_limit: float | None = None) -> Draw:
        self.calls.append(("act", time_limit))
        return Draw()


def test_a_session_builds_a_fresh_bot_per_game_and_tells_it_the_hooks() -> None:
    made: list[Recorder] = []

    def make(seed: int | None) -> Recorder:
        made.append(Recorder(seed))
        return made[-1]

    session = EngineSession(make, seed=7)
    obs = observation_after(2, 0)
    rules = obs.rules.to_dict()
    assert session.handle(json.dumps({"type": "new_game", "rules": rules, "player": 1,
                                      "players": 2})) == []  # fmt: skip
    assert session.handle(json.dumps({"type": "turn", "observation": obs.to_json(),
                                      "time_limit": 1.0})) == [{"action": "draw"}]  # fmt: skip
    # a refused answer with a retry: a draw (the pool has tiles); without one: nothing
    retry = {"type": "error", "reason": "x", "message": "no", "retry": True}
    assert session.handle(json.dumps(retry)) == [{"action": "draw"}]
    assert session.handle(json.dumps({**retry, "retry": False})) == []
    assert session.handle(json.dumps({"type": "game_over", "scores": [5, -5],
                                      "winners": [0]})) == []  # fmt: skip
    assert [r.seed for r in made] == [7, 7]  # one at the start, a fresh one for the game
    assert made[1].calls == [("start", 1, 2), ("act", pytest.approx(0.95)),
                             ("end", (5, -5), (0,))]  # fmt: skip


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("[]", "a message must be a JSON object"),
        ('{"type": 3}', "a message needs a string 'type'"),
        ('{"type": "new_game", "rules": {}, "player": 2, "players": 2}', "'player' must be a seat"),
        ('{"type": "new_game", "player": 0, "players": 2}', "no 'rules' field"),
        ('{"type": "turn", "observation": {}, "time_limit": 1}', "no 'rules' field"),
        ('{"type": "game_over", "scores": "x", "winners": []}', "'scores' must be list"),
    ],
)
def test_a_bad_message_gets_an_error_line(line: str, words: str) -> None:
    session = EngineSession(lambda seed: GreedyBot(seed))
    (answer,) = session.handle(line)
    assert answer["type"] == "error" and answer["reason"] == "bad-message"
    assert words in str(answer["message"])
    assert not session.done


def test_serve_answers_until_quit() -> None:
    out = io.StringIO()
    lines = [json.dumps({"type": "hello", "protocol": PROTOCOL}), "", '{"type": "quit"}',
             json.dumps({"type": "hello", "protocol": PROTOCOL})]  # fmt: skip
    status = serve(EngineSession(lambda seed: GreedyBot(seed)), io.StringIO("\n".join(lines)), out)
    assert status == 0
    assert [json.loads(x) for x in out.getvalue().splitlines()] == [
        {"type": "ready", "name": "greedy", "protocol": PROTOCOL}
    ]
