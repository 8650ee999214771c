"""The codes of the server's refusals (the ``code`` of an ``error`` message or an HTTP error).

The refusals of the games' rules carry a :class:`rummikub.core.Code` (an ``illegal`` or ``rules``
error names it in ``reason``), and so do the server's refusals that mean the same as one of them
(``illegal``, ``not-your-turn``, ``wrong-game``, ``bad-rules``); these are the server's own.
Every code, of either kind, has a message ``error.<code>`` in every message catalogue
(``rummikub/i18n``); the values of the two enums never collide.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from rummikub.core import RummikubError

__all__ = ["ServerCode", "refusal"]


class ServerCode(StrEnum):
    """Why the server refused a request (``params`` named where there are any)."""

    # -- the message itself (the protocol) -----------------------------------------------
    TOO_LARGE = "too-large"
    BAD_JSON = "bad-json"
    TOO_DEEP = "too-deep"
    #: ``type``, ``field`` where known: a message that does not match the schema
    BAD_MESSAGE = "bad-message"
    #: too many messages or requests; ``retry_after`` seconds (next to ``params``)
    RATE_LIMITED = "rate-limited"
    #: too much work (hints, checks) asked for; ``retry_after``
    BUSY = "busy"
    INTERNAL = "internal"
    #: ``field``: a name or chat message with nothing visible in it (only spaces, zero-width
    #: or other invisible characters)
    INVISIBLE_TEXT = "invisible-text"
    #: ``field``, ``char`` (``U+202E``): a character a name or chat may not hold (one that
    #: reorders the text around it, or half of a surrogate pair)
    BAD_CHARACTER = "bad-character"

    # -- HTTP (every HTTP error has ``error``, ``code`` and ``params``) --------------------
    #: ``path``: no page or API at this address
    NOT_FOUND = "not-found"
    #: ``method``
    METHOD_NOT_ALLOWED = "method-not-allowed"
    #: ``limit``: this address has as many connections open as it may
    TOO_MANY_CONNECTIONS = "too-many-connections"
    #: ``host``: a ``Host`` header naming another site (DNS rebinding)
    BAD_HOST = "bad-host"
    #: ``origin``: a WebSocket opened by a page of another site
    BAD_ORIGIN = "bad-origin"
    #: a request that is not valid HTTP
    BAD_REQUEST = "bad-request"
    #: moves cannot be stored right now; nothing changed
    STORAGE_UNAVAILABLE = "storage-unavailable"

    # -- rooms ----------------------------------------------------------------------------
    NO_ROOM = "no-room"
    #: ``room``
    NO_SUCH_ROOM = "no-such-room"
    #: ``room``
    CLOSED = "closed"
    #: ``room``: a game whose stored events could not be replayed
    DAMAGED = "damaged"
    BAD_TOKEN = "bad-token"
    #: ``seat`` (1-based)
    ALREADY_SEATED = "already-seated"
    #: ``seat`` (1-based) when a seat was asked for
    FULL = "full"
    STARTED = "started"
    NOT_HOST = "not-host"
    SPECTATOR = "spectator"
    #: ``players``, ``seat``, ``level`` where they apply
    BAD_SEATS = "bad-seats"
    #: ``level``
    BAD_SETTINGS = "bad-settings"
    #: ``retry_after``
    TOO_MANY_ROOMS = "too-many-rooms"
    #: a rated game or quick match needs an account (log in first)
    ACCOUNT_NEEDED = "account-needed"
    #: ``reason``: a rated room asked for with rules or settings a rated game cannot have
    NOT_RATED = "not-rated"
    NOT_QUEUED = "not-queued"

    # -- moderation (:mod:`..handlers.moderation`) ---------------------------------------
    #: ``seat`` (1-based): a seat the room does not have
    NO_SUCH_SEAT = "no-such-seat"
    #: ``seat`` (1-based): a free seat or a bot's, where a person was meant
    NO_PERSON = "no-person"
    #: removing, reporting or muting oneself
    SELF = "self"
    #: ``room``: the host removed this person from the room; he may not join it again
    REMOVED = "removed"
    #: ``seat`` (1-based): one report per reporter and reported seat of a room
    ALREADY_REPORTED = "already-reported"

    # -- the game ---------------------------------------------------------------------------
    #: a play the server cannot read (not valid notation, tiles not where it says)
    BAD_PLAY = "bad-play"
    #: an error of the rules engine: ``reason`` names its :class:`rummikub.core.Code`
    RULES = "rules"
    NOT_BETWEEN_ROUNDS = "not-between-rounds"
    NO_HINTS = "no-hints"
    EMPTY_CHAT = "empty-chat"
    NOT_STARTED = "not-started"
    NOT_FINISHED = "not-finished"
    # -- the rematch (:mod:`..handlers.rematch`) and spectators' chat ---------------------
    #: a rematch asked for before the match is over
    MATCH_NOT_OVER = "match-not-over"
    #: ``room``: the rematch was made already (that room)
    REMATCH_MADE = "rematch-made"
    #: this room's spectators may not chat (its ``spectator_chat`` setting)
    NO_SPECTATOR_CHAT = "no-spectator-chat"


def refusal(err: RummikubError, **old: Any) -> dict[str, Any]:
    """A refused meld or play in a ``checked`` reply: ``code`` and ``params`` of ``err``, and
    the fields older clients read (``old``)."""
    return {"ok": False, "code": err.code, "params": err.params, **old}
