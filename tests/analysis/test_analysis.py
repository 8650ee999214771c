"""Game analysis: known verdicts on hand-made positions, the mover's view only, both games, and
``rummikub analyse`` on the command line."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummikub.analysis import (
    accuracy,
    analyse,
    judge_tile_turn,
    judge_xpress_turn,
    move_accuracy,
    verdict,
)
from rummikub.bots import get_bot, play_match
from rummikub.cli.main import app
from rummikub.core import Rack, RoundState, Table, TurnLog, parse_tiles, preset, replay
from rummikub.core.tiles_game import TILES
from rummikub.games import load_any
from rummikub.i18n import translator
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
    """The verdict of a turn whose verdict the rules decide (a missed going out, no choice, an
    invalid play): the sampled deals change nothing of it, so few are played."""
    return judge_tile_turn(
        state, log, round=0, turn=0, after=after_of(state, log), samples=4
    ).verdict


def after_of(state: RoundState, log: TurnLog) -> RoundState:
    """The state a logged turn leads to (what a replay gives the judge)."""
    from rummikub.core import Draw, apply

    if log.action == "invalid":
        return dataclasses.replace(state, current=1 - state.current)
    return apply(state, Draw()) if log.action == "draw" else state


def test_known_verdicts_of_the_tile_game() -> None:
    out = position("R10 R11 R12 R13", opened=True)
    assert judge(out, TurnLog(0, "draw", tile=out.pool[0])) == "blunder"  # a missed going out
    best = judge_tile_turn(
        out, TurnLog(0, "play", play=parse_tiles("R10 R11 R12 R13"),
                     table=Table.parse("R10 R11 R12 R13")), round=0, turn=0, samples=4,
    )  # fmt: skip
    assert best.verdict == "best" and best.lost == 0 and best.could_go_out
    assert best.loss == 0.0 and best.win_chance == (1.0, 1.0)
    assert best.best == [["R10", "R11", "R12", "R13"]] and best.best_changed == (0,)
    assert best.chances == (1.0, 0.0)
    # an unopened player with 6 points of melds cannot open: drawing is forced, not blamed
    low = position("R1 R2 R3 K9", opened=False)
    assert judge(low, TurnLog(0, "draw", tile=low.pool[0])) == "forced"
    # an invalid play draws a penalty: a blunder whatever the position
    assert judge(low, TurnLog(0, "invalid", penalty=low.pool[:3])) == "blunder"


def test_thresholds() -> None:
    losses = (0.0, 2.0, 2.1, 5.0, 5.1, 10.0, 10.1, 20.0, 20.1)
    assert [verdict(forced=False, loss=x, missed_out=False) for x in losses] == [
        "best", "best", "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake",
        "blunder",
    ]  # fmt: skip
    assert verdict(forced=True, loss=0.0, missed_out=False) == "forced"
    assert verdict(forced=False, loss=0.0, missed_out=True) == "blunder"
    assert verdict(forced=False, loss=0.0, missed_out=False, invalid=True) == "blunder"
    # accuracy: lichess's curve per move, the mean of the arithmetic and harmonic means
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(10.0) == pytest.approx(63.6, abs=0.1)
    assert accuracy([100.0, 100.0]) == 100.0 and accuracy([]) is None
    assert accuracy([100.0, 50.0]) == pytest.approx((75.0 + 2 / (1 / 100 + 1 / 50)) / 2, abs=0.1)


def test_a_move_played_as_the_hint_said_is_judged_best() -> None:
    """The hint and the analysis rank the moves of a position with the same evaluation: a move
    played as the hint said is never criticised by the analysis of that position."""
    from rummikub.bots.hints import hint
    from rummikub.core import Draw, Pass, Play, apply, observe

    match = play_match(RULES, [get_bot("greedy", 1), get_bot("strategic", 2)], 5)
    rec = load_any(TILES.match_record(match)).record
    # every fifth position from the first player's opening (a play) to the winner going out
    steps = [s for s in replay(rec)][1:52:5]  # type: ignore[arg-type]
    kinds = set()
    for step in steps:
        state = step.before
        obs = observe(state, state.current)
        action = hint(TILES, obs, 30.0)
        after = apply(state, action)
        if isinstance(action, Play):
            log = TurnLog(state.current, "play", play=action.tiles, table=action.table)
        elif isinstance(action, Draw):
            log = TurnLog(state.current, "draw", tile=state.pool[0])
        else:
            assert isinstance(action, Pass)
            log = TurnLog(state.current, "pass")
        kinds.add(log.action)
        judged = judge_tile_turn(state, log, round=0, turn=0, after=after)
        assert judged.verdict in ("best", "forced"), (step.turn, judged)
        assert judged.loss == 0.0
    assert kinds == {"play", "draw"} and len(steps) == 11


def test_the_analysis_uses_only_what_the_mover_saw() -> None:
    """Turns of a 4-player game judged again with the other racks and the pool dealt anew:
    the same verdicts, the same better moves, the same win chances (at any number of deals: 8
    here)."""
    bots = [
        get_bot(level, seat)
        for seat, level in enumerate(["greedy", "beginner", "random", "strategic"])
    ]
    match = play_match(RULES, bots, 21)
    rec = load_any(TILES.match_record(match)).record
    rng = random.Random(5)
    judged = 0
    for step in list(replay(rec))[::5]:  # type: ignore[arg-type]
        seen = judge_tile_turn(step.before, step.log, round=0, turn=0, after=step.after, samples=8)
        other = TILES.redeal_hidden(step.before, step.log.player, rng)
        assert other.racks != step.before.racks or other.pool != step.before.pool
        moved = TILES.redeal_hidden(step.after, step.log.player, random.Random(judged))
        again = judge_tile_turn(other, step.log, round=0, turn=0, after=moved, samples=8)
        assert again == seen
        judged += 1
    assert judged > 6


def test_a_whole_game_of_each_game() -> None:
    # every turn of a whole game of each is judged; 4 deals a position (the default depth's
    # playouts: the number of deals changes nothing of what is checked here, only the time)
    match = play_match(RULES, [get_bot("greedy", 1), get_bot("beginner", 2)], 8)
    tiles = analyse(load_any(TILES.match_record(match)), samples=4)
    assert len(tiles.turns) == sum(len(r.turns) for r in match.rounds)
    for t in tiles.turns:  # every tile-game turn carries the judgement
        assert t.win_chance is not None and t.loss is not None and t.chances is not None
        assert sum(t.chances) == pytest.approx(1.0)
        assert 0.0 <= t.loss <= max(0.0, 100 * (t.win_chance[0] - t.win_chance[1])) + 1e-9
    greedy, beginner = tiles.summary()
    assert greedy.accuracy is not None and beginner.accuracy is not None
    assert greedy.loss is not None and beginner.loss is not None
    data = json.loads(json.dumps(tiles.to_json()))
    assert data["format"] == "rummikub-analysis/2" and data["depth"] == "default"
    assert {"win_chance", "loss", "chances", "best_action", "best_changed", "most_points"} <= set(
        data["turns"][0]
    )
    dice = play_match(
        XpressRules(rounds=2),
        [get_bot("greedy", game="xpress"), get_bot("random", 3, game="xpress")],
        4,
    )
    # the review's default 16 futures: at 4 the two players' accuracies lie within the noise
    xpress = analyse(load_any(XPRESS.match_record(dice)), samples=16)
    assert {t.player for t in xpress.turns} == {0, 1}
    # judged by the chance to win, as tile-game turns are
    for t in xpress.turns:
        assert t.win_chance is not None and t.loss is not None and t.chances is not None
        assert sum(t.chances) == pytest.approx(1.0)
        assert all(0.0 <= x <= 1.0 for x in t.win_chance) and t.loss >= 0.0
    # greedy places the most it can every time: the points it left are its throws' (facts)
    mine = [t for t in xpress.turns if t.player == 0]
    assert all(t.points == t.most_points for t in mine)
    assert all(t.lost == (t.throw.lost if t.throw else 0) for t in mine)
    assert any(t.throw is not None for t in mine)
    greedy_summary, random_summary = xpress.summary()
    assert greedy_summary.accuracy is not None and random_summary.accuracy is not None
    assert greedy_summary.accuracy > random_summary.accuracy
    data = json.loads(json.dumps(xpress.to_json()))
    assert data["format"] == "rummikub-analysis/2" and data["game"] == "xpress"
    assert set(data["turns"][0]) >= {"round", "turn", "player", "verdict", "best", "win_chance"}
    throws = [t["throw"] for t in data["turns"] if "throw" in t]
    assert throws and all({"kept", "best_kept", "win_chance", "loss"} <= set(x) for x in throws)


def test_the_deep_depth_plays_to_the_end_of_the_round() -> None:
    # going out with the opening; a player who has not opened draws without holding his
    # tiles (the hold plan is for opened players)
    out = position("R10 R11 R12 R13", opened=False)
    log = TurnLog(0, "draw", tile=out.pool[0])
    deep = judge_tile_turn(out, log, round=0, turn=0, after=after_of(out, log), depth="deep",
                           samples=4)  # fmt: skip
    assert deep.win_chance is not None and deep.win_chance[0] == 1.0
    assert deep.best_action == "play" and deep.verdict == "blunder"
    assert deep.win_chance[1] < 1.0  # played to the end of the round, the draw can lose


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
    # quick games (greedy and strategic place what they can: small racks, short rounds)
    args = ["simulate", "-p", "2", "-n", "2", "--bots", "greedy,strategic", "-o", str(games)]
    assert runner.invoke(app, [*args, "-q"]).exit_code == 0
    one = tmp_path / "one.json"
    one.write_text(games.read_text().splitlines()[0])
    # four deals a position: the command's workings, not the verdicts' steadiness
    result = runner.invoke(app, ["analyse", str(one), "-q", "--samples", "4"])
    assert result.exit_code == 0, result.output
    assert "accuracy" in result.output and "greedy-1" in result.output
    result = runner.invoke(app, ["analyse", "--json", "--samples", "4", str(one)])
    data = json.loads(result.output)
    assert data["game"] == "tiles" and data["turns"]
    assert {t["verdict"] for t in data["turns"]} <= {
        "forced", "best", "good", "inaccuracy", "mistake", "blunder",
    }  # fmt: skip
    # in Swedish the numbers are written the Swedish way (99,1)
    result = runner.invoke(app, ["analyse", str(one), "-q", "--samples", "4", "--lang", "sv"])
    assert result.exit_code == 0, result.output
    sv = translator("sv")
    for player in data["players"]:
        shown = sv.decimal(player["accuracy"])
        assert "," in shown and shown in result.output, (shown, result.output)
    result = runner.invoke(app, ["analyse", str(games), "-q", "--samples", "4"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].split()[:2] == ["bot", "games"]
    assert "greedy" in result.output and "strategic" in result.output
    broken = json.loads(one.read_text())
    first = broken["rounds"][0]["turns"][0]
    first["player"] = (first["player"] + 1) % 2  # out of turn
    one.write_text(json.dumps(broken))
    result = runner.invoke(app, ["analyse", str(one)])
    assert result.exit_code != 0 and "round 1, turn 1" in result.output


def test_analyse_checks_its_options(tmp_path: Path) -> None:
    result = runner.invoke(app, ["analyse", str(tmp_path / "x.json"), "--jobs", "0"])
    assert result.exit_code != 0 and "--jobs must be at least 1" in result.output
    result = runner.invoke(app, ["analyse", str(tmp_path / "x.json"), "--samples", "0"])
    assert result.exit_code != 0 and "--samples must be at least 1" in result.output


def test_an_unknown_game_format_names_the_formats_known(tmp_path: Path) -> None:
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps({"format": "chess-game/1"}))
    result = runner.invoke(app, ["analyse", "--json", str(odd)])
    assert result.exit_code != 0
    assert "rummikub-game/1" in result.output and "rummikub-xpress/1" in result.output
    assert result.output.count("\n") <= 2
