"""The rules object: every field, the six presets, JSON load/save and strict checking."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.core import PRESETS, MatchRules, Rules, RulesError, preset

FIELDS = {
    "preset",
    "colours",
    "numbers",
    "copies",
    "jokers",
    "rack_size",
    "min_players",
    "max_players",
    "opening_value",
    "open_then_extend",
    "joker_rule",
    "group_needs_both_colours",
    "joker_swap_from_rack",
    "freed_joker_new_set",
    "joker_penalty",
    "turn_seconds",
    "timeout_penalty",
    "invalid_play",
    "invalid_penalty",
    "scoring",
    "redraw_first_player",
    "match",
}


def test_every_formats_field_is_in_the_rules_object() -> None:
    assert set(preset("standard").to_dict()) == FIELDS


def test_standard_defaults() -> None:
    d = Rules().to_dict()
    assert d == {
        "preset": "standard",
        "colours": 4,
        "numbers": 13,
        "copies": 2,
        "jokers": 2,
        "rack_size": 14,
        "min_players": 2,
        "max_players": 4,
        "opening_value": 30,
        "open_then_extend": False,
        "joker_rule": "free",
        "group_needs_both_colours": False,
        "joker_swap_from_rack": False,
        "freed_joker_new_set": False,
        "joker_penalty": 30,
        "turn_seconds": 120,
        "timeout_penalty": 1,
        "invalid_play": "reject",
        "invalid_penalty": 3,
        "scoring": "zero-sum",
        "redraw_first_player": True,
        "match": {"rounds": 1, "target": None},
    }
    assert Rules() == preset("standard")


# preset | joker rule (+ group_needs_both_colours) | opening | time | timeout penalty |
# invalid play (penalty) | joker penalty | tiles | max players | redraw first player |
# joker_swap_from_rack, freed_joker_new_set
TABLE = {
    "standard": ("free", False, 30, 120, 1, "reject", 3, 30, 106, 4, True, False, False),
    "swedish-tin": ("free", False, 30, 120, 1, "penalty", 3, 30, 106, 4, True, False, False),
    "classic-strict": ("strict", True, 30, 120, 1, "reject", 3, 30, 106, 4, True, True, True),
    "tournament": ("free", False, 30, 60, 3, "penalty", 3, 30, 106, 4, False, False, False),
    "xp": ("free", False, 30, 60, 3, "reject", 3, 30, 160, 6, True, False, False),
    "casual": ("free", False, 30, None, 1, "reject", 3, 30, 106, 4, False, False, False),
}


@pytest.mark.parametrize("name", list(TABLE))
def test_presets_match_the_rule_book(name: str) -> None:
    rules = preset(name)
    got = (
        rules.joker_rule,
        rules.group_needs_both_colours,
        rules.opening_value,
        rules.turn_seconds,
        rules.timeout_penalty,
        rules.invalid_play,
        rules.invalid_penalty,
        rules.joker_penalty,
        rules.tile_count,
        rules.max_players,
        rules.redraw_first_player,
        rules.joker_swap_from_rack,
        rules.freed_joker_new_set,
    )
    assert got == TABLE[name]
    assert rules.preset == name
    assert rules.open_then_extend is False
    assert rules.scoring == "zero-sum"
    assert rules.rack_size == 14


def test_exactly_six_presets() -> None:
    assert set(PRESETS) == set(TABLE)


def test_swedish_tin_edition() -> None:
    # seed 001: a turn longer than 2 minutes ends with one penalty tile; an illegal play is
    # taken back and the player takes three penalty tiles
    rules = preset("swedish-tin")
    assert (rules.turn_seconds, rules.timeout_penalty) == (120, 1)
    assert (rules.invalid_play, rules.invalid_penalty) == ("penalty", 3)
    assert rules.rack_size == 14 and rules.tile_count == 106 and rules.opening_value == 30
    assert rules.scoring == "zero-sum"


def test_xp_seats_five_and_six_players() -> None:
    xp = preset("xp")
    xp.check_players(5)
    xp.check_players(6)
    with pytest.raises(RulesError):
        xp.check_players(7)
    with pytest.raises(RulesError):
        preset("standard").check_players(5)
    with pytest.raises(RulesError):
        preset("standard").check_players(1)


@pytest.mark.parametrize("name", list(TABLE))
def test_presets_round_trip_through_json(name: str) -> None:
    rules = preset(name)
    assert Rules.from_json(rules.to_json()) == rules
    assert Rules.from_dict(json.loads(str(rules))) == rules
    assert Rules.from_dict(name) == rules


def test_partial_object_takes_missing_fields_from_its_preset() -> None:
    rules = Rules.from_dict({"preset": "tournament", "opening_value": 50})
    assert rules.opening_value == 50
    assert rules.invalid_play == "penalty"
    assert rules.preset == "tournament"
    assert Rules.from_dict({}) == preset("standard")


def test_change_field_by_field() -> None:
    rules = preset("standard").replace(joker_penalty=25, match={"rounds": None, "target": 200})
    assert rules.joker_penalty == 25
    assert rules.match == MatchRules(None, 200)
    assert Rules.from_json(rules.to_json()) == rules
    assert preset("standard").joker_penalty == 30  # presets are values, never changed


def test_custom_rules_round_trip() -> None:
    rules = preset("standard").replace(
        colours=5, numbers=10, copies=1, jokers=1, rack_size=8, opening_value=20
    )
    assert Rules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"colour": 4}, "colour"),
        ({"preset": "standard", "turn_limit": 60}, "turn_limit"),
        ({"match": {"rounds": 2, "goal": 100}}, "match"),
        ({"preset": "expert"}, "preset"),
        ({"preset": ["standard"]}, "preset"),
        ({"colours": 0}, "colours"),
        ({"colours": 9}, "colours"),
        ({"colours": "4"}, "colours"),
        ({"numbers": 2}, "numbers"),
        ({"numbers": 31}, "numbers"),
        ({"copies": 0}, "copies"),
        ({"jokers": -1}, "jokers"),
        ({"jokers": 2.0}, "jokers"),
        ({"rack_size": 0}, "rack_size"),
        ({"rack_size": 30}, "rack_size"),
        ({"opening_value": -1}, "opening_value"),
        ({"joker_penalty": True}, "joker_penalty"),
        ({"turn_seconds": 0}, "turn_seconds"),
        ({"turn_seconds": "60"}, "turn_seconds"),
        ({"turn_seconds": True}, "turn_seconds"),
        ({"timeout_penalty": 21}, "timeout_penalty"),
        ({"invalid_penalty": -3}, "invalid_penalty"),
        ({"joker_rule": "loose"}, "joker_rule"),
        ({"invalid_play": "ignore"}, "invalid_play"),
        ({"scoring": "golf"}, "scoring"),
        ({"open_then_extend": 1}, "open_then_extend"),
        ({"group_needs_both_colours": "yes"}, "group_needs_both_colours"),
        ({"redraw_first_player": None}, "redraw_first_player"),
        ({"min_players": 5}, "min_players"),
        ({"max_players": 9}, "max_players"),
        ({"match": {"rounds": 0}}, "match.rounds"),
        ({"match": {"rounds": None, "target": None}}, "match"),
        ({"match": {"target": -5}}, "match.target"),
        ({"match": {"rounds": "3"}}, "match.rounds"),
        ({"match": 3}, "match"),
    ],
)
def test_bad_rules_are_rejected_naming_the_field(data: dict[str, Any], field: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_dict(data)
    assert info.value.field == field
    assert field.split(".")[-1] in str(info.value)


def test_bad_rules_json() -> None:
    with pytest.raises(RulesError, match="not valid JSON"):
        Rules.from_json("{colours: 4")
    with pytest.raises(RulesError, match="JSON object or a preset name"):
        Rules.from_dict([1, 2])


def test_replace_rejects_unknown_field() -> None:
    with pytest.raises(RulesError) as info:
        preset("standard").replace(tiles=106)
    assert info.value.field == "tiles"


def test_replace_validates_values() -> None:
    with pytest.raises(RulesError) as info:
        preset("standard").replace(copies=9)
    assert info.value.field == "copies"


def test_unknown_preset_name_is_rejected() -> None:
    with pytest.raises(RulesError) as info:
        preset("house")
    assert info.value.field == "preset"
    assert "standard" in str(info.value)


@settings(deadline=None)
@given(
    st.fixed_dictionaries(
        {
            "colours": st.integers(3, 8),
            "numbers": st.integers(3, 30),
            "copies": st.integers(1, 4),
            "jokers": st.integers(0, 8),
            "opening_value": st.integers(0, 1000),
            "open_then_extend": st.booleans(),
            "joker_rule": st.sampled_from(["free", "strict"]),
            "group_needs_both_colours": st.booleans(),
            "joker_swap_from_rack": st.booleans(),
            "freed_joker_new_set": st.booleans(),
            "joker_penalty": st.integers(0, 1000),
            "turn_seconds": st.none() | st.integers(1, 86400),
            "timeout_penalty": st.integers(0, 20),
            "invalid_play": st.sampled_from(["reject", "penalty"]),
            "invalid_penalty": st.integers(0, 20),
            "scoring": st.sampled_from(["zero-sum", "penalty-points"]),
            "redraw_first_player": st.booleans(),
            "match": st.fixed_dictionaries(
                {"rounds": st.none() | st.integers(1, 1000), "target": st.integers(1, 10**6)}
            ),
        }
    ),
    st.sampled_from(sorted(TABLE)),
)
def test_any_valid_rules_object_round_trips(data: dict[str, Any], name: str) -> None:
    data = {**data, "preset": name, "rack_size": 3, "min_players": 2, "max_players": 3}
    rules = Rules.from_dict(data)
    assert rules.to_dict() == data
    assert Rules.from_json(rules.to_json()) == rules


def test_preset_label_must_be_a_preset_name() -> None:
    # every Rules value must survive to_dict/from_dict; an unknown label could not
    with pytest.raises(RulesError) as info:
        Rules(preset="custom")
    assert info.value.field == "preset"
    with pytest.raises(RulesError):
        preset("standard").replace(preset="house")
    assert preset("standard").replace(preset="casual").preset == "casual"
