"""Every bot answers within its time budget whatever the position: racks of every size up to
the largest a preset allows (issue 35: the meld packing of ``beginner`` and ``random`` took
minutes on a rack of 52 tiles, and a guest could make a stand-in bot hold one)."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummikub.bots import bot_levels, get_bot
from rummikub.bots.moves import is_legal, pack_rack
from rummikub.core import PRESETS, Observation, Play, Rack, RoundState, Table
from rummikub.core.observation import observe
from rummikub.solver.warm import warm_up

#: the bots' time limit in these positions
LIMIT = 0.2
#: the bound on an answer: the limit, twice over (the expert may go on to twice its budget
#: for its least number of deals), and room for a machine busy with other work. The packing
#: this guards against took over 45 s on 52 tiles.
BOUND = 2 * LIMIT + 5.0
#: two players: the other holds 14 tiles, the rest may be in the rack
OTHER = 14


@pytest.fixture(scope="module", autouse=True)
def _kernels_loaded() -> None:
    """Compiling the solver's kernels (on a fresh machine) is not a bot's answer: every level
    answers once, opened and not, untimed, before any answer is timed."""
    warm_up()
    for opened in (False, True):
        obs = _position("standard", 20, 30, opened, seed=1)
        for level in bot_levels("tiles"):
            get_bot(level, seed=1).act(obs, LIMIT)


def _position(preset: str, size: int, table_tiles: int, opened: bool, seed: int) -> Observation:
    """A 2-player position whose rack holds ``size`` tiles, with about ``table_tiles`` tiles on
    the table in valid melds and the rest of the set in the pool."""
    rules = PRESETS[preset]
    tiles = list(rules.all_tiles())
    random.Random(seed).shuffle(tiles)
    rack, other, rest = tiles[:size], tiles[size : size + OTHER], tiles[size + OTHER :]
    melds = pack_rack(rest[:table_tiles], rules, opening=False)
    on_table = [t for m in melds for t in m.tiles]
    pool = list(rest)
    for t in on_table:
        pool.remove(t)
    state = RoundState(
        rules,
        (Rack(tuple(rack)), Rack(tuple(other))),
        Table(melds),
        tuple(pool),
        (opened, bool(melds)),
        0,
    )
    assert state.tile_total() == len(tiles)
    return observe(state, 0)


def _answers_in_time(obs: Observation, level: str) -> None:
    bot = get_bot(level, seed=1)
    start = time.perf_counter()
    action = bot.act(obs, LIMIT)
    spent = time.perf_counter() - start
    assert spent < BOUND, f"{level} took {spent:.1f} s on a rack of {len(obs.rack)} tiles"
    if isinstance(action, Play):
        assert is_legal(obs, action), (level, str(action))


@pytest.mark.parametrize("level", bot_levels("tiles"))
@pytest.mark.parametrize("preset", ["standard", "xp"])
@pytest.mark.parametrize("opened", [False, True], ids=["unopened", "opened"])
def test_the_largest_rack_a_preset_allows(level: str, preset: str, opened: bool) -> None:
    size = len(PRESETS[preset].all_tiles()) - OTHER
    _answers_in_time(_position(preset, size, 0, opened, seed=size), level)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["standard", "xp"]),
    fill=st.floats(0, 1),
    table_share=st.floats(0, 1),
    opened=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_racks_of_every_size(
    preset: str, fill: float, table_share: float, opened: bool, seed: int
) -> None:
    total = len(PRESETS[preset].all_tiles())
    size = round(fill * (total - OTHER))
    table_tiles = round(table_share * (total - OTHER - size))
    obs = _position(preset, size, table_tiles, opened, seed)
    for level in bot_levels("tiles"):
        _answers_in_time(obs, level)
