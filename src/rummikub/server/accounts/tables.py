"""The accounts' tables (revision ``0005``): accounts, their sessions, ratings and rating
history, and players' reports of a game."""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..models import Base

__all__ = ["AccountRow", "RatingHistoryRow", "RatingRow", "ReportRow", "SessionRow"]


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
