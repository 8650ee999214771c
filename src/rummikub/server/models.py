"""The database's tables as SQLAlchemy models: the schema the migrations
(:mod:`rummikub.server.schema`) bring every database to, and what :mod:`.storage` reads and
writes."""

from __future__ import annotations

from sqlalchemy import BigInteger, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "AnalysisRow",
    "Base",
    "EventRow",
    "HeartbeatRow",
    "LeaseRow",
    "ResultRow",
    "RoomRow",
    "SeatRow",
]


class Base(DeclarativeBase):
    pass


class RoomRow(Base):
    __tablename__ = "rooms"
    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    created_at: Mapped[float] = mapped_column(Float)
    rules: Mapped[str] = mapped_column(Text)
    settings: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)
    turn_started: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    game: Mapped[str] = mapped_column(String(16), default="tiles", server_default="tiles")


class SeatRow(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("room_code", "seat"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(128), nullable=True)


class EventRow(Base):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("room_code", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


class ResultRow(Base):
    __tablename__ = "results"
    __table_args__ = (UniqueConstraint("room_code", "round"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code"), index=True)
    round: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(16))
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    scores: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


class AnalysisRow(Base):
    """The analysis of a finished game (``rummikub-analysis/1`` JSON), made once on request;
    ``version`` names the analysis that made it (a newer one makes it again)."""

    __tablename__ = "analyses"
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code"), primary_key=True)
    version: Mapped[str] = mapped_column(String(32))
    data: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


class HeartbeatRow(Base):
    __tablename__ = "heartbeat"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[float] = mapped_column(Float)


class LeaseRow(Base):
    """Which node of a cluster runs a room (``rummikub serve --broker``): ``node`` holds it
    until ``expires_at`` (the database's clock, seconds since the epoch) and renews it while
    it lives; ``epoch`` goes up by one each time another node takes the room over, and every
    write about the room checks it (fencing)."""

    __tablename__ = "leases"
    code: Mapped[str] = mapped_column(ForeignKey("rooms.code"), primary_key=True)
    node: Mapped[str] = mapped_column(String(64), index=True)
    epoch: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[float] = mapped_column(Float, index=True)
