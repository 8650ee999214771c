"""The client-to-server messages of the WebSocket protocol, schema-checked with pydantic.

Every message is one JSON object with a ``type``; an optional ``id`` (a short string or number
chosen by the client) is echoed in the reply. Unknown fields, wrong types and values outside
the limits below are rejected with an ``error`` reply naming what was wrong; nothing changes.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from rummikub.games import game_names

from .codes import ServerCode

__all__ = [
    "MAX_MESSAGE_BYTES",
    "ChatMsg",
    "CheckMsg",
    "ClientMessage",
    "CreateMsg",
    "EndTurnMsg",
    "JoinMsg",
    "MuteMsg",
    "PlaceMsg",
    "PlayMsg",
    "ProtocolError",
    "QueueMsg",
    "RematchMsg",
    "RemoveMsg",
    "ReportMsg",
    "ResumeMsg",
    "SeatSpec",
    "SettingsSpec",
    "ThrowMsg",
    "UnqueueMsg",
    "WatchMsg",
    "client_limits",
    "parse_message",
    "peek_id",
    "settings_ranges",
]

MAX_MESSAGE_BYTES = 16_384
#: JSON nested deeper than this is refused (a table is 3 levels deep, rules 2)
MAX_DEPTH = 8
MAX_MELDS = 60
MAX_MELD_TILES = 16
MAX_NAME = 24
MAX_CHAT = 300
MAX_REASON = 500
MAX_CODE = 16
#: the most rooms ``/api/rooms`` lists at once
MAX_ROOMS_PAGE = 200

#: no control characters (a NUL cannot even be stored in PostgreSQL), not only spaces
PRINTABLE = r"^[^\x00-\x1f\x7f]*[^\x00-\x20\x7f][^\x00-\x1f\x7f]*$"
Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME, pattern=PRINTABLE)]
Code = Annotated[str, Field(min_length=4, max_length=MAX_CODE, pattern=r"^[A-Za-z0-9]+$")]
Token = Annotated[str, Field(min_length=8, max_length=128)]
TileStr = Annotated[str, Field(min_length=1, max_length=8)]
MeldJson = Annotated[list[TileStr], Field(min_length=1, max_length=MAX_MELD_TILES)]
TableJson = Annotated[list[MeldJson], Field(max_length=MAX_MELDS)]
MsgId = Annotated[str, Field(max_length=40)] | int | None


class ProtocolError(Exception):
    """A message that is not valid JSON, too large, or does not match the schema: ``code``
    and ``params`` for programs, ``message`` in English."""

    def __init__(
        self,
        code: ServerCode,
        message: str,
        msg_id: str | int | None = None,
        params: dict[str, str | int] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.msg_id = msg_id
        self.params: dict[str, str | int] = params or {}


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: MsgId = None


class SeatSpec(BaseModel):
    """A seat of a new room: a person, or a bot of a level."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["human", "bot"]
    level: Annotated[str, Field(max_length=32)] | None = None


