"""``freed_joker_new_set`` and ``joker_swap_from_rack`` in the bots and the hints: no bot and no
hint ever leaves a replaced joker in its run (``R5 J R7`` + R6 -> ``R5 R6 R7 J``)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.bots import BOTS, get_bot
from rummikub.bots.moves import is_legal
from rummikub.core import Observation, Play, Rack, Rules, Table, parse_tiles, preset
from rummikub.core.melds import replaced_joker_kept
from rummikub.server.rooms.hints import compute_hint

NEW_SET = preset("standard").replace(freed_joker_new_set=True)
RULES = [NEW_SET, preset("classic-strict")]


def _obs(rules: Rules, rack: str, table: str, pool: int = 0) -> Observation:
    return Observation(0, rules, Rack(parse_tiles(rack)), Table.parse(table),
                       (len(parse_tiles(rack)), 14), pool, (True, True), 0, 20, 0,
                       (0, 0))  # fmt: skip


@pytest.mark.parametrize("rules", RULES, ids=["standard+new-set", "classic-strict"])
@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_never_keep_a_replaced_joker_in_its_run(rules: Rules, name: str) -> None:
    # the only play that places R6 would keep the joker in its run; R6 K1 cannot go down
    obs = _obs(rules, "R6 K1", "R5 J R7 | K9 B9 O9")
    for seed in range(4):
        action = get_bot(name, seed).act(obs, 2.0)
        assert not isinstance(action, Play), (name, seed, action)
    # without the option the free rule lets R6 replace the joker, which then extends the run
    free = _obs(preset("standard"), "R6 K1", "R5 J R7 | K9 B9 O9")
    assert is_legal(free, Play(tuple(parse_tiles("R6")), Table.parse("R5 R6 R7 J | K9 B9 O9")))


@pytest.mark.parametrize("rules", RULES, ids=["standard+new-set", "classic-strict"])
def test_hints_never_keep_a_replaced_joker_in_its_run(rules: Rules) -> None:
    # to draw, and nothing fits (the count of what could be placed keeps the rule too)
    hint = compute_hint(_obs(rules, "R6 K1", "R5 J R7 | K9 B9 O9"))
    assert hint == {"tiles": [], "table": None, "placeable": 0}
    hint = compute_hint(_obs(preset("standard"), "R6 K1", "R5 J R7 | K9 B9 O9"))
    assert hint["tiles"] == ["R6"]  # (the free rule's hint does replace the joker)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), name=st.sampled_from(["greedy", "expert", "random"]))
def test_bot_plays_under_the_new_options_are_legal(seed: int, name: str) -> None:
    rng = random.Random(seed)
    colour = rng.choice("KRBO")
    start = rng.randint(1, 9)
    run = [f"{colour}{n}" for n in range(start, start + rng.randint(3, 5))]
    hole = rng.randrange(len(run))
    role = run[hole]
    run[hole] = "J"
    used = Counter([*run, role, "K11", "B11", "O11"])
    extra: list[str] = []
    while len(extra) < rng.randint(2, 6):  # (at most two copies of a tile)
        tile = f"{rng.choice('KRBO')}{rng.randint(1, 13)}"
        if used[tile] < 2:
            used[tile] += 1
            extra.append(tile)
    rack = " ".join([role, *extra])
    rules = rng.choice(RULES)
    obs = _obs(rules, rack, " ".join(run) + " | K11 B11 O11")
    action = get_bot(name, seed).act(obs, 2.0)
    # a bot may draw; whatever it plays is legal and frees no joker into its own run
    table = action.table if isinstance(action, Play) else obs.table
    assert not isinstance(action, Play) or is_legal(obs, action)
    assert replaced_joker_kept(obs.table.melds, table.melds, rules) is None
