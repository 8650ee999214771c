"""Xpress as a :class:`~rummikub.core.interface.Game` of the platform (name ``xpress``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rummikub.core.errors import IllegalPlayError
from rummikub.core.game_base import RecordCodec, RoundGame
from rummikub.core.interface import (
    GameMatch,
    PlayerInfo,
)

from .actions import EndTurn, Place, Throw, XpressAction, action_from_json
from .bots import place_best
from .game import XpressMatch
from .observation import XpressObservation, observe
from .record import (
    FORMAT,
    load_xpress,
    load_xpress_match,
    replay_xpress,
    verify_xpress,
    xpress_record,
)
from .rules import XpressRules
from .state import XpressState, apply, check, validate_throw_choice

__all__ = ["XPRESS", "XpressGame", "fallback_action"]

XpressGameMatch = GameMatch[XpressRules, XpressState, XpressAction, XpressObservation]

#: the named Xpress rule sets: the printed game, and the rules before the two printed
#: obligations were enforced (how records written before them were played)
PRESETS: dict[str, XpressRules] = {
    "standard": XpressRules(),
    "lenient": XpressRules(must_place_sets=False, freed_joker_new_set=False),
}


def fallback_action(obs: XpressObservation) -> XpressAction:
    """Always legal for the player to move: throw every unplaced die, else place what must be
    placed, else end the turn."""
    if obs.phase == "throw":
        return Throw(tuple(d.die for d in obs.hand))
    return place_best(obs)


class XpressGame(RoundGame[XpressRules, XpressState, XpressObservation]):
    """Rummikub Xpress: two players, nine dice each, six rounds."""

    name = "xpress"
    record_format = FORMAT
    PRESETS = PRESETS
    RECORDS = RecordCodec(
        xpress_record, load_xpress, replay_xpress, verify_xpress, load_xpress_match
    )

    # -- rules --------------------------------------------------------------------------
    def rules_from_json(self, data: Any, *, stored: bool = False) -> XpressRules:
        return XpressRules.from_dict(data, stored=stored)

    def player_counts(self, rules: XpressRules) -> range:
        return range(rules.players, rules.players + 1)

    def turn_seconds(self, rules: XpressRules) -> float | None:
        return None

    # -- the match ----------------------------------------------------------------------
    def new_match(
        self, rules: XpressRules, players: Sequence[PlayerInfo | str], seed: int
    ) -> XpressMatch:
        return XpressMatch(players, seed, rules=rules)

    # -- the pure layer -------------------------------------------------------------------
    def check(self, state: XpressState, action: XpressAction) -> IllegalPlayError | None:
        if isinstance(action, Throw) and action.faces is None:
            try:
                validate_throw_choice(state, action.dice)
            except IllegalPlayError as exc:
                return exc
            return None
        return check(state, action)

    def apply(self, state: XpressState, action: XpressAction) -> XpressState:
        return apply(state, action)

    def observe(self, state: XpressState, player: int) -> XpressObservation:
        return observe(state, player)

    def redeal_hidden(self, state: XpressState, player: int, rng: random.Random) -> XpressState:
        """Nothing is hidden in Xpress (both hands lie open; only future throws are unknown)."""
        return state

    # -- actions --------------------------------------------------------------------------
    def is_action(self, value: object) -> bool:
        return isinstance(value, Throw | Place | EndTurn)

    def action_to_json(self, action: XpressAction) -> dict[str, Any]:
        return action.to_json()

    def action_from_json(self, data: Any) -> XpressAction:
        return action_from_json(data)

    def fallback_action(self, obs: XpressObservation) -> XpressAction:
        return fallback_action(obs)

    def timeout_action(self, obs: XpressObservation) -> XpressAction:
        return fallback_action(obs)

    def is_timeout(self, action: XpressAction) -> bool:
        return False

    # -- scoring ------------------------------------------------------------------------
    def zero_sum(self, rules: XpressRules) -> bool:
        return False


#: the dice game
XPRESS = XpressGame()
