"""The evaluation of a position: who is winning, from one player's view.

:func:`evaluate` answers, for the player whose observation it is given, his chance to win the
round (``win_round``), his chance to win the match (``win_match``) and his expected round score
(``expected_score``, in the rules' own scoring), with the same figures for every seat.
:func:`rank_moves` evaluates candidate moves of the player to move the same way and orders them,
best first. Both see only the observation: the tiles the player cannot see (the other racks
and the pool) are dealt anew in every sample (:func:`rummikub.bots.sampling.determinize`),
never read.

**The model.** Each sample deals the unseen tiles at random into the other racks (of their known
sizes) and the pool, except that an opponent is given a tile that would give him a move (a play
onto the table as it lies once he has opened, an opening before) only with the odds
:data:`FIT_WEIGHT` (0.3) against another tile: a player who places what he can every turn is
seldom left holding a move, but a player who holds tiles back does hold some. Measured
(docs/analysis.md): never giving him such a tile (0) made holding back look safe, and the expert
that ranked its moves so won only 51 games in 100 against ``strategic``; uniform deals (1) made
every opponent too strong, and the review judged ``strategic``'s holding back worse than
``greedy``'s biggest plays although ``strategic`` wins more; at 0.3 the expert won 65 of 100
and the review ranks the two as their results do. Where the playouts run on melds only the
tiles that simply extend the table are held back so
(:func:`rummikub.bots.sampling.weighted_deal`). Each deal is then played on with the playout
policy for every player (:mod:`rummikub.bots.grid_playout` on tile counts where the rules lock
no meld, :mod:`rummikub.bots.playout` on tiles and melds otherwise: the solver's play placing the
most tiles, a draw otherwise, the jokers kept as ``strategic`` keeps them on counts):
:data:`ROLLOUT_ROUNDS` turns of every player, the position reached valued by the learned model
(:mod:`rummikub.bots.leaf`), at the default depth; to the end of the round at ``deep`` (a
playout still running after :data:`MAX_PLIES` moves is scored as if the pool had run out). The
round's winner and its scores
(:func:`rummikub.core.scoring.score_round`) are read from every sample.

The match is extended from the round by simulation: after this round each sample's scores are
added to the match totals the observation carries (``scores``, the totals of the rounds before);
if the match is over then (``Rules.match``: its number of rounds, counting this one as round
``obs.round + 1``, or a target score reached) its winners are read off
(:func:`rummikub.core.scoring.match_winners`; a tie shares the win). Otherwise every remaining
round is drawn from the same playouts: the scores of a sample chosen at random, dealt to the
seats in a random order (the seats are alike in a round still to be dealt), until the match is
over (at most :data:`MAX_FUTURE_ROUNDS` more rounds; then the leader wins), ``match_paths``
times in all. Xpress (the dice game, whose two hands lie open) plays its round out with its
``greedy`` bot and seeded throws, and its match lasts ``XpressRules.rounds`` rounds.

Everything random comes from generators seeded by ``seed``: the same call gives the same answer,
and :func:`rank_moves` plays every candidate in the same deals (common random numbers), so it
compares the moves, not the luck of the deals. ``time_limit`` (seconds) stops sampling early,
after at least one sample; it is the only use of the clock.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, cast, overload

from rummikub.core import (
    Action,
    Draw,
    MatchRules,
    Observation,
    Pass,
    Play,
    Rack,
    RoundState,
    Rules,
    RulesError,
    Tile,
    apply,
)
from rummikub.core.scoring import (
    exhausted_winner,
    lowest_total,
    match_over,
    match_winners,
    rack_value,
    score_round,
    scores_of_values,
)
from rummikub.core.state import check_action

if TYPE_CHECKING:
    from rummikub.bots.grid_playout import GridRound
    from rummikub.xpress import XpressAction, XpressObservation
    from rummikub.xpress.ranking import XpressJudgement

__all__ = [
    "DEEP_SAMPLES",
    "DEFAULT_SAMPLES",
    "DEPTHS",
    "FIT_WEIGHT",
    "MATCH_PATHS",
    "MAX_FUTURE_ROUNDS",
    "MAX_PLIES",
    "ROLLOUT_ROUNDS",
    "Depth",
    "Evaluation",
    "best_move",
    "candidate_moves",
    "evaluate",
    "judge_seed",
    "paired_difference",
    "rank_key",
    "rank_moves",
    "samples_for",
    "tiles_key",
]

#: how far a playout looks: ``default`` plays :data:`ROLLOUT_ROUNDS` turns of every player and
#: values the position reached with the learned model; ``deep`` plays to the end of the round
Depth = Literal["default", "deep"]
DEPTHS: tuple[Depth, ...] = ("default", "deep")
#: turns of every player a playout of the default depth plays before the model values it
ROLLOUT_ROUNDS = 3
#: sampled deals (playouts) an evaluation plays by default: bench/evaluation.py measures the
#: time and the calibration it gives (docs/analysis.md)
DEFAULT_SAMPLES = 32
#: ... and at the deep depth
DEEP_SAMPLES = 96
#: the odds that a deal gives an opponent a tile that would give him a move (a play onto the
#: table as it lies, an opening before he has opened) rather than another tile: 0 never (unless
#: no other tile is left), 1 a uniform deal; 0.3 measured best in docs/analysis.md
FIT_WEIGHT = 0.3
#: moves a playout may last before it is scored as if the pool had run out
MAX_PLIES = 400
#: a draw although a play exists is judged as a plan: the player holds his tiles (draws each
#: turn) until his whole rack can go down at once or the pool is empty, played out to the end
#: of the round
HOLD_PLAN = True
#: simulated continuations of the match beyond this round (only when the match goes on)
MATCH_PATHS = 1000
#: rounds a simulated continuation may add before the leader is taken as the winner
MAX_FUTURE_ROUNDS = 100


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A position as one player sees it: his chance to win the round (``win_round``) and the
    match (``win_match``), his expected round score (``expected_score``, the rules' scoring:
    under ``zero-sum`` the winner gains what the others lose, under ``penalty-points`` it is the
    points left, lower being better), over ``samples`` playouts; and the same for every seat
    (``round_shares`` and ``match_shares`` sum to 1)."""

    player: int
    win_round: float
    win_match: float
    expected_score: float
    samples: int
    round_shares: tuple[float, ...]
    match_shares: tuple[float, ...]
    expected_scores: tuple[float, ...]
    #: the player's share of the round in each sampled deal (before calibration): two moves
    #: ranked together were played in the same deals, so their difference deal by deal says
    #: how sure the ranking is (:func:`paired_stderr`)
    per_deal: tuple[float, ...] = field(default=(), repr=False, compare=False)

    @property
    def stderr(self) -> float:
        """The standard error of ``win_round`` (binomial, over the samples)."""
        p = self.win_round
        return math.sqrt(max(p * (1.0 - p), 0.0) / self.samples)

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "win_round": round(self.win_round, 4),
            "win_match": round(self.win_match, 4),
            "expected_score": round(self.expected_score, 2),
            "samples": self.samples,
            "round_shares": [round(x, 4) for x in self.round_shares],
            "match_shares": [round(x, 4) for x in self.match_shares],
            "expected_scores": [round(x, 2) for x in self.expected_scores],
        }


