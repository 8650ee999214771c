"""Accounts in the server's database: signing up, logging in (with lockouts), sessions,
changing and resetting passwords, deleting an account, and ratings with their history.

Every method is one transaction and takes the time from the caller (``now``, seconds since the
epoch), so tests and the server agree on the clock.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from rummikub.ratings import Rating, display

from ..models import AccountRow, RatingHistoryRow, RatingRow, SeatRow, SessionRow
from .errors import AccountCode, AccountError
from .lockout import Attempts, after_failure, locked_for
from .names import check_name, name_key
from .passwords import check_password, hash_password, verify_password
from .tokens import new_token, token_hash

__all__ = ["SESSION_DAYS", "Account", "AccountStore", "Standing"]

SESSION_DAYS = 30  #: how long a session lasts without a new login
DELETED_NAME = "deleted player"


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str


@dataclass(frozen=True, slots=True)
class Standing:
    """A line of a leaderboard or a profile's rating."""

    account: Account
    rating: Rating
    display: int
    games: int
    wins: int


class AccountStore:
    """The accounts of one database (the server's :class:`~rummikub.server.storage.Store`
    engine)."""

    def __init__(self, engine: Engine) -> None:
        self._session = sessionmaker(engine, expire_on_commit=False)

    # -- signing up and logging in ---------------------------------------------------
    def sign_up(self, name: str, password: str, now: float) -> tuple[Account, str]:
        """A new account and its first session token. A name that is taken answers
        ``name-unavailable`` (names are public: the lobby and the leaderboards show them; the
        server limits sign-ups per address so they cannot be listed quickly)."""
        name = check_name(name)
        check_password(password, name)
        hashed = hash_password(password)
        try:
            with self._session.begin() as s:
                row = AccountRow(
                    name=name, name_key=name_key(name), password_hash=hashed, created_at=now,
                    failures=0, locked_until=0.0,
                )  # fmt: skip
                s.add(row)
                s.flush()
                account = Account(row.id, row.name)
                token = self._new_session(s, row.id, now)
        except IntegrityError:
            raise _unavailable(name) from None
        return account, token

    def log_in(self, name: str, password: str, now: float) -> tuple[Account, str]:
        """A new session for ``name``. A wrong name and a wrong password get the same answer
        (``bad-login``) after the same work; a locked account answers ``locked`` with the
        seconds left, without trying the password."""
        refusal: AccountError | None = None
        with self._session.begin() as s:
            row = s.scalars(
                select(AccountRow).where(
                    AccountRow.name_key == name_key(name.strip()), AccountRow.deleted_at.is_(None)
                )
            ).first()
            if row is not None:
                wait = locked_for(Attempts(row.failures, row.locked_until), now)
                if wait > 0:
                    raise AccountError(
                        f"too many wrong passwords: try again in {wait:.0f} s",
                        AccountCode.LOCKED,
                        retry_after=round(wait + 0.5),
                    )
            ok, rehash = verify_password(row.password_hash if row else None, password)
            if row is None or not ok:
                if row is not None:  # the failure is counted (committed) before the refusal
                    state = after_failure(Attempts(row.failures, row.locked_until), now)
                    row.failures, row.locked_until = state.failures, state.locked_until
                refusal = AccountError("wrong username or password", AccountCode.BAD_LOGIN)
            else:
                row.failures, row.locked_until = 0, 0.0
                if rehash is not None:
                    row.password_hash = rehash
                account, token = Account(row.id, row.name), self._new_session(s, row.id, now)
        if refusal is not None:
            raise refusal
        return account, token

    def _new_session(self, s: Session, account_id: int, now: float) -> str:
        token = new_token()
        s.add(
            SessionRow(
                token_hash=token_hash(token),
                account_id=account_id,
                created_at=now,
                expires_at=now + SESSION_DAYS * 86400,
            )
        )
        return token

    def session(self, token: str | None, now: float) -> Account | None:
        """The account a session token is logged in as (``None``: none, expired or logged
        out)."""
        if not token:
            return None
        with self._session() as s:
            row = s.execute(
                select(AccountRow.id, AccountRow.name)
                .join(SessionRow, SessionRow.account_id == AccountRow.id)
                .where(SessionRow.token_hash == token_hash(token), SessionRow.expires_at > now)
            ).first()
        return None if row is None else Account(row.id, row.name)

    def log_out(self, token: str) -> None:
        with self._session.begin() as s:
            s.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash(token)))

    def log_out_everywhere(self, account: Account) -> int:
        """End every session of ``account``; how many there were."""
        with self._session.begin() as s:
            done = s.execute(delete(SessionRow).where(SessionRow.account_id == account.id))
        return int(getattr(done, "rowcount", 0) or 0)

    def find(self, name: str) -> Account | None:
        """The account named ``name`` (whatever its case), if there is one."""
        with self._session() as s:
            row = s.execute(
                select(AccountRow.id, AccountRow.name).where(
                    AccountRow.name_key == name_key(name.strip()), AccountRow.deleted_at.is_(None)
                )
            ).first()
        return None if row is None else Account(row.id, row.name)

    # -- passwords and deleting ----------------------------------------------------------
    def change_password(self, account: Account, old: str, new: str, now: float) -> str:
        """Change the password (the old one must match); every other session ends. Returns
        a new session token for this browser."""
        with self._session.begin() as s:
            row = _confirmed(s, account, old)
            check_password(new, row.name)
            row.password_hash = hash_password(new)
            s.execute(delete(SessionRow).where(SessionRow.account_id == account.id))
            return self._new_session(s, account.id, now)

    def reset_password(self, name: str, new: str) -> Account:
        """The operator's reset (there is no mail server): set a new password and end every
        session of the account."""
        with self._session.begin() as s:
            row = s.scalars(
                select(AccountRow).where(
                    AccountRow.name_key == name_key(name.strip()), AccountRow.deleted_at.is_(None)
                )
            ).first()
            if row is None:
                raise AccountError(f"no account named {name!r}", AccountCode.BAD_LOGIN)
            check_password(new, row.name)
            row.password_hash = hash_password(new)
            row.failures, row.locked_until = 0, 0.0
            s.execute(delete(SessionRow).where(SessionRow.account_id == row.id))
            return Account(row.id, row.name)

    def delete(self, account: Account, password: str, now: float) -> None:
        """Delete ``account`` (its password must match): the name and password go, sessions
        end, ratings go; games it played stay, under an anonymous name."""
        with self._session.begin() as s:
            row = _confirmed(s, account, password)
            row.name, row.name_key = DELETED_NAME, f"#deleted-{row.id}"
            row.password_hash, row.deleted_at = None, now
            s.execute(delete(SessionRow).where(SessionRow.account_id == row.id))
            s.execute(delete(RatingRow).where(RatingRow.account_id == row.id))
            s.execute(delete(RatingHistoryRow).where(RatingHistoryRow.account_id == row.id))
            # his seats in every game keep the account (the games stay his), not his name
            s.execute(update(SeatRow).where(SeatRow.account_id == row.id).values(name=DELETED_NAME))

    # -- ratings -------------------------------------------------------------------------
    def rating(self, account: Account, game: str) -> Standing:
        """``account``'s rating in ``game`` (a new player's before his first rated game)."""
        with self._session() as s:
            row = s.get(RatingRow, (account.id, game))
        if row is None:
            fresh = Rating()
            return Standing(account, fresh, display(fresh), 0, 0)
        return Standing(account, Rating(row.mu, row.sigma), row.display, row.games, row.wins)

    def record_game(
        self, game: str, room: str, results: list[tuple[Account, Rating, bool]], now: float
    ) -> None:
        """Store each account's new rating after a rated game (and whether he won), with its
        history line, in one transaction."""
        with self._session.begin() as s:
            for account, rating, won in results:
                shown = display(rating)
                row = s.get(RatingRow, (account.id, game))
                if row is None:
                    row = RatingRow(account_id=account.id, game=game, games=0, wins=0)
                    s.add(row)
                row.mu, row.sigma, row.display, row.updated_at = (
                    rating.mu, rating.sigma, shown, now,
                )  # fmt: skip
                row.games += 1
                row.wins += int(won)
                s.add(
                    RatingHistoryRow(
                        account_id=account.id, game=game, room_code=room, mu=rating.mu,
                        sigma=rating.sigma, display=shown, won=int(won), at=now,
                    )
                )  # fmt: skip

    def history(self, account: Account, game: str, *, limit: int = 200) -> list[tuple[float, int]]:
        """(time, displayed rating) after each of ``account``'s last rated games, oldest
        first."""
        with self._session() as s:
            rows = s.execute(
                select(RatingHistoryRow.at, RatingHistoryRow.display)
                .where(RatingHistoryRow.account_id == account.id, RatingHistoryRow.game == game)
                .order_by(RatingHistoryRow.at.desc(), RatingHistoryRow.id.desc())
                .limit(limit)
            ).all()
        return [(r.at, r.display) for r in reversed(rows)]

    def leaderboard(
        self, game: str, *, since: float | None = None, offset: int = 0, limit: int = 50
    ) -> list[Standing]:
        """The best displayed ratings of ``game``; with ``since``, only players with a rated
        game since then (this month's leaderboard). Paged by ``offset`` and ``limit``."""
        with self._session() as s:
            query = (
                select(RatingRow, AccountRow.name)
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(RatingRow.game == game, AccountRow.deleted_at.is_(None))
            )
            if since is not None:
                recent = (
                    select(RatingHistoryRow.account_id)
                    .where(RatingHistoryRow.game == game, RatingHistoryRow.at >= since)
                    .group_by(RatingHistoryRow.account_id)
                    .having(func.count() > 0)
                )
                query = query.where(RatingRow.account_id.in_(recent))
            rows = s.execute(
                query.order_by(RatingRow.display.desc(), RatingRow.account_id)
                .offset(offset)
                .limit(limit)
            ).all()
        return [
            Standing(Account(r.RatingRow.account_id, r.name), Rating(r.RatingRow.mu,
                     r.RatingRow.sigma), r.RatingRow.display, r.RatingRow.games,
                     r.RatingRow.wins)
            for r in rows
        ]  # fmt: skip


def _confirmed(s: Session, account: Account, password: str) -> AccountRow:
    """The row of ``account`` once ``password`` is its password (a change or a deletion asks
    for it again)."""
    row = s.get(AccountRow, account.id)
    if row is None or row.deleted_at is not None:
        raise AccountError("no such account", AccountCode.NOT_LOGGED_IN)
    ok, _ = verify_password(row.password_hash, password)
    if not ok:
        raise AccountError("wrong username or password", AccountCode.BAD_LOGIN)
    return row


def _unavailable(name: str) -> AccountError:
    return AccountError(
        f"the name {name!r} is not available: choose another", AccountCode.NAME_UNAVAILABLE
    )
