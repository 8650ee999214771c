"""The table of game parts (:mod:`rummikub.games.parts`): every registered game has every part,
each part resolves to what its consumer needs, every consumer reads the table and every game
name goes through :func:`rummikub.games.get_game`; tile rooms store actions with the game's
codec and still load the events stored before."""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import rummikub.server
from rummikub.analysis import analyse
from rummikub.bots import bot_levels, get_bot, hint
from rummikub.bots.greedy import GreedyBot
from rummikub.bots.specs import check_spec, make_bot
from rummikub.core import Draw, Match, Play, RulesError, preset
from rummikub.core.interface import Bot
from rummikub.core.tiles_game import TILES
from rummikub.envs import GameSpec, spec_for
from rummikub.games import (
    GAMES,
    AnyRecord,
    GameParts,
    MissingPart,
    game_part,
    get_game,
    parts_of,
    register_game,
    unregister_game,
)
from rummikub.games.parts import OPTIONAL_PARTS, PART_NAMES, resolve
from rummikub.server.rooms.games import ROOM_GAMES, RoomGame, room_game
from rummikub.server.rooms.games.tiles import TilesRoomGame
from rummikub.server.rooms.room import Room, Seat, Settings

from .sticks import GAME as STICKS

STATIC = Path(rummikub.server.__file__).parent / "web" / "static" / "js"


def web_adapters() -> dict[str, str]:
    """The web client's game adapters, read from ``games.js`` and the modules it imports:
    each adapter's ``game`` key and its ``record`` format."""
    games_js = (STATIC / "games.js").read_text(encoding="utf-8")
    listed = re.search(r"GAMES\s*=\s*\[([^\]]*)\]", games_js)
    assert listed, "games.js has no GAMES list"
    modules = {
        name.strip(): module
        for names, module in re.findall(r"import\s*\{([^}]*)\}\s*from\s*\"\./([^\"]+)\"", games_js)
        for name in names.split(",")
    }
    out: dict[str, str] = {}
    for ident in re.findall(r"\w+", listed.group(1)):
        assert ident in modules, f"games.js lists {ident} but does not import it"
        text = (STATIC / modules[ident]).read_text(encoding="utf-8")
        start = re.search(rf"export const {ident}\s*=\s*\{{", text)
        assert start, f"{modules[ident]} does not export {ident}"
        body = text[start.end() :]
        game = re.search(r"\bgame:\s*\"([^\"]+)\"", body)
        record = re.search(r"\brecord:\s*\"([^\"]+)\"", body)
        assert game and record, f"{ident} names no game or record format"
        out[game.group(1)] = record.group(1)
    return out


def check_part(name: str, part: str) -> None:
    """Fail unless the game called ``name`` has ``part`` (an optional one may be missing) and it
    is what its consumer needs."""
    row = parts_of(name)
    reference = getattr(row, part)
    if part in OPTIONAL_PARTS and reference is None:
        return
    assert reference is not None, f"{name} has no {part} part: add it to its GameParts"
    if part == "web":
        adapters = web_adapters()
        assert reference in adapters, f"games.js has no adapter of {name} (game: {reference!r})"
        assert adapters[reference] in get_game(name).record_formats
        return
    obj = resolve(reference)
    if part == "bots":
        assert isinstance(obj, dict) and obj, f"{name}: the bots part is no dict of levels"
        for level, factory in obj.items():
            bot = factory(0)
            assert isinstance(bot, Bot) and bot.name == level
    elif part == "hint":
        assert callable(obj)
        inspect.signature(obj).bind(object(), 1.0)
    elif part == "judge":
        assert callable(obj)
        inspect.signature(obj).bind(object(), None, "default", None, 0)
    elif part == "room":
        assert callable(obj)
        assert isinstance(obj(), RoomGame)
    elif part == "env":
        assert callable(obj)
        spec = obj(limit=8)
        assert isinstance(spec, GameSpec) and spec.game == name and spec.limit == 8
    elif part == "describe":
        assert callable(obj)
        inspect.signature(obj).bind(object(), object())
    elif part == "outside":
        assert callable(obj)
        inspect.signature(obj).bind("a-command", name="cmd:a-command", default_limit=1.0)
    else:  # pragma: no cover - a new part needs its check here
        raise AssertionError(f"no check for the part {part!r}")


@pytest.mark.parametrize("part", [*PART_NAMES, "web"])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_registered_game_has_every_part(name: str, part: str) -> None:
    check_part(name, part)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_what_needs_the_solver_is_a_part_or_a_level(name: str) -> None:
    known = {"hint", "judge"} | {f"bots.{level}" for level in bot_levels(name)}
    assert parts_of(name).needs_solver <= known


@pytest.fixture
def sticks() -> Iterator[None]:
    register_game(STICKS, GameParts(bots=f"{type(STICKS).__module__}:BOTS"))
    yield
    unregister_game("sticks")


@pytest.mark.parametrize("part", ["hint", "judge", "room", "env", "web"])
def test_a_game_lacking_a_part_fails_the_check(sticks: None, part: str) -> None:
    check_part("sticks", "bots")
    with pytest.raises(AssertionError, match=f"sticks has no {part} part"):
        check_part("sticks", part)


