"""The Xpress evaluation's playouts: rounds a second of the compiled playouts
(``rummikub.solver.xpress``, with Numba) against the Python ones in the same process, on the same
fresh deals and futures, and how often the two play a round alike.

    .venv/bin/python bench/xpress_playouts.py --rounds 300

Each round is dealt from a seeded generator and played out from its first turn, one player
keeping his low dice (the ranking's judged player), the other as ``greedy``. The kernel is
loaded (or compiled) before the clock starts.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rummikub.xpress import XpressRules, default_layout
from rummikub.xpress import ranking as R
from rummikub.xpress.game import setup_round
from rummikub.xpress.state import XpressState


def play(rounds: int, compiled: bool) -> tuple[list[R._Ending], float]:
    """The endings of ``rounds`` seeded rounds and the rounds played a second."""
    R._KERNEL[:] = [] if compiled else [None]
    R._kernel()
    rules, layout = XpressRules(), default_layout()
    rng = random.Random("bench xpress playouts")
    states = [XpressState.start(rules, layout, setup_round(rng, rules, layout), g % 2)
              for g in range(rounds)]  # fmt: skip
    started = time.perf_counter()
    out = [R._play(s, None, R._Future(layout, "bench", g), (0,)) for g, s in enumerate(states)]
    return out, rounds / (time.perf_counter() - started)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rounds", type=int, default=300)
    args = ap.parse_args()
    from rummikub.solver.xpress import warm_up

    warm_up()
    python, py_rate = play(args.rounds, False)
    compiled, c_rate = play(args.rounds, True)
    same = sum(a == b for a, b in zip(python, compiled, strict=True))

    def margin(endings: list[R._Ending]) -> float:
        return statistics.fmean(s[0] - s[1] for _, s, _ in endings)

    print(f"rounds: {args.rounds}; python {py_rate:.0f}/s, compiled {c_rate:.0f}/s: "
          f"x{c_rate / py_rate:.1f}")  # fmt: skip
    print(f"played alike: {same} of {args.rounds}; the keeper's mean margin: python "
          f"{margin(python):+.2f}, compiled {margin(compiled):+.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
