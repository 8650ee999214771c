"""Accounts in the server's database: signing up, logging in (with lockouts), sessions,
changing and resetting passwords, deleting an account, ratings with their history, and puzzle
attempts with the puzzle rating (Glicko-2, docs/puzzles.md).

Every method is one transaction and takes the time from the caller (``now``, seconds since the
epoch), so tests and the server agree on the clock.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import secrets
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field

from sqlalchemy import ColumnElement, case, delete, func, literal, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from rummikub.puzzles.rating import Rating as Glicko
from rummikub.puzzles.rating import attempt
from rummikub.ratings import Rating, display

from ..storage.account_tables import (
    AccountNameRow,
    LoginFailureRow,
    PuzzleAttemptRow,
    ServerSecretRow,
)
from ..storage.models import (
    AccountRow,
    AnalysisRow,
    RatingHistoryRow,
    RatingRow,
    SeatRow,
    SessionRow,
)
from .errors import AccountCode, AccountError
from .live import LiveSessions, SessionRef
from .lockout import FORGET_AFTER, FREE_FAILURES, LOCK_STEPS, MAX_LOCK, lock_after
from .names import check_name, name_key, name_skeleton
from .passwords import check_password, hash_password, verify_password
from .tokens import new_token, token_hash

__all__ = [
    "DELETED_NAME",
    "PUZZLE_HOW",
    "SESSION_DAYS",
    "Account",
    "AccountStore",
    "Deleted",
    "PuzzleLine",
    "PuzzleOutcome",
    "PuzzleStanding",
    "Standing",
]

SESSION_DAYS = 30  #: how long a session lasts without a new login
DELETED_NAME = "deleted player"


@dataclass(frozen=True, slots=True)
class Account:
    """An account. ``session``: the session it was read from (:meth:`AccountStore.session`),
    for the connections that session logs in (:mod:`.live`); not part of its identity."""

    id: int
    name: str
    session: SessionRef | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Deleted:
    """What a deletion changed: the seats the account held, ``(room code, seat)``, now under
    :data:`DELETED_NAME`."""

    seats: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Standing:
    """A line of a leaderboard or a profile's rating."""

    account: Account
    rating: Rating
    display: int
    games: int
    wins: int


#: how an account's first attempt at a puzzle ended: an answer (solved or not), a hint asked
#: before answering (the attempt is not rated, as on lichess), the solution shown (failed)
PUZZLE_HOW = ("answer", "hint", "solution")


@dataclass(frozen=True, slots=True)
class PuzzleStanding:
    """An account's puzzle rating, and how many puzzles it solved of those it attempted."""

    rating: Glicko
    solved: int
    attempted: int

    def to_json(self) -> dict[str, object]:
        return {**self.rating.to_json(), "solved": self.solved, "attempted": self.attempted}


