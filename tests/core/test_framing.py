"""The record framing every game shares (core/framing.py): round trips, the format and version
check, errors that name the place, and the atomic write."""

from __future__ import annotations

import copy
import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.core.errors import Code, NotationError, RecordError
from rummikub.core.framing import Framed, RecordFrame, check_format
from rummikub.core.interface import PlayerInfo
from rummikub.core.jsonio import field as required
from rummikub.core.jsonio import whole_number, write_json_atomic
from rummikub.core.record import FRAME as TILE_FRAME
from rummikub.core.record import dump_record, load_match, load_record, match_record
from rummikub.xpress.record import FRAME as XPRESS_FRAME
from rummikub.xpress.record import load_xpress

from ..platform.sticks import GAME as STICKS
from ..platform.sticks import TakeRandom
from .games import score_table_record


# ----------------------------------------------------------------------------- a toy game
@dataclass
class ToyRound:
    moves: list[int]
    end: int | None = None


@dataclass
class ToyMatch:
    rules: dict[str, Any]
    players: tuple[PlayerInfo, ...]
    seed: int | None
    rounds: list[ToyRound] = field(default_factory=list)
    totals: tuple[int, ...] = ()


def _read_round(rd: dict[str, Any], where: str, rules: dict[str, Any], end: int | None) -> ToyRound:
    moves = required(rd, "moves", where)
    if not isinstance(moves, list):
        raise NotationError(f"{where} moves must be a list")
    return ToyRound([whole_number(m, f"{where} move") for m in moves], end)


TOY: RecordFrame[dict[str, Any], ToyRound, int] = RecordFrame(
    "toy/3",
    "a toy record",
    write_header=lambda m: {"rules": m.rules, "extra": "after the rules"},
    write_round=lambda r: {"moves": list(r.moves)},
    write_end=lambda e: {"winner": e},
    read_header=lambda d: dict(required(d, "rules", "record")),
    read_round=_read_round,
    read_end=lambda v, where: whole_number(required(v, "winner", where), f"{where} winner"),
)

names = st.text(min_size=1, max_size=8)
players = st.lists(
    st.one_of(
        st.builds(PlayerInfo, names),
        st.builds(PlayerInfo, names, st.just("bot"), st.sampled_from(["random", "expert"])),
    ),
    min_size=1,
    max_size=4,
).map(tuple)
rounds = st.lists(
    st.builds(ToyRound, st.lists(st.integers(-5, 50), max_size=6), st.none() | st.integers(0, 3)),
    max_size=4,
)
matches = st.builds(
    ToyMatch,
    st.dictionaries(st.sampled_from(["a", "b", "c"]), st.integers(0, 9)),
    players,
    st.none() | st.integers(-(2**40), 2**40),
    rounds,
    st.lists(st.integers(-99, 99), max_size=4).map(tuple),
)


@given(matches)
def test_a_frame_reads_back_what_it_wrote(match: ToyMatch) -> None:
    data = TOY.to_json(match)
    assert list(data) == ["format", "rules", "extra", "players", "seed", "rounds", "totals"]
    for rd, r in zip(data["rounds"], match.rounds, strict=True):
        assert list(rd) == (["moves", "end"] if r.end is not None else ["moves"])
    text = TOY.dumps(match)
    assert json.loads(text) == data
    back = TOY.load(json.loads(text))
    assert back == Framed(match.rules, match.players, match.seed, tuple(match.rounds), match.totals)
    # what was read is written again the same, byte for byte
    again = ToyMatch(back.header, back.players, back.seed, list(back.rounds), back.totals or ())
    assert TOY.dumps(again, indent=1) == json.dumps(data, indent=1)


@settings(max_examples=30)
@given(matches)
def test_a_saved_file_reads_back(match: ToyMatch) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "toy.json"
        TOY.write(match, path)
        assert path.read_text(encoding="utf-8") == json.dumps(TOY.to_json(match), indent=1) + "\n"
        assert TOY.read(path).rounds == tuple(match.rounds)
        assert [p.name for p in Path(folder).iterdir()] == ["toy.json"]


# ----------------------------------------------------------------------------- every game's frame
def _as_match(record: Any) -> Any:
    """A record that was read, written again by its frame (it has a match's fields; its totals
    were recorded)."""
    assert record.totals is not None
    return record


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31), st.integers(2, 4), st.integers(0, 40))
def test_sticks_records_round_trip_through_the_frame(seed: int, n: int, turns: int) -> None:
    match = STICKS.new_match(STICKS.PRESETS["standard"], [f"p{i}" for i in range(n)], seed)
    bots = [TakeRandom(seed + i) for i in range(n)]
    for k in range(turns):
        if match.round_over:
            if match.over:
                break
            match.next_round()
        match.act(bots[STICKS.current(match.state)].act(match.state), ms=k or None)
    data = STICKS.match_record(match)
    text = json.dumps(data, indent=1)
    record = STICKS.load_record(json.loads(text))
    assert json.dumps(STICKS.frame.to_json(_as_match(record)), indent=1) == text
    assert STICKS.match_record(STICKS.resume(record)) == data