class SettingsSpec(BaseModel):
    """Room settings (all optional)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    #: hints on (default: on in a casual room, off in a rated one, where they are refused)
    hints: bool | None = None
    #: a rated game: every person needs an account; a preset with a clock; no hints
    rated: bool = False
    grace_seconds: Annotated[float, Field(ge=0, le=3600)] = 30.0
    public: bool = True
    bot_delay: Annotated[float, Field(ge=0, le=10)] = 1.0
    round_pause: Annotated[float, Field(ge=0, le=600)] = 20.0
    standin: Annotated[str, Field(max_length=32)] | None = None
    #: spectators may chat (default: yes in a casual room, no in a rated one)
    spectator_chat: bool | None = None


def settings_ranges() -> dict[str, dict[str, Any]]:
    """The default and range of each numeric room setting (``/api/info``: the web client's
    forms take them from there)."""
    out: dict[str, dict[str, Any]] = {}
    for name, field in SettingsSpec.model_fields.items():
        bounds = {k: getattr(m, k) for m in field.metadata for k in ("ge", "le") if hasattr(m, k)}
        if bounds:
            out[name] = {"default": field.default, "min": bounds.get("ge"), "max": bounds.get("le")}
    return out


def client_limits() -> dict[str, int]:
    """The longest name, chat message, room code and report reason a client may send, and the
    most rooms ``/api/rooms`` lists at once (``/api/info``)."""
    return {
        "name": MAX_NAME,
        "chat": MAX_CHAT,
        "code": MAX_CODE,
        "rooms": MAX_ROOMS_PAGE,
        "reason": MAX_REASON,
    }


def room_game_name(name: str) -> str:
    """``name`` when it names a game that has server rooms; :class:`ValueError` naming the
    games there are otherwise."""
    known = game_names("room")
    if name not in known:
        raise ValueError(f"the game is one of {', '.join(known)}, not {name!r}")
    return name


#: the name of a game that has server rooms (its ``room`` part in the table of game parts)
GameName = Annotated[str, Field(max_length=32), AfterValidator(room_game_name)]


class CreateMsg(_Msg):
    type: Literal["create"]
    name: Name
    game: GameName = "tiles"
    rules: Annotated[str, Field(max_length=32)] | dict[str, Any] = "standard"
    seats: Annotated[list[SeatSpec], Field(min_length=2, max_length=6)]
    settings: SettingsSpec = SettingsSpec()


class JoinMsg(_Msg):
    type: Literal["join"]
    room: Code
    name: Name
    seat: Annotated[int, Field(ge=0, le=5)] | None = None


class ResumeMsg(_Msg):
    """Take one's seat again: by the seat's token, or (``token`` left out) by the account
    the connection is logged in as, from any browser."""

    type: Literal["resume"]
    room: Code
    token: Token | None = None


class WatchMsg(_Msg):
    type: Literal["watch"]
    room: Code


class StartMsg(_Msg):
    type: Literal["start"]


class PlayMsg(_Msg):
    type: Literal["play"]
    table: TableJson
    tiles: Annotated[list[TileStr], Field(max_length=60)] | None = None


class CheckMsg(_Msg):
    type: Literal["check"]
    table: TableJson


class DrawMsg(_Msg):
    type: Literal["draw"]


class PassMsg(_Msg):
    type: Literal["pass"]


class HintMsg(_Msg):
    type: Literal["hint"]


DieIndex = Annotated[int, Field(ge=0, le=63)]


class ThrowMsg(_Msg):
    """Xpress: throw these of your unplaced dice again (the server throws them)."""

    type: Literal["throw"]
    dice: Annotated[list[DieIndex], Field(min_length=1, max_length=18)]


class PlaceMsg(_Msg):
    """Xpress: place dice; ``table`` is the complete new table, ``dice`` the dice placed
    (default: dice of your hand showing the faces the new table adds)."""

    type: Literal["place"]
    table: TableJson
    dice: Annotated[list[DieIndex], Field(max_length=18)] | None = None


class EndTurnMsg(_Msg):
    """Xpress: end your turn."""

    type: Literal["end_turn"]


class ChatMsg(_Msg):
    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT, pattern=PRINTABLE)]


class NextRoundMsg(_Msg):
    type: Literal["next_round"]


class QueueMsg(_Msg):
    """Quick match: wait for a rated game with players of similar rating, at a table of one
    of ``players`` sizes; ``bots``: bots of a matching level may fill the empty seats after a
    while."""

    type: Literal["queue"]
    game: GameName = "tiles"  # one whose rooms may be rated (refused by quick match)
    players: Annotated[list[Annotated[int, Field(ge=2, le=4)]], Field(min_length=1, max_length=3)]
    bots: bool = True


class UnqueueMsg(_Msg):
    type: Literal["unqueue"]


class RematchMsg(_Msg):
    """At the end of a match: accept (``accept``, by default) or withdraw from a rematch, a new
    match with the same people, bots and rules (:mod:`..handlers.rematch`)."""

    type: Literal["rematch"]
    accept: Annotated[bool, Field(strict=True)] = True


class LeaveMsg(_Msg):
    type: Literal["leave"]


class PingMsg(_Msg):
    type: Literal["ping"]


SeatIndex = Annotated[int, Field(ge=0, le=5)]


class RemoveMsg(_Msg):
    """The host removes the person in ``seat`` (0-based) from his waiting room."""

    type: Literal["remove"]
    seat: SeatIndex


class ReportMsg(_Msg):
    """A player reports the person in ``seat`` (0-based) of his room to the operator."""

    type: Literal["report"]
    seat: SeatIndex
    reason: Annotated[str, Field(min_length=1, max_length=MAX_REASON, pattern=PRINTABLE)]


class MuteMsg(_Msg):
    """Stop (``on``) or start again sending this connection the chat of ``seat`` (0-based)."""

    type: Literal["mute"]
    seat: SeatIndex
    on: Annotated[bool, Field(strict=True)]


ClientMessage = Annotated[
    CreateMsg
    | JoinMsg
    | ResumeMsg
    | WatchMsg
    | StartMsg
    | PlayMsg
    | CheckMsg
    | DrawMsg
    | PassMsg
    | HintMsg
    | ChatMsg
    | NextRoundMsg
    | RematchMsg
    | LeaveMsg
    | PingMsg
    | QueueMsg
    | UnqueueMsg
    | ThrowMsg
    | PlaceMsg
    | EndTurnMsg
    | RemoveMsg
    | ReportMsg
    | MuteMsg,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)
TYPES = (
    "create",
    "join",
    "resume",
    "watch",
    "start",
    "play",
    "check",
    "draw",
    "pass",
    "hint",
    "chat",
    "next_round",
    "rematch",
    "leave",
    "ping",
    "queue",
    "unqueue",
    "throw",
    "place",
    "end_turn",
    "remove",
    "report",
    "mute",
)


def parse_message(text: str | bytes) -> Any:
    """Decode and validate one client message; raise :class:`ProtocolError` saying why not."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            ServerCode.TOO_LARGE,
            f"message larger than {MAX_MESSAGE_BYTES} bytes",
            params={"limit": MAX_MESSAGE_BYTES},
        )
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError(ServerCode.BAD_JSON, "message is not valid JSON") from None
    except RecursionError:
        raise ProtocolError(
            ServerCode.TOO_DEEP, f"message nested deeper than {MAX_DEPTH} levels", peek_id(text)
        ) from None
    if not isinstance(data, dict):
        raise ProtocolError(ServerCode.BAD_MESSAGE, "a message must be a JSON object")
    raw_id = data.get("id")
    msg_id = raw_id if isinstance(raw_id, str | int) and not isinstance(raw_id, bool) else None
    if isinstance(msg_id, str) and len(msg_id) > 40:
        msg_id = None
    if _depth(data) > MAX_DEPTH:
        raise ProtocolError(
            ServerCode.TOO_DEEP, f"message nested deeper than {MAX_DEPTH} levels", msg_id
        )
    kind = data.get("type")
    if kind not in TYPES:
        raise ProtocolError(
            ServerCode.BAD_MESSAGE,
            f"unknown message type {kind!r} (one of {', '.join(TYPES)})",
            msg_id,
        )
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        said = first["msg"]
        if (
            first["type"] == "string_pattern_mismatch"
            and first.get("ctx", {}).get("pattern") == PRINTABLE
        ):
            said = "must have a visible character and no control characters"
        raise ProtocolError(
            ServerCode.BAD_MESSAGE,
            f"{kind}: {where}: {said}",
            msg_id,
            params={"type": str(kind), "field": where},
        ) from None


def _depth(value: Any) -> int:
    """How deeply ``value`` nests lists and objects (iteratively: no recursion to exhaust)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            items: Any = item.values()
        elif isinstance(item, list):
            items = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((x, level + 1) for x in items)
    return deepest


#: ``"id": value`` (no look-behind for the backslash of an escaped quote: a pattern that starts
#: with one is tried at every byte, 30 times slower on a flood of 16 KiB messages; the byte
#: before a match is checked instead)
_ID = re.compile(rb'"id"\s*:\s*(?:"([^"\\]{0,40})"|(-?\d{1,15})\b)')


def peek_id(text: str | bytes) -> str | int | None:
    """The request id of a message, found without parsing it (for messages refused before
    parsing, e.g. by the rate limit, whose sender still waits for an answer)."""
    raw = text.encode("utf-8", "replace") if isinstance(text, str) else text
    for found in _ID.finditer(raw[:MAX_MESSAGE_BYTES]):
        if found.start() > 0 and raw[found.start() - 1] == 0x5C:  # \"id\": inside a string
            continue
        if found.group(1) is not None:
            return found.group(1).decode("utf-8", "replace")
        return int(found.group(2))
    return None
