"""The terminal interface for Xpress (Textual): play against a bot, or step through a record.

Dice are drawn as dice: bordered squares showing the face in the game's notation (``R6``,
``J`` for a joker) in its colour; on the table a joker shows what it stands for (``J=R6`` in a
run, ``J=6`` in a group), and the sets flow in lines. A log on the right lists every throw
and placement of both players. Click a die of yours (or press 1-9) to select it;
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

from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Header, Label, RichLog, Static

from rummikub.analysis import THRESHOLDS, TurnAnalysis
from rummikub.analysis.xpress import judge_xpress_steps
from rummikub.bots.hints import hint
from rummikub.core.errors import IllegalPlayError, RecordError, RummikubError
from rummikub.core.melds import Meld, read_meld
from rummikub.core.tiles import COLOUR_LETTERS, Tile
from rummikub.i18n import Translator, translator
from rummikub.xpress.actions import EndTurn, Place, Throw, XpressAction
from rummikub.xpress.bots import ExpertBot, XpressBot, get_bot
from rummikub.xpress.dice import DieFace, Face
from rummikub.xpress.dice_game import XPRESS
from rummikub.xpress.game import XpressMatch, XpressPlayer
from rummikub.xpress.observation import XpressObservation
from rummikub.xpress.record import XpressRecord, XpressStep, replay_xpress, write_xpress
from rummikub.xpress.solver import arrange_onto
from rummikub.xpress.state import XpressState

__all__ = ["DieWidget", "TableView", "XpressApp", "render_face", "set_roles"]

FACE_COLOURS = ("#111111", "#c0392b", "#1f5fbf", "#d35400")
JOKER_COLOUR = "#8e44ad"


def render_face(face: Face, role: Tile | int | None = None) -> Text:
    """The face as the die shows it, in the notation of the messages (``R6``, ``J``), in its
    colour; a joker on the table with its ``role`` shows it (``J=R6``, ``J=6``)."""
    if face.is_joker:
        return Text("J" if role is None else f"J={role}", style=f"bold {JOKER_COLOUR}")
    return Text(
        f"{COLOUR_LETTERS[face.colour]}{face.number}", style=f"bold {FACE_COLOURS[face.colour]}"
    )


def set_roles(meld: Meld) -> list[Tile | int | None]:
    """What each die of a set on the table stands for: ``None`` for a real face, the tile a
    joker replaces in a run, the number in a group."""
    try:
        return read_meld(meld).roles()
    except IllegalPlayError:
        return [None] * len(meld.tiles)


class TableView(Widget):
    """The sets on the table, flowing in lines (a set is never split over two lines), each
    numbered and between bars as the tile game's melds are."""

    DEFAULT_CSS = """
    TableView { height: auto; }
    """

    GAP = 3

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.melds: list[Meld] = []
        self.empty_note = ""

    def show(self, melds: Sequence[Meld], empty_note: str) -> None:
        self.melds = list(melds)
        self.empty_note = empty_note
        self.refresh(layout=True)

    def lines(self, width: int) -> list[Text]:
        if not self.melds:
            return [Text(self.empty_note, Style(italic=True, color="#9e9e9e"))]
        face = Style(bgcolor="#f7f2e4")
        bar = Style(color="#8a8a8a")
        out: list[Text] = [Text()]
        for number, meld in enumerate(self.melds, 1):
            # as the tile game's table: each set numbered and closed by bars, ``1│ R1 R2 R3 │``
            block = Text(f"{number:>2}", Style(bold=True, color="#bdbdbd"))
            block.append("│", bar)
            ordered = read_meld_tiles(meld)
            for k, (tile, role) in enumerate(zip(ordered.tiles, set_roles(ordered), strict=True)):
                if k:
                    block.append(" ")
                cell = Text(" ") + render_face(tile, role) + Text(" ")
                cell.stylize(face)
                block.append_text(cell)
            block.append("│", bar)
            line = out[-1]
            if len(line) and len(line) + self.GAP + len(block) > max(width, 10):
                out.append(Text())
                line = out[-1]
            elif len(line):
                line.append(" " * self.GAP)
            line.append_text(block)
        return out

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Text:
        return Text("\n").join(self.lines(self.size.width))


