"""The pure core: a round's state, and ``validate`` / ``apply`` for every action.

Nothing here does I/O, reads a clock or draws a random number: the pool order is decided when
the round is dealt (by the caller, from a seeded generator) and tiles are drawn from its front.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations, product
from typing import NoReturn

from .actions import Action, Draw, Pass, Play, Timeout
from .errors import Code, IllegalPlayError, UsageError
from .melds import Meld, Reading, read_meld, replaced_joker_kept
from .packing import max_meld_value
from .rules import Rules
from .scoring import EndReason, exhausted_winner, score_round
from .table import Rack, Table
from .tiles import JOKER, Tile, format_tiles

__all__ = [
    "RoundEnd",
    "RoundState",
    "apply",
    "check_action",
    "check_play",
    "penalise",
    "validate",
]


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """How a round ended: the reason, the winner, the racks left and the round's scores."""

    reason: EndReason
    winner: int | None
    racks: tuple[Rack, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundState:
    """Everything about a round in progress. Immutable; actions return a new state."""

    rules: Rules
    racks: tuple[Rack, ...]
    table: Table
    pool: tuple[Tile, ...]
    opened: tuple[bool, ...]
    current: int
    passes: int = 0
    turn: int = 0
    end: RoundEnd | None = None

    @classmethod
    def start(
        cls, rules: Rules, racks: Sequence[Rack], pool: Sequence[Tile], first: int
    ) -> RoundState:
        rules.check_players(len(racks))
        if not 0 <= first < len(racks):
            raise UsageError(
                f"first player {first} is not a seat", code=Code.BAD_SEAT, params={"seat": first}
            )
        return cls(rules, tuple(racks), Table(), tuple(pool), (False,) * len(racks), first)

    @property
    def players(self) -> int:
        return len(self.racks)

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def rack(self) -> Rack:
        """The rack of the player to move."""
        return self.racks[self.current]

    def tile_total(self) -> int:
        return len(self.pool) + len(self.table.tiles()) + sum(len(r) for r in self.racks)


# ------------------------------------------------------------------------------ validation
def validate(state: RoundState, play: Play) -> None:
    """Raise :class:`IllegalPlayError` if ``play`` is not legal for the player to move."""
    err = check_play(state, play)
    if err is not None:
        raise err


def check_play(state: RoundState, play: Play) -> IllegalPlayError | None:
    """The reason ``play`` is illegal, or ``None`` if it is legal (raises :class:`UsageError`
    once the round is over)."""
    try:
        _check(state, play)
    except IllegalPlayError as exc:
        return exc
    return None


def _check_running(state: RoundState) -> None:
    if state.end is not None:
        raise UsageError("the round is over", code=Code.ROUND_OVER)


class _LastLegal:
    """The last play found legal, with its state and meld readings. A turn asks the same
    question up to three times (the caller's check, the match's, :func:`apply`'s); both objects
    are immutable, so the same two objects (by identity) have the same answer."""

    entry: tuple[RoundState, Play, list[Reading]] | None = None


def _check(state: RoundState, play: Play) -> list[Reading]:
    last = _LastLegal.entry  # one read: another thread may replace it meanwhile
    if last is not None and last[0] is state and last[1] is play:
        return last[2]
    readings = _verify(state, play)
    _LastLegal.entry = (state, play, readings)
    return readings


def _verify(state: RoundState, play: Play) -> list[Reading]:
    rules = state.rules
    _check_running(state)
    if not play.tiles:
        raise IllegalPlayError(
            "a play must place at least one tile from the rack", code=Code.NO_RACK_TILE
        )
    for t in play.tiles:
        if not rules.is_valid_tile(t):
            raise IllegalPlayError(
                f"{t} is not a tile of these rules",
                code=Code.NOT_ON_RACK,
                params={"tiles": str(t)},
            )
    placed = play.counts()
    on_rack = state.rack.counts()
    missing = placed - on_rack if any(on_rack.get(t, 0) < k for t, k in placed.items()) else None
    if missing:
        shown = format_tiles(sorted(missing.elements()))
        raise IllegalPlayError(
            f"not on the rack: {shown}", code=Code.NOT_ON_RACK, params={"tiles": shown}
        )
    if not _conserved(state.table, play.table, placed):
        _conservation_error(state, play, placed)
    readings = []
    for i, meld in enumerate(play.table.melds):
        try:
            readings.append(read_meld(meld, rules))
        except IllegalPlayError as exc:
            raise IllegalPlayError(
                f"meld {i + 1} ({meld}): {exc}",
                code=Code.INVALID_MELD,
                params={**exc.params, "number": i + 1},
                meld=i,
            ) from None
    if not state.opened[state.current]:
        _check_opening(state, play, readings)
    if rules.joker_rule == "strict" or rules.group_needs_both_colours:
        _check_jokers(state, play)
    if rules.freed_joker_new_set:
        kept = replaced_joker_kept(state.table.melds, play.table.melds, rules)
        if kept is not None:
            raise IllegalPlayError(
                f"joker rule: the joker of {kept[0]} was replaced by the tile it stood for but "
                f"is still in that set ({kept[1]}); a freed joker must become part of another "
                "set in the same turn",
                code=Code.JOKER_RULE,
                params={"why": Code.JOKER_KEPT_IN_SET, "meld": str(kept[1])},
            )
    return readings


def _changed_melds(old: Table, new: Table) -> tuple[list[Meld], list[Meld]]:
    """The melds of ``old`` that ``new`` does not hold and those of ``new`` that ``old`` did
    not, told apart by identity (a play keeps most melds as the same objects)."""
    return _unmatched(old.melds, new.melds), _unmatched(new.melds, old.melds)


def _unmatched(melds: Sequence[Meld], others: Sequence[Meld]) -> list[Meld]:
    """The melds of ``melds`` left over once each meld object of ``others`` has taken one
    of its copies."""
    left = Counter(map(id, others))
    out: list[Meld] = []
    for m in melds:
        k = id(m)
        if left[k]:
            left[k] -= 1
        else:
            out.append(m)
    return out


def _conserved(old: Table, new: Table, placed: Counter[Tile]) -> bool:
    """Whether the tiles of ``new`` are those of ``old`` and ``placed``: the melds both hold
    cancel, so only the changed ones are counted."""
    removed, added = _changed_melds(old, new)
    # tiles counted as (colour, number) pairs: hashing a Tile calls Python code
    now = Counter([(t.colour, t.number) for m in added for t in m.tiles])
    expected = Counter([(t.colour, t.number) for m in removed for t in m.tiles])
    for t, k in placed.items():
        expected[(t.colour, t.number)] += k
    # both hold positive counts only: the plain dict comparison (in C) says whether they agree
    return dict.__eq__(now, expected)


def _conservation_error(state: RoundState, play: Play, placed: Counter[Tile]) -> NoReturn:
    """Raise the error that says which tiles the new table of ``play`` lacks, or has that came
    from nowhere (called when the tiles are not conserved)."""
    old = state.table.counts()
    new = play.table.counts()
    expected = old.copy()
    expected.update(placed)
    gone = expected - new
    if gone:
        table_gone = gone & old
        if table_gone:
            shown = format_tiles(sorted(table_gone.elements()))
            raise IllegalPlayError(
                f"table tile missing from the new table: {shown} (table tiles never go back "
                "to a rack)",
                code=Code.TABLE_TILE_MISSING,
                params={"tiles": shown},
            )
        shown = format_tiles(sorted(gone.elements()))
        raise IllegalPlayError(
            f"placed tile not on the new table: {shown}",
            code=Code.TILE_MISSING,
            params={"tiles": shown},
        )
    shown = format_tiles(sorted((new - expected).elements()))
    raise IllegalPlayError(
        f"{shown} on the new table came neither from the table nor from the played tiles",
        code=Code.TILE_FROM_NOWHERE,
        params={"tiles": shown},
    )


def _check_opening(state: RoundState, play: Play, readings: list[Reading]) -> None:
    rules = state.rules
    if rules.open_then_extend:
        best = max_meld_value(play.tiles, rules, at_least=rules.opening_value)
        if best < rules.opening_value:
            raise IllegalPlayError(
                f"opening: the played tiles make melds worth at most {best}, "
                f"below the opening value {rules.opening_value}",
                code=Code.OPENING_VALUE,
                params={"value": best, "needed": rules.opening_value},
            )
        return
    # every table meld must still be there, read the same way (its jokers standing for the
    # same tiles): re-reading "R5 J=R6 J=R7" as "R5 J=5 J=5" is a rearrangement too
    remaining = Counter(_meld_identity(read_meld(m, rules)) for m in state.table.melds)
    new_value = 0
    for reading in readings:
        k = _meld_identity(reading)
        if remaining[k] > 0:
            remaining[k] -= 1
        else:
            new_value += reading.value
    if +remaining:
        touched = format_tiles(next(iter((+remaining).keys()))[3])
        raise IllegalPlayError(
            f"opening: the table may not be touched before opening (meld {touched} changed)",
            code=Code.OPENING_TOUCHES_TABLE,
            params={"meld": touched},
        )
    if new_value < rules.opening_value:
        raise IllegalPlayError(
            f"opening: new melds worth {new_value}, below the opening value {rules.opening_value}",
            code=Code.OPENING_VALUE,
            params={"value": new_value, "needed": rules.opening_value},
        )


def _meld_identity(reading: Reading) -> tuple[str, int, int, tuple[Tile, ...]]:
    return (reading.kind, reading.colour, reading.number, reading.tiles)


# ---------------------------------------------------------------------- joker variants
def _joker_requirements(
    reading: Reading, rules: Rules, strict: bool
) -> list[tuple[Counter[Tile], Counter[Tile]]]:
    """The tile multisets one new meld must contain for this old joker meld to be handled
    legally (the meld kept, only added to; or jokers retrieved by replacement), each with the
    tiles that replace a joker in it."""
    real = [t for t in reading.tiles if not t.is_joker]
    jokers = [i for i, t in enumerate(reading.tiles) if t.is_joker]
    options: list[tuple[Counter[Tile], Counter[Tile]]] = [(Counter(reading.tiles), Counter())]
    if reading.kind == "group":
        missing = reading.missing_colours(rules)
        needs_all = rules.group_needs_both_colours and len(reading.tiles) == 3
        for k in range(1, len(jokers) + 1):
            if needs_all:
                # every missing colour must be added to free a joker from a group of three;
                # any k of them count as the tiles that replaced the k jokers
                faces = [Tile(c, reading.number) for c in missing]
                need = Counter(real + faces + [JOKER] * (len(jokers) - k))
                opts = [(need, Counter(cs)) for cs in combinations(faces, k)]
            else:
                opts = []
                for cs in combinations(missing, k):
                    faces = [Tile(c, reading.number) for c in cs]
                    opts.append(
                        (Counter(real + faces + [JOKER] * (len(jokers) - k)), Counter(faces))
                    )
            if strict or needs_all:
                options.extend(opts)
    elif strict:
        for k in range(1, len(jokers) + 1):
            for chosen in combinations(jokers, k):
                faces = [Tile(reading.colour, reading.face(i)) for i in chosen]
                options.append(
                    (Counter(real + faces + [JOKER] * (len(jokers) - k)), Counter(faces))
                )
    return options


def _check_jokers(state: RoundState, play: Play) -> None:
    rules = state.rules
    strict = rules.joker_rule == "strict"
    constrained: list[tuple[Meld, list[tuple[Counter[Tile], Counter[Tile]]]]] = []
    for meld in state.table.melds:
        if not any(t.is_joker for t in meld.tiles):
            continue
        reading = read_meld(meld, rules)
        if not strict and not (reading.kind == "group" and len(reading.tiles) == 3):
            continue
        constrained.append((meld, _joker_requirements(reading, rules, strict)))
    if not constrained:
        return
    capacity = [m.tiles for m in play.table.melds]
    caps = [Counter(c) for c in capacity]
    old_jokers = [m.tiles.count(JOKER) for m, _ in constrained]
    # strict: a freed joker must go into a new meld, one that is neither the meld it came from
    # (or another kept joker meld) nor an old meld with tiles added
    old_sets = [Counter(m.tiles) for m in state.table.melds]
    fresh_jokers = [
        0 if any(not (o - Counter(c)) for o in old_sets) else c.count(JOKER) for c in capacity
    ]
    # joker_swap_from_rack: the tiles that replace jokers are among the tiles played from the
    # rack (tiles alike are interchangeable, so counting them is enough)
    from_rack = play.counts()

    def fits(i: int, hosts: frozenset[int], freed: int, swapped: Counter[Tile], need: str) -> bool:
        if i == len(constrained):
            if need == "rack" and swapped - from_rack:
                return False
            if need != "new" or freed == 0:
                return True
            return sum(j for k, j in enumerate(fresh_jokers) if k not in hosts) >= freed
        for option, faces in constrained[i][1]:
            for k, cap in enumerate(caps):
                if not option - cap:
                    cap.subtract(option)
                    ok = fits(
                        i + 1,
                        hosts | {k},
                        freed + old_jokers[i] - option[JOKER],
                        swapped + faces,
                        need,
                    )
                    cap.update(option)
                    if ok:
                        return True
        return False

    def ok(need: str) -> bool:
        return fits(0, frozenset(), 0, Counter(), need)

    if not ok("any"):
        # name the first meld that cannot be matched on its own
        meld = next(
            (
                m
                for m, options in constrained
                if not any(not (o - Counter(c)) for (o, _), c in product(options, capacity))
            ),
            constrained[0][0],
        )
        if strict:
            code = Code.JOKER_MELD_BROKEN
            why = (
                "under the strict joker rule a meld holding a joker may only be added to, "
                "or have its joker replaced by the tile it stands for"
            )
        else:
            code = Code.JOKER_GROUP_NEEDS_BOTH
            why = "to free a joker from a group of three, both missing colours must be added"
        raise IllegalPlayError(
            f"joker rule: meld {meld} was broken up; {why}",
            code=Code.JOKER_RULE,
            params={"why": code, "meld": str(meld)},
        )
    if strict and not ok("new"):
        raise IllegalPlayError(
            "joker rule: under the strict joker rule a freed joker must be used in a new meld "
            "in the same turn (not added to an existing one)",
            code=Code.JOKER_RULE,
            params={"why": Code.JOKER_NOT_IN_NEW_MELD},
        )
    if rules.joker_swap_from_rack and not ok("rack"):
        raise IllegalPlayError(
            "joker rule: a joker may only be replaced by the tile it stands for from your own "
            "rack, not by a tile taken from the table",
            code=Code.JOKER_RULE,
            params={"why": Code.JOKER_SWAP_FROM_TABLE},
        )


# --------------------------------------------------------------------------------- apply
def _canonical_table(play: Play, readings: list[Reading]) -> Table:
    return Table(tuple(r.meld for r in readings))


def _advance(
    state: RoundState, racks: tuple[Rack, ...], pool: tuple[Tile, ...], passes: int
) -> RoundState:
    """The state with these racks, pool and passes, the turn passed to the next player (one
    new state built, as every turn of every game builds one)."""
    return RoundState(
        state.rules,
        racks,
        state.table,
        pool,
        state.opened,
        (state.current + 1) % len(state.racks),
        passes,
        state.turn + 1,
        state.end,
    )


def _end(state: RoundState, reason: EndReason, winner: int) -> RoundState:
    scores = score_round(state.rules, state.racks, reason, winner)
    return replace(state, end=RoundEnd(reason, winner, state.racks, scores))


def penalise(state: RoundState, count: int) -> RoundState:
    """The player to move draws ``count`` penalty tiles (as far as the pool reaches) and the
    turn ends; with an empty pool this counts as a pass."""
    _check_running(state)
    if not state.pool:
        return _pass(state)
    drawn = state.pool[:count]
    racks = list(state.racks)
    racks[state.current] = racks[state.current].add(drawn)
    return _advance(state, tuple(racks), state.pool[count:], 0)


def _pass(state: RoundState) -> RoundState:
    nxt = _advance(state, state.racks, state.pool, state.passes + 1)
    if nxt.passes >= state.players:
        winner = exhausted_winner(nxt.racks, nxt.rules, nxt.current)
        return _end(nxt, "exhausted", winner)
    return nxt


def apply(state: RoundState, action: Action) -> RoundState:
    """The state after ``action`` by the player to move. Raises :class:`IllegalPlayError` (and
    changes nothing) if the action is illegal, :class:`UsageError` once the round is over. A
    :class:`Timeout` draws the timeout penalty."""
    _check_running(state)
    if isinstance(action, Play):
        readings = _check(state, action)
        current = state.current
        racks = list(state.racks)
        racks[current] = racks[current].remove(action.tiles)
        opened = list(state.opened)
        opened[current] = True
        table = _canonical_table(action, readings)
        if not racks[current].tiles:
            nxt = RoundState(
                state.rules, tuple(racks), table, state.pool, tuple(opened), current, 0,
                state.turn + 1, state.end,
            )  # fmt: skip
            return _end(nxt, "rummikub", current)
        return RoundState(
            state.rules, tuple(racks), table, state.pool, tuple(opened),
            (current + 1) % len(racks), 0, state.turn + 1, state.end,
        )  # fmt: skip
    refusal = _refusal(state, action)
    if refusal is not None:
        raise refusal
    if isinstance(action, Draw):
        return penalise(state, 1)
    if isinstance(action, Pass):
        return _pass(state)
    return penalise(state, state.rules.timeout_penalty)  # a Timeout: _refusal knows no other


def check_action(state: RoundState, action: Action) -> IllegalPlayError | None:
    """The reason ``action`` is illegal for the player to move, or ``None`` if it is legal
    (raises :class:`UsageError` once the round is over), without carrying it out."""
    if isinstance(action, Play):
        return check_play(state, action)
    _check_running(state)
    return _refusal(state, action)


def _refusal(state: RoundState, action: Action) -> IllegalPlayError | None:
    """Why an action other than a play is illegal in a running round (``None``: legal)."""
    if isinstance(action, Draw):
        if not state.pool:
            return IllegalPlayError(
                "the pool is empty: pass instead of drawing", code=Code.POOL_EMPTY
            )
        return None
    if isinstance(action, Pass):
        if state.pool:
            return IllegalPlayError(
                "you can only pass when the pool is empty: draw instead", code=Code.POOL_NOT_EMPTY
            )
        return None
    if isinstance(action, Timeout):
        return None
    return IllegalPlayError(
        f"unknown action {action!r}",
        code=Code.UNKNOWN_ACTION,
        params={"action": type(action).__name__},
    )
