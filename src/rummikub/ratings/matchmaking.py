"""The quick-match queue: rated games for 2, 3 or 4 players of similar skill.

A pure model with no clock or I/O of its own: the server tells it who joins and leaves and what
time it is, and :meth:`Queue.tick` says which games to start. How near two players' skills must
be starts narrow and widens the longer they wait; a player who allows it gets bots of a matching
level in the empty seats once he has waited :attr:`Settings.bots_after` seconds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rummikub.core import Code, UsageError

from .model import Rating

__all__ = ["Game", "Queue", "Settings", "Ticket"]


@dataclass(frozen=True, slots=True)
class Settings:
    """How the queue matches (skills in the model's ``mu`` units; docs/ratings.md)."""

    window: float = 2.0  #: the skill gap allowed at once
    widen: float = 0.25  #: added to it per second of waiting
    max_window: float = 12.0  #: the widest it gets
    bots_after: float = 30.0  #: seconds before bots fill the empty seats (if allowed)


@dataclass(frozen=True, slots=True)
class Ticket:
    """One player waiting: his skill, the table sizes he accepts, whether bots may fill, and
    when he joined (the caller's clock, in seconds)."""

    player: str
    rating: Rating
    sizes: frozenset[int]
    bots: bool
    joined: float

    def __post_init__(self) -> None:
        if not self.sizes or not self.sizes <= {2, 3, 4}:
            raise UsageError(
                f"a quick match is for 2, 3 or 4 players, not {sorted(self.sizes)}",
                code=Code.BAD_ARGUMENT,
                params={"name": "players", "value": ",".join(map(str, sorted(self.sizes)))},
            )


@dataclass(frozen=True, slots=True)
class Game:
    """A game to start: the waiting players it takes and the bot levels filling the rest."""

    players: tuple[str, ...]
    bots: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return len(self.players) + len(self.bots)


@dataclass
class Queue:
    """The players waiting for a quick match (see the module)."""

    bot_ratings: Mapping[str, Rating]
    settings: Settings = field(default_factory=Settings)
    tickets: dict[str, Ticket] = field(default_factory=dict)

    def join(self, ticket: Ticket) -> None:
        """Queue ``ticket`` (a player already waiting is queued anew, his wait restarted)."""
        self.tickets[ticket.player] = ticket

    def leave(self, player: str) -> bool:
        """Take ``player`` out of the queue; whether he was in it."""
        return self.tickets.pop(player, None) is not None

    def window(self, ticket: Ticket, now: float) -> float:
        """The skill gap ``ticket`` accepts after waiting until ``now``."""
        s = self.settings
        return min(s.max_window, s.window + s.widen * max(0.0, now - ticket.joined))

    def tick(self, now: float) -> list[Game]:
        """The games to start now; their players leave the queue. The longest waiting are
        served first; each gets the largest table he accepts that fills with players close
        enough to everyone at it, else bots once he may have them."""
        games: list[Game] = []
        for first in sorted(self.tickets.values(), key=lambda t: (t.joined, t.player)):
            if first.player not in self.tickets:
                continue  # already placed this tick
            game = self._game_for(first, now)
            if game is not None:
                for p in game.players:
                    del self.tickets[p]
                games.append(game)
        return games

    def _game_for(self, first: Ticket, now: float) -> Game | None:
        others = sorted(
            (t for t in self.tickets.values() if t.player != first.player),
            key=lambda t: (abs(t.rating.mu - first.rating.mu), t.joined, t.player),
        )
        for size in sorted(first.sizes, reverse=True):
            table = self._fill(first, [t for t in others if size in t.sizes], size, now)
            if len(table) == size:
                return Game(tuple(t.player for t in table))
        if not first.bots or now - first.joined < self.settings.bots_after or not self.bot_ratings:
            return None
        # bots fill the smallest table he accepts, with the players who fit and allow bots
        size = min(first.sizes)
        able = [t for t in others if size in t.sizes and t.bots]
        table = self._fill(first, able, size, now)
        mean = sum(t.rating.mu for t in table) / len(table)
        level = min(self.bot_ratings, key=lambda b: (abs(self.bot_ratings[b].mu - mean), b))
        return Game(tuple(t.player for t in table), (level,) * (size - len(table)))

    def _fill(
        self, first: Ticket, candidates: Sequence[Ticket], size: int, now: float
    ) -> list[Ticket]:
        table = [first]
        for t in candidates:
            if len(table) == size:
                break
            if all(
                abs(t.rating.mu - u.rating.mu) <= min(self.window(t, now), self.window(u, now))
                for u in table
            ):
                table.append(t)
        return table
