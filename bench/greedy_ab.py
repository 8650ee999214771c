"""Greedy self-play speed of two versions of the code in one process: blocks of seeded
2-player greedy matches alternate between the old code and this tree, and the CPU time of each
side is summed, so both see the same load of a shared machine (separate runs one after the
other differ by ±20% on a busy machine; this gives the ratio within a few percent).

    .venv/bin/python bench/greedy_ab.py OLD/src [--blocks 150] [--games 4]

``OLD/src`` is the ``src`` folder of the other version (e.g. ``git worktree add /tmp/old main``
or ``git archive main src | tar -x -C /tmp/old``); its ``rummikub`` package is copied to a
temporary folder as ``rummikub_old`` (its absolute imports renamed) and imported beside this
tree's. Prints both rates and the ratio of the total times (new over old: above 1 is faster).
"""

from __future__ import annotations

import argparse
import importlib
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

_ABSOLUTE = re.compile(r"\b(from|import) rummikub(?=[. ])")
#: the package named in a string (``importlib.import_module("rummikub.core")``,
#: ``resources.files("rummikub.bots")``): left alone, the old copy would use this tree's modules
#: there, and its games ran several times slower on a mix of both (the 6.3x once reported)
_QUOTED = re.compile(r"(?<=[\"'])rummikub(?=[.\"'])")


def _load_old(src: Path, into: Path) -> tuple[Any, Any]:
    target = into / "rummikub_old"
    shutil.copytree(src / "rummikub", target, ignore=shutil.ignore_patterns("__pycache__"))
    for path in target.rglob("*.py"):
        text = path.read_text()
        renamed = _QUOTED.sub("rummikub_old", _ABSOLUTE.sub(r"\1 rummikub_old", text))
        if renamed != text:
            path.write_text(renamed)
    sys.path.insert(0, str(into))
    return importlib.import_module("rummikub_old.bots"), importlib.import_module(
        "rummikub_old.core"
    )


def _block(bots: Any, rules: Any, seeds: range) -> float:
    started = time.process_time()
    for seed in seeds:
        bots.play_match(rules, [bots.get_bot("greedy", 1), bots.get_bot("greedy", 2)], seed)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("old_src", type=Path)
    parser.add_argument("--blocks", type=int, default=150)
    parser.add_argument("--games", type=int, default=4, help="matches per block")
    args = parser.parse_args()
    import rummikub.bots as new_bots
    import rummikub.core as new_core

    with tempfile.TemporaryDirectory() as tmp:
        old_bots, old_core = _load_old(args.old_src, Path(tmp))
        sides = {
            "old": (old_bots, old_core.preset("standard")),
            "new": (new_bots, new_core.preset("standard")),
        }
        for bots, rules in sides.values():
            _block(bots, rules, range(1, 2))  # load the compiled kernels
        total = {"old": 0.0, "new": 0.0}
        for b in range(args.blocks):
            seeds = range(2 + b * args.games, 2 + (b + 1) * args.games)
            for name in ("old", "new") if b % 2 == 0 else ("new", "old"):
                total[name] += _block(*sides[name], seeds)
    games = args.blocks * args.games
    print(
        f"{games} matches a side: old {games / total['old']:.1f} games/s, "
        f"new {games / total['new']:.1f} games/s, new/old {total['old'] / total['new']:.3f}"
    )


if __name__ == "__main__":
    main()
