"""Game flow on top of the pure core: seeded deals, turns, penalties, rounds and matches.

A :class:`Match` owns one seeded random generator per round; everything random (choosing the
first player, the shuffle) happens in :meth:`Match.start_round` and is written into the
:class:`RoundLog`, so a record replays exactly without the generator.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .actions import Action, Draw, Pass, Play, Timeout
from .errors import Code, UsageError
from .game_base import check_next_round
from .interface import PlayerInfo
from .observation import Observation, observe
from .rules import Rules
from .scoring import match_over, match_winners
from .state import RoundEnd, RoundState, apply, check_play, penalise
from .table import Rack, Table
from .tiles import Tile

__all__ = ["Match", "PlayerInfo", "RoundLog", "TurnLog", "choose_first", "deal"]

TurnKind = Literal["play", "draw", "pass", "timeout", "invalid"]


@dataclass(frozen=True, slots=True)
class TurnLog:
    """One turn as recorded: who, what, and the tiles drawn (draw / penalties)."""

    player: int
    action: TurnKind
    play: tuple[Tile, ...] = ()
    table: Table | None = None
    tile: Tile | None = None
    penalty: tuple[Tile, ...] = ()
    ms: int | None = None
    hint: bool = False
    #: an ``invalid`` turn: the refusal's code (see :class:`~rummikub.core.errors.Code`) and
    #: its parameters, for programs and message catalogues (older records: an English sentence)
    reason: str | None = None
    params: tuple[tuple[str, str | int], ...] = ()


@dataclass(slots=True)
class RoundLog:
    """A round's chance events (pool order, first player, dealt racks) and its turns."""

    pool: tuple[Tile, ...]
    first: int
    racks: tuple[Rack, ...]
    turns: list[TurnLog] = field(default_factory=list)
    end: RoundEnd | None = None


def choose_first(rng: random.Random, rules: Rules, players: int) -> int:
    """Each player draws a tile; the highest number starts. A joker is redrawn; ties redraw
    among the tied players."""
    bag = list(rules.all_tiles())
    rng.shuffle(bag)
    contenders = list(range(players))
    while True:
        drawn: dict[int, int] = {}
        for p in contenders:
            while True:
                if not bag:  # pragma: no cover - needs absurd tiny tile sets
                    bag = list(rules.all_tiles())
                    rng.shuffle(bag)
                tile = bag.pop()
                if not tile.is_joker:
                    drawn[p] = tile.number
                    break
        best = max(drawn.values())
        contenders = [p for p in contenders if drawn[p] == best]
        if len(contenders) == 1:
            return contenders[0]


def deal(
    rng: random.Random, rules: Rules, players: int
) -> tuple[tuple[Rack, ...], tuple[Tile, ...]]:
    """Shuffle the full set and deal ``rack_size`` tiles to each player."""
    bag = list(rules.all_tiles())
    rng.shuffle(bag)
    size = rules.rack_size
    racks = tuple(Rack(tuple(bag[i * size : (i + 1) * size])) for i in range(players))
    return racks, tuple(bag[players * size :])


def _plain(params: Mapping[str, str | int]) -> dict[str, str | int]:
    """Parameters as plain JSON values (a code parameter as its text)."""
    return {k: v if isinstance(v, int) else str(v) for k, v in params.items()}


class Match:
    """A match of one or more rounds between 2–6 players, driven by the caller's actions."""

    def __init__(
        self, rules: Rules, players: Sequence[PlayerInfo | str], seed: int, *, start: bool = True
    ) -> None:
        infos = tuple(p if isinstance(p, PlayerInfo) else PlayerInfo(p) for p in players)
        rules.check_players(len(infos))
        self.rules = rules
        self.players = infos
        self.seed = seed
        self.rounds: list[RoundLog] = []
        self.totals: tuple[int, ...] = (0,) * len(infos)
        self.state: RoundState
        if start:
            self.start_round()

    # -- rounds --------------------------------------------------------------------------
    def _rng(self, index: int) -> random.Random:
        return random.Random(f"rummikub/{self.seed}/{index}")

    def start_round(self) -> RoundState:
        index = len(self.rounds)
        rng = self._rng(index)
        n = len(self.players)
        if index == 0 or self.rules.redraw_first_player:
            first = choose_first(rng, self.rules, n)
        else:
            first = (self.rounds[-1].first + 1) % n
        racks, pool = deal(rng, self.rules, n)
        self.rounds.append(RoundLog(pool, first, racks))
        self.state = RoundState.start(self.rules, racks, pool, first)
        return self.state

    @property
    def round_over(self) -> bool:
        return self.state.end is not None

    @property
    def over(self) -> bool:
        return self.round_over and match_over(self.rules, len(self.rounds), self.totals)

    @property
    def winners(self) -> list[int]:
        return match_winners(self.rules, self.totals)

    def next_round(self) -> RoundState:
        check_next_round(self.round_over, self.over)
        return self.start_round()

    def abandon(self) -> None:
        """End the current round without a winner (it scores nothing)."""
        if self.state.end is None:
            end = RoundEnd("abandoned", None, self.state.racks, (0,) * len(self.players))
            self.state = dataclasses.replace(self.state, end=end)
            self.rounds[-1].end = end

    # -- turns ---------------------------------------------------------------------------
    def observation(self, player: int, time_left: float | None = None) -> Observation:
        return observe(
            self.state, player, scores=self.totals, time_left=time_left, round=len(self.rounds) - 1
        )

    def act(self, action: Action, *, ms: int | None = None, hint: bool = False) -> TurnLog:
        """Carry out ``action`` for the player to move and record it.

        An illegal play raises :class:`IllegalPlayError` and changes nothing under
        ``invalid_play: reject``; under ``penalty`` it is recorded as an ``invalid`` turn and
        the player draws the penalty tiles. Other illegal actions always raise.
        """
        state = self.state
        player = state.current
        if isinstance(action, Play):
            err = check_play(state, action)
            if err is not None:
                if self.rules.invalid_play == "reject" or state.end is not None:
                    raise err
                nxt = penalise(state, self.rules.invalid_penalty)
                log = TurnLog(
                    player,
                    "invalid",
                    penalty=state.pool[: len(state.pool) - len(nxt.pool)],
                    ms=ms,
                    reason=err.code.value,
                    params=tuple(
                        sorted(
                            (k, v if isinstance(v, int) else str(v)) for k, v in err.params.items()
                        )
                    ),
                )
                return self._commit(nxt, log)
            nxt = apply(state, action)
            log = TurnLog(player, "play", play=action.tiles, table=nxt.table, ms=ms, hint=hint)
        elif isinstance(action, Draw):
            nxt = apply(state, action)
            log = TurnLog(player, "draw", tile=state.pool[0], ms=ms)
        elif isinstance(action, Pass):
            nxt = apply(state, action)
            log = TurnLog(player, "pass", ms=ms)
        elif isinstance(action, Timeout):
            nxt = apply(state, action)
            log = TurnLog(
                player, "timeout", penalty=state.pool[: len(state.pool) - len(nxt.pool)], ms=ms
            )
        else:
            raise UsageError(f"unknown action {action!r}", code=Code.UNKNOWN_ACTION)
        return self._commit(nxt, log)

    def _commit(self, nxt: RoundState, log: TurnLog) -> TurnLog:
        self.rounds[-1].turns.append(log)
        self.state = nxt
        if nxt.end is not None:
            self.rounds[-1].end = nxt.end
            self.totals = tuple(a + b for a, b in zip(self.totals, nxt.end.scores, strict=True))
        return log
