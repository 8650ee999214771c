"""What one player may see: the only way hidden information leaves the engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .rules import Rules
from .state import RoundState
from .table import Rack, Table

__all__ = ["Observation", "observe"]


@dataclass(frozen=True, slots=True)
class Observation:
    """One player's view: own rack, the table, the other racks' sizes, the pool size, who has
    opened, the scores, whose turn it is and the time left. Never another player's tiles or the
    pool order."""

    player: int
    rules: Rules
    rack: Rack
    table: Table
    rack_sizes: tuple[int, ...]
    pool_size: int
    opened: tuple[bool, ...]
    current: int
    turn: int
    passes: int
    scores: tuple[int, ...]
    time_left: float | None = None
    round: int = 0

    @property
    def my_turn(self) -> bool:
        return self.current == self.player

    @property
    def has_opened(self) -> bool:
        return self.opened[self.player]

    @property
    def players(self) -> int:
        return len(self.rack_sizes)

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "round": self.round,
            "turn": self.turn,
            "current": self.current,
            "rack": self.rack.to_json(),
            "table": self.table.to_json(),
            "rack_sizes": list(self.rack_sizes),
            "pool_size": self.pool_size,
            "opened": list(self.opened),
            "passes": self.passes,
            "scores": list(self.scores),
            "time_left": self.time_left,
            "rules": self.rules.to_dict(),
        }

    def position(self) -> dict[str, Any]:
        """The position (FORMATS "Position (JSON)") for the solver."""
        return {
            "table": self.table.to_json(),
            "rack": self.rack.to_json(),
            "opened": self.has_opened,
            "rules": self.rules.to_dict(),
        }


def observe(
    state: RoundState,
    player: int,
    *,
    scores: tuple[int, ...] | None = None,
    time_left: float | None = None,
    round: int = 0,
) -> Observation:
    """The observation of ``player`` in ``state``."""
    return Observation(
        player=player,
        rules=state.rules,
        rack=state.racks[player],
        table=state.table,
        rack_sizes=tuple(len(r) for r in state.racks),
        pool_size=len(state.pool),
        opened=state.opened,
        current=state.current,
        turn=state.turn,
        passes=state.passes,
        scores=scores if scores is not None else (0,) * state.players,
        time_left=time_left,
        round=round,
    )
