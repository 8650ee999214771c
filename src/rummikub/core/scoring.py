"""End-of-round scoring and match totals."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from .rules import Rules
from .table import Rack

__all__ = [
    "EndReason",
    "exhausted_winner",
    "lowest_total",
    "match_over",
    "match_winners",
    "rack_value",
    "score_round",
    "scores_of_values",
]

EndReason = Literal["rummikub", "exhausted", "abandoned"]


def rack_value(rack: Rack, rules: Rules) -> int:
    """The points left on a rack (a joker counts ``joker_penalty``)."""
    return sum(rules.tile_value(t) for t in rack)


def exhausted_winner(racks: Sequence[Rack], rules: Rules, next_to_move: int) -> int:
    """The winner when the pool ran out and everyone passed: the lowest rack total; among equal
    totals, the player who would have moved soonest from ``next_to_move`` on."""
    return lowest_total([rack_value(r, rules) for r in racks], next_to_move)


def lowest_total(values: Sequence[int], next_to_move: int) -> int:
    """:func:`exhausted_winner` from the racks' values (``values[p]``: :func:`rack_value` of
    player ``p``'s rack)."""
    n = len(values)
    order = [(next_to_move + k) % n for k in range(n)]
    return min(order, key=values.__getitem__)  # the first of equal totals in that order


def score_round(
    rules: Rules, racks: Sequence[Rack], reason: EndReason, winner: int | None
) -> tuple[int, ...]:
    """The round's scores, one per player.

    ``zero-sum``: each loser scores minus his rack (minus the difference to the winner's rack
    when the pool ran out); the winner scores plus the sum. ``penalty-points``: every player
    scores the value left on his rack (lower is better). An abandoned round scores nothing.
    """
    return scores_of_values(rules, [rack_value(r, rules) for r in racks], reason, winner)


def scores_of_values(
    rules: Rules, values: Sequence[int], reason: EndReason, winner: int | None
) -> tuple[int, ...]:
    """:func:`score_round` from the racks' values (``values[p]``: :func:`rack_value` of player
    ``p``'s rack)."""
    if reason == "abandoned" or winner is None:
        return tuple(0 for _ in values)
    if rules.scoring == "penalty-points":
        return tuple(values)
    base = values[winner] if reason == "exhausted" else 0
    scores = [-(v - base) for v in values]
    scores[winner] = 0
    scores[winner] = -sum(scores)
    return tuple(scores)


def match_over(rules: Rules, rounds_played: int, totals: Sequence[int]) -> bool:
    """Whether a match with these totals after ``rounds_played`` rounds is finished."""
    m = rules.match
    if m.rounds is not None and rounds_played >= m.rounds:
        return True
    return m.target is not None and any(t >= m.target for t in totals)


def match_winners(rules: Rules, totals: Sequence[int]) -> list[int]:
    """The players with the best total (highest; lowest under ``penalty-points``)."""
    if not totals:
        return []
    best = min(totals) if rules.scoring == "penalty-points" else max(totals)
    return [i for i, t in enumerate(totals) if t == best]


def score_table(
    round_scores: Sequence[Sequence[int]],
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The match score table: for every round, its scores and the running totals after it."""
    rows: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    totals: tuple[int, ...] = ()
    for scores in round_scores:
        totals = (
            tuple(scores)
            if not totals
            else tuple(a + b for a, b in zip(totals, scores, strict=True))
        )
        rows.append((tuple(scores), totals))
    return rows
