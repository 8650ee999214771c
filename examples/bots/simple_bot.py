#!/usr/bin/env python3
"""A reference outside bot for the ``rummikub-bot/1`` protocol, in plain Python (standard
library only, no import of the rummikub package).

Strategy: before opening, lay the rack-only groups and runs (no jokers) if they reach the
opening value; after opening, lay every such meld it can and then lay single tiles on the ends
of table runs and into table groups. Otherwise draw (or pass when the pool is empty).

Run a game against a built-in bot with::

    rummikub bot --cmd "python examples/bots/simple_bot.py" --against greedy --games 10
"""

from __future__ import annotations

import json
import sys

COLOURS = "KRBO"


def parse(tile: str) -> tuple[str, int] | None:
    """('R', 7) for 'R7'; None for a joker or a joker with a role ('J', 'J=R6')."""
    if tile.startswith("J"):
        return None
    return tile[0], int(tile[1:])


def name(colour: str, number: int) -> str:
    return f"{colour}{number}"


def find_melds(rack: list[str], numbers: int) -> list[list[str]]:
    """Disjoint groups and runs made of real rack tiles, found greedily (runs first)."""
    left = [t for t in rack if parse(t) is not None]
    melds: list[list[str]] = []
    for colour in COLOURS:  # runs: longest stretches of consecutive numbers
        have = sorted({n for c, n in (parse(t) for t in left if parse(t)) if c == colour})
        stretch: list[int] = []
        for n in [*have, 99]:
            if stretch and n == stretch[-1] + 1:
                stretch.append(n)
                continue
            if len(stretch) >= 3:
                meld = [name(colour, k) for k in stretch]
                melds.append(meld)
                for t in meld:
                    left.remove(t)
            stretch = [n]
    for number in range(1, numbers + 1):  # groups of the tiles that are left
        tiles = sorted({t for t in left if parse(t) and parse(t)[1] == number})  # type: ignore[index]
        if len(tiles) >= 3:
            melds.append(tiles[:4])
            for t in tiles[:4]:
                left.remove(t)
    return melds


def value(meld: list[str]) -> int:
    return sum(parse(t)[1] for t in meld)  # type: ignore[index]


def meld_info(meld: list[str]) -> tuple[str, str, int, int] | None:
    """('run', colour, low, high) or ('group', '', number, size) for a meld without jokers."""
    tiles = [parse(t) for t in meld]
    if any(t is None for t in tiles):
        return None
    real = [t for t in tiles if t is not None]
    if len({c for c, _ in real}) == 1:
        return "run", real[0][0], real[0][1], real[-1][1]
    return "group", "", real[0][1], len(real)


def extend(table: list[list[str]], rack: list[str], numbers: int) -> list[str]:
    """Lay rack tiles onto the ends of runs and into groups (changes ``table``); returns the
    tiles laid."""
    laid: list[str] = []
    changed = True
    while changed:
        changed = False
        for meld in table:
            info = meld_info(meld)
            if info is None:
                continue
            kind, colour, a, b = info
            if kind == "run":
                options = [(name(colour, a - 1), 0)] if a > 1 else []
                options += [(name(colour, b + 1), len(meld))] if b < numbers else []
            else:
                present = {t[0] for t in meld}
                options = (
                    [] if b >= 4 else [(name(c, a), len(meld)) for c in COLOURS if c not in present]
                )
            for tile, where in options:
                if tile in rack:
                    rack.remove(tile)
                    meld.insert(where, tile)
                    laid.append(tile)
                    changed = True
                    break
    return laid


def decide(obs: dict) -> dict:
    rules = obs["rules"]
    rack = list(obs["rack"])
    table = [list(m) for m in obs["table"]]
    me = obs["player"]
    melds = find_melds(rack, rules["numbers"])
    placed: list[str] = []
    if not obs["opened"][me]:
        if melds and sum(value(m) for m in melds) >= rules["opening_value"]:
            placed = [t for m in melds for t in m]
            table += melds
    else:
        for meld in melds:
            placed += meld
            table.append(meld)
        for t in placed:
            rack.remove(t)
        placed += extend(table, rack, rules["numbers"])
    if placed:
        return {"action": "play", "play": placed, "table": table}
    return {"action": "draw"} if obs["pool_size"] > 0 else {"action": "pass"}


def main() -> None:
    def send(message: dict) -> None:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

    pool_size = 1
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "ready", "name": "simple_bot"})
        elif kind == "turn":
            pool_size = message["observation"]["pool_size"]
            send(decide(message["observation"]))
        elif kind == "error" and message.get("retry"):
            # our play was refused: fall back to drawing (the host tells us whether we may retry)
            send({"action": "draw"} if pool_size > 0 else {"action": "pass"})
        elif kind == "quit":
            break


if __name__ == "__main__":
    main()
