"""Random positions for solver tests and benchmarks: a table built from random valid melds and
a rack drawn from the tiles left over."""

from __future__ import annotations

import random

from rummikub.core.melds import Meld, read_meld
from rummikub.core.rules import Rules
from rummikub.core.state import RoundState, validate
from rummikub.core.table import Rack, Table
from rummikub.core.tiles import JOKER, Tile
from rummikub.solver import Solution


def random_meld(
    rng: random.Random, pool: list[Tile], rules: Rules, joker_prob: float
) -> list[Tile] | None:
    """Try to take one random valid meld out of ``pool`` (removing its tiles)."""
    jokers = pool.count(JOKER)
    for _ in range(20):
        if rng.random() < 0.5:
            c = rng.randrange(rules.colours)
            length = rng.choice([3, 3, 3, 4, 4, 5, 6])
            start = rng.randint(1, rules.numbers - length + 1)
            tiles: list[Tile] = []
            used_j = 0
            for k in range(start, start + length):
                t = Tile(c, k)
                if t in pool and not (used_j < jokers and rng.random() < joker_prob):
                    tiles.append(t)
                elif used_j < jokers and (t not in pool or rng.random() < 0.5):
                    tiles.append(JOKER)
                    used_j += 1
                else:
                    break
            else:
                if any(not t.is_joker for t in tiles):
                    for t in tiles:
                        pool.remove(t)
                    return tiles
        else:
            n = rng.randint(1, rules.numbers)
            cols = [c for c in range(rules.colours) if Tile(c, n) in pool]
            rng.shuffle(cols)
            size = rng.choice([3, 4]) if rules.colours >= 4 else 3
            chosen = [Tile(c, n) for c in cols[:size]]
            while len(chosen) < size and jokers > 0 and rng.random() < 0.7 + joker_prob:
                chosen.append(JOKER)
                jokers -= 1
            if len(chosen) >= 3 and any(not t.is_joker for t in chosen):
                for t in chosen:
                    pool.remove(t)
                return chosen
    return None


def random_position(
    rng: random.Random,
    rules: Rules,
    table_tiles: int,
    rack_tiles: int,
    *,
    table_jokers: int = 0,
    rack_jokers: int = 0,
    joker_prob: float = 0.1,
) -> tuple[Table, Rack]:
    """A table of about ``table_tiles`` tiles in valid melds (holding up to ``table_jokers``
    jokers) and a rack of ``rack_tiles`` tiles (with exactly ``rack_jokers`` jokers if the set
    has them left)."""
    pool = [t for t in rules.all_tiles() if not t.is_joker]
    rng.shuffle(pool)
    pool.extend([JOKER] * min(table_jokers, rules.jokers))
    melds: list[Meld] = []
    count = 0
    attempts = 0
    while count < table_tiles and attempts < 200:
        attempts += 1
        m = random_meld(rng, pool, rules, joker_prob if table_jokers else 0.0)
        if m is None:
            continue
        meld = read_meld(m, rules).meld
        melds.append(meld)
        count += len(m)
    used_j = sum(m.jokers for m in melds)
    rest = [t for t in pool if not t.is_joker]
    rng.shuffle(rest)
    rack = rest[: max(0, rack_tiles - rack_jokers)]
    rack += [JOKER] * min(rack_jokers, rules.jokers - used_j)
    return Table(tuple(melds)), Rack(tuple(rack))


def check_solution(table: Table, rack: Rack, opened: bool, rules: Rules, sol: Solution) -> None:
    """Assert that ``sol`` is a legal play (or no play) by the engine's own validation."""
    if not sol.play:
        assert sol.table == table
        assert sol.tiles == 0
        return
    state = RoundState(rules, (rack, Rack.parse("K1")), table, (), (opened, True), 0)
    play = sol.as_play()
    assert play is not None
    validate(state, play)
    assert sol.tiles == len(sol.play)
    for m in sol.table.melds:
        assert read_meld(m, rules).meld == m, f"not canonical: {m}"
