"""The flow of an Xpress match: seeded setup and throws, turns, six rounds, alternating start.

Every chance event comes from one generator per round, seeded from the match seed, and is
written into the round's log (the dice each player took, the setup roll, the faces of every
throw), so a record replays without any generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from rummikub.core.errors import Code, UsageError
from rummikub.core.game_base import check_next_round
from rummikub.core.interface import PlayerInfo

from .actions import EndTurn, Place, Throw, XpressAction
from .dice import DieFace, Layout, default_layout
from .observation import XpressObservation, observe
from .rules import XpressRules
from .state import XpressEnd, XpressState, abandon, apply, validate_throw_choice

__all__ = ["XpressMatch", "XpressPlayer", "XpressRound", "XpressTurn"]


#: a seat of an Xpress match: the platform's one player type
XpressPlayer = PlayerInfo


@dataclass(slots=True)
class XpressTurn:
    """One turn: its throw (None on a player's first turn: the setup roll), the placements, and
    whether the player ended it (a turn that wins the round ends with its last placement)."""

    player: int
    throw: Throw | None = None
    places: list[Place] = field(default_factory=list)
    ended: bool = False
    ms: int | None = None


@dataclass(slots=True)
class XpressRound:
    """A round's setup (who starts, the dice each player took with their rolled faces), its
    turns and its end."""

    first: int
    hands: tuple[tuple[DieFace, ...], ...]
    turns: list[XpressTurn] = field(default_factory=list)
    end: XpressEnd | None = None


def setup_round(
    rng: random.Random, rules: XpressRules, layout: Layout
) -> tuple[tuple[DieFace, ...], ...]:
    """Put all dice in the pouch, let each player take ``dice_per_player`` and roll them."""
    dice = list(range(len(layout)))
    rng.shuffle(dice)
    n = rules.dice_per_player
    hands = []
    for p in range(rules.players):
        taken = sorted(dice[p * n : (p + 1) * n])
        hands.append(tuple(DieFace(d, rng.choice(layout.faces_of(d))) for d in taken))
    return tuple(hands)


class XpressMatch:
    """A match of ``rules.rounds`` rounds between two players, driven by the caller."""

    def __init__(
        self,
        players: Sequence[XpressPlayer | str],
        seed: int,
        *,
        rules: XpressRules | None = None,
        layout: Layout | None = None,
        start: bool = True,
    ) -> None:
        infos = tuple(p if isinstance(p, XpressPlayer) else XpressPlayer(p) for p in players)
        self.rules = rules or XpressRules()
        if len(infos) != self.rules.players:
            raise UsageError(
                f"Xpress is for {self.rules.players} players, got {len(infos)}",
                code=Code.PLAYER_COUNT,
                params={"players": len(infos)},
            )
        self.players = infos
        self.seed = seed
        self.layout = layout or default_layout()
        self.rounds: list[XpressRound] = []
        self.totals: tuple[int, ...] = (0,) * len(infos)
        self.state: XpressState
        self._rng = random.Random()
        if start:
            self.start_round()

    # -- rounds --------------------------------------------------------------------------
    def start_round(self) -> XpressState:
        index = len(self.rounds)
        self._rng = random.Random(f"rummikub-xpress/{self.seed}/{index}")
        if index == 0:
            first = self._rng.randrange(self.rules.players)
        else:
            first = (self.rounds[0].first + index) % self.rules.players
        hands = setup_round(self._rng, self.rules, self.layout)
        self.rounds.append(XpressRound(first, hands))
        self.state = XpressState.start(self.rules, self.layout, hands, first)
        return self.state

    def wind_generator(self) -> None:
        """Set the current round's generator to where the recorded throws left it (used when
        a match is rebuilt from a record)."""
        index = len(self.rounds) - 1
        self._rng = random.Random(f"rummikub-xpress/{self.seed}/{index}")
        if index == 0:
            self._rng.randrange(self.rules.players)
        setup_round(self._rng, self.rules, self.layout)
        for turn in self.rounds[-1].turns:
            if turn.throw is not None:
                self.throw_faces(turn.throw.dice)

    @property
    def round_over(self) -> bool:
        return self.state.end is not None

    @property
    def over(self) -> bool:
        return self.round_over and len(self.rounds) >= self.rules.rounds

    @property
    def winners(self) -> list[int]:
        best = max(self.totals)
        return [p for p, t in enumerate(self.totals) if t == best]

    def next_round(self) -> XpressState:
        check_next_round(self.round_over, self.over)
        return self.start_round()

    def abandon(self) -> None:
        """End the current round without a winner (it scores nothing)."""
        if self.state.end is None:
            self.state = abandon(self.state)
            self.rounds[-1].end = self.state.end

    # -- turns ---------------------------------------------------------------------------
    def observation(self, player: int, time_left: float | None = None) -> XpressObservation:
        return observe(
            self.state, player, round=len(self.rounds) - 1, scores=self.totals, time_left=time_left
        )

    def throw_faces(self, dice: Sequence[int]) -> Throw:
        """A throw of ``dice`` with faces from the round's generator (not yet applied)."""
        return Throw(tuple(dice), tuple(self._rng.choice(self.layout.faces_of(d)) for d in dice))

    def _open_turn(self) -> XpressTurn:
        turns = self.rounds[-1].turns
        if not turns or turns[-1].ended or turns[-1].player != self.state.current:
            turns.append(XpressTurn(self.state.current))
        return turns[-1]

    def act(self, action: XpressAction, *, ms: int | None = None) -> XpressState:
        """Carry out ``action`` for the player to move and record it. A :class:`Throw`
        without faces is thrown here. Illegal actions raise and change nothing."""
        state = self.state
        if isinstance(action, Throw) and action.faces is None:
            validate_throw_choice(state, action.dice)  # before spending random numbers
            action = self.throw_faces(action.dice)
        nxt = apply(state, action)
        if isinstance(action, Throw):
            self.rounds[-1].turns.append(XpressTurn(state.current, throw=action))
        turn = self._open_turn()
        if isinstance(action, Place):
            turn.places.append(action)
        elif isinstance(action, EndTurn):
            turn.ended = True
        if ms is not None:
            turn.ms = (turn.ms or 0) + ms
        self.state = nxt
        if nxt.end is not None:
            self.rounds[-1].end = nxt.end
            self.totals = tuple(a + b for a, b in zip(self.totals, nxt.end.scores, strict=True))
        return nxt
