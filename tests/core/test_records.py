"""Game records: write/read the FORMATS JSON, replay, verify, resume, and tampering."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from rummikub.core import (
    FORMAT,
    Draw,
    IllegalPlayError,
    Match,
    Play,
    RecordError,
    load_match,
    load_record,
    match_record,
    read_record,
    replay,
    verify,
    write_record,
)
from rummikub.core.rules import preset

from .games import score_table_record
from .strategies import STANDARD, play_random_match


def played(rules_name: str = "tournament", seed: int = 4, rounds: int = 2) -> Match:
    from rummikub.core import preset

    rules = preset(rules_name).replace(match={"rounds": rounds, "target": None})
    match = Match(rules, ["ann", "bob", "cy"], seed=seed)
    play_random_match(match, random.Random(seed), lambda *a: None, lambda *a: None)
    return match


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return match_record(played())


def test_record_has_the_formats_shape(record: dict[str, Any]) -> None:
    assert record["format"] == FORMAT == "rummikub-game/1"
    assert set(record) == {"format", "rules", "players", "seed", "rounds", "totals"}
    assert record["players"][0] == {"name": "ann", "kind": "human"}
    rd = record["rounds"][0]
    assert {"pool", "first", "racks", "turns", "end"} <= set(rd)
    actions = {t["action"] for r in record["rounds"] for t in r["turns"]}
    assert actions <= {"play", "draw", "pass", "timeout", "invalid"}
    assert {"play", "draw", "timeout", "invalid"} <= actions
    for r in record["rounds"]:
        for t in r["turns"]:
            keys = {"play": {"play", "table"}, "draw": {"tile"}, "timeout": {"penalty"}}
            assert keys.get(t["action"], set()) <= set(t)
    assert rd["end"]["reason"] in ("rummikub", "exhausted", "abandoned")
    assert json.loads(json.dumps(record)) == record


def test_record_round_trips(record: dict[str, Any], tmp_path: Path) -> None:
    rec = load_record(record)
    assert verify(rec) == sum(len(r["turns"]) for r in record["rounds"])
    assert match_record(load_match(rec)) == record
    path = tmp_path / "game.json"
    match = load_match(rec)
    write_record(match, path)
    assert json.loads(path.read_text()) == record
    assert match_record(load_match(read_record(path))) == record


def test_replay_reproduces_every_state() -> None:
    match = Match(STANDARD, ["a", "b"], seed=9)
    states = [match.state]
    play_random_match(match, random.Random(9), lambda b, a, x: states.append(a), lambda *a: None)
    steps = list(replay(load_record(match_record(match))))
    assert [s.after for s in steps] == states[1:]
    assert steps[0].before == states[0]


def test_resume_a_running_game() -> None:
    match = Match(STANDARD, ["a", "b"], seed=21)
    for _ in range(5):
        match.act(Draw())
    resumed = load_match(load_record(json.loads(json.dumps(match_record(match)))))
    assert resumed.state == match.state
    assert resumed.act(Draw()) == match.act(Draw())
    assert resumed.state == match.state


def _bad(record: dict[str, Any], *fragments: str) -> RecordError:
    with pytest.raises(RecordError) as info:
        verify(load_record(record))
    for f in fragments:
        assert f in str(info.value), str(info.value)
    return info.value


def _first(record: dict[str, Any], action: str) -> tuple[int, dict[str, Any]]:
    turns = record["rounds"][0]["turns"]
    k = next(i for i, t in enumerate(turns) if t["action"] == action)
    return k, turns[k]


def test_tampered_draw(record: dict[str, Any]) -> None:
    rec = copy.deepcopy(record)
    k, t = _first(rec, "draw")
    t["tile"] = "O13" if t["tile"] != "O13" else "O12"
    err = _bad(rec, f"round 1, turn {k + 1}", "drew")
    assert (err.round, err.turn) == (0, k)


def test_tampered_play(record: dict[str, Any]) -> None:
    rec = copy.deepcopy(record)
    k, t = _first(rec, "play")
    t["table"] = t["table"][:-1]
    _bad(rec, f"round 1, turn {k + 1}", "play")


def test_tampered_player(record: dict[str, Any]) -> None:
    rec = copy.deepcopy(record)
    t = rec["rounds"][0]["turns"][3]
    t["player"] = (t["player"] + 1) % 3
    _bad(rec, "round 1, turn 4", "turn")


def test_tampered_penalty(record: dict[str, Any]) -> None:
    rec = copy.deepcopy(record)
    k, t = _first(rec, "timeout")
    t["penalty"] = [*t["penalty"][1:], "J"]
    _bad(rec, f"round 1, turn {k + 1}", "penalty")


def test_tampered_end_and_totals(record: dict[str, Any]) -> None:
    rec = copy.deepcopy(record)
    scores = rec["rounds"][0]["end"]["scores"]
    scores[0] += 1
    scores[1] -= 1
    _bad(rec, "round 1", "differs")
    rec = copy.deepcopy(record)
    rec["totals"][0] += 5
    _bad(rec, "totals")


def test_tampered_deal(record: dict[str, Any]) -> None:
    rec = copy.deepcopy(record)
    rec["rounds"][0]["pool"][0] = "J"
    _bad(rec, "round 1", "full tile set")
    rec = copy.deepcopy(record)
    rec["rounds"][0]["racks"][0].pop()
    _bad(rec, "round 1", "rack 1 has 13 tiles")
    rec = copy.deepcopy(record)
    rec["rounds"][1]["first"] = (rec["rounds"][1]["first"] + 1) % 3
    _bad(rec, "round 2", "one seat on")


def test_turn_after_the_end(record: dict[str, Any]) -> None:
    rec = copy.deepcopy(record)
    rec["rounds"][0]["turns"].append({"player": 0, "action": "draw", "tile": "K1"})
    _bad(rec, "after the round ended")


def test_invalid_turn_needs_penalty_mode() -> None:
    rec = match_record(Match(STANDARD, ["a", "b"], seed=1))
    p = rec["rounds"][0]["first"]
    rec["rounds"][0]["turns"].append({"player": p, "action": "invalid", "penalty": []})
    _bad(rec, "invalid_play: penalty")


def test_abandoned_round_scores_nothing() -> None:
    rec = score_table_record()
    rd = rec["rounds"][2]
    rd["turns"] = rd["turns"][:1]
    rd["end"] = {
        "reason": "abandoned",
        "winner": None,
        "racks": [
            ["K13", "R13", "B3", "B3"],
            ["K1", "K10", "R1", "O1"],
            ["K2"],
            ["O10", "O11", "O12", "O13"],
        ],
        "scores": [0, 0, 0, 0],
    }
    rec["totals"] = [18, -16, 6, -8]
    verify(load_record(rec))
    rd["end"]["scores"] = [0, 0, -47, 47]
    rec["totals"] = [18, -16, -41, 39]
    _bad(rec, "round 3", "abandoned")
    rd["end"]["scores"] = [0, 0, 0]
    _bad(rec, "round 3", "4 scores")


def test_no_round_after_the_match_is_over() -> None:
    rec = score_table_record()
    extra = copy.deepcopy(rec["rounds"][0])
    extra["first"] = 3
    extra["turns"] = []
    del extra["end"]
    rec["rounds"].append(extra)
    _bad(rec, "round 4", "match")


@pytest.mark.parametrize(
    ("mutate", "fragment"),
    [
        (lambda r: r.update(format="rummikub-game/2"), "rummikub-game/1"),
        (lambda r: r.pop("rules"), "rules"),
        (lambda r: r["rules"].update(colour=4), "colour"),
        (lambda r: r["rules"].update(copies=7), "copies"),
        (lambda r: r.update(players="ann"), "players"),
        (lambda r: r["players"][0].pop("name"), "name"),
        (lambda r: r["rounds"][0].pop("pool"), "pool"),
        (lambda r: r["rounds"][0]["pool"].__setitem__(3, "Q3"), "Q3"),
        (lambda r: r["rounds"][0]["turns"][0].update(action="skip"), "skip"),
        (lambda r: r["rounds"][0]["turns"][0].update(player="0"), "player"),
        (lambda r: r["rounds"][0]["end"].update(reason="won"), "won"),
        (lambda r: r.update(seed=1.5), "seed"),
        (lambda r: r["rounds"][0].update(first=7), "seat"),
    ],
)
def test_malformed_records_give_clear_errors(mutate: Any, fragment: str) -> None:
    rec = score_table_record()
    mutate(rec)
    with pytest.raises(RecordError) as info:
        verify(load_record(rec))
    assert fragment in str(info.value)


def test_record_is_not_a_json_object(tmp_path: Path) -> None:
    with pytest.raises(RecordError):
        load_record([])
    path = tmp_path / "broken.json"
    path.write_text('{"format": ')
    with pytest.raises(RecordError, match="not valid JSON"):
        read_record(path)


def test_play_that_is_illegal_is_never_recorded() -> None:
    match = Match(STANDARD, ["a", "b"], seed=1)
    with pytest.raises(IllegalPlayError):
        match.act(Play.parse("K1 -> K1"))
    assert match_record(match)["rounds"][0]["turns"] == []


def test_an_invalid_turn_records_its_code_and_params() -> None:
    """The engine writes no sentence into a record: the refusal's code and parameters."""
    rules = preset("standard").replace(invalid_play="penalty")
    match = Match(rules, ["a", "b"], 1)
    rack = match.state.rack.tiles
    match.act(Play.of(rack[:3], " ".join(str(t) for t in rack[:3])))  # K4 K7 K8: not a run
    turn = match_record(match)["rounds"][0]["turns"][-1]
    assert turn["action"] == "invalid" and turn["reason"] == "invalid-meld"
    assert turn["params"] == {
        "first": "K4", "gaps": 2, "jokers": 0, "last": "K8", "meld": "K4 K7 K8", "number": 1,
        "why": "meld-run-gaps",
    }  # fmt: skip
    data = json.loads(json.dumps(match_record(match)))
    rec = load_record(data)
    assert rec.rounds[0].turns[-1].params == match.rounds[0].turns[-1].params
    assert match_record(load_match(rec)) == data
