"""The turn editor: the working table and rack of one turn, independent of any UI.

A player rearranges the table the way people do at a real table — take tiles from the rack
or from melds, drop them into a new meld or an existing one, split and join melds — and only
the end state is judged. :class:`TurnEditor` holds that working state as *pieces* (a tile plus
where it came from), tells which melds are invalid and why (:meth:`TurnEditor.check`), and
builds the :class:`~rummikub.core.Play` to submit. It never lets a tile that was on the table
go back to the rack (rule 2), and :meth:`TurnEditor.reset` puts everything back.

Valid melds are kept in their canonical order (runs ascending, groups by colour), so a joker
shows the tile it stands for in place. Errors are :class:`EditorError` with a message key and
parameters for the message catalogue.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from rummikub.core import (
    Code,
    IllegalPlayError,
    Meld,
    Play,
    Rack,
    Reading,
    Role,
    Rules,
    Table,
    Tile,
    read_meld,
)
from rummikub.core.tiles import sort_key

__all__ = [
    "EditorError",
    "IntoMeld",
    "MeldCheck",
    "NewMeld",
    "Piece",
    "Problem",
    "Target",
    "ToRack",
    "TurnEditor",
    "meld_problem",
]

Origin = Literal["rack", "table"]
RackView = Literal["run", "group"]


@dataclass(frozen=True, slots=True)
class Piece:
    """One physical tile during a turn: a stable id, the tile, and where it started."""

    id: int
    tile: Tile
    origin: Origin
    role: Role | None = None  # a table joker's written role, kept while it stays put


@dataclass(frozen=True, slots=True)
class Problem:
    """Why something is not allowed: a message-catalogue key and its parameters."""

    key: str
    params: dict[str, str | int] = field(default_factory=dict)


class EditorError(ValueError):
    """An edit that is not allowed; nothing was changed."""

    def __init__(self, key: str, **params: str | int) -> None:
        self.problem = Problem(key, dict(params))
        super().__init__(f"{key} {params}" if params else key)


@dataclass(frozen=True, slots=True)
class NewMeld:
    """Drop the tiles into a new meld (at the end of the table, or at ``index``)."""

    index: int | None = None


@dataclass(frozen=True, slots=True)
class IntoMeld:
    """Drop the tiles into meld ``meld``, before position ``at`` (``None``: at the end)."""

    meld: int
    at: int | None = None


@dataclass(frozen=True, slots=True)
class ToRack:
    """Take rack tiles back to the rack (at ``at``, or at the end)."""

    at: int | None = None


Target = NewMeld | IntoMeld | ToRack


@dataclass(frozen=True, slots=True)
class MeldCheck:
    """The judgement of one working meld."""

    valid: bool
    reading: Reading | None
    problem: Problem | None
    new: bool  # made only of rack tiles (counts toward the opening)
    changed: bool  # not one of the melds that lay on the table at the start of the turn

    @property
    def value(self) -> int:
        return self.reading.value if self.reading is not None else 0


def meld_problem(tiles: Sequence[Tile], rules: Rules) -> Problem | None:
    """``None`` if the tiles form a valid meld (in some joker reading), else why not: the
    message of the engine's reason (``error.meld-*``) with its params."""
    try:
        read_meld(Meld(tuple(tiles)), rules)
        return None
    except IllegalPlayError as exc:
        why = exc.params.get("why", Code.MELD_INVALID)
        params = {k: v for k, v in exc.params.items() if k not in ("why", "meld")}
        return Problem(f"error.{why}", params)


