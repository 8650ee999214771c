"""Positions: what the solver takes (table, rack, opened flag, rules), checked and encoded.

:class:`Position` is the value type of FORMATS "Position (JSON)". :func:`check_position` rejects
impossible positions (unknown tiles, more copies of a tile than the set holds, invalid melds on
the table). :func:`counts_grid` turns tiles into the per-(colour, number) grids the DP uses.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import Code, IllegalPlayError, NotationError, RulesError
from ..core.melds import Meld, known_reading, read_meld
from ..core.per_rules import PerRules
from ..core.rules import PRESETS, Rules, preset
from ..core.table import Rack, Table
from ..core.tiles import JOKER, Tile, parse_tile
from .groups import max_group_size

__all__ = ["Position", "check_position", "counts_grid", "plain_value"]

_STANDARD = preset("standard")


@dataclass(frozen=True, slots=True)
class Position:
    """A position to solve: the table, the rack of the player to move, whether that player has
    opened, and the rules."""

    table: Table
    rack: Rack
    opened: bool = True
    rules: Rules = field(default=_STANDARD)

    @classmethod
    def from_json(cls, data: object) -> Position:
        """Build from a FORMATS position object; raises :class:`NotationError`,
        :class:`RulesError` or :class:`IllegalPlayError` for invalid input."""
        if not isinstance(data, Mapping):
            raise NotationError("a position must be a JSON object with table, rack and opened")
        unknown = set(data) - {"table", "rack", "opened", "rules"}
        if unknown:
            raise NotationError(f"unknown position field {sorted(unknown)[0]!r}")
        for name in ("table", "rack"):
            if name not in data:
                raise NotationError(f"position has no {name!r}")
        table = Table.from_json(data["table"])
        rack_data = data["rack"]
        if not isinstance(rack_data, list) or not all(isinstance(x, str) for x in rack_data):
            raise NotationError("rack must be a list of tile strings")
        rack = Rack(tuple(parse_tile(x, position=i) for i, x in enumerate(rack_data)))
        opened = data.get("opened", True)
        if not isinstance(opened, bool):
            raise NotationError("opened must be true or false")
        rules_data = data.get("rules", "standard")
        if rules_data is None:
            rules_data = "standard"
        if not isinstance(rules_data, (str, Mapping)):
            raise RulesError("rules must be a preset name or a rules object")
        rules = Rules.from_dict(rules_data)
        pos = cls(table, rack, opened, rules)
        check_position(pos.table, pos.rack.tiles, pos.rules)
        return pos

    @classmethod
    def parse(
        cls, table: str, rack: str, *, opened: bool = True, rules: Rules = _STANDARD
    ) -> Position:
        """From notation: ``Position.parse("R1 R2 R3 | K5 B5 O5", "R4 J K1")``."""
        pos = cls(Table.parse(table), Rack.parse(rack), opened, rules)
        check_position(pos.table, pos.rack.tiles, pos.rules)
        return pos

    def to_json(self) -> dict[str, Any]:
        """The FORMATS position object (rules as a preset name when they equal a preset)."""
        rules: str | dict[str, Any] = self.rules.to_dict()
        if PRESETS.get(self.rules.preset) == self.rules:
            rules = self.rules.preset
        return {
            "table": self.table.to_json(),
            "rack": self.rack.to_json(),
            "opened": self.opened,
            "rules": rules,
        }


def check_position(table: Table, rack: Sequence[Tile], rules: Rules) -> list[int]:
    """Raise if the position cannot occur under ``rules``: a tile the rules do not have, more
    copies of a tile (or jokers) than the set holds, or an invalid meld on the table.
    Returns the value of every table meld (as read)."""
    values, table_counts = _table_facts(table, rules)
    colours, numbers = rules.colours, rules.numbers
    counts = table_counts.copy()
    jk = colours * numbers
    for t in rack:
        c = t.colour
        if c < 0:
            counts[jk] += 1
        elif c < colours and 1 <= t.number <= numbers:
            counts[c * numbers + t.number - 1] += 1
        else:
            text, params = rules.not_a_tile(t)
            raise IllegalPlayError(text, code=Code.NOT_A_TILE, params=params)
    if counts[jk] > rules.jokers or max(counts) > rules.copies:
        _too_many(table, rack, rules)
    return list(values)


class _LastTable:
    """The last table checked, with its meld values and tile counts: in a game the same table
    object is solved again turn after turn until someone plays (tables and rules are
    immutable, so the same two objects have the same facts)."""

    entry: tuple[Table, Rules, tuple[int, ...], list[int]] | None = None


def _table_facts(table: Table, rules: Rules) -> tuple[tuple[int, ...], list[int]]:
    """The value of every meld of ``table`` and its tile counts by flat index (colour *
    numbers + number - 1, jokers last); raises for an invalid meld."""
    last = _LastTable.entry
    if last is not None and last[0] is table and last[1] is rules:
        return last[2], last[3]
    values: list[int] = []
    colours, numbers = rules.colours, rules.numbers
    gmax = max_group_size(colours)
    counts = [0] * (colours * numbers + 1)
    jk = colours * numbers
    for i, meld in enumerate(table.melds):
        # the engine's reading, remembered by the meld object (a game's tables share their
        # melds turn after turn); ``_plain`` reads a meld not seen yet more quickly
        seen = known_reading(meld, rules)
        plain = seen.value if seen is not None else _plain(meld.tiles, colours, numbers, gmax)
        if plain is None:
            try:
                plain = read_meld(meld, rules).value
            except IllegalPlayError as exc:
                raise IllegalPlayError(
                    f"table meld {i + 1} ({meld}) is not valid: {exc}",
                    code=Code.INVALID_MELD,
                    params={**exc.params, "number": i + 1},
                    meld=i,
                ) from None
        values.append(plain)
        for t in meld.tiles:
            c = t.colour
            counts[jk if c < 0 else c * numbers + t.number - 1] += 1
    facts = (tuple(values), counts)
    _LastTable.entry = (table, rules, *facts)
    return facts


def _too_many(table: Table, rack: Sequence[Tile], rules: Rules) -> None:
    """Raise for the first tile (table first, then rack order) with more copies than the set
    holds."""
    counts: Counter[Tile] = Counter(table.tiles())
    counts.update(rack)
    for tile, k in counts.items():
        limit = rules.jokers if tile.is_joker else rules.copies
        if k > limit:
            what = "jokers" if tile.is_joker else f"copies of {tile}"
            raise IllegalPlayError(
                f"{k} {what} in the position, but the set has only {limit}",
                code=Code.TOO_MANY_COPIES,
                params={"tile": str(tile), "count": k, "limit": limit},
            )


def _plain(tiles: Sequence[Tile], colours: int, numbers: int, gmax: int) -> int | None:
    """:func:`plain_value` on integers (the rules' colours, numbers and largest group)."""
    n = len(tiles)
    if n < 3:
        return None
    first = tiles[0]
    c0, n0 = first.colour, first.number
    same_colour = same_number = True
    cbits = nbits = total = 0
    for t in tiles:
        c, x = t.colour, t.number
        if c < 0 or c >= colours or x < 1 or x > numbers:
            return None
        if c != c0:
            same_colour = False
        if x != n0:
            same_number = False
        cbits |= 1 << c
        nbits |= 1 << x
        total += x
    if same_colour:
        # consecutive and distinct: n distinct numbers spanning n values
        lo = (nbits & -nbits).bit_length()
        if nbits.bit_count() == n and nbits.bit_length() - lo == n - 1:
            return total
        return None
    if same_number and cbits.bit_count() == n <= gmax:
        return total
    return None


def plain_value(tiles: Sequence[Tile], rules: Rules) -> int | None:
    """The value of a valid meld without jokers (a run of one colour, consecutive numbers in
    any written order; or a group of one number, different colours), read without the
    engine's general reading; ``None`` for anything else (a joker, or not valid)."""
    return _plain(tiles, rules.colours, rules.numbers, max_group_size(rules.colours))


def counts_grid(tiles: Iterable[Tile], rules: Rules) -> tuple[list[list[int]], int]:
    """Per-colour lists of counts for numbers 1..N, and the number of jokers."""
    grid = [[0] * rules.numbers for _ in range(rules.colours)]
    jokers = 0
    for t in tiles:
        c = t.colour
        if c < 0:  # the joker (colour -1); read directly, this runs for every DP built
            jokers += 1
        else:
            grid[c][t.number - 1] += 1
    return grid, jokers


def meld_of(tiles: Sequence[tuple[int, int, bool]], rules: Rules) -> Meld:
    """The canonical meld for DP output tiles ``(colour, number, is_joker)``; jokers carry the
    colour of their run (or -1 in a group) and the number they stand for."""
    if not any(j for _, _, j in tiles):
        # no joker: the DP writes runs ascending and groups by colour, the canonical order
        return Meld(tuple(Tile(c, n) for c, n, _ in tiles))
    return _meld_of(tuple(tiles), rules)


#: the melds of :func:`_meld_of` per rule set
_MELDS_OF: PerRules[tuple[tuple[int, int, bool], ...], Meld] = PerRules(65536)


def _meld_of(tiles: tuple[tuple[int, int, bool], ...], rules: Rules) -> Meld:
    """:func:`meld_of` for tiles with a joker (remembered per rule set)."""
    known = _MELDS_OF.of(rules)
    meld = known.get(tiles)
    if meld is None:
        meld = _read_meld_of(tiles, rules)
        _MELDS_OF.keep(known, tiles, meld)
    return meld


def _read_meld_of(tiles: tuple[tuple[int, int, bool], ...], rules: Rules) -> Meld:
    out: list[Tile] = []
    roles: list[Tile | int | None] = []
    for colour, number, joker in tiles:
        if joker:
            out.append(JOKER)
            roles.append(number if colour < 0 else Tile(colour, number))
        else:
            out.append(Tile(colour, number))
            roles.append(None)
    return read_meld(Meld(tuple(out), tuple(roles)), rules).meld
