"""How a move is judged: the points it left on the rack (or in the hand) that the best move of
the position would have placed, read the way players read moves.

=============  ===================================================================
verdict        when
=============  ===================================================================
``forced``     nothing could be placed: whatever the player did was the only choice
``best``       no points lost (the player placed as much as the best move)
``good``       1 to 5 points lost
``inaccuracy`` 6 to 15 points lost
``mistake``    16 to 30 points lost
``blunder``    more than 30 points lost, a missed going out (the whole rack or hand
               could have been placed and was not), or an invalid play (it draws a penalty)
=============  ===================================================================

Besides the verdict, a turn may have **findings**, each a fact a player reviewing the game
wants pointed out:

==================  ==============================================================
``missed-out``      the whole rack (or hand) could have been placed and was not
``missed-opening``  he had not opened, an opening was possible, and he drew instead
``drew-with-play``  he had opened and drew (or passed) although a play existed
``joker-given``     he laid a joker from his rack without going out: on the table it is
                    there for the next player to take (the strongest bots keep a rack
                    joker until it lets them go out; docs/bots.md measures what that wins)
==================  ==============================================================

Points are rack points as the rules count them at the end of a round (a joker counts the rules'
joker penalty; an Xpress joker its joker value). A player's **accuracy** over a game is the share
of the points he could have placed that he did place, over his turns with a choice (100: he
never left anything the best move would have placed)."""

from __future__ import annotations

from typing import Literal

__all__ = ["FINDINGS", "THRESHOLDS", "VERDICTS", "Finding", "Verdict", "accuracy", "verdict"]

Verdict = Literal["forced", "best", "good", "inaccuracy", "mistake", "blunder"]

#: every verdict, from the only choice to the worst
VERDICTS: tuple[Verdict, ...] = ("forced", "best", "good", "inaccuracy", "mistake", "blunder")

Finding = Literal["missed-out", "missed-opening", "drew-with-play", "joker-given"]

#: every finding a turn may have
FINDINGS: tuple[Finding, ...] = ("missed-out", "missed-opening", "drew-with-play", "joker-given")

#: the most points a verdict may lose (``blunder``: anything more)
THRESHOLDS: dict[Verdict, int] = {"best": 0, "good": 5, "inaccuracy": 15, "mistake": 30}


def verdict(*, could_place: bool, lost: int, missed_out: bool, invalid: bool = False) -> Verdict:
    """The verdict of a move that lost ``lost`` points against the best move."""
    if invalid or missed_out:
        return "blunder"
    if not could_place:
        return "forced"
    for name, most in THRESHOLDS.items():
        if lost <= most:
            return name
    return "blunder"


def accuracy(gains: list[tuple[int, int]]) -> float | None:
    """Accuracy (0-100) of turns given as (points placed, points the best move placed);
    ``None`` with no turn where something could be placed."""
    best = sum(b for _, b in gains)
    if best <= 0:
        return None
    placed = sum(min(p, b) for p, b in gains)
    return round(100 * placed / best, 1)
