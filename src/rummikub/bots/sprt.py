"""A sequential probability ratio test for version-against-version matches, as chess engine
testers run them (fishtest, cutechess-cli, fastchess): the generalized SPRT (GSPRT) of
H0 "the new version is ``elo0`` stronger" against H1 "it is ``elo1`` stronger", in logistic
Elo, on **paired** games.

Each deal is played twice with the seats swapped (the tournament's paired deals), so the unit
is the pair: its score for the tested bot is 0, ½, 1, 1½ or 2 (the *pentanomial* model; a
shared win or an abandoned game is half a point). Pairs are far less noisy than single games,
because the luck of the deal cancels in them; treating the games of a pair as independent (the
*trinomial* model) would overstate the variance and make the test slower, and it is used only
for games that have no partner.

The log-likelihood ratio is the multinomial one with each hypothesis's distribution the
maximum-likelihood one of mean score ``L(elo)``, ``L(e) = 1 / (1 + 10^(-e/400))`` (Michel Van
den Bergh's GSPRT, as fishtest computes it). The test stops when the LLR leaves
``(log(beta/(1-alpha)), log((1-beta)/alpha))``: below, H0 is accepted (the change does not
gain ``elo1``); above, H1 (it gains at least ``elo0``); in between, play more pairs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "SprtResult",
    "bounds",
    "elo_estimate",
    "elo_of_score",
    "elo_to_score",
    "game_score",
    "llr",
    "pair_scores",
    "pentanomial",
    "sprt",
    "tournament_counts",
]


#: the count given to an outcome never seen
REGULARIZE = 1e-3


def elo_to_score(elo: float) -> float:
    """The expected score of a player ``elo`` logistic Elo points stronger than his opponent."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """The lower and upper LLR bounds of the test (Wald's): ``log(beta/(1-alpha))`` and
    ``log((1-beta)/alpha)``."""
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError(f"alpha and beta must be between 0 and 1, got {alpha} and {beta}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _mle_log_ratio(scores: Sequence[float], probs: Sequence[float], s: float) -> list[float]:
    """For the empirical distribution ``probs`` over ``scores``, ``log(p_i / q_i)`` where
    ``q`` is the distribution of mean ``s`` nearest to ``p`` in likelihood:
    ``q_i = p_i / (1 + lam * (a_i - s))`` with ``lam`` such that the ``q_i`` sum to 1."""
    d = [a - s for a in scores]
    used = list(zip(d, probs, strict=True))
    lo_d = min(d)
    hi_d = max(d)
    # g(lam) = sum p_i d_i / (1 + lam d_i) is decreasing on (-1/hi_d, -1/lo_d); g = 0 wanted
    lo, hi = -1.0 / hi_d, -1.0 / lo_d
    for _ in range(200):
        mid = (lo + hi) / 2
        g = sum(pi * di / (1 + mid * di) for di, pi in used)
        if g > 0:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-15:
            break
    lam = (lo + hi) / 2
    return [math.log1p(lam * di) for di in d]


def llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for ``counts``:
    3 counts (losses, draws, wins: games) or 5 (pairs scoring 0, ½, 1, 1½, 2). 0 when there
    are no games."""
    if len(counts) not in (3, 5):
        raise ValueError(f"counts must be 3 (trinomial) or 5 (pentanomial), got {len(counts)}")
    if any(c < 0 for c in counts):
        raise ValueError(f"counts must not be negative: {list(counts)}")
    n = sum(counts)
    if n == 0:
        return 0.0
    k = len(counts) - 1
    scores = [i / k for i in range(k + 1)]
    # an outcome never seen counts as REGULARIZE of one (as fishtest does), so that every
    # outcome has a little weight and the constrained estimates exist
    seen = [c if c > 0 else REGULARIZE for c in counts]
    total = sum(seen)
    probs = [c / total for c in seen]
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    # log(p/q0) - log(p/q1) = log(q1/q0); weighted by p and times n: the LLR
    r0 = _mle_log_ratio(scores, probs, s0)
    r1 = _mle_log_ratio(scores, probs, s1)
    return n * sum(p * (x0 - x1) for p, x0, x1 in zip(probs, r0, r1, strict=True))


def pentanomial(pairs: Iterable[float]) -> list[int]:
    """Counts of pair scores 0, ½, 1, 1½, 2 from the pairs' scores."""
    out = [0] * 5
    for score in pairs:
        i = round(score * 2)
        if not 0 <= i <= 4 or abs(score * 2 - i) > 1e-9:
            raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2, not {score}")
        out[i] += 1
    return out


def pair_scores(games: Iterable[tuple[int, float]]) -> tuple[list[float], list[float]]:
    """Split ``(deal, score)`` per game into the scores of complete pairs (two games of a deal,
    summed) and of the games left without a partner (a run cut short)."""
    by_deal: dict[int, list[float]] = {}
    for deal, score in games:
        by_deal.setdefault(deal, []).append(score)
    pairs: list[float] = []
    single: list[float] = []
    for scores in by_deal.values():
        while len(scores) >= 2:
            pairs.append(scores.pop() + scores.pop())
        single.extend(scores)
    return pairs, single


@dataclass(frozen=True, slots=True)
class SprtResult:
    """The test's state: ``verdict`` is ``H0``, ``H1`` or ``continue``."""

    llr: float
    lower: float
    upper: float
    elo0: float
    elo1: float
    alpha: float
    beta: float
    counts: tuple[int, ...]

    @property
    def verdict(self) -> str:
        if self.llr >= self.upper:
            return "H1"
        if self.llr <= self.lower:
            return "H0"
        return "continue"


def sprt(
    counts: Sequence[int],
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> SprtResult:
    """The SPRT of ``elo0`` against ``elo1`` (``elo0 < elo1``) on ``counts`` (see :func:`llr`)."""
    if not elo0 < elo1:
        raise ValueError(f"elo0 must be below elo1, got {elo0} and {elo1}")
    lower, upper = bounds(alpha, beta)
    return SprtResult(llr(counts, elo0, elo1), lower, upper, elo0, elo1, alpha, beta,
                      tuple(counts))  # fmt: skip


def game_score(seats: Sequence[str], winners: Sequence[int], bot: str) -> float:
    """The score of ``bot`` in one two-player game: 1 if it won alone, 0 if the other did, ½
    for a shared win or an abandoned round without winner."""
    mine = [i for i, s in enumerate(seats) if s == bot]
    if len(mine) != 1 or len(seats) != 2:
        raise ValueError(f"a game of {list(seats)} is not a game of {bot!r} against another bot")
    won = mine[0] in winners
    lost = any(w != mine[0] for w in winners)
    return 0.5 if won == lost else (1.0 if won else 0.0)


def tournament_counts(lines: Iterable[dict[str, object]], new: str | None = None
                      ) -> tuple[str, str, list[int], list[int]]:  # fmt: skip
    """From the lines of a tournament's results file (header first): the tested bot (``new``,
    default the first of the header's bots), its opponent, the pentanomial counts of the
    complete pairs and the trinomial counts (losses, draws, wins) of every game."""
    it = iter(lines)
    header = next(it, None)
    if not isinstance(header, dict) or header.get("type") != "tournament":
        raise ValueError("not a tournament results file: its first line is not the header")
    bots = header.get("bots")
    if not isinstance(bots, list) or len(bots) != 2 or header.get("players") != 2:
        raise ValueError("the SPRT compares two bots in two-player games: this tournament has "
                         f"bots {bots} and {header.get('players')} players")  # fmt: skip
    tested = new if new is not None else str(bots[0])
    if tested not in bots:
        raise ValueError(f"{tested!r} is not one of the tournament's bots {bots}")
    other = str(bots[1] if bots[0] == tested else bots[0])
    games: list[tuple[int, float]] = []
    for line in it:
        if line.get("type") != "game":
            continue
        seats, winners, deal = line["seats"], line["winners"], line["deal"]
        if not isinstance(seats, list) or not isinstance(winners, list):
            raise ValueError(f"a game line without seats or winners: {line}")
        games.append((int(str(deal)), game_score(seats, winners, tested)))
    pairs, _ = pair_scores(games)
    tri = [0, 0, 0]
    for _, score in games:
        tri[round(score * 2)] += 1
    return tested, other, pentanomial(pairs), tri


def elo_of_score(score: float) -> float:
    """The logistic Elo difference of an expected score (±inf at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_estimate(counts: Sequence[int]) -> tuple[float, float, float]:
    """The Elo difference of pentanomial (or trinomial) ``counts`` and its 95% interval (the
    normal interval of the mean pair score, mapped to Elo)."""
    n = sum(counts)
    if n == 0:
        return 0.0, -math.inf, math.inf
    k = len(counts) - 1
    mean = sum(c * i / k for i, c in enumerate(counts)) / n
    var = sum(c * (i / k - mean) ** 2 for i, c in enumerate(counts)) / n
    half = 1.959964 * math.sqrt(var / n)
    return elo_of_score(mean), elo_of_score(mean - half), elo_of_score(mean + half)
