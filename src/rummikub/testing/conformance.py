"""The conformance suite of the game interface: plays a game with its bots under every preset
and checks the contracts of :class:`~rummikub.core.interface.Game`; the first broken contract
raises :class:`GameContractError` naming the game, the preset, the seed and the contract."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummikub.bots.play import AnyMatch, play_decision
from rummikub.bots.registry import bot_levels, get_bot
from rummikub.core import IllegalPlayError, RummikubError
from rummikub.core.interface import Bot, PlayerInfo
from rummikub.games import AnyGame

__all__ = ["ConformanceSummary", "GameContractError", "check_game"]


class GameContractError(AssertionError):
    """A game broke a contract of the interface."""


@dataclass(slots=True)
class ConformanceSummary:
    """What :func:`check_game` played and checked."""

    game: str
    presets: list[str] = field(default_factory=list)
    matches: int = 0
    decisions: int = 0
    rounds: int = 0
    resumed: int = 0


@dataclass(frozen=True, slots=True)
class _Where:
    game: str
    preset: str
    seed: int

    def fail(self, contract: str, detail: str) -> GameContractError:
        return GameContractError(
            f"{self.game} ({self.preset}, seed {self.seed}): {contract}: {detail}"
        )


def _without_ms(value: Any) -> Any:
    """A record without its thinking times (``ms``), which vary from run to run."""
    if isinstance(value, dict):
        return {k: _without_ms(v) for k, v in value.items() if k != "ms"}
    if isinstance(value, list):
        return [_without_ms(v) for v in value]
    return value


def _check_decision(game: AnyGame, match: AnyMatch, where: _Where, rng: random.Random) -> None:
    """Contracts at one position: observations hide what they must and are JSON; the state
    is not changed by checking or applying an action; apply is deterministic."""
    state = match.state
    seat = game.current(state)
    players = len(match.players)
    for p in range(players):
        obs = game.observe(state, p)
        other = game.observe(game.redeal_hidden(state, p, rng), p)
        if obs != other:
            raise where.fail(
                "observations hide what they must",
                f"player {p + 1}'s observation changes when the hidden pieces are dealt anew",
            )
        data = game.observation_to_json(obs)
        if json.loads(json.dumps(data)) != data:
            raise where.fail("observation JSON", f"player {p + 1}'s observation is not plain JSON")
    snapshot = copy.deepcopy(state)
    fallback = game.fallback_action(game.observe(state, seat))
    refusal = game.check(state, fallback)
    if refusal is not None:
        raise where.fail("the fallback action is legal", f"{fallback}: {refusal}")
    data = game.action_to_json(fallback)
    if game.action_from_json(json.loads(json.dumps(data))) != fallback:
        raise where.fail("action JSON round-trips", f"{fallback} -> {data}")
    try:
        first = game.apply(state, fallback)
    except IllegalPlayError:
        first = None  # an action whose chance outcome the match supplies (an Xpress throw)
    if first is not None and game.apply(state, fallback) != first:
        raise where.fail("apply is deterministic", f"{fallback} gave two different states")
    if state != snapshot:
        raise where.fail("check and apply are pure", f"{fallback} changed the state it was given")


def _play(
    game: AnyGame,
    rules: Any,
    bots: Sequence[Bot[Any, Any]],
    seed: int,
    where: _Where,
    summary: ConformanceSummary,
    max_decisions: int,
) -> tuple[AnyMatch, list[tuple[Any, dict[str, Any]]]]:
    """Play a match, checking every position; the match, and at every change of the player to
    move the record so far with the decisions made since the start."""
    rng = random.Random(seed)
    infos = [PlayerInfo(f"{b.name}-{i + 1}", "bot", b.name) for i, b in enumerate(bots)]
    match = game.new_match(rules, infos, seed)
    cuts: list[tuple[Any, dict[str, Any]]] = []
    decisions = 0
    while True:
        while not match.round_over:
            if decisions >= max_decisions:
                raise where.fail("matches end", f"no end after {max_decisions} decisions")
            _check_decision(game, match, where, rng)
            seat = game.current(match.state)
            play_decision(game, match, bots[seat], None)
            decisions += 1
            summary.decisions += 1
            if not match.round_over and game.current(match.state) != seat:
                cuts.append((decisions, game.match_record(match)))
        summary.rounds += 1
        _check_round(game, rules, match, where)
        if match.over:
            return match, cuts
        match.next_round()


def _check_round(game: AnyGame, rules: Any, match: AnyMatch, where: _Where) -> None:
    result = game.result(match.state)
    if result is None:
        raise where.fail("round end", "the match says the round is over but it has no result")
    players = len(match.players)
    if len(result.scores) != players:
        raise where.fail("scores", f"{len(result.scores)} scores for {players} players")
    if game.zero_sum(rules) and sum(result.scores) != 0:
        raise where.fail("scores add up to zero", f"round scores {list(result.scores)}")
    if result.winner is not None and not 0 <= result.winner < players:
        raise where.fail("round end", f"winner {result.winner} is not a seat")


def _check_match(
    game: AnyGame, match: AnyMatch, cuts: list[tuple[Any, dict[str, Any]]], where: _Where
) -> int:
    """Records: JSON, verify, resume to the same record; resumed from every cut, the rest of
    the match continues as it went. Returns the number of resumptions checked."""
    record = game.match_record(match)
    if json.loads(json.dumps(record)) != record:
        raise where.fail("records are JSON", "the record does not survive JSON")
    if record.get("format") not in game.record_formats:
        raise where.fail("record format", f"{record.get('format')!r} is not the game's")
    rec = game.load_record(record)
    try:
        game.verify(rec)
    except RummikubError as exc:
        raise where.fail("records verify", str(exc)) from None
    totals = [0] * len(match.players)
    for step in game.replay(rec):
        after = game.result(step.after)
        if after is not None:
            totals = [a + b for a, b in zip(totals, after.scores, strict=True)]
    if tuple(totals) != tuple(match.totals):
        raise where.fail("totals are the sum of the rounds", f"{totals} != {list(match.totals)}")
    if not match.winners or not set(match.winners) <= set(range(len(match.players))):
        raise where.fail("winners", f"{match.winners}")
    if game.match_record(game.resume(rec)) != record:
        raise where.fail("records replay exactly", "a resumed finished match writes another record")
    checked = 0
    for _, partial in cuts[:: max(1, len(cuts) // 4)]:
        resumed = game.resume(game.load_record(partial))
        again = game.match_record(resumed)
        if _without_ms(again) != _without_ms(partial):
            raise where.fail("records replay exactly", "a resumed match writes another record")
        checked += 1
    return checked


def check_game(
    game: AnyGame,
    *,
    presets: Iterable[str] | None = None,
    levels: Sequence[str] | None = None,
    games: int = 2,
    seed: int = 0,
    players: int | None = None,
    max_decisions: int = 20_000,
) -> ConformanceSummary:
    """Check ``game`` against the interface's contracts; raise :class:`GameContractError` at
    the first broken one.

    For every preset (default: all) it plays ``games`` matches between the game's bots
    (``levels``, default: every registered level, cycled over the seats) and checks: the rules'
    JSON round-trips; at every position, observations do not change when what the player cannot
    see is dealt anew and are plain JSON, the fallback action is legal and its JSON round-trips,
    and checking an action changes nothing; every round has one score per player (adding up to
    zero where the game says so); records are JSON in the game's format, verify, add up to the
    match's totals, and a match resumed from its record (finished, or cut where the player to
    move changes) writes the same record again."""
    summary = ConformanceSummary(game.name)
    names = list(presets) if presets is not None else list(game.presets())
    levels = list(levels) if levels is not None else list(bot_levels(game.name))
    if not levels:
        raise GameContractError(f"{game.name}: no bot levels registered")
    for name in names:
        rules = game.presets()[name]
        summary.presets.append(name)
        data = game.rules_to_json(rules)
        if game.rules_from_json(json.loads(json.dumps(data))) != rules:
            raise GameContractError(f"{game.name} ({name}): the rules' JSON does not round-trip")
        counts = game.player_counts(rules)
        seats = players if players is not None else counts.start
        for g in range(games):
            game_seed = seed + g
            where = _Where(game.name, name, game_seed)
            bots = [
                get_bot(levels[(k + g) % len(levels)], game_seed * 10 + k, game=game.name)
                for k in range(seats)
            ]
            match, cuts = _play(game, rules, bots, game_seed, where, summary, max_decisions)
            summary.resumed += _check_match(game, match, cuts, where)
            summary.matches += 1
    return summary
