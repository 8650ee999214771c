"""No rules values in texts: the label of a preset and the summary of Xpress are built from the
rules (turn time, penalty, players, dice, rounds), in every language, so that a preset changed
cannot leave a stale label behind."""

from __future__ import annotations

import dataclasses
import re

import pytest

from rummikub.core.rules import PRESETS, Rules
from rummikub.i18n import LANGUAGES, catalogue, translator
from rummikub.i18n.presets import USUAL_MAX_PLAYERS, preset_label, xpress_summary
from rummikub.xpress.rules import XpressRules


def numbers(text: str) -> list[str]:
    """The numbers written in a text (a decimal comma or point kept), in order."""
    return re.findall(r"\d+(?:[.,]\d+)?", text)


def expected_numbers(rules: Rules) -> list[str]:
    """The numbers the label of ``rules`` shows: the minutes of a turn, the penalty of an
    invalid play, more players than the usual four."""
    out: list[str] = []
    if rules.turn_seconds is not None:
        out.append(f"{rules.turn_seconds / 60:g}")
    if rules.invalid_play == "penalty":
        out.append(str(rules.invalid_penalty))
    if rules.max_players > USUAL_MAX_PLAYERS:
        out.append(str(rules.max_players))
    return out


def _same_numbers(label: str, wanted: list[str]) -> bool:
    return [n.replace(",", ".") for n in numbers(label)] == wanted


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_preset_label_shows_its_rules_numbers(lang: str) -> None:
    t = translator(lang)
    for name, rules in PRESETS.items():
        label = preset_label(t, name)
        assert label.startswith(t(f"preset.{name}")) or t(f"preset.{name}") in label
        assert _same_numbers(label, expected_numbers(rules)), (lang, name, label)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_changed_preset_changes_its_label(lang: str) -> None:
    """Other rules under a preset's name: the label says the new values, in every language."""
    t = translator(lang)
    changed = dataclasses.replace(
        PRESETS["swedish-tin"], turn_seconds=90, invalid_penalty=5, max_players=6
    )
    label = preset_label(t, "swedish-tin", changed)
    assert _same_numbers(label, ["1.5", "5", "6"]), (lang, label)
    unclocked = dataclasses.replace(PRESETS["standard"], turn_seconds=None)
    assert t("preset.no_clock") in preset_label(t, "standard", unclocked)
    assert numbers(preset_label(t, "standard", unclocked)) == []


def test_the_decimal_minutes_are_written_the_languages_way() -> None:
    half = dataclasses.replace(PRESETS["standard"], turn_seconds=90)
    assert preset_label(translator("en"), "standard", half) == "Standard (1.5 min)"
    assert preset_label(translator("de"), "standard", half) == "Standard (1,5 Min.)"


def test_no_preset_text_carries_a_rules_value() -> None:
    """A preset's own message is its name: the numbers come from the rules."""
    for lang in LANGUAGES:
        messages = catalogue(lang)
        for name in PRESETS:
            assert numbers(messages[f"preset.{name}"]) == [], (lang, name)
        assert numbers(messages["lobby.xpress_text"]) == [], lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_xpress_summary_counts_from_its_rules(lang: str) -> None:
    t = translator(lang)
    rules = XpressRules()
    printed = xpress_summary(t, rules)
    # two players: a number, or the language's word for two (Hebrew's dual, "שני שחקנים")
    players = t("count.players", count=2)
    assert printed.startswith(players) and numbers(players) in (["2"], [])
    rest = printed[len(players) :]
    assert numbers(rest) == [str(2 * rules.dice_per_player), str(rules.rounds)]
    other = xpress_summary(t, dataclasses.replace(rules, rounds=4, dice_per_player=7))
    assert numbers(other[len(players) :]) == ["14", "4"]
