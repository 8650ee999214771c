"""The expert's playouts on tile counts against the playouts on tiles and melds: the same
candidates of the same seeded positions played out in the same sampled deals both ways, in one
process, alternating (both see the same load); CPU time per deal.

    .venv/bin/python bench/expert_playouts.py [--deals 40] [--positions 6]

For each (rules, players): positions are reached by greedy playouts from seeded deals (the
player to move has opened and has a play with at least two candidates); every sampled deal is
played out after every candidate, for the search's default horizon, on counts
(:class:`rummikub.bots.grid_playout.GridRound`) and on tiles (:func:`rummikub.bots.playout.
rollout`). Checks that both give the same values and prints deals per second of each.
"""

from __future__ import annotations

import argparse
import random
import time

from rummikub.bots.grid_playout import GridRound
from rummikub.bots.playout import LeafParams, lead_value, leaf_value, rollout
from rummikub.bots.sampling import determinize, unseen_tiles
from rummikub.bots.search import SearchParams, candidates
from rummikub.bots.strategic import StrategyParams, policy_play
from rummikub.core import Action, Observation, RoundState, Rules, Table, apply, observe, preset
from rummikub.core.game import deal

RULES = {
    "standard": preset("standard"),
    "nojokers": Rules.from_dict({"preset": "standard", "jokers": 0}),
}


def positions(rules: Rules, players: int, count: int) -> list[tuple[Observation, list[Action]]]:
    out: list[tuple[Observation, list[Action]]] = []
    seed = 0
    while len(out) < count:
        seed += 1
        racks, pool = deal(random.Random(seed), rules, players)
        state = RoundState(rules, racks, Table(()), pool, (False,) * players, 0, 0, 0)
        state = rollout(state, 8 * players + seed % 5)
        if state.end is not None:
            continue
        obs = observe(state, state.current)
        best, rack = policy_play(obs, StrategyParams(reserve=0))
        if not obs.has_opened or best is None:
            continue
        cands = candidates(obs, best, rack, SearchParams())
        if len(cands) > 1:
            out.append((obs, cands))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=40, help="sampled deals per position")
    ap.add_argument("--positions", type=int, default=6)
    args = ap.parse_args()
    params = LeafParams()
    for name, players in (("nojokers", 2), ("standard", 2), ("standard", 4)):
        work = positions(RULES[name], players, args.positions)
        t_counts = t_tiles = 0.0
        deals = 0
        for obs, cands in work:
            rng = random.Random(7)
            unseen = unseen_tiles(obs)
            plies = SearchParams().rounds * obs.players - 1
            for _ in range(args.deals):
                det = determinize(obs, rng, unseen)
                started = time.process_time()
                base = GridRound.of(det)
                on_counts = []
                for c in cands:
                    g = base.copy().apply(c).rollout(plies)
                    on_counts.append(lead_value(g.sizes, g.opened, obs.player, params, g.ended,
                                                g.winner))  # fmt: skip
                t_counts += time.process_time() - started
                started = time.process_time()
                on_tiles = [leaf_value(rollout(apply(det, c), plies), obs.player, params)
                            for c in cands]  # fmt: skip
                t_tiles += time.process_time() - started
                assert on_counts == on_tiles, (on_counts, on_tiles)
                deals += 1
        print(
            f"{name}, {players} players: {deals} deals, on counts {deals / t_counts:.0f}/s, "
            f"on tiles {deals / t_tiles:.0f}/s, {t_tiles / t_counts:.2f}x",
            flush=True,
        )


if __name__ == "__main__":
    main()
