"""Rated games: what a rated room must be, and the ratings moved once its game is over.

A rated room plays the tile game under a preset whose turns have a clock (every preset but
``casual``), without hints, and only people logged in to an account take its seats; bots may
fill seats (a bot's rating is fixed: :mod:`rummikub.ratings.bots`). When the match is over each
account's rating moves by the OpenSkill model against everyone at the table, once per game
(:meth:`~..accounts.games.PlayerGames.rate_game`), and the room's clients are told
(``{"type": "rated", "changes": [{"seat", "before", "after"}]}``). A player a stand-in bot
played for, after he left or lost his connection, is rated all the same.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from rummikub.core import PRESETS
from rummikub.ratings import bot_ratings

from ..accounts.games import Change, PlayerGames, RatedSeat
from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError
from ..rooms.games import room_game, room_game_names
from ..runtime.clock import Clock
from ..runtime.connection import Connection
from ..runtime.room_runtime import RoomRuntime

__all__ = [
    "RatedGames",
    "check_rated_game",
    "check_rated_room",
    "need_account",
    "rated_games",
    "rated_presets",
]

log = logging.getLogger("rummikub.server")


def rated_presets() -> list[str]:
    """The presets a rated room may play: those with a turn clock."""
    return [name for name, rules in PRESETS.items() if rules.turn_seconds is not None]


def need_account(conn: Connection, what: str) -> None:
    if conn.account is None:
        raise ClientError(ServerCode.ACCOUNT_NEEDED, f"{what} needs an account: log in first")


def _not_rated(reason: str, message: str) -> ClientError:
    return ClientError(ServerCode.NOT_RATED, message, params={"reason": reason})


def rated_games() -> tuple[str, ...]:
    """The games whose rooms may be rated: quick match and ``rated`` rooms (their room part's
    ``rated``)."""
    return tuple(name for name in room_game_names() if room_game(name).rated)


def check_rated_game(game: str) -> None:
    """Refuse a rated game or quick match of a game whose rooms are not rated."""
    rated = rated_games()
    if game not in rated:
        raise _not_rated("game", f"only {', '.join(rated)} games are rated, not {game}")


def check_rated_room(
    conn: Connection, game: str, rules: Any, hints: bool | None, levels: list[str]
) -> None:
    """Refuse a rated room that could not be one: the creator without an account, another
    game, ``rules`` (as read) that are not a preset with a clock, hints asked for, unrated
    bots."""
    need_account(conn, "a rated game")
    check_rated_game(game)
    presets = rated_presets()
    name = getattr(rules, "preset", None)
    if name not in presets or rules.to_dict() != PRESETS[name].to_dict():
        raise _not_rated(
            "rules", f"a rated game plays one of the presets {', '.join(presets)}, unchanged"
        )
    if hints:
        raise _not_rated("hints", "a rated game has no hints")
    rated = bot_ratings(game)
    unrated = [level for level in levels if level not in rated]
    if unrated:
        raise _not_rated("bots", f"bots without a rating cannot play a rated game: {unrated[0]}")


class RatedGames:
    """Rates every rated room's game when it is over (the room manager calls :meth:`over`)."""

    def __init__(self, games: PlayerGames, clock: Clock) -> None:
        self.games = games
        self.clock = clock

    async def over(self, rt: RoomRuntime) -> list[Change]:
        """Rate the game of ``rt`` (its match is over) and tell the room's clients; nothing for
        a casual room. A failure is logged and leaves the game as it is (it was stored)."""
        room = rt.room
        if not room.settings.rated or room.match is None or not room.match.over:
            return []
        game = room.game.name
        fixed = bot_ratings(game)
        seats = [
            RatedSeat(s.account) if s.kind == "human" else RatedSeat(None, fixed.get(s.bot or ""))
            for s in room.seats
        ]
        match = room.match
        try:
            changes = await asyncio.to_thread(
                self.games.rate_game,
                game,
                room.code,
                seats,
                list(match.totals),
                list(match.winners),
                self.clock.time(),
            )
        except Exception:
            log.exception("room %s: the ratings could not be stored", room.code)
            return []
        if changes:
            msg = {
                "type": "rated",
                "room": room.code,
                "changes": [
                    {"seat": c.seat, "before": c.before, "after": c.after} for c in changes
                ],
            }
            for c in rt.conns:
                c.send(msg)
        return changes
