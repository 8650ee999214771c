"""The rules object: every rule choice of the game as a field, and the six presets.

Field names follow the project's FORMATS (``docs/formats.md``). A preset is a name for a full
object; :meth:`Rules.replace` changes it field by field. JSON load/save is strict: unknown
fields and out-of-range values raise :class:`RulesError` naming the field.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .by_object import ByObject
from .errors import Code, RulesError
from .tiles import COLOUR_LETTERS, JOKER, Tile

__all__ = ["PRESETS", "MatchRules", "Rules", "player_count_error", "preset"]

JokerRule = Literal["free", "strict"]
InvalidPlay = Literal["reject", "penalty"]
Scoring = Literal["zero-sum", "penalty-points"]
#: the preset names; ``Rules.preset`` is always one of them (the preset an object started from)
PRESET_NAMES = ("standard", "swedish-tin", "classic-strict", "tournament", "xp", "casual")
#: fields added after records were first written: a stored record (always a full rules object)
#: that lacks one was played before it existed, so it replays with the behaviour of that time
LEGACY_DEFAULTS: dict[str, Any] = {"joker_swap_from_rack": False, "freed_joker_new_set": False}


#: :meth:`Rules.all_tiles` by the rules object
_ALL_TILES: ByObject[Rules, tuple[Tile, ...]] = ByObject(256)


@dataclass(frozen=True, slots=True)
class MatchRules:
    """How long a match lasts: a number of rounds, a target score, or both (first reached)."""

    rounds: int | None = 1
    target: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "target": self.target}

    @classmethod
    def from_dict(cls, data: Any) -> MatchRules:
        if not isinstance(data, Mapping):
            raise RulesError("match must be an object with 'rounds' and 'target'", field="match")
        unknown = set(data) - {"rounds", "target"}
        if unknown:
            raise RulesError(f"unknown field match.{sorted(unknown)[0]}", field="match")
        # a match given only a target score plays until the target is reached
        rounds = data.get("rounds", 1 if data.get("target") is None else None)
        target = data.get("target")
        for name, value in (("rounds", rounds), ("target", target)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise RulesError(
                    f"match.{name} must be a whole number or null", field=f"match.{name}"
                )
        m = cls(rounds=rounds, target=target)
        m.check()
        return m

    def check(self) -> None:
        if self.rounds is None and self.target is None:
            raise RulesError(
                "match needs a number of rounds or a target score (or both)", field="match"
            )
        if self.rounds is not None and not 1 <= self.rounds <= 1000:
            raise RulesError(
                f"match.rounds {self.rounds} out of range 1..1000", field="match.rounds"
            )
        if self.target is not None and not 1 <= self.target <= 1_000_000:
            raise RulesError(
                f"match.target {self.target} out of range 1..1000000", field="match.target"
            )


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of the game. The defaults are the ``standard`` preset."""

    preset: str = "standard"
    colours: int = 4
    numbers: int = 13
    copies: int = 2
    jokers: int = 2
    rack_size: int = 14
    min_players: int = 2
    max_players: int = 4
    opening_value: int = 30
    open_then_extend: bool = False
    joker_rule: JokerRule = "free"
    group_needs_both_colours: bool = False
    joker_swap_from_rack: bool = False
    freed_joker_new_set: bool = False
    joker_penalty: int = 30
    turn_seconds: int | None = 120
    timeout_penalty: int = 1
    invalid_play: InvalidPlay = "reject"
    invalid_penalty: int = 3
    scoring: Scoring = "zero-sum"
    redraw_first_player: bool = True
    match: MatchRules = field(default_factory=MatchRules)

    def __post_init__(self) -> None:
        self.check()

    # -- derived values ------------------------------------------------------------------
    @property
    def tile_count(self) -> int:
        return self.colours * self.numbers * self.copies + self.jokers

    def all_tiles(self) -> tuple[Tile, ...]:
        """The full tile set in canonical order (colour, number, copy), jokers last."""
        known = _ALL_TILES.get(self)  # every deal asks (twice: the first player, the deal)
        if known is not None:
            return known
        tiles = [
            Tile(c, n)
            for c in range(self.colours)
            for n in range(1, self.numbers + 1)
            for _ in range(self.copies)
        ]
        tiles.extend([JOKER] * self.jokers)
        return _ALL_TILES.keep(self, tuple(tiles))

    def tile_value(self, tile: Tile) -> int:
        """A tile's value on a rack at the end of a round (joker = ``joker_penalty``)."""
        return self.joker_penalty if tile.is_joker else tile.number

    def is_valid_tile(self, tile: Tile) -> bool:
        return tile.is_joker or (
            0 <= tile.colour < self.colours and 1 <= tile.number <= self.numbers
        )

    def not_a_tile(self, tile: object) -> tuple[str, dict[str, str | int]]:
        """The one wording of a tile these rules do not have (``R14``, ``P5`` in a 4-colour
        game, ``Q5``), in English, and the params of its message (``error.not-a-tile``,
        ``error.meld-bad-tile``): the tile, the colour letters of these rules, the highest
        number."""
        colours = ", ".join(COLOUR_LETTERS[: self.colours])
        params: dict[str, str | int] = {
            "tile": str(tile), "colours": colours, "numbers": self.numbers,
        }  # fmt: skip
        text = (
            f"{tile} is not a tile of these rules (colours {colours}, numbers 1 to {self.numbers})"
        )
        return text, params

    # -- validation ----------------------------------------------------------------------
    def check(self) -> None:
        def rng(name: str, lo: int, hi: int) -> None:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(f"{name} must be a whole number, got {value!r}", field=name)
            if not lo <= value <= hi:
                raise RulesError(f"{name} {value} out of range {lo}..{hi}", field=name)

        if not isinstance(self.preset, str) or self.preset not in PRESET_NAMES:
            raise RulesError(
                f"unknown preset {self.preset!r} (presets: {', '.join(PRESET_NAMES)})",
                field="preset",
            )
        rng("colours", 1, len(COLOUR_LETTERS))
        rng("numbers", 3, 30)
        rng("copies", 1, 4)
        rng("jokers", 0, 8)
        rng("rack_size", 1, 40)
        rng("min_players", 1, 8)
        rng("max_players", 1, 8)
        rng("opening_value", 0, 1000)
        rng("joker_penalty", 0, 1000)
        rng("timeout_penalty", 0, 20)
        rng("invalid_penalty", 0, 20)
        for name in (
            "open_then_extend",
            "group_needs_both_colours",
            "joker_swap_from_rack",
            "freed_joker_new_set",
            "redraw_first_player",
        ):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false", field=name)
        if self.joker_rule not in ("free", "strict"):
            raise RulesError(
                f"joker_rule must be 'free' or 'strict', got {self.joker_rule!r}",
                field="joker_rule",
            )
        if self.invalid_play not in ("reject", "penalty"):
            raise RulesError(
                f"invalid_play must be 'reject' or 'penalty', got {self.invalid_play!r}",
                field="invalid_play",
            )
        if self.scoring not in ("zero-sum", "penalty-points"):
            raise RulesError(
                f"scoring must be 'zero-sum' or 'penalty-points', got {self.scoring!r}",
                field="scoring",
            )
        if self.turn_seconds is not None:
            rng("turn_seconds", 1, 24 * 3600)
        if self.min_players > self.max_players:
            raise RulesError(
                f"min_players {self.min_players} is more than max_players {self.max_players}",
                field="min_players",
            )
        if not isinstance(self.match, MatchRules):
            raise RulesError("match must be a MatchRules object", field="match")
        self.match.check()
        if self.max_players * self.rack_size > self.tile_count:
            raise RulesError(
                f"rack_size {self.rack_size}: {self.max_players} racks of {self.rack_size} "
                f"need more than the {self.tile_count} tiles of this set",
                field="rack_size",
            )

    def check_players(self, count: int) -> None:
        if not self.min_players <= count <= self.max_players:
            raise player_count_error(count, range(self.min_players, self.max_players + 1))

    # -- conversion ----------------------------------------------------------------------
    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated)."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise RulesError(
                f"unknown rules field {sorted(unknown)[0]!r}", field=sorted(unknown)[0]
            )
        if isinstance(changes.get("match"), Mapping):
            changes["match"] = MatchRules.from_dict(changes["match"])
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.to_dict() if isinstance(value, MatchRules) else value
        return out

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_dict(cls, data: Any, *, stored: bool = False) -> Rules:
        """Build from a full or partial rules object. Missing fields come from the preset named
        by ``preset`` (default ``standard``). With ``stored`` (the rules of a game record, always
        written in full) a field missing because the record predates it takes the behaviour of
        that time (:data:`LEGACY_DEFAULTS`), so old records replay as they were played."""
        if isinstance(data, str):
            return preset(data)
        if not isinstance(data, Mapping):
            raise RulesError("a rules object must be a JSON object or a preset name")
        names = {f.name for f in dataclasses.fields(cls)}
        for key in data:
            if key not in names:
                raise RulesError(f"unknown rules field {key!r}", field=str(key))
        base = preset(data.get("preset", "standard"))
        changes = {k: v for k, v in data.items() if k != "preset"}
        if stored:
            for key, old in LEGACY_DEFAULTS.items():
                changes.setdefault(key, old)
        if "match" in changes:
            changes["match"] = MatchRules.from_dict(changes["match"])
        for key in ("turn_seconds",):
            v = changes.get(key)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                raise RulesError(f"{key} must be a whole number or null, got {v!r}", field=key)
        try:
            return dataclasses.replace(base, preset=base.preset, **changes)
        except TypeError as exc:  # pragma: no cover - guarded above
            raise RulesError(str(exc)) from exc

    @classmethod
    def from_json(cls, text: str) -> Rules:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RulesError(f"rules are not valid JSON: {exc}") from exc
        return cls.from_dict(data)

    def __str__(self) -> str:
        return self.to_json()


