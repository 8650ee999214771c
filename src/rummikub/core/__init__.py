"""The rules core: tiles, melds, table, rules, plays, game flow, observations and records.

Pure standard-library Python. Everything public is re-exported by :mod:`rummikub`.
"""

from __future__ import annotations

from .actions import Action, Draw, Pass, Play, Timeout, parse_action
from .errors import (
    Code,
    IllegalPlayError,
    NotationError,
    RecordError,
    RulesError,
    RummikubError,
    UsageError,
)
from .game import Match, PlayerInfo, RoundLog, TurnLog
from .melds import Meld, Reading, Role, is_valid_meld, meld_value, read_meld
from .observation import Observation, observe
from .packing import max_meld_value, pack_melds
from .record import (
    FORMAT,
    GameRecord,
    ReplayStep,
    dump_record,
    load_match,
    load_record,
    match_record,
    read_record,
    replay,
    verify,
    write_record,
)
from .rules import PRESETS, MatchRules, Rules, player_count_error, preset
from .scoring import rack_value, score_round, score_table
from .state import RoundEnd, RoundState, apply, check_play, penalise, validate
from .table import Rack, Table
from .tiles import JOKER, Tile, parse_tile, parse_tiles

__all__ = [
    "FORMAT",
    "JOKER",
    "PRESETS",
    "Action",
    "Code",
    "Draw",
    "GameRecord",
    "IllegalPlayError",
    "Match",
    "MatchRules",
    "Meld",
    "NotationError",
    "Observation",
    "Pass",
    "Play",
    "PlayerInfo",
    "Rack",
    "Reading",
    "RecordError",
    "ReplayStep",
    "Role",
    "RoundEnd",
    "RoundLog",
    "RoundState",
    "Rules",
    "RulesError",
    "RummikubError",
    "Table",
    "Tile",
    "Timeout",
    "TurnLog",
    "UsageError",
    "apply",
    "check_play",
    "dump_record",
    "is_valid_meld",
    "load_match",
    "load_record",
    "match_record",
    "max_meld_value",
    "meld_value",
    "observe",
    "pack_melds",
    "parse_action",
    "parse_tile",
    "parse_tiles",
    "penalise",
    "player_count_error",
    "preset",
    "rack_value",
    "read_meld",
    "read_record",
    "replay",
    "score_round",
    "score_table",
    "validate",
    "verify",
    "write_record",
]
