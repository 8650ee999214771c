"""The framing every game record shares: one :class:`RecordFrame` per record format.

Every game's record (``rummikub-game/1``, ``rummikub-xpress/1``, a test game's) is one JSON
object framed alike (docs/formats.md)::

    {"format": "<name>/<version>", <header: "rules", and what else the game needs>,
     "players": [{"name": ..., "kind": "human" | "bot", "bot": ...}, ...],
     "seed": 7 | null,
     "rounds": [{<the game's round body>, "end": {<the game's round end>}}, ...],
     "totals": [...]}

A :class:`RecordFrame` writes and reads that frame — the format and its version check, the
players, the seed, the list of rounds with their optional ``end``, the totals, the atomic write
and the reading of a file — and leaves to its game only the header, a round's body and a
round's end, given as functions. Reading raises :class:`RecordError` for every problem, with
the message of the :class:`NotationError` (or other error of the platform) that found it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from .errors import NotationError, RecordError, RummikubError
from .interface import PlayerInfo
from .jsonio import field, json_list, players_json, whole_number, write_json_atomic

__all__ = [
    "Framed",
    "RecordFrame",
    "check_format",
    "read_json",
    "read_players",
    "read_totals",
]

H = TypeVar("H")  # what the game reads from the header (its rules, and more)
Rd = TypeVar("Rd", bound="_Round[Any]")  # a round of the game's match
E = TypeVar("E")  # how a round of the game ends
E_co = TypeVar("E_co", covariant=True)


class _Round(Protocol[E_co]):
    @property
    def end(self) -> E_co | None: ...


class _Match(Protocol):
    """What a frame writes of a match: its players, seed, rounds and totals."""

    @property
    def players(self) -> Sequence[PlayerInfo]: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def rounds(self) -> Sequence[Any]: ...
    @property
    def totals(self) -> Sequence[int]: ...


@dataclass(frozen=True, slots=True)
class Framed(Generic[H, Rd]):
    """A record as its frame read it: the game's header, the players, the seed, the rounds
    (each read by the game) and the totals (``None``: not recorded)."""

    header: H
    players: tuple[PlayerInfo, ...]
    seed: int | None
    rounds: tuple[Rd, ...]
    totals: tuple[int, ...] | None


# ----------------------------------------------------------------------------- the parts
def check_format(data: Any, fmt: str, what: str) -> dict[str, Any]:
    """``data`` as a record object of format ``fmt``; else :class:`RecordError` saying that
    ``what`` ("a game record") must be a JSON object, or which format (and version) it has."""
    if not isinstance(data, dict):
        raise RecordError(f"{what} must be a JSON object")
    found = data.get("format")
    if found != fmt:
        message = f"not a {fmt} record (format is {found!r})"
        name, _, version = fmt.rpartition("/")
        if isinstance(found, str) and found.rpartition("/")[0] == name:
            message += f"; this program reads version {version} of {name} records"
        raise RecordError(message)
    return data


def read_players(v: Any) -> tuple[PlayerInfo, ...]:
    """The ``players`` list of a record."""
    players = []
    for i, p in enumerate(json_list(v, "record players")):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            raise NotationError(f"player {i + 1} needs a name")
        kind = p.get("kind", "human")
        if kind not in ("human", "bot"):
            raise NotationError(f"player {i + 1}: kind must be human or bot")
        bot = p.get("bot")
        players.append(PlayerInfo(p["name"], kind, bot if isinstance(bot, str) else None))
    return tuple(players)


def read_totals(v: Any) -> tuple[int, ...] | None:
    """The ``totals`` of a record (``None`` when it records none)."""
    if v is None:
        return None
    return tuple(whole_number(t, "record total") for t in json_list(v, "record totals"))


def read_json(path: str | Path) -> Any:
    """The JSON document in the file at ``path``; :class:`RecordError` if it is not JSON."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}: not valid JSON ({exc})") from exc


# ----------------------------------------------------------------------------- the frame
@dataclass(frozen=True, slots=True)
class RecordFrame(Generic[H, Rd, E]):
    """One game's record format: the framing shared by every game, and the game's parts.

    ``write_header(match)`` gives the fields after ``format`` (``rules`` first), in order;
    ``write_round(round)`` a round's body, and ``write_end(end)`` its end, which the frame
    writes last, under ``end``, when the round has ended. ``read_header(record)`` reads the
    header from the record object; ``read_end(value, where)`` an ``end`` that is there;
    ``read_round(body, where, header, end)`` the round. ``where`` ("round 2", "round 2 end")
    starts the messages of the errors a part raises."""

    format: str
    #: how the record is named in an error ("a game record")
    what: str
    write_header: Callable[[Any], Mapping[str, Any]]
    write_round: Callable[[Rd], dict[str, Any]]
    write_end: Callable[[E], dict[str, Any]]
    read_header: Callable[[dict[str, Any]], H]
    read_round: Callable[[dict[str, Any], str, H, E | None], Rd]
    read_end: Callable[[Any, str], E]

    # -- writing ------------------------------------------------------------------------
    def to_json(self, match: _Match) -> dict[str, Any]:
        """The record of ``match``, finished or running."""
        return {
            "format": self.format,
            **self.write_header(match),
            "players": players_json(match.players),
            "seed": match.seed,
            "rounds": self.rounds_json(match.rounds),
            "totals": list(match.totals),
        }

    def rounds_json(self, rounds: Iterable[Rd]) -> list[dict[str, Any]]:
        out = []
        for r in rounds:
            body = self.write_round(r)
            if r.end is not None:
                body["end"] = self.write_end(r.end)
            out.append(body)
        return out

    def dumps(self, match: _Match, *, indent: int | None = None) -> str:
        return json.dumps(self.to_json(match), indent=indent)

    def write(self, match: _Match, path: str | Path) -> None:
        """Write the record atomically (a crash never leaves half a file)."""
        write_json_atomic(self.to_json(match), path)

    # -- reading ------------------------------------------------------------------------
    def load(self, data: Any) -> Framed[H, Rd]:
        """Read a decoded record; any problem raises :class:`RecordError` naming it."""
        record = check_format(data, self.format, self.what)
        try:
            header = self.read_header(record)
            players = read_players(field(record, "players", "record"))
            seed = record.get("seed")
            if seed is not None:
                seed = whole_number(seed, "record seed")
            rounds = []
            for ri, rd in enumerate(json_list(field(record, "rounds", "record"), "record rounds")):
                where = f"round {ri + 1}"
                if not isinstance(rd, dict):
                    raise NotationError(f"{where} must be an object")
                end = rd.get("end")
                ended = self.read_end(end, f"{where} end") if end is not None else None
                rounds.append(self.read_round(rd, where, header, ended))
            totals = read_totals(record.get("totals"))
        except RecordError:
            raise
        except RummikubError as exc:
            raise RecordError(str(exc)) from exc
        return Framed(header, players, seed, tuple(rounds), totals)

    def read(self, path: str | Path) -> Framed[H, Rd]:
        """Read the record in the file at ``path``."""
        return self.load(read_json(path))
