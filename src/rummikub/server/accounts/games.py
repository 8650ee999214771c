"""An account's games in the server's database: rating a finished rated game, the games a
player is in now, his recent games, and a guest's games claimed when he signs up or logs in.

Every method is one transaction; the time comes from the caller (``now``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from rummikub.ratings import Rating, display, ranks_of, rate

from ..storage.models import RatingHistoryRow, RatingRow, ResultRow, RoomRow, SeatRow
from .store import Account
from .tokens import token_hash

__all__ = ["MAX_CLAIMS", "Change", "GameLine", "PlayerGames", "RatedSeat"]

#: the most seat tokens one sign-up or login may claim
MAX_CLAIMS = 50


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """A seat of a rated game: an account's (``account``) or a bot's, whose fixed rating is
    ``bot``."""

    account: int | None
    bot: Rating | None = None


@dataclass(frozen=True, slots=True)
class Change:
    """One seat's rating before and after a rated game (shown ratings)."""

    seat: int
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class GameLine:
    """A game on a profile or the account page."""

    room: str
    game: str
    status: str
    seat: int
    players: tuple[str, ...]
    rated: bool
    won: bool | None  #: ``None`` while it is not finished
    at: float  #: when it finished (or was created, while it is not)
    #: each seat's bot level where a bot played it unnamed (``None``: a person), for the page to
    #: name the bot in its language ("Greedy bot 2")
    bots: tuple[str | None, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "room": self.room, "game": self.game, "status": self.status, "seat": self.seat,
            "players": list(self.players), "rated": self.rated, "won": self.won, "at": self.at,
            "bots": list(self.bots),
        }  # fmt: skip


class PlayerGames:
    def __init__(self, engine: Engine) -> None:
        self._session = sessionmaker(engine, expire_on_commit=False)

    # -- rating a game ---------------------------------------------------------------
    def rate_game(
        self,
        game: str,
        room: str,
        seats: Sequence[RatedSeat],
        totals: Sequence[float],
        winners: Sequence[int],
        now: float,
    ) -> list[Change]:
        """Rate the finished game ``room``: each account's rating moves by the OpenSkill model
        against everyone at the table (bots keep their fixed ratings); places come from the
        match's totals, the winners sharing first. Once per room: a game already rated
        (after a restart, or by another node) changes nothing and answers ``[]``."""
        with self._session.begin() as s:
            done = s.scalars(
                select(RatingHistoryRow.id).where(RatingHistoryRow.room_code == room).limit(1)
            ).first()
            if done is not None:
                return []
            before: list[Rating] = []
            rows: list[RatingRow | None] = []
            for seat in seats:
                row = None if seat.account is None else s.get(RatingRow, (seat.account, game))
                rows.append(row)
                if seat.account is None:
                    before.append(seat.bot or Rating())
                else:
                    before.append(Rating() if row is None else Rating(row.mu, row.sigma))
            fixed = [seat.account is None for seat in seats]
            after = rate(before, ranks_of(totals, winners), fixed)
            changes: list[Change] = []
            for i, seat in enumerate(seats):
                if seat.account is None:
                    continue
                won = i in winners
                shown = display(after[i])
                row = rows[i]
                if row is None:
                    row = RatingRow(account_id=seat.account, game=game, games=0, wins=0)
                    s.add(row)
                row.mu, row.sigma, row.display, row.updated_at = (
                    after[i].mu, after[i].sigma, shown, now,
                )  # fmt: skip
                row.games += 1
                row.wins += int(won)
                s.add(
                    RatingHistoryRow(
                        account_id=seat.account, game=game, room_code=room, mu=after[i].mu,
                        sigma=after[i].sigma, display=shown, won=int(won), at=now,
                    )
                )  # fmt: skip
                changes.append(Change(i, display(before[i]), shown))
        return changes

    # -- an account's games ----------------------------------------------------------
    def claim(self, account: Account, claims: Sequence[tuple[str, str]]) -> list[tuple[str, int]]:
        """Put ``account``'s name to the guest seats whose (room code, seat token) pairs are
        ``claims`` (the tokens the browser kept): the games become his. A seat another
        account holds stays that account's. Returns the (room, seat) pairs claimed."""
        out: list[tuple[str, int]] = []
        with self._session.begin() as s:
            for code, token in list(claims)[:MAX_CLAIMS]:
                row = s.scalars(
                    select(SeatRow).where(
                        SeatRow.room_code == code.upper(),
                        SeatRow.token_hash == token_hash(token),
                        SeatRow.kind == "human",
                        SeatRow.account_id.is_(None),
                    )
                ).first()
                if row is None:
                    continue
                s.execute(update(SeatRow).where(SeatRow.id == row.id).values(account_id=account.id))
                out.append((row.room_code, row.seat))
        return out

    def playing(self, account: Account) -> list[GameLine]:
        """The unfinished games ``account`` holds a seat in, newest first (to go back to from
        any browser)."""
        with self._session() as s:
            return self._lines(s, account, ("waiting", "playing"), 0, 20)

    def recent(self, account: Account, *, offset: int = 0, limit: int = 20) -> list[GameLine]:
        """``account``'s finished games, newest first, a page of them."""
        with self._session() as s:
            return self._lines(s, account, ("finished",), offset, limit)

    def _lines(
        self, s: Session, account: Account, status: tuple[str, ...], offset: int, limit: int
    ) -> list[GameLine]:
        rows = s.execute(
            select(RoomRow, SeatRow.seat)
            .join(SeatRow, SeatRow.room_code == RoomRow.code)
            .where(SeatRow.account_id == account.id, RoomRow.status.in_(status))
            .order_by(RoomRow.finished_at.desc(), RoomRow.created_at.desc(), RoomRow.code)
            .offset(offset)
            .limit(limit)
        ).all()
        codes = [room.code for room, _ in rows]
        # every seat and every round result of the page's games, in one query each
        players: dict[str, list[str]] = {code: [] for code in codes}
        bots: dict[str, list[str | None]] = {code: [] for code in codes}
        for n in s.execute(
            select(SeatRow.room_code, SeatRow.seat, SeatRow.bot, SeatRow.name)
            .where(SeatRow.room_code.in_(codes))
            .order_by(SeatRow.room_code, SeatRow.seat)
        ):
            players[n.room_code].append(n.name or f"{n.bot or 'bot'} {n.seat + 1}")
            bots[n.room_code].append(n.bot if n.name is None and n.bot else None)
        totals: dict[str, dict[int, float]] = {code: {} for code in codes}
        for code, scores in s.execute(
            select(ResultRow.room_code, ResultRow.scores).where(ResultRow.room_code.in_(codes))
        ):
            for i, v in enumerate(json.loads(scores)):
                totals[code][i] = totals[code].get(i, 0.0) + float(v)
        return [
            GameLine(
                room.code, room.game, room.status, seat, tuple(players[room.code]),
                bool(json.loads(room.settings).get("rated")),
                _won(totals[room.code], seat) if room.status == "finished" else None,
                room.finished_at or room.created_at, tuple(bots[room.code]),
            )
            for room, seat in rows
        ]  # fmt: skip


def _won(totals: dict[int, float], seat: int) -> bool:
    """Whether ``seat`` has the best of a finished game's ``totals`` (the match's winners
    share it)."""
    return bool(totals) and totals.get(seat, 0.0) == max(totals.values())
