"""Puzzle ratings: Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012), the choice of
the next puzzle near a player's rating, the daily puzzle and streaks.

Every attempt is a game between the player and the puzzle: solving it is a win for the player,
failing it (a wrong answer, or asking for the solution) a win for the puzzle. Both ratings move,
as on lichess: :func:`attempt` rates the attempt as a rating period of one game for each side.
Glicko-2 rather than the OpenSkill model of :mod:`rummikub.ratings`: a puzzle attempt is a
two-sided game with one result, and Glicko-2's deviation shrinking with every attempt is what
puzzle sites publish (and its worked example pins the implementation down in a test)."""

from __future__ import annotations

import datetime as dt
import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import PuzzleCode, PuzzleError
from .model import DEFAULT_RATING, DEFAULT_RD, Puzzle

__all__ = [
    "SCALE",
    "Rating",
    "attempt",
    "daily",
    "glicko2_update",
    "next_puzzle",
    "streak_puzzle",
]

#: Glicko-2's scale factor between the Glicko scale and its internal one
SCALE = 173.7178
#: the system constant tau (how fast volatility may change): 0.5, the paper's example
TAU = 0.5
DEFAULT_VOLATILITY = 0.06
_EPSILON = 0.000001
#: the smallest deviation a rating keeps (a rating never becomes completely certain)
MIN_RD = 45.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: ``rating``, deviation ``rd``, ``volatility``."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    def to_json(self) -> dict[str, float]:
        return {"rating": self.rating, "rd": self.rd, "volatility": self.volatility}


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def glicko2_update(
    player: Rating,
    games: Sequence[tuple[Rating, float]],
    *,
    tau: float = TAU,
    min_rd: float = 0.0,
) -> Rating:
    """The player's rating after one rating period of ``games`` (each the opponent's rating and
    the score: 1 win, 0.5 draw, 0 loss), steps 1-8 of Glickman's paper. No games: only the
    deviation grows (step 6)."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(DEFAULT_RD, phi_star * SCALE), sigma)
    opp = [((r.rating - DEFAULT_RATING) / SCALE, r.rd / SCALE, s) for r, s in games]
    v_inv = 0.0
    delta_sum = 0.0
    for mu_j, phi_j, s in opp:
        e = _e(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inv += g * g * e * (1 - e)
        delta_sum += g * (s - e)
    v = 1.0 / v_inv
    delta = v * delta_sum
    # step 5: the new volatility (the Illinois algorithm)
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    sigma_new = math.exp(big_a / 2)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    rd = max(min_rd, phi_new * SCALE)
    return Rating(mu_new * SCALE + DEFAULT_RATING, rd, sigma_new)


def attempt(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The player's and the puzzle's ratings after one attempt."""
    s = 1.0 if solved else 0.0
    p = glicko2_update(player, [(puzzle, s)], min_rd=MIN_RD)
    q = glicko2_update(puzzle, [(player, 1.0 - s)], min_rd=MIN_RD)
    return p, q


def _pick(candidates: Sequence[Puzzle], key: str) -> Puzzle:
    """One of ``candidates``, chosen by a hash of ``key`` (deterministic, spread evenly)."""
    h = int(hashlib.sha256(key.encode()).hexdigest(), 16)
    return candidates[h % len(candidates)]


def _with_theme(puzzles: Sequence[Puzzle], theme: str | None) -> list[Puzzle]:
    if theme is None:
        return list(puzzles)
    found = [p for p in puzzles if theme in p.themes or p.goal.value == theme]
    if not found:
        raise PuzzleError(
            f"no puzzle has the theme {theme!r}",
            code=PuzzleCode.UNKNOWN_THEME,
            params={"theme": theme},
        )
    return found


def next_puzzle(
    puzzles: Sequence[Puzzle],
    rating: float,
    *,
    done: Iterable[str] = (),
    theme: str | None = None,
    salt: str = "",
    window: float = 100.0,
) -> Puzzle:
    """A puzzle near ``rating`` not in ``done`` (ids), of ``theme`` (a theme or a goal) when
    given: among the unsolved puzzles within ``window`` of the rating (widened until some are
    found), one chosen by a hash of ``salt`` (e.g. the player and his attempt count)."""
    pool = _with_theme(puzzles, theme)
    if not pool:
        raise PuzzleError("no puzzles", code=PuzzleCode.UNKNOWN_PUZZLE, params={"id": ""})
    seen = set(done)
    fresh = [p for p in pool if p.id not in seen] or pool
    w = window
    while True:
        near = [p for p in fresh if abs(p.rating - rating) <= w]
        if near:
            near.sort(key=lambda p: p.id)
            return _pick(near, f"{salt}/{rating:.0f}")
        w *= 2


def daily(puzzles: Sequence[Puzzle], day: dt.date) -> Puzzle:
    """The puzzle of the day: the same for everyone on that date (a hash of the date picks
    among the puzzles rated 1300-1900 with a go-out or most-tiles goal, the ones most players
    can enjoy)."""
    pool = [
        p for p in puzzles if 1300 <= p.rating <= 1900 and p.goal.value in ("go-out", "most-tiles")
    ]
    if not pool:
        pool = list(puzzles)
    pool.sort(key=lambda p: p.id)
    return _pick(pool, f"daily/{day.isoformat()}")


def streak_puzzle(
    puzzles: Sequence[Puzzle],
    solved: int,
    *,
    start: float = 1000.0,
    step: float = 60.0,
    theme: str | None = None,
    salt: str = "",
) -> Puzzle:
    """The puzzle number ``solved + 1`` of a streak: every solved puzzle makes the next one
    ``step`` points harder, from ``start``; the streak ends at the first miss."""
    pool = _with_theme(puzzles, theme)
    return next_puzzle(pool, start + step * solved, salt=f"streak/{salt}/{solved}", window=40.0)
