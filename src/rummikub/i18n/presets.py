"""The words of the rules presets and of the Xpress game's summary, built from the rules they
describe: a catalogue names a preset (``preset.<name>``) and words each detail with a
placeholder (``preset.minutes``: ``"{minutes} min"``), so that no text carries a rules value
that a change of the preset would leave stale. The web client builds the same labels
(``presetLabel`` in ``static/js/i18n.js``)."""

from __future__ import annotations

from typing import Protocol

from rummikub.core.rules import PRESETS, Rules

from . import Translator, format_decimal, format_number

__all__ = [
    "USUAL_MAX_PLAYERS",
    "DiceRules",
    "preset_details",
    "preset_label",
    "xpress_summary",
]

#: the players of the usual tile set: a preset for more says so in its label
USUAL_MAX_PLAYERS = 4


def _minutes(t: Translator, seconds: int) -> str:
    whole = seconds % 60 == 0
    value = format_number(t.lang, seconds // 60) if whole else format_decimal(t.lang, seconds / 60)
    return t("preset.minutes", minutes=value)


def preset_details(t: Translator, rules: Rules) -> list[str]:
    """The details of a preset's label: its clock, its penalty for an invalid play, more
    players than the usual four."""
    details = [
        t("preset.no_clock") if rules.turn_seconds is None else _minutes(t, rules.turn_seconds)
    ]
    if rules.invalid_play == "penalty":
        details.append(t("preset.penalty", count=rules.invalid_penalty))
    if rules.max_players > USUAL_MAX_PLAYERS:
        details.append(t("preset.players", count=rules.max_players))
    return details


def preset_label(t: Translator, name: str, rules: Rules | None = None) -> str:
    """The label of the preset ``name`` (``"Standard (2 min)"``) from ``rules`` (by default
    the preset's own)."""
    rules = PRESETS[name] if rules is None else rules
    details = t("preset.separator").join(preset_details(t, rules))
    return t("preset.label", name=t(f"preset.{name}"), details=details)


class DiceRules(Protocol):
    """What the Xpress sentence counts from the rules (:class:`rummikub.xpress.XpressRules`;
    the dice game imports this package, not the other way round)."""

    @property
    def rounds(self) -> int: ...

    @property
    def dice_per_player(self) -> int: ...


def xpress_summary(t: Translator, rules: DiceRules, players: int = 2) -> str:
    """The Xpress game in a sentence (``"2 players, 18 dice, 6 rounds: throw..."``)."""
    return t(
        "lobby.xpress_text",
        players=t("count.players", count=players),
        dice=t("count.dice", count=players * rules.dice_per_player),
        rounds=t("count.rounds", count=rules.rounds),
    )
