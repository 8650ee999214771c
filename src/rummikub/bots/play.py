"""Running a whole match between bots (used by ``simulate`` and tournaments)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from rummikub.core import (
    IllegalPlayError,
    Match,
    PlayerInfo,
    Rules,
    Timeout,
)

from .base import Bot, fallback_action

__all__ = ["play_match"]


def play_match(
    rules: Rules,
    bots: Sequence[Bot],
    seed: int,
    *,
    names: Sequence[str] | None = None,
    max_turns: int = 2000,
) -> Match:
    """Play a complete match between ``bots`` (seat order) and return it.

    A bot's illegal play is handled per the rules: rejected plays fall back to a draw (or a pass)
    under ``reject``, and are penalised by the engine under ``penalty``. A round that runs past
    ``max_turns`` turns is abandoned (it scores nothing) so a pathological bot cannot hang a
    simulation.
    """
    infos = [
        PlayerInfo(names[i] if names else f"{b.name}-{i + 1}", "bot", b.name)
        for i, b in enumerate(bots)
    ]
    match = Match(rules, infos, seed)
    while True:
        while not match.round_over:
            if match.state.turn >= max_turns:
                match.abandon()
                break
            player = match.state.current
            obs = match.observation(player, rules.turn_seconds)
            started = time.perf_counter()
            try:
                action = bots[player].act(obs, rules.turn_seconds)
            except Exception:  # a crashing bot loses its turn, as a timeout would
                action = Timeout()
            ms = int((time.perf_counter() - started) * 1000)
            try:
                match.act(action, ms=ms)
            except IllegalPlayError:
                match.act(fallback_action(obs), ms=ms)
        if match.over:
            return match
        match.next_round()