def test_a_tile_record_reads_and_writes_back_byte_for_byte() -> None:
    written = match_record(load_match(load_record(score_table_record())))
    text = json.dumps(written, indent=1)
    record = load_record(json.loads(text))
    assert json.dumps(TILE_FRAME.to_json(_as_match(record)), indent=1) == text
    assert dump_record(load_match(record), indent=1) == text


def test_an_xpress_record_frames_its_layout_after_the_rules() -> None:
    from rummikub.xpress import XpressMatch

    match = XpressMatch(["a", "b"], 4)
    data = XPRESS_FRAME.to_json(match)
    assert list(data) == ["format", "rules", "layout", "players", "seed", "rounds", "totals"]
    text = json.dumps(data)
    assert json.dumps(XPRESS_FRAME.to_json(_as_match(load_xpress(json.loads(text))))) == text


# ----------------------------------------------------------------------------- format and version
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a toy record must be a JSON object"),
        ({"rules": {}}, "not a toy/3 record (format is None)"),
        ({"format": "other/3"}, "not a toy/3 record (format is 'other/3')"),
        (
            {"format": "toy/4"},
            "not a toy/3 record (format is 'toy/4'); this program reads version 3 of toy records",
        ),
        (
            {"format": "toy/2"},
            "not a toy/3 record (format is 'toy/2'); this program reads version 3 of toy records",
        ),
    ],
)
def test_the_format_and_its_version_are_checked(data: Any, message: str) -> None:
    with pytest.raises(RecordError) as info:
        TOY.load(data)
    assert str(info.value) == message
    assert info.value.code == Code.BAD_RECORD


def test_every_game_checks_its_version() -> None:
    rec = score_table_record()
    rec["format"] = "rummikub-game/2"
    with pytest.raises(RecordError, match="reads version 1 of rummikub-game records"):
        load_record(rec)
    with pytest.raises(RecordError, match="reads version 1 of rummikub-xpress"):
        load_xpress({"format": "rummikub-xpress/9"})
    with pytest.raises(RecordError, match="reads version 1 of test-sticks"):
        STICKS.load_record({"format": "test-sticks/0"})
    assert check_format({"format": "toy/3"}, "toy/3", "a toy record") == {"format": "toy/3"}


GOOD: dict[str, Any] = {
    "format": "toy/3",
    "rules": {"a": 1},
    "players": [{"name": "ann", "kind": "human"}, {"name": "bo", "kind": "bot", "bot": "x"}],
    "seed": 7,
    "rounds": [{"moves": [1, 2], "end": {"winner": 1}}, {"moves": []}],
    "totals": [0, 3],
}


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda r: r.pop("rules"), "record: missing field 'rules'"),
        (lambda r: r.pop("players"), "record: missing field 'players'"),
        (lambda r: r.update(players={}), "record players must be a list"),
        (lambda r: r["players"][1].pop("name"), "player 2 needs a name"),
        (lambda r: r["players"][0].update(kind="cat"), "player 1: kind must be human or bot"),
        (lambda r: r.update(seed="7"), "record seed must be a whole number, got '7'"),
        (lambda r: r.pop("rounds"), "record: missing field 'rounds'"),
        (lambda r: r["rounds"].append([]), "round 3 must be an object"),
        (lambda r: r["rounds"][1].pop("moves"), "round 2: missing field 'moves'"),
        (lambda r: r["rounds"][0]["moves"].append(1.5), "round 1 move must be a whole number"),
        (lambda r: r["rounds"][0].update(end={}), "round 1 end: missing field 'winner'"),
        (lambda r: r.update(totals=3), "record totals must be a list"),
        (lambda r: r.update(totals=[0, None]), "record total must be a whole number, got None"),
    ],
)
def test_a_bad_record_raises_a_record_error_naming_the_place(edit: Any, message: str) -> None:
    data = copy.deepcopy(GOOD)
    edit(data)
    with pytest.raises(RecordError) as info:
        TOY.load(data)
    assert str(info.value).startswith(message)
    assert info.value.code == Code.BAD_RECORD


def test_seed_and_totals_may_be_absent() -> None:
    data = copy.deepcopy(GOOD)
    del data["seed"], data["totals"]
    framed = TOY.load(data)
    assert framed.seed is None and framed.totals is None
    assert framed.rounds == (ToyRound([1, 2], 1), ToyRound([]))


def test_a_file_that_is_not_json_is_named(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    path.write_text('{"format": "toy/3", "rou')
    with pytest.raises(RecordError, match=f"{path}: not valid JSON"):
        TOY.read(path)


# ----------------------------------------------------------------------------- the atomic write
def test_a_failed_write_leaves_the_old_file_and_no_partial_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    write_json_atomic({"old": True}, path)
    before = path.read_bytes()
    # JSON cannot write the object: nothing is written at all
    with pytest.raises(TypeError):
        write_json_atomic({"bad": object()}, path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]

    # the file is written, but the crash comes before it replaces the old one
    def crash(self: Path, target: Any) -> Path:
        raise OSError("disk gone")

    monkeypatch.setattr(Path, "replace", crash)
    match = ToyMatch({"a": 1}, (PlayerInfo("ann"),), 3, [ToyRound([1])], (0,))
    with pytest.raises(OSError, match="disk gone"):
        TOY.write(match, path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    monkeypatch.undo()
    TOY.write(match, path)
    assert TOY.read(path).rounds == (ToyRound([1]),)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
