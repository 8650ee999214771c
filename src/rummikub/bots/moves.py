"""Move helpers shared by the bots: checking a play against an observation, and cheap move
generation (new melds from the rack, single tiles laid onto table melds).

Everything here works from an :class:`Observation` alone, never from hidden state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations

from rummikub.core import (
    JOKER,
    IllegalPlayError,
    Meld,
    Observation,
    Play,
    Rack,
    RoundState,
    Rules,
    Table,
    Tile,
    check_play,
    read_meld,
)

__all__ = [
    "check_observed",
    "extensions",
    "is_legal",
    "observed_state",
    "pack_rack",
    "rack_melds",
]


def observed_state(obs: Observation) -> RoundState:
    """A round state holding exactly what ``obs`` shows: the own rack, the table and who has
    opened. Other racks are empty and the pool is empty, so it is only good for checking the
    observing player's plays (which depend on nothing else)."""
    racks = tuple(obs.rack if i == obs.player else Rack() for i in range(obs.players))
    return RoundState(obs.rules, racks, obs.table, (), obs.opened, obs.player)


def check_observed(obs: Observation, play: Play) -> IllegalPlayError | None:
    """Why ``play`` would be rejected for the observing player, or ``None`` if it is legal."""
    return check_play(observed_state(obs), play)


def is_legal(obs: Observation, play: Play) -> bool:
    return check_observed(obs, play) is None


def pack_rack(
    tiles: Sequence[Tile], rules: Rules, *, opening: bool, time_limit: float | None = None
) -> tuple[Meld, ...]:
    """New melds made from ``tiles`` (a rack) alone, by the solver's dynamic program (polynomial
    in the rack's size, so a rack of 90 tiles takes milliseconds): with ``opening``, the most
    valuable melds when they reach the opening value (else none); otherwise the melds placing
    the most tiles (ties: the highest value). ``time_limit`` (seconds): none when it runs out.
    """
    from rummikub.solver import solve

    if not tiles:
        return ()
    objective = "value" if opening else "tiles"
    sol = solve(
        Table(),
        tuple(tiles),
        opened=not opening,
        rules=rules,
        objective=objective,
        time_limit=time_limit,
        fewest_changes=False,
    )
    return sol.table.melds if sol.play else ()


def rack_melds(tiles: Iterable[Tile], rules: Rules, *, max_jokers: int = 2) -> list[Meld]:
    """Every distinct valid meld (canonical form) that can be made from the multiset ``tiles``
    alone, using at most ``max_jokers`` of its jokers."""
    counts = Counter(tiles)
    jokers = min(counts.pop(JOKER, 0), max_jokers)
    numbers = sorted({t.number for t in counts})
    found: dict[tuple[Tile, ...], Meld] = {}

    def add(candidate: Sequence[Tile]) -> None:
        try:
            reading = read_meld(Meld(tuple(candidate)), rules)
        except IllegalPlayError:
            return
        found.setdefault(reading.meld.key(), reading.meld)

    # groups: distinct colours of one number, plus jokers
    max_group = min(rules.colours, 4)
    for n in numbers:
        colours = [Tile(c, n) for c in range(rules.colours) if counts.get(Tile(c, n), 0) > 0]
        for size in range(1, len(colours) + 1):
            for chosen in combinations(colours, size):
                for j in range(jokers + 1):
                    if 3 <= size + j <= max_group:
                        add((*chosen, *(JOKER,) * j))
    # runs: a window of numbers in one colour; gaps are filled with jokers
    for c in range(rules.colours):
        have = [counts.get(Tile(c, n), 0) > 0 for n in range(rules.numbers + 2)]
        for start in range(1, rules.numbers + 1):
            if not have[start]:
                continue
            gaps = 0
            for end in range(start, rules.numbers + 1):
                if not have[end]:
                    gaps += 1
                    if gaps > jokers:
                        break
                length = end - start + 1
                real = [Tile(c, k) for k in range(start, end + 1) if have[k]]
                if real[-1].number != end:
                    continue
                for extra in range(jokers - gaps + 1):
                    if length + extra >= 3 and end + extra <= rules.numbers:
                        run = [Tile(c, k) if have[k] else JOKER for k in range(start, end + 1)]
                        add((*run, *(JOKER,) * extra))
    return list(found.values())


def extensions(
    table: Table, tiles: Iterable[Tile], rules: Rules
) -> Iterator[tuple[Tile, int, Meld]]:
    """Single rack tiles that can be laid onto one table meld as it stands: yields
    ``(tile, meld index, new meld)`` (canonical form)."""
    have = set(tiles)
    for i, meld in enumerate(table.melds):
        try:
            reading = read_meld(meld, rules)
        except IllegalPlayError:
            continue
        wanted: list[tuple[Tile, tuple[Tile, ...]]] = []
        size = len(reading.tiles)
        if reading.kind == "run":
            lo, hi = reading.number, reading.number + size - 1
            if lo > 1:
                wanted.append(
                    (Tile(reading.colour, lo - 1), (Tile(reading.colour, lo - 1), *reading.tiles))
                )
            if hi < rules.numbers:
                wanted.append(
                    (Tile(reading.colour, hi + 1), (*reading.tiles, Tile(reading.colour, hi + 1)))
                )
            if hi < rules.numbers:
                wanted.append((JOKER, (*reading.tiles, JOKER)))
            elif lo > 1:
                wanted.append((JOKER, (JOKER, *reading.tiles)))
        elif size < min(rules.colours, 4):
            for c in reading.missing_colours(rules):
                wanted.append((Tile(c, reading.number), (*reading.tiles, Tile(c, reading.number))))
            wanted.append((JOKER, (*reading.tiles, JOKER)))
        for tile, candidate in wanted:
            if tile not in have:
                continue
            try:
                new = read_meld(Meld(candidate), rules)
            except IllegalPlayError:
                continue
            yield tile, i, new.meld


def replace_meld(table: Table, index: int, meld: Meld) -> Table:
    melds = list(table.melds)
    melds[index] = meld
    return Table(tuple(melds))
