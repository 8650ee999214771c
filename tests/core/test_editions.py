"""The presets against the printed editions they follow (docs/rules.md, "Presets"): the
Swedish tin edition (seed 001) and the first player of later rounds (seed 002)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from rummikub.core import IllegalPlayError, Match, Play, Table, Timeout, preset
from rummikub.core.game import choose_first
from rummikub.core.record import load_record, match_record, verify

#: the presets whose printed edition starts every round by following the set-up again
REDRAW = {"standard", "swedish-tin", "classic-strict", "xp"}


def test_swedish_tin_illegal_play_is_taken_back_with_three_penalty_tiles() -> None:
    match = Match(preset("swedish-tin"), ["Ann", "Bo"], seed=5)
    state = match.state
    rack = state.rack
    # an "opening" of three tiles that are no set: illegal, so it is taken back
    tiles = tuple(rack.tiles[:3])
    log = match.act(Play(tiles, Table.parse(" ".join(str(t) for t in tiles))))
    assert log.action == "invalid"
    assert log.penalty == state.pool[:3]
    assert match.state.table == state.table  # nothing of the attempt stayed on the table
    assert match.state.racks[0].counts() == rack.counts() + Counter(log.penalty)
    assert match.state.current == 1  # and the turn ended


def test_swedish_tin_timeout_draws_one_tile() -> None:
    match = Match(preset("swedish-tin"), ["Ann", "Bo"], seed=5)
    pool = match.state.pool
    log = match.act(Timeout())
    assert log.action == "timeout" and log.penalty == pool[:1]


def test_standard_refuses_the_same_illegal_play_without_penalty() -> None:
    match = Match(preset("standard"), ["Ann", "Bo"], seed=5)
    tiles = tuple(match.state.rack.tiles[:3])
    with pytest.raises(IllegalPlayError):
        match.act(Play(tiles, Table.parse(" ".join(str(t) for t in tiles))))
    assert match.state.current == 0


def _firsts(name: str, seed: int, rounds: int = 5) -> tuple[Match, list[int]]:
    rules = preset(name).replace(match={"rounds": rounds, "target": None})
    match = Match(rules, ["a", "b", "c", "d"], seed=seed)
    while True:
        match.abandon()
        if match.over:
            break
        match.next_round()
    return match, [r.first for r in match.rounds]


@pytest.mark.parametrize(
    "name", ["standard", "swedish-tin", "classic-strict", "xp", "tournament", "casual"]
)
def test_first_player_of_later_rounds(name: str) -> None:
    match, firsts = _firsts(name, seed=11)
    if name in REDRAW:
        # seed 002: "begin the next round by following directions under set-up"
        assert preset(name).redraw_first_player
        expected = [
            choose_first(random.Random(f"rummikub/11/{i}"), match.rules, 4) for i in range(5)
        ]
    else:
        assert not preset(name).redraw_first_player
        expected = [(firsts[0] + i) % 4 for i in range(5)]
    assert firsts == expected
    # the record of the match replays and verifies
    verify(load_record(json.loads(json.dumps(match_record(match)))))


def test_redraw_differs_from_moving_on_for_this_seed() -> None:
    # (so the test above tells the two behaviours apart)
    _, firsts = _firsts("standard", seed=11)
    assert firsts != [(firsts[0] + i) % 4 for i in range(5)]


def test_an_old_record_with_the_start_moving_on_still_verifies() -> None:
    match, _ = _firsts("tournament", seed=11)
    rec = json.loads(json.dumps(match_record(match)))
    rec["rules"]["preset"] = "standard"  # written when standard still moved the start on
    for key in ("joker_swap_from_rack", "freed_joker_new_set"):
        del rec["rules"][key]  # ... and before these options existed
    loaded = load_record(rec)
    assert not loaded.rules.redraw_first_player  # the stored value wins over the preset
    verify(loaded)
