"""What an Xpress player sees. Dice are thrown in the open, so both hands are visible; what
nobody sees is the faces of throws still to come."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummikub.core.table import Table

from .dice import DieFace, Layout
from .rules import XpressRules
from .state import Phase, XpressState

__all__ = ["XpressObservation", "observe"]


def _dice_json(dice: tuple[DieFace, ...]) -> list[dict[str, Any]]:
    return [{"die": d.die, "face": str(d.face)} for d in dice]


@dataclass(frozen=True, slots=True)
class XpressObservation:
    """One player's view of the game at a moment: his dice, the other player's dice, the table,
    whose turn and which phase it is, the blocked counters and the match scores."""

    player: int
    rules: XpressRules
    layout: Layout
    hand: tuple[DieFace, ...]
    other: tuple[DieFace, ...]
    table: Table
    current: int
    phase: Phase
    placed: int
    can_place: bool
    may_end_turn: bool
    idle: tuple[int, ...]
    turn: int
    round: int
    scores: tuple[int, ...]
    time_left: float | None = None

    @property
    def my_turn(self) -> bool:
        return self.current == self.player

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "xpress",
            "player": self.player,
            "round": self.round,
            "turn": self.turn,
            "current": self.current,
            "phase": self.phase,
            "hand": _dice_json(self.hand),
            "other": _dice_json(self.other),
            "table": self.table.to_json(),
            "placed": self.placed,
            "can_place": self.can_place,
            "may_end_turn": self.may_end_turn,
            "idle": list(self.idle),
            "scores": list(self.scores),
            "time_left": self.time_left,
            "rules": self.rules.to_dict(),
            "layout": self.layout.to_json(),
        }


def observe(
    state: XpressState,
    player: int,
    *,
    round: int = 0,
    scores: tuple[int, ...] | None = None,
    time_left: float | None = None,
) -> XpressObservation:
    """The observation of ``player`` in ``state``."""
    return XpressObservation(
        player=player,
        rules=state.rules,
        layout=state.layout,
        hand=state.hands[player],
        other=state.hands[1 - player],
        table=state.table,
        current=state.current,
        phase=state.phase,
        placed=state.placed if state.current == player else 0,
        can_place=state.can_place if state.current == player else False,
        may_end_turn=state.current == player and state.may_end_turn(),
        idle=state.idle,
        turn=state.turn,
        round=round,
        scores=scores if scores is not None else (0,) * state.players,
        time_left=time_left,
    )
