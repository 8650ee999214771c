"""The Xpress review judges turns by the chance to win they gave away, as the tile game's: a
move played as the hint said is judged best by the analysis of that same position, and the
verdicts follow the tile game's thresholds."""

from __future__ import annotations

import pytest

from rummikub.analysis import THRESHOLDS, analyse, verdict
from rummikub.bots import get_bot, play_match
from rummikub.bots.hints import xpress_hint
from rummikub.games import load_any
from rummikub.xpress import XpressAction, XpressObservation, XpressRules
from rummikub.xpress.dice_game import XPRESS


class HintBot:
    """Plays every move as the hint says (no time limit: the hint samples in full)."""

    name = "hint"

    def act(self, obs: XpressObservation, time_limit: float | None = None) -> XpressAction:
        action: XpressAction = xpress_hint(obs, 1e6)
        return action


#: deals whose round gives the hint's player several turns (seed 2's round ends after his third)
@pytest.mark.parametrize("seed", [1, 3, 4])
def test_a_move_played_as_the_hint_said_is_judged_best(seed: int) -> None:
    rules = XpressRules(rounds=1)
    match = play_match(rules, [HintBot(), get_bot("greedy", seed, game="xpress")], seed,
                       time_limit=None)  # fmt: skip
    review = analyse(load_any(XPRESS.match_record(match)))
    mine = [t for t in review.turns if t.player == 0]
    assert len(mine) >= 4
    for t in mine:
        assert t.verdict in ("best", "forced"), (t.round, t.turn, t.verdict, t.loss)
        assert t.loss is not None and t.loss <= THRESHOLDS["best"]
        if t.throw is not None:
            assert t.throw.loss <= THRESHOLDS["best"]
            assert sorted(t.throw.kept) == sorted(t.throw.best_kept) or t.throw.loss == 0.0


def test_xpress_verdicts_are_read_from_the_loss_in_win_chance() -> None:
    bots = [get_bot("random", 5, game="xpress"), get_bot("greedy", 6, game="xpress")]
    match = play_match(XpressRules(rounds=1), bots, 7, time_limit=None)
    review = analyse(load_any(XPRESS.match_record(match)))
    seen = set()
    for t in review.turns:
        assert t.loss is not None and t.win_chance is not None
        missed = "missed-out" in t.findings
        if t.verdict == "forced":
            assert not missed and t.loss == 0.0
            assert t.throw is None or t.throw.choices <= 1
        else:
            assert t.verdict == verdict(forced=False, loss=t.loss, missed_out=missed)
        seen.add(t.verdict)
        # the points stay as facts: what was placed, what could have been
        assert t.lost == max(0, t.most_points - t.points) + (t.throw.lost if t.throw else 0)
    assert seen - {"forced", "best"}, "random play makes a worse move somewhere"
    assert all(p.accuracy is not None for p in review.summary())
