"""The bot side of ``rummikub-bot/1``: any bot served on a pair of text streams, so that another
program (a GUI, a tournament of another version of this project) can run it as a process
(``rummikub engine LEVEL``, the way chess engines are run behind UCI).

:func:`serve` reads the host's messages one JSON line at a time and answers them:

- ``hello`` → ``{"type": "ready", "name": ...}`` (a ``hello`` naming another protocol gets an
  ``error`` line and ends the session with status 2);
- ``new_game`` → a fresh bot (built again from the same seed, so every game is reproducible
  on its own) told ``start_game(rules, seat, players)`` when it has that hook;
- ``turn`` → the bot's action for the observation, within the message's ``time_limit``;
- ``error`` with ``retry: true`` (the host refused the answer) → a draw, or a pass when the
  pool is empty; ``game_over`` → ``end_game`` when the bot has it; ``quit`` → the end.

A line the engine cannot read (not JSON, not an object, a known message with a missing or bad
field) is answered with ``{"type": "error", "reason": "bad-message", "message": ...}`` naming
what is wrong, and the engine goes on reading; messages of unknown types are ignored, as the
protocol asks. Diagnostics go to standard error.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import IO, Any

from rummikub.core import (
    Action,
    Draw,
    Observation,
    Pass,
    Play,
    Rack,
    Rules,
    RummikubError,
    Table,
)

from .base import fallback_action
from .protocol import PROTOCOL, ProtocolError

__all__ = ["EngineSession", "action_to_json", "observation_from_json", "serve"]

BotMaker = Callable[[int | None], Any]

#: seconds kept back from the host's time limit for reading, writing and the pipes
MARGIN = 0.05


def action_to_json(action: Action) -> dict[str, Any]:
    """The answer line of ``action`` (a play, draw or pass)."""
    if isinstance(action, Play):
        return action.to_json()
    if isinstance(action, Draw):
        return {"action": "draw"}
    if isinstance(action, Pass):
        return {"action": "pass"}
    raise ProtocolError(f"a bot answers with a play, draw or pass, not {action}")


def _field(data: dict[str, Any], name: str, kind: type | tuple[type, ...], where: str) -> Any:
    if name not in data:
        raise ProtocolError(f"{where} has no {name!r} field")
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ProtocolError(f"{where}: {name!r} must be {names}, got {value!r}")
    return value


def _ints(data: dict[str, Any], name: str, where: str) -> tuple[int, ...]:
    values = _field(data, name, list, where)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise ProtocolError(f"{where}: {name!r} must be a list of whole numbers")
    return tuple(values)


def observation_from_json(data: Any) -> Observation:
    """The :class:`Observation` of ``Observation.to_json()``'s object (the ``observation`` of a
    ``turn`` message); :class:`ProtocolError` naming the field that is wrong."""
    where = "the observation"
    if not isinstance(data, dict):
        raise ProtocolError(f"{where} must be a JSON object")
    try:
        rules = Rules.from_dict(_field(data, "rules", dict, where))
        rack_tiles = _field(data, "rack", list, where)
        if not all(isinstance(t, str) for t in rack_tiles):
            raise ProtocolError(f"{where}: 'rack' must be a list of tile strings")
        rack = Rack.of(rack_tiles)
        table = Table.from_json(_field(data, "table", list, where), where=f"{where}'s table")
    except ProtocolError:
        raise
    except RummikubError as exc:
        raise ProtocolError(f"{where}: {exc}") from None
    opened = _field(data, "opened", list, where)
    if not all(isinstance(v, bool) for v in opened):
        raise ProtocolError(f"{where}: 'opened' must be a list of true/false")
    sizes = _ints(data, "rack_sizes", where)
    player = _field(data, "player", int, where)
    if not 0 <= player < len(sizes) or len(opened) != len(sizes):
        raise ProtocolError(
            f"{where}: 'player' {player} and 'opened' must fit the {len(sizes)} rack sizes"
        )
    time_left = data.get("time_left")
    if time_left is not None and (
        not isinstance(time_left, int | float) or isinstance(time_left, bool)
    ):
        raise ProtocolError(f"{where}: 'time_left' must be a number or null, got {time_left!r}")
    return Observation(
        player=player,
        rules=rules,
        rack=rack,
        table=table,
        rack_sizes=sizes,
        pool_size=_field(data, "pool_size", int, where),
        opened=tuple(opened),
        current=_field(data, "current", int, where),
        turn=_field(data, "turn", int, where),
        passes=_field(data, "passes", int, where),
        scores=_ints(data, "scores", where),
        time_left=None if time_left is None else float(time_left),
        round=_field(data, "round", int, where) if "round" in data else 0,
    )


class EngineSession:
    """One engine conversation: :meth:`handle` takes a line from the host and returns the lines
    to answer (and :attr:`done` / :attr:`status` once it should stop)."""

    def __init__(self, make: BotMaker, *, seed: int | None = None, name: str = "") -> None:
        self.make = make
        self.seed = seed
        self.bot: Any = make(seed)
        self.name = name or str(getattr(self.bot, "name", "bot"))
        self.done = False
        self.status = 0
        self.pool_size = 1  # of the last turn's observation, for a fallback answer
        self.turns = 0
        self.log: Callable[[str], None] = lambda _msg: None

    def handle(self, line: str) -> list[dict[str, Any]]:
        """The answers to one line from the host (none, one, or an error line)."""
        if not line.strip():
            return []
        try:
            message = json.loads(line)
        except json.JSONDecodeError as exc:
            return self._bad(f"not JSON: {exc.msg} at column {exc.colno}")
        if not isinstance(message, dict):
            return self._bad("a message must be a JSON object")
        kind = message.get("type")
        try:
            if kind == "hello":
                return self._hello(message)
            if kind == "new_game":
                return self._new_game(message)
            if kind == "turn":
                return self._turn(message)
            if kind == "error":
                return self._refused(message)
            if kind == "game_over":
                return self._game_over(message)
            if kind == "quit":
                self.done = True
                return []
        except ProtocolError as exc:
            return self._bad(f"{kind} message: {exc}")
        except (RummikubError, ValueError, TypeError) as exc:  # a field the checks let by
            return self._bad(f"{kind} message: {type(exc).__name__}: {exc}")
        if not isinstance(kind, str):
            return self._bad(f"a message needs a string 'type', got {kind!r}")
        return []  # a message type of a later protocol: ignored

    def _bad(self, problem: str) -> list[dict[str, Any]]:
        self.log(f"engine: bad message: {problem}")
        return [{"type": "error", "reason": "bad-message", "message": problem}]

    def _hello(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        protocol = message.get("protocol")
        if protocol != PROTOCOL:
            self.done, self.status = True, 2
            return [
                {
                    "type": "error",
                    "reason": "protocol",
                    "message": f"this engine speaks {PROTOCOL}, not {protocol!r}",
                }
            ]
        return [{"type": "ready", "name": self.name, "protocol": PROTOCOL}]

    def _new_game(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        where = "new_game"
        rules_data = _field(message, "rules", dict, where)
        try:
            rules = Rules.from_dict(rules_data)
        except RummikubError as exc:
            raise ProtocolError(f"'rules': {exc}") from None
        player = _field(message, "player", int, where)
        players = _field(message, "players", int, where)
        if not 0 <= player < players:
            raise ProtocolError(f"'player' must be a seat of the {players} players, got {player}")
        self.bot = self.make(self.seed)
        start = getattr(self.bot, "start_game", None)
        if start is not None:
            start(rules, player, players)
        return []

    def _turn(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        obs = observation_from_json(message.get("observation"))
        limit = message.get("time_limit")
        if limit is not None and (not isinstance(limit, int | float) or isinstance(limit, bool)):
            raise ProtocolError(f"'time_limit' must be a number or null, got {limit!r}")
        budget = None if limit is None else max(0.01, float(limit) - MARGIN)
        self.pool_size = obs.pool_size
        self.turns += 1
        try:
            action = self.bot.act(obs, budget)
            answer = action_to_json(action)
        except Exception as exc:  # the bot failed: the turn's fallback, and say why
            self.log(f"engine: the bot failed on turn {obs.turn}: {type(exc).__name__}: {exc}")
            answer = action_to_json(fallback_action(obs))
        return [answer]

    def _refused(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        self.log(f"engine: the host refused an answer: {message.get('message')}")
        if message.get("retry") is True:
            return [{"action": "draw"} if self.pool_size > 0 else {"action": "pass"}]
        return []

    def _game_over(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        scores = _ints(message, "scores", "game_over")
        winners = _ints(message, "winners", "game_over")
        end = getattr(self.bot, "end_game", None)
        if end is not None:
            end(scores, winners)
        return []


def serve(session: EngineSession, inp: IO[str], out: IO[str], err: IO[str] | None = None) -> int:
    """Answer the host's lines from ``inp`` on ``out`` until ``quit``, a wrong protocol or the
    end of input; the exit status (0, or 2 for a wrong protocol)."""
    if err is not None:

        def log(text: str) -> None:
            err.write(text + "\n")
            err.flush()

        session.log = log
    for line in inp:
        for answer in session.handle(line):
            out.write(json.dumps(answer, separators=(",", ":")) + "\n")
            out.flush()
        if session.done:
            break
    return session.status
