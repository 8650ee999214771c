"""Tournament statistics: wins, win rate with a Wilson 95% interval, mean score per round, and
Elo ratings (a Bradley–Terry fit) with a 95% error."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = ["BotStats", "GameOutcome", "Standings", "elo_ratings", "standings", "wilson"]

Z95 = 1.959963984540054
ELO_SCALE = 400.0 / math.log(10.0)


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` may be fractional: a draw
    counts half). ``(0, 1)`` when ``n`` is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return lo, hi


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """What the statistics need from one game."""

    seats: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]  # match totals per seat
    rounds: int


@dataclass(slots=True)
class BotStats:
    bot: str
    games: int = 0
    wins: float = 0.0  # a shared win counts as a fraction
    score: int = 0
    rounds: int = 0
    elo: float = 0.0
    elo_error: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        """Mean score per round played."""
        return self.score / self.rounds if self.rounds else 0.0

    def to_dict(self) -> dict[str, object]:
        lo, hi = self.interval
        return {
            "bot": self.bot, "games": self.games, "wins": self.wins,
            "win_rate": self.win_rate, "ci95": [lo, hi], "mean_score": self.mean_score,
            "elo": self.elo, "elo_error": self.elo_error,
        }  # fmt: skip


@dataclass(slots=True)
class Standings:
    bots: list[BotStats]
    games: int
    head_to_head: dict[tuple[str, str], float] = field(default_factory=dict)
    meetings: dict[tuple[str, str], int] = field(default_factory=dict)


def _pair_results(
    outcomes: Iterable[GameOutcome],
) -> tuple[dict[tuple[str, str], float], dict[tuple[str, str], int]]:
    """Head-to-head points: for every two seats of different bots in a game, a win for the
    seat among the winners when the other is not, else half each."""
    points: dict[tuple[str, str], float] = {}
    meetings: dict[tuple[str, str], int] = {}
    for o in outcomes:
        win = set(o.winners)
        for i, a in enumerate(o.seats):
            for j, b in enumerate(o.seats):
                if i == j or a == b:
                    continue
                if i in win and j not in win:
                    pts = 1.0
                elif (i in win) == (j in win):
                    pts = 0.5
                else:
                    pts = 0.0
                points[a, b] = points.get((a, b), 0.0) + pts
                meetings[a, b] = meetings.get((a, b), 0) + 1
    return points, meetings


def elo_ratings(
    names: Sequence[str],
    points: dict[tuple[str, str], float],
    meetings: dict[tuple[str, str], int],
    *,
    prior: float = 1.0,
    iterations: int = 1000,
) -> dict[str, tuple[float, float]]:
    """Elo rating and 95% error per bot from head-to-head results: a Bradley–Terry fit by
    minorisation–maximisation, with ``prior`` virtual drawn games between every two bots that
    met (so a bot that won every game still gets a finite rating). Ratings average 0; the error
    is 1.96 standard errors from the fit's information (the error of a rating against the rest
    of the field)."""
    n = len(names)
    wins = {a: prior / 2 * sum(1 for b in names if meetings.get((a, b))) for a in names}
    games: dict[tuple[str, str], float] = {}
    for (a, b), m in meetings.items():
        games[a, b] = m + prior
        wins[a] += points[a, b]
    gamma = dict.fromkeys(names, 1.0)
    for _ in range(iterations):
        new: dict[str, float] = {}
        for a in names:
            denom = sum(g / (gamma[a] + gamma[b]) for (x, b), g in games.items() if x == a)
            new[a] = wins[a] / denom if denom > 0 and wins[a] > 0 else gamma[a]
        mean_log = sum(math.log(v) for v in new.values()) / n
        new = {a: v / math.exp(mean_log) for a, v in new.items()}
        change = max(abs(math.log(new[a] / gamma[a])) for a in names)
        gamma = new
        if change < 1e-10:
            break
    out: dict[str, tuple[float, float]] = {}
    for a in names:
        info = 0.0
        for (x, b), g in games.items():
            if x == a:
                p = gamma[a] / (gamma[a] + gamma[b])
                info += g * p * (1 - p)
        err = Z95 * ELO_SCALE / math.sqrt(info) if info > 0 else math.inf
        out[a] = (ELO_SCALE * math.log(gamma[a]), err)
    return out


def standings(outcomes: Sequence[GameOutcome], bots: Sequence[str] | None = None) -> Standings:
    """Per-bot statistics over ``outcomes`` (every seat counts as one game for its bot)."""
    names = list(bots) if bots is not None else []
    for o in outcomes:
        for s in o.seats:
            if s not in names:
                names.append(s)
    table = {b: BotStats(b) for b in names}
    for o in outcomes:
        share = 1.0 / len(o.winners) if o.winners else 0.0
        for seat, spec in enumerate(o.seats):
            st = table[spec]
            st.games += 1
            st.rounds += o.rounds
            st.score += o.scores[seat]
            if seat in o.winners:
                st.wins += share
    points, meetings = _pair_results(outcomes)
    if len(names) > 1:
        for name, (elo, err) in elo_ratings(names, points, meetings).items():
            table[name].elo, table[name].elo_error = elo, err
    return Standings(list(table.values()), len(outcomes), points, meetings)
