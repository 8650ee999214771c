"""The sequential test of a version-against-version tournament (as fishtest, cutechess-cli and
fastchess run it): the GSPRT of H0 "the tested bot is ELO0 stronger" against H1 "it is ELO1
stronger", logistic Elo, on the tournament's paired deals (pentanomial: each deal's two games
scored together), alpha = beta = 0.05 unless told.

    .venv/bin/python bench/sprt.py results.jsonl --elo0 0 --elo1 20
    .venv/bin/python bench/sprt.py results.jsonl --sprt 0,20 --new "cmd:..." --alpha 0.05

It prints the pairs, the LLR with its bounds and the verdict: ``H1 accepted`` (the tested bot
is stronger: keep the change), ``H0 accepted`` (it does not gain ELO1: drop it) or
``continue`` (play more pairs: rerun the same ``rummikub tournament`` command with a larger
``--games``; it plays only the new games). Exit status 0 once decided, 2 to continue, 1 on
bad input. docs/bots.md ("Testing a new version against the last release") has the recipe.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rummikub.bots.sprt import elo_estimate, sprt, tournament_counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("results", type=Path, help="a tournament's results file (--out)")
    ap.add_argument("--sprt", help="ELO0,ELO1 (instead of --elo0 and --elo1)")
    ap.add_argument("--elo0", type=float, default=0.0, help="H0: the gain in Elo (default 0)")
    ap.add_argument("--elo1", type=float, default=20.0, help="H1: the gain in Elo (default 20)")
    ap.add_argument("--alpha", type=float, default=0.05, help="false H1 rate (default 0.05)")
    ap.add_argument("--beta", type=float, default=0.05, help="false H0 rate (default 0.05)")
    ap.add_argument("--new", help="the tested bot's spec (default: the first of --bots)")
    args = ap.parse_args()
    elo0, elo1 = args.elo0, args.elo1
    try:
        if args.sprt:
            parts = args.sprt.split(",")
            if len(parts) != 2:
                raise ValueError(f"--sprt takes ELO0,ELO1, got {args.sprt!r}")
            elo0, elo1 = float(parts[0]), float(parts[1])
        lines = [json.loads(x) for x in args.results.read_text(encoding="utf-8").splitlines()
                 if x.strip()]  # fmt: skip
        new, old, penta, tri = tournament_counts(lines, args.new)
        result = sprt(penta, elo0, elo1, args.alpha, args.beta)
    except (OSError, ValueError, KeyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    pairs = sum(penta)
    elo, lo, hi = elo_estimate(penta)
    losses, draws, wins = tri
    print(f"{new} against {old}: {sum(tri)} games ({wins} won, {losses} lost, {draws} shared), "
          f"{pairs} complete pairs")  # fmt: skip
    print(f"pairs scoring 0, 1/2, 1, 3/2, 2: {penta}")
    print(f"Elo {elo:+.1f} (95% interval {lo:+.1f} to {hi:+.1f}), from the pairs")
    print(f"SPRT elo0={elo0:g} elo1={elo1:g} alpha={args.alpha:g} beta={args.beta:g}: "
          f"LLR {result.llr:+.3f} (bounds {result.lower:+.3f}, {result.upper:+.3f})")  # fmt: skip
    words = {"H1": "H1 accepted: the tested bot is stronger, as elo1 says (keep it)",
             "H0": "H0 accepted: it does not gain elo1 (reject it)",
             "continue": "continue: play more pairs"}  # fmt: skip
    print(words[result.verdict])
    return 2 if result.verdict == "continue" else 0


if __name__ == "__main__":
    sys.exit(main())
