"""Group commit: many rooms' events in one transaction, each caller told only after commit."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from rummikub.server.storage.store import Append, Store, StoredEvent, StoredRoom
from rummikub.server.storage.writer import GroupWriter


def _store(tmp_path: Path, codes: list[str]) -> Store:
    store = Store(f"sqlite:///{tmp_path / 'w.db'}")
    for code in codes:
        store.create_room(
            StoredRoom(code, 0.0, {}, {}, 1, "playing", None, None, seats=[], events=[])
        )
    return store


def test_appends_from_many_rooms_are_batched_and_all_stored(tmp_path: Path) -> None:
    codes = [f"R{i}" for i in range(20)]
    store = _store(tmp_path, codes)
    writer = GroupWriter(store, ThreadPoolExecutor(1))

    async def run() -> None:
        await asyncio.gather(
            *(
                writer.append(Append(code, StoredEvent(seq, "turn", {"n": seq}, 1.0)))
                for seq in range(1, 6)
                for code in codes
            )
        )

    asyncio.run(run())
    assert writer.items == 100
    assert writer.batches < 100  # grouped
    for code in codes:
        room = store.load_room(code)
        assert room is not None
        assert [e.seq for e in room.events] == [1, 2, 3, 4, 5]


def test_a_bad_item_fails_alone(tmp_path: Path) -> None:
    store = _store(tmp_path, ["A", "B"])
    store.append("A", StoredEvent(1, "turn", {}, 1.0))
    writer = GroupWriter(store, ThreadPoolExecutor(1))

    async def run() -> tuple[BaseException | None, BaseException | None]:
        return await asyncio.gather(
            writer.append(Append("A", StoredEvent(1, "turn", {}, 2.0))),  # duplicate seq
            writer.append(Append("B", StoredEvent(1, "turn", {}, 2.0), {"status": "finished"})),
            return_exceptions=True,
        )

    first, second = asyncio.run(run())
    assert isinstance(first, Exception)
    assert second is None
    b = store.load_room("B")
    assert b is not None and [e.seq for e in b.events] == [1] and b.status == "finished"
    a = store.load_room("A")
    assert a is not None and [e.at for e in a.events] == [1.0]


@pytest.mark.parametrize("n", [1, 3])
def test_room_updates_apply_in_order(tmp_path: Path, n: int) -> None:
    store = _store(tmp_path, ["A"])
    store.append_many(
        [Append("A", StoredEvent(i, "turn", {}, 1.0), {"turn_started": float(i)}) for i in range(n)]
    )
    room = store.load_room("A")
    assert room is not None and room.turn_started == float(n - 1)
