"""Editing a turn on the table and the rack with keys and the mouse: selecting tiles and
melds, moving them, splitting and joining melds. Shared by the game screen and the puzzle
app, which hold a :class:`~.editor.TurnEditor` (``None`` while it is not the person's turn)
and say what went wrong in their message line."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.widget import Widget

from rummikub.i18n import Translator

from .editor import EditorError, IntoMeld, NewMeld, ToRack, TurnEditor
from .widgets import DropClicked, MeldClicked, RackView, TableView, TileClicked

__all__ = ["TableEditing"]


class TableEditing:
    """A mixin for a Textual screen or app (it needs ``focused``, ``app`` and ``t``, the
    translator, and calls :meth:`redraw` after every change)."""

    editor: TurnEditor | None
    #: the pieces chosen to be moved, in the order they were chosen
    selected: list[int]
    #: the line under the board: what the last edit did wrong ("" when it went well)
    message: str
    app: Any

    if TYPE_CHECKING:

        @property
        def focused(self) -> Widget | None: ...

        @property
        def t(self) -> Translator: ...

    def redraw(self) -> None:
        raise NotImplementedError

    def _focused_view(self) -> TableView | RackView | None:
        focused = self.focused
        return focused if isinstance(focused, TableView | RackView) else None

    def _toggle(self, piece: int) -> None:
        if piece in self.selected:
            self.selected.remove(piece)
        else:
            self.selected.append(piece)
        self.redraw()

    def _edit(self, fn: Callable[[TurnEditor], object]) -> None:
        ed = self.editor
        if ed is None:
            return
        try:
            fn(ed)
        except EditorError as exc:
            words: Callable[..., str] = self.t  # the problem's parameters, whatever they are
            self.message = words(exc.problem.key, **exc.problem.params)
            self.app.bell()
        else:
            self.message = ""
        pieces = ed.pieces
        self.selected = [p for p in self.selected if p in pieces]
        self.redraw()

    def _drop(self, target: IntoMeld | NewMeld | ToRack) -> None:
        chosen = list(self.selected)

        def go(ed: TurnEditor) -> None:
            ed.move(chosen, target)
            self.selected = []

        self._edit(go)

    def _select_meld(self, meld: int) -> None:
        assert self.editor is not None
        ids = [p.id for p in self.editor.melds[meld]]
        if all(i in self.selected for i in ids):
            self.selected = [i for i in self.selected if i not in ids]
        else:
            self.selected += [i for i in ids if i not in self.selected]
        self.redraw()

    def action_select(self) -> None:
        view = self._focused_view()
        if self.editor is None or view is None or view.cursor_piece is None:
            return
        self._toggle(view.cursor_piece)

    def action_select_meld(self) -> None:
        view = self._focused_view()
        if self.editor is None or not isinstance(view, TableView):
            return
        where = view.cursor_meld
        if where is not None:
            self._select_meld(where[0])

    def action_clear(self) -> None:
        self.selected = []
        self.redraw()

    def action_drop(self) -> None:
        view = self._focused_view()
        if self.editor is None or view is None:
            return
        if not self.selected:
            self.action_select()
            return
        if isinstance(view, TableView):
            where = view.cursor_meld
            self._drop(NewMeld() if where is None else IntoMeld(where[0]))
        else:
            self._drop(ToRack(view.cursor if view.order else None))

    def action_new_meld(self) -> None:
        if self.editor is not None:
            self._drop(NewMeld())

    def action_split(self) -> None:
        view = self._focused_view()
        if not isinstance(view, TableView) or view.cursor_meld is None:
            return
        mi, pos = view.cursor_meld
        self._edit(lambda ed: ed.split(mi, pos))

    def action_join(self) -> None:
        view = self._focused_view()
        if not isinstance(view, TableView) or view.cursor_meld is None:
            return
        mi = view.cursor_meld[0]
        self._edit(lambda ed: ed.join(mi, mi + 1))

    # -- the mouse (Textual calls these by the messages' names) ----------------------------
    def on_tile_clicked(self, event: TileClicked) -> None:
        if self.editor is None:
            return
        view = event.view
        if event.button == 3 and isinstance(view, TableView):
            where = view.cursor_meld
            if where is not None:
                mi, pos = where
                self._edit(lambda ed: ed.split(mi, pos))
            return
        view.focus()
        self._toggle(event.piece)

    def on_meld_clicked(self, event: MeldClicked) -> None:
        if self.editor is not None:
            self._select_meld(event.meld)

    def on_drop_clicked(self, event: DropClicked) -> None:
        if self.editor is None:
            return
        if event.kind == "drop" and event.meld is not None:
            self._drop(IntoMeld(event.meld))
        elif event.kind == "new":
            self._drop(NewMeld())
        elif event.kind == "rack":
            self._drop(ToRack())
