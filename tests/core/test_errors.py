"""Errors carry a machine-readable code and its params; misuse of the API is its own type."""

from __future__ import annotations

import json

import pytest

from rummikub.core import (
    Code,
    IllegalPlayError,
    Match,
    NotationError,
    RecordError,
    RoundState,
    Rules,
    RulesError,
    RummikubError,
    UsageError,
    parse_tile,
    preset,
)

from .refusals import REFUSALS, Refusal
from .strategies import STANDARD


@pytest.mark.parametrize("refusal", REFUSALS, ids=lambda r: r.name)
def test_every_refusal_carries_its_code_and_params(refusal: Refusal) -> None:
    err = refusal.error()
    assert isinstance(err, IllegalPlayError), err
    assert err.code == refusal.code and isinstance(err.code, Code)
    assert err.params == refusal.params
    assert err.reason == refusal.code  # the old name of the code
    # JSON-able as they are: what the server sends
    assert json.loads(json.dumps({"code": err.code, "params": err.params})) == {
        "code": refusal.code,
        "params": refusal.params,
    }
    # the English for developers names the same tiles (a lone meld's text names no meld)
    for key, value in err.params.items():
        if isinstance(value, str) and value not in set(Code) and key != "meld":
            assert value in str(err), (value, str(err))


def test_a_refusal_names_the_meld_to_blame() -> None:
    err = next(r for r in REFUSALS if r.name == "meld too short").error()
    assert isinstance(err, IllegalPlayError) and err.meld == 2 and err.params["number"] == 3


def test_the_codes_are_the_reasons_of_before() -> None:
    assert len({c.value for c in Code}) == len(Code)
    assert Code("invalid-meld") is Code.INVALID_MELD
    # older callers still construct the error with a reason string
    err = IllegalPlayError("no", reason="joker-rule")
    assert err.code is Code.JOKER_RULE and err.reason == "joker-rule" and err.params == {}
    assert IllegalPlayError("no").code is Code.ILLEGAL
    with pytest.raises(ValueError):
        IllegalPlayError("no", reason="not-a-code")


def test_misuse_of_the_api_is_not_an_illegal_play() -> None:
    with pytest.raises(UsageError) as err:
        _start_with_first(5)
    assert err.value.code is Code.BAD_SEAT and err.value.params == {"seat": 5}
    assert not isinstance(err.value, IllegalPlayError)
    assert isinstance(err.value, RummikubError) and isinstance(err.value, ValueError)


def _start_with_first(first: int) -> RoundState:
    match = Match(STANDARD, ["a", "b"], seed=1)
    state = match.state
    return RoundState.start(STANDARD, state.racks, state.pool, first)


def test_input_errors_have_codes_too() -> None:
    with pytest.raises(NotationError) as notation:
        parse_tile("X4")
    assert notation.value.code is Code.BAD_NOTATION
    assert notation.value.params == {"token": "X4"}
    with pytest.raises(RulesError) as rules:
        Rules.from_dict({"rack_size": 0})
    assert rules.value.code is Code.BAD_RULES and rules.value.params == {"field": "rack_size"}
    with pytest.raises(RulesError) as players:
        Match(preset("standard"), ["a", "b", "c", "d", "e"], seed=1)
    assert players.value.code is Code.PLAYER_COUNT
    assert players.value.params == {"field": "max_players", "count": 5, "min": 2, "max": 4}
    record = RecordError("broken", round=0, turn=4)
    assert record.code is Code.BAD_RECORD and record.params == {"round": 1, "turn": 5}
    assert RummikubError("plain").code is Code.ERROR
