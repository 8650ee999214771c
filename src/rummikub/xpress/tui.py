"""The terminal interface for Xpress (Textual): play against a bot, or step through a record.

Dice are drawn as dice: bordered squares showing the number in its colour and the colour
letter (``J`` with a star for a joker). Click a die of yours (or press 1-9) to select it;
``t`` throws the selected dice again (all unplaced dice when none is selected), ``p`` places the
selected dice (the table is rearranged as needed; the placement is refused if the dice cannot
all go onto the table), ``h`` selects the best placement, ``e`` ends the turn, ``n`` starts
the next round, ``q`` quits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import Footer, Header, Label, Static

from rummikub.core.errors import RummikubError
from rummikub.core.tiles import COLOUR_LETTERS

from .actions import EndTurn, Place, Throw, XpressAction
from .bots import ExpertBot, XpressBot, get_bot
from .dice import DieFace, Face
from .game import XpressMatch, XpressPlayer
from .messages import text
from .record import XpressRecord, XpressStep, replay_xpress, write_xpress
from .solver import arrange_onto, best_placement
from .state import XpressState

__all__ = ["DieWidget", "XpressApp", "render_face"]

FACE_COLOURS = ("#111111", "#c0392b", "#1f5fbf", "#d35400")
JOKER_COLOUR = "#8e44ad"


def render_face(face: Face) -> Text:
    """The face as the die shows it: the number in its colour and the colour letter."""
    if face.is_joker:
        return Text("J★", style=f"bold {JOKER_COLOUR}")
    return Text(
        f"{face.number}{COLOUR_LETTERS[face.colour]}", style=f"bold {FACE_COLOURS[face.colour]}"
    )


def faces_text(dice: Sequence[DieFace]) -> str:
    return " ".join(str(d.face) for d in dice) or "-"


class DieWidget(Static):
    """One die: a bordered square with its face; a die of the player's hand can be selected."""

    DEFAULT_CSS = """
    DieWidget {
        width: 6;
        height: 3;
        border: round #8a8a8a;
        background: #f7f2e4;
        content-align: center middle;
        text-align: center;
        margin: 0 1 0 0;
    }
    DieWidget.selected {
        border: heavy #e6b800;
        background: #fff3a8;
    }
    """

    class Clicked(Message):
        def __init__(self, die: int) -> None:
            self.die = die
            super().__init__()

    def __init__(self, dice: DieFace, *, selectable: bool = False, selected: bool = False) -> None:
        super().__init__(render_face(dice.face))
        self.dice = dice
        self.selectable = selectable
        self.set_class(selected, "selected")

    def on_click(self) -> None:
        if self.selectable:
            self.post_message(self.Clicked(self.dice.die))


@dataclass(slots=True)
class _View:
    """What the screen shows: a state, the names, the match scores, the round number."""

    state: XpressState
    names: tuple[str, ...]
    totals: tuple[int, ...]
    round: int


