"""The lease of each room in a cluster (``rummikub serve --broker``): which node runs it, until
when, and its epoch (a fencing token).

A node takes the lease of a room it creates in the transaction that creates it, renews every
lease it holds once a second (:meth:`Leases.renew`, ``TTL`` seconds from the database's clock),
and takes over rooms whose lease has expired (:meth:`Leases.claim`: the epoch goes up by one).
Every write about a room checks, in its own transaction, that this node still holds the room's
lease at the epoch it took it with and that the lease has not expired (:meth:`Leases.check`,
which locks the lease rows until the write commits, so a takeover waits for it): a node that
lost a room cannot write to it any more. Times are the database's clock, so the nodes' clocks
need not agree; each node also stops acting for its rooms by its own clock before the lease can
expire (:mod:`.node`).

All methods are synchronous (SQLAlchemy on PostgreSQL); the node calls them from its own
thread.
"""

from __future__ import annotations

import threading
from collections.abc import Collection
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Float, and_, cast, func, insert, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Connection, Engine

from ..storage.models import LeaseRow, RoomRow
from ..storage.store import Fenced

__all__ = ["ACTIVE", "Claim", "Leases"]

#: the statuses of rooms a node must run (finished and abandoned rooms need nobody)
ACTIVE = ("waiting", "playing")


def _now() -> ColumnElement[float]:
    """The database's clock in seconds since the epoch (the moment of the statement)."""
    return cast(func.extract("epoch", func.clock_timestamp()), Float)


@dataclass(frozen=True, slots=True)
class Claim:
    """A room taken over: its new epoch, and when its last holder last renewed the lease
    (the time its clocks stood still from; ``None`` for a room nobody held)."""

    code: str
    epoch: int
    last_renewed: float | None


class Leases:
    """The leases one node holds (:attr:`held`: room code → epoch) and the statements about
    them."""

    def __init__(self, engine: Engine, node: str, ttl: float) -> None:
        self.engine = engine
        self.node = node
        self.ttl = ttl
        self.held: dict[str, int] = {}
        self._lock = threading.Lock()
        #: writes refused because this node did not hold the room's lease
        self.refused = 0

    # -- inside the writes' transactions (storage.Fence) ------------------------------
    def take(self, conn: Connection, code: str) -> None:
        """The lease of a new room, in the transaction that creates it."""
        conn.execute(
            insert(LeaseRow).values(
                code=code, node=self.node, epoch=1, expires_at=_now() + self.ttl
            )
        )
        with self._lock:
            self.held[code] = 1

    def check(self, conn: Connection, codes: Collection[str]) -> None:
        """Raise :class:`Fenced` unless this node holds the lease of every room of ``codes``
        at its epoch, unexpired. The lease rows stay locked until the transaction ends."""
        with self._lock:
            mine = {c: self.held[c] for c in codes if c in self.held}
        rows = conn.execute(
            select(LeaseRow.code, LeaseRow.epoch)
            .where(
                LeaseRow.code.in_(list(mine)),
                LeaseRow.node == self.node,
                LeaseRow.expires_at > _now(),
            )
            .with_for_update()
        ).all()
        valid = {code for code, epoch in rows if mine.get(code) == epoch}
        lost = set(codes) - valid
        if lost:
            self.refused += 1
            raise Fenced(lost)

    # -- the node's own statements ----------------------------------------------------
    def renew(self) -> set[str]:
        """Renew every lease held; returns the rooms whose lease was lost (expired and taken
        over, or expired: this node must stop acting for them)."""
        with self._lock:
            held = dict(self.held)
        if not held:
            return set()
        with self.engine.begin() as conn:
            rows = conn.execute(
                update(LeaseRow)
                .where(
                    LeaseRow.node == self.node,
                    LeaseRow.code.in_(list(held)),
                    LeaseRow.expires_at > _now(),
                )
                .values(expires_at=_now() + self.ttl)
                .returning(LeaseRow.code, LeaseRow.epoch)
            ).all()
        kept = {code for code, epoch in rows if held.get(code) == epoch}
        return set(held) - kept

    def release(self, code: str) -> None:
        """Stop renewing the lease of ``code`` (the room was dropped or forgotten)."""
        with self._lock:
            self.held.pop(code, None)

    def claimable(self, limit: int) -> list[tuple[str, int | None]]:
        """Unfinished rooms nobody runs: their lease expired (code, epoch) or they never had
        one (code, ``None``: made by a server before the cluster), oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(RoomRow.code, LeaseRow.epoch)
                .select_from(RoomRow)
                .outerjoin(LeaseRow, LeaseRow.code == RoomRow.code)
                .where(
                    RoomRow.status.in_(ACTIVE),
                    or_(LeaseRow.code.is_(None), LeaseRow.expires_at <= _now()),
                )
                .order_by(RoomRow.created_at)
                .limit(limit)
            ).all()
        return [(code, epoch) for code, epoch in rows]

    def claim(self, code: str, epoch: int | None) -> Claim | None:
        """Take over the room ``code`` whose lease was seen expired at ``epoch`` (``None``:
        it had none); ``None`` when another node was first."""
        with self.engine.begin() as conn:
            if epoch is None:
                took = conn.execute(
                    pg_insert(LeaseRow)
                    .values(code=code, node=self.node, epoch=1, expires_at=_now() + self.ttl)
                    .on_conflict_do_nothing(index_elements=[LeaseRow.code])
                    .returning(LeaseRow.epoch)
                ).scalar_one_or_none()
                if took is None:
                    return None
                last = None
                new = 1
            else:
                old = conn.execute(
                    select(LeaseRow.expires_at)
                    .where(
                        LeaseRow.code == code,
                        LeaseRow.epoch == epoch,
                        LeaseRow.expires_at <= _now(),
                    )
                    .with_for_update(skip_locked=True)
                ).scalar_one_or_none()
                if old is None:
                    return None
                conn.execute(
                    update(LeaseRow)
                    .where(LeaseRow.code == code)
                    .values(node=self.node, epoch=epoch + 1, expires_at=_now() + self.ttl)
                )
                last = old - self.ttl
                new = epoch + 1
        with self._lock:
            self.held[code] = new
        return Claim(code, new, last)

    def owners(self) -> dict[str, str]:
        """Room code → the node whose unexpired lease runs it, for the unfinished rooms."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(LeaseRow.code, LeaseRow.node)
                .join(RoomRow, RoomRow.code == LeaseRow.code)
                .where(RoomRow.status.in_(ACTIVE), LeaseRow.expires_at > _now())
            ).all()
        return {code: node for code, node in rows}

    def owner(self, code: str) -> str | None:
        """The node whose unexpired lease runs ``code`` (``None``: nobody, right now)."""
        with self.engine.connect() as conn:
            node: str | None = conn.execute(
                select(LeaseRow.node).where(
                    and_(LeaseRow.code == code, LeaseRow.expires_at > _now())
                )
            ).scalar_one_or_none()
        return node

    def give_up(self) -> None:
        """Give up every lease at once (a clean shutdown): other nodes take the rooms over
        at their next look instead of waiting for the leases to expire (the epochs stay)."""
        with self._lock:
            held, self.held = self.held, {}
        if not held:
            return
        with self.engine.begin() as conn:
            conn.execute(
                update(LeaseRow)
                .where(LeaseRow.node == self.node, LeaseRow.code.in_(list(held)))
                .values(expires_at=0.0)
            )