@dataclass(frozen=True, slots=True)
class PuzzleOutcome:
    """What an attempt did: ``counted`` (the account's first at the puzzle: stored),
    ``rated`` (its rating moved), the rating before and after."""

    counted: bool
    rated: bool
    before: Glicko
    after: Glicko

    def to_json(self) -> dict[str, object]:
        return {
            "counted": self.counted, "rated": self.rated, "player": self.after.to_json(),
            "delta": round(self.after.rating - self.before.rating, 1),
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class PuzzleLine:
    """An attempt on a profile: the puzzle, solved or not, how it ended, when, and the shown
    rating after it."""

    puzzle: str
    solved: bool
    how: str
    at: float
    rating: int

    def to_json(self) -> dict[str, object]:
        return {"id": self.puzzle, "solved": self.solved, "how": self.how, "at": self.at,
                "rating": self.rating}  # fmt: skip


class AccountStore:
    """The accounts of one database (the server's :class:`~rummikub.server.storage.store.Store`
    engine). ``sleep`` waits between two sweeps of the open connections' sessions (the
    server's clock's; :mod:`.live`)."""

    def __init__(
        self, engine: Engine, *, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    ) -> None:
        self._engine = engine
        self._session = sessionmaker(engine, expire_on_commit=False)
        #: the open connections logged in by each session (:mod:`.live`)
        self.live = LiveSessions(self.alive, sleep=sleep)
        self._secrets: dict[str, bytes] = {}

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
                # one name per look: the (hashed) skeleton is unique in the database
                s.add(AccountNameRow(skeleton=_skeleton_key(name), account_id=row.id))
                s.flush()
                account = Account(row.id, row.name)
                token = self._new_session(s, row.id, now)
        except IntegrityError:
            raise _unavailable(name) from None
        return account, token

    def log_in(self, name: str, password: str, now: float) -> tuple[Account, str]:
        """A new session for ``name``. A wrong name and a wrong password get the same answer
        (``bad-login``) after the same work, and lock alike: every try is counted for the
        name typed, known or not, *before* its password is checked, in one atomic statement
        (:meth:`_count_try`), so tries at once count one each and no more than
        :data:`~.lockout.FREE_FAILURES` passwords are checked before the lock; a locked name
        answers ``locked`` with the seconds left, without trying the password. A success
        clears the count."""
        key = name_key(name.strip())
        with self._session.begin() as s:
            # the count first: a write that waits its turn (a read before it could see a
            # SQLite snapshot another try has moved on from)
            wait = self._count_try(s, _hashed("login", key), now)
            found = s.execute(
                select(AccountRow.id, AccountRow.name, AccountRow.password_hash).where(
                    AccountRow.name_key == key, AccountRow.deleted_at.is_(None)
                )
            ).first()
        if wait > 0:
            raise AccountError(
                f"too many wrong passwords: try again in {wait:.0f} s",
                AccountCode.LOCKED,
                retry_after=max(1, math.ceil(wait)),
            )
        # an unknown name is checked against a dummy hash: the same work, never a match
        ok, rehash = verify_password(found.password_hash if found else None, password)
        if found is None or not ok:
            raise AccountError("wrong username or password", AccountCode.BAD_LOGIN)
        with self._session.begin() as s:
            s.execute(delete(LoginFailureRow).where(LoginFailureRow.name == _hashed("login", key)))
            if rehash is not None:
                s.execute(
                    update(AccountRow).where(AccountRow.id == found.id).values(password_hash=rehash)
                )
            token = self._new_session(s, found.id, now)
        return Account(found.id, found.name), token

    def _count_try(self, s: Session, key: str, now: float) -> float:
        """Count a login try of the name of ``key`` as a failure before its password is
        checked (a success clears it after): one ``INSERT … ON CONFLICT DO UPDATE … RETURNING``
        that adds one and, from the :data:`~.lockout.FREE_FAILURES`-th on, sets the lock at
        once, and only while the name is not locked. 0 when the password may be checked, else
        the seconds the name stays locked."""
        t = LoginFailureRow.__table__
        counted: ColumnElement[int] = case(
            (t.c.last_at < now - FORGET_AFTER, literal(1)), else_=t.c.failures + 1
        )
        locks = range(FREE_FAILURES, FREE_FAILURES + LOCK_STEPS)
        until = case(
            (counted < FREE_FAILURES, literal(0.0)),
            *[(counted == n, literal(now + lock_after(n))) for n in locks],
            else_=literal(now + MAX_LOCK),
        )
        insert = postgresql.insert if self._engine.dialect.name == "postgresql" else sqlite.insert
        first = now + lock_after(1) if FREE_FAILURES <= 1 else 0.0
        stmt = (
            insert(LoginFailureRow)
            .values(name=key, failures=1, locked_until=first, last_at=now)
            .on_conflict_do_update(
                index_elements=[t.c.name],
                set_={"failures": counted, "locked_until": until, "last_at": now},
                where=t.c.locked_until <= now,
            )
            .returning(t.c.failures)
        )
        if s.execute(stmt).first() is not None:
            # the names nobody tried for a day are forgotten (the table stays small)
            s.execute(delete(LoginFailureRow).where(LoginFailureRow.last_at < now - FORGET_AFTER))
            return 0.0
        locked = s.scalar(select(LoginFailureRow.locked_until).where(LoginFailureRow.name == key))
        return max(1.0, (locked or now) - now)

    def attempts(self, name: str) -> int:
        """The wrong passwords in a row counted for ``name`` (0: none)."""
        with self._session() as s:
            n = s.scalar(
                select(LoginFailureRow.failures).where(
                    LoginFailureRow.name == _hashed("login", name_key(name.strip()))
                )
            )
        return int(n or 0)

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
        hashed = token_hash(token)
        with self._session() as s:
            row = s.execute(
                select(AccountRow.id, AccountRow.name)
                .join(SessionRow, SessionRow.account_id == AccountRow.id)
                .where(SessionRow.token_hash == hashed, SessionRow.expires_at > now)
            ).first()
        return None if row is None else Account(row.id, row.name, SessionRef(hashed, self.live))

    def alive(self, sessions: Collection[str], now: float | None = None) -> set[str]:
        """Which of the session token hashes ``sessions`` still log someone in."""
        at = time.time() if now is None else now
        out: set[str] = set()
        batch = list(sessions)
        with self._session() as s:
            for i in range(0, len(batch), 500):
                out.update(
                    s.scalars(
                        select(SessionRow.token_hash).where(
                            SessionRow.token_hash.in_(batch[i : i + 500]),
                            SessionRow.expires_at > at,
                        )
                    )
                )
        return out

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
            s.execute(
                delete(LoginFailureRow).where(
                    LoginFailureRow.name == _hashed("login", row.name_key)
                )
            )
            s.execute(delete(SessionRow).where(SessionRow.account_id == row.id))
            return Account(row.id, row.name)

    def delete(self, account: Account, password: str, now: float) -> Deleted:
        """Delete ``account`` (its password must match): the name and password go, sessions
        end, ratings go; games it played stay, under an anonymous name — in the seats and in
        the games' stored analyses. Returns the seats it held (the caller renames them in the
        games running and forgets the records it keeps)."""
        with self._session.begin() as s:
            row = _confirmed(s, account, password)
            row.name, row.name_key = DELETED_NAME, f"#deleted-{row.id}"
            row.password_hash, row.deleted_at = None, now
            s.execute(delete(AccountNameRow).where(AccountNameRow.account_id == row.id))
            s.execute(delete(SessionRow).where(SessionRow.account_id == row.id))
            s.execute(delete(RatingRow).where(RatingRow.account_id == row.id))
            s.execute(delete(RatingHistoryRow).where(RatingHistoryRow.account_id == row.id))
            s.execute(delete(PuzzleAttemptRow).where(PuzzleAttemptRow.account_id == row.id))
            seats = tuple(
                (r.room_code, r.seat)
                for r in s.execute(
                    select(SeatRow.room_code, SeatRow.seat).where(SeatRow.account_id == row.id)
                )
            )
            # his seats in every game keep the account (the games stay his), not his name
            s.execute(update(SeatRow).where(SeatRow.account_id == row.id).values(name=DELETED_NAME))
            _rename_in_analyses(s, seats)
        return Deleted(seats)

    # -- the server's secrets ------------------------------------------------------------
    def secret(self, name: str, now: float) -> bytes:
        """The server's secret ``name`` (32 random bytes): made on first use and kept in the
        database, so every node of a cluster and every restart has the same."""
        if name in self._secrets:
            return self._secrets[name]
        fresh = secrets.token_hex(32)
        insert = postgresql.insert if self._engine.dialect.name == "postgresql" else sqlite.insert
        with self._session.begin() as s:
            s.execute(
                insert(ServerSecretRow)
                .values(name=name, value=fresh, created_at=now)
                .on_conflict_do_nothing(index_elements=["name"])
            )
        with self._session() as s:
            value = s.scalar(select(ServerSecretRow.value).where(ServerSecretRow.name == name))
        assert value is not None
        self._secrets[name] = bytes.fromhex(value)
        return self._secrets[name]

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

    # -- puzzles -------------------------------------------------------------------------
    def attempt_puzzle(
        self, account: Account, puzzle: str, strength: Glicko, how: str, solved: bool, now: float
    ) -> PuzzleOutcome:
        """Store ``account``'s attempt at ``puzzle`` (whose rating is ``strength``) if it is
        his first: ``how`` it ended (:data:`PUZZLE_HOW`) and whether it was ``solved``. An
        answer or the solution moves his puzzle rating (Glicko-2, the puzzle's does not move);
        a hint does not. A later attempt is practice: nothing changes (``counted`` false).
        The account's attempts are rated one after another, also at once on several nodes."""
        if how not in PUZZLE_HOW:
            raise ValueError(f"how: {how!r} is not one of {PUZZLE_HOW}")
        with self._session.begin() as s:
            # a write first, to the account's row: on PostgreSQL it locks the row, on SQLite it
            # takes the write lock, so what is read next is not moved on by another attempt
            touched = s.execute(
                update(AccountRow)
                .where(AccountRow.id == account.id, AccountRow.deleted_at.is_(None))
                .values(created_at=AccountRow.created_at)
            )
            if not getattr(touched, "rowcount", 0):
                raise AccountError("no such account", AccountCode.NOT_LOGGED_IN)
            before = _puzzle_rating(s, account.id)
            done = s.scalar(
                select(PuzzleAttemptRow.id).where(
                    PuzzleAttemptRow.account_id == account.id, PuzzleAttemptRow.puzzle_id == puzzle
                )
            )
            if done is not None:
                return PuzzleOutcome(False, False, before, before)
            rated = how != "hint"
            after = attempt(before, strength, solved)[0] if rated else before
            s.add(
                PuzzleAttemptRow(
                    account_id=account.id, puzzle_id=puzzle, solved=int(solved), how=how,
                    rating=after.rating, rd=after.rd, volatility=after.volatility, at=now,
                )
            )  # fmt: skip
        return PuzzleOutcome(True, rated, before, after)

    def puzzle_standing(self, account: Account) -> PuzzleStanding:
        """``account``'s puzzle rating (a new player's before his first attempt) and counts."""
        with self._session() as s:
            rating = _puzzle_rating(s, account.id)
            row = s.execute(
                select(func.count(), func.coalesce(func.sum(PuzzleAttemptRow.solved), 0)).where(
                    PuzzleAttemptRow.account_id == account.id
                )
            ).one()
        return PuzzleStanding(rating, int(row[1]), int(row[0]))

    def puzzles_done(self, account: Account, *, limit: int = 500) -> list[str]:
        """The puzzles ``account`` attempted, the newest first."""
        with self._session() as s:
            return list(
                s.scalars(
                    select(PuzzleAttemptRow.puzzle_id)
                    .where(PuzzleAttemptRow.account_id == account.id)
                    .order_by(PuzzleAttemptRow.id.desc())
                    .limit(limit)
                )
            )

    def puzzle_attempts(
        self, account: Account, *, offset: int = 0, limit: int = 20
    ) -> list[PuzzleLine]:
        """``account``'s attempts, newest first, a page of them."""
        with self._session() as s:
            rows = s.scalars(
                select(PuzzleAttemptRow)
                .where(PuzzleAttemptRow.account_id == account.id)
                .order_by(PuzzleAttemptRow.id.desc())
                .offset(offset)
                .limit(limit)
            ).all()
        return [PuzzleLine(r.puzzle_id, bool(r.solved), r.how, r.at, round(r.rating)) for r in rows]

    def puzzle_history(self, account: Account, *, limit: int = 200) -> list[tuple[float, int]]:
        """(time, shown puzzle rating) after each of ``account``'s last rated attempts, oldest
        first."""
        with self._session() as s:
            rows = s.execute(
                select(PuzzleAttemptRow.at, PuzzleAttemptRow.rating)
                .where(PuzzleAttemptRow.account_id == account.id, PuzzleAttemptRow.how != "hint")
                .order_by(PuzzleAttemptRow.id.desc())
                .limit(limit)
            ).all()
        return [(r.at, round(r.rating)) for r in reversed(rows)]


def _puzzle_rating(s: Session, account_id: int) -> Glicko:
    """The puzzle rating after the account's last attempt (a new player's before any)."""
    row = s.execute(
        select(PuzzleAttemptRow.rating, PuzzleAttemptRow.rd, PuzzleAttemptRow.volatility)
        .where(PuzzleAttemptRow.account_id == account_id)
        .order_by(PuzzleAttemptRow.id.desc())
        .limit(1)
    ).first()
    return Glicko() if row is None else Glicko(row.rating, row.rd, row.volatility)


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


def _rename_in_analyses(s: Session, seats: Collection[tuple[str, int]]) -> None:
    """Put :data:`DELETED_NAME` in place of the player's name in the stored analyses of the
    games of ``seats``."""
    by_room: dict[str, list[int]] = {}
    for code, seat in seats:
        by_room.setdefault(code, []).append(seat)
    if not by_room:
        return
    for row in s.scalars(select(AnalysisRow).where(AnalysisRow.room_code.in_(list(by_room)))):
        try:
            data = json.loads(row.data)
            players = data["players"]
            for seat in by_room[row.room_code]:
                if 0 <= seat < len(players) and isinstance(players[seat], dict):
                    players[seat]["name"] = DELETED_NAME
        except (ValueError, KeyError, TypeError):  # not readable: made again when asked
            s.delete(row)
            continue
        row.data = json.dumps(data, separators=(",", ":"))


def _hashed(kind: str, text: str) -> str:
    """What the database keeps of a name's key (``login``) or skeleton (``skeleton``)."""
    return hashlib.sha256(f"{kind}:{text}".encode()).hexdigest()


def _skeleton_key(name: str) -> str:
    return _hashed("skeleton", name_skeleton(name))


def _unavailable(name: str) -> AccountError:
    return AccountError(
        f"the name {name!r} is not available: choose another", AccountCode.NAME_UNAVAILABLE
    )
