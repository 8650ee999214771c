"""Seeded matches between bots: determinism, the match rules, and records that replay and
verify (and fail to verify when tampered with)."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummikub.bots.play import play_decision, play_match
from rummikub.bots.simulate import simulate as simulate_games
from rummikub.core.errors import IllegalPlayError, NotationError, RecordError, UsageError
from rummikub.xpress import (
    EndTurn,
    ExpertBot,
    GreedyBot,
    Place,
    Throw,
    XpressBot,
    XpressMatch,
    action_from_json,
    get_bot,
    load_xpress,
    load_xpress_match,
    read_xpress,
    replay_xpress,
    verify_xpress,
    write_xpress,
    xpress_record,
)
from rummikub.xpress.dice_game import XPRESS
from rummikub.xpress.rules import XpressRules


def simulate(games: int, seed: int, bots: tuple[str, str]) -> Iterator[dict[str, Any]]:
    return simulate_games(XPRESS, XpressRules(), bots, games=games, seed=seed, players=2)


def run_turn(match: XpressMatch, bot: XpressBot) -> None:
    """Let ``bot`` play the current turn to its end (or the round's end)."""
    player, turn = match.state.current, match.state.turn
    while match.state.end is None and (match.state.current, match.state.turn) == (player, turn):
        play_decision(XPRESS, match, bot)


@pytest.fixture(scope="module")
def greedy_record() -> dict[str, Any]:
    return next(simulate(1, 21, ("greedy", "greedy")))


def _no_times(record: dict[str, Any]) -> dict[str, Any]:
    """The record without the thinking times (``ms``), which vary from run to run."""
    out = copy.deepcopy(record)
    for rd in out["rounds"]:
        for turn in rd["turns"]:
            turn.pop("ms", None)
    return out


def test_same_seed_same_game(greedy_record: dict[str, Any]) -> None:
    again = next(simulate(1, 21, ("greedy", "greedy")))
    assert _no_times(again) == _no_times(greedy_record)
    other = next(simulate(1, 22, ("greedy", "greedy")))
    assert other["rounds"][0]["hands"] != greedy_record["rounds"][0]["hands"]


def test_match_is_six_rounds_with_alternating_start(greedy_record: dict[str, Any]) -> None:
    rounds = greedy_record["rounds"]
    assert len(rounds) == 6
    firsts = [r["first"] for r in rounds]
    assert all(firsts[i] != firsts[i + 1] for i in range(5))
    for r in rounds:
        assert r["end"]["reason"] in ("out", "blocked")
        hands = r["hands"]
        assert len(hands) == 2 and all(len(h) == 9 for h in hands)
        dice = sorted(d["die"] for h in hands for d in h)
        assert dice == list(range(18))  # all 18 dice come out of the pouch
    totals = [sum(r["end"]["scores"][p] for r in rounds) for p in range(2)]
    assert greedy_record["totals"] == totals


def test_record_replays_and_verifies(greedy_record: dict[str, Any], tmp_path: Path) -> None:
    rec = load_xpress(json.loads(json.dumps(greedy_record)))
    assert verify_xpress(rec) == sum(1 for _ in replay_xpress(rec)) > 0
    # the record's first turn of each player has no throw, later turns have one
    for rd in greedy_record["rounds"]:
        seen: set[int] = set()
        for turn in rd["turns"]:
            assert ("throw" in turn) == (turn["player"] in seen)
            seen.add(turn["player"])


def _tamper(record: dict[str, Any], edit: Any) -> dict[str, Any]:
    bad = copy.deepcopy(record)
    edit(bad)
    return bad


def _first_throw(rec: dict[str, Any]) -> dict[str, Any]:
    return next(t for t in rec["rounds"][0]["turns"] if "throw" in t)


def _first_place(rec: dict[str, Any]) -> dict[str, Any]:
    return next(t for t in rec["rounds"][0]["turns"] if t["places"])


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda r: r["rounds"][0]["end"]["scores"].__setitem__(0, 999), "differs"),
        (lambda r: r.__setitem__("totals", [1, 2]), "totals"),
        (lambda r: r["rounds"][1].__setitem__("first", r["rounds"][0]["first"]), "alternates"),
        (lambda r: _first_throw(r)["throw"]["faces"].__setitem__(0, "K99"), "no face|not"),
        (lambda r: _first_place(r)["places"][0]["table"].__setitem__(0, ["K1", "K2"]), "round 1"),
        (lambda r: _first_place(r).__setitem__("places", []), "round 1"),
        (lambda r: r["rounds"][0]["turns"][0].__setitem__("player", 5), "turn"),
        (lambda r: r["rounds"][0]["hands"][0].pop(), "setup"),
    ],
)
def test_tampered_records_fail_naming_the_place(
    greedy_record: dict[str, Any], edit: Any, message: str
) -> None:
    bad = _tamper(greedy_record, edit)
    with pytest.raises(RecordError, match=message):
        verify_xpress(load_xpress(bad))