@dataclass(frozen=True, slots=True)
class _Outcome:
    """How one playout ended: each seat's chance to have won the round (``shares``: 1 for the
    winner of a finished playout, the learned model's chances where a playout stopped early)
    and the round's scores with their weights (``results``: one entry for a finished playout,
    one per possible winner, weighted by his chance, for a stopped one)."""

    shares: tuple[float, ...]
    results: tuple[tuple[float, int | None, tuple[int, ...]], ...]  # (weight, winner, scores)

    @classmethod
    def ended(cls, winner: int | None, scores: tuple[int, ...]) -> _Outcome:
        n = len(scores)
        shares = (1.0 / n,) * n if winner is None else tuple(float(i == winner) for i in range(n))
        return cls(shares, ((1.0, winner, scores),))


@dataclass(frozen=True, slots=True)
class _Match:
    """What the match model needs: the totals before this round, the rounds played once this
    one is over, whether totals end the match and who leads them."""

    totals: tuple[int, ...]
    played: int
    over: Callable[[int, Sequence[int]], bool]
    winners: Callable[[Sequence[int]], list[int]]


# -- the tile game --------------------------------------------------------------------------


def evaluate(
    obs: Observation | XpressObservation,
    *,
    match: MatchRules | None = None,
    samples: int | None = None,
    seed: int = 0,
    time_limit: float | None = None,
    match_paths: int = MATCH_PATHS,
    depth: Depth = "default",
) -> Evaluation:
    """The evaluation of ``obs`` for its player (module docstring: the model). ``match``: the
    match's length when it is not the observation's rules' (``obs.rules.match``); ignored for
    Xpress. ``samples``: playouts at most; ``time_limit`` (seconds) stops earlier, after one.
    ``match_paths``: simulated continuations of a match that goes on after this round.
    ``depth``: ``default`` (short playouts, then the learned model) or ``deep`` (playouts to
    the end of the round); ``samples`` defaults to :data:`DEFAULT_SAMPLES` or
    :data:`DEEP_SAMPLES`."""
    from rummikub.xpress import XpressObservation

    if isinstance(obs, XpressObservation):
        return _evaluate_xpress(obs, _xpress_samples(samples, depth), seed, time_limit)
    samples = samples_for(samples, depth)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    rules = obs.rules
    on_counts = _on_counts(rules)
    plies = _plies(obs, depth)
    outcomes: list[_Outcome] = []
    for det in _deals(obs, seed, samples, deadline):
        over, start = _start(det, on_counts)
        outcomes.append(over if over is not None else _play_out(det, None, plies, start))
    model = _tile_match(obs, match)
    return _summarise(obs.player, outcomes, model, seed, match_paths, obs.current)


