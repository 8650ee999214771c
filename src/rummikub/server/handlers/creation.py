"""Making a new room: its game, rules, seats and settings checked, the creator's room budget
charged, a fresh code and deal seed, the room stored before the creator is seated in it."""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence

from rummikub.bots.registry import bot_levels
from rummikub.core import Code, RummikubError
from rummikub.games import get_game

from ..accounts.store import Account
from ..protocol import messages as p
from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError, refused
from ..protocol.text import check_text
from ..rooms.games import room_game
from ..rooms.room import Room, Seat, Settings, default_level, hash_token, new_code, new_token
from ..runtime.clock import Clock
from ..runtime.connection import Connection
from ..runtime.lobby import Lobby
from ..runtime.persistence import Persistence, StorageDown
from ..runtime.restore import stored_room
from ..runtime.room_runtime import RoomRuntime
from ..runtime.turns import Turns
from .rated import check_rated_room
from .seating import Seating

__all__ = ["RoomMaker"]


class RoomMaker:
    def __init__(
        self,
        storage: Persistence,
        seating: Seating,
        turns: Turns,
        lobby: Lobby,
        rooms: dict[str, RoomRuntime],
        clock: Clock,
        *,
        seed: int | None = None,
        quick_bot_delay: float = 1.0,
    ) -> None:
        """``seed`` fixes the deals, for tests: the n-th room made gets ``seed * 1000 + n``
        (as ``RUMMIKUB_TEST_SEED`` does). ``quick_bot_delay``: the bots' pause before each
        move in a quick match's room (a created room's is its creator's ``bot_delay``)."""
        self.storage = storage
        self.quick_bot_delay = quick_bot_delay
        self.clock = clock
        self._seed = seed
        self.seating = seating
        self.turns = turns
        self.lobby = lobby
        self.rooms = rooms
        self._rooms_made = 0

    def _broadcast(self, rt: RoomRuntime) -> None:
        self.storage.broadcast(rt)

    async def create(self, conn: Connection, msg: p.CreateMsg) -> None:
        if self.storage.down_since is not None:
            raise StorageDown()
        check_text(msg.name, "name")
        game = get_game(msg.game)
        part = room_game(game.name)
        try:
            rules = part.rules_from_message(msg.rules)
            part.check_players(rules, len(msg.seats))
        except RummikubError as exc:
            raise refused(Code.BAD_RULES, exc) from None
        if msg.seats[0].kind != "human":
            raise ClientError(
                ServerCode.BAD_SEATS,
                "seat 1 is the creator's and must be a person",
                params={"seat": 1},
            )
        levels = bot_levels(game.name)
        default = default_level(levels)
        seats: list[Seat] = []
        for i, spec in enumerate(msg.seats):
            level = None
            if spec.kind == "bot":
                level = spec.level or default
                if level not in levels:
                    raise ClientError(
                        ServerCode.BAD_SEATS,
                        f"seat {i + 1}: unknown bot level {level!r} (levels: {', '.join(levels)})",
                        params={"seat": i + 1, "level": level},
                    )
            seats.append(Seat(i, spec.kind, level))
        st = msg.settings
        standin = st.standin or default
        if standin not in levels:
            raise ClientError(
                ServerCode.BAD_SETTINGS,
                f"unknown stand-in bot level {standin!r}",
                params={"level": standin},
            )
        if st.rated:
            bots = [s.bot for s in seats if s.bot is not None]
            check_rated_room(conn, game.name, rules, st.hints, [*bots, standin])
        if not conn.budget.rooms.take():
            raise ClientError(
                ServerCode.TOO_MANY_ROOMS,
                "you have created many rooms in a short time; wait a little before the next",
                retry_after=round(conn.budget.rooms.wait(), 1),
            )
        hints = st.hints if st.hints is not None else not st.rated
        spectators = st.spectator_chat if st.spectator_chat is not None else not st.rated
        settings = Settings(
            hints, st.grace_seconds, st.public, st.bot_delay, st.round_pause, standin,
            rated=st.rated, spectator_chat=spectators,
        )  # fmt: skip
        if conn.room is not None:
            await self.seating.detach(conn, leaving=False)
        code = await self._new_code()
        now = self.clock.time()
        seed = self._deal_seed()
        room = Room(code, rules, settings, seed, seats, now, game=game)
        token = new_token()
        seats[0].name = msg.name if conn.account is None else conn.account.name
        seats[0].account = None if conn.account is None else conn.account.id
        seats[0].token_hash = hash_token(token)
        seats[0].person = conn.person
        rt = await self._store_new(room)
        async with rt.lock:
            self.seating.attach(rt, conn, 0)
            conn.send(
                {
                    "type": "joined",
                    "id": msg.id,
                    "room": code,
                    "seat": 0,
                    "token": token,
                    "chat": [],
                }
            )
            if room.all_taken:
                await self.turns.begin(rt)
            self._broadcast(rt)

    async def _new_code(self) -> str:
        code = new_code()
        while code in self.rooms or await self._code_used(code):
            code = new_code()
        return code

    async def _store_new(self, room: Room) -> RoomRuntime:
        """Store a new room and run it here."""
        rt = RoomRuntime(room)
        try:
            await self.storage.db(
                self.storage.store.create_room, stored_room(room, rt.seats, rt.row)
            )
        except Exception as exc:
            self.storage.failed(exc)
            raise StorageDown() from None
        self.rooms[room.code] = rt
        self.lobby.invalidate()
        return rt

    async def matched(
        self, game: str, preset: str, players: Sequence[Account], bots: Sequence[str]
    ) -> tuple[str, list[str]]:
        """Make and start a rated room for a quick match: ``players`` take the first seats
        (in that order), bots of the ``bots`` levels the others. Returns the room's code and
        each player's seat token (he takes his seat with it, from whichever node)."""
        if self.storage.down_since is not None:
            raise StorageDown()
        part = room_game(game)
        rules = part.rules_from_message(preset)
        levels = bot_levels(game)
        tokens = [new_token() for _ in players]
        seats = [
            Seat(i, "human", None, a.name, hash_token(tokens[i]), account=a.id)
            for i, a in enumerate(players)
        ]
        seats += [Seat(len(seats) + i, "bot", level) for i, level in enumerate(bots)]
        standin = "greedy" if "greedy" in levels else default_level(levels)
        settings = Settings(hints=False, standin=standin, rated=True, public=True,
                            bot_delay=self.quick_bot_delay)  # fmt: skip
        code = await self._new_code()
        seed, now = self._deal_seed(), self.clock.time()
        room = Room(code, rules, settings, seed, seats, now, game=get_game(game))
        rt = await self._store_new(room)
        async with rt.lock:
            await self.turns.begin(rt)
            self._broadcast(rt)
        return code, tokens

    async def rematch(
        self, old: Room, persons: dict[int, str | None]
    ) -> tuple[str, dict[int, str]]:
        """Make the rematch of ``old`` (a match that is over): the same game, rules, settings
        and seats, dealt anew. The bots keep their seats and levels; the person of each seat in
        ``persons`` (who accepted, and is here: his browser's id) keeps his name, account and
        seat; any other person's seat is free, for him to take again by the room's link (the
        host may start without him: a bot takes it). The host is the first of ``persons``.
        Returns the new room's code and each of ``persons``' seat token. The game starts at
        once when every seat is taken."""
        if self.storage.down_since is not None:
            raise StorageDown()
        tokens = {i: new_token() for i in sorted(persons)}
        seats: list[Seat] = []
        for s in old.seats:
            if s.kind == "bot":
                seats.append(Seat(s.seat, "bot", s.bot))
            elif s.seat in tokens:
                seats.append(
                    Seat(s.seat, "human", None, s.name, hash_token(tokens[s.seat]),
                         account=s.account, person=persons[s.seat])
                )  # fmt: skip
            else:
                seats.append(Seat(s.seat, "human"))
        st = old.settings
        settings = Settings(
            st.hints, st.grace_seconds, st.public, st.bot_delay, st.round_pause, st.standin,
            host=min(tokens), rated=st.rated, spectator_chat=st.spectator_chat,
            removed=list(st.removed),
        )  # fmt: skip
        code = await self._new_code()
        seed, now = self._deal_seed(), self.clock.time()
        room = Room(code, old.rules, settings, seed, seats, now, game=old.game)
        rt = await self._store_new(room)
        async with rt.lock:
            if room.all_taken:
                await self.turns.begin(rt)
            self._broadcast(rt)
        return code, tokens

    def _deal_seed(self) -> int:
        """A secret random seed for a new room's deals; with a fixed seed (the maker's
        ``seed``, or else ``RUMMIKUB_TEST_SEED``: for tests and bug reports only) the n-th room
        of the run gets ``seed * 1000 + n``."""
        self._rooms_made += 1
        if self._seed is not None:
            return self._seed * 1000 + self._rooms_made
        fixed = os.environ.get("RUMMIKUB_TEST_SEED")
        if fixed:
            return int(fixed) * 1000 + self._rooms_made
        return secrets.randbits(48)

    async def _code_used(self, code: str) -> bool:
        found = await self.storage.db(self.storage.store.load_room, code, events=False)
        return found is not None
