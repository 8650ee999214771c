"""The table and the rack: tiles laid out in flowing lines, clickable, with a keyboard cursor.

Both views are plain renderers of the data the screen gives them (:class:`MeldRow` lists,
piece lists, the selection); what a click or key means is decided by the screen, which gets
:class:`TileClicked`, :class:`MeldClicked`, :class:`DropClicked` messages.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Offset, Region, Size
from textual.message import Message
from textual.widget import Widget

from rummikub.core import IllegalPlayError, Reading, Role, Rules, Table, Tile, read_meld

from ..editor import TurnEditor
from ..tiles import TileLook, joker_roles, tile_text

__all__ = [
    "DropClicked",
    "Hit",
    "MeldClicked",
    "MeldRow",
    "RackView",
    "TableView",
    "TileClicked",
    "rows_from_editor",
    "rows_from_table",
]

Translate = Callable[..., str]


@dataclass(frozen=True, slots=True)
class MeldRow:
    """One meld as shown: its pieces (id, tile), the role of each position, its state."""

    pieces: tuple[tuple[int, Tile], ...]
    roles: tuple[Role | None, ...]
    valid: bool
    changed: bool = False


def rows_from_editor(editor: TurnEditor) -> list[MeldRow]:
    out = []
    for i, meld in enumerate(editor.melds):
        check = editor.check(i)
        out.append(
            MeldRow(
                tuple((p.id, p.tile) for p in meld),
                tuple(joker_roles(check.reading, len(meld))),
                check.valid,
                check.changed,
            )
        )
    return out


def rows_from_table(table: Table, rules: Rules, *, changed: Sequence[bool] = ()) -> list[MeldRow]:
    """Rows for a table outside a turn (ids are running numbers)."""
    out = []
    next_id = 0
    for i, meld in enumerate(table.melds):
        reading: Reading | None
        try:
            reading = read_meld(meld, rules)
            tiles = reading.tiles
        except IllegalPlayError:
            reading, tiles = None, meld.tiles
        pieces = tuple((next_id + k, t) for k, t in enumerate(tiles))
        next_id += len(tiles)
        out.append(
            MeldRow(
                pieces,
                tuple(joker_roles(reading, len(tiles))),
                reading is not None,
                changed[i] if i < len(changed) else False,
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class Hit:
    """What a cell range of the view is: a tile, a meld label, or a drop target."""

    kind: str  # "tile" | "meld" | "drop" | "new" | "rack"
    piece: int | None = None
    meld: int | None = None
    index: int | None = None  # position within the meld / rack


class TileClicked(Message):
    def __init__(self, view: Widget, piece: int, button: int) -> None:
        self.view = view
        self.piece = piece
        self.button = button
        super().__init__()


class MeldClicked(Message):
    def __init__(self, meld: int) -> None:
        self.meld = meld
        super().__init__()


class DropClicked(Message):
    """A drop target was clicked: into ``meld`` (or a new meld when None, or the rack)."""

    def __init__(self, kind: str, meld: int | None = None) -> None:
        self.kind = kind
        self.meld = meld
        super().__init__()


Segment = tuple[Text, Hit | None]
Block = list[Segment]


class FlowView(Widget, can_focus=True):
    """Blocks of segments laid out left to right, wrapping between blocks."""

    GAP = 3  # spaces between blocks

    DEFAULT_CSS = """
    FlowView { height: auto; }
    """

    BINDINGS = [  # noqa: RUF012
        Binding("left", "cursor(-1)", show=False),
        Binding("right", "cursor(1)", show=False),
        Binding("home", "cursor_to(0)", show=False),
        Binding("end", "cursor_to(-1)", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.selected: frozenset[int] = frozenset()
        self.fresh: frozenset[int] = frozenset()
        self.order: list[int] = []  # piece ids in cursor order
        self.cursor = 0
        self._hits: list[tuple[int, int, int, Hit]] = []  # (y, x0, x1, hit)
        self._lines: list[Text] = []
        self._width = -1

    # -- content -------------------------------------------------------------------------
    def blocks(self) -> list[Block]:  # pragma: no cover - overridden
        return []

    def _layout(self, width: int) -> None:
        width = max(width, 20)
        lines: list[Text] = [Text()]
        hits: list[tuple[int, int, int, Hit]] = []
        gap = self.GAP
        for block in self.blocks():
            block_len = sum(len(t) for t, _ in block)
            line = lines[-1]
            if len(line) and len(line) + gap + block_len > width:
                lines.append(Text())
                line = lines[-1]
            elif len(line):
                line.append(" " * gap)
            for text, hit in block:
                x0 = len(line)
                line.append_text(text)
                if hit is not None:
                    hits.append((len(lines) - 1, x0, len(line), hit))
        self._lines, self._hits, self._width = lines, hits, width

    def refresh_board(self) -> None:
        self._width = -1
        self.refresh(layout=True)
        if self.has_focus:
            self.call_after_refresh(self.scroll_to_cursor)

    def cursor_line(self) -> int | None:
        """The line the cursor tile is drawn on (None without a cursor)."""
        piece = self.cursor_piece
        if piece is None:
            return None
        if self._width != self.size.width:
            self._layout(self.size.width)
        for y, _x0, _x1, hit in self._hits:
            if hit.kind == "tile" and hit.piece == piece:
                return y
        return None

    def scroll_to_cursor(self) -> None:
        """Scroll the container this view is in so the cursor tile is visible."""
        line = self.cursor_line()
        parent = self.parent
        if line is None or not isinstance(parent, Widget) or not self.is_mounted:
            return
        top = self.virtual_region.y + line
        parent.scroll_to_region(Region(0, top, 1, 1), animate=False, immediate=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        self._layout(width)
        return len(self._lines)

    def render(self) -> Text:
        width = self.size.width
        if width != self._width:
            self._layout(width)
        return Text("\n").join(self._lines)

    def look(self, piece: int, *, invalid: bool = False) -> TileLook:
        cursor = self.has_focus and bool(self.order) and self.order[self.cursor] == piece
        return TileLook(piece in self.selected, cursor, piece in self.fresh, invalid)

    # -- hit testing ---------------------------------------------------------------------
    def hit_at(self, offset: Offset) -> Hit | None:
        if self._width != self.size.width:
            self._layout(self.size.width)
        for y, x0, x1, hit in self._hits:
            if y == offset.y and x0 <= offset.x < x1:
                return hit
        return None

    def offset_of(self, predicate: Callable[[Hit], bool]) -> Offset:
        """Where the first hit satisfying ``predicate`` is drawn (for tests and tooling)."""
        if self._width != self.size.width:
            self._layout(self.size.width)
        for y, x0, _x1, hit in self._hits:
            if predicate(hit):
                return Offset(x0 + 1, y)
        raise LookupError("nothing drawn there")

    def on_click(self, event: events.Click) -> None:
        hit = self.hit_at(event.offset)
        if hit is None:
            return
        event.stop()
        if hit.kind == "tile" and hit.piece is not None:
            if hit.piece in self.order:
                self.cursor = self.order.index(hit.piece)
            self.post_message(TileClicked(self, hit.piece, event.button))
        elif hit.kind == "meld" and hit.meld is not None:
            self.post_message(MeldClicked(hit.meld))
        else:
            self.post_message(DropClicked(hit.kind, hit.meld))

    # -- cursor --------------------------------------------------------------------------
    @property
    def cursor_piece(self) -> int | None:
        return self.order[self.cursor] if self.order else None

    def set_cursor_piece(self, piece: int) -> None:
        if piece in self.order:
            self.cursor = self.order.index(piece)
            self.refresh_board()

    def action_cursor(self, delta: int) -> None:
        if self.order:
            self.cursor = max(0, min(len(self.order) - 1, self.cursor + delta))
            self.refresh_board()

    def action_cursor_to(self, index: int) -> None:
        if self.order:
            self.cursor = index % len(self.order)
            self.refresh_board()

    def _clamp(self) -> None:
        self.cursor = max(0, min(self.cursor, len(self.order) - 1)) if self.order else 0

    def on_focus(self) -> None:
        self.refresh_board()

    def on_blur(self) -> None:
        self.refresh_board()


class TableView(FlowView):
    """The melds on the table: ``n│tiles│✓`` blocks; ``+`` drops into a meld, the last block
    makes a new meld. Up/down jump between melds."""

    BINDINGS = [  # noqa: RUF012
        Binding("up", "meld(-1)", show=False),
        Binding("down", "meld(1)", show=False),
    ]

    def __init__(self, t: Translate, *, editable: bool = True, id: str | None = None) -> None:
        super().__init__(id=id)
        self.t = t
        self.editable = editable
        self.rows: list[MeldRow] = []

    def show(
        self,
        rows: list[MeldRow],
        *,
        selected: frozenset[int] = frozenset(),
        fresh: frozenset[int] = frozenset(),
        editable: bool | None = None,
    ) -> None:
        keep = self.cursor_piece
        self.rows = rows
        self.selected = selected
        self.fresh = fresh
        if editable is not None:
            self.editable = editable
        self.order = [pid for r in rows for pid, _ in r.pieces]
        if keep in self.order:
            self.cursor = self.order.index(keep)
        self._clamp()
        self.refresh_board()

    def blocks(self) -> list[Block]:
        out: list[Block] = []
        bar = Style(color="#8a8a8a")
        for mi, row in enumerate(self.rows):
            label_style = Style(bold=True, color="#ffd54f" if row.changed else "#bdbdbd")
            block: Block = [
                (Text(f"{mi + 1:>2}", label_style), Hit("meld", meld=mi)),
                (Text("│", bar), None),
            ]
            for k, (pid, tile) in enumerate(row.pieces):
                if k:
                    block.append((Text(" "), None))
                look = self.look(pid, invalid=not row.valid)
                block.append((tile_text(tile, row.roles[k], look), Hit("tile", pid, mi, k)))
            block.append((Text("│", bar), None))
            if row.valid:
                block.append((Text("✓", Style(color="#66bb6a", bold=True)), None))
            else:
                block.append((Text("✗", Style(color="#ef5350", bold=True)), None))
            if self.editable:
                block.append((Text(" +", Style(color="#4fc3f7", bold=True)), Hit("drop", meld=mi)))
            out.append(block)
        if self.editable:
            out.append(
                [
                    (
                        Text(f"[ {self.t('board.new_meld')} ]", Style(color="#4fc3f7", bold=True)),
                        Hit("new"),
                    )
                ]
            )
        elif not self.rows:
            out.append(
                [(Text(self.t("board.empty_table"), Style(italic=True, color="#9e9e9e")), None)]
            )
        return out

    @property
    def cursor_meld(self) -> tuple[int, int] | None:
        """``(meld, position)`` of the cursor."""
        pid = self.cursor_piece
        if pid is None:
            return None
        for mi, row in enumerate(self.rows):
            for k, (p, _) in enumerate(row.pieces):
                if p == pid:
                    return mi, k
        return None

    def action_meld(self, delta: int) -> None:
        where = self.cursor_meld
        if where is None:
            return
        mi = max(0, min(len(self.rows) - 1, where[0] + delta))
        self.cursor = self.order.index(self.rows[mi].pieces[0][0])
        self.refresh_board()


class RackView(FlowView):
    """The player's rack (or a note that it is hidden)."""

    GAP = 1

    def __init__(self, t: Translate, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.t = t
        self.pieces: list[tuple[int, Tile]] = []
        self.hidden_note: str | None = None
        self.droppable = False

    def show(
        self,
        pieces: list[tuple[int, Tile]],
        *,
        selected: frozenset[int] = frozenset(),
        fresh: frozenset[int] = frozenset(),
        hidden: str | None = None,
        droppable: bool = False,
    ) -> None:
        keep = self.cursor_piece
        self.pieces = pieces
        self.selected = selected
        self.fresh = fresh
        self.hidden_note = hidden
        self.droppable = droppable
        self.order = [] if hidden else [pid for pid, _ in pieces]
        if keep in self.order:
            self.cursor = self.order.index(keep)
        self._clamp()
        self.refresh_board()

    def blocks(self) -> list[Block]:
        if self.hidden_note is not None:
            return [[(Text(self.hidden_note, Style(italic=True, color="#9e9e9e")), None)]]
        out: list[Block] = []
        for k, (pid, tile) in enumerate(self.pieces):
            out.append([(tile_text(tile, None, self.look(pid)), Hit("tile", pid, index=k))])
        if self.droppable:
            out.append(
                [
                    (
                        Text(f"[ {self.t('board.to_rack')} ]", Style(color="#4fc3f7", bold=True)),
                        Hit("rack"),
                    )
                ]
            )
        if not out:
            out.append([(Text(self.t("board.empty_rack"), Style(italic=True)), None)])
        return out