@overload
def candidate_moves(obs: Observation, time_limit: float | None = None) -> list[Action]: ...
@overload
def candidate_moves(
    obs: XpressObservation, time_limit: float | None = None
) -> list[XpressAction]: ...


def candidate_moves(
    obs: Observation | XpressObservation, time_limit: float | None = None
) -> list[Any]:
    """The moves worth comparing for the player to move, as the expert's search compares them
    (:func:`rummikub.bots.search.candidates`): the biggest play first, then the same play under
    ``strategic``'s joker policy when that differs, the plays placing one and two tiles fewer,
    a reserve tile held back and drawing although a play exists; a draw (a pass once the pool is
    empty) alone when nothing can be placed. Xpress: :func:`rummikub.xpress.ranking.candidate_moves`
    (the throw choices, or the placements and the end of the turn)."""
    from rummikub.xpress import XpressObservation

    if isinstance(obs, XpressObservation):
        from rummikub.xpress.ranking import candidate_moves as xpress_candidates

        return xpress_candidates(obs, time_limit)
    from rummikub.bots.search import SearchParams, candidates
    from rummikub.bots.strategic import StrategyParams, best_play, policy_play

    full = best_play(obs, time_limit)
    if full is None:
        return [Draw() if obs.pool_size else Pass()]
    out = candidates(obs, full, obs.rack.tiles, SearchParams(), time_limit)
    kept, _ = policy_play(obs, StrategyParams(reserve=0), time_limit)
    if kept is not None and tiles_key(kept) not in {tiles_key(a) for a in out}:
        out.insert(1, kept)
    return out


def judge_seed(obs: Observation | XpressObservation) -> int:
    """The seed a position's judgement uses unless told otherwise: a hash of everything the
    observation shows, so the hint and the analysis of the same position sample the same deals
    and rank its moves alike (the same seed on every machine and Python). Xpress:
    :func:`rummikub.xpress.ranking.judge_seed`."""
    from rummikub.xpress import XpressObservation

    if isinstance(obs, XpressObservation):
        from rummikub.xpress.ranking import judge_seed as xpress_seed

        return xpress_seed(obs)
    parts = [
        json.dumps(obs.rules.to_dict(), sort_keys=True),
        f"{obs.player} {obs.current} {obs.turn}",
        " ".join(sorted(str(t) for t in obs.rack.tiles)),
        "|".join(" ".join(str(t) for t in m.tiles) for m in obs.table.melds),
        ",".join(map(str, obs.rack_sizes)), ",".join("1" if o else "0" for o in obs.opened),
        str(obs.pool_size), str(obs.passes), ",".join(map(str, obs.scores)),
    ]  # fmt: skip
    return zlib.crc32("/".join(parts).encode())


@overload
def best_move(
    obs: Observation,
    *,
    samples: int | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    depth: Depth = "default",
) -> tuple[Action, Evaluation]: ...
@overload
def best_move(
    obs: XpressObservation,
    *,
    samples: int | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    depth: Depth = "default",
) -> tuple[XpressAction, Evaluation]: ...


def best_move(
    obs: Observation | XpressObservation,
    *,
    samples: int | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    depth: Depth = "default",
) -> tuple[Action, Evaluation] | tuple[XpressAction, Evaluation]:
    """The best of :func:`candidate_moves` by :func:`rank_moves` (the hint's and the expert's
    move; the analysis judges every move against it), with its evaluation. ``seed`` defaults
    to :func:`judge_seed`; ``time_limit`` bounds the search (the solver's part included)."""
    from rummikub.xpress import XpressObservation

    if isinstance(obs, XpressObservation):
        xpress_seed = judge_seed(obs) if seed is None else seed
        moves = candidate_moves(obs)
        best = _rank_xpress(obs, moves, _xpress_samples(samples, depth), xpress_seed, time_limit)
        return best[0]
    started = time.monotonic()
    cands = candidate_moves(obs, None if time_limit is None else max(0.01, time_limit / 2))
    left = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - started))
    ranked = rank_moves(
        obs, cands, samples=samples, seed=judge_seed(obs) if seed is None else seed,
        time_limit=left, depth=depth,
    )  # fmt: skip
    return ranked[0]


