"""Packing a rack is the same in every process: equally good packings are chosen alike whatever
the process's string hashing (the beginner and random bots open with them, so seeded games of
those bots replay the same on another machine, or in a Ray worker)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from rummikub.core import Rack, pack_melds

#: racks with several equally good packings (jokers that fit a group or a run, twin tiles)
RACKS = [
    "R1 R2 R3 B1 K1 O1 J",
    "J J R5 B5 K5 R6 R7 O5",
    "R10 R11 R12 R13 B10 K10 O10 J R9 B11",
    "K3 K4 K5 O3 O4 O5 R3 R4 R5 B3 J",
]

SCRIPT = """
import json, sys
from rummikub.core import Rack, pack_melds
out = []
for rack in json.loads(sys.argv[1]):
    for objective in ("tiles", "value"):
        out.append([str(m) for m in pack_melds(Rack.parse(rack).tiles, objective=objective)])
print(json.dumps(out))
"""


def _packings(hash_seed: str) -> list[list[str]]:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(RACKS)],
        env=env, capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    result: list[list[str]] = json.loads(done.stdout)
    return result


def test_the_same_packing_whatever_the_string_hashing() -> None:
    first = _packings("1")
    assert all(first)  # every rack packs into melds
    for seed in ("2", "3", "12345"):
        assert _packings(seed) == first


def test_this_process_agrees() -> None:
    here = [
        [str(m) for m in pack_melds(Rack.parse(rack).tiles, objective=objective)]
        for rack in RACKS
        for objective in ("tiles", "value")
    ]
    assert here == _packings("7")
