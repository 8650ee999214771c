"""An upper bound for the Xpress expert's search: a player who sees the dice to come.

The ``expert`` (:mod:`rummikub.xpress.ranking`) plays each candidate move out in sampled
futures of the dice and chooses the one leaving the best chance to win the match. The
*clairvoyant* player here does the same with one future only: the true one. Each candidate is
carried out on a copy of the match itself (its round's generator included), and the round is
played out on that copy to its end: the other player exactly as he will play (``greedy``),
the player himself by the playouts' policy (``--rollout keeper``: keeping his low dice, as
the expert's playouts do; ``--rollout greedy``: throwing every die again). The match share of
the round's result (the ranking's model of the rounds left) chooses the move.

No fair player can see the dice; what this bench measures is how much of the match against
``greedy`` the expert's kind of search could win if its sampled futures were exact — so how
far the expert's 80–81% (docs/xpress.md) is from what searching its candidates with its
playouts can give at all.

    .venv/bin/python bench/xpress_clairvoyant.py --deals 50 --workers 2

Paired deals as ``bench/xpress_expert.py`` plays them (deal ``d`` is seed ``seed + d``, each
played twice with the seats swapped, a tie counting half); prints the share won with its 95%
interval and the time a decision took.
"""

from __future__ import annotations

import argparse
import copy
import multiprocessing as mp
import time

from rummikub.bots.tournament.stats import wilson
from rummikub.xpress import XpressMatch, XpressPlayer
from rummikub.xpress.actions import Throw, XpressAction
from rummikub.xpress.bots import GreedyBot
from rummikub.xpress.ranking import (
    _future_sums,
    _lead,
    _match_share,
    _thrown_by_keeper,
    candidate_moves,
)

#: actions a rollout may take before its round counts as abandoned (scoring nothing)
MAX_ACTIONS = 2000
#: every choice in the rollouts but the keeper's throws (``greedy`` keeps no state)
_GREEDY = GreedyBot()


def _rollout(match: XpressMatch, me: int, keeper: bool) -> tuple[int, ...]:
    """Play ``match``'s round to its end (the match's own generator throws the dice): the seat
    ``me`` keeps his low dice at his throws when ``keeper``, every other choice as ``greedy``
    makes it. The round's scores."""
    for _ in range(MAX_ACTIONS):
        state = match.state
        if state.end is not None:
            return state.end.scores
        if keeper and state.current == me and state.phase == "throw":
            again = _thrown_by_keeper(state.hand, state.layout, state.rules.joker_value)
            action: XpressAction = Throw(tuple(d.die for d in state.hand if d.die in again))
        else:
            action = _GREEDY.act(match.observation(state.current))
        match.act(action)
    return (0,) * len(match.players)


def clairvoyant_move(match: XpressMatch, keeper: bool) -> XpressAction:
    """The candidate (:func:`candidate_moves`) whose true future, played out, leaves the best
    match share (then the best round margin; then the earlier candidate)."""
    me = match.state.current
    obs = match.observation(me)
    cands = candidate_moves(obs)
    if len(cands) == 1:
        return cands[0]
    lead, left = _lead(obs)
    sums = _future_sums(obs.rules, match.layout, left)
    best: tuple[float, int, int] | None = None
    chosen = cands[0]
    for i, cand in enumerate(cands):
        trial = copy.deepcopy(match)
        trial.act(cand)
        scores = _rollout(trial, me, keeper)
        margin = scores[me] - scores[1 - me]
        key = (_match_share(lead + margin, sums), margin, -i)
        if best is None or key > best:
            best, chosen = key, cand
    return chosen


def _match(task: tuple[int, int, bool]) -> tuple[float, float, int]:
    """Deal ``seed`` with the clairvoyant player in seat ``seat``: (his result, the time of his
    decisions, their number)."""
    seed, seat, keeper = task
    names = ["greedy", "greedy"]
    names[seat] = "clairvoyant"
    match = XpressMatch([XpressPlayer(n, "bot", n) for n in names], seed)
    spent, decisions = 0.0, 0
    while True:
        while match.state.end is None:
            state = match.state
            if state.current == seat:
                started = time.perf_counter()
                action = clairvoyant_move(match, keeper)
                spent += time.perf_counter() - started
                decisions += 1
            else:
                action = _GREEDY.act(match.observation(state.current))
            match.act(action)
        if match.over:
            break
        match.next_round()
    mine, theirs = match.totals[seat], match.totals[1 - seat]
    return (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0), spent, decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--deals", type=int, default=50, help="deals, each played twice")
    ap.add_argument("--seed", type=int, default=1, help="deal d uses seed+d")
    ap.add_argument("--rollout", choices=("keeper", "greedy"), default="keeper")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    keeper = args.rollout == "keeper"
    tasks = [(args.seed + d, seat, keeper) for d in range(args.deals) for seat in (0, 1)]
    started = time.perf_counter()
    with mp.get_context("spawn").Pool(args.workers) as pool:
        results = pool.map(_match, tasks, chunksize=1)
    won = sum(r for r, _, _ in results)
    spent = sum(s for _, s, _ in results)
    decisions = sum(n for _, _, n in results)
    lo, hi = wilson(won, len(results))
    print(
        f"clairvoyant ({args.rollout} rollouts) against greedy: {won:g} of {len(results)} "
        f"matches, {won / len(results):.1%} (95% {lo:.1%}-{hi:.1%}); "
        f"{decisions} decisions, mean {spent / max(decisions, 1) * 1000:.0f} ms; "
        f"{time.perf_counter() - started:.0f} s"
    )
    print(
        f"command: bench/xpress_clairvoyant.py --deals {args.deals} --seed {args.seed} "
        f"--rollout {args.rollout} --workers {args.workers}"
    )


if __name__ == "__main__":
    main()
