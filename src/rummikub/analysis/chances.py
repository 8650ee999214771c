"""The search bot's view of a turn: the mover's chance of winning the round before and after his
move, estimated by the expert's playouts (:func:`rummikub.bots.playout.win_chances`) from his
own observation only: the unseen tiles are dealt anew in every sample, never read."""

from __future__ import annotations

import zlib

from rummikub.core import RoundState, observe

__all__ = ["win_chance"]


def win_chance(state: RoundState, player: int, *, samples: int, seed: str) -> float:
    """``player``'s chance to win the round from ``state`` as he sees it (1 or 0 once the round
    is over), over ``samples`` playouts drawn from a generator seeded by ``seed``."""
    if state.end is not None:
        return 1.0 if state.end.winner == player else 0.0
    from rummikub.bots.playout import win_chances

    view = observe(state, player)
    return win_chances(view, samples=samples, seed=zlib.crc32(seed.encode()))[player]
