"""``rummikub puzzle``: solving puzzles on the game's own table and rack widgets.

Select tiles (space, or a click), drop them into a set (enter, or a set's ``+``), make a new
set (n), split (s) and join (j) sets, undo (u) and reset (r) as in a game; submit with c. The
first answer to a puzzle rates it (solved: the player's puzzle rating goes up, the puzzle's
down); asking for the solution (v) before solving counts as a miss; a hint (h) shows one step.
x goes to the next puzzle: one near the player's rating (of ``--theme``), or in streak mode
a harder one until the first miss."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from rummikub.i18n import Translator, translator
from rummikub.puzzles import Puzzle, check_answer, hint, solution_layout
from rummikub.puzzles.rating import daily as daily_puzzle
from rummikub.puzzles.rating import next_puzzle, streak_puzzle
from rummikub.puzzles.store import PlayerStore

from .editor import EditorError, IntoMeld, NewMeld, ToRack, TurnEditor
from .widgets import (
    DropClicked,
    MeldClicked,
    MeldRow,
    RackView,
    TableView,
    TileClicked,
    rows_from_editor,
)


def say(t: Callable[..., str], key: str, params: Mapping[str, object]) -> str:
    """``key`` of the catalogue with ``params`` (any names, as a message needs them)."""
    return t(key, **params)


__all__ = ["PuzzleApp"]


class PuzzleApp(App[None]):
    """The puzzle screen: the puzzle's goal, its table and rack, the keys."""

    CSS_PATH = "app.tcss"
    CSS = """
    #goal { height: auto; padding: 0 1; color: #fff59d; }
    #message { height: auto; max-height: 4; padding: 0 1; color: #ffe0b2; }
    """
    TITLE = "Rummikub"

    BINDINGS = [  # noqa: RUF012
        Binding("space", "select", show=False),
        Binding("enter", "drop", show=False),
        Binding("n", "new_meld", show=False),
        Binding("s", "split", show=False),
        Binding("j", "join", show=False),
        Binding("m", "select_meld", show=False),
        Binding("escape", "clear", show=False),
        Binding("u", "undo", show=False),
        Binding("r", "reset", show=False),
        Binding("c", "submit", show=False),
        Binding("h", "hint", show=False),
        Binding("v", "solution", show=False),
        Binding("x", "next", show=False),
        Binding("q", "quit", show=False),
    ]

    def __init__(
        self,
        puzzles: Sequence[Puzzle],
        *,
        first: Puzzle | None = None,
        streak: bool = False,
        theme: str | None = None,
        lang: str | None = None,
        daily: bool = False,
        store: PlayerStore | None = None,
        store_path: Path | None = None,
        today: dt.date | None = None,
    ) -> None:
        super().__init__()
        self.puzzles = tuple(puzzles)
        self.t: Translator = translator(lang)
        self.store = store if store is not None else PlayerStore.open(store_path)
        self.streak = streak
        self.puzzle_theme = theme
        self.today = today or dt.date.today()
        self.mode = "streak" if streak else "daily" if daily else "rated"
        self.streak_count = 0
        self.streak_over = False
        if first is None:
            first = daily_puzzle(self.puzzles, self.today) if daily else self._pick()
        self.puzzle: Puzzle = first
        self.editor = TurnEditor(first.table, first.rack, first.rules, opened=first.opened)
        self.selected: list[int] = []
        self.message = ""
        self.result: bool | None = None  # the rated result of this puzzle (None: not yet)
        self.hints = 0
        self.shown: bool = False

    # -- choosing ------------------------------------------------------------------------
    def _pick(self) -> Puzzle:
        if self.streak:
            return streak_puzzle(
                self.puzzles,
                self.streak_count,
                theme=self.puzzle_theme,
                salt=str(len(self.store.history)),
            )
        return next_puzzle(
            self.puzzles,
            self.store.rating.rating,
            done=self.store.done(),
            theme=self.puzzle_theme,
            salt=str(len(self.store.history)),
        )

    def load(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.editor = TurnEditor(puzzle.table, puzzle.rack, puzzle.rules, opened=puzzle.opened)
        self.selected = []
        self.message = ""
        self.result = None
        self.hints = 0
        self.shown = False
        self.redraw()

    # -- layout --------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        t = self.t
        with Vertical(id="left"):
            yield Static("", id="status")
            yield Static("", id="goal")
            with VerticalScroll(id="table-box") as box:
                box.border_title = t("game.table")
                box.can_focus = False
                yield TableView(t, id="table")
            yield Static("", id="message")
            with Vertical(id="rack-box") as rack_box:
                rack_box.border_title = t("game.rack")
                yield RackView(t, id="rack")
        yield Static(t("puzzle.tui.keys"), id="keys")

    def on_mount(self) -> None:
        self.redraw()
        self.query_one(RackView).focus()

    def redraw(self) -> None:
        t, p = self.t, self.puzzle
        status = t(
            "puzzle.tui.status",
            id=p.id,
            rating=f"{self.store.puzzle_rating(p).rating:.0f}",
            mine=f"{self.store.rating.rating:.0f}",
            mode=t(f"puzzle.tui.mode.{self.mode}"),
        )
        if self.streak:
            status += "  " + t("puzzle.tui.streak", count=self.streak_count)
        self.query_one("#status", Static).update(status)
        self.query_one("#goal", Static).update(
            t(f"puzzle.goal.{p.goal.value}", count=p.target, value=p.rules.opening_value)
        )
        chosen = frozenset(self.selected)
        rows: list[MeldRow] = rows_from_editor(self.editor)
        self.query_one(TableView).show(rows, selected=chosen)
        self.query_one(RackView).show(
            [(pc.id, pc.tile) for pc in self.editor.rack],
            selected=chosen,
            droppable=any(pc.origin == "rack" for m in self.editor.melds for pc in m),
        )
        self.query_one("#message", Static).update(self.message)

    # -- editing (as in a game) ------------------------------------------------------------
    def _view(self) -> TableView | RackView | None:
        f = self.focused
        return f if isinstance(f, TableView | RackView) else None

    def _edit(self, fn: Callable[[TurnEditor], object]) -> None:
        try:
            fn(self.editor)
        except EditorError as exc:
            self.message = say(self.t, exc.problem.key, exc.problem.params)
            self.bell()
        else:
            self.message = ""
        pieces = self.editor.pieces
        self.selected = [i for i in self.selected if i in pieces]
        self.redraw()

    def _drop(self, target: IntoMeld | NewMeld | ToRack) -> None:
        chosen = list(self.selected)

        def go(ed: TurnEditor) -> None:
            ed.move(chosen, target)
            self.selected = []

        self._edit(go)

    def _toggle(self, piece: int) -> None:
        if piece in self.selected:
            self.selected.remove(piece)
        else:
            self.selected.append(piece)
        self.redraw()

    def action_select(self) -> None:
        view = self._view()
        if view is not None and view.cursor_piece is not None:
            self._toggle(view.cursor_piece)

    def action_select_meld(self) -> None:
        view = self._view()
        if isinstance(view, TableView) and view.cursor_meld is not None:
            self._select_meld(view.cursor_meld[0])

    def _select_meld(self, meld: int) -> None:
        ids = [pc.id for pc in self.editor.melds[meld]]
        if all(i in self.selected for i in ids):
            self.selected = [i for i in self.selected if i not in ids]
        else:
            self.selected += [i for i in ids if i not in self.selected]
        self.redraw()

    def action_clear(self) -> None:
        self.selected = []
        self.redraw()

    def action_drop(self) -> None:
        view = self._view()
        if view is None:
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
        self._drop(NewMeld())

    def action_split(self) -> None:
        view = self._view()
        if isinstance(view, TableView) and view.cursor_meld is not None:
            mi, pos = view.cursor_meld
            self._edit(lambda ed: ed.split(mi, pos))

    def action_join(self) -> None:
        view = self._view()
        if isinstance(view, TableView) and view.cursor_meld is not None:
            mi = view.cursor_meld[0]
            self._edit(lambda ed: ed.join(mi, mi + 1))

    def action_undo(self) -> None:
        self._edit(lambda ed: ed.undo())

    def action_reset(self) -> None:
        self._edit(lambda ed: ed.reset())

    @on(TileClicked)
    def tile_clicked(self, event: TileClicked) -> None:
        view = event.view
        if event.button == 3 and isinstance(view, TableView) and view.cursor_meld is not None:
            mi, pos = view.cursor_meld
            self._edit(lambda ed: ed.split(mi, pos))
            return
        view.focus()
        self._toggle(event.piece)

    @on(MeldClicked)
    def meld_clicked(self, event: MeldClicked) -> None:
        self._select_meld(event.meld)

    @on(DropClicked)
    def drop_clicked(self, event: DropClicked) -> None:
        if event.kind == "drop" and event.meld is not None:
            self._drop(IntoMeld(event.meld))
        elif event.kind == "new":
            self._drop(NewMeld())
        elif event.kind == "rack":
            self._drop(ToRack())

    # -- the puzzle ----------------------------------------------------------------------
    def _rate(self, solved: bool) -> None:
        """Record the first result of this puzzle (later ones are practice)."""
        if self.result is not None:
            return
        self.result = solved
        before = self.store.rating.rating
        self.store.record(self.puzzle, solved, mode=self.mode, day=self.today)
        after = self.store.rating.rating
        delta = f"{after - before:+.0f}"
        key = "puzzle.tui.rated_solved" if solved else "puzzle.tui.rated_failed"
        self.message += "\n" + self.t(key, rating=f"{after:.0f}", delta=delta)
        if self.streak:
            if solved:
                self.streak_count += 1
            else:
                self.streak_over = True
                self.store.best_streak = max(self.store.best_streak, self.streak_count)
                self.store.save()
                self.message += "\n" + self.t(
                    "puzzle.tui.streak_over", count=self.streak_count, best=self.store.best_streak
                )

    def action_submit(self) -> None:
        play = self.editor.play()
        if play is None:
            self.message = self.t("puzzle.tui.no_play")
            self.redraw()
            return
        verdict = check_answer(self.puzzle, play)
        if verdict.solved:
            self.message = self.t("puzzle.solved", count=verdict.placed)
        else:
            params = dict(verdict.params)
            if verdict.meld is not None and "number" not in params:
                params["number"] = verdict.meld + 1
            self.message = self.t("puzzle.wrong", why=self.t.coded(verdict.code, params))
            self.bell()
        self._rate(verdict.solved)
        self.redraw()

    def action_hint(self) -> None:
        self.hints += 1
        h = hint(self.puzzle, self.hints)
        self.message = say(self.t, h.key, h.params)
        self.redraw()

    def action_solution(self) -> None:
        self._rate(False)
        layout = solution_layout(self.puzzle)
        marks = {"rack": "+", "moved": "*", "kept": ""}
        lines = [" ".join(marks[m.mark] + m.label for m in meld) for meld in layout]
        keep = self.message
        self.message = (
            self.t("puzzle.solution")
            + " "
            + "  |  ".join(lines)
            + "\n"
            + self.t("puzzle.solution_key")
            + keep
        )
        self.shown = True
        self.redraw()

    def action_next(self) -> None:
        if self.streak and self.streak_over:
            self.streak_count = 0
            self.streak_over = False
        if self.result is None and not self.streak:
            # skipping a puzzle unrated is allowed; in a streak it ends the streak
            pass
        elif self.result is None:
            self._rate(False)
        if self.mode == "daily":
            self.mode = "rated"
        self.load(self._pick())
