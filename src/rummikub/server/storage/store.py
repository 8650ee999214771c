"""Persistence with SQLAlchemy 2: rooms, seats, the event log of every accepted action, round
results and a heartbeat that lets a restarted server restore the turn clocks.

SQLite (a file under the user's data directory) is the default; any SQLAlchemy URL works, and
``postgresql://`` URLs are driven by psycopg 3. All methods are synchronous; the room manager
calls them from one dedicated writer thread so the event loop never waits on the database.
"""

from __future__ import annotations

import json
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import (
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session, sessionmaker

from . import account_tables as _account_tables  # noqa: F401  (their tables join the models)
from .models import AnalysisRow, EventRow, HeartbeatRow, ResultRow, RoomRow, SeatRow
from .schema import migrate

__all__ = [
    "Append",
    "Fence",
    "Fenced",
    "Store",
    "StoredEvent",
    "StoredRoom",
    "StoredSeat",
    "default_db_url",
    "normalise_url",
]


#: how long a write waits for another process's lock on a SQLite file before it fails (and the
#: server goes into its "storage down" mode, retrying, instead of holding every room up)
SQLITE_BUSY_SECONDS = 5.0
#: how long opening a PostgreSQL connection may take
PG_CONNECT_SECONDS = 10
#: how long PostgreSQL lets one of our transactions sit idle before it ends it (milliseconds):
#: the server's transactions are short, so only a stopped process reaches this
IDLE_TRANSACTION_MS = 10_000


@dataclass(slots=True)
class StoredSeat:
    seat: int
    kind: str
    bot: str | None
    name: str | None
    token_hash: str | None
    #: the account holding the seat (``None``: a guest, a bot or nobody)
    account_id: int | None = None


@dataclass(slots=True)
class StoredEvent:
    seq: int
    kind: str
    data: dict[str, Any]
    at: float


@dataclass(slots=True)
class Append:
    """One event to append, with the room-row update and round result stored alongside it."""

    code: str
    ev: StoredEvent
    room: dict[str, Any] | None = None
    result: dict[str, Any] | None = None


@dataclass(slots=True)
class StoredRoom:
    code: str
    created_at: float
    rules: dict[str, Any]
    settings: dict[str, Any]
    seed: int
    status: str
    turn_started: float | None
    finished_at: float | None
    seats: list[StoredSeat] = field(default_factory=list)
    events: list[StoredEvent] = field(default_factory=list)
    game: str = "tiles"


class Fenced(Exception):
    """A write about rooms whose lease this node does not hold (any more): another node runs
    them. Nothing of the transaction is stored."""

    def __init__(self, codes: Collection[str]) -> None:
        self.codes = frozenset(codes)
        super().__init__(f"not the lease holder of {', '.join(sorted(self.codes))}")


class Fence(Protocol):
    """The leases of a cluster node (:mod:`..cluster.leases`), checked inside every write's
    transaction: ``take`` the lease of a room being created, ``check`` that the rooms written
    are still held (or raise :class:`Fenced`)."""

    def take(self, conn: Connection, code: str) -> None: ...

    def check(self, conn: Connection, codes: Collection[str]) -> None: ...


def default_db_url() -> str:
    """``sqlite:///<user data dir>/rummikub/rummikub.db`` (the directory is created)."""
    from platformdirs import user_data_dir

    path = Path(user_data_dir("rummikub", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path / 'rummikub.db'}"


def normalise_url(url: str) -> str:
    """Accept plain ``postgresql://``/``postgres://`` URLs and use the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _room(row: RoomRow) -> StoredRoom:
    return StoredRoom(
        row.code,
        row.created_at,
        json.loads(row.rules),
        json.loads(row.settings),
        row.seed,
        row.status,
        row.turn_started,
        row.finished_at,
        game=row.game or "tiles",
    )


class Store:
    """The database behind a server."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalise_url(url or default_db_url())
        # a connection the database dropped (a restart) is noticed before use, not by a write
        kwargs: dict[str, Any] = {"pool_pre_ping": True}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": SQLITE_BUSY_SECONDS}
            if self.url.startswith("sqlite:///") and self.url != "sqlite:///:memory:":
                Path(self.url[len("sqlite:///") :]).parent.mkdir(parents=True, exist_ok=True)
        elif self.url.startswith("postgresql"):
            # a database host that drops packets fails a connection attempt instead of hanging
            kwargs["connect_args"] = {"connect_timeout": PG_CONNECT_SECONDS}
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        elif self.url.startswith("postgresql"):
            event.listen(self.engine, "connect", _pg_settings)
        migrate(self.engine)
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        #: the leases of a cluster node: every write about a room checks them (``None``: one
        #: server alone, nothing to check)
        self.fence: Fence | None = None

    def _check(self, conn: Connection, codes: Collection[str]) -> None:
        if self.fence is not None:
            self.fence.check(conn, codes)

    def close(self) -> None:
        self.engine.dispose()

    # -- writing ---------------------------------------------------------------------
    def create_room(self, room: StoredRoom) -> None:
        with self._session.begin() as s:
            s.add(
                RoomRow(
                    code=room.code,
                    created_at=room.created_at,
                    rules=json.dumps(room.rules),
                    settings=json.dumps(room.settings),
                    seed=room.seed,
                    status=room.status,
                    turn_started=room.turn_started,
                    finished_at=room.finished_at,
                    game=room.game,
                )
            )
            s.flush()
            for seat in room.seats:
                s.add(
                    SeatRow(
                        room_code=room.code,
                        seat=seat.seat,
                        kind=seat.kind,
                        bot=seat.bot,
                        name=seat.name,
                        token_hash=seat.token_hash,
                        account_id=seat.account_id,
                    )
                )
            if self.fence is not None:
                s.flush()
                self.fence.take(s.connection(), room.code)

    def update_seat(self, code: str, seat: StoredSeat) -> None:
        with self._session.begin() as s:
            self._check(s.connection(), (code,))
            s.execute(
                update(SeatRow)
                .where(SeatRow.room_code == code, SeatRow.seat == seat.seat)
                .values(
                    kind=seat.kind,
                    bot=seat.bot,
                    name=seat.name,
                    token_hash=seat.token_hash,
                    account_id=seat.account_id,
                )
            )

    def append(
        self,
        code: str,
        ev: StoredEvent,
        *,
        room: dict[str, Any] | None = None,
        result: dict[str, Any] | None = None,
    ) -> None:
        """Append one event and, in the same transaction, update the room row and store a
        round result. Either all of it is stored or none."""
        self.append_many([Append(code, ev, room, result)])

    def append_many(self, items: Sequence[Append]) -> None:
        """Store a batch of appends in one transaction (group commit): every event, the room
        updates (in order; later values win) and the round results. All or nothing."""
        if not items:
            return
        events = [
            {
                "room_code": it.code,
                "seq": it.ev.seq,
                "kind": it.ev.kind,
                "data": json.dumps(it.ev.data),
                "at": it.ev.at,
            }
            for it in items
        ]
        rooms: dict[str, dict[str, Any]] = {}
        results = []
        for it in items:
            if it.room:
                rooms.setdefault(it.code, {}).update(it.room)
            if it.result is not None:
                r = it.result
                results.append(
                    {
                        "room_code": it.code,
                        "round": r["round"],
                        "reason": r["reason"],
                        "winner": r["winner"],
                        "scores": json.dumps(r["scores"]),
                        "at": it.ev.at,
                    }
                )
        with self.engine.begin() as conn:
            self._check(conn, {it.code for it in items})
            conn.execute(insert(EventRow), events)
            for code, values in rooms.items():
                conn.execute(update(RoomRow).where(RoomRow.code == code).values(**values))
            if results:
                conn.execute(insert(ResultRow), results)

    def update_room(self, code: str, **values: Any) -> None:
        with self._session.begin() as s:
            self._check(s.connection(), (code,))
            s.execute(update(RoomRow).where(RoomRow.code == code).values(**values))

    def beat(self, at: float | None = None) -> None:
        now = time.time() if at is None else at
        with self.engine.begin() as conn:
            done = conn.execute(update(HeartbeatRow).where(HeartbeatRow.id == 1).values(at=now))
            if done.rowcount == 0:
                conn.execute(insert(HeartbeatRow).values(id=1, at=now))

    def save_analysis(self, code: str, version: str, data: str) -> None:
        """Keep the analysis ``data`` of the game ``code`` (replacing an older one)."""
        with self._session.begin() as s:
            s.merge(AnalysisRow(room_code=code, version=version, data=data, at=time.time()))

    # -- reading ---------------------------------------------------------------------
    def load_analysis(self, code: str, version: str) -> str | None:
        """The kept analysis of the game ``code`` if one made by ``version`` is kept."""
        with Session(self.engine) as s:
            row = s.get(AnalysisRow, code)
            return row.data if row is not None and row.version == version else None

    def has_analysis(self, code: str, version: str) -> bool:
        """Whether an analysis of the game ``code`` made by ``version`` is kept (its text is
        not read)."""
        with Session(self.engine) as s:
            kept = s.scalar(select(AnalysisRow.version).where(AnalysisRow.room_code == code))
            return kept == version

    def last_beat(self) -> float | None:
        with Session(self.engine) as s:
            row = s.get(HeartbeatRow, 1)
            return row.at if row is not None else None

    def load_room(self, code: str, *, events: bool = True) -> StoredRoom | None:
        with Session(self.engine) as s:
            row = s.get(RoomRow, code)
            if row is None:
                return None
            return self._fill(s, _room(row), events)

    def active(self, limit: int = 1000) -> list[StoredRoom]:
        """The newest unfinished rooms with their seats but not their events (the lobby of a
        cluster: the rooms of every node)."""
        with Session(self.engine) as s:
            rows = s.scalars(
                select(RoomRow)
                .where(RoomRow.status.in_(("waiting", "playing")))
                .order_by(RoomRow.created_at.desc())
                .limit(limit)
            ).all()
            return [self._fill(s, _room(r), False) for r in rows]

    def load_active(self) -> list[StoredRoom]:
        """Every room whose game is not finished (waiting for players or being played)."""
        with Session(self.engine) as s:
            rows = s.scalars(
                select(RoomRow)
                .where(RoomRow.status.in_(("waiting", "playing")))
                .order_by(RoomRow.created_at)
            ).all()
            return [self._fill(s, _room(r), True) for r in rows]

    def finished(self, limit: int = 30) -> list[StoredRoom]:
        with Session(self.engine) as s:
            rows = s.scalars(
                select(RoomRow)
                .where(RoomRow.status == "finished")
                .order_by(RoomRow.finished_at.desc())
                .limit(limit)
            ).all()
            return [self._fill(s, _room(r), False) for r in rows]

    def results(self, code: str) -> list[dict[str, Any]]:
        with Session(self.engine) as s:
            rows = s.scalars(
                select(ResultRow).where(ResultRow.room_code == code).order_by(ResultRow.round)
            ).all()
            return [
                {
                    "round": r.round,
                    "reason": r.reason,
                    "winner": r.winner,
                    "scores": json.loads(r.scores),
                }
                for r in rows
            ]

    def _fill(self, s: Session, room: StoredRoom, events: bool) -> StoredRoom:
        seats = s.scalars(
            select(SeatRow).where(SeatRow.room_code == room.code).order_by(SeatRow.seat)
        ).all()
        room.seats = [
            StoredSeat(x.seat, x.kind, x.bot, x.name, x.token_hash, x.account_id) for x in seats
        ]
        if events:
            evs = s.scalars(
                select(EventRow).where(EventRow.room_code == room.code).order_by(EventRow.seq)
            ).all()
            room.events = [StoredEvent(e.seq, e.kind, json.loads(e.data), e.at) for e in evs]
        return room


def _pg_settings(dbapi_conn: Any, _record: Any) -> None:
    """A transaction left open by a process that stopped (frozen, paused, cut off) is ended by
    the database, so the row locks it holds (a room's lease) cannot keep another node from
    taking the room over. Set per connection, so options in the URL keep their effect."""
    with dbapi_conn.cursor() as cur:
        cur.execute(f"SET idle_in_transaction_session_timeout = {IDLE_TRANSACTION_MS}")
    dbapi_conn.commit()


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