class XpressApp(App[None]):
    """Play Xpress against a bot (``for_play``) or watch a record (``for_replay``)."""

    TITLE = "Rummikub Xpress"
    CSS = """
    #status { height: auto; padding: 0 1; }
    .caption { padding: 0 1; color: $text-muted; }
    .dice-row { height: 3; padding: 0 1; }
    #table { height: 1fr; border: round $primary 40%; }
    #message { height: auto; padding: 0 1; background: $boost; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "throw", "Throw"),
        Binding("p", "place", "Place"),
        Binding("h", "hint", "Hint"),
        Binding("e", "end_turn", "End turn"),
        Binding("n", "next_round", "Next round"),
        Binding("a", "select_all", "All", show=False),
        Binding("c", "clear", "Clear", show=False),
        Binding("right,space", "step(1)", "Next step", show=False),
        Binding("left", "step(-1)", "Back", show=False),
        Binding("q", "quit", "Quit"),
        *[Binding(str(k), f"pick({k})", show=False) for k in range(1, 10)],
    ]

    def __init__(self, *, lang: str = "en") -> None:
        super().__init__()
        self.lang = lang
        self.match: XpressMatch | None = None
        self.bot: XpressBot | None = None
        self.human = 0
        self.delay = 0.4
        self.save: Path | None = None
        self.selected: set[int] = set()
        self.record: XpressRecord | None = None
        self.steps: list[XpressStep] = []
        self.step_index = -1
        self.message = ""

    # -- construction --------------------------------------------------------------------
    @classmethod
    def for_play(
        cls,
        *,
        bot: str = "expert",
        seed: int = 0,
        lang: str = "en",
        name: str = "You",
        save: Path | None = None,
        delay: float = 0.4,
        bot_seconds: float = 1.0,
    ) -> XpressApp:
        app = cls(lang=lang)
        app.bot = get_bot(bot, seed)
        if isinstance(app.bot, ExpertBot):
            app.bot.max_seconds = bot_seconds
        players = [XpressPlayer(name, "human"), XpressPlayer(bot, "bot", bot)]
        app.match = XpressMatch(players, seed)
        app.save = save
        app.delay = delay
        return app

    @classmethod
    def for_replay(cls, record: XpressRecord, *, lang: str = "en") -> XpressApp:
        app = cls(lang=lang)
        app.record = record
        app.steps = list(replay_xpress(record))
        return app

    def t(self, key: str, **values: object) -> str:
        return text(self.lang, key, **values)

    # -- layout --------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="status")
        yield Label("", id="other-caption", classes="caption")
        yield Horizontal(id="other", classes="dice-row")
        yield Label(self.t("table"), classes="caption")
        yield VerticalScroll(id="table")
        yield Label("", id="hand-caption", classes="caption")
        yield Horizontal(id="hand", classes="dice-row")
        yield Static(id="message")
        yield Footer()

    async def on_mount(self) -> None:
        self.title = self.t("title")
        if self.match is not None:
            self.message = self._prompt()
            await self.refresh_view()
            self._schedule_bot()
        else:
            self.message = self.t("replay_keys")
            await self.refresh_view()

    # -- what to show --------------------------------------------------------------------
    def view(self) -> _View | None:
        if self.match is not None:
            return _View(
                self.match.state,
                tuple(p.name for p in self.match.players),
                self.match.totals,
                len(self.match.rounds),
            )
        rec = self.record
        if rec is None or not self.steps:
            return None
        step = self.steps[max(self.step_index, 0)]
        state = step.after if self.step_index >= 0 else step.before
        totals = [0] * len(rec.players)
        for rd in rec.rounds[: step.round + (1 if state.end is not None else 0)]:
            if rd.end is not None:
                totals = [a + b for a, b in zip(totals, rd.end.scores, strict=True)]
        return _View(state, tuple(p.name for p in rec.players), tuple(totals), step.round + 1)

    async def refresh_view(self) -> None:
        v = self.view()
        if v is None:
            return
        rules = v.state.rules
        me = self.human
        other = 1 - me
        scores = ", ".join(f"{n} {s}" for n, s in zip(v.names, v.totals, strict=True))
        idle = "/".join(str(i) for i in v.state.idle)
        status = "  ".join(
            [
                self.t("round", round=v.round, rounds=rules.rounds),
                self.t("scores", scores=scores),
                self.t("idle", idle=idle, limit=rules.block_throws),
            ]
        )
        self.query_one("#status", Static).update(status)
        self.query_one("#other-caption", Label).update(self.t("their_dice", name=v.names[other]))
        self.query_one("#hand-caption", Label).update(
            self.t("your_dice") if self.match is not None else v.names[me]
        )
        selectable = self.match is not None and v.state.current == me and v.state.end is None
        self.selected &= {d.die for d in v.state.hands[me]}
        other_row = self.query_one("#other", Horizontal)
        await other_row.remove_children()
        await other_row.mount_all([DieWidget(d) for d in v.state.hands[other]])
        hand_row = self.query_one("#hand", Horizontal)
        await hand_row.remove_children()
        await hand_row.mount_all(
            [
                DieWidget(d, selectable=selectable, selected=d.die in self.selected)
                for d in v.state.hands[me]
            ]
        )
        table = self.query_one("#table", VerticalScroll)
        await table.remove_children()
        rows: list[Static | Horizontal] = []
        for meld in v.state.table.melds:
            rows.append(
                Horizontal(*[DieWidget(DieFace(-1, f)) for f in meld.tiles], classes="dice-row")
            )
        if not rows:
            rows.append(Static(self.t("empty_table"), classes="caption"))
        await table.mount_all(rows)
        self.query_one("#message", Static).update(self.message)

    def _prompt(self) -> str:
        m = self.match
        if m is None:
            return ""
        s = m.state
        if s.end is not None:
            return self._round_result()
        if s.current != self.human:
            return self.t("bot_turn", name=m.players[s.current].name)
        if s.phase == "throw":
            return self.t("your_turn_throw")
        if s.placed:
            return self.t("placed_end", count=s.placed)
        return self.t("must_place") if s.can_place else self.t("nothing")

    def _round_result(self) -> str:
        m = self.match
        assert m is not None and m.state.end is not None
        end = m.state.end
        rnd = len(m.rounds)
        if end.winner is None:
            line = self.t("round_draw", round=rnd)
        else:
            line = self.t(
                "round_won",
                round=rnd,
                name=m.players[end.winner].name,
                points=end.scores[end.winner],
                reason=self.t(f"reason_{end.reason}"),
            )
        if m.over:
            winners = m.winners
            result = (
                self.t("draw")
                if len(winners) > 1
                else self.t("winner", name=m.players[winners[0]].name)
            )
            return f"{line}\n{self.t('match_over', result=result)}"
        return f"{line}\n{self.t('next_round')}"

    # -- playing -------------------------------------------------------------------------
    def _my_turn(self) -> bool:
        m = self.match
        return m is not None and m.state.end is None and m.state.current == self.human

    async def _act(self, action: XpressAction, note: str = "") -> bool:
        m = self.match
        assert m is not None
        try:
            m.act(action)
        except RummikubError as exc:
            self.message = self.t("illegal", reason=str(exc))
            await self.refresh_view()
            return False
        self.selected.clear()
        self.message = "\n".join(x for x in (note, self._prompt()) if x)
        if m.state.end is not None and self.save is not None:
            write_xpress(m, self.save)
        await self.refresh_view()
        return True

    async def on_die_widget_clicked(self, event: DieWidget.Clicked) -> None:
        self.selected ^= {event.die}
        await self.refresh_view()

    async def action_pick(self, position: int) -> None:
        v = self.view()
        if v is None or not self._my_turn():
            return
        hand = v.state.hands[self.human]
        if 1 <= position <= len(hand):
            self.selected ^= {hand[position - 1].die}
            await self.refresh_view()

    async def action_select_all(self) -> None:
        if self.match is not None and self._my_turn():
            self.selected = {d.die for d in self.match.state.hands[self.human]}
            await self.refresh_view()

    async def action_clear(self) -> None:
        self.selected.clear()
        await self.refresh_view()

    async def action_throw(self) -> None:
        m = self.match
        if m is None or not self._my_turn():
            return
        hand = m.state.hand
        dice = tuple(d.die for d in hand if d.die in self.selected) or tuple(d.die for d in hand)
        if await self._act(Throw(dice)):
            thrown = tuple(d for d in m.state.hands[self.human] if d.die in set(dice))
            self.message = (
                self.t("threw", name=m.players[self.human].name, faces=faces_text(thrown))
                + "\n"
                + self._prompt()
            )
            await self.refresh_view()

    async def action_place(self) -> None:
        m = self.match
        if m is None or not self._my_turn():
            return
        chosen = [d for d in m.state.hand if d.die in self.selected]
        if not chosen:
            self.message = self.t("select_first")
            await self.refresh_view()
            return
        table = arrange_onto(
            m.state.table, [d.face for d in chosen], new_set=m.rules.freed_joker_new_set
        )
        if table is None:
            self.message = self.t("cannot_place", faces=faces_text(chosen))
            await self.refresh_view()
            return
        await self._act(
            Place(tuple(d.die for d in chosen), table),
            self.t("placed", name=m.players[self.human].name, faces=faces_text(chosen)),
        )
        self._schedule_bot()

    async def action_hint(self) -> None:
        m = self.match
        if m is None or not self._my_turn() or m.state.phase != "place":
            return
        best = best_placement(
            m.state.table, [d.face for d in m.state.hand], new_set=m.rules.freed_joker_new_set
        )
        if not best.count:
            self.message = self.t("no_hint")
        else:
            left = list(best.faces)
            self.selected = set()
            for d in m.state.hand:
                if d.face in left:
                    left.remove(d.face)
                    self.selected.add(d.die)
            self.message = self.t("hint", faces=" ".join(str(f) for f in best.faces))
        await self.refresh_view()

    async def action_end_turn(self) -> None:
        if self.match is None or not self._my_turn():
            return
        if await self._act(EndTurn()):
            self._schedule_bot()

    async def action_next_round(self) -> None:
        m = self.match
        if m is None or m.state.end is None or m.over:
            return
        m.next_round()
        self.message = self._prompt()
        await self.refresh_view()
        self._schedule_bot()

    def _schedule_bot(self) -> None:
        m = self.match
        if m is None or self.bot is None or m.state.end is not None:
            return
        if m.state.current != self.human:
            self.set_timer(max(self.delay, 0.001), self.bot_step)

    async def bot_step(self) -> None:
        """One action of the bot; schedules the next while it is the bot's turn."""
        m = self.match
        if m is None or self.bot is None or m.state.end is not None:
            return
        if m.state.current == self.human:
            return
        seat = m.state.current
        name = m.players[seat].name
        before = m.state
        action = self.bot.act(m.observation(seat), None)
        note = ""
        if isinstance(action, Throw):
            note = self.t("threw", name=name, faces="")
        elif isinstance(action, Place):
            placed = tuple(d for d in before.hand if d.die in set(action.dice))
            note = self.t("placed", name=name, faces=faces_text(placed))
        elif before.placed == 0:
            note = self.t("passes", name=name)
        ok = await self._act(action, note)
        if ok and isinstance(action, Throw):
            thrown = tuple(d for d in m.state.hands[seat] if d.die in set(action.dice))
            self.message = self.t("threw", name=name, faces=faces_text(thrown))
            await self.refresh_view()
        if not ok:  # a bot never should; end its turn rather than loop
            await self._act(EndTurn())
        self._schedule_bot()

    # -- replaying -----------------------------------------------------------------------
    async def action_step(self, delta: int) -> None:
        if self.record is None or not self.steps:
            return
        self.step_index = max(-1, min(len(self.steps) - 1, self.step_index + delta))
        if self.step_index < 0:
            what = self.t("replay_start", round=1)
        else:
            step = self.steps[self.step_index]
            names = [p.name for p in self.record.players]
            who = names[step.before.current]
            a = step.action
            if isinstance(a, Throw):
                what = self.t("threw", name=who, faces=" ".join(str(f) for f in a.faces or ()))
            elif isinstance(a, Place):
                placed = tuple(d for d in step.before.hand if d.die in set(a.dice))
                what = self.t("placed", name=who, faces=faces_text(placed))
            elif step.before.placed == 0:
                what = self.t("passes", name=who)
            else:
                what = "-"
            if step.after.end is not None:
                end = step.after.end
                what += " — " + (
                    self.t("round_draw", round=step.round + 1)
                    if end.winner is None
                    else self.t(
                        "round_won",
                        round=step.round + 1,
                        name=names[end.winner],
                        points=end.scores[end.winner],
                        reason=self.t(f"reason_{end.reason}"),
                    )
                )
        self.message = (
            self.t("replay_step", step=self.step_index + 1, steps=len(self.steps), what=what)
            + "\n"
            + self.t("replay_keys")
        )
        await self.refresh_view()
