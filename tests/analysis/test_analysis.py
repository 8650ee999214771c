"""Game analysis: known verdicts on hand-made positions, the mover's view only, both games, and
``rummikub analyse`` on the command line."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummikub.analysis import analyse, judge_tile_turn, judge_xpress_turn, verdict
from rummikub.bots import get_bot, play_match
from rummikub.cli.main import app
from rummikub.core import Rack, RoundState, TurnLog, parse_tiles, preset, replay
from rummikub.core.tiles_game import TILES
from rummikub.games import load_any
from rummikub.xpress import XpressRules, XpressState, default_layout
from rummikub.xpress.dice import DieFace
from rummikub.xpress.dice_game import XPRESS

runner = CliRunner()
RULES = preset("standard")


def position(rack: str, *, opened: bool) -> RoundState:
    """Player 0 to move with ``rack``, the other rack and the pool from the rest of the set."""
    mine = parse_tiles(rack)
    rest = list(RULES.all_tiles())
    for t in mine:
        rest.remove(t)
    random.Random(1).shuffle(rest)
    state = RoundState.start(RULES, [Rack(mine), Rack(tuple(rest[:14]))], rest[14:], 0)
    return dataclasses.replace(state, opened=(opened, True))


def judge(state: RoundState, log: TurnLog) -> str:
    return judge_tile_turn(state, log, round=0, turn=0, time_limit=None).verdict


def test_known_verdicts_of_the_tile_game() -> None:
    out = position("R10 R11 R12 R13", opened=True)
    assert judge(out, TurnLog(0, "draw", tile=out.pool[0])) == "blunder"  # a missed going out
    best = judge_tile_turn(
        out, TurnLog(0, "play", play=parse_tiles("R10 R11 R12 R13")), round=0, turn=0,
        time_limit=None,
    )  # fmt: skip
    assert best.verdict == "best" and best.lost == 0 and best.could_go_out
    assert best.best == [["R10", "R11", "R12", "R13"]]
    # R10-R13 could all go; playing three of them keeps the 13 (13 points): an inaccuracy
    part = TurnLog(0, "play", play=parse_tiles("R10 R11 R12"))
    assert judge(position("R10 R11 R12 R13 K1", opened=True), part) == "inaccuracy"
    # K9 K10 K11 K12 R12 B12: playing only K9-K11 keeps 36 points the best play places
    short = TurnLog(0, "play", play=parse_tiles("K9 K10 K11"))
    assert judge(position("K9 K10 K11 K12 R12 B12 O1", opened=True), short) == "blunder"
    # an unopened player with 6 points of melds cannot open: drawing is forced, not blamed
    low = position("R1 R2 R3 K9", opened=False)
    assert judge(low, TurnLog(0, "draw", tile=low.pool[0])) == "forced"
    # an invalid play draws a penalty: a blunder whatever the position
    assert judge(low, TurnLog(0, "invalid", penalty=low.pool[:3])) == "blunder"


def test_thresholds() -> None:
    lost = (0, 5, 6, 15, 16, 30, 31)
    assert [verdict(could_place=True, lost=n, missed_out=False) for n in lost] == [
        "best", "good", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder",
    ]  # fmt: skip
    assert verdict(could_place=False, lost=0, missed_out=False) == "forced"
    assert verdict(could_place=True, lost=0, missed_out=True) == "blunder"


def test_the_analysis_uses_only_what_the_mover_saw() -> None:
    """Every turn of a 4-player game judged again with the other racks and the pool dealt anew:
    the same verdicts, the same better plays."""
    bots = [
        get_bot(level, seat)
        for seat, level in enumerate(["greedy", "beginner", "random", "strategic"])
    ]
    match = play_match(RULES, bots, 21)
    rec = load_any(TILES.match_record(match)).record
    rng = random.Random(5)
    judged = 0
    for step in replay(rec):  # type: ignore[arg-type]
        seen = judge_tile_turn(step.before, step.log, round=0, turn=0, time_limit=None)
        other = TILES.redeal_hidden(step.before, step.log.player, rng)
        assert other.racks != step.before.racks or other.pool != step.before.pool
        again = judge_tile_turn(other, step.log, round=0, turn=0, time_limit=None)
        assert again == seen
        judged += 1
    assert judged > 30


def test_a_whole_game_of_each_game() -> None:
    match = play_match(RULES, [get_bot("greedy", 1), get_bot("beginner", 2)], 8)
    tiles = analyse(load_any(TILES.match_record(match)))
    assert len(tiles.turns) == sum(len(r.turns) for r in match.rounds)
    greedy, beginner = tiles.summary()
    assert greedy.accuracy == 100.0 and greedy.verdicts["blunder"] == 0  # it places the most
    assert beginner.accuracy is not None and beginner.accuracy < greedy.accuracy
    dice = play_match(
        XpressRules(), [get_bot("greedy", game="xpress"), get_bot("random", 3, game="xpress")], 4
    )
    xpress = analyse(load_any(XPRESS.match_record(dice)))
    assert {t.player for t in xpress.turns} == {0, 1}
    # greedy places the most it can every time: only its throws (dice kept) can lose points
    mine = [t for t in xpress.turns if t.player == 0]
    assert all(t.points == t.best_points for t in mine)
    assert all(t.lost == (t.throw.lost if t.throw else 0) for t in mine)
    assert any(t.throw is not None for t in mine)
    greedy_summary, random_summary = xpress.summary()
    assert greedy_summary.accuracy is not None and random_summary.accuracy is not None
    assert greedy_summary.accuracy > random_summary.accuracy
    data = json.loads(json.dumps(xpress.to_json()))
    assert data["format"] == "rummikub-analysis/1" and data["game"] == "xpress"
    assert set(data["turns"][0]) >= {"round", "turn", "player", "verdict", "best"}


def test_an_xpress_turn_that_ends_holding_a_placeable_hand() -> None:
    layout = default_layout()
    faces = parse_tiles("R1 R2 R3")
    dice: list[int] = []
    for face in faces:  # a die that can show the face, not taken yet
        free = [d for d in range(len(layout)) if d not in dice]
        dice.append(next(d for d in free if face in layout.faces_of(d)))
    hand = tuple(DieFace(d, f) for d, f in zip(dice, faces, strict=True))
    rest = [d for d in range(len(layout)) if d not in dice][:3]
    other = tuple(DieFace(d, layout.faces_of(d)[0]) for d in rest)
    rules = XpressRules(dice_per_player=3)
    state = XpressState.start(rules, layout, [hand, other], 0)
    ended = judge_xpress_turn(state, [], round=0, turn=0)
    assert ended.verdict == "blunder" and ended.could_go_out and ended.best_points == 6


def test_analyse_on_the_command_line(tmp_path: Path) -> None:
    games = tmp_path / "g.jsonl"
    args = ["simulate", "-p", "3", "-n", "2", "--bots", "greedy,beginner,random", "-o", str(games)]
    assert runner.invoke(app, [*args, "-q"]).exit_code == 0
    one = tmp_path / "one.json"
    one.write_text(games.read_text().splitlines()[0])
    result = runner.invoke(app, ["analyse", str(one), "-q"])
    assert result.exit_code == 0, result.output
    assert "accuracy" in result.output and "greedy-1" in result.output
    result = runner.invoke(app, ["analyse", "--json", str(one)])
    data = json.loads(result.output)
    assert data["game"] == "tiles" and data["turns"]
    assert {t["verdict"] for t in data["turns"]} <= {
        "forced", "best", "good", "inaccuracy", "mistake", "blunder",
    }  # fmt: skip
    result = runner.invoke(app, ["analyse", str(games), "-q"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].split()[:2] == ["bot", "games"]
    assert "greedy" in result.output and "beginner" in result.output
    broken = json.loads(one.read_text())
    first = broken["rounds"][0]["turns"][0]
    first["player"] = (first["player"] + 1) % 3  # out of turn
    one.write_text(json.dumps(broken))
    result = runner.invoke(app, ["analyse", str(one)])
    assert result.exit_code != 0 and "round 1, turn 1" in result.output


@pytest.mark.parametrize("bad", [["--time-limit", "0"], ["--jobs", "0"]])
def test_analyse_checks_its_options(tmp_path: Path, bad: list[str]) -> None:
    result = runner.invoke(app, ["analyse", str(tmp_path / "x.json"), *bad])
    assert result.exit_code != 0 and "must be" in result.output
