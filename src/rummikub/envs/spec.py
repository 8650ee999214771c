"""What an environment needs of a game: its observation as a fixed-shape array, and its
candidate actions (a legal action space a policy can index).

A :class:`GameSpec` is written once per game; the environments (:mod:`.aec`, :mod:`.gym`)
are written once against it and the platform's :class:`~rummikub.core.interface.Game`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

__all__ = ["Features", "GameSpec"]

#: an observation as the environments give it to a policy
Features = npt.NDArray[np.float32]


@runtime_checkable
class GameSpec(Protocol):
    """The per-game part of the environments."""

    #: the registered game's name (``tiles``, ``xpress``)
    game: str
    #: the most candidates offered: the size of the action space
    limit: int

    def feature_size(self, rules: Any, players: int) -> int:
        """The length of :meth:`features` for ``players`` players under ``rules``."""
        ...

    def features(self, obs: Any) -> Features:
        """The observation as a fixed-shape array (layout in docs/learning.md), seen from the
        observing player: his own pieces first, the other players in seat order after him."""
        ...

    def candidates(self, obs: Any) -> Sequence[Any]:
        """The actions offered to the player to move, most promising first, never empty: every
        one is legal (the environment checks them against the rules)."""
        ...
