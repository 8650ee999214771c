"""Running a whole match between bots, for any game of the platform (used by ``simulate``,
tournaments and the conformance checks)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rummikub.core import IllegalPlayError, PlayerInfo
from rummikub.core.interface import Bot, GameMatch
from rummikub.games import AnyGame, game_for_rules

__all__ = ["TurnEvent", "play_decision", "play_match"]

AnyMatch = GameMatch[Any, Any, Any, Any]


@dataclass(frozen=True, slots=True)
class TurnEvent:
    """What happened on one bot decision, for observers (conformance, statistics).

    ``problem`` is ``None`` for a clean legal answer, else one of ``exception``, ``not-action``,
    ``illegal`` (the answer was refused by the engine), ``timeout`` (the bot gave up its turn
    as timed out), ``slow`` (answered after the time limit). ``action`` is what the bot
    answered (``None`` if it raised or gave no action)."""

    player: int
    observation: Any
    action: Any
    seconds: float
    problem: str | None = None
    detail: str = ""


def play_decision(
    game: AnyGame,
    match: AnyMatch,
    bot: Bot[Any, Any],
    limit: float | None = None,
    on_turn: Callable[[TurnEvent], None] | None = None,
) -> None:
    """Ask the player to move for one action and carry it out.

    A refused action is handled as the rules say: under the tile game's ``penalty`` rule the
    match logs the penalty; otherwise the game's always-legal fallback action is played. A bot
    that raises, or answers with something that is not an action, has its turn timed out."""
    state = match.state
    player = game.current(state)
    obs = match.observation(player, limit)
    started = time.perf_counter()
    problem: str | None = None
    detail = ""
    answer: object
    try:
        answer = bot.act(obs, limit)
    except Exception as exc:  # a crashing bot loses its turn, as a timeout would
        answer, problem, detail = None, "exception", f"{type(exc).__name__}: {exc}"
    seconds = time.perf_counter() - started
    ms = int(seconds * 1000)
    is_action = game.is_action(answer)
    if is_action:
        action = answer
    else:
        if problem is None:
            problem, detail = "not-action", f"answered {answer!r}"
        action = game.timeout_action(obs)
    if problem is None and game.is_timeout(action):
        problem, detail = "timeout", "the bot ran out of time"
    if problem is None and limit is not None and seconds > limit:
        problem, detail = "slow", f"took {seconds:.3f}s of {limit:.3f}s"
    refusal = game.check(state, action)
    if refusal is not None and problem is None:
        problem, detail = "illegal", f"{action}: {refusal}"
    try:
        match.act(action, ms=ms)
    except IllegalPlayError:
        match.act(game.fallback_action(obs), ms=ms)
    if on_turn is not None:
        on_turn(TurnEvent(player, obs, answer if is_action else None, seconds, problem, detail))


def play_match(
    rules: Any,
    bots: Sequence[Bot[Any, Any]],
    seed: int,
    *,
    game: AnyGame | None = None,
    names: Sequence[str] | None = None,
    max_turns: int = 2000,
    time_limit: float | Literal["rules"] | None = "rules",
    on_turn: Callable[[TurnEvent], None] | None = None,
) -> Any:
    """Play a complete match of ``game`` (default: the game ``rules`` belong to) between
    ``bots`` (seat order) and return it.

    Each bot gets ``time_limit`` seconds per decision (default: the rules' turn time; ``None``:
    no limit). A refused action is handled as :func:`play_decision` says. A round that runs
    past ``max_turns`` turns is abandoned (it scores nothing) so a pathological bot cannot hang
    a simulation. ``on_turn`` sees every decision. Bots with ``start_game(rules, seat,
    players)`` and ``end_game(totals, winners)`` methods are told when the match starts and
    ends."""
    game = game or game_for_rules(rules)
    limit = game.turn_seconds(rules) if time_limit == "rules" else time_limit
    infos = [
        PlayerInfo(names[i] if names else f"{b.name}-{i + 1}", "bot", b.name)
        for i, b in enumerate(bots)
    ]
    match = game.new_match(rules, infos, seed)
    for seat, bot in enumerate(bots):
        start = getattr(bot, "start_game", None)
        if start is not None:
            start(rules, seat, len(bots))
    while True:
        while not match.round_over:
            if game.turn(match.state) >= max_turns:
                match.abandon()
                break
            play_decision(game, match, bots[game.current(match.state)], limit, on_turn)
        if match.over:
            for bot in bots:
                end = getattr(bot, "end_game", None)
                if end is not None:
                    end(match.totals, match.winners)
            return match
        match.next_round()
