"""Running a whole match between bots (used by ``simulate``, tournaments and the conformance
check)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from rummikub.core import (
    Action,
    Draw,
    IllegalPlayError,
    Match,
    Observation,
    Pass,
    Play,
    PlayerInfo,
    Rules,
    Timeout,
)

from .base import Bot, fallback_action

__all__ = ["TurnEvent", "play_match"]

_ACTIONS = (Play, Draw, Pass, Timeout)


@dataclass(frozen=True, slots=True)
class TurnEvent:
    """What happened on one bot decision, for observers (conformance, statistics).

    ``problem`` is ``None`` for a clean legal answer, else one of ``exception``, ``not-action``,
    ``illegal`` (the answer was rejected by the engine), ``timeout`` (the bot gave up its turn
    as timed out), ``slow`` (answered after the time
    limit). ``action`` is what the bot answered (``None`` if it raised or gave no action)."""

    player: int
    observation: Observation
    action: Action | None
    seconds: float
    problem: str | None = None
    detail: str = ""


def play_match(
    rules: Rules,
    bots: Sequence[Bot],
    seed: int,
    *,
    names: Sequence[str] | None = None,
    max_turns: int = 2000,
    time_limit: float | Literal["rules"] | None = "rules",
    on_turn: Callable[[TurnEvent], None] | None = None,
) -> Match:
    """Play a complete match between ``bots`` (seat order) and return it.

    Each bot gets ``time_limit`` seconds per decision (default: the rules' ``turn_seconds``;
    ``None``: no limit). A bot's illegal play is handled per the rules: under ``reject`` it
    falls back to a draw (or a pass), under ``penalty`` the engine records it as an invalid
    turn with penalty tiles. A bot that raises, or answers with something that is not an
    action, loses the turn as a timeout would. A round that runs past ``max_turns`` turns is
    abandoned (it scores nothing) so a pathological bot cannot hang a simulation.
    ``on_turn`` sees every decision. Bots with ``start_game(rules, seat, players)`` and
    ``end_game(totals, winners)`` methods are told when the match starts and ends.
    """
    limit: float | None
    if time_limit == "rules":
        limit = None if rules.turn_seconds is None else float(rules.turn_seconds)
    else:
        limit = time_limit
    infos = [
        PlayerInfo(names[i] if names else f"{b.name}-{i + 1}", "bot", b.name)
        for i, b in enumerate(bots)
    ]
    match = Match(rules, infos, seed)
    for seat, bot in enumerate(bots):
        start = getattr(bot, "start_game", None)
        if start is not None:
            start(rules, seat, len(bots))
    while True:
        while not match.round_over:
            if match.state.turn >= max_turns:
                match.abandon()
                break
            player = match.state.current
            obs = match.observation(player, limit)
            started = time.perf_counter()
            problem: str | None = None
            detail = ""
            answer: object
            try:
                answer = bots[player].act(obs, limit)
            except Exception as exc:  # a crashing bot loses its turn, as a timeout would
                answer, problem, detail = None, "exception", f"{type(exc).__name__}: {exc}"
            seconds = time.perf_counter() - started
            ms = int(seconds * 1000)
            action: Action
            if isinstance(answer, _ACTIONS):
                action = answer
            else:
                if problem is None:
                    problem, detail = "not-action", f"answered {answer!r}"
                action = Timeout()
            if problem is None and isinstance(action, Timeout):
                problem, detail = "timeout", "the bot ran out of time"
            if problem is None and limit is not None and seconds > limit:
                problem, detail = "slow", f"took {seconds:.3f}s of {limit:.3f}s"
            try:
                match.act(action, ms=ms)
            except IllegalPlayError as exc:
                problem = problem or "illegal"
                detail = detail or f"{action}: {exc}"
                match.act(fallback_action(obs), ms=ms)
            else:
                log = match.rounds[-1].turns[-1]
                if log.action == "invalid" and problem is None:
                    problem, detail = "illegal", f"{action}: {log.reason}"
            if on_turn is not None:
                on_turn(
                    TurnEvent(
                        player,
                        obs,
                        answer if isinstance(answer, _ACTIONS) else None,
                        seconds,
                        problem,
                        detail,
                    )
                )
        if match.over:
            for bot in bots:
                end = getattr(bot, "end_game", None)
                if end is not None:
                    end(match.totals, match.winners)
            return match
        match.next_round()
