"""The assistant at a real table: for a table and a rack entered by hand, the best plays laid
out as new tables, each tile marked by where it comes from.

Four views of "best", each a complete new table:

=================  ================================================================
``most-tiles``     the most rack tiles placed (ties: most value, then fewest changes)
``most-value``     the most value placed (ties: most tiles, then fewest changes)
``fewest-changes`` the most rack tiles, touching as few sets of the table as possible
``keep-joker``     the most tiles placed while every rack joker stays on the rack
=================  ================================================================

Views that come to the same play and table are one :class:`Alternative` naming all of them.
Every tile of a new table is marked ``rack`` (it comes from the rack), ``moved`` (it was on the
table and changed set) or ``kept`` (it stays in its set, which may have grown or shrunk).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..core.errors import Code, IllegalPlayError, NotationError
from ..core.melds import Meld, read_meld
from ..core.rules import Rules, preset
from ..core.table import Rack, Table
from ..core.tiles import Tile, parse_tile
from .api import solve
from .solution import Solution

__all__ = [
    "VIEWS",
    "Alternative",
    "Mark",
    "MarkedTile",
    "View",
    "alternatives",
    "check_tiles",
    "marked_table",
    "read_position",
]

_STANDARD = preset("standard")
View = Literal["most-tiles", "most-value", "fewest-changes", "keep-joker"]
#: every view, in the order the assistant shows them
VIEWS: tuple[View, ...] = ("most-tiles", "most-value", "fewest-changes", "keep-joker")
Mark = Literal["rack", "moved", "kept"]
_OBJECTIVE: dict[View, str] = {
    "most-tiles": "tiles",
    "most-value": "value",
    "fewest-changes": "min-change",
    "keep-joker": "tiles",
}


@dataclass(frozen=True, slots=True)
class MarkedTile:
    """A tile of a new table: the tile, its notation (a joker with what it stands for,
    ``J=R6``) and where it comes from."""

    tile: Tile
    label: str
    mark: Mark

    def to_json(self) -> dict[str, str]:
        return {"tile": self.label, "mark": self.mark}


@dataclass(frozen=True, slots=True)
class Alternative:
    """One play: the ``views`` it is best under, the rack tiles it places, their value, how many
    sets of the old table it changes, and the new table with every tile marked."""

    views: tuple[View, ...]
    play: tuple[Tile, ...]
    value: int
    changes: int
    table: tuple[tuple[MarkedTile, ...], ...]
    optimal: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "views": list(self.views),
            "play": [str(t) for t in self.play],
            "tiles": len(self.play),
            "value": self.value,
            "changes": self.changes,
            "table": [[t.to_json() for t in meld] for meld in self.table],
            "optimal": self.optimal,
        }


def marked_table(
    old: Table, new: Table, placed: Sequence[Tile], rules: Rules = _STANDARD
) -> tuple[tuple[MarkedTile, ...], ...]:
    """``new``'s melds (each in its canonical order) with every tile marked. A meld found
    unchanged in ``old`` is all ``kept``. A changed meld is matched with the old meld it shares
    most tiles with (each old meld matched once): those shared tiles stayed in their set and are
    ``kept`` too; of the rest, a tile is ``rack`` while ``placed`` still holds one like it, else
    ``moved``. Changed melds come first, so the eye finds them."""
    readings = [read_meld(m, rules) for m in new.melds]
    is_kept = _found(new.melds, old.melds)
    still = _found(old.melds, new.melds)
    gone = [Counter(m.tiles) for m, f in zip(old.melds, still, strict=True) if not f]
    # each changed meld's base: the old meld it shares most tiles with (largest overlaps first)
    overlaps = sorted(
        (-sum((g & Counter(r.tiles)).values()), i, j)
        for i, r in enumerate(readings)
        if not is_kept[i]
        for j, g in enumerate(gone)
    )
    shared: dict[int, Counter[Tile]] = {}
    used: set[int] = set()
    for negative, i, j in overlaps:
        if negative < 0 and i not in shared and j not in used:
            shared[i] = gone[j] & Counter(readings[i].tiles)
            used.add(j)
    rack_left = Counter(placed)
    out_changed: list[tuple[MarkedTile, ...]] = []
    out_kept: list[tuple[MarkedTile, ...]] = []
    for i, reading in enumerate(readings):
        base = shared.get(i, Counter[Tile]())
        marked = []
        for tile, label in zip(reading.tiles, reading.labels(), strict=True):
            mark: Mark
            if is_kept[i] or base[tile] > 0:
                base[tile] -= 1
                mark = "kept"
            elif rack_left[tile] > 0:
                rack_left[tile] -= 1
                mark = "rack"
            else:
                mark = "moved"
            marked.append(MarkedTile(tile, label, mark))
        (out_kept if is_kept[i] else out_changed).append(tuple(marked))
    return tuple(out_changed + out_kept)


def check_tiles(text: str, rules: Rules) -> None:
    """Refuse the first word of ``text`` (a table or a rack as people type them) that is not a
    tile of ``rules`` — ``R14``, ``P5`` in a 4-colour game, ``Q5``, ``K0`` — with the one
    wording of a bad tile (:meth:`Rules.not_a_tile`, code ``not-a-tile``), which names the
    colours of these rules. Jokers (``J``, ``J=R6``) are left to the notation."""
    for token in text.upper().replace("\n", " ").replace("|", " ").split():
        if token.startswith("J"):
            continue
        try:
            tile: Tile | None = parse_tile(token)
        except NotationError:
            tile = None
        if tile is None or not rules.is_valid_tile(tile):
            message, params = rules.not_a_tile(token)
            raise IllegalPlayError(message, code=Code.NOT_A_TILE, params=params)


def read_position(
    table: str, rack: str, rules: Rules | None = None
) -> tuple[Table, tuple[Tile, ...]]:
    """A table and a rack as people type them: any case, sets split by ``|`` or by new lines,
    stray ``|`` at the ends ignored. Raises :class:`~rummikub.core.NotationError` naming the
    token that is not valid notation; with ``rules``, first the error of :func:`check_tiles`
    for a word that is not a tile of these rules."""
    if rules is not None:
        check_tiles(table, rules)
        check_tiles(rack, rules)
    sets = table.upper().replace("\n", "|").strip().strip("|")
    return Table.parse(sets), Rack.parse(rack.upper()).tiles


def _found(melds: Sequence[Meld], among: Sequence[Meld]) -> list[bool]:
    """For each of ``melds``, whether it is found unchanged in ``among`` (each found once)."""
    pool = Counter(m.key() for m in among)
    out = []
    for m in melds:
        out.append(pool[m.key()] > 0)
        pool[m.key()] -= 1
    return out


def alternatives(
    table: Table,
    rack: Sequence[Tile],
    *,
    opened: bool = True,
    rules: Rules = _STANDARD,
    time_limit: float | None = 5.0,
) -> list[Alternative]:
    """The best plays for ``rack`` on ``table`` under each view (see the module), the same play
    named once. Empty when nothing can be placed (an unopened player: no opening reaches the
    rules' opening value). ``time_limit``: seconds for each view's search (a view stopped by it is
    marked ``optimal=False``). Raises :class:`~rummikub.core.RulesError` for a table or rack that
    is not a position of these rules (a tile used too often, an invalid set)."""
    rack = tuple(rack)
    found: list[tuple[list[View], Solution]] = []
    for view in VIEWS:
        if view == "keep-joker":
            jokerless = tuple(t for t in rack if not t.is_joker)
            if len(jokerless) == len(rack):
                continue
            sol = solve(table, jokerless, opened=opened, rules=rules, time_limit=time_limit)
        else:
            objective = _OBJECTIVE[view]
            sol = solve(
                table, rack, opened=opened, rules=rules, objective=objective, time_limit=time_limit
            )
        if not sol.play:
            continue
        same = next((f for f in found if _same(f[1], sol)), None)
        if same is not None:
            same[0].append(view)
        else:
            found.append(([view], sol))
    return [
        Alternative(
            views=tuple(views),
            play=sol.play,
            value=sol.value,
            changes=sol.changes,
            table=marked_table(table, sol.table, sol.play, rules),
            optimal=sol.optimal,
        )
        for views, sol in found
    ]


def _same(a: Solution, b: Solution) -> bool:
    """The same rack tiles placed and the same new table (melds compared as multisets)."""

    def melds(t: Table) -> Counter[tuple[Tile, ...]]:
        return Counter(m.key() for m in t.melds)

    return Counter(a.play) == Counter(b.play) and melds(a.table) == melds(b.table)
