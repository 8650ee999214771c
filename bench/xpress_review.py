"""The Xpress review measured: how long the default analysis of a game takes, and does it rank
the bots as their results do.

    .venv/bin/python bench/xpress_review.py speed --games 3
    .venv/bin/python bench/xpress_review.py rank --deals 10 [--workers 2]
    .venv/bin/python bench/xpress_review.py holdout --games 40 [--png FILE]
    .venv/bin/python bench/xpress_review.py stable --games 4

``speed``: the CPU seconds (``time.process_time``) of whole analyses (default depth) of
greedy-against-expert matches (deal seed 70 000 + g), with their turns and rounds.

``rank``: deal ``d`` (seed 71 000 + ``d``) is played twice with the seats swapped (paired
deals) between ``greedy`` and ``expert``; every record is analysed at the default depth; the
bot that won more matches should have the higher mean accuracy. Prints wins, mean accuracy
and mean loss per bot.

``holdout``: greedy self-play matches (deal seed 72 000 + g; nothing in the Xpress evaluation
is fitted, so every game is held out), analysed: the expected calibration error (10 bins) and
Brier score of the mover's chance to win the match before and after each placement, against
who won the match, with a bootstrap 95% interval over games (``bench/review.py``'s figures).

``stable``: greedy-against-expert matches (deal seed 73 000 + g) analysed twice with
different seeds mixed into every position's futures; the share of turns with the same verdict.
"""

from __future__ import annotations

import argparse
import statistics
import time
from multiprocessing import Pool
from typing import Any

from review import Turns, reliability  # bench/, the script's own folder, is on the path
from rummikub.analysis import analyse
from rummikub.bots import get_bot, play_match
from rummikub.games import load_any
from rummikub.xpress import XpressRules
from rummikub.xpress.dice_game import XPRESS


def _game(levels: list[str], seed: int) -> tuple[Any, list[int]]:
    bots = [get_bot(level, seed * 10 + k, game="xpress") for k, level in enumerate(levels)]
    match = play_match(XpressRules(), bots, seed, time_limit=None)
    return load_any(XPRESS.match_record(match)), list(match.winners)


def speed(args: argparse.Namespace) -> None:
    for g in range(args.games):
        rec, _ = _game(["greedy", "expert"], 70_000 + g)
        started = time.process_time()
        result = analyse(rec)
        cpu = time.process_time() - started
        rounds = len({t.round for t in result.turns})
        print(f"game {g}: {len(result.turns)} turns, {rounds} rounds, {cpu:.1f} s CPU", flush=True)


def _pair_game(job: tuple[str, str, int, int]) -> dict[str, Any]:
    a, b, deal, seat = job
    levels = [a, b] if seat == 0 else [b, a]
    rec, winners = _game(levels, 71_000 + deal)
    summary = analyse(rec).summary()
    out: dict[str, Any] = {}
    for i, level in enumerate(levels):
        won = 1.0 / len(winners) if i in winners else 0.0
        out[level] = (won, summary[i].accuracy, summary[i].loss)
    return out


def rank(args: argparse.Namespace) -> None:
    a, b = args.pair.split("-")
    jobs = [(a, b, d, s) for d in range(args.first, args.first + args.deals) for s in (0, 1)]
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        games = pool.map(_pair_game, jobs, chunksize=1)
    wins = {x: sum(g[x][0] for g in games) for x in (a, b)}
    acc = {x: statistics.mean(g[x][1] for g in games if g[x][1] is not None) for x in (a, b)}
    loss = {x: statistics.mean(g[x][2] for g in games if g[x][2] is not None) for x in (a, b)}
    for x in (a, b):
        per = [round(g[x][1], 1) for g in games if g[x][1] is not None]
        print(f"  {x}: accuracies {per}")
    more = max((a, b), key=lambda x: wins[x])
    better = max((a, b), key=lambda x: acc[x])
    agree = "agrees" if wins[a] == wins[b] or more == better else "DISAGREES"
    print(
        f"{args.pair}: {len(games)} games; wins {a} {wins[a]:g}, {b} {wins[b]:g}; accuracy "
        f"{a} {acc[a]:.1f}, {b} {acc[b]:.1f}; mean loss {a} {loss[a]:.2f}, {b} {loss[b]:.2f} "
        f"-> {agree} ({time.perf_counter() - started:.0f} s)",
        flush=True,
    )


def _self_play(g: int) -> Turns:
    rec, winners = _game(["greedy", "greedy"], 72_000 + g)
    if len(winners) != 1:
        return []
    out: Turns = []
    for t in analyse(rec).turns:
        if t.chances is not None and t.win_chance is not None:
            out.append((list(t.chances), list(t.win_chance), t.player, winners[0]))
    return out


def holdout(args: argparse.Namespace) -> None:
    with Pool(args.workers) as pool:
        games = [g for g in pool.map(_self_play, range(args.games), chunksize=1) if g]
    reliability(games, "Xpress, 2 players", args.png)


def _stable(g: int) -> tuple[int, int]:
    rec, _ = _game(["greedy", "expert"], 73_000 + g)
    first = analyse(rec, seed=0)
    second = analyse(rec, seed=12345)
    agree = sum(x.verdict == y.verdict for x, y in zip(first.turns, second.turns, strict=True))
    print(f"game {g}: {agree}/{len(first.turns)} verdicts alike", flush=True)
    return agree, len(first.turns)


def stable(args: argparse.Namespace) -> None:
    with Pool(args.workers) as pool:
        done = pool.map(_stable, range(args.games), chunksize=1)
    same, total = sum(d[0] for d in done), sum(d[1] for d in done)
    print(f"all: {same}/{total} = {100 * same / total:.1f}% alike")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--games", type=int, default=3)
    r = sub.add_parser("rank")
    r.add_argument("--pair", default="expert-greedy")
    r.add_argument("--deals", type=int, default=10)
    r.add_argument("--first", type=int, default=0)
    r.add_argument("--workers", type=int, default=2)
    h = sub.add_parser("holdout")
    h.add_argument("--games", type=int, default=40)
    h.add_argument("--png")
    t = sub.add_parser("stable")
    t.add_argument("--games", type=int, default=4)
    for p in (h, t):
        p.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    commands = {"speed": speed, "rank": rank, "holdout": holdout, "stable": stable}
    commands[args.command](args)


if __name__ == "__main__":
    main()
