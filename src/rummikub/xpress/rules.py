"""The options of an Xpress match (RULES.md section 2), as one strict JSON-friendly object."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rummikub.core.errors import RulesError

__all__ = ["XpressRules"]

#: fields added after records were first written, with the behaviour records had before
LEGACY_DEFAULTS: dict[str, Any] = {"must_place_sets": False, "freed_joker_new_set": False}


@dataclass(frozen=True, slots=True)
class XpressRules:
    """Xpress rules. The defaults are the printed game: 2 players, 6 rounds, 9 dice each,
    blocked after 3 throws by each player with nothing placed, a left-over joker counts 10,
    a player may not end his turn holding a complete set (``must_place_sets``), and a joker
    replaced by the die it stood for must become part of another set (``freed_joker_new_set``).
    """

    rounds: int = 6
    dice_per_player: int = 9
    block_throws: int = 3
    joker_value: int = 10
    must_place_sets: bool = True
    freed_joker_new_set: bool = True

    def __post_init__(self) -> None:
        self.check()

    @property
    def players(self) -> int:
        return 2

    def check(self) -> None:
        for name, lo, hi in (
            ("rounds", 1, 100),
            ("dice_per_player", 1, 9),
            ("block_throws", 1, 100),
            ("joker_value", 0, 100),
        ):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(f"{name} must be a whole number, got {value!r}", field=name)
            if not lo <= value <= hi:
                raise RulesError(f"{name} {value} out of range {lo}..{hi}", field=name)
        for name in ("must_place_sets", "freed_joker_new_set"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false", field=name)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: Any, *, stored: bool = False) -> XpressRules:
        """Build from a (possibly partial) object; unknown fields are errors. Missing fields
        take the printed game's value; with ``stored`` (the rules of a record, always written in
        full) a field missing because the record predates it takes the behaviour of that time,
        so old records replay as they were played."""
        if not isinstance(data, Mapping):
            raise RulesError("Xpress rules must be a JSON object")
        names = {f.name for f in dataclasses.fields(cls)}
        for key in data:
            if key not in names:
                raise RulesError(f"unknown Xpress rules field {key!r}", field=str(key))
        values = dict(data)
        if stored:
            for key, old in LEGACY_DEFAULTS.items():
                values.setdefault(key, old)
        return cls(**values)