def player_count_error(count: int, allowed: range) -> RulesError:
    """The error of a game of ``count`` players under rules that allow ``allowed`` (code
    ``player-count``, worded by the catalogue's ``error.player-count``)."""
    lo, hi = allowed.start, allowed.stop - 1
    players = "1 player" if count == 1 else f"{count} players"
    return RulesError(
        f"{players}, but these rules allow {lo}..{hi}",
        field="max_players",
        code=Code.PLAYER_COUNT,
        params={"count": count, "min": lo, "max": hi},
    )


def _presets() -> dict[str, Rules]:
    # which printed edition each preset follows: docs/rules.md ("Presets")
    standard = Rules()
    return {
        "standard": standard,
        "swedish-tin": dataclasses.replace(
            standard,
            preset="swedish-tin",
            turn_seconds=120,
            timeout_penalty=1,
            invalid_play="penalty",
            invalid_penalty=3,
        ),
        "classic-strict": dataclasses.replace(
            standard,
            preset="classic-strict",
            joker_rule="strict",
            group_needs_both_colours=True,
            joker_swap_from_rack=True,
            freed_joker_new_set=True,
        ),
        "tournament": dataclasses.replace(
            standard,
            preset="tournament",
            turn_seconds=60,
            timeout_penalty=3,
            invalid_play="penalty",
            invalid_penalty=3,
            redraw_first_player=False,
        ),
        "xp": dataclasses.replace(
            standard,
            preset="xp",
            copies=3,
            jokers=4,
            max_players=6,
            turn_seconds=60,
            timeout_penalty=3,
        ),
        "casual": dataclasses.replace(
            standard, preset="casual", turn_seconds=None, redraw_first_player=False
        ),
    }


PRESETS: dict[str, Rules] = _presets()


def preset(name: str) -> Rules:
    """The rules of a named preset (``standard``, ``swedish-tin``, ``classic-strict``,
    ``tournament``, ``xp``, ``casual``)."""
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise RulesError(
            f"unknown preset {name!r} (presets: {', '.join(PRESETS)})", field="preset"
        ) from None
