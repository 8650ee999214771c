"""What every room has whatever its game: room codes and seat tokens, the room's settings, its
seats, and the bot move the manager computes off the event loop."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from ..accounts.tokens import token_hash

__all__ = [
    "BotTask",
    "Seat",
    "Settings",
    "Status",
    "hash_token",
    "new_code",
    "new_token",
    "person_key",
]

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
Status = Literal["waiting", "playing", "finished", "abandoned"]


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """What the database keeps of a seat token (as of a session token: its SHA-256)."""
    return token_hash(token)


@dataclass(slots=True)
class Settings:
    hints: bool = True
    grace_seconds: float = 30.0
    public: bool = True
    bot_delay: float = 1.0
    round_pause: float = 20.0
    standin: str = "beginner"
    #: the seat that may start the game early (the creator's, until he leaves a waiting room)
    host: int = 0
    #: a rated game (:mod:`..handlers.rated`): accounts only, a preset with a clock, no hints
    rated: bool = False
    #: spectators may chat (a room made before this setting existed: no, as then)
    spectator_chat: bool = False
    #: the persons the host removed from the waiting room (:func:`person_key` of each): they
    #: may not join it again. Stored with the settings, never shown to clients.
    removed: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The settings as stored (with :attr:`removed` when there is any)."""
        out = self.shown()
        if self.removed:
            out["removed"] = list(self.removed)
        return out

    def shown(self) -> dict[str, Any]:
        """The settings every client of the room sees."""
        return {
            "host": self.host,
            "hints": self.hints,
            "grace_seconds": self.grace_seconds,
            "public": self.public,
            "bot_delay": self.bot_delay,
            "round_pause": self.round_pause,
            "standin": self.standin,
            "rated": self.rated,
            "spectator_chat": self.spectator_chat,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Settings:
        known = {k: v for k, v in d.items() if k in cls.__dataclass_fields__}
        if "removed" in known:
            known["removed"] = [str(x) for x in known["removed"]]
        return cls(**known)


def person_key(person: str) -> str:
    """What a room keeps of a person it removed: a hash of the browser id or address (the id
    is the browser's own, not for the database to hold in clear)."""
    return hash_token("person:" + person)


@dataclass(slots=True)
class Seat:
    seat: int
    kind: Literal["human", "bot"]
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    #: the account holding the seat (``None``: a guest, a bot or nobody); kept with the game
    account: int | None = None
    # runtime only
    connections: int = 0
    standin: bool = False
    disconnected_at: float | None = None
    #: who holds the seat (a browser's id or an address), for the one-seat-per-person rule
    person: str | None = None

    def free(self) -> None:
        """Let the seat go: nobody (no name, token, person or account) holds it."""
        self.name = self.token_hash = self.person = None
        self.account = None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    @property
    def bot_controlled(self) -> bool:
        return self.kind == "bot" or self.standin

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "bot": self.bot,
            "name": self.name,
            "account": self.account is not None,
            "taken": self.taken,
            "connected": self.connections > 0,
            "standin": self.standin,
        }


@dataclass(frozen=True, slots=True)
class BotTask:
    """A bot's next move, prepared under the room lock and computed in a worker process
    (:func:`..work.jobs.bot_move`): ``bot`` acts on ``obs`` (that player's observation only) for at
    most ``cap`` seconds and never past ``deadline`` (a :func:`time.time`); ``keep`` takes the
    bot back after the move (its state moved on); ``fallback`` is an action always legal in
    that position."""

    name: str
    bot: Any
    obs: Any
    cap: float
    deadline: float | None
    keep: Callable[[Any], None]
    fallback: Callable[[], object]
