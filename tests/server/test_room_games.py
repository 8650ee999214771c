"""One :class:`Room` for every game: its per-game part is chosen by the game's name, and what
every game shares is written once."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rummikub.core import Code, Draw, IllegalPlayError, Rules, RulesError
from rummikub.server.protocol import messages as p
from rummikub.server.rooms.games import ROOM_GAMES, room_game
from rummikub.server.rooms.games.tiles import TilesRoomGame, action_to_json
from rummikub.server.rooms.games.xpress import XpressRoomGame
from rummikub.server.rooms.room import Room, Seat, Settings
from rummikub.server.runtime.restore import replay, stored_room
from rummikub.server.runtime.room_runtime import stored_seat
from rummikub.server.storage.store import StoredEvent
from rummikub.xpress import Throw, XpressRules

RULES = {"tiles": Rules(), "xpress": XpressRules(rounds=2)}


def _room(game: str, seed: int = 3) -> Room:
    seats = [Seat(0, "human", name="Ann", token_hash="x"), Seat(1, "bot", "greedy")]
    room = Room("ROOM42", RULES[game], Settings(), seed, seats, 0.0)
    room.start()
    return room


def test_the_part_is_chosen_by_the_game_name() -> None:
    assert isinstance(room_game("tiles"), TilesRoomGame)
    assert isinstance(room_game("rummikub"), TilesRoomGame)  # the tile game's older name
    assert isinstance(room_game("xpress"), XpressRoomGame)
    with pytest.raises(RulesError):
        room_game("chess")
    assert _room("tiles").game.name == "tiles" and _room("xpress").game.name == "xpress"
    assert room_game("xpress") is not room_game("xpress")  # one part per room


@pytest.mark.parametrize("game", sorted(ROOM_GAMES))
def test_the_public_game_view_has_the_keys_of_its_part_in_order(game: str) -> None:
    room = _room(game)
    view = room.public_view(0.0)["game"]
    assert list(view) == room.part.view_order.split()


def test_moves_of_another_game_are_refused_as_wrong_game() -> None:
    tiles, xpress = _room("tiles"), _room("xpress")
    assert {*tiles.part.moves, *xpress.part.moves} == {
        p.PlayMsg,
        p.DrawMsg,
        p.PassMsg,
        p.ThrowMsg,
        p.PlaceMsg,
        p.EndTurnMsg,
    }
    throw = p.ThrowMsg(type="throw", dice=[0])
    draw = p.DrawMsg(type="draw")
    assert xpress.accepts(throw) and not xpress.accepts(draw)
    assert tiles.accepts(draw) and not tiles.accepts(throw)
    assert tiles.wrong_game() == "this room plays the tile game: play, draw or pass"
    assert xpress.wrong_game() == "this room plays Xpress: throw, place or end_turn"
    with pytest.raises(IllegalPlayError) as err:
        tiles.act(Throw((0,)), ms=None, hint=False)
    assert err.value.code == Code.WRONG_GAME
    with pytest.raises(IllegalPlayError) as err:
        xpress.act(Draw(), ms=None, hint=False)
    assert err.value.code == Code.WRONG_GAME


def test_a_tile_play_stored_by_the_released_server_still_loads() -> None:
    """Rooms store plays with the game's codec (``"play"``); a play stored before, under
    ``"tiles"``, still loads, and is written back with the game's codec."""
    old = '{"action":"play","tiles":["R5","R6","R7"],"table":[["R5","R6","R7"]]}'
    action = TilesRoomGame().stored_action(json.loads(old))
    new = '{"action":"play","play":["R5","R6","R7"],"table":[["R5","R6","R7"]]}'
    assert json.dumps(action_to_json(action), separators=(",", ":")) == new


@pytest.mark.parametrize("game", sorted(ROOM_GAMES))
def test_a_room_rebuilt_from_its_log_shows_the_same(game: str) -> None:
    room = _room(game, seed=5)
    events = [StoredEvent(1, "start", {}, 0.0)]
    for seq in range(2, 12):
        if not room.in_turn:
            break
        seat = room.current_seat()
        assert seat is not None
        task = room.bot_task(seat, "greedy", None, 0.0)
        action = task.fallback()
        stored, _ = room.act(action, ms=1, hint=False)
        events.append(StoredEvent(seq, "turn", {"action": stored, "ms": 1, "hint": False}, 0.0))
        room.seq = seq
    row: dict[str, Any] = {
        "status": "playing",
        "turn_started": None,
        "finished_at": None,
        "settings": {},
    }
    sr = stored_room(room, [stored_seat(s) for s in room.seats], row)
    sr.events = events
    again = replay(sr)
    assert again.damage is None and sr.game == game
    assert again.room.public_view(0.0) == room.public_view(0.0)
    assert again.room.view(again.room.public_view(0.0), 0) == room.view(room.public_view(0.0), 0)


def test_an_unknown_bot_level_plays_as_the_default_level() -> None:
    room = _room("xpress")
    seat = room.current_seat()
    assert seat is not None
    assert room.bot_task(seat, "strategic", None, 0.0).name == "greedy"
