"""Game records for the HTTP API: of a finished game, or of a damaged one up to its last good
event, built once and kept (the most recent :data:`RECORD_CACHE`)."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor

from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError
from ..rooms.room import Room
from ..runtime.persistence import Persistence
from ..runtime.restore import Damage, replay
from ..runtime.room_runtime import RoomRuntime

__all__ = ["RECORD_CACHE", "Records"]

#: records of finished games kept ready to serve
RECORD_CACHE = 256


class Records:
    def __init__(
        self,
        storage: Persistence,
        rooms: dict[str, RoomRuntime],
        damaged: dict[str, tuple[Room | None, Damage]],
        cpu: ThreadPoolExecutor,
    ) -> None:
        self.storage = storage
        self.rooms = rooms
        self.damaged = damaged
        self._cpu = cpu
        self._records: OrderedDict[str, str] = OrderedDict()

    async def record(self, code: str) -> str:
        """The game record (JSON text) of a finished game, or of a damaged one up to its last
        good event. An unfinished game has none: its record would show the racks in play.
        Records are built once and kept (off the event loop when the game must be loaded)."""
        code = code.upper()
        cached = self._records.get(code)
        if cached is not None:
            self._records.move_to_end(code)
            return cached
        room: Room
        if code in self.damaged:
            found = self.damaged[code][0]
            if found is None or not found.started:
                raise ClientError(
                    ServerCode.NOT_STARTED, "the game never started; it has no record"
                )
            room = found
        else:
            rt = self.rooms.get(code)
            if rt is not None:
                room = rt.room
            else:
                sr = await self.storage.db(self.storage.store.load_room, code)
                if sr is None:
                    raise ClientError(
                        ServerCode.NO_SUCH_ROOM, f"no game with code {code}", params={"room": code}
                    )
                if sr.status != "finished":
                    raise ClientError(
                        ServerCode.NOT_FINISHED,
                        "the game is not finished; its record is available once it ends",
                    )
                loop = asyncio.get_running_loop()
                room = (await loop.run_in_executor(self._cpu, replay, sr)).room
            if not room.started or room.status != "finished":
                raise ClientError(
                    ServerCode.NOT_FINISHED,
                    "the game is not finished; its record is available once it ends",
                )
        text = json.dumps(room.record(), separators=(",", ":"))
        self._records[code] = text
        while len(self._records) > RECORD_CACHE:
            self._records.popitem(last=False)
        return text

    def forget(self, codes: Iterable[str]) -> None:
        """Drop the kept records of the games ``codes`` (a player of theirs deleted his
        account: built again, they show his seat under the anonymous name)."""
        for code in codes:
            self._records.pop(code.upper(), None)
