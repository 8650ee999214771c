"""The evaluation (``rummikub.analysis.evaluation``) measured: calibration on held-out self-play
games, and speed.

Play seeded games, evaluate every position before a move from the mover's view (his own
observation only) and compare the predicted chances with what happened::

    .venv/bin/python bench/evaluation.py play --pairing greedy-greedy --games 20 \\
        --out /tmp/gg.jsonl [--first 0] [--rounds 1] [--samples 48] [--every 1]
    .venv/bin/python bench/evaluation.py report /tmp/gg.jsonl ... [--png FILE]

``play`` writes one JSON line per evaluated position (appending game by game, so runs can be
split and merged); ``report`` prints, per pairing and pooled: the expected calibration error
(ECE, 10 equal-width bins) and the Brier score of ``win_round`` and ``win_match`` against the
actual round and match winners, the mean error of ``expected_score`` against the actual round
score, the evaluations per second and the seconds a game's positions took; each with a 95%
interval from a bootstrap over whole games (positions of one game are not independent). With
``--png`` it draws the reliability diagram (needs matplotlib, a bench-only dependency:
``.venv/bin/pip install matplotlib``).

Game ``g`` uses the seed ``30_000 + g``; pairings: ``greedy-greedy``, ``expert-greedy`` (the
expert at 0.1 s a decision, seats swapped on odd games). ``--rounds`` sets the match length
(``win_match`` differs from ``win_round`` only in a match of several rounds).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rummikub.bots import evaluation, get_bot
from rummikub.bots.evaluation import DEFAULT_SAMPLES, DEPTHS, evaluate
from rummikub.bots.expert import ExpertBot, ExpertParams
from rummikub.bots.play import TurnEvent, play_match
from rummikub.core import MatchRules, Observation, Rules, preset

Row = dict[str, Any]


def bots_for(pairing: str, game: int) -> tuple[list[Any], list[str]]:
    if pairing == "greedy-greedy":
        return [get_bot("greedy", 2 * game), get_bot("greedy", 2 * game + 1)], ["greedy"] * 2
    if pairing == "expert-greedy":
        expert = ExpertBot(1000 + game, ExpertParams(limit=0.1))
        pair: list[Any] = [expert, get_bot("greedy", game)]
        names = ["expert", "greedy"]
        if game % 2:
            pair.reverse()
            names.reverse()
        return pair, names
    raise SystemExit(f"unknown pairing {pairing!r}")


def play(args: argparse.Namespace) -> None:
    if args.fit_weight is not None:
        evaluation.FIT_WEIGHT = args.fit_weight
    rules: Rules = preset(args.rules).replace(match=MatchRules(rounds=args.rounds))
    out = Path(args.out)
    for game in range(args.first, args.first + args.games):
        bots, names = bots_for(args.pairing, game)
        seen: list[Observation] = []

        def record(event: TurnEvent, seen: list[Observation] = seen) -> None:
            seen.append(event.observation)

        match = play_match(rules, bots, 30_000 + game, time_limit=None, on_turn=record)
        winners = match.winners
        rows: list[Row] = []
        for k, obs in enumerate(seen):
            if k % args.every:
                continue
            end = match.rounds[obs.round].end
            if end is None or end.winner is None:
                continue  # an abandoned round: no winner to compare with
            started = time.perf_counter()
            ev = evaluate(obs, samples=args.samples, seed=1000 * game + k, depth=args.depth)
            seconds = time.perf_counter() - started
            p = obs.player
            rows.append({
                "pairing": args.pairing, "game": game, "round": obs.round, "turn": obs.turn,
                "player": p, "bot": names[p], "win_round": ev.win_round,
                "win_match": ev.win_match, "expected_score": ev.expected_score,
                "samples": ev.samples, "seconds": seconds,
                "won_round": float(end.winner == p),
                "won_match": (1.0 / len(winners)) if p in winners else 0.0,
                "score": end.scores[p], "rounds": args.rounds,
            })  # fmt: skip
        with out.open("a") as f:
            for row in rows:
                f.write(json.dumps(row) + "\n")
        took = sum(r["seconds"] for r in rows)
        print(f"game {game}: {len(rows)} positions, {took:.1f} s", file=sys.stderr, flush=True)


# -- the figures ----------------------------------------------------------------------------


def ece(pred: Sequence[float], won: Sequence[float], bins: int = 10) -> float:
    """The expected calibration error: the mean gap between predicted and observed frequency
    in ``bins`` equal-width bins, weighted by the positions in each."""
    sums = [[0.0, 0.0, 0] for _ in range(bins)]
    for p, y in zip(pred, won, strict=True):
        b = sums[min(int(p * bins), bins - 1)]
        b[0] += p
        b[1] += y
        b[2] += 1
    n = len(pred)
    return sum(abs(s[0] - s[1]) / n for s in sums if s[2])


def brier(pred: Sequence[float], won: Sequence[float]) -> float:
    return statistics.fmean((p - y) ** 2 for p, y in zip(pred, won, strict=True))


def bootstrap(
    games: dict[int, list[Row]], stat: Callable[[list[Row]], float], reps: int = 1000
) -> tuple[float, float, float]:
    """``stat`` over every row, and a 95% percentile interval resampling whole games."""
    keys = sorted(games)
    rows = [r for k in keys for r in games[k]]
    rng = random.Random(0)
    values = []
    for _ in range(reps):
        pick = [r for _ in keys for r in games[keys[rng.randrange(len(keys))]]]
        values.append(stat(pick))
    values.sort()
    return stat(rows), values[int(0.025 * reps)], values[int(0.975 * reps) - 1]


def show(name: str, fig: tuple[float, float, float], fmt: str = ".3f") -> str:
    v, lo, hi = fig
    return f"{name} {v:{fmt}} ({lo:{fmt}}–{hi:{fmt}})"


def summarise(label: str, rows: list[Row]) -> None:
    games: dict[int, list[Row]] = {}
    for r in rows:
        games.setdefault(r["game"] * 10 + (r["pairing"] == "expert-greedy"), []).append(r)

    def col(name: str) -> Callable[[list[Row]], list[float]]:
        return lambda rs: [float(r[name]) for r in rs]

    wr, yr, wm, ym = col("win_round"), col("won_round"), col("win_match"), col("won_match")
    print(f"{label}: {len(rows)} positions, {len(games)} games")
    print("  win_round:", show("ECE", bootstrap(games, lambda rs: ece(wr(rs), yr(rs)))),
          show("Brier", bootstrap(games, lambda rs: brier(wr(rs), yr(rs)))))  # fmt: skip
    if any(r["rounds"] > 1 for r in rows):
        print("  win_match:", show("ECE", bootstrap(games, lambda rs: ece(wm(rs), ym(rs)))),
              show("Brier", bootstrap(games, lambda rs: brier(wm(rs), ym(rs)))))  # fmt: skip
    print("  expected_score − actual round score:",
          show("mean", bootstrap(games, lambda rs: statistics.fmean(
              r["expected_score"] - r["score"] for r in rs)), ".1f"))  # fmt: skip
    print("  " + show("evaluations/s", bootstrap(
        games, lambda rs: len(rs) / sum(r["seconds"] for r in rs)), ".2f"),
        show("s/evaluation", bootstrap(
            games, lambda rs: statistics.fmean(r["seconds"] for r in rs)), ".3f"))  # fmt: skip
    per_game = {k: [sum(r["seconds"] for r in v), len(v)] for k, v in games.items()}
    secs = [v[0] for v in per_game.values()]
    sizes = [v[1] for v in per_game.values()]
    print(f"  a game's positions: {statistics.fmean(sizes):.0f} (median {statistics.median(sizes)})"
          f", {statistics.fmean(secs):.1f} s a game (median {statistics.median(secs):.1f} s, "
          f"max {max(secs):.1f} s); 50 positions ≈ "
          + show("", bootstrap(games, lambda rs: 50 * statistics.fmean(
              r["seconds"] for r in rs)), ".1f") + " s")  # fmt: skip


def diagram(groups: dict[str, list[Row]], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4.6))
    for ax, (pred, won, title) in zip(
        axes,
        [("win_round", "won_round", "win_round (the round)"),
         ("win_match", "won_match", "win_match (3-round matches)")],
        strict=True,
    ):  # fmt: skip
        ax.plot([0, 1], [0, 1], color="grey", lw=1, ls="--")
        for label, rows in groups.items():
            if pred == "win_match":
                rows = [r for r in rows if r["rounds"] > 1]
            if not rows:
                continue
            xs, ys, ns = [], [], []
            for b in range(10):
                inb = [r for r in rows if min(int(r[pred] * 10), 9) == b]
                if inb:
                    xs.append(statistics.fmean(r[pred] for r in inb))
                    ys.append(statistics.fmean(r[won] for r in inb))
                    ns.append(len(inb))
            e = ece([r[pred] for r in rows], [r[won] for r in rows])
            ax.plot(xs, ys, marker="o", label=f"{label} (n={len(rows)}, ECE {e:.3f})")
        ax.set_title(title)
        ax.set_xlabel("predicted chance (bin mean)")
        ax.set_ylabel("observed frequency")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8, loc="upper left")
    fig.suptitle(f"Reliability of the evaluation ({DEFAULT_SAMPLES} samples, held-out games)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"wrote {path}")


def report(args: argparse.Namespace) -> None:
    rows: list[Row] = []
    for name in args.files:
        with open(name) as f:
            rows.extend(json.loads(line) for line in f if line.strip())
    groups: dict[str, list[Row]] = {}
    for r in rows:
        key = f"{r['pairing']}, {r['rounds']} round{'s' if r['rounds'] > 1 else ''}"
        groups.setdefault(key, []).append(r)
        if r["pairing"] == "expert-greedy":
            groups.setdefault(f"expert-greedy, {r['bot']}'s view", []).append(r)
    for label, group in sorted(groups.items()):
        summarise(label, group)
    summarise("all", rows)
    if args.png:
        shown = {k: v for k, v in groups.items() if "view" not in k}
        diagram(shown, args.png)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("--pairing", default="greedy-greedy")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--rules", default="standard")
    p.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    p.add_argument("--every", type=int, default=1, help="evaluate every k-th position")
    p.add_argument("--depth", choices=DEPTHS, default="default")
    p.add_argument("--fit-weight", type=float, default=None,
                   help="the deals' FIT_WEIGHT (default: the module's)")  # fmt: skip
    p.add_argument("--out", required=True)
    r = sub.add_parser("report")
    r.add_argument("files", nargs="+")
    r.add_argument("--png")
    args = parser.parse_args()
    play(args) if args.command == "play" else report(args)


if __name__ == "__main__":
    main()