def tiles_key(action: Action) -> tuple[tuple[int, int], ...] | None:
    """The tiles a play places, as (colour, number) pairs in order (``None`` for a draw or a
    pass): plays placing the same tiles are one move to the playouts on counts."""
    if not isinstance(action, Play):
        return None
    return tuple(sorted((t.colour, t.number) for t in action.tiles))


@overload
def rank_moves(
    obs: Observation,
    candidates: Sequence[Action] | None = None,
    *,
    match: MatchRules | None = None,
    samples: int | None = None,
    seed: int = 0,
    time_limit: float | None = None,
    match_paths: int = MATCH_PATHS,
    depth: Depth = "default",
) -> list[tuple[Action, Evaluation]]: ...
@overload
def rank_moves(
    obs: XpressObservation,
    candidates: Sequence[XpressAction] | None = None,
    *,
    match: MatchRules | None = None,
    samples: int | None = None,
    seed: int = 0,
    time_limit: float | None = None,
    match_paths: int = MATCH_PATHS,
    depth: Depth = "default",
) -> list[tuple[XpressAction, Evaluation]]: ...


def rank_moves(
    obs: Observation | XpressObservation,
    candidates: Sequence[Action] | Sequence[XpressAction] | None = None,
    *,
    match: MatchRules | None = None,
    samples: int | None = None,
    seed: int = 0,
    time_limit: float | None = None,
    match_paths: int = MATCH_PATHS,
    depth: Depth = "default",
) -> list[tuple[Any, Evaluation]]:
    """``candidates`` (default: :func:`candidate_moves`) of the player to move, each evaluated
    after it is made (:func:`evaluate`'s model: every candidate played out in the same sampled
    deals, the opponents' fitting tiles read from the table before the move), best first: the
    highest ``win_match``, then ``win_round``, then going out now (a sure win before one the
    playouts only foresee), then ``expected_score``; ties keep the order of ``candidates``.
    Raises :class:`~rummikub.core.IllegalPlayError` for an illegal candidate,
    :class:`~rummikub.core.RulesError` when it is not the player's turn. ``depth`` and
    ``samples`` as for :func:`evaluate`. Xpress (:func:`rummikub.xpress.ranking.rank`): a
    throw choice, a placement (then the turn's end as ``greedy`` ends it) or the end of the
    turn, ranked in the same sampled futures of the dice by the chance to win the match, then
    the round, then going out now, then the expected score; ``match`` and ``match_paths`` are
    not used (the match is finished with fresh rounds), ``deep`` only samples more."""
    from rummikub.xpress import XpressObservation

    if isinstance(obs, XpressObservation):
        return _rank_xpress(obs, cast("Sequence[XpressAction] | None", candidates),
                            _xpress_samples(samples, depth), seed, time_limit)  # fmt: skip
    samples = samples_for(samples, depth)
    candidates = cast("Sequence[Action] | None", candidates)
    if obs.current != obs.player:
        raise RulesError("moves are ranked for the player to move only", field="player")
    if _ended(obs):
        raise RulesError("the round is over: there is no move to rank", field="round")
    if candidates is None:  # the solver wants a positive limit
        candidates = candidate_moves(obs, None if time_limit is None else max(0.01, time_limit))
    cands = list(candidates)
    if not cands:
        return []
    for action in cands:
        if not isinstance(action, (Play, Draw, Pass)):
            raise RulesError(f"a candidate is a play, a draw or a pass, not {action!r}")
    deadline = None if time_limit is None else time.monotonic() + time_limit
    on_counts = _on_counts(obs.rules)
    plies = _plies(obs, depth)
    outcomes: list[list[_Outcome]] = [[] for _ in cands]
    placed: list[tuple[Any, int] | None] = [None] * len(cands)
    if on_counts:
        from rummikub.bots.grid_playout import play_counts

        placed = [play_counts(a, obs.rules) if isinstance(a, Play) else None for a in cands]
    # a draw beside plays: holding the tiles (HOLD_PLAN)
    hold = HOLD_PLAN and on_counts and obs.has_opened and any(isinstance(a, Play) for a in cands)
    for k, det in enumerate(_deals(obs, seed, samples, deadline)):
        if k == 0:
            for action in cands:  # legal in one deal: legal in all (they differ in hidden tiles)
                err = check_action(det, action)
                if err is not None:
                    raise err
        over, start = _start(det, on_counts)
        for i, action in enumerate(cands):
            held = hold and isinstance(action, Draw)
            outcomes[i].append(
                over if over is not None else _play_out(det, action, plies, start, placed[i], held)
            )
    model = _tile_match(obs, match)
    after = (obs.current + 1) % obs.players  # the player to move once the candidate is made
    judged = [
        (
            action,
            replace(
                _summarise(obs.player, outs, model, seed, match_paths, after),
                per_deal=tuple(o.shares[obs.player] for o in outs),
            ),
        )
        for action, outs in zip(cands, outcomes, strict=True)
    ]
    sign = -1.0 if obs.rules.scoring == "penalty-points" else 1.0  # lower is better there
    size = len(obs.rack)

    def out_now(action: Action) -> int:  # going out now beats a win the playouts only foresee
        return 0 if isinstance(action, Play) and len(action.tiles) == size else 1

    def key(i: int) -> tuple[float, float, int, float, int]:
        win_match, win_round, score = rank_key(judged[i][1], sign)
        return (win_match, win_round, out_now(cands[i]), score, i)

    order = sorted(range(len(judged)), key=key)
    return [judged[i] for i in order]


