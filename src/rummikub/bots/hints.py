"""Hints for every game, written once: the action a player would do well to take, from his
observation only. Every front end (terminal games, the server's rooms) asks :func:`hint` and
shows the action its own way. A game's hint is its ``hint`` part in the table of game parts
(:mod:`rummikub.games.parts`); the two games' hints are defined here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rummikub.core import Observation, Play
from rummikub.games import AnyGame, game_part
from rummikub.xpress import XpressObservation

__all__ = ["HintFunction", "hint", "most_placeable", "tiles_hint", "xpress_hint"]

#: a game's hint: (observation, seconds) -> the suggested action
HintFunction = Callable[[Any, float], Any]


def tiles_hint(obs: Observation, time_limit: float) -> Any:
    """The best move by the evaluation (:func:`rummikub.bots.evaluation.best_move`: the move
    the analysis of the same position judges best, and the expert's), which may be to draw
    although a play exists; a play laid out with the fewest changes to the table that places
    the same tiles (the layout a person most easily follows)."""
    from rummikub.solver import solve

    from .evaluation import best_move

    action, _ = best_move(obs, time_limit=time_limit)
    if not isinstance(action, Play):
        return action
    easy = solve(obs.table, action.tiles, opened=obs.has_opened, rules=obs.rules,
                 time_limit=time_limit).as_play()  # fmt: skip
    key = sorted(str(t) for t in action.tiles)
    if easy is not None and sorted(str(t) for t in easy.tiles) == key:
        return easy
    return action


def most_placeable(obs: Observation, time_limit: float | None = None) -> int:
    """The most rack tiles a play could place now (an opening, before the player has opened);
    0 when nothing can be placed. A hint to draw while this is above 0 says that keeping the
    tiles is the better move (docs/bots.md, "Holding the tiles"), not that nothing fits."""
    from rummikub.solver import solve

    return solve(obs.table, obs.rack.tiles, opened=obs.has_opened, rules=obs.rules,
                 time_limit=time_limit).tiles  # fmt: skip


def xpress_hint(obs: XpressObservation, time_limit: float) -> Any:
    """The best move by the evaluation (:func:`rummikub.bots.evaluation.best_move`, the move
    the analysis of the same position judges best, and the expert's): before the throw the
    dice to throw again, after it the dice to place (a :class:`~rummikub.xpress.Place` laid
    out by the placement search; it may hold dice back) or the end of the turn."""
    from .evaluation import best_move

    action, _ = best_move(obs, time_limit=time_limit)
    return action


def hint(game: AnyGame, obs: Any, time_limit: float = 1.0) -> Any:
    """The action suggested to the player whose observation ``obs`` is (the game's ``hint``
    part; :class:`~rummikub.games.MissingPart` when it has none)."""
    function = game_part(game, "hint")
    if not callable(function):
        raise TypeError(f"the hint part of {game.name} is not callable: {function!r}")
    return function(obs, time_limit)
