"""The game screen: the table, the rack, the turn editor's controls, the timer and the log.

A person's turn is edited in a :class:`~rummikub.tui.editor.TurnEditor`; nothing reaches the
match until "end turn" (or "draw", or the clock running out). Bot turns are computed in a
worker thread and shown one at a time, with the tiles they placed highlighted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Static

from rummikub.core import (
    Action,
    Draw,
    IllegalPlayError,
    Pass,
    RummikubError,
    Table,
    Tile,
    Timeout,
    TurnLog,
    check_play,
)
from rummikub.i18n import Translator

from ..editing import TableEditing
from ..editor import Problem, TurnEditor
from ..host import GameHost, host_of
from ..session import HintUnavailable, Session
from ..widgets import (
    GameLog,
    MeldRow,
    PlayersPanel,
    RackView,
    TableView,
    TurnTimer,
    rows_from_editor,
    rows_from_table,
)
from .handover import HandoverScreen
from .round_end import RoundEndScreen

__all__ = ["GameScreen", "describe_turn", "fresh_ids", "rejection_text"]

Translate = Callable[..., str]
#: Seconds a bot's move stays on screen before the next turn, per speed step.
SPEEDS = (3.0, 1.5, 0.7, 0.25, 0.0)


def rejection_text(t: Translator, err: RummikubError) -> str:
    """A rejected play explained in the interface language, from the error's code and params."""
    return t("game.rejected", why=t.error(err))


def problem_text(t: Translate, problem: Problem) -> str:
    return t(problem.key, **problem.params)


def describe_turn(
    t: Translate, name: str, log: TurnLog, *, show_draw: bool = False, you: bool = False
) -> str:
    """One log line for a turn (``you``: about the player at the keyboard)."""
    if log.action == "play":
        tiles = " ".join(map(str, log.play))
        line = t("log.play", name=name, tiles=tiles, count=len(log.play), you=you)
        return line + (" " + t("log.hinted") if log.hint else "")
    if log.action == "draw":
        if show_draw and log.tile is not None:
            return t("log.draw_tile", name=name, tile=str(log.tile), you=you)
        return t("log.draw", name=name, you=you)
    if log.action == "pass":
        return t("log.pass", name=name, you=you)
    if log.action == "timeout":
        return t("log.timeout_penalty", name=name, count=len(log.penalty), you=you)
    return t("log.invalid_penalty", name=name, count=len(log.penalty), you=you)


def fresh_ids(rows: list[MeldRow], placed: tuple[Tile, ...]) -> frozenset[int]:
    """The pieces of ``rows`` that are the tiles just placed (looked for in changed melds)."""
    want = Counter(placed)
    out: set[int] = set()
    for row in rows:
        if not row.changed:
            continue
        for pid, tile in row.pieces:
            if want[tile] > 0:
                want[tile] -= 1
                out.add(pid)
    return frozenset(out)