def paired_difference(a: Evaluation, b: Evaluation) -> tuple[float, float]:
    """``a``'s mean lead over ``b`` in the player's share of the round, deal by deal (both
    ranked together by :func:`rank_moves`, so in the same deals), and its standard error (0
    with fewer than two deals)."""
    n = min(len(a.per_deal), len(b.per_deal))
    if n == 0:
        return 0.0, 0.0
    d = [x - y for x, y in zip(a.per_deal, b.per_deal, strict=False)]
    mean = sum(d) / n
    if n < 2:
        return mean, 0.0
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean, math.sqrt(var / n)


def rank_key(ev: Evaluation, sign: float = 1.0) -> tuple[float, float, float]:
    """How :func:`rank_moves` orders evaluations (smaller first): the highest ``win_match``,
    then ``win_round``, then ``expected_score`` (``sign`` -1 where a lower score is better);
    :func:`rank_moves` puts going out now between the chances and the score."""
    return (-ev.win_match, -ev.win_round, -sign * ev.expected_score)


def samples_for(samples: int | None, depth: Depth) -> int:
    """The deals a position is given: ``samples``, or the depth's default; checked."""
    if depth not in DEPTHS:
        raise ValueError(f"depth is one of {', '.join(DEPTHS)}, not {depth!r}")
    if samples is None:
        return DEFAULT_SAMPLES if depth == "default" else DEEP_SAMPLES
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    return samples


def _plies(obs: Observation, depth: Depth) -> int | None:
    """A playout's length at ``depth`` (``None``: to the end of the round)."""
    return None if depth == "deep" else ROLLOUT_ROUNDS * obs.players


def _on_counts(rules: Rules) -> bool:
    from rummikub.solver.counts import counts_supported

    return counts_supported(rules)


def _ended(obs: Observation) -> bool:
    """Whether the observed round is over: a rack emptied, or every player passed in turn."""
    return 0 in obs.rack_sizes or (obs.pool_size == 0 and obs.passes >= obs.players)


def _deals(obs: Observation, seed: int, samples: int, deadline: float | None) -> _DealIter:
    return _DealIter(obs, seed, samples, deadline)


class _DealIter:
    """The sampled deals of ``obs``: complete round states with the player to move as in the
    observation, drawn from a generator seeded by ``seed``, ``samples`` of them at most (fewer
    once ``deadline`` has passed, one at least)."""

    def __init__(self, obs: Observation, seed: int, samples: int, deadline: float | None) -> None:
        from rummikub.bots.sampling import unseen_tiles

        self.obs = obs
        self.rng = random.Random(seed)
        self.unseen = unseen_tiles(obs)
        self.left = samples
        self.deadline = deadline
        self.done = 0
        self.weight = FIT_WEIGHT
        filtered = FIT_WEIGHT < 1.0 and any(p != obs.player for p in range(obs.players))
        self.grids = _table_grid(obs) if filtered and _on_counts(obs.rules) else None
        self.avoid = _fitting(obs) if filtered and self.grids is None else {}

    def __iter__(self) -> _DealIter:
        return self

    def __next__(self) -> RoundState:
        from rummikub.bots.sampling import determinize, weighted_deal

        if self.left <= 0:
            raise StopIteration
        if self.done and self.deadline is not None and time.monotonic() > self.deadline:
            raise StopIteration
        obs = self.obs
        if self.grids is not None:
            det = _filtered_deal(obs, self.rng, self.unseen, self.grids, self.weight)
        elif self.avoid:
            weight = max(self.weight, 0.01)  # weighted_deal needs odds above 0
            det = weighted_deal(obs, self.rng, self.unseen, self.avoid, weight)
        else:
            det = determinize(obs, self.rng, self.unseen)
        self.left -= 1
        self.done += 1
        return RoundState(det.rules, det.racks, det.table, det.pool, det.opened, obs.current,
                          obs.passes, obs.turn)  # fmt: skip


def _table_grid(obs: Observation) -> tuple[Any, int, int]:
    """The table as counts for :func:`_filtered_deal`: its tiles, jokers and value."""
    import numpy as np

    rules = obs.rules
    grid = np.zeros((rules.colours, rules.numbers), np.int64)
    jokers = 0
    for t in obs.table.tiles():
        if t.is_joker:
            jokers += 1
        else:
            grid[t.colour, t.number - 1] += 1
    value = int(grid.sum(axis=0) @ np.arange(1, rules.numbers + 1))
    return grid, jokers, value


