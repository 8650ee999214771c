"""Shared hypothesis strategies and helpers for the rules-engine tests.

The reference checks here are written from the rule book (docs/rules.md), not from the engine:
``ref_readings`` lists every way a multiset of tiles can be a group or a run, and
``play_random_match`` drives a whole match with random choices among legal and illegal actions
so that the property tests can check invariants after every turn.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

from rummikub.core import (
    JOKER,
    Draw,
    IllegalPlayError,
    Match,
    Meld,
    Pass,
    Play,
    Rack,
    Role,
    RoundState,
    Rules,
    Table,
    Tile,
    Timeout,
    check_play,
    pack_melds,
    parse_tiles,
    preset,
    read_meld,
)

STANDARD = preset("standard")
#: a small custom set that still has groups (4 colours) and jokers, for fast exhaustive checks
SMALL = STANDARD.replace(numbers=7, copies=1, jokers=2, rack_size=5, opening_value=10)


# ------------------------------------------------------------------ reference meld reading
@dataclass(frozen=True)
class RefReading:
    kind: str  # "run" or "group"
    colour: int  # run colour, -1 for a group
    number: int  # first number of a run, the number of a group
    length: int

    @property
    def value(self) -> int:
        if self.kind == "group":
            return self.number * self.length
        return sum(range(self.number, self.number + self.length))


def ref_readings(tiles: Sequence[Tile], rules: Rules) -> list[RefReading]:
    """Every valid reading of a tile multiset, straight from the rule book: a group is 3..4
    tiles (never more than the colours) of one number in distinct colours; a run is 3 or more
    consecutive numbers of one colour within 1..numbers; jokers fill any gap; never only
    jokers."""
    n = len(tiles)
    real = [t for t in tiles if not t.is_joker]
    if n < 3 or not real:
        return []
    for t in real:
        if not (0 <= t.colour < rules.colours and 1 <= t.number <= rules.numbers):
            return []
    out: list[RefReading] = []
    numbers = {t.number for t in real}
    colours = [t.colour for t in real]
    if len(numbers) == 1 and len(set(colours)) == len(colours) and n <= min(4, rules.colours):
        out.append(RefReading("group", -1, real[0].number, n))
    if len(set(colours)) == 1:
        nums = [t.number for t in real]
        if len(set(nums)) == len(nums):
            for start in range(1, rules.numbers - n + 2):
                if all(start <= k < start + n for k in nums):
                    out.append(RefReading("run", colours[0], start, n))
    return out


def ref_ordered_readings(tiles: Sequence[Tile], rules: Rules) -> list[RefReading]:
    """The readings of tiles written in this order with bare jokers: a run must be written
    ascending (position i holds start + i); a group in any order."""
    out = []
    for r in ref_readings(tiles, rules):
        if r.kind == "group" or all(
            t.is_joker or t.number == r.number + i for i, t in enumerate(tiles)
        ):
            out.append(r)
    return out


# ------------------------------------------------------------------------- strategies
def tiles_of(rules: Rules) -> st.SearchStrategy[Tile]:
    """Any tile of ``rules`` (jokers included)."""
    number_tiles = st.builds(Tile, st.integers(0, rules.colours - 1), st.integers(1, rules.numbers))
    return st.one_of(number_tiles, st.just(JOKER)) if rules.jokers else number_tiles


@st.composite
def valid_melds(draw: st.DrawFn, rules: Rules = STANDARD, max_jokers: int = 2) -> Meld:
    """A random valid meld as a player might write it: runs ascending, groups in any colour
    order, each joker either bare (when that is unambiguous) or with its role."""
    jokers_allowed = min(max_jokers, rules.jokers)
    if rules.colours >= 3 and draw(st.booleans()):
        number = draw(st.integers(1, rules.numbers))
        size = draw(st.integers(3, min(4, rules.colours)))
        colours = draw(st.permutations(range(rules.colours)))[:size]
        jokers = draw(st.integers(0, min(jokers_allowed, size - 1)))
        tiles: list[Tile] = [Tile(c, number) for c in colours[: size - jokers]]
        tiles += [JOKER] * jokers
        tiles = draw(st.permutations(tiles))
        roles: list[Role | None] = [number if t.is_joker else None for t in tiles]
    else:
        colour = draw(st.integers(0, rules.colours - 1))
        size = draw(st.integers(3, min(rules.numbers, 6)))
        start = draw(st.integers(1, rules.numbers - size + 1))
        jokers = draw(st.integers(0, min(jokers_allowed, size - 1)))
        places = set(draw(st.permutations(range(size)))[:jokers])
        tiles = [JOKER if i in places else Tile(colour, start + i) for i in range(size)]
        roles = [Tile(colour, start + i) if i in places else None for i in range(size)]
    with_roles = draw(st.booleans())
    meld = Meld(tuple(tiles), tuple(roles) if with_roles else ())
    return meld


@st.composite
def valid_tables(draw: st.DrawFn, rules: Rules = STANDARD, max_melds: int = 6) -> Table:
    """A table of valid melds that does not use more copies of a tile than the set has."""
    limit = Counter(rules.all_tiles())
    used: Counter[Tile] = Counter()
    melds: list[Meld] = []
    for _ in range(draw(st.integers(0, max_melds))):
        meld = draw(valid_melds(rules))
        need = Counter(meld.tiles)
        if all(used[t] + k <= limit[t] for t, k in need.items()):
            used.update(need)
            melds.append(meld)
    return Table(tuple(melds))


# --------------------------------------------------------------------- random matches
Hook = Callable[[RoundState, RoundState, object], None]


def _rack_only_play(state: RoundState, rng: random.Random) -> Play | None:
    rules = state.rules
    packed = list(pack_melds(state.rack.tiles, rules, objective="value"))
    if not packed:
        return None
    if state.opened[state.current]:
        rng.shuffle(packed)
        packed = packed[: rng.randint(1, len(packed))]
    tiles = tuple(t for m in packed for t in m.tiles)
    return Play(tiles, Table(state.table.melds + tuple(packed)))


def _extend_play(state: RoundState, rng: random.Random) -> Play | None:
    """Add rack tiles to the ends of runs and to groups (as many as fit, melds in random
    order)."""
    rules = state.rules
    rack = Counter(state.rack.tiles)
    melds = list(state.table.melds)
    placed: list[Tile] = []
    order = list(range(len(melds)))
    rng.shuffle(order)
    for i in order:
        grown = True
        while grown:
            grown = False
            reading = read_meld(melds[i], rules)
            if reading.kind == "run":
                end = reading.number + len(reading.tiles)
                options = [(Tile(reading.colour, reading.number - 1), True)]
                options.append((Tile(reading.colour, end), False))
            else:
                missing = reading.missing_colours(rules)
                options = [(Tile(c, reading.number), False) for c in missing]
            options.append((JOKER, False))
            rng.shuffle(options)
            for tile, front in options:
                if rack[tile] <= 0 or (tile.is_joker and rng.random() < 0.7):
                    continue
                tiles = (tile, *reading.tiles) if front else (*reading.tiles, tile)
                try:
                    melds[i] = read_meld(Meld(tiles), rules).meld
                except IllegalPlayError:
                    continue
                rack[tile] -= 1
                placed.append(tile)
                grown = True
                break
    if not placed:
        return None
    return Play(tuple(placed), Table(tuple(melds)))


def _rearrange_play(state: RoundState, rng: random.Random) -> Play | None:
    """Pack table and rack tiles together; legal when every table tile is used."""
    table_tiles = state.table.tiles()
    if not table_tiles or len(table_tiles) > 15:
        return None
    rack = list(state.rack.tiles)
    rng.shuffle(rack)
    rack = rack[: rng.randint(1, min(6, len(rack)))]
    melds = pack_melds([*table_tiles, *rack], state.rules)
    placed = Counter(t for m in melds for t in m.tiles)
    if placed & Counter(table_tiles) != Counter(table_tiles):
        return None
    played = placed - Counter(table_tiles)
    if not played:
        return None
    return Play(tuple(played.elements()), Table(melds))


def _retrieve_joker_play(state: RoundState, rng: random.Random) -> Play | None:
    """Replace a table joker by the rack tile it stands for and reuse the joker at the end of
    another table meld."""
    rules = state.rules
    melds = list(state.table.melds)
    for i, meld in enumerate(melds):
        if JOKER not in meld.tiles:
            continue
        reading = read_meld(meld, rules)
        for k, tile in enumerate(reading.tiles):
            if not tile.is_joker:
                continue
            if reading.kind == "group":
                faces = [Tile(c, reading.number) for c in reading.missing_colours(rules)]
            else:
                faces = [Tile(reading.colour, reading.face(k))]
            for face in faces:
                if face not in state.rack.tiles:
                    continue
                freed = list(reading.tiles)
                freed[k] = face
                for j, other in enumerate(melds):
                    if j == i:
                        continue
                    cand = Meld((*other.tiles, JOKER))
                    try:
                        read_meld(cand, rules)
                    except IllegalPlayError:
                        continue
                    new = list(melds)
                    new[i] = Meld(tuple(freed))
                    new[j] = cand
                    return Play((face,), Table(tuple(new)))
    return None


def _invalid_play(state: RoundState, rng: random.Random) -> Play:
    """A play that breaks a rule (which one is chosen at random)."""
    rack = state.rack.tiles
    choice = rng.randrange(4)
    tile = rng.choice(rack)
    if choice == 0 or not state.table.melds:  # a lone tile is not a meld
        return Play((tile,), Table((*state.table.melds, Meld((tile,)))))
    if choice == 1:  # a table tile goes back to the rack
        melds = list(state.table.melds)
        i = rng.randrange(len(melds))
        return Play((tile,), Table((*melds[:i], *melds[i + 1 :], Meld((tile,)))))
    if choice == 2:  # a tile that is not on the rack
        ghost = Tile(0, 1) if Tile(0, 1) not in rack else Tile(1, state.rules.numbers)
        if ghost in rack:
            ghost = JOKER if JOKER not in rack else Tile(2, 2)
        return Play((ghost, ghost, ghost), Table((*state.table.melds, Meld((ghost,) * 3))))
    return Play((), state.table)  # no rack tile


def random_action(state: RoundState, rng: random.Random) -> object:
    """A random action for the player to move: legal plays of several kinds (most of the
    time, when there is one), draws, passes, timeouts and deliberately illegal plays."""
    roll = rng.random()
    if roll < 0.05:
        return Timeout()
    if roll < 0.12:
        return _invalid_play(state, rng)
    if roll < 0.9:
        makers = [_rack_only_play]
        if state.opened[state.current] and state.table.melds:
            makers += [_extend_play, _retrieve_joker_play]
            rng.shuffle(makers)
            if rng.random() < 0.3:  # the slowest kind: try it first, now and then
                makers.insert(0, _rearrange_play)
        for make in makers:
            play = make(state, rng)
            if play is not None:
                return play
    return Draw() if state.pool else Pass()


def play_random_match(
    match: Match,
    rng: random.Random,
    on_turn: Hook,
    on_reject: Callable[[RoundState, Play, IllegalPlayError], None],
    max_turns: int = 400,
) -> Match:
    """Play ``match`` to its end with :func:`random_action`, calling ``on_turn(before, after,
    action)`` after every accepted action and ``on_reject`` for every refused play. A round that
    runs past ``max_turns`` is abandoned."""
    while True:
        while not match.round_over:
            if match.state.turn >= max_turns:
                match.abandon()
                break
            before = match.state
            action = random_action(before, rng)
            if isinstance(action, Play):
                err = check_play(before, action)
                if err is not None and match.rules.invalid_play == "reject":
                    try:
                        match.act(action)
                    except IllegalPlayError as exc:
                        on_reject(before, action, exc)
                    else:  # pragma: no cover - a refused play must raise
                        raise AssertionError("an illegal play was accepted")
                    assert match.state is before
                    continue
            assert isinstance(action, Play | Draw | Pass | Timeout)
            match.act(action)
            on_turn(before, match.state, action)
        if match.over:
            return match
        match.next_round()


# ---------------------------------------------------------------------- hand-made states
def position(
    table: str = "",
    racks: Sequence[str] = ("", ""),
    *,
    opened: Sequence[bool] | None = None,
    pool: str = "",
    current: int = 0,
    rules: Rules = STANDARD,
    passes: int = 0,
) -> RoundState:
    """A round state written in notation (the table is stored as written)."""
    return RoundState(
        rules,
        tuple(Rack.parse(r) for r in racks),
        Table.parse(table),
        parse_tiles(pool),
        tuple(opened) if opened is not None else (True,) * len(racks),
        current,
        passes=passes,
    )


def play(text: str) -> Play:
    """A play in notation: ``R4 -> R1 R2 R3 R4``."""
    return Play.parse(text)
