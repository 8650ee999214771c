"""The search bot's view in the analysis: the mover's win chance before and after each move,
from his own observation only."""

from __future__ import annotations

import random

from typer.testing import CliRunner

from rummikub.analysis.chances import win_chance
from rummikub.cli.main import app
from rummikub.core import Play, Table, apply, parse_tiles
from rummikub.core.tiles_game import TILES

from .test_analysis import position


def test_a_player_about_to_go_out_is_the_favourite() -> None:
    out = position("R10 R11 R12 R13", opened=True)
    before = win_chance(out, 0, samples=8, seed="t")
    assert before == 1.0  # going out is the playouts' first move
    after = apply(out, Play(parse_tiles("R10 R11 R12 R13"), Table.parse("R10 R11 R12 R13")))
    assert win_chance(after, 0, samples=8, seed="t") == 1.0  # the round is over: he won
    assert win_chance(after, 1, samples=8, seed="t") == 0.0


def test_the_chance_uses_only_what_the_player_sees() -> None:
    state = position("R1 R5 K9 B2 O11 K3", opened=True)
    seen = win_chance(state, 0, samples=6, seed="s")
    other = TILES.redeal_hidden(state, 0, random.Random(3))
    assert other.racks[1] != state.racks[1]
    assert win_chance(other, 0, samples=6, seed="s") == seen
    assert 0.0 <= seen <= 1.0


def test_analyse_reports_win_chances(tmp_path: object) -> None:
    from pathlib import Path

    games = Path(str(tmp_path)) / "g.jsonl"
    runner = CliRunner()
    args = ["simulate", "-n", "1", "--bots", "greedy,beginner", "-o", str(games), "-q"]
    assert runner.invoke(app, args).exit_code == 0
    result = runner.invoke(app, ["analyse", "--json", "--win-chance", "2", str(games)])
    assert result.exit_code == 0, result.output
    import json

    turns = json.loads(result.output)["turns"]
    assert all(0 <= t["win_chance"]["before"] <= 1 for t in turns)
    last = turns[-1]
    assert last["win_chance"]["after"] in (0.0, 1.0)  # the round is over after the last turn
