"""Rebuilding rooms from what is stored: rules options newer than the room keep the behaviour
the room was played under."""

from __future__ import annotations

from rummikub.core import preset
from rummikub.server.rooms.room import Settings
from rummikub.server.runtime.restore import replay
from rummikub.server.storage.store import StoredRoom, StoredSeat
from rummikub.xpress.rules import XpressRules

NEW_OPTIONS = ("freed_joker_new_set", "joker_swap_from_rack")


def _stored(game: str, rules: dict[str, object]) -> StoredRoom:
    seats = [StoredSeat(0, "human", None, "Ann", "h"), StoredSeat(1, "bot", "greedy", None, None)]
    return StoredRoom(
        "ABCDEF", 0.0, rules, Settings().to_dict(), 1, "waiting", None, None, seats, game=game
    )


def test_a_room_stored_before_an_option_existed_keeps_the_old_behaviour() -> None:
    old = {k: v for k, v in preset("classic-strict").to_dict().items() if k not in NEW_OPTIONS}
    room = replay(_stored("tiles", old)).room
    assert preset("classic-strict").freed_joker_new_set  # today's preset has the rule ...
    assert not room.rules.to_dict()["freed_joker_new_set"]  # ... the old room does not


def test_an_xpress_room_stored_before_the_set_rules_keeps_the_old_behaviour() -> None:
    full = XpressRules().to_dict()
    old = {k: v for k, v in full.items() if k not in ("must_place_sets", "freed_joker_new_set")}
    room = replay(_stored("xpress", old)).room
    assert full["must_place_sets"] and full["freed_joker_new_set"]
    assert not room.rules.to_dict()["must_place_sets"]
    assert not room.rules.to_dict()["freed_joker_new_set"]
