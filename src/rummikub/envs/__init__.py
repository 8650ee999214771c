"""Learning environments for both games: a PettingZoo AEC environment (every seat an agent) and
a Gymnasium one (one seat an agent, the others built-in bots), with the observation as a
fixed-shape array, the game's candidate actions (from the solver) as a discrete action space
with a mask, and rewards from the rules' scoring or win/loss. Needs the ``envs`` extra
(``pip install 'rummikub[envs]'``). See docs/learning.md.

>>> from rummikub.envs import make
>>> env = make("tiles", players=2, seed=1)
>>> env.reset()
>>> obs = env.observe(env.agent_selection)
>>> obs["action_mask"][0]  # drawing is always offered
1

The Gymnasium environments are registered too: ``gymnasium.make("rummikub/Tiles-v0")`` and
``gymnasium.make("rummikub/Xpress-v0")`` (keyword arguments as for :func:`make_gym`).
"""

from __future__ import annotations

from typing import Any

import gymnasium

from rummikub.bots.grid_playout import PlayedRound
from rummikub.bots.registry import get_bot
from rummikub.core import RulesError
from rummikub.games import game_names, game_part, get_game, parts_of

from .aec import Reward, RummikubEnv, bad_argument
from .gym import RummikubGym
from .spec import Features, GameSpec
from .tiles import TilesSpec
from .xpress import XpressSpec

__all__ = [
    "Features",
    "GameSpec",
    "Reward",
    "RummikubEnv",
    "RummikubGym",
    "TilesSpec",
    "XpressSpec",
    "env_games",
    "greedy_selfplay",
    "make",
    "make_gym",
    "spec_for",
]


def env_games() -> tuple[str, ...]:
    """The registered games that have learning environments (an ``env`` part)."""
    return game_names("env")


def spec_for(game: str, *, limit: int = 24) -> GameSpec:
    """The environments' part of a game (its ``env`` part in the table of game parts,
    :mod:`rummikub.games.parts`): its features and candidates."""
    try:
        name: str | None = get_game(game).name
    except RulesError:
        name = None
    if name is None or parts_of(name).env is None:
        raise bad_argument("game", game, " or ".join(env_games()))
    factory = game_part(name, "env")
    if not callable(factory):
        raise TypeError(f"the env part of {name} is not callable: {factory!r}")
    spec = factory(limit=limit)
    if not isinstance(spec, GameSpec):
        raise TypeError(f"the env part of {name} made {spec!r}, not a GameSpec")
    return spec


def _rules(game: str, rules: Any) -> Any:
    g = get_game(game)
    if rules is None:
        return next(iter(g.presets().values()))
    if isinstance(rules, str):
        presets = g.presets()
        if rules not in presets:
            raise bad_argument("rules", rules, f"a preset: {', '.join(presets)}")
        return presets[rules]
    if isinstance(rules, dict):
        return g.rules_from_json(rules)
    return rules


def make(
    game: str = "tiles",
    *,
    players: int = 2,
    rules: Any = None,
    seed: int = 0,
    reward: Reward = "score",
    limit: int = 24,
    render_mode: str | None = None,
) -> RummikubEnv:
    """The PettingZoo AEC environment of ``game`` (``tiles`` or ``xpress``) for ``players``
    agents under ``rules`` (a preset name, a rules JSON object or a rules value; default: the
    game's first preset). ``limit``: the size of the action space (candidates offered at most).
    """
    g = get_game(game)
    return RummikubEnv(
        g, spec_for(g.name, limit=limit), _rules(g.name, rules), players, seed=seed,
        reward=reward, render_mode=render_mode,
    )  # fmt: skip


def make_gym(
    game: str = "tiles",
    *,
    players: int = 2,
    rules: Any = None,
    seed: int = 0,
    opponent: str = "greedy",
    seat: int = 0,
    reward: Reward = "score",
    limit: int = 24,
    render_mode: str | None = None,
) -> RummikubGym:
    """The Gymnasium environment: the agent plays ``seat``, bots of level ``opponent`` the
    other seats (see :func:`make` for the rest)."""
    env = make(
        game, players=players, rules=rules, seed=seed, reward=reward, limit=limit,
        render_mode=render_mode,
    )  # fmt: skip
    name = env.game.name
    get_bot(opponent, 0, game=name)  # an unknown level is refused here, not at the first reset

    def bot(s: int) -> Any:
        return get_bot(opponent, s, game=name)

    return RummikubGym(env, [bot] * (players - 1), seat=seat)


def greedy_selfplay(
    *, players: int = 2, rules: Any = None, games: int = 1, seed: int = 0
) -> list[PlayedRound]:
    """Bulk self-play of the tile game, fast: ``games`` rounds (seeds ``seed``, ``seed + 1``,
    ...; each the first round of ``Match(rules, players, seed)``, the deal
    :func:`rummikub.bots.play_match` plays) with the greedy policy in every seat, played on
    tile counts (:mod:`rummikub.bots.grid_playout`): the solver's play of the most tiles,
    then the most value, every turn — ``greedy``'s policy without its tie-break on the fewest
    changed melds — and no game record. Rules (as for :func:`make`) must lock no table meld
    and open from the rack only (every preset but ``classic-strict``)."""
    from rummikub.bots.grid_playout import greedy_round

    chosen = _rules("tiles", rules)
    chosen.check_players(players)
    return [greedy_round(chosen, players, seed + k) for k in range(games)]


for _game in env_games():
    gymnasium.register(
        id=f"rummikub/{_game.capitalize()}-v0",
        entry_point="rummikub.envs:make_gym",
        kwargs={"game": _game},
    )
