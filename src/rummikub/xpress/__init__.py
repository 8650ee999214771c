"""Rummikub Xpress, the two-player dice game (RULES.md section 2).

18 dice whose faces are the tiles 1-13 in four colours twice over plus 4 jokers; each player
takes 9, throws, and places sets on a shared table, rearranging it as in the tile game. Six
rounds; the most points wins. Builds on :mod:`rummikub.core` (melds, tables, notation); the
core never imports this package.
"""

from __future__ import annotations

from .actions import EndTurn, Place, Throw, XpressAction, action_from_json
from .bots import BOTS, ExpertBot, GreedyBot, RandomBot, XpressBot, get_bot
from .dice import Die, DieFace, Face, Layout, check_layout, default_layout, face_value, load_layout
from .game import XpressMatch, XpressPlayer, XpressRound, XpressTurn
from .observation import XpressObservation, observe
from .record import (
    FORMAT,
    XpressRecord,
    XpressStep,
    dump_xpress,
    load_xpress,
    load_xpress_match,
    read_xpress,
    replay_xpress,
    verify_xpress,
    write_xpress,
    xpress_record,
)
from .rules import XpressRules
from .solver import Placement, arrange, best_placement, can_place
from .state import XpressEnd, XpressState, apply, check, hand_value, score_round, validate

__all__ = [
    "BOTS",
    "FORMAT",
    "Die",
    "DieFace",
    "EndTurn",
    "ExpertBot",
    "Face",
    "GreedyBot",
    "Layout",
    "Place",
    "Placement",
    "RandomBot",
    "Throw",
    "XpressAction",
    "XpressBot",
    "XpressEnd",
    "XpressMatch",
    "XpressObservation",
    "XpressPlayer",
    "XpressRecord",
    "XpressRound",
    "XpressRules",
    "XpressState",
    "XpressStep",
    "XpressTurn",
    "action_from_json",
    "apply",
    "arrange",
    "best_placement",
    "can_place",
    "check",
    "check_layout",
    "default_layout",
    "dump_xpress",
    "face_value",
    "get_bot",
    "hand_value",
    "load_layout",
    "load_xpress",
    "load_xpress_match",
    "observe",
    "read_xpress",
    "replay_xpress",
    "score_round",
    "validate",
    "verify_xpress",
    "write_xpress",
    "xpress_record",
]
