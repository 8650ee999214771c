"""Fencing on a real PostgreSQL: a node whose lease of a room expired and was taken over by
another node cannot write to the room any more, and its renewal tells it so."""

from __future__ import annotations

import time

import pytest

from rummikub.server.cluster.leases import Leases
from rummikub.server.storage.store import Fenced, Store, StoredEvent, StoredRoom

from .cluster_helpers import eventually

#: a short lease: the test waits for it to expire (on a condition, not a fixed time)
TTL = 0.5


def _event(seq: int, who: str) -> StoredEvent:
    return StoredEvent(seq, "chat", {"seat": 0, "name": who, "text": who, "at": 0.0}, time.time())


def test_a_node_that_lost_the_lease_of_a_room_cannot_write_to_it(pg_url: str) -> None:
    a, b = Store(pg_url), Store(pg_url)
    try:
        la, lb = Leases(a.engine, "a", TTL), Leases(b.engine, "b", TTL)
        a.fence, b.fence = la, lb
        room = StoredRoom("FENCE1", time.time(), {}, {}, 1, "playing", None, None)
        a.create_room(room)  # the lease is taken with the room
        assert la.held == {"FENCE1": 1}
        a.append("FENCE1", _event(1, "a"))
        with pytest.raises(Fenced):  # b does not hold the room
            b.append("FENCE1", _event(2, "b"))
        with pytest.raises(Fenced):
            b.update_room("FENCE1", status="finished")

        # a stops renewing (cut off): its lease expires and b takes the room over
        found = eventually(lambda: lb.claimable(10), "the lease to expire", 30)
        assert found == [("FENCE1", 1)]
        claim = lb.claim("FENCE1", 1)
        assert claim is not None and claim.epoch == 2 and claim.last_renewed is not None
        assert la.claim("FENCE1", 1) is None  # a late claim of the old epoch fails

        with pytest.raises(Fenced) as refused:  # a wakes up and tries to write: refused
            a.append("FENCE1", _event(2, "a"))
        assert refused.value.codes == {"FENCE1"}
        with pytest.raises(Fenced):
            a.update_room("FENCE1", turn_started=1.0)
        assert la.refused == 2
        assert la.renew() == {"FENCE1"}  # and its renewal says the room is lost

        b.append("FENCE1", _event(2, "b"))
        stored = a.load_room("FENCE1")
        assert stored is not None and stored.turn_started is None
        assert [(e.seq, e.data["name"]) for e in stored.events] == [(1, "a"), (2, "b")]
    finally:
        a.close()
        b.close()


def test_a_node_stopped_inside_a_write_cannot_block_the_takeover(pg_url: str) -> None:
    """A node frozen (SIGSTOP, a paused VM) in the middle of a write holds its lease row locked;
    the database ends that idle transaction, so another node can still take the room over, and
    the frozen node's write is lost to it, not to the game."""
    from sqlalchemy import select

    from rummikub.server.storage.models import LeaseRow
    from rummikub.server.storage.store import IDLE_TRANSACTION_MS

    a, b = Store(pg_url), Store(pg_url)
    try:
        la, lb = Leases(a.engine, "a", TTL), Leases(b.engine, "b", TTL)
        a.fence, b.fence = la, lb
        a.create_room(StoredRoom("FROZE1", time.time(), {}, {}, 1, "playing", None, None))
        frozen = a.engine.connect()
        frozen.begin()
        # what a's write does first: lock its lease row; then a stops before committing
        frozen.execute(select(LeaseRow).where(LeaseRow.code == "FROZE1").with_for_update())
        started = time.monotonic()
        claim = eventually(
            lambda: lb.claim("FROZE1", 1) if lb.claimable(10) else None,
            "the takeover past the frozen transaction",
            IDLE_TRANSACTION_MS / 1000 + 30,
        )
        assert claim.epoch == 2
        assert time.monotonic() - started >= TTL  # after the lease expired, not before
        with pytest.raises(Exception, match=r"idle-in-transaction|terminat|closed"):
            frozen.commit()  # the database ended it: a's write never lands
        frozen.close()
    finally:
        a.close()
        b.close()
