"""The database's tables as SQLAlchemy models: the schema the migrations
(:mod:`rummikub.server.storage.schema`) bring every database to, and what :mod:`.store` reads and
writes."""

from __future__ import annotations

from sqlalchemy import BigInteger, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "AccountRow",
    "AnalysisRow",
    "Base",
    "EventRow",
    "HeartbeatRow",
    "LeaseRow",
    "RatingHistoryRow",
    "RatingRow",
    "ReportRow",
    "ResultRow",
    "RoomRow",
    "SeatRow",
    "SessionRow",
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
    #: the account that took the seat (a guest's seat is claimed when he signs up)
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)


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
    """The analysis of a finished game (``rummikub-analysis/2`` JSON), made once on request;
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


# -- accounts (revision 0005) ---------------------------------------------------------
class AccountRow(Base):
    """A player's account. A deleted account keeps its row (its id is in finished games) with
    an anonymous name and no password."""

    __tablename__ = "accounts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(128), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(256), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    deleted_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    locked_until: Mapped[float] = mapped_column(Float, default=0.0)


class SessionRow(Base):
    """A logged-in browser: the SHA-256 of its session token."""

    __tablename__ = "sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)


class RatingRow(Base):
    """An account's current rating in one game."""

    __tablename__ = "ratings"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    display: Mapped[int] = mapped_column(Integer, index=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[float] = mapped_column(Float)


class RatingHistoryRow(Base):
    """The rating after each rated game."""

    __tablename__ = "rating_history"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    game: Mapped[str] = mapped_column(String(16))
    room_code: Mapped[str] = mapped_column(String(16))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    display: Mapped[int] = mapped_column(Integer)
    won: Mapped[int] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float, index=True)


class ReportRow(Base):
    """A player's report of another in a game, for an operator."""

    __tablename__ = "reports"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(String(16), index=True)
    seat: Mapped[int] = mapped_column(Integer)  # the reporter's seat (1-based)
    reported_seat: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)
    handled: Mapped[int] = mapped_column(Integer, default=0)
