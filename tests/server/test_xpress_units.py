"""Unit tests of the Xpress room (no server process) and of the storage upgrade."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from rummikub.core import IllegalPlayError, NotationError, RulesError, Table
from rummikub.server.rooms.games.xpress import XpressRoomGame, xpress_hint, xpress_rules
from rummikub.server.rooms.games.xpress import place_from_table as _place_from_table
from rummikub.server.rooms.room import Room, Seat, Settings
from rummikub.server.storage.store import Store
from rummikub.xpress import EndTurn, Place, Throw, XpressRules, best_placement
from rummikub.xpress.bots import dice_for
from rummikub.xpress.dice_game import XPRESS
from rummikub.xpress.dice_game import fallback_action as fallback


class XpressRoom(Room):
    """A two-seat room playing Xpress, with its part's Xpress-only helpers typed (the server
    uses :class:`Room` for every game; the Xpress part is :class:`XpressRoomGame`)."""

    def __init__(
        self,
        code: str,
        rules: XpressRules,
        settings: Settings,
        seed: int,
        seats: list[Seat],
        created_at: float,
    ) -> None:
        super().__init__(code, rules, settings, seed, seats, created_at, game=XPRESS)

    @property
    def xpress(self) -> XpressRoomGame:
        assert isinstance(self.part, XpressRoomGame)
        return self.part

    @property
    def rolled(self) -> list[int]:
        """The dice of the last throw."""
        return self.xpress.rolled

    def place_from_table(
        self, table_json: Sequence[Sequence[str]], dice: Sequence[int] | None
    ) -> Place:
        assert self.match is not None
        return _place_from_table(self.match.state, table_json, dice)


def make_room(seed: int = 7) -> XpressRoom:
    room = XpressRoom(
        "XPRESS",
        XpressRules(rounds=2),
        Settings(),
        seed,
        [Seat(0, "human", name="Ann", token_hash="x"), Seat(1, "bot", "greedy")],
        0.0,
    )
    room.start()
    return room


def test_rules_of_a_new_room() -> None:
    assert xpress_rules("xpress") == XpressRules()
    assert xpress_rules({"rounds": 3, "game": "xpress"}).rounds == 3
    with pytest.raises(NotationError):
        xpress_rules("tournament")
    with pytest.raises(RulesError):
        xpress_rules({"rounds": 3, "opening_value": 30})


def test_view_is_public_and_the_same_for_everyone() -> None:
    room = make_room()
    public = room.public_view(0.0)
    g = public["game"]
    assert g["kind"] == "xpress" and public["room"]["game"] == "xpress"
    assert [len(h) for h in g["hands"]] == [9, 9] and g["rolled"] == list(range(18))
    assert room.view(public, 0)["game"] == room.view(public, None)["game"] == g
    assert room.view(public, 1)["you"] == 1


def test_a_placement_from_the_table_alone_finds_the_dice() -> None:
    for seed in range(40):  # find a deal whose first player can place from his own dice
        room = make_room(seed)
        assert room.match is not None
        state = room.match.state
        best = best_placement(Table(), [d.face for d in state.hand])
        if best.count:
            break
    else:
        raise AssertionError("no deal with a placement")
    place = room.place_from_table(best.table.to_json(), None)
    assert sorted(place.dice) == sorted(dice_for(state.hand, best.faces))
    checked = room.check_table(state.current, best.table.to_json())
    assert checked["play"] == {"ok": True} and all(m["ok"] for m in checked["melds"])
    other = room.check_table(1 - state.current, best.table.to_json())
    assert "play" not in other  # only the player to move is told about his placement
    stored, restart = room.act(place, ms=5, hint=False)
    assert stored["action"] == "place" and not restart
    assert room.log[-1]["faces"] and room.steps == 1


def test_refused_actions_change_nothing() -> None:
    room = make_room(3)
    assert room.match is not None
    before = room.public_view(0.0)
    with pytest.raises(IllegalPlayError):
        room.act(Throw((0,)), ms=None, hint=False)  # the setup roll is the first throw
    with pytest.raises(IllegalPlayError):
        room.place_from_table([["K13", "R13", "B13", "O13"]] * 2, None)
    with pytest.raises(IllegalPlayError):
        room.act(object(), ms=None, hint=False)
    assert room.public_view(0.0) == before


def test_throws_are_stored_with_their_faces() -> None:
    room = make_room(11)
    assert room.match is not None
    for _ in range(50):
        obs = room.match.observation(room.match.state.current)
        action = fallback(obs)
        stored, _ = room.act(action, ms=None, hint=False)
        if isinstance(action, Throw):
            assert len(stored["faces"]) == len(stored["dice"]) == len(action.dice)
            assert room.rolled == sorted(action.dice)
            break
        if room.round_over:
            room.next_round()
        elif isinstance(action, Place):
            room.act(EndTurn(), ms=None, hint=False)
    else:
        raise AssertionError("no throw")


def test_hints() -> None:
    room = make_room(5)
    assert room.match is not None
    obs = room.match.observation(room.match.state.current)
    hint = xpress_hint(obs)
    assert set(hint) == {"dice", "table"}
    if obs.can_place:
        assert hint["dice"] and hint["table"]


def test_an_old_database_gets_the_game_column(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    with engine.begin() as conn:  # the rooms table as it was before Xpress rooms
        conn.execute(
            text(
                "CREATE TABLE rooms (code VARCHAR(16) PRIMARY KEY, created_at FLOAT, rules TEXT,"
                " settings TEXT, seed BIGINT, status VARCHAR(16), turn_started FLOAT,"
                " finished_at FLOAT)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO rooms VALUES ('OLD123', 1.0, '{\"preset\": \"standard\"}', '{}',"
                " 5, 'finished', NULL, 2.0)"
            )
        )
    engine.dispose()
    store = Store(url)
    try:
        room = store.load_room("OLD123")
        assert room is not None and room.game == "tiles"
    finally:
        store.close()