def test_a_part_is_named_module_colon_attribute() -> None:
    with pytest.raises(ValueError, match="not 'module:attribute'"):
        GameParts(hint="rummikub.bots.hints.tiles_hint")
    assert resolve("rummikub.core.tiles_game:TILES.name") == "tiles"


def test_a_consumer_asking_for_a_missing_part_is_told_which(sticks: None) -> None:
    assert bot_levels("sticks") == ("random", "most")
    obs = STICKS.observe(STICKS.new_match(STICKS.presets()["standard"], ["a", "b"], 1).state, 0)
    with pytest.raises(MissingPart, match="sticks has no hints"):
        hint(STICKS, obs)
    with pytest.raises(MissingPart, match="sticks has no server rooms"):
        room_game("sticks")
    assert "sticks" not in ROOM_GAMES and sorted(ROOM_GAMES) == ["tiles", "xpress"]
    with pytest.raises(ValueError, match="tiles or xpress"):
        spec_for("sticks")
    with pytest.raises(RulesError, match="outside programs play tiles only, not sticks"):
        check_spec("cmd:python bot.py", "sticks")
    record = STICKS.match_record(STICKS.new_match(STICKS.presets()["standard"], ["a", "b"], 1))
    with pytest.raises(MissingPart, match="sticks has no analysis"):
        analyse(AnyRecord(STICKS, STICKS.load_record(record)))


def test_every_consumer_reads_a_game_name_through_get_game() -> None:
    """``rummikub`` is the tile game's older name; an unknown name is refused naming the
    games."""
    assert get_game("rummikub") is get_game("tiles") is TILES
    assert parts_of("rummikub") is parts_of("tiles")
    assert game_part("rummikub", "hint") is game_part(TILES, "hint")
    assert bot_levels("rummikub") == bot_levels("tiles")
    assert get_bot("greedy", 1, game="rummikub").name == "greedy"
    assert isinstance(room_game("rummikub"), TilesRoomGame)
    assert spec_for("rummikub").game == "tiles"
    assert check_spec("cmd:python bot.py", "rummikub") == "cmd:python bot.py"
    assert make_bot("cmd:python bot.py", game="rummikub").name == "cmd:python bot.py"
    with pytest.raises(RulesError, match="outside programs play tiles only, not xpress"):
        check_spec("cmd:python bot.py", "xpress")
    for ask in (bot_levels, parts_of, room_game, lambda n: get_bot("greedy", game=n)):
        with pytest.raises(RulesError, match=r"unknown game 'chess' \(games: tiles, xpress\)"):
            ask("chess")
    with pytest.raises(ValueError, match="chess"):
        spec_for("chess")


# -- tile rooms store actions with the game's codec ----------------------------------------


def _opening_room() -> tuple[Room, Play]:
    """A started tile room whose first player can open, and his opening."""
    for seed in range(1, 60):
        seats = [Seat(0, "human", name="Ann", token_hash="x"), Seat(1, "bot", "greedy")]
        room = Room("ROOM42", preset("casual"), Settings(), seed, seats, 0.0)
        room.start()
        match = room.match
        assert isinstance(match, Match)
        action = GreedyBot().act(match.observation(match.state.current))
        if isinstance(action, Play):
            return room, action
    raise AssertionError("no seed lets the first player open")


def test_a_tile_room_stores_a_play_with_the_game_codec() -> None:
    room, play = _opening_room()
    stored, _ = room.act(play, ms=1, hint=False)
    assert stored == TILES.action_to_json(play)
    assert stored["action"] == "play" and "play" in stored and "tiles" not in stored
    assert room.stored_action(json.loads(json.dumps(stored))) == play
    draw, _ = room.act(Draw(), ms=1, hint=False)
    assert draw == TILES.action_to_json(Draw()) == {"action": "draw"}


def test_a_play_stored_before_the_game_codec_still_loads() -> None:
    """The server stored a play's tiles under ``tiles`` before it used the game's codec."""
    old = '{"action":"play","tiles":["R5","R6","R7"],"table":[["R5","R6","R7"]]}'
    action = TilesRoomGame().stored_action(json.loads(old))
    assert isinstance(action, Play)
    assert [str(t) for t in action.tiles] == ["R5", "R6", "R7"]
    assert action.table.to_json() == [["R5", "R6", "R7"]]
    new = TILES.action_to_json(action)
    assert new == {"action": "play", "play": ["R5", "R6", "R7"], "table": [["R5", "R6", "R7"]]}
    assert TilesRoomGame().stored_action(new) == action
    for simple in ("draw", "pass", "timeout"):
        data: dict[str, Any] = {"action": simple}
        assert TilesRoomGame().stored_action(data) == TILES.action_from_json(data)


def test_an_old_stored_play_replays_in_a_room() -> None:
    room, play = _opening_room()
    old = {
        "action": "play",
        "tiles": [str(t) for t in play.tiles],
        "table": play.table.to_json(),
    }
    again = Room("ROOM42", room.rules, Settings(), room.seed, room.seats, 0.0)
    again.start()
    again.act(again.stored_action(old), ms=1, hint=False)
    room.act(play, ms=1, hint=False)
    assert again.public_view(0.0) == room.public_view(0.0)
