"""The tile game's hint when the best move is to draw: it says whether tiles would fit (keeping
them is then the better move) or nothing fits, in every front end."""

from __future__ import annotations

from rummikub.bots.hints import hint, most_placeable
from rummikub.core import Draw, observe
from rummikub.core.tiles_game import TILES
from rummikub.server.rooms.hints import compute_hint

from ..analysis.test_analysis import position


def test_a_hint_to_hold_says_how_many_tiles_would_fit() -> None:
    # opened, R1 R2 R3 could go down, the pool is full: holding is the better move
    # (tests/bots/test_evaluation.py), and the hint says the three tiles would fit
    obs = observe(position("R1 R2 R3 B9 K5 O12", opened=True), 0)
    assert isinstance(hint(TILES, obs, 30.0), Draw)
    assert most_placeable(obs) == 3
    assert compute_hint(obs, 30.0) == {"tiles": [], "table": None, "placeable": 3}


def test_a_hint_to_draw_when_nothing_fits_says_so() -> None:
    obs = observe(position("R1 K3 B5 O7 R9 K11", opened=True), 0)
    assert most_placeable(obs) == 0
    assert compute_hint(obs, 30.0) == {"tiles": [], "table": None, "placeable": 0}


def test_a_hint_to_play_names_the_tiles() -> None:
    obs = observe(position("R10 R11 R12 R13", opened=True), 0)
    shown = compute_hint(obs, 30.0)
    assert sorted(shown["tiles"]) == ["R10", "R11", "R12", "R13"]
    assert shown["table"] == [["R10", "R11", "R12", "R13"]] and "placeable" not in shown
