"""The findings of a turn: a missed going out, a missed opening, a draw although a play existed,
a joker given away."""

from __future__ import annotations

from rummikub.analysis import judge_tile_turn
from rummikub.core import RoundState, Table, TurnLog, parse_tiles

from .test_analysis import after_of, position


def findings(state: RoundState, log: TurnLog) -> tuple[str, ...]:
    return judge_tile_turn(state, log, round=0, turn=0, after=after_of(state, log)).findings


def play(tiles: str) -> TurnLog:
    """Player 0 lays ``tiles`` as one new meld (the positions' tables are empty)."""
    return TurnLog(0, "play", play=parse_tiles(tiles), table=Table.parse(tiles))


def test_each_finding_on_a_known_position() -> None:
    out = position("R10 R11 R12 R13", opened=True)
    draw = TurnLog(0, "draw", tile=out.pool[0])
    assert findings(out, draw) == ("missed-out", "drew-with-play")
    assert findings(out, play("R10 R11 R12 R13")) == ()
    # an unopened player who could open (33 points) and drew
    opening = position("R10 R11 R12 K1", opened=False)
    assert findings(opening, TurnLog(0, "draw", tile=opening.pool[0])) == ("missed-opening",)
    # one who could not open is not blamed
    low = position("R1 R2 R3 K9", opened=False)
    assert findings(low, TurnLog(0, "draw", tile=low.pool[0])) == ()
    # a rack joker laid without going out is given away; laid to go out, it is not
    joker = position("R5 R6 J K1", opened=True)
    assert findings(joker, play("R5 R6 J")) == ("joker-given",)
    last = position("R5 R6 J", opened=True)
    assert findings(last, play("R5 R6 J")) == ()


def test_findings_are_in_the_json() -> None:
    out = position("R10 R11 R12 R13", opened=True)
    draw = TurnLog(0, "draw", tile=out.pool[0])
    judged = judge_tile_turn(out, draw, round=0, turn=0, after=after_of(out, draw))
    assert judged.to_json()["findings"] == ["missed-out", "drew-with-play"]