def _filtered_deal(
    obs: Observation,
    rng: random.Random,
    unseen: list[Tile],
    table: tuple[Any, int, int],
    weight: float,
) -> RoundState:
    """A deal of the unseen tiles in which every opponent, tile by tile, is given a tile that
    would give him a move — a play onto the table as it lies once he has opened, an opening
    before — only with the odds ``weight``: a player who places what he can every turn is
    seldom left with a move in hand. The tiles he is not given go on to the next opponent and
    the pool (an opponent short of tiles at the end takes them all the same). Only under rules
    where :func:`rummikub.solver.counts.counts_supported` holds."""
    import numpy as np

    from rummikub.core import Rack
    from rummikub.solver.counts import opening_counts, placed_counts

    rules = obs.rules
    grid, table_jokers, table_value = table
    left = list(unseen)
    rng.shuffle(left)
    racks: list[Rack] = []
    for p, size in enumerate(obs.rack_sizes):
        if p == obs.player:
            racks.append(obs.rack)
            continue
        counts = np.zeros_like(grid)
        jokers = 0
        mine: list[Tile] = []
        passed: list[Tile] = []
        # a rack that holds a move keeps it whatever is added: once a tile given at the odds
        # made one, every later tile would too, and the search for it is skipped
        holds_move = False
        for i, t in enumerate(left):
            if len(mine) == size:
                passed.extend(left[i:])
                break
            if t.is_joker:
                jokers += 1
            else:
                counts[t.colour, t.number - 1] += 1
            if holds_move:
                move = True
            elif obs.opened[p]:
                move = (
                    placed_counts(rules, grid, table_jokers, table_value, counts, jokers)
                    is not None
                )
            else:
                move = opening_counts(rules, counts, jokers) is not None
            if move and rng.random() >= weight:
                if t.is_joker:
                    jokers -= 1
                else:
                    counts[t.colour, t.number - 1] -= 1
                passed.append(t)
            else:
                mine.append(t)
                holds_move = move
        short = size - len(mine)
        mine.extend(passed[:short])
        left = passed[short:]
        racks.append(Rack(tuple(mine)))
    pool = tuple(left[: obs.pool_size])
    return RoundState(
        rules, tuple(racks), obs.table, pool, obs.opened, obs.player, obs.passes, obs.turn
    )


def _fitting(obs: Observation) -> dict[int, set[Tile]]:
    """Per opened opponent, the tiles that would simply extend the table as it lies (a tile laid
    at the end of a run, a group completed), for deals on melds (:func:`_filtered_deal` needs
    counts): such a tile is dealt to him with the odds ``FIT_WEIGHT`` (at least 0.01)."""
    from rummikub.bots.moves import extensions

    kinds = {Tile(c, n) for c in range(obs.rules.colours) for n in range(1, obs.rules.numbers + 1)}
    fit = {tile for tile, _, _ in extensions(obs.table, kinds, obs.rules)}
    if not fit:
        return {}
    return {p: fit for p in range(obs.players) if p != obs.player and obs.opened[p]}


def _start(det: RoundState, on_counts: bool) -> tuple[_Outcome | None, GridRound | None]:
    """What every playout of the deal ``det`` starts from, made once a deal: the outcome of a
    round already over as it lies (then nothing is played out), and the deal as counts (copied
    for each candidate; ``None`` off counts)."""
    over = _over(det)
    if over is not None or not on_counts:
        return over, None
    from rummikub.bots.grid_playout import GridRound

    return None, GridRound.of(det)


def _over(det: RoundState) -> _Outcome | None:
    """The outcome of a deal whose round is over as it lies (a rack emptied, or the pool ran
    out and everyone passed), else ``None``."""
    rules = det.rules
    racks = det.racks
    for p, rack in enumerate(racks):
        if not rack.tiles:  # the round is over: ``p`` went out
            return _Outcome.ended(p, score_round(rules, racks, "rummikub", p))
    if det.passes >= det.players and not det.pool:  # the pool ran out and everyone passed
        best = exhausted_winner(racks, rules, det.current)
        return _Outcome.ended(best, score_round(rules, racks, "exhausted", best))
    return None


