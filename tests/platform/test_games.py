"""The game interface: the registry, records of any game, and the conformance suite run on the
tile game and Xpress."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rummikub.bots.play import play_match
from rummikub.bots.registry import bot_levels, get_bot
from rummikub.cli.main import app
from rummikub.core import Action, Observation, RecordError, RoundState, Rules, RulesError, preset
from rummikub.core.interface import Game
from rummikub.core.tiles_game import TILES, TilesGame
from rummikub.games import game_for_format, game_for_rules, get_game, load_any
from rummikub.testing import GameContractError, check_game
from rummikub.xpress import XpressAction, XpressObservation, XpressRules, XpressState
from rummikub.xpress.dice_game import XPRESS, XpressGame

# both games implement the interface (checked by mypy --strict on this file)
TILES_AS_GAME: Game[Rules, RoundState, Action, Observation] = TILES
XPRESS_AS_GAME: Game[XpressRules, XpressState, XpressAction, XpressObservation] = XPRESS


def test_one_name_per_game() -> None:
    assert get_game("tiles") is TILES and get_game("xpress") is XPRESS
    assert get_game("rummikub") is TILES  # the old CLI name still works
    with pytest.raises(RulesError, match="unknown game 'chess' \\(games: tiles, xpress"):
        get_game("chess")
    assert game_for_format("rummikub-game/1") is TILES
    assert game_for_format("rummikub-xpress/1") is XPRESS
    assert game_for_format("chess/1") is None
    assert game_for_rules(preset("standard")) is TILES
    assert game_for_rules(XpressRules()) is XPRESS
    assert bot_levels("tiles") == ("random", "beginner", "greedy", "strategic", "expert")
    assert bot_levels("xpress") == ("random", "greedy", "expert")


def test_records_of_both_games_load_through_one_reader() -> None:
    tiles = play_match(preset("standard"), [get_bot("beginner", 1), get_bot("beginner", 2)], 3)
    dice = play_match(XpressRules(), [get_bot("greedy", game="xpress")] * 2, 3)
    for game, match in ((TILES, tiles), (XPRESS, dice)):
        rec = load_any(game.match_record(match))
        assert rec.game is game
        assert rec.verify() > 0
    with pytest.raises(RecordError, match="unknown record format 'chess/1'"):
        load_any({"format": "chess/1"})


def test_the_tile_game_conforms() -> None:
    summary = check_game(TILES, levels=("random", "beginner", "greedy"), games=1, seed=11)
    assert summary.presets == list(TILES.presets())
    assert summary.matches == len(TILES.presets())
    assert summary.resumed > 0 and summary.decisions > 100


def test_the_tile_game_conforms_with_four_players() -> None:
    summary = check_game(TILES, presets=["standard"], levels=("beginner",), players=4, seed=5)
    assert summary.matches == 2


def test_xpress_conforms() -> None:
    # the contracts are the game's: its cheap bots play (the expert's moves are checked by the
    # bots' own tests, at a fraction of its 32 sampled futures a decision)
    summary = check_game(XPRESS, levels=("greedy", "random"), games=2, seed=3)
    assert summary.presets == ["standard", "lenient"]
    assert summary.rounds == 4 * XpressRules().rounds
    assert summary.resumed > 0


class _LeakyTiles(TilesGame):
    """Shows every rack in the observation: the suite must catch it."""

    def observe(self, state: RoundState, player: int) -> Observation:
        obs = super().observe(state, player)
        return dataclasses.replace(obs, rack=state.racks[(player + 1) % state.players])


class _ClaimsZeroSum(XpressGame):
    def zero_sum(self, rules: XpressRules) -> bool:
        return True


class _ImpureApply(XpressGame):
    """Gives another state each time it is asked."""

    def __init__(self) -> None:
        self.rng = random.Random(1)

    def apply(self, state: XpressState, action: XpressAction) -> XpressState:
        after = super().apply(state, action)
        return dataclasses.replace(after, turn=after.turn + self.rng.randint(0, 1000))


@pytest.mark.parametrize(
    ("game", "contract"),
    [
        (_LeakyTiles(), "observations hide what they must"),
        (_ClaimsZeroSum(), "scores add up to zero"),
        (_ImpureApply(), "apply is deterministic"),
    ],
)
def test_the_suite_catches_a_broken_contract(game: Any, contract: str) -> None:
    levels = ("beginner",) if game.name == "tiles" else ("greedy",)
    with pytest.raises(GameContractError, match=contract):
        check_game(game, presets=[next(iter(game.presets()))], levels=levels, games=1)


def test_an_xpress_tournament_pairs_deals_and_resumes(tmp_path: Path) -> None:
    """The tournament is the platform's: Xpress gets paired deals, standings and resume."""
    out = tmp_path / "x.jsonl"
    args = ["tournament", "--game", "xpress", "--bots", "greedy,random", "-j", "1", "-o", str(out)]
    first = CliRunner().invoke(app, [*args, "-n", "2", "-q", "--json"])
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(app, [*args, "-n", "4", "-q", "--json"])  # resumes: 2 more
    assert again.exit_code == 0, again.output
    standings = json.loads(again.output)
    assert sum(b["games"] for b in standings["bots"]) == 8
    header, *games = [json.loads(line) for line in out.read_text().splitlines()]
    assert header["game"] == "xpress" and len(games) == 4
    assert [g["deal"] for g in games] == [0, 0, 1, 1]  # every deal twice, seats swapped
    records = out.with_name("x.records.jsonl")
    result = CliRunner().invoke(app, ["replay", "--verify", str(records)])
    assert result.exit_code == 0 and "ok: 4 records verified" in result.output
    result = CliRunner().invoke(
        app, ["tournament", "--game", "xpress", "--bots", "cmd:x", "-o", str(out)]
    )
    assert result.exit_code != 0 and "outside programs play tiles only, not xpress" in result.output