def read_meld_tiles(meld: Meld) -> Meld:
    """The set in its reading order (runs ascending, jokers where they stand)."""
    try:
        return read_meld(meld).meld
    except IllegalPlayError:
        return meld


def faces_text(dice: Sequence[DieFace]) -> str:
    return " ".join(str(d.face) for d in dice) or "-"


class DieWidget(Static):
    """One die: a bordered square with its face; a die of the player's hand can be selected."""

    DEFAULT_CSS = """
    DieWidget {
        width: 5;
        height: 3;
        border: round #8a8a8a;
        background: #f7f2e4;
        content-align: center middle;
        text-align: center;
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


class _Found(Message):
    """An action found on a thread for the state ``before``."""

    def __init__(self, before: XpressState, action: XpressAction) -> None:
        super().__init__()
        self.before = before
        self.action = action


class HintFound(_Found):
    """The hint's action."""


class BotDecided(_Found):
    """The bot's action."""


class TurnJudged(Message):
    """The analysis of turn ``key`` (round, turn) of a replay, made on a thread."""

    def __init__(self, key: tuple[int, int], judged: TurnAnalysis | None) -> None:
        super().__init__()
        self.key = key
        self.judged = judged


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
    #: As in the main game, no command palette: every action has its key in the footer.
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #status { height: auto; padding: 0 1; }
    #body { height: 1fr; }
    #left { width: 1fr; }
    #log { width: 30%; min-width: 26; max-width: 60; border-left: solid $primary 40%; }
    .caption { padding: 0 1; color: $text-muted; }
    .dice-row { height: 3; padding: 0 1; }
    #table { height: 1fr; border: round $primary 40%; padding: 0 1; }
    #message { height: auto; padding: 0 1; background: $boost; }
    #keys { dock: bottom; height: auto; padding: 0 1; color: #a5d6a7; background: #142c20; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "throw", "Throw"),
        Binding("p", "place", "Place"),
        Binding("h", "hint", "Hint"),
        Binding("e", "end_turn", "End turn"),
        Binding("n", "next_round", "Next round"),
        Binding("a", "select_all", "All", show=False),
        Binding("c", "clear", "Clear", show=False),
        Binding("right,space", "step(1)", "Next step", key_display="→"),
        Binding("left", "step(-1)", "Back", key_display="←"),
        Binding("v", "analysis", "Analysis"),
        Binding("q", "quit", "Quit"),
        *[Binding(str(k), f"pick({k})", show=False) for k in range(1, 10)],
    ]
    #: The actions of a game being played (hidden and off in the replay viewer).
    PLAY_ACTIONS = frozenset(
        {"throw", "place", "hint", "end_turn", "next_round", "select_all", "clear", "pick"}
    )

    def __init__(self, *, lang: str = "en") -> None:
        super().__init__()
        self.lang = lang
        self.translate: Translator = translator(lang)
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
        self.logged: list[str] = []  # the lines of the log, as written
        self.analysing = False  # the replay shows each turn's verdict (V)
        self._judged: dict[tuple[int, int], TurnAnalysis | None] = {}
        self._judging: set[tuple[int, int]] = set()  # turns being judged on a thread
        self.resumed = False  # a saved match gone on with (for_resume)
        self._bot_timer: Timer | None = None  # the bot's next action, waiting for ``delay``
        self._bot_thinking = False  # the bot decides on a thread
        self.hinting = False  # a hint is being looked for, on a thread

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
    def for_resume(
        cls,
        match: XpressMatch,
        *,
        lang: str = "en",
        save: Path | None = None,
        delay: float = 0.4,
        bot_seconds: float = 1.0,
    ) -> XpressApp:
        """Go on with a saved match (:func:`~rummikub.xpress.load_xpress_match`): the person
        at the keyboard takes the record's human seat, the record's bot level plays the other
        (a record of two people or two bots is refused with a :class:`RecordError`)."""
        humans = [i for i, p in enumerate(match.players) if p.kind == "human"]
        if len(humans) != 1:
            raise RecordError(
                f"a game against a bot has one person and one bot; this record has "
                f"{len(humans)} {'person' if len(humans) == 1 else 'people'}"
            )
        human = humans[0]
        level = match.players[1 - human].bot or match.players[1 - human].name
        app = cls(lang=lang)
        # the bot's own choices are seeded by the match and the round it resumes in
        app.bot = get_bot(level, match.seed + len(match.rounds))
        if isinstance(app.bot, ExpertBot):
            app.bot.max_seconds = bot_seconds
        app.match = match
        app.human = human
        app.save = save
        app.delay = delay
        app.resumed = True
        return app

    @classmethod
    def for_replay(cls, record: XpressRecord, *, lang: str = "en") -> XpressApp:
        app = cls(lang=lang)
        app.record = record
        app.steps = list(replay_xpress(record))
        return app

    def t(self, key: str, *, you: bool = False, **values: object) -> str:
        return self.translate(key, you=you, **values)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Play keys only when playing, step keys only in the replay viewer (the footer
        shows only the keys that do something)."""
        if action in self.PLAY_ACTIONS:
            return self.match is not None
        if action in ("step", "analysis"):
            return self.record is not None
        return True

    def log_line(self, line: str) -> None:
        """Add a line to the game log on the right."""
        if line:
            self.logged.append(line)
            self.query_one("#log", RichLog).write(line)

    # -- layout --------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="status")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield Label("", id="other-caption", classes="caption")
                yield Horizontal(id="other", classes="dice-row")
                with VerticalScroll(id="table") as box:
                    box.border_title = self.t("xpress.tui.table")
                    yield TableView(id="sets")
                yield Label("", id="hand-caption", classes="caption")
                yield Horizontal(id="hand", classes="dice-row")
                yield Static(id="message")
            log = RichLog(id="log", wrap=True, markup=False, min_width=20)
            log.border_title = self.t("xpress.tui.log")
            yield log
        # the keys in the interface's language, the dice keys (1-9, a, c) with them, as the
        # tile game's key line (Textual's footer would show the bindings' English names)
        keys = "xpress.tui.keys" if self.match is not None else "xpress.tui.replay_keys"
        yield Static(self.t(keys), id="keys")

    async def on_mount(self) -> None:
        self.title = self.t("xpress.tui.title")
        if self.match is not None:
            self.message = self._prompt()
            if self.resumed:
                self.log_line(self.t("xpress.tui.resumed", round=len(self.match.rounds)))
            await self.refresh_view()
            self._schedule_bot()
        else:
            self.message = self.t("xpress.tui.replay_ready")
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
        idle = ", ".join(f"{n} {i}" for n, i in zip(v.names, v.state.idle, strict=True))
        status = "  ".join(
            [
                self.t("xpress.tui.round", round=v.round, rounds=rules.rounds),
                self.t("xpress.tui.scores", scores=scores),
                self.t("xpress.tui.idle", idle=idle, limit=rules.block_throws),
            ]
        )
        self.query_one("#status", Static).update(status)
        self.query_one("#other-caption", Label).update(
            self.t("xpress.tui.their_dice", name=v.names[other])
        )
        self.query_one("#hand-caption", Label).update(
            self.t("xpress.tui.your_dice") if self.match is not None else v.names[me]
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
        self.query_one("#sets", TableView).show(
            v.state.table.melds, self.t("xpress.tui.empty_table")
        )
        self.query_one("#message", Static).update(self.message)

    def _prompt(self) -> str:
        m = self.match
        if m is None:
            return ""
        s = m.state
        if s.end is not None:
            return self._round_result()
        if s.current != self.human:
            return self.t("xpress.tui.bot_turn", name=m.players[s.current].name)
        if s.phase == "throw":
            return self.t("xpress.tui.your_turn_throw")
        if s.placed:
            return self.t("xpress.tui.placed_end", count=s.placed)
        return self.t("xpress.tui.must_place") if s.can_place else self.t("xpress.tui.nothing")

    def _round_result(self) -> str:
        m = self.match
        assert m is not None and m.state.end is not None
        end = m.state.end
        rnd = len(m.rounds)
        if end.winner is None:
            line = self.t("xpress.tui.round_draw", round=rnd)
        else:
            line = self.t(
                "xpress.tui.round_won",
                round=rnd,
                name=m.players[end.winner].name,
                count=end.scores[end.winner],
                reason=self.t(f"xpress.tui.reason_{end.reason}"),
                you=end.winner == self.human,
            )
        if m.over:
            winners = m.winners
            result = (
                self.t("xpress.tui.draw")
                if len(winners) > 1
                else self.t(
                    "xpress.tui.winner",
                    name=m.players[winners[0]].name,
                    you=winners[0] == self.human,
                )
            )
            return f"{line}\n{self.t('xpress.tui.match_over', result=result)}"
        return f"{line}\n{self.t('xpress.tui.next_round')}"

    # -- playing -------------------------------------------------------------------------
    def _my_turn(self) -> bool:
        m = self.match
        return m is not None and m.state.end is None and m.state.current == self.human

    async def _act(self, action: XpressAction, note: str = "", *, logged: bool = False) -> bool:
        """Carry out ``action``; ``logged``: write ``note`` to the log (before a round end)."""
        m = self.match
        assert m is not None
        try:
            m.act(action)
        except RummikubError as exc:
            self.message = self.t("xpress.tui.illegal", reason=self.translate.error(exc))
            await self.refresh_view()
            return False
        self.selected.clear()
        self.message = "\n".join(x for x in (note, self._prompt()) if x)
        if logged:
            self.log_line(note)
        if m.state.end is not None:
            self.log_line(self._round_result().split("\n")[0])
        self.write_save()
        await self.refresh_view()
        return True

    def write_save(self) -> None:
        """Write the match to ``--save`` (atomically) after every action, so that ``rummikub
        xpress play --resume`` goes on from the last one whenever the app is left."""
        if self.match is not None and self.save is not None:
            write_xpress(self.match, self.save)

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
            line = self.t(
                "xpress.tui.threw", name=m.players[self.human].name, faces=faces_text(thrown)
            )
            self.log_line(line)
            self.message = line + "\n" + self._prompt()
            await self.refresh_view()

    async def action_place(self) -> None:
        m = self.match
        if m is None or not self._my_turn():
            return
        chosen = [d for d in m.state.hand if d.die in self.selected]
        if not chosen:
            self.message = self.t("xpress.tui.select_first")
            await self.refresh_view()
            return
        table = arrange_onto(
            m.state.table, [d.face for d in chosen], new_set=m.rules.freed_joker_new_set
        )
        if table is None:
            self.message = self.t("xpress.tui.cannot_place", faces=faces_text(chosen))
            await self.refresh_view()
            return
        line = self.t(
            "xpress.tui.placed", name=m.players[self.human].name, faces=faces_text(chosen)
        )
        await self._act(Place(tuple(d.die for d in chosen), table), line, logged=True)
        self._schedule_bot()

    async def action_hint(self) -> None:
        m = self.match
        if m is None or not self._my_turn() or m.state.phase != "place" or self.hinting:
            return
        self.hinting = True
        self.message = self.t("game.hint_looking")
        await self.refresh_view()
        self._find_hint(m.state, m.observation(self.human))

    @work(thread=True, group="hint")
    def _find_hint(self, before: XpressState, obs: XpressObservation) -> None:
        """The hint's search (up to a second) on a thread, as the bot's decisions."""
        self.post_message(HintFound(before, hint(XPRESS, obs, 1.0)))

    async def on_hint_found(self, message: HintFound) -> None:
        """Select the dice of the hint's placement (if the position is still the one asked
        about); ``hinting`` until shown."""
        try:
            m = self.match
            if m is None or m.state is not message.before:
                return
            action = message.action
            if not isinstance(action, Place):
                self.message = self.t("xpress.tui.no_hint")
            else:
                self.selected = set(action.dice)
                faces = [d.face for d in m.state.hand if d.die in self.selected]
                self.message = self.t("xpress.tui.hint", faces=" ".join(str(f) for f in faces))
            await self.refresh_view()
        finally:
            self.hinting = False

    async def action_end_turn(self) -> None:
        m = self.match
        if m is None or not self._my_turn():
            return
        name = m.players[self.human].name
        line = self.t(
            "xpress.tui.passes" if m.state.placed == 0 else "xpress.tui.ends_turn", name=name
        )
        if await self._act(EndTurn(), line, logged=True):
            self._schedule_bot()

    async def action_next_round(self) -> None:
        m = self.match
        if m is None or m.state.end is None or m.over:
            return
        m.next_round()
        self.write_save()
        self.message = self._prompt()
        await self.refresh_view()
        self._schedule_bot()

    def _schedule_bot(self) -> None:
        """Start the bot's next action, after ``delay``, when it is the bot's turn and none is
        under way. The timer is kept (an asyncio task only weakly held can be lost with its
        step), and the decision is made on a thread (:meth:`_think`)."""
        if self._bot_to_move() and self._bot_timer is None and not self._bot_thinking:
            self._bot_timer = self.set_timer(max(self.delay, 0.001), self._start_bot)

    def _bot_to_move(self) -> bool:
        m = self.match
        return (
            m is not None
            and self.bot is not None
            and m.state.end is None
            and m.state.current != self.human
        )

    def _start_bot(self) -> None:
        self._bot_timer = None
        m = self.match
        if m is None or self.bot is None or not self._bot_to_move():
            return
        self._bot_thinking = True
        self._think(self.bot, m.state, m.observation(m.state.current))

    @work(thread=True, group="bot")
    def _think(self, bot: XpressBot, before: XpressState, obs: XpressObservation) -> None:
        """The bot's decision on a thread (the expert thinks up to its time limit while the
        interface stays live); the action comes back as a message, handled in turn with the
        keys (:meth:`on_bot_decided`)."""
        self.post_message(BotDecided(before, bot.act(obs, None)))

    async def on_bot_decided(self, message: BotDecided) -> None:
        """Carry out the bot's action and log it; then the bot's next, while it is its turn."""
        self._bot_thinking = False
        m = self.match
        if m is None or m.state is not message.before:  # the match went on without it
            self._schedule_bot()
            return
        action = message.action
        before = message.before
        seat = before.current
        name = m.players[seat].name
        if isinstance(action, Throw):
            note = self.t("xpress.tui.threw", name=name, faces="")
        elif isinstance(action, Place):
            placed = tuple(d for d in before.hand if d.die in set(action.dice))
            note = self.t("xpress.tui.placed", name=name, faces=faces_text(placed))
        else:
            note = self.t(
                "xpress.tui.passes" if before.placed == 0 else "xpress.tui.ends_turn", name=name
            )
        throw = isinstance(action, Throw)
        ok = await self._act(action, note, logged=not throw)
        if ok and isinstance(action, Throw):
            thrown = tuple(d for d in m.state.hands[seat] if d.die in set(action.dice))
            note = self.t("xpress.tui.threw", name=name, faces=faces_text(thrown))
            self.log_line(note)
            self.message = note
            await self.refresh_view()
        if not ok:  # a bot never should; end its turn rather than loop
            await self._act(EndTurn())
        self._schedule_bot()

    # -- replaying -----------------------------------------------------------------------
    def step_text(self, index: int) -> str:
        """What step ``index`` of the replay did (-1: the start), in words."""
        assert self.record is not None
        if index < 0:
            what = self.t("xpress.tui.replay_start", round=1)
        else:
            step = self.steps[index]
            names = [p.name for p in self.record.players]
            who = names[step.before.current]
            a = step.action
            if isinstance(a, Throw):
                what = self.t(
                    "xpress.tui.threw", name=who, faces=" ".join(str(f) for f in a.faces or ())
                )
            elif isinstance(a, Place):
                placed = tuple(d for d in step.before.hand if d.die in set(a.dice))
                what = self.t("xpress.tui.placed", name=who, faces=faces_text(placed))
            elif step.before.placed == 0:
                what = self.t("xpress.tui.passes", name=who)
            else:
                what = self.t("xpress.tui.ends_turn", name=who)
            if step.after.end is not None:
                end = step.after.end
                what += " — " + (
                    self.t("xpress.tui.round_draw", round=step.round + 1)
                    if end.winner is None
                    else self.t(
                        "xpress.tui.round_won",
                        round=step.round + 1,
                        name=names[end.winner],
                        count=end.scores[end.winner],
                        reason=self.t(f"xpress.tui.reason_{end.reason}"),
                    )
                )
        return what

    async def action_step(self, delta: int) -> None:
        if self.record is None or not self.steps:
            return
        self.step_index = max(-1, min(len(self.steps) - 1, self.step_index + delta))
        what = self.step_text(self.step_index)
        # the log shows every step so far, as it does while playing
        self.logged = []
        self.query_one("#log", RichLog).clear()
        for index in range(self.step_index + 1):
            self.log_line(self.step_text(index))
        self.message = self.t(
            "xpress.tui.replay_step", step=self.step_index + 1, steps=len(self.steps), what=what
        )
        if self.analysing and self.step_index >= 0:
            step = self.steps[self.step_index]
            key = (step.round, step.turn)
            if key in self._judged:
                self.message += "\n" + self.verdict_text(step)
            else:  # judged on a thread (the first takes the playouts' loading too)
                self.message += "\n" + self.t("replay.judging")
                if key not in self._judging:
                    self._judging.add(key)
                    self._judge(key)
        await self.refresh_view()

    def judged(self, ri: int, ti: int) -> TurnAnalysis | None:
        """The analysis of turn ``ti`` of round ``ri`` (judged once, when first needed)."""
        if (ri, ti) not in self._judged:
            self._judged[ri, ti] = self._judgement(ri, ti)
        return self._judged[ri, ti]

    def _judgement(self, ri: int, ti: int) -> TurnAnalysis | None:
        """Turn ``ti`` of round ``ri`` judged as ``rummikub analyse`` judges it (no time
        limit: the same judgement on every machine)."""
        assert self.record is not None
        steps = [s for s in self.steps if (s.round, s.turn) == (ri, ti)]
        ms = self.record.rounds[ri].turns[ti].ms
        totals = [0] * self.record.rules.players
        for rd in self.record.rounds[:ri]:  # the match's standing before the round
            if rd.end is not None:
                totals = [a + b for a, b in zip(totals, rd.end.scores, strict=True)]
        return judge_xpress_steps(steps, ms=ms, scores=tuple(totals))

    @work(thread=True, group="judge")
    def _judge(self, key: tuple[int, int]) -> None:
        """A turn's verdict found on a thread (tens of milliseconds a turn, the first about a
        second), so that stepping through the replay never waits for it."""
        self.post_message(TurnJudged(key, self._judgement(*key)))

    async def on_turn_judged(self, message: TurnJudged) -> None:
        """Keep the verdict; show it if its turn is still the one shown."""
        self._judging.discard(message.key)
        self._judged[message.key] = message.judged
        if not self.analysing or self.step_index < 0 or not self.is_running:
            return
        step = self.steps[self.step_index]
        if (step.round, step.turn) == message.key:
            await self.action_step(0)

    def verdict_text(self, step: XpressStep) -> str:
        """The verdict of the turn ``step`` belongs to, its findings and what was better."""
        judged = self.judged(step.round, step.turn)
        if judged is None:
            return ""
        verdict = self.t("verdict." + judged.verdict)
        if judged.win_chance is not None and judged.loss is not None:
            before, after = judged.win_chance
            parts = [
                self.t("replay.verdict_chance", verdict=verdict,
                       before=self.translate.percent(before), after=self.translate.percent(after),
                       loss=self.translate.decimal(judged.loss))
            ]  # fmt: skip
        else:
            parts = [self.t("replay.verdict", verdict=verdict, lost=judged.lost)]
        parts += [self.t(f"finding.{f}") for f in judged.findings]
        thrown = judged.throw.loss if judged.throw is not None else 0.0
        placing = (judged.loss or 0.0) - thrown  # the placement's part of the turn's loss
        if placing > THRESHOLDS["best"]:
            if judged.best is not None:
                shown = " ".join(judged.best_pieces)
                parts.append(self.t("replay.better", tiles=shown, points=judged.best_points))
            else:
                parts.append(self.t("replay.better_end"))
        throw = judged.throw
        if throw is not None and thrown > THRESHOLDS["best"] and throw.kept != throw.best_kept:
            kept = " ".join(throw.best_kept) or self.t("replay.keep_nothing")
            parts.append(
                self.t(
                    "replay.better_throw_chance", tiles=kept, loss=self.translate.decimal(thrown)
                )
            )
        return " · ".join(parts)

    async def action_analysis(self) -> None:
        """Show (or hide) the verdict of each turn in the replay."""
        self.analysing = not self.analysing
        await self.action_step(0)
