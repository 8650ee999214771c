"""The game review measured: does it rank the bots as their results do, how long does it take,
and how much of its verdicts is the luck of the deals it samples.

    .venv/bin/python bench/review.py rank --pairs expert-strategic,strategic-greedy \\
        --deals 10 [--first 0] [--samples N] [--workers 2]
    .venv/bin/python bench/review.py speed --games 5 [--players 2]
    .venv/bin/python bench/review.py stable --games 5

``rank``: for each pair of levels, deal ``d`` (seed 40 000 + ``d``) is played twice with the
seats swapped (paired deals), every record is analysed at the default depth, and the bot that
won more games should have the higher mean accuracy; prints wins, mean accuracy and mean loss
per bot. The expert plays with a fixed number of deals a decision (``--expert-deals``, 16 by
default: ``ExpertParams(limit=1e6, max_samples=16)``), so the machine's speed decides nothing.

``results``: who won those paired deals, without the review (``--deals 50``: 100 games).
``--fit-weight W`` runs either with the evaluation's ``FIT_WEIGHT`` set to ``W`` (1: uniform
deals of the unseen tiles).

``speed``: the CPU seconds (``time.process_time``) of whole analyses of greedy-against-expert
games (2 players) or four greedy-like bots (4 players), with their turns.

``calibrate``: greedy self-play games (``--players``, deal seed 50 000 + 1000 × players + g)
analysed with the calibration off; fits the map ``share_i^a × e^(b if i is to move)`` of
:func:`rummikub.bots.evaluation.calibrated` on every turn's chances after the move (a
conditional logit with two features, as ``bench/leaf_train.py``) and writes it into
``src/rummikub/bots/leaf_model.json`` ("calibration").

``holdout``: greedy self-play games on other seeds (60 000 + 1000 × players + g), analysed
with the shipped calibration: the expected calibration error (10 bins) and Brier score of the
mover's ``win_chance`` before his move (and after it) against who won, with a bootstrap 95%
interval over games; ``--png`` draws the reliability diagram (matplotlib, bench only).

``stable``: each game analysed twice with different seeds mixed into every position's deals;
the share of turns with the same verdict.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from multiprocessing import Pool
from typing import Any

from rummikub.analysis import analyse
from rummikub.bots import get_bot, play_match
from rummikub.bots.expert import ExpertBot, ExpertParams
from rummikub.core import Rules, preset
from rummikub.core.tiles_game import TILES
from rummikub.games import AnyRecord, load_any

SEED = 40_000
#: the expert's deals a decision (``--expert-deals``; the worker processes are forked after it
#: is set)
EXPERT_DEALS = 16


def bot(level: str, seed: int) -> Any:
    if level == "expert":
        return ExpertBot(seed, ExpertParams(limit=1e6, max_samples=EXPERT_DEALS))
    return get_bot(level, seed)


RULES: dict[str, Any] = {"preset": "standard"}


def record(
    levels: list[str], deal: int, rules: dict[str, Any] | None = None, base: int = SEED
) -> tuple[AnyRecord, list[int]]:
    bots = [bot(level, 100 * deal + k) for k, level in enumerate(levels)]
    played = Rules.from_dict(rules or RULES)
    match = play_match(played, bots, base + deal, time_limit=None)
    return load_any(TILES.match_record(match)), list(match.winners)


def _pair_game(job: tuple[str, str, int, int, int | None, str, int]) -> dict[str, Any]:
    a, b, deal, seat, samples, rules, base = job
    levels = [a, b] if seat == 0 else [b, a]
    rec, winners = record(levels, deal, json.loads(rules), base)
    result = analyse(rec, samples=samples)
    summary = result.summary()
    out: dict[str, Any] = {}
    for i, level in enumerate(levels):
        won = 1.0 / len(winners) if i in winners else 0.0
        out[level] = (won, summary[i].accuracy, summary[i].loss)
    return out


def _pair_result(job: tuple[str, str, int, int]) -> dict[str, float]:
    a, b, deal, seat = job
    levels = [a, b] if seat == 0 else [b, a]
    _, winners = record(levels, deal)
    return {level: (1.0 / len(winners) if i in winners else 0.0) for i, level in enumerate(levels)}


def results(args: argparse.Namespace) -> None:
    """Who won the paired deals of ``rank`` (the same games), without the review: cheap enough
    for the hundreds of games it takes to tell two close bots apart."""
    for pair in args.pairs.split(","):
        a, b = pair.split("-")
        jobs = [(a, b, d, s) for d in range(args.first, args.first + args.deals) for s in (0, 1)]
        with Pool(args.workers) as pool:
            games = pool.map(_pair_result, jobs, chunksize=1)
        wins = {x: sum(g[x] for g in games) for x in (a, b)}
        print(f"{pair}: {len(games)} games; wins {a} {wins[a]:g}, {b} {wins[b]:g}", flush=True)


def rank(args: argparse.Namespace) -> None:
    for pair in args.pairs.split(","):
        a, b = pair.split("-")
        if args.alternate:  # one game a deal, the seats alternating (41 000 + d)
            jobs = [
                (a, b, d, d % 2, args.samples, args.rules, 41_000)
                for d in range(args.first, args.first + args.deals)
            ]
        else:
            jobs = [
                (a, b, d, s, args.samples, args.rules, SEED)
                for d in range(args.first, args.first + args.deals)
                for s in (0, 1)
            ]
        started = time.perf_counter()
        with Pool(args.workers) as pool:
            games = pool.map(_pair_game, jobs, chunksize=1)
        wins = {a: sum(g[a][0] for g in games), b: sum(g[b][0] for g in games)}
        acc = {x: statistics.mean(g[x][1] for g in games if g[x][1] is not None) for x in (a, b)}
        loss = {x: statistics.mean(g[x][2] for g in games if g[x][2] is not None) for x in (a, b)}
        more = max((a, b), key=lambda x: wins[x])
        better = max((a, b), key=lambda x: acc[x])
        agree = "agrees" if wins[a] == wins[b] or more == better else "DISAGREES"
        print(
            f"{pair}: {len(games)} games; wins {a} {wins[a]:g}, {b} {wins[b]:g}; accuracy "
            f"{a} {acc[a]:.1f}, {b} {acc[b]:.1f}; mean loss {a} {loss[a]:.2f}, {b} "
            f"{loss[b]:.2f} -> {agree} ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )


def speed(args: argparse.Namespace) -> None:
    levels = (
        ["greedy", "expert"] if args.players == 2 else ["greedy", "strategic", "beginner", "expert"]
    )
    for g in range(args.games):
        rec, _ = record(levels[: args.players], 500 + g)
        cpu = time.process_time()
        wall = time.perf_counter()
        result = analyse(rec)
        print(
            f"game {g}: {len(result.turns)} turns, {time.process_time() - cpu:.1f} s CPU "
            f"({time.perf_counter() - wall:.1f} s wall)",
            flush=True,
        )


def stable(args: argparse.Namespace) -> None:
    same = total = 0
    for g in range(args.games):
        rec, _ = record(["greedy", "expert"], 600 + g)
        first = analyse(rec, seed=0)
        second = analyse(rec, seed=12345)
        agree = sum(x.verdict == y.verdict for x, y in zip(first.turns, second.turns, strict=True))
        same += agree
        total += len(first.turns)
        print(f"game {g}: {agree}/{len(first.turns)} verdicts alike", flush=True)
    print(f"all: {same}/{total} = {100 * same / total:.1f}% alike")


def _self_play(job: tuple[int, int, int, bool]) -> Turns:
    """A greedy self-play game analysed: per turn (chances after, [before, after] of the
    mover, the mover, the winner); no turns for a round without a winner."""
    players, base, g, identity = job
    from rummikub.bots import evaluation

    if identity:
        evaluation.CALIBRATION = {}
    bots = [get_bot("greedy", base + 10 * g + k) for k in range(players)]
    match = play_match(preset("standard"), bots, base + 1000 * players + g, time_limit=None)
    if len(match.winners) != 1:
        return []
    winner = match.winners[0]
    result = analyse(load_any(TILES.match_record(match)))
    out = []
    for t in result.turns:
        if t.chances is None or t.win_chance is None:
            continue
        out.append((list(t.chances), list(t.win_chance), t.player, winner))
    return out


def calibrate(args: argparse.Namespace) -> None:
    from pathlib import Path

    import numpy as np

    from leaf_train import fit  # bench/, the script's own folder, is on the path

    path = Path("src/rummikub/bots/leaf_model.json")
    data = json.loads(path.read_text())
    table: dict[str, list[float]] = {}
    seen: dict[str, int] = {}
    for players in [int(x) for x in args.players.split(",")]:
        jobs = [(players, 50_000, g, True) for g in range(args.games)]
        with Pool(args.workers) as pool:
            games = pool.map(_self_play, jobs, chunksize=1)
        xs, ys = [], []
        for turns in games:
            for chances, _, mover, winner in turns:
                if max(chances) >= 1.0:
                    continue
                nxt = (mover + 1) % players
                xs.append(
                    [[math.log(max(c, 1e-4)), float(i == nxt)] for i, c in enumerate(chances)]
                )
                ys.append(winner)
        w = fit(np.array(xs), np.array(ys), l2=1e-4)
        table[str(players)] = [round(float(w[0]), 4), round(float(w[1]), 4)]
        seen[str(players)] = len(ys)
        print(players, table[str(players)], len(ys), "positions", flush=True)
    data["calibration"] = {
        "map": table,
        "positions": seen,
        "command": f"bench/review.py calibrate --games {args.games} --players {args.players}",
        "deals": "greedy self-play, Match(standard, players, seed=50000 + 1000 * players + g)",
    }
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


#: a game's turns for the calibration figures: (chances after, [before, after] of the mover,
#: the mover, the winner)
Turns = list[tuple[list[float], list[float], int, int]]


def reliability(games: list[Turns], label: str, png: str | None) -> None:
    """Print the expected calibration error (10 bins) and the Brier score of the mover's win
    chance before and after his move against who won, each with a bootstrap 95% interval over
    whole games; with ``png``, draw the reliability diagram (matplotlib, bench only)."""
    import random

    for which, index in (("before", 0), ("after", 1)):

        def figures(sample: list[Turns], index: int = index) -> tuple[float, float]:
            pred = [t[1][index] for g in sample for t in g]
            won = [float(t[2] == t[3]) for g in sample for t in g]
            ece = 0.0
            for b in range(10):
                idx = [i for i, p in enumerate(pred) if min(int(p * 10), 9) == b]
                if idx:
                    ece += len(idx) * abs(
                        sum(pred[i] for i in idx) / len(idx) - sum(won[i] for i in idx) / len(idx)
                    )
            brier = sum((p - y) ** 2 for p, y in zip(pred, won, strict=True)) / len(pred)
            return ece / len(pred), brier

        ece, brier = figures(games)
        rng = random.Random(1)
        boot = sorted(figures([rng.choice(games) for _ in games]) for _ in range(200))
        eces = sorted(b[0] for b in boot)
        briers = sorted(b[1] for b in boot)
        n = sum(len(g) for g in games)
        print(
            f"{label}, {len(games)} games, {n} positions, win chance {which} the move: "
            f"ECE {ece:.3f} ({eces[5]:.3f}-{eces[194]:.3f}), Brier {brier:.3f} "
            f"({briers[5]:.3f}-{briers[194]:.3f})",
            flush=True,
        )
    if png:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        pred = [t[1][0] for g in games for t in g]
        won = [float(t[2] == t[3]) for g in games for t in g]
        xs, ys, ns = [], [], []
        for b in range(10):
            idx = [i for i, p in enumerate(pred) if min(int(p * 10), 9) == b]
            if idx:
                xs.append(sum(pred[i] for i in idx) / len(idx))
                ys.append(sum(won[i] for i in idx) / len(idx))
                ns.append(len(idx))
        fig, ax = plt.subplots(figsize=(5, 5))
        ax.plot([0, 1], [0, 1], "--", color="grey", label="perfect")
        ax.plot(xs, ys, "o-", label=f"{label}, held-out greedy games")
        for x, y, k in zip(xs, ys, ns, strict=True):
            ax.annotate(str(k), (x, y), textcoords="offset points", xytext=(4, -10), fontsize=7)
        ax.set_xlabel("predicted win chance before the move")
        ax.set_ylabel("observed frequency of a win")
        ax.set_title("Reliability of the review's win chance")
        ax.legend(loc="upper left")
        fig.savefig(png, dpi=100, bbox_inches="tight")


def holdout(args: argparse.Namespace) -> None:
    players = int(args.players)
    jobs = [(players, 60_000, g, False) for g in range(args.games)]
    with Pool(args.workers) as pool:
        games = [g for g in pool.map(_self_play, jobs, chunksize=1) if g]
    reliability(games, f"{players} players", args.png)


def main() -> None:
    global EXPERT_DEALS
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("rank")
    r.add_argument("--pairs", default="expert-strategic,strategic-greedy,expert-greedy,"
                   "greedy-beginner,beginner-random")  # fmt: skip
    r.add_argument("--deals", type=int, default=10)
    r.add_argument("--first", type=int, default=0)
    r.add_argument("--samples", type=int, default=None)
    r.add_argument("--rules", default=json.dumps(RULES), help="a rules object (JSON)")
    r.add_argument("--alternate", action="store_true",
                   help="one game a deal, seats alternating, instead of paired deals")  # fmt: skip
    r.add_argument("--workers", type=int, default=2)
    w = sub.add_parser("results")
    w.add_argument("--pairs", default="expert-strategic")
    w.add_argument("--deals", type=int, default=50)
    w.add_argument("--first", type=int, default=0)
    w.add_argument("--workers", type=int, default=2)
    s = sub.add_parser("speed")
    s.add_argument("--games", type=int, default=5)
    s.add_argument("--players", type=int, default=2, choices=(2, 4))
    t = sub.add_parser("stable")
    t.add_argument("--games", type=int, default=5)
    c = sub.add_parser("calibrate")
    c.add_argument("--games", type=int, default=60)
    c.add_argument("--players", default="2,3,4")
    c.add_argument("--workers", type=int, default=2)
    h = sub.add_parser("holdout")
    h.add_argument("--games", type=int, default=60)
    h.add_argument("--players", default="2")
    h.add_argument("--workers", type=int, default=2)
    h.add_argument("--png")
    for p in (r, w):
        p.add_argument("--expert-deals", type=int, default=EXPERT_DEALS,
                       help="the expert's sampled deals a decision")  # fmt: skip
        p.add_argument("--fit-weight", type=float, default=None,
                       help="the evaluation's FIT_WEIGHT (1: uniform deals)")  # fmt: skip
    args = parser.parse_args()
    EXPERT_DEALS = getattr(args, "expert_deals", EXPERT_DEALS)
    if getattr(args, "fit_weight", None) is not None:  # set before the workers are forked
        from rummikub.bots import evaluation

        evaluation.FIT_WEIGHT = args.fit_weight
    commands = {"rank": rank, "speed": speed, "stable": stable, "calibrate": calibrate}
    commands["holdout"] = holdout
    commands["results"] = results
    commands[args.command](args)


if __name__ == "__main__":
    main()