def _play_out(
    det: RoundState,
    action: Action | None,
    plies: int | None,
    start: GridRound | None = None,
    placed: tuple[Any, int] | None = None,
    hold: bool = False,
) -> _Outcome:
    """``det`` (a round not over: :func:`_start`) after ``action`` (a legal one: not checked
    again on counts) played on with the greedy playout policy: to the end of the round
    (``plies`` None, the deep evaluation) or for at most ``plies`` moves, the position reached
    then valued by the learned model (:mod:`rummikub.bots.leaf`). ``start``: the deal as counts
    (:func:`_start`; ``None``: on round states), played on a copy; ``placed``: ``action``'s
    tiles as counts (:func:`.grid_playout.play_counts`) when it is a play. ``hold`` (on counts,
    for a draw although a play exists): the player holds his tiles from then on — he draws
    until his whole rack can go down, or the pool is empty — and the playout goes on to the
    round's end (the learned model values racks of players who place what they can)."""
    rules = det.rules
    if hold:
        plies = None
    length = MAX_PLIES if plies is None else plies
    if start is not None:
        from rummikub.bots.leaf import grid_shares

        g = start.copy()
        holder = g.current if hold else None
        if placed is not None:
            g.place(*placed)
        elif action is not None:
            g.apply(action)
        g.rollout(length, keep_jokers=True, hold=holder)
        if g.ended:
            return _Outcome.ended(g.winner, g.scores())
        values = g.values()
        if plies is not None:
            return _leaf_outcome(rules, values, tuple(float(x) for x in grid_shares(g)))
        best = lowest_total(values, g.current)
        return _Outcome.ended(best, scores_of_values(rules, values, "exhausted", best))
    from rummikub.bots.leaf import learned_shares
    from rummikub.bots.playout import rollout

    state = det if action is None else apply(det, action)
    state = rollout(state, length)
    if state.end is not None:
        return _Outcome.ended(state.end.winner, state.end.scores)
    if plies is not None:
        values = [rack_value(r, rules) for r in state.racks]
        return _leaf_outcome(rules, values, tuple(learned_shares(state)))
    best = exhausted_winner(state.racks, rules, state.current)
    return _Outcome.ended(best, score_round(rules, state.racks, "exhausted", best))


def _leaf_outcome(rules: Rules, values: Sequence[int], shares: tuple[float, ...]) -> _Outcome:
    """A playout stopped before the round's end: the model's chances, and for each player the
    scores were he to go out now (the others keeping their racks, whose values are
    ``values``), weighted by his chance."""
    results = []
    for w, p in enumerate(shares):
        if p > 0.0:
            emptied = [0 if i == w else v for i, v in enumerate(values)]
            results.append((p, w, scores_of_values(rules, emptied, "rummikub", w)))
    return _Outcome(shares, tuple(results))


def _tile_match(obs: Observation, match: MatchRules | None) -> _Match:
    rules = obs.rules if match is None else replace(obs.rules, match=match)
    totals = tuple(obs.scores) if len(obs.scores) == obs.players else (0,) * obs.players
    return _Match(
        totals,
        obs.round + 1,
        lambda played, t: match_over(rules, played, t),
        lambda t: match_winners(rules, t),
    )


# -- summing up -----------------------------------------------------------------------------


def _summarise(
    player: int,
    outcomes: Sequence[_Outcome],
    model: _Match,
    seed: int,
    paths: int,
    current: int | None = None,
) -> Evaluation:
    """The evaluation the playouts give: the round's winners' shares calibrated
    (:func:`calibrated`, with ``current`` the player to move in the position judged) and the
    results reweighted to them, so the expected scores and the match agree with the round."""
    n = len(model.totals)
    k = len(outcomes)
    raw = [0.0] * n
    for out in outcomes:
        for i, share in enumerate(out.shares):
            raw[i] += share / k
    shares = calibrated(raw, current) if current is not None else list(raw)
    factor = [shares[i] / raw[i] if raw[i] > 0 else 1.0 for i in range(n)]
    points = [0.0] * n
    results: list[tuple[float, tuple[int, ...]]] = []
    for out in outcomes:
        for weight, winner, scores in out.results:
            w = weight * (1.0 if winner is None else factor[winner])
            for i, x in enumerate(scores):
                points[i] += w * x
            if w > 0:
                results.append((w, scores))
    round_shares = tuple(shares)
    expected = tuple(p / k for p in points)
    match_shares = _match_shares(results, model, seed, paths)
    return Evaluation(
        player=player,
        win_round=round_shares[player],
        win_match=match_shares[player],
        expected_score=expected[player],
        samples=k,
        round_shares=round_shares,
        match_shares=match_shares,
        expected_scores=expected,
    )


def calibrated(shares: Sequence[float], current: int) -> list[float]:
    """The round's winners' shares the playouts give, calibrated by the map fitted on
    held-out self-play (``leaf_model.json``, "calibration"; ``bench/review.py calibrate``):
    ``share_i^a × e^(b if i is to move)``, normalised. Certain outcomes stay certain."""
    n = len(shares)
    a, b = _calibration(n)
    if (a, b) == (1.0, 0.0) or max(shares) >= 1.0:
        return list(shares)
    z = [
        (a * math.log(x) + (b if i == current else 0.0)) if x > 0 else -math.inf
        for i, x in enumerate(shares)
    ]
    top = max(z)
    e = [math.exp(v - top) if v > -math.inf else 0.0 for v in z]
    total = sum(e)
    return [v / total for v in e]


