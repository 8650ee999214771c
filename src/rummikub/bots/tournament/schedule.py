"""Which bots play which deal in which seats: paired deals, so luck cancels out.

Every deal (a seed: the same racks, pool and first player) is played once for each rotation of
the seats, so each bot of the line-up gets each seat's tiles once. With more bots than seats,
the line-ups cycle through every combination of bots.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

__all__ = ["Pairing", "schedule"]


@dataclass(frozen=True, slots=True)
class Pairing:
    """One game of the tournament."""

    game: int  # 0-based index in the schedule
    deal: int
    rotation: int
    seed: int  # the deal's seed (Match seed)
    seats: tuple[str, ...]  # bot spec per seat

    def bot_seed(self, seat: int) -> int:
        """A seed for the bot in ``seat`` (differs between games and seats)."""
        return self.seed * 1009 + self.rotation * 17 + seat


def lineups(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The line-ups dealt in turn: the bots cycled over the seats when there are no more bots
    than seats, else every combination of ``players`` bots."""
    if len(bots) <= players:
        return [tuple(bots[i % len(bots)] for i in range(players))]
    return list(combinations(bots, players))


def schedule(bots: Sequence[str], players: int, games: int, seed: int) -> Iterator[Pairing]:
    """The first ``games`` games: deal ``d`` uses seed ``seed + d`` and is played ``players``
    times, the line-up rotated by one seat each time."""
    ups = lineups(bots, players)
    game = 0
    deal = 0
    while game < games:
        lineup = ups[deal % len(ups)]
        for rotation in range(players):
            if game >= games:
                return
            seats = tuple(lineup[(s - rotation) % players] for s in range(players))
            yield Pairing(game, deal, rotation, seed + deal, seats)
            game += 1
        deal += 1
