"""The tile game as a :class:`~rummikub.core.interface.Game` of the platform (name ``tiles``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from .actions import Action, Draw, Pass, Play, Timeout
from .errors import IllegalPlayError, NotationError
from .game import Match
from .game_base import RecordCodec, RoundGame
from .interface import GameMatch, PlayerInfo
from .observation import Observation, observe
from .record import FORMAT, load_match, load_record, match_record, replay, verify
from .rules import PRESETS, Rules
from .state import RoundState, apply, check_action
from .table import Rack, Table
from .tiles import parse_tile

__all__ = ["TILES", "TilesGame", "action_from_json", "action_to_json", "fallback_action"]

TilesMatch = GameMatch[Rules, RoundState, Action, Observation]


def action_to_json(action: Action) -> dict[str, Any]:
    """``{"action": "play", "play": [...], "table": [[...], ...]}``, ``{"action": "draw"}``,
    ``{"action": "pass"}`` or ``{"action": "timeout"}``."""
    if isinstance(action, Play):
        return action.to_json()
    return {"action": str(action)}


def action_from_json(data: Any) -> Action:
    """The action of a JSON object written by :func:`action_to_json`."""
    if not isinstance(data, dict):
        raise NotationError("an action must be a JSON object")
    kind = data.get("action")
    if kind == "play":
        tiles = data.get("play")
        if not isinstance(tiles, list) or not all(isinstance(t, str) for t in tiles):
            raise NotationError("a play needs 'play': a list of tiles")
        placed = tuple(parse_tile(t, position=i) for i, t in enumerate(tiles))
        return Play(placed, Table.from_json(data.get("table"), where="play table"))
    simple: dict[object, Action] = {"draw": Draw(), "pass": Pass(), "timeout": Timeout()}
    if kind in simple:
        return simple[kind]
    raise NotationError(f"unknown action {kind!r} (play, draw, pass, timeout)")


def fallback_action(obs: Observation) -> Action:
    """Draw while the pool has tiles, else pass: always legal when it is the player's turn."""
    return Draw() if obs.pool_size > 0 else Pass()


class TilesGame(RoundGame[Rules, RoundState, Observation]):
    """Rummikub with tiles: 2–6 players, racks, a shared table, a pool."""

    name = "tiles"
    record_format = FORMAT
    PRESETS = PRESETS
    RECORDS = RecordCodec(match_record, load_record, replay, verify, load_match)

    # -- rules --------------------------------------------------------------------------
    def rules_from_json(self, data: Any, *, stored: bool = False) -> Rules:
        return Rules.from_dict(data, stored=stored)

    def player_counts(self, rules: Rules) -> range:
        return range(rules.min_players, rules.max_players + 1)

    def turn_seconds(self, rules: Rules) -> float | None:
        return None if rules.turn_seconds is None else float(rules.turn_seconds)

    # -- the match ----------------------------------------------------------------------
    def new_match(self, rules: Rules, players: Sequence[PlayerInfo | str], seed: int) -> Match:
        return Match(rules, players, seed)

    # -- the pure layer -------------------------------------------------------------------
    def check(self, state: RoundState, action: Action) -> IllegalPlayError | None:
        return check_action(state, action)

    def apply(self, state: RoundState, action: Action) -> RoundState:
        return apply(state, action)

    def observe(self, state: RoundState, player: int) -> Observation:
        return observe(state, player)

    def redeal_hidden(self, state: RoundState, player: int, rng: random.Random) -> RoundState:
        """The other racks and the pool dealt anew from their tiles (sizes kept)."""
        others = [p for p in range(state.players) if p != player]
        hidden = [t for p in others for t in state.racks[p].tiles] + list(state.pool)
        rng.shuffle(hidden)
        racks = list(state.racks)
        at = 0
        for p in others:
            size = len(state.racks[p])
            racks[p] = Rack(tuple(hidden[at : at + size]))
            at += size
        return replace(state, racks=tuple(racks), pool=tuple(hidden[at:]))

    # -- actions --------------------------------------------------------------------------
    def is_action(self, value: object) -> bool:
        return isinstance(value, Play | Draw | Pass | Timeout)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return action_to_json(action)

    def action_from_json(self, data: Any) -> Action:
        return action_from_json(data)

    def fallback_action(self, obs: Observation) -> Action:
        return fallback_action(obs)

    def timeout_action(self, obs: Observation) -> Action:
        return Timeout()

    def is_timeout(self, action: Action) -> bool:
        return isinstance(action, Timeout)

    # -- scoring ------------------------------------------------------------------------
    def zero_sum(self, rules: Rules) -> bool:
        return rules.scoring == "zero-sum"


#: the tile game
TILES = TilesGame()