#: the calibration in use: None reads the shipped one (``bench/review.py`` sets identity to fit)
CALIBRATION: dict[int, tuple[float, float]] | None = None


def _calibration(players: int) -> tuple[float, float]:
    table = CALIBRATION
    if table is None:
        from .leaf import load_calibration

        table = load_calibration()
    if not table:
        return (1.0, 0.0)
    key = min(table, key=lambda k: (abs(k - players), k))
    return table[key]


def _match_shares(
    results: Sequence[tuple[float, tuple[int, ...]]], model: _Match, seed: int, paths: int
) -> tuple[float, ...]:
    """Each seat's chance to win the match when this round ends with each of the ``results``
    (round scores, with their weights), the rounds after it drawn from the same results with
    the seats shuffled."""
    if not results:
        n = len(model.totals)
        return tuple(1.0 / n for _ in range(n))
    n = len(model.totals)
    shares = [0.0] * n
    rng = random.Random(f"evaluation-match/{seed}")
    total_weight = sum(w for w, _ in results)
    per = max(1, math.ceil(paths / len(results)))
    seats = list(range(n))
    scores = [s for _, s in results]
    cumulative = list(itertools.accumulate(w for w, _ in results))
    flat = all(not any(s) for s in scores)  # no round scores anything: no total ever moves

    def credit(totals: Sequence[int], weight: float) -> None:
        won = model.winners(totals)
        for i in won:
            shares[i] += weight / len(won)

    for weight, s in results:
        weight /= total_weight
        after = [a + b for a, b in zip(model.totals, s, strict=True)]
        if flat or model.over(model.played, after):
            credit(after, weight)
            continue
        for _ in range(per):
            totals = after[:]
            played = model.played
            for _ in range(MAX_FUTURE_ROUNDS):
                drawn = rng.choices(scores, cum_weights=cumulative)[0]
                rng.shuffle(seats)
                totals = [t + drawn[seats[i]] for i, t in enumerate(totals)]
                played += 1
                if model.over(played, totals):
                    break
            credit(totals, weight / per)
    total = sum(shares)
    return tuple(x / total for x in shares)


# -- Xpress ---------------------------------------------------------------------------------


def _evaluate_xpress(
    obs: XpressObservation, samples: int, seed: int, time_limit: float | None
) -> Evaluation:
    """Xpress: both hands lie open, so a sample is only the faces of the throws to come; the
    round is played out with ``greedy``'s policy in both seats and the match finished with
    fresh rounds (:mod:`rummikub.xpress.ranking`, the model :func:`rank_moves` ranks with)."""
    from rummikub.xpress.ranking import evaluate_position

    judged = evaluate_position(obs, samples=samples, seed=seed, time_limit=time_limit)
    return _xpress_evaluation(judged)


def _xpress_samples(samples: int | None, depth: Depth) -> int:
    """The sampled futures of the dice an Xpress position is given: ``samples``, or the
    depth's default (:data:`rummikub.xpress.ranking.SAMPLES`, three times as many deep)."""
    from rummikub.xpress.ranking import SAMPLES

    if samples is None:
        samples_for(None, depth)  # checks the depth
        return SAMPLES if depth == "default" else 3 * SAMPLES
    return samples_for(samples, depth)


def _xpress_evaluation(judged: XpressJudgement) -> Evaluation:
    """An Xpress judgement as the platform's :class:`Evaluation`; ``per_deal`` holds the
    player's chance to win the match in each sampled future of the dice."""
    return Evaluation(
        player=judged.player,
        win_round=judged.win_round,
        win_match=judged.win_match,
        expected_score=judged.expected_score,
        samples=judged.samples,
        round_shares=judged.round_shares,
        match_shares=judged.match_shares,
        expected_scores=judged.expected_scores,
        per_deal=judged.per_deal,
    )


def _rank_xpress(
    obs: XpressObservation,
    candidates: Sequence[XpressAction] | None,
    samples: int,
    seed: int,
    time_limit: float | None,
) -> list[tuple[XpressAction, Evaluation]]:
    """Xpress moves ranked (:func:`rummikub.xpress.ranking.rank`: a throw choice, a placement
    then the turn's end as ``greedy`` ends it, or the end of the turn)."""
    from rummikub.xpress.ranking import rank

    ranked = rank(obs, candidates, samples=samples, seed=seed, time_limit=time_limit)
    return [(action, _xpress_evaluation(judged)) for action, judged in ranked]