class GameScreen(Screen[None], TableEditing):
    """Play a match: hot-seat people and bots around one table."""

    #: Narrow terminals get two rows of buttons; wide ones a wider side panel (app.tcss).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-medium"), (160, "-wide")]  # noqa: RUF012

    BINDINGS = [  # noqa: RUF012
        Binding("space", "select", show=False),
        Binding("enter", "drop", show=False),
        Binding("n", "new_meld", show=False),
        Binding("s", "split", show=False),
        Binding("j", "join", show=False),
        Binding("m", "select_meld", show=False),
        Binding("escape", "clear", show=False),
        Binding("shift+left", "shift(-1)", show=False),
        Binding("shift+right", "shift(1)", show=False),
        Binding("e", "end_turn", show=False),
        Binding("d", "draw", show=False),
        Binding("r", "reset", show=False),
        Binding("u", "undo", show=False),
        Binding("h", "hint", show=False),
        Binding("t", "sort('run')", show=False),
        Binding("g", "sort('group')", show=False),
        Binding("ctrl+s", "save", show=False),
        # + slower, - faster (as docs/terminal.md says), F instant
        Binding("plus,equals_sign", "speed(-1)", show=False),
        Binding("minus", "speed(1)", show=False),
        Binding("f", "speed(9)", show=False),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.editor: TurnEditor | None = None
        self.selected: list[int] = []
        self.message: str = ""
        self.fresh_table: frozenset[int] = frozenset()
        self.shown_table: Table = session.match.state.table
        self.shown_changed: list[bool] = []
        self.waiting_bot = False
        self._next_turn_timer: object | None = None
        #: the editor's depth once the hint was laid out: undone past it (or reset), the
        #: hint no longer counts for the play
        self.hint_depth: int | None = None

    @property
    def rk_app(self) -> GameHost:
        return host_of(self)

    @property
    def t(self) -> Translator:
        return self.rk_app.t

    # -- layout --------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        t = self.t
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static("", id="status")
                with VerticalScroll(id="table-box") as box:
                    box.border_title = t("game.table")
                    # Tab moves between the rack and the table only (the buttons have keys)
                    box.can_focus = False
                    yield TableView(t, id="table")
                yield Static("", id="problems")
                with Vertical(id="rack-box") as rack_box:
                    rack_box.border_title = t("game.rack")
                    yield RackView(t, id="rack")
                with Horizontal(id="buttons"):
                    yield Button(
                        t("button.end_turn"), id="end-turn", variant="success", compact=True
                    )
                    yield Button(t("button.draw"), id="draw", variant="primary", compact=True)
                    yield Button(t("button.reset"), id="reset", variant="warning", compact=True)
                    yield Button(t("button.undo"), id="undo", compact=True)
                    yield Button(t("button.hint"), id="hint", compact=True)
                    yield Button("789", id="sort-run", compact=True)
                    yield Button("777", id="sort-group", compact=True)
                    yield Button(t("button.save"), id="save", compact=True)
            with Vertical(id="side"):
                yield TurnTimer(t, id="timer")
                yield PlayersPanel(t, id="players")
                yield GameLog(id="log")
        yield Static(t("game.keys"), id="keys")

    def on_mount(self) -> None:
        for button in self.query(Button):
            button.can_focus = False
        self.query_one(GameLog).can_focus = False
        self.set_interval(self.rk_app.tick, self.tick)
        self.query_one("#hint", Button).display = self.session.hints
        self.redraw()
        # after the first layout, so the log wraps its lines at its real width
        self.call_after_refresh(self.write_history)
        self.call_after_refresh(self.begin_turn)

    def write_history(self) -> None:
        """The log of the match so far (a resumed game shows what the saved one showed)."""
        log = self.query_one(GameLog)
        match = self.session.match
        for number, rnd in enumerate(match.rounds, start=1):
            log.add(self.round_line(number, rnd.first))
            for turn in rnd.turns:
                log.add(self.turn_line(turn))
            if rnd.end is not None:
                log.add(self.round_over_line(rnd.end.winner))

    def round_line(self, number: int, first: int) -> str:
        return self.t(
            "log.round", round=number, name=self.name_of(first), you=self.session.is_you(first)
        )

    def round_over_line(self, winner: int | None) -> str:
        if winner is None:
            return self.t("log.round_over", name="-")
        return self.t("log.round_over", name=self.name_of(winner), you=self.session.is_you(winner))

    def turn_line(self, log: TurnLog) -> str:
        return describe_turn(
            self.t, self.name_of(log.player), log, you=self.session.is_you(log.player)
        )

    def name_of(self, seat: int) -> str:
        return self.session.players[seat].name

    def on_resize(self) -> None:
        self.call_after_refresh(self._place_toasts)

    def _place_toasts(self) -> None:
        """Keep notifications above the key-help line."""
        keys = self.query_one("#keys")
        for rack in self.query("#textual-toastrack"):
            rack.styles.margin = (0, 0, keys.outer_size.height, 0)

    # -- turn flow -----------------------------------------------------------------------
    def begin_turn(self) -> None:
        """Start whatever comes next: a bot's move, a handover, a person's turn, round end."""
        self._next_turn_timer = None
        session = self.session
        if session.match.round_over:
            self.editor = None
            self.redraw()
            self.app.push_screen(RoundEndScreen(session), self._after_round)
            return
        seat = session.current
        if not session.is_human(seat):
            self.editor = None
            self.waiting_bot = True
            self.message = self.t("game.thinking", name=session.players[seat].name)
            self.redraw()
            self.run_bot(seat)
            return
        if session.hot_seat:
            self.editor = None
            self.redraw()
            self.app.push_screen(
                HandoverScreen(session.players[seat].name), lambda _: self.start_human_turn()
            )
            return
        self.start_human_turn()

    def start_human_turn(self) -> None:
        session = self.session
        seat = session.current
        obs = session.match.observation(seat)
        session.start_turn()
        self.editor = TurnEditor(
            obs.table,
            obs.rack,
            session.rules,
            opened=obs.has_opened,
            rack_order=session.rack_orders.get(seat),
        )
        self.selected = []
        self.fresh_table = frozenset()
        self.hint_depth = None
        self.message = self.t(
            "game.your_turn_select", name=session.players[seat].name, you=session.is_you(seat)
        )
        self.redraw()
        self.query_one("#rack", RackView).focus()

    def _showing(self) -> bool:
        """Whether the screen is there to show a result its thread found: attached, and the
        app not shutting down (its widgets may already be gone while ``is_attached`` holds)."""
        return self.is_attached and self.app.is_running

    @work(thread=True, group="bot")
    def run_bot(self, seat: int) -> None:
        action, ms = self.session.bot_action(seat)
        self.app.call_from_thread(self.bot_done, seat, action, ms)

    def bot_done(self, seat: int, action: Action, ms: int) -> None:
        session = self.session
        if session.current != seat or session.match.round_over or not self._showing():
            return
        before = session.match.state.table
        log = session.play_bot(seat, action, ms)
        self.waiting_bot = False
        self.after_turn(log, before)
        delay = SPEEDS[self.rk_app.speed]
        if log.action == "play" and delay > 0:
            self._next_turn_timer = self.set_timer(delay, self.begin_turn)
        else:
            self.call_after_refresh(self.begin_turn)

    def after_turn(self, log: TurnLog, before: Table) -> None:
        """Log a finished turn and show the table with what moved."""
        self.query_one(GameLog).add(self.turn_line(log))
        table = self.session.match.state.table
        old = Counter(m.key() for m in before.melds)
        changed = []
        for m in table.melds:
            if old[m.key()] > 0:
                old[m.key()] -= 1
                changed.append(False)
            else:
                changed.append(True)
        self.shown_changed = changed if log.action == "play" else []
        rows = rows_from_table(table, self.session.rules, changed=self.shown_changed)
        self.fresh_table = fresh_ids(rows, log.play) if log.action == "play" else (frozenset())
        self.editor = None
        self.selected = []
        if log.action == "play":
            self.message = self.turn_line(log)
        end = self.session.match.state.end
        if end is not None:
            self.query_one(GameLog).add(self.round_over_line(end.winner))
        self.redraw()

    def _after_round(self, choice: str | None) -> None:
        if choice == "next":
            self.session.next_round()
            self.fresh_table = frozenset()
            self.shown_changed = []
            match = self.session.match
            self.query_one(GameLog).add(self.round_line(len(match.rounds), match.rounds[-1].first))
            self.begin_turn()
        elif choice == "new":
            self.rk_app.new_game()
        else:
            self.app.exit()

    def human_done(self, log: TurnLog, before: Table) -> None:
        seat = log.player
        if self.editor is not None:
            self.session.remember_rack_order(seat, [p.tile for p in self.editor.rack])
        self.after_turn(log, before)
        self.call_after_refresh(self.begin_turn)

    def tick(self) -> None:
        session = self.session
        timer = self.query_one(TurnTimer)
        active = self.editor is not None and session.turn_started is not None
        timer.show_time(
            session.time_left()
            if active
            else (float(session.rules.turn_seconds) if session.rules.turn_seconds else None),
            running=active,
        )
        if active and session.timed_out():
            before = session.match.state.table
            log = session.submit(Timeout())
            self.notify(self.t("game.timeout", count=len(log.penalty)), severity="warning")
            self.human_done(log, before)

    # -- drawing -------------------------------------------------------------------------
    def redraw(self) -> None:
        session = self.session
        t = self.t
        table_view = self.query_one("#table", TableView)
        rack_view = self.query_one("#rack", RackView)
        ed = self.editor
        sel = frozenset(self.selected)
        viewer = session.viewer(turn_active=ed is not None)
        if ed is not None:
            table_view.show(
                rows_from_editor(ed),
                selected=sel,
                fresh=frozenset(p.id for m in ed.melds for p in m if p.origin == "rack"),
                editable=True,
            )
            rack_view.show([(p.id, p.tile) for p in ed.rack], selected=sel, droppable=True)
        else:
            table = session.match.state.table
            table_view.show(
                rows_from_table(table, session.rules, changed=self.shown_changed),
                fresh=self.fresh_table,
                editable=False,
            )
            if viewer is None:
                rack_view.show([], hidden=t("game.rack_hidden"))
            else:
                rack = session.match.observation(viewer).rack
                rack_view.show(list(enumerate(rack.tiles)))
        rack_box = self.query_one("#rack-box")
        owner = viewer if viewer is not None else None
        if owner is not None:
            size = len(ed.rack) if ed is not None else len(session.match.state.racks[owner])
            rack_box.border_title = t(
                "game.rack_of",
                name=session.players[owner].name,
                count=size,
                you=session.is_you(owner),
            )
        else:
            rack_box.border_title = t("game.rack")
        obs = session.match.observation(viewer if viewer is not None else session.current)
        self.query_one(PlayersPanel).show_players(
            session.players, obs, round_over=session.match.round_over
        )
        status = t(
            "game.status",
            round=len(session.match.rounds),
            name=session.players[session.current].name,
            pool=obs.pool_size,
            you=session.is_you(session.current) and ed is not None,
        )
        self.query_one("#status", Static).update(Text(status, style="bold"))
        self.query_one("#problems", Static).update(self.problems_text())
        for bid in ("end-turn", "draw", "reset", "undo", "hint", "sort-run", "sort-group"):
            self.query_one(f"#{bid}", Button).disabled = ed is None
        self.query_one("#draw", Button).label = (
            t("button.pass") if (obs.pool_size == 0) else t("button.draw")
        )

    def problems_text(self) -> Text:
        ed = self.editor
        out = Text()
        if ed is not None:
            for i, check in enumerate(ed.checks()):
                if not check.valid and check.problem is not None:
                    out.append("✗ ", "bold #ef5350")
                    out.append(
                        self.t("problem.meld", meld=i + 1, why=problem_text(self.t, check.problem))
                        + "\n"
                    )
            if not ed.opened:
                value = ed.new_value
                need = ed.rules.opening_value
                style = "bold #66bb6a" if value >= need else "bold #ffa726"
                out.append(self.t("problem.opening", value=value, needed=need), style)
                if ed.touched_table and not ed.rules.open_then_extend:
                    out.append("  " + self.t("play.opening_touches"), "bold #ef5350")
                out.append("\n")
        if self.message:
            out.append(self.message)
        return out

    # -- selecting and moving (the rest is :class:`..editing.TableEditing`) ---------------
    def action_shift(self, delta: int) -> None:
        view = self._focused_view()
        if view is None or view.cursor_piece is None:
            return
        piece = view.cursor_piece
        self._edit(lambda ed: ed.shift(piece, delta))
        view.set_cursor_piece(piece)

    def action_sort(self, view: str) -> None:
        if self.editor is not None:
            self._edit(lambda ed: ed.sort_rack("group" if view == "group" else "run"))

    def action_undo(self) -> None:
        self._edit(lambda ed: ed.undo())
        ed = self.editor
        if ed is not None and self.hint_depth is not None and ed.depth < self.hint_depth:
            self._hint_gone()

    def action_reset(self) -> None:
        self.selected = []
        self._edit(lambda ed: ed.reset())
        self._hint_gone()
        self.message = self.t("game.reset_done")
        self.redraw()

    def _hint_gone(self) -> None:
        """The hint's layout is off the table: a play made now is the player's own."""
        self.hint_depth = None
        self.session.hint_used = False

    # -- ending the turn -----------------------------------------------------------------
    def action_end_turn(self) -> None:
        ed = self.editor
        if ed is None:
            return
        play = ed.play()
        if play is None:
            self.message = self.t("play.no_rack_tile") + " " + self.t("game.draw_instead")
            self.app.bell()
            self.redraw()
            return
        state = self.session.match.state
        before = state.table
        try:
            log = self.session.submit(play)
        except IllegalPlayError as exc:
            self.message = rejection_text(self.t, exc)
            self.app.bell()
            self.redraw()
            return
        if log.action == "invalid":
            why = check_play(state, play)
            reason = rejection_text(self.t, why) if why is not None else ""
            self.notify(
                self.t("game.penalised", count=len(log.penalty)) + "\n" + reason,
                severity="error",
                timeout=10,
            )
        self.human_done(log, before)

    def action_draw(self) -> None:
        if self.editor is None:
            return
        action: Action = Draw() if self.session.match.state.pool else Pass()
        before = self.session.match.state.table
        log = self.session.submit(action)
        if log.tile is not None and not self.session.hot_seat:
            # (in hot-seat the next person would see the toast)
            self.notify(self.t("game.you_drew", tile=str(log.tile)))
        self.human_done(log, before)

    def action_hint(self) -> None:
        if self.editor is None or not self.session.hints:
            return
        self.message = self.t("game.hint_looking")
        self.redraw()
        self.compute_hint(self.session.current)

    @work(thread=True, group="hint")
    def compute_hint(self, seat: int) -> None:
        session = self.session
        try:
            table = session.hint(seat)
            # before the opening, "no play" means "no opening yet": say how far it is; after
            # it, a draw although tiles fit means keeping them is the better move
            short = None
            keep = 0
            if table is None and not session.match.observation(seat).has_opened:
                short = session.best_opening(seat)
            elif table is None:
                keep = session.most_placeable(seat)
            self.app.call_from_thread(self.show_hint, seat, table, None, short, keep)
        except HintUnavailable as exc:
            self.app.call_from_thread(self.show_hint, seat, None, str(exc))

    def show_hint(
        self,
        seat: int,
        table: Table | None,
        error: str | None,
        short: int | None = None,
        keep: int = 0,
    ) -> None:
        ed = self.editor
        if ed is None or self.session.current != seat or not self._showing():
            return
        if error is not None:
            self.message = self.t("game.hint_unavailable")
        elif table is None and short == 0:
            self.message = self.t("game.hint_no_set")
        elif table is None and short is not None:
            needed = self.session.rules.opening_value
            key = "game.hint_opening" if short < needed else "game.hint_hold"
            self.message = self.t(key, value=short, needed=needed)
        elif table is None and keep > 0:
            self.message = self.t("game.hint_keep", n=keep)
        elif table is None:
            self.message = self.t("game.hint_none")
        else:
            self.selected = []
            self._edit(lambda e: e.load(table))
            self.hint_depth = ed.depth
            self.message = self.t("game.hint_shown")
        self.redraw()

    def action_save(self) -> None:
        ed = self.editor
        if ed is not None:  # the order the player gave his rack is saved with the game
            self.session.remember_rack_order(self.session.current, [p.tile for p in ed.rack])
        try:
            path = self.session.save()
        except OSError as exc:
            self.notify(self.t("game.save_failed", error=str(exc)), severity="error")
            return
        self.notify(self.t("game.saved", path=str(path)))

    def action_speed(self, delta: int) -> None:
        app = self.rk_app
        app.speed = max(0, min(len(SPEEDS) - 1, app.speed + delta))
        self.notify(self.t("game.speed", speed=app.speed + 1, max=len(SPEEDS)))
        if self._next_turn_timer is not None and SPEEDS[app.speed] == 0:
            self._next_turn_timer.stop()  # type: ignore[attr-defined]
            self.begin_turn()

    # -- mouse ---------------------------------------------------------------------------
    @on(Button.Pressed)
    def button(self, event: Button.Pressed) -> None:
        actions: dict[str, Callable[[], None]] = {
            "end-turn": self.action_end_turn,
            "draw": self.action_draw,
            "reset": self.action_reset,
            "undo": self.action_undo,
            "hint": self.action_hint,
            "sort-run": lambda: self.action_sort("run"),
            "sort-group": lambda: self.action_sort("group"),
            "save": self.action_save,
        }
        if event.button.id in actions:
            actions[event.button.id]()