class TurnEditor:
    """The working state of one player's turn: melds of pieces and the rack's pieces.

    ``table`` and ``rack`` are the state at the start of the turn; ``opened`` says whether
    the player has made the opening meld. ``rack_order`` (optional) is the player's manual
    rack order to keep; tiles not in it follow in run-view order.
    """

    def __init__(
        self,
        table: Table,
        rack: Rack | Sequence[Tile],
        rules: Rules,
        *,
        opened: bool,
        rack_order: Sequence[Tile] | None = None,
    ) -> None:
        self.rules = rules
        self.opened = opened
        self.start_table = table
        next_id = 0
        start_melds: list[list[Piece]] = []
        for meld in table.melds:
            row = []
            for i, tile in enumerate(meld.tiles):
                row.append(Piece(next_id, tile, "table", meld.role(i)))
                next_id += 1
            start_melds.append(row)
        tiles = list(rack.tiles if isinstance(rack, Rack) else rack)
        ordered = _apply_order(tiles, rack_order)
        start_rack = []
        for tile in ordered:
            start_rack.append(Piece(next_id, tile, "rack"))
            next_id += 1
        self._start = (start_melds, start_rack)
        self._start_groups = [frozenset(p.id for p in m) for m in start_melds]
        self.melds: list[list[Piece]] = [list(m) for m in start_melds]
        self.rack: list[Piece] = list(start_rack)
        self._undo: list[tuple[list[list[Piece]], list[Piece]]] = []

    # -- looking -------------------------------------------------------------------------
    @property
    def pieces(self) -> dict[int, Piece]:
        out = {p.id: p for m in self.melds for p in m}
        out.update((p.id, p) for p in self.rack)
        return out

    def locate(self, piece_id: int) -> tuple[int, int] | int:
        """``(meld, position)`` for a table piece, or the rack index for a rack piece."""
        for mi, meld in enumerate(self.melds):
            for pi, p in enumerate(meld):
                if p.id == piece_id:
                    return (mi, pi)
        for ri, p in enumerate(self.rack):
            if p.id == piece_id:
                return ri
        raise EditorError("edit.no_such_tile", id=piece_id)

    @property
    def rack_tiles(self) -> tuple[Tile, ...]:
        return tuple(p.tile for p in self.rack)

    @property
    def placed(self) -> tuple[Tile, ...]:
        """The rack tiles now on the table (what the play places), sorted."""
        return tuple(
            sorted((p.tile for m in self.melds for p in m if p.origin == "rack"), key=sort_key)
        )

    @property
    def changed(self) -> bool:
        """Whether anything on the table differs from the start of the turn."""
        return bool(self.placed) or [frozenset(p.id for p in m) for m in self.melds] != [
            frozenset(p.id for p in m) for m in self._start[0]
        ]

    def meld_tiles(self, index: int) -> tuple[Tile, ...]:
        return tuple(p.tile for p in self.melds[index])

    def _written(self, meld: Sequence[Piece]) -> Meld:
        tiles = tuple(p.tile for p in meld)
        roles = tuple(p.role for p in meld)
        if any(r is not None for r in roles):
            with_roles = Meld(tiles, roles)
            try:
                read_meld(with_roles, self.rules)
                return with_roles
            except IllegalPlayError:
                pass
        return Meld(tiles)

    def check(self, index: int) -> MeldCheck:
        """Is meld ``index`` valid; if not, why; is it new or changed."""
        meld = self.melds[index]
        ids = frozenset(p.id for p in meld)
        new = all(p.origin == "rack" for p in meld)
        changed = ids not in self._start_groups
        try:
            reading = read_meld(self._written(meld), self.rules)
        except IllegalPlayError:
            problem = meld_problem([p.tile for p in meld], self.rules) or Problem(
                f"error.{Code.MELD_INVALID}"
            )
            return MeldCheck(False, None, problem, new, changed)
        return MeldCheck(True, reading, None, new, changed)

    def checks(self) -> list[MeldCheck]:
        return [self.check(i) for i in range(len(self.melds))]

    @property
    def all_valid(self) -> bool:
        return all(c.valid for c in self.checks())

    @property
    def new_value(self) -> int:
        """The value of the valid melds made only of rack tiles (the opening count)."""
        return sum(c.value for c in self.checks() if c.new and c.valid)

    @property
    def touched_table(self) -> bool:
        """Whether a meld that lay on the table at the start was changed."""
        now = {frozenset(p.id for p in m) for m in self.melds}
        return any(g not in now for g in self._start_groups)

    def problems(self) -> list[Problem]:
        """What stops the current working state from being a legal play (empty: submit it).

        Mirrors the rules engine's checks so the player sees them before submitting; the
        engine's verdict on submission is still final.
        """
        out: list[Problem] = []
        if not self.placed:
            out.append(Problem("play.no_rack_tile"))
        for i, c in enumerate(self.checks()):
            if not c.valid:
                assert c.problem is not None
                out.append(Problem("play.invalid_meld", {"meld": i + 1}))
        if not self.opened and self.placed:
            if self.touched_table and not self.rules.open_then_extend:
                out.append(Problem("play.opening_touches"))
            if self.new_value < self.rules.opening_value and not self.rules.open_then_extend:
                out.append(
                    Problem(
                        "play.opening_value",
                        {"value": self.new_value, "needed": self.rules.opening_value},
                    )
                )
        return out

    def play(self) -> Play | None:
        """The play the working state makes (``None`` if no rack tile is on the table)."""
        if not self.placed:
            return None
        return Play(self.placed, Table(tuple(self._written(m) for m in self.melds)))

    # -- editing -------------------------------------------------------------------------
    def _snapshot(self) -> None:
        self._undo.append(([list(m) for m in self.melds], list(self.rack)))

    @property
    def depth(self) -> int:
        """How many edits :meth:`undo` can take back (a mark to tell later whether an edit
        was undone)."""
        return len(self._undo)

    def undo(self) -> bool:
        """Undo the last edit; ``False`` if there is none."""
        if not self._undo:
            return False
        self.melds, self.rack = self._undo.pop()
        return True

    def reset(self) -> None:
        """Put everything back as it was at the start of the turn: the tiles placed go back
        where they were on the rack (after the tile that was before them), and the order the
        player gave the rest of the rack is kept."""
        self._snapshot()
        start_rack = self._start[1]
        rack = list(self.rack)
        on_rack = {p.id for p in rack}
        for i, piece in enumerate(start_rack):
            if piece.id in on_rack:
                continue
            at = 0
            for before in reversed(start_rack[:i]):
                if before.id in on_rack:
                    at = next(k for k, p in enumerate(rack) if p.id == before.id) + 1
                    break
            rack.insert(at, piece)
            on_rack.add(piece.id)
        self.melds = [list(m) for m in self._start[0]]
        self.rack = rack

    def move(self, piece_ids: Iterable[int], target: Target) -> None:
        """Move pieces (from the rack and/or the table, in the given order) to ``target``.

        Raises :class:`EditorError` (changing nothing) if a piece is unknown, listed twice, a
        table tile would go to the rack, or the target meld does not exist.
        """
        ids = list(piece_ids)
        if not ids:
            raise EditorError("edit.nothing_selected")
        if len(set(ids)) != len(ids):
            raise EditorError("edit.duplicate")
        pieces = self.pieces
        for pid in ids:
            if pid not in pieces:
                raise EditorError("edit.no_such_tile", id=pid)
        if isinstance(target, ToRack):
            for pid in ids:
                if pieces[pid].origin == "table":
                    raise EditorError("edit.table_to_rack", tile=str(pieces[pid].tile))
        if isinstance(target, IntoMeld) and not 0 <= target.meld < len(self.melds):
            raise EditorError("edit.no_such_meld", meld=target.meld + 1)
        self._snapshot()
        moving = [_unroled(pieces[pid]) for pid in ids]
        idset = set(ids)
        anchor: Piece | None = None
        if isinstance(target, IntoMeld) and target.at is not None:
            anchor = next(
                (p for p in self.melds[target.meld][target.at :] if p.id not in idset), None
            )
        elif isinstance(target, ToRack) and target.at is not None:
            anchor = next((p for p in self.rack[target.at :] if p.id not in idset), None)
        # Remove the moving pieces; emptied melds stay as placeholders until _tidy, so meld
        # indices keep their meaning.
        self.melds = [[p for p in m if p.id not in idset] for m in self.melds]
        self.rack = [p for p in self.rack if p.id not in idset]
        if isinstance(target, IntoMeld):
            row = self.melds[target.meld]
            pos = len(row) if anchor is None else row.index(anchor)
            row[pos:pos] = moving
        elif isinstance(target, ToRack):
            pos = len(self.rack) if anchor is None else self.rack.index(anchor)
            self.rack[pos:pos] = moving
        elif target.index is None:
            self.melds.append(moving)
        else:
            self.melds.insert(max(0, min(target.index, len(self.melds))), moving)
        self._tidy()

    def split(self, meld: int, at: int) -> None:
        """Split meld ``meld`` before position ``at`` into two melds side by side."""
        if not 0 <= meld < len(self.melds):
            raise EditorError("edit.no_such_meld", meld=meld + 1)
        row = self.melds[meld]
        if not 0 < at < len(row):
            raise EditorError("edit.bad_split", meld=meld + 1)
        self._snapshot()
        self.melds[meld : meld + 1] = [list(row[:at]), list(row[at:])]
        self._tidy()

    def join(self, first: int, second: int) -> None:
        """Put meld ``second``'s tiles at the end of meld ``first``; ``second`` disappears."""
        for m in (first, second):
            if not 0 <= m < len(self.melds):
                raise EditorError("edit.no_such_meld", meld=m + 1)
        if first == second:
            raise EditorError("edit.join_self")
        self._snapshot()
        merged = self.melds[first] + [_unroled(p) for p in self.melds[second]]
        self.melds[first] = merged
        del self.melds[second]
        self._tidy()

    def shift(self, piece_id: int, delta: int) -> bool:
        """Move a piece ``delta`` places within its meld or the rack (manual ordering).

        In a valid run the meaningful positions of a joker are the ends: a shift that would
        only be undone by the canonical order keeps going until the order holds (or does
        nothing). Returns whether anything moved.
        """
        where = self.locate(piece_id)
        if isinstance(where, int):
            j = max(0, min(len(self.rack) - 1, where + delta))
            if j == where:
                return False
            self._snapshot()
            p = self.rack.pop(where)
            self.rack.insert(j, p)
            return True
        mi, pi = where
        row = self.melds[mi]
        if not self._valid(row):
            j = max(0, min(len(row) - 1, pi + delta))
            if j == pi:
                return False
            self._snapshot()
            p = row.pop(pi)
            row.insert(j, p)
            return True
        step = 1 if delta > 0 else -1
        original = [p.id for p in row]
        candidate = list(row)
        pos = pi
        while 0 <= pos + step < len(candidate):
            candidate[pos], candidate[pos + step] = candidate[pos + step], candidate[pos]
            pos += step
            tidy = self._canonical(candidate)
            if [p.id for p in tidy] != original:
                self._snapshot()
                self.melds[mi] = tidy
                return True
        return False

    def sort_rack(self, view: RackView = "run") -> None:
        """Sort the rack: ``run`` = colour then number (789), ``group`` = number then colour
        (777); jokers last."""
        self._snapshot()
        if view == "run":
            self.rack.sort(key=lambda p: sort_key(p.tile))
        else:
            self.rack.sort(key=lambda p: (p.tile.is_joker, p.tile.number, p.tile.colour))

    def load(self, table: Table) -> None:
        """Set the working table to ``table`` (e.g. a hint): every tile of the start table
        must appear in it, and the rest must come from the rack. Raises
        :class:`EditorError` (changing nothing) otherwise."""
        start_melds = [list(m) for m in self._start[0]]
        unused = list(range(len(start_melds)))
        rows: list[list[Piece] | None] = []
        # Melds of the start table that are still there keep their pieces (and joker roles).
        for meld in table.melds:
            key = Counter(meld.tiles)
            match = next(
                (k for k in unused if Counter(p.tile for p in start_melds[k]) == key), None
            )
            if match is None:
                rows.append(None)
            else:
                unused.remove(match)
                rows.append(start_melds[match])
        available_table: dict[Tile, list[Piece]] = {}
        for k in unused:
            for p in start_melds[k]:
                available_table.setdefault(p.tile, []).append(p)
        rack_pieces = [p for m in self.melds for p in m if p.origin == "rack"] + self.rack
        available_rack: dict[Tile, list[Piece]] = {}
        for p in rack_pieces:
            available_rack.setdefault(p.tile, []).append(p)
        for i, meld in enumerate(table.melds):
            if rows[i] is not None:
                continue
            row = []
            for tile in meld.tiles:
                pool = available_table.get(tile) or available_rack.get(tile)
                if not pool:
                    raise EditorError("edit.hint_mismatch", tile=str(tile))
                row.append(_unroled(pool.pop(0)))
            rows[i] = row
        left_on_table = [p for ps in available_table.values() for p in ps]
        if left_on_table:
            raise EditorError("edit.hint_mismatch", tile=str(left_on_table[0].tile))
        self._snapshot()
        used = {p.id for r in rows if r is not None for p in r}
        self.rack = [p for p in rack_pieces if p.id not in used]
        self.rack = _order_pieces(self.rack, [p.tile for p in self.rack])
        self.melds = [r for r in rows if r is not None]
        self._tidy()

    # -- housekeeping --------------------------------------------------------------------
    def _valid(self, row: Sequence[Piece]) -> bool:
        try:
            read_meld(self._written(row), self.rules)
        except IllegalPlayError:
            return False
        return True

    def _canonical(self, row: list[Piece]) -> list[Piece]:
        """``row`` in its reading's canonical order if it is a valid meld, else as is."""
        try:
            reading = read_meld(self._written(row), self.rules)
        except IllegalPlayError:
            return row
        pool: dict[Tile, list[Piece]] = {}
        for p in row:
            pool.setdefault(p.tile, []).append(p)
        return [pool[t].pop(0) for t in reading.tiles]

    def _tidy(self) -> None:
        self.melds = [self._canonical(m) for m in self.melds if m]


def _unroled(p: Piece) -> Piece:
    return p if p.role is None else replace(p, role=None)


def _apply_order(tiles: list[Tile], order: Sequence[Tile] | None) -> list[Tile]:
    """``tiles`` in the given order as far as it goes, the rest in run-view order."""
    rest = sorted(tiles, key=sort_key)
    if not order:
        return rest
    out = []
    for t in order:
        if t in rest:
            rest.remove(t)
            out.append(t)
    return out + rest


def _order_pieces(pieces: Sequence[Piece], order: Sequence[Tile]) -> list[Piece]:
    tiles = _apply_order([p.tile for p in pieces], order)
    pool: dict[Tile, list[Piece]] = {}
    for p in pieces:
        pool.setdefault(p.tile, []).append(p)
    return [pool[t].pop(0) for t in tiles]
