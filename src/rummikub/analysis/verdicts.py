"""How a move is judged: by the winning chances it gave away, as chess reviews judge moves.

A tile-game turn is judged from the mover's own observation by the evaluation
(:mod:`rummikub.bots.evaluation`): his chance to win before the move is the chance the best
move keeps, his chance after it that of the move he made; the **loss** is the difference in
points of win chance (0-100, never below 0).

=============  ===================================================================
verdict        when
=============  ===================================================================
``forced``     the mover had no choice: nothing could be placed and drawing (or
               passing) was the only move
``best``       at most 2 points of win chance lost
``good``       more than 2, at most 5
``inaccuracy`` more than 5, at most 10
``mistake``    more than 10, at most 20
``blunder``    more than 20, a missed going out (the whole rack or hand could have
               been placed and was not), or an invalid play (it draws a penalty)
=============  ===================================================================

An Xpress turn is judged the same way, with the same thresholds: its two decisions, the dice
thrown again and what was placed once the faces were known, are each ranked by the evaluation
(:func:`rummikub.xpress.ranking.rank`, from the mover's chance to win the match) and the turn's
loss is the sum of theirs; it is ``forced`` when neither had a choice (one die to throw or the
first throw of the round, and nothing to place). The points it left (placed X, could have
placed Y; the points the next placement was expected to place with each choice of dice) stay
as facts. (Until 3 Dec 2026 Xpress turns were judged by the points they left: ``best`` 0,
``good`` 1-5, ``inaccuracy`` 6-15, ``mistake`` 16-30, ``blunder`` more; that judgement was
deleted with the ranking by win chance.)

Besides the verdict, a turn may have **findings**, each a fact a player reviewing the game
wants pointed out (they no longer decide the verdict: placing less can be the better move):

==================  ==============================================================
``missed-out``      the whole rack (or hand) could have been placed and was not
``missed-opening``  he had not opened, an opening was possible, and he drew instead
``drew-with-play``  he had opened and drew (or passed) although a play existed
``joker-given``     he laid a joker from his rack without going out: on the table it is
                    there for the next player to take
==================  ==============================================================

A player's **accuracy** over a game follows lichess's: each turn with a choice scores
``103.1668 × exp(−0.04354 × loss) − 3.1669`` (clamped to 0..100; 100 for no loss, about 80 for
5 points, 64 for 10, 40 for 20), and the game's accuracy is the mean of the arithmetic and the
harmonic means of those scores (the harmonic mean lets a few bad moves weigh), for Xpress as
for the tile game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

__all__ = [
    "FINDINGS",
    "THRESHOLDS",
    "VERDICTS",
    "Finding",
    "Verdict",
    "accuracy",
    "move_accuracy",
    "verdict",
]

Verdict = Literal["forced", "best", "good", "inaccuracy", "mistake", "blunder"]

#: every verdict, from the only choice to the worst
VERDICTS: tuple[Verdict, ...] = ("forced", "best", "good", "inaccuracy", "mistake", "blunder")

Finding = Literal["missed-out", "missed-opening", "drew-with-play", "joker-given"]

#: every finding a turn may have
FINDINGS: tuple[Finding, ...] = ("missed-out", "missed-opening", "drew-with-play", "joker-given")

#: the most points of win chance a verdict may lose (``blunder``: anything more)
THRESHOLDS: dict[Verdict, float] = {"best": 2.0, "good": 5.0, "inaccuracy": 10.0, "mistake": 20.0}


def verdict(*, forced: bool, loss: float, missed_out: bool, invalid: bool = False) -> Verdict:
    """The verdict of a move that lost ``loss`` points of win chance against the best move."""
    if invalid or missed_out:
        return "blunder"
    if forced:
        return "forced"
    for name, most in THRESHOLDS.items():
        if loss <= most:
            return name
    return "blunder"


def move_accuracy(loss: float) -> float:
    """A move's accuracy (0-100) from the points of win chance it lost (lichess's curve)."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * max(loss, 0.0)) - 3.1669))


def accuracy(scores: Sequence[float]) -> float | None:
    """A game's accuracy (0-100, one decimal) from the accuracy of each turn with a choice:
    the mean of their arithmetic and harmonic means; ``None`` without such a turn."""
    if not scores:
        return None
    mean = sum(scores) / len(scores)
    harmonic = len(scores) / sum(1.0 / max(s, 1.0) for s in scores)
    return round((mean + harmonic) / 2, 1)
