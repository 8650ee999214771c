"""Observations: a player sees his own rack and public facts, never hidden tiles."""

from __future__ import annotations

import dataclasses
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.core import Draw, Match, Observation, Rack, observe

from .strategies import STANDARD

HIDDEN_FIELDS = {"racks", "pool"}


def test_observation_fields_hold_no_hidden_information() -> None:
    names = {f.name for f in dataclasses.fields(Observation)}
    assert not names & HIDDEN_FIELDS
    assert {"rack", "table", "rack_sizes", "pool_size", "opened", "scores", "time_left"} <= names


def test_what_a_player_sees() -> None:
    match = Match(STANDARD, ["a", "b", "c"], seed=4)
    match.act(Draw())
    state = match.state
    obs = match.observation(1, time_left=42.5)
    assert obs.rack == state.racks[1]
    assert obs.table == state.table
    assert obs.rack_sizes == tuple(len(r) for r in state.racks)
    assert obs.pool_size == len(state.pool)
    assert obs.opened == state.opened
    assert obs.time_left == 42.5
    assert obs.current == state.current and obs.my_turn == (state.current == 1)
    assert obs.players == 3 and not obs.has_opened


def test_json_forms_leak_nothing() -> None:
    match = Match(STANDARD, ["a", "b"], seed=4)
    obs = match.observation(0)
    data = obs.to_json()
    text = json.dumps(data)
    assert "pool" not in {k for k in data if k != "pool_size"}
    others = match.state.racks[1]
    assert data["rack"] == match.state.racks[0].to_json()
    assert others.to_json() != data["rack"]
    assert json.dumps(others.to_json())[1:-1] not in text
    pos = obs.position()
    assert set(pos) == {"table", "rack", "opened", "rules"}
    assert pos["rack"] == data["rack"] and pos["opened"] is False


@settings(deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 3), st.randoms(use_true_random=False))
def test_hidden_tiles_never_change_the_observation(
    seed: int, player: int, rng: random.Random
) -> None:
    match = Match(STANDARD, ["a", "b", "c", "d"], seed=seed)
    for _ in range(rng.randrange(6)):
        match.act(Draw())
    state = match.state
    # deal the hidden tiles (other racks and the pool) differently, keeping every size
    hidden = [t for i, r in enumerate(state.racks) if i != player for t in r.tiles]
    hidden += list(state.pool)
    rng.shuffle(hidden)
    racks = []
    for i, r in enumerate(state.racks):
        if i == player:
            racks.append(r)
        else:
            racks.append(Rack(tuple(hidden[: len(r)])))
            hidden = hidden[len(r) :]
    other = dataclasses.replace(state, racks=tuple(racks), pool=tuple(hidden))
    assert observe(other, player) == observe(state, player)
    assert observe(other, player).to_json() == observe(state, player).to_json()
