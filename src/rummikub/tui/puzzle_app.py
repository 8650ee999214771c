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

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from rummikub.i18n import Translator, translator
from rummikub.puzzles import Puzzle, check_answer, hint, solution_layout
from rummikub.puzzles.rating import daily as daily_puzzle
from rummikub.puzzles.rating import next_puzzle, streak_puzzle
from rummikub.puzzles.store import PlayerStore

from .editing import TableEditing
from .editor import TurnEditor
from .widgets import (
    MeldRow,
    RackView,
    TableView,
    rows_from_editor,
)


def say(t: Callable[..., str], key: str, params: Mapping[str, object]) -> str:
    """``key`` of the catalogue with ``params`` (any names, as a message needs them)."""
    return t(key, **params)


__all__ = ["PuzzleApp"]


class PuzzleApp(App[None], TableEditing):
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
        self._t = translator(lang)
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
        self.editor: TurnEditor = TurnEditor(
            first.table, first.rack, first.rules, opened=first.opened
        )
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
    @property
    def t(self) -> Translator:
        return self._t

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

    # -- editing (as in a game: :class:`.editing.TableEditing`) ---------------------------
    def action_undo(self) -> None:
        self._edit(lambda ed: ed.undo())

    def action_reset(self) -> None:
        self._edit(lambda ed: ed.reset())

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
