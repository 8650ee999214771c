"""Budgets per client address, request ids found without parsing, and closing rooms that never
start: unit tests on the real parts, in process."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummikub.server.manager import WAITING_IDLE_SECONDS, RoomManager
from rummikub.server.protocol.messages import peek_id
from rummikub.server.runtime.admission import Admission, Limits
from rummikub.server.runtime.clock import FakeClock
from rummikub.server.runtime.ratelimit import TokenBucket
from rummikub.server.storage.store import Store


def test_work_charged_after_the_fact_puts_the_client_in_debt() -> None:
    bucket = TokenBucket(rate=0.1, burst=1.0)
    assert bucket.has()
    bucket.charge(2.5)  # a request that took longer than the whole burst
    assert not bucket.has()
    assert 14.0 < bucket.wait() <= 25.0  # 1.5 s of debt plus a unit, at 0.1 per second


@pytest.mark.asyncio
async def test_a_costly_hint_spends_the_hint_budget_and_leaves_moves_alone() -> None:
    clock = FakeClock()
    adm = Admission(Limits(), clock=clock)
    budget = adm.budget("10.0.0.1")
    budget.hints.charge(Limits().hint_burst + 5.0)  # a hint that took more than the whole burst
    assert not budget.hints.has()
    assert budget.work.has()  # the move the hint suggested is still admitted
    await clock.advance(5.0 / Limits().hint_rate + 1.0)
    assert budget.hints.has()


def test_budgets_are_per_address_and_the_table_is_bounded() -> None:
    adm = Admission(Limits(max_clients=3))
    a = adm.budget("10.0.0.1")
    assert adm.budget("10.0.0.1") is a  # every connection of an address shares its budget
    for i in range(2, 6):
        adm.budget(f"10.0.0.{i}")
    assert adm.budget("10.0.0.1") is not a  # the least recently seen was forgotten


ID_TEXT = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=40)


@given(
    st.one_of(
        ID_TEXT.filter(lambda s: '"' not in s and "\\" not in s), st.integers(-(10**14), 10**14)
    )
)
def test_peek_id_finds_the_id_of_any_message(msg_id: str | int) -> None:
    text = json.dumps({"type": "chat", "text": 'say "id": 5', "id": msg_id})
    assert peek_id(text) == msg_id


def test_peek_id_ignores_an_id_inside_a_string() -> None:
    assert peek_id(json.dumps({"type": "chat", "text": '"id": "x"'})) is None


async def _waiting_room_is_closed(db: str) -> dict[str, Any]:
    store = Store(db)
    manager = RoomManager(store)
    await manager.start()
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    async def close(code: int) -> None:
        return None

    conn = manager.new_connection(send, close, client="127.0.0.9")
    await manager.receive(
        conn, json.dumps({"type": "create", "name": "Ann", "seats": [{"kind": "human"}] * 2})
    )
    for _ in range(100):  # the connection's writer sends in its own task
        joined = [json.loads(t) for t in sent if json.loads(t)["type"] == "joined"]
        if joined:
            break
        await asyncio.sleep(0.01)
    code = joined[0]["room"]
    await manager.disconnect(conn)  # the creator goes away without leaving
    now = manager.rooms[code].last_seen
    await manager.reap(now + WAITING_IDLE_SECONDS / 2)
    kept = code in manager.rooms
    await manager.reap(now + WAITING_IDLE_SECONDS + 1)
    gone = code not in manager.rooms
    await manager.stop()
    stored = store.load_room(code, events=False)
    store.close()
    assert stored is not None
    return {"kept": kept, "gone": gone, "status": stored.status}


def test_a_room_nobody_comes_to_is_closed(tmp_path: Path) -> None:
    out = asyncio.run(_waiting_room_is_closed(f"sqlite:///{tmp_path / 'r.db'}"))
    assert out == {"kept": True, "gone": True, "status": "abandoned"}
