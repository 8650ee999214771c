"""The rating system: OpenSkill's Plackett–Luce model (Weng & Lin, 2011), which rates games of
2 to 6 players from their order of finish, ties included.

A player's skill is a normal belief: ``mu`` (the estimate) and ``sigma`` (its uncertainty).
After every rated game each person's belief moves by how surprising his place was; bots have
fixed ratings (:mod:`.bots`), so a game against bots moves only the people. What a player sees
is :func:`display`: a conservative figure, ``mu - 3 sigma``, put on a familiar scale, so a new
player starts at 1000 and climbs as the system learns his level (see docs/ratings.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from rummikub.core import Code, UsageError

__all__ = [
    "BETA",
    "INITIAL",
    "MU",
    "SIGMA",
    "TAU",
    "Rating",
    "display",
    "estimate",
    "ranks_of",
    "rate",
    "win_chances",
]

MU = 25.0  #: a new player's estimate
SIGMA = MU / 3  #: a new player's uncertainty
BETA = MU / 6  #: how much one game's performance varies around a player's skill
TAU = MU / 300  #: added uncertainty per game, so a rating can follow a player who improves
SCALE = 40.0  #: display points per skill unit
BASE = 1000.0  #: the display rating of ``mu - 3 sigma = 0`` (a new player)


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's skill belief."""

    mu: float = MU
    sigma: float = SIGMA

    def __str__(self) -> str:
        return f"{display(self)} (mu {self.mu:.2f}, sigma {self.sigma:.2f})"

    def to_json(self) -> dict[str, float]:
        return {"mu": round(self.mu, 6), "sigma": round(self.sigma, 6)}

    @classmethod
    def from_json(cls, data: Any) -> Rating:
        try:
            mu, sigma = float(data["mu"]), float(data["sigma"])
        except (KeyError, TypeError, ValueError):
            raise UsageError(
                f"not a rating: {data!r} (needs mu and sigma)",
                code=Code.BAD_ARGUMENT,
                params={"name": "rating", "value": str(data)},
            ) from None
        if not sigma > 0:
            raise UsageError(
                f"a rating's sigma must be positive, not {sigma}",
                code=Code.BAD_ARGUMENT,
                params={"name": "sigma", "value": str(sigma)},
            )
        return cls(mu, sigma)


INITIAL = Rating()


def display(rating: Rating) -> int:
    """The figure shown to players: ``1000 + 40 (mu - 3 sigma)``, rounded, never below 0."""
    return max(0, round(BASE + SCALE * (rating.mu - 3 * rating.sigma)))


def estimate(rating: Rating) -> int:
    """The estimate ``mu`` on the scale players see: ``1000 + 40 mu``, rounded (what
    :func:`display` shows once no uncertainty is left). The bots' fixed ratings are compared
    by it: their ``sigma`` is the calibration's uncertainty, not a level they are at least at."""
    return round(BASE + SCALE * rating.mu)


@cache
def _model(tau: float = TAU) -> Any:
    """OpenSkill's Plackett–Luce model with this project's parameters (``tau=0`` for a
    calibration, where skills do not drift)."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=tau, limit_sigma=False)


def ranks_of(totals: Sequence[float], winners: Sequence[int] = ()) -> list[int]:
    """Each seat's place (1 is first): the winners share first place; the others are ordered
    by their totals, higher first, equal totals sharing a place."""
    win = set(winners)
    ranks = []
    for seat, total in enumerate(totals):
        if seat in win:
            ranks.append(1)
            continue
        better = sum(1 for s, t in enumerate(totals) if s not in win and t > total)
        ranks.append(1 + len(win) + better)
    return ranks


def rate(
    ratings: Sequence[Rating],
    ranks: Sequence[int],
    fixed: Sequence[bool] | None = None,
    *,
    tau: float = TAU,
) -> list[Rating]:
    """The ratings after one game in which seat ``i`` (rated ``ratings[i]``) finished in
    place ``ranks[i]`` (1 is first; equal places are ties). Seats marked ``fixed`` (bots)
    keep their rating; they still count as opponents."""
    if len(ratings) != len(ranks) or not 2 <= len(ratings) <= 6:
        raise UsageError(
            f"a rated game has 2 to 6 seats with one place each, not {len(ratings)} ratings "
            f"and {len(ranks)} places",
            code=Code.BAD_ARGUMENT,
            params={"name": "ranks", "value": len(ranks)},
        )
    fixed = list(fixed) if fixed is not None else [False] * len(ratings)
    model = _model(tau)
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    new = model.rate(teams, ranks=[float(r) for r in ranks])
    return [
        old if keep else Rating(team[0].mu, team[0].sigma)
        for old, keep, team in zip(ratings, fixed, new, strict=True)
    ]


def win_chances(ratings: Sequence[Rating]) -> list[float]:
    """Each seat's chance of finishing first against the others, by the model."""
    model = _model()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    return [float(p) for p in model.predict_win(teams)]
