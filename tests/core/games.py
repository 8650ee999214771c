"""Hand-made game records used by several test files."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rummikub.core import Rules, parse_tiles, preset
from rummikub.core.record import FORMAT
from rummikub.core.tiles import sort_key

#: four players, four tiles each, no opening minimum, three rounds
TABLE_RULES: Rules = preset("standard").replace(
    rack_size=4, opening_value=0, match={"rounds": 3, "target": None}
)


def deal(rules: Rules, racks: list[str], pool_front: str) -> dict[str, Any]:
    """A round's chance events: the dealt racks and a pool that starts with ``pool_front``
    (the rest of the set follows in canonical order)."""
    rest = Counter(rules.all_tiles())
    dealt = [parse_tiles(r) for r in racks]
    front = parse_tiles(pool_front)
    for tiles in [*dealt, front]:
        rest.subtract(tiles)
    assert not -rest, f"more tiles than the set has: {-rest}"
    pool = [*front, *sorted(rest.elements(), key=sort_key)]
    return {"pool": [str(t) for t in pool], "racks": [[str(t) for t in r] for r in dealt]}


def turn(player: int, action: str, **fields: Any) -> dict[str, Any]:
    return {"player": player, "action": action, **fields}


def score_table_record() -> dict[str, Any]:
    """Three rounds that reproduce the score table of the Jumbo/Pressman rules:

    ============  ====  ====  ====  ====
    Round         A     B     C     D
    ============  ====  ====  ====  ====
    1             +24   -5    -16   -3
    2             -6    -11   +22   -5
    3             -32   -13   -2    +47
    Total         -14   -29   +4    +39
    ============  ====  ====  ====  ====
    """
    r = TABLE_RULES
    round1 = {
        **deal(r, ["R1 R2 R3 R4", "K1 K1 B1 B1", "K2 K2 B2 B2", "O5 O6 O7 O3"], "R5 O1 K8"),
        "first": 0,
        "turns": [
            turn(0, "draw", tile="R5"),
            turn(1, "draw", tile="O1"),
            turn(2, "draw", tile="K8"),
            turn(3, "play", play=["O5", "O6", "O7"], table=[["O5", "O6", "O7"]]),
            turn(
                0,
                "play",
                play=["R1", "R2", "R3", "R4", "R5"],
                table=[["O5", "O6", "O7"], ["R1", "R2", "R3", "R4", "R5"]],
            ),
        ],
        "end": {
            "reason": "rummikub",
            "winner": 0,
            "racks": [[], ["K1", "K1", "B1", "B1", "O1"], ["K2", "K2", "K8", "B2", "B2"], ["O3"]],
            "scores": [24, -5, -16, -3],
        },
    }
    round2 = {
        **deal(r, ["K2 K2 B1 B1", "K1 K1 O2 O2", "R1 R2 R3 R4", "O1 O1 R1 R2"], "O5"),
        "first": 1,
        "turns": [
            turn(1, "draw", tile="O5"),
            turn(2, "play", play=["R1", "R2", "R3", "R4"], table=[["R1", "R2", "R3", "R4"]]),
        ],
        "end": {
            "reason": "rummikub",
            "winner": 2,
            "racks": [
                ["K2", "K2", "B1", "B1"],
                ["K1", "K1", "O2", "O2", "O5"],
                [],
                ["R1", "R2", "O1", "O1"],
            ],
            "scores": [-6, -11, 22, -5],
        },
    }
    round3 = {
        **deal(r, ["K13 R13 B3 B3", "K10 K1 O1 R1", "R5 R6 R7 K2", "O10 O11 O12 O13"], ""),
        "first": 2,
        "turns": [
            turn(2, "play", play=["R5", "R6", "R7"], table=[["R5", "R6", "R7"]]),
            turn(
                3,
                "play",
                play=["O10", "O11", "O12", "O13"],
                table=[["R5", "R6", "R7"], ["O10", "O11", "O12", "O13"]],
            ),
        ],
        "end": {
            "reason": "rummikub",
            "winner": 3,
            "racks": [["K13", "R13", "B3", "B3"], ["K1", "K10", "R1", "O1"], ["K2"], []],
            "scores": [-32, -13, -2, 47],
        },
    }
    return {
        "format": FORMAT,
        "rules": r.to_dict(),
        "players": [{"name": n, "kind": "human"} for n in "ABCD"],
        "seed": 0,
        "rounds": [round1, round2, round3],
        "totals": [-14, -29, 4, 39],
    }