def test_malformed_records_are_rejected() -> None:
    with pytest.raises(RecordError, match="not a rummikub-xpress/1"):
        load_xpress({"format": "rummikub-game/1"})
    with pytest.raises(RecordError, match="missing field 'layout'"):
        load_xpress({"format": "rummikub-xpress/1", "rules": {}})
    with pytest.raises(RecordError, match="unknown Xpress rules field"):
        load_xpress({"format": "rummikub-xpress/1", "rules": {"dice": 3}})


def test_write_and_read_and_resume_identically(tmp_path: Path) -> None:
    bots = [GreedyBot(), GreedyBot()]
    full = play_match(XpressRules(), bots, 5)
    # play the same match partly, save, resume from the record, finish: same result
    part = XpressMatch(full.players, 5)
    for _ in range(7):
        run_turn(part, bots[part.state.current])
    path = tmp_path / "part.json"
    write_xpress(part, path)
    resumed = load_xpress_match(read_xpress(path))
    assert resumed.state == part.state
    while True:
        while resumed.state.end is None:
            run_turn(resumed, bots[resumed.state.current])
        if resumed.over:
            break
        resumed.next_round()
    assert _no_times(xpress_record(resumed)) == _no_times(xpress_record(full))


def test_match_flow_errors() -> None:
    match = XpressMatch(["a", "b"], 1)
    with pytest.raises(UsageError, match="not over"):
        match.next_round()
    with pytest.raises(UsageError, match="2 players"):
        XpressMatch(["a", "b", "c"], 1)
    # a throw without faces is thrown by the game; a bad choice of dice spends nothing
    state = match.state
    with pytest.raises(IllegalPlayError):
        match.act(Throw((99,)))
    assert match.state == state
    match.abandon()
    assert match.state.end is not None and match.state.end.reason == "abandoned"
    assert match.rounds[-1].end is not None


def test_expert_game_replays() -> None:
    bots: list[XpressBot] = [ExpertBot(1, samples=4, max_seconds=None), GreedyBot()]
    match = play_match(XpressRules(), bots, 9)
    rec = load_xpress(json.loads(json.dumps(xpress_record(match))))
    assert verify_xpress(rec) > 0
    assert len(rec.rounds) == 6


def test_expert_keeps_useful_dice() -> None:
    from rummikub.core.tiles import parse_tile
    from rummikub.xpress import DieFace, XpressRules, XpressState, default_layout
    from rummikub.xpress.observation import observe

    layout = default_layout()
    # K5 (die 13) and K6 (die 4) kept; the other four dice can show K4, K7 or a joker
    spec = [(13, "K5"), (4, "K6"), (9, "B2"), (3, "B1"), (14, "O1"), (15, "O3")]
    mine = [DieFace(d, parse_tile(f)) for d, f in spec]
    other = [DieFace(d, layout.faces_of(d)[0]) for d in (0, 1, 2, 5, 6, 7)]
    state = XpressState.start(XpressRules(dice_per_player=6), layout, [mine, other], 0)
    state = dataclasses.replace(state, phase="throw")
    action = ExpertBot(3, samples=30, max_seconds=None).act(observe(state, 0))
    assert isinstance(action, Throw)
    # keeps the pair of the run and the low B2 O1, throws B1 and O3: at 2,048 futures the
    # ranking gives that 0.526 of the match, keeping the pair alone 0.510, throwing all 0.489
    assert set(action.dice) == {3, 15}
    greedy = GreedyBot().act(observe(state, 0))
    assert isinstance(greedy, Throw) and set(greedy.dice) == {d.die for d in mine}


def test_bots_by_name() -> None:
    assert get_bot("greedy").name == "greedy"
    assert get_bot("expert", 3).name == "expert"
    with pytest.raises(ValueError, match="unknown Xpress bot"):
        get_bot("nobody")


def test_actions_json_round_trip() -> None:
    for data in (
        {"action": "throw", "dice": [1, 2]},
        {"action": "throw", "dice": [1], "faces": ["J"]},
        {"action": "place", "dice": [3], "table": [["R1", "R2", "R3"]]},
        {"action": "end"},
    ):
        action = action_from_json(data)
        assert action.to_json() == data
    assert isinstance(action_from_json({"action": "end"}), EndTurn)
    assert isinstance(action_from_json({"action": "place", "dice": [1], "table": []}), Place)
    with pytest.raises(NotationError, match="unknown Xpress action"):
        action_from_json({"action": "draw"})
    with pytest.raises(NotationError, match="die numbers"):
        action_from_json({"action": "throw", "dice": ["a"]})


def test_observation_is_json_friendly() -> None:
    match = XpressMatch(["a", "b"], 4)
    obs = match.observation(0)
    data = json.loads(json.dumps(obs.to_json()))
    assert data["game"] == "xpress"
    assert len(data["hand"]) == 9 and len(data["other"]) == 9
    assert data["phase"] == ("place" if match.state.current == 0 else "throw")
    assert {d["die"] for d in data["hand"]}.isdisjoint({d["die"] for d in data["other"]})
