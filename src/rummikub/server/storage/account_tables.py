"""The accounts' tables of revision 0006, beside those of :mod:`rummikub.server.storage.models` (the
same declarative base, so the migrations and the schema tests see them with the others):

- ``account_names``: the confusable skeleton of every account's name (:func:`.names.
  name_skeleton`, hashed), unique, so two names that look alike cannot both be taken, even by
  two sign-ups at once on two nodes;
- ``login_failures``: the wrong passwords in a row for each name typed at the login, known or
  not (the name's key, hashed: a password typed into the name field is not kept), and until
  when it is locked (:mod:`..accounts.lockout`);
- ``server_secrets``: the server's random secrets, made on the first start and shared by every
  node of the database (the CSRF key);

and of revision 0007:

- ``puzzle_attempts``: an account's first attempt at each puzzle (one row a puzzle: later
  attempts are practice), whether it was solved, how it ended (an answer, a hint, the solution
  shown) and the account's puzzle rating (Glicko-2) after it (docs/puzzles.md).
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base

__all__ = ["AccountNameRow", "LoginFailureRow", "PuzzleAttemptRow", "ServerSecretRow"]


class AccountNameRow(Base):
    """The (hashed) skeleton of an account's name; gone with the account."""

    __tablename__ = "account_names"
    skeleton: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), unique=True)


class LoginFailureRow(Base):
    """Wrong passwords in a row for one name (hashed key), and until when it is locked."""

    __tablename__ = "login_failures"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer)
    locked_until: Mapped[float] = mapped_column(Float)
    last_at: Mapped[float] = mapped_column(Float, index=True)


class ServerSecretRow(Base):
    """A secret of the server (``csrf``: the key CSRF tokens are made with)."""

    __tablename__ = "server_secrets"
    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[float] = mapped_column(Float)


class PuzzleAttemptRow(Base):
    """An account's first attempt at a puzzle: ``solved`` (1) or not (0), ``how`` it ended
    (``answer``, ``hint``: not rated, ``solution``: shown before solving, failed), and the
    account's puzzle rating after it; gone with the account."""

    __tablename__ = "puzzle_attempts"
    __table_args__ = (UniqueConstraint("account_id", "puzzle_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    puzzle_id: Mapped[str] = mapped_column(String(16))
    solved: Mapped[int] = mapped_column(Integer)
    how: Mapped[str] = mapped_column(String(16))
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)
