"""Win chances from one player's observation, by sampled greedy playouts."""

from __future__ import annotations

import pytest

from rummikub.bots.playout import win_chances
from rummikub.core import Observation, Rack, Table, observe, parse_tiles, preset
from rummikub.core.tiles_game import TILES


def _dealt(players: int, seed: int) -> Observation:
    match = TILES.new_match(preset("standard"), [f"p{i}" for i in range(players)], seed)
    state = match.state
    return observe(state, (state.current + 1) % players)  # not the player to move


@pytest.mark.parametrize("players", [2, 3, 4])
def test_chances_are_one_share_per_player_summing_to_one(players: int) -> None:
    chances = win_chances(_dealt(players, 5), samples=3, seed=1)
    assert len(chances) == players
    assert sum(chances) == pytest.approx(1.0)
    assert all(0.0 <= c <= 1.0 for c in chances)


def test_a_player_who_can_go_out_now_wins() -> None:
    obs = Observation(0, preset("standard"), Rack(parse_tiles("R4 R5")), Table.parse("R1 R2 R3"),
                      (2, 3), 30, (True, True), 0, 20, 0, (0, 0))  # fmt: skip
    assert win_chances(obs, samples=8, seed=3) == [1.0, 0.0]
    # the opponent to move with a rack that goes out: his
    other = Observation(1, obs.rules, Rack(parse_tiles("K7 K8 K9")), obs.table, (5, 3), 30,
                        (True, True), 1, 20, 0, (0, 0))  # fmt: skip
    assert win_chances(other, samples=8, seed=3) == [0.0, 1.0]


def test_chances_are_reproducible_with_a_seed() -> None:
    obs = _dealt(2, 9)
    assert win_chances(obs, samples=2, seed=4) == win_chances(obs, samples=2, seed=4)


def test_at_least_one_sample() -> None:
    with pytest.raises(ValueError):
        win_chances(_dealt(2, 1), samples=0, seed=0)
