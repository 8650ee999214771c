"""Two runs of ``bench/expert_search.py --dump`` on the same deals, compared game by game: the
mean difference of the expert's results (variant minus baseline) with its standard error, and
how many games each side won that the other did not.

    .venv/bin/python bench/paired.py DUMP.VARIANT.json DUMP.default.json
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("variant", type=Path)
    ap.add_argument("baseline", type=Path)
    args = ap.parse_args()
    a = json.loads(args.variant.read_text())
    b = json.loads(args.baseline.read_text())
    if len(a) != len(b):
        raise SystemExit(f"the runs differ in length ({len(a)} and {len(b)} games)")
    d = [x - y for x, y in zip(a, b, strict=True)]
    n = len(d)
    mean = sum(d) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1) / n) if n > 1 else float("nan")
    print(
        f"{n} games: {100 * sum(a) / n:.1f}% against {100 * sum(b) / n:.1f}%, difference "
        f"{100 * mean:+.1f} points (standard error {100 * se:.1f}); games that differ: "
        f"{sum(1 for x in d if x > 0)} better, {sum(1 for x in d if x < 0)} worse"
    )


if __name__ == "__main__":
    main()
