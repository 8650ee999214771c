"""The tile game's part of a server room: its views (each player sees only his own rack), its
moves (play, draw, pass), its stored actions and table checks.

Actions are stored with the game's own codec (:meth:`TilesGame.action_to_json`: a play's tiles
under ``play``); events stored before (a play's tiles under ``tiles``) still load."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rummikub.core import (
    Action,
    Code,
    Draw,
    IllegalPlayError,
    Match,
    Meld,
    NotationError,
    Pass,
    Play,
    Rules,
    Table,
    TurnLog,
    check_play,
    parse_tile,
    rack_value,
)
from rummikub.core.tiles import format_tiles
from rummikub.core.tiles_game import TILES

from ...protocol import messages as p
from ...protocol.codes import refusal
from ..hints import compute_hint
from .base import RoomView, Turn
from .melds import shown_meld, shown_table

__all__ = ["TilesRoomGame", "action_from_json", "action_to_json", "play_from_table"]


def action_to_json(action: Action) -> dict[str, Any]:
    """An action as a room stores it: the game's codec (:meth:`TilesGame.action_to_json`)."""
    return TILES.action_to_json(action)


def action_from_json(data: dict[str, Any]) -> Action:
    """The action of a stored turn event: written by the game's codec
    (:meth:`TilesGame.action_from_json`), or by the server before it used it (a play's tiles
    under ``tiles`` instead of ``play``)."""
    if data.get("action") == "play" and "play" not in data and "tiles" in data:
        data = {**{k: v for k, v in data.items() if k != "tiles"}, "play": data["tiles"]}
    return TILES.action_from_json(data)


def play_from_table(
    old: Table, table_json: Sequence[Sequence[str]], tiles: Sequence[str] | None
) -> Play:
    """A :class:`Play` from the complete new table sent by a client; the placed rack tiles are
    the new table minus the old one unless the client lists them."""
    new = Table.from_json([list(m) for m in table_json])
    if tiles is not None:
        placed = tuple(parse_tile(t, position=i) for i, t in enumerate(tiles))
    else:
        placed = tuple((new.counts() - old.counts()).elements())
    return Play(placed, new)


def _match(room: RoomView) -> Match:
    assert isinstance(room.match, Match)
    return room.match


def _public_turn(match: Match, log: TurnLog, before: Table) -> dict[str, Any]:
    out: dict[str, Any] = {
        "round": len(match.rounds) - 1,
        "seat": log.player,
        "action": log.action,
    }
    if log.action == "play":
        out["tiles"] = [str(t) for t in log.play]
        if log.table is not None:
            out["sets"] = _sets_made(before, log.table, match.rules)
    if log.action in ("timeout", "invalid"):
        out["penalty"] = len(log.penalty)
    if log.hint:
        out["hint"] = True
    return out


def _meld_key(meld: Meld) -> tuple[str, ...]:
    return tuple(sorted(str(t) for t in meld.tiles))


def _sets_made(before: Table, after: Table, rules: Rules) -> list[list[str]]:
    """The sets of the table after a play that were not on it before (new, grown or
    rearranged), as the clients show them: a move log words a play by the sets it made."""
    old = Counter(_meld_key(m) for m in before.melds)
    made: list[list[str]] = []
    for meld in after.melds:
        if old[_meld_key(meld)] > 0:
            old[_meld_key(meld)] -= 1
        else:
            made.append(shown_meld(meld, rules))
    return made


class TilesRoomGame:
    """The tile game in a room: 2-6 seats, a turn clock, hidden racks."""

    #: the game as refusals name it
    title = "the tile game"
    #: rated rooms play a preset with a turn clock
    rated = True

    # -- rules and seats -----------------------------------------------------------------
    def rules_from_message(self, spec: str | dict[str, Any]) -> Rules:
        return Rules.from_dict(spec)

    def check_players(self, rules: Rules, count: int) -> None:
        rules.check_players(count)

    def preset(self, rules: Rules) -> str | None:
        return rules.preset

    # -- the match -----------------------------------------------------------------------
    #: the most seconds a bot thinks about one action
    bot_seconds = 5.0

    def new_round(self, room: RoomView) -> None:
        pass

    def restored(self, room: RoomView) -> None:
        pass

    def act(self, room: RoomView, action: Any, *, ms: int | None, hint: bool) -> Turn:
        match = _match(room)
        before = match.state.table
        log = match.act(action, ms=ms, hint=hint)
        return Turn(
            action_to_json(action), _public_turn(match, log, before), log.action == "invalid"
        )

    def hint_counts(self, action: Any) -> bool:
        return isinstance(action, Play)

    def stored_action(self, data: dict[str, Any]) -> Action:
        return action_from_json(data)

    #: the protocol messages that are moves of this game, and their names
    move_names = "play, draw or pass"
    moves: tuple[type[Any], ...] = (p.PlayMsg, p.DrawMsg, p.PassMsg)

    def action_for(self, room: RoomView, msg: Any) -> Action:
        if isinstance(msg, p.DrawMsg):
            return Draw()
        if isinstance(msg, p.PassMsg):
            return Pass()
        assert isinstance(msg, p.PlayMsg)
        return play_from_table(_match(room).state.table, msg.table, msg.tiles)

    # -- what clients see ----------------------------------------------------------------
    #: the keys of the public game view, in order
    view_order = (
        "round turn current table rack_sizes pool_size opened passes totals round_over "
        "match_over time_left turn_seconds results log winners pause_left ready"
    )

    def room_fields(self) -> dict[str, Any]:
        return {}

    def game_view(self, room: RoomView) -> dict[str, Any]:
        """The table and what everybody may know of the racks: their sizes (no tile)."""
        obs = _match(room).observation(0)
        return {
            "table": shown_table(obs.table, room.rules),
            "rack_sizes": list(obs.rack_sizes),
            "pool_size": obs.pool_size,
            "opened": list(obs.opened),
            "passes": obs.passes,
            "turn_seconds": room.rules.turn_seconds,
        }

    def seat_view(self, room: RoomView, seat: int) -> dict[str, Any]:
        """The player's own rack (from his observation), and whether he used a hint this
        turn."""
        return {
            "rack": _match(room).observation(seat).rack.to_json(),
            "hinted": room.in_turn and room.turn_key() in room.hinted,
        }

    def result_fields(self, room: RoomView, end: Any) -> dict[str, Any]:
        return {
            "left": [rack_value(rk, room.rules) for rk in end.racks],
            "racks": [rk.to_json() for rk in end.racks],
        }

    #: what a meld is called in table checks
    meld_word = "meld"

    def meld_rules(self, room: RoomView) -> Rules:
        rules: Rules = room.rules
        return rules

    def check_placement(
        self, room: RoomView, table_json: Sequence[Sequence[str]]
    ) -> dict[str, Any]:
        state = _match(room).state
        try:
            play = play_from_table(state.table, table_json, None)
            left = Counter(state.table.counts()) - play.table.counts()
            err = (
                check_play(state, play)
                if not left
                else IllegalPlayError(
                    "table tiles never go back to a rack",
                    code=Code.TABLE_TILE_MISSING,
                    params={"tiles": format_tiles(sorted(left.elements()))},
                )
            )
            return {"ok": True} if err is None else refusal(err, reason=err.code, message=str(err))
        except (IllegalPlayError, NotationError) as exc:
            return refusal(exc, reason=Code.BAD_NOTATION, message=str(exc))

    def hint(self, obs: Any) -> dict[str, Any]:
        return compute_hint(obs)
