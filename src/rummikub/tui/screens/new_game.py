"""The new-game screen: seats (people or bots of a level), rules preset and its options,
match length, seed, hints."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from rummikub.core import PRESETS, RulesError, preset

from ..session import GameSetup, Seat, bot_levels, build_rules

__all__ = ["NewGameScreen"]

MAX_SEATS = 6
W = TypeVar("W", bound=Widget)
HUMAN = "human"


def _compact(cls: Callable[..., W], *args: Any, **kwargs: Any) -> W:
    """The widget in its one-line ("compact") form, so the whole form fits a terminal."""
    return cls(*args, compact=True, **kwargs)


class NewGameScreen(Screen[GameSetup]):
    """Fill in the form and press Start (or Enter on the last field); dismisses with the
    :class:`GameSetup`."""

    BINDINGS = [Binding("ctrl+n", "start", show=False)]  # noqa: RUF012

    def __init__(self, *, seed: int | None = None, players: int = 4) -> None:
        super().__init__()
        self.seed = seed
        self.players = players

    @property
    def t(self):  # type: ignore[no-untyped-def]
        from ..app import RummikubApp

        app = self.app
        assert isinstance(app, RummikubApp)
        return app.t

    def compose(self) -> ComposeResult:
        t = self.t
        levels = bot_levels()
        default_level = "greedy" if "greedy" in levels else levels[0]
        kinds: list[tuple[str, str]] = [(t("setup.person"), HUMAN)] + [
            (t("setup.bot", level=lv), lv) for lv in levels
        ]
        with VerticalScroll(id="setup"):
            yield Static(t("setup.title"), id="setup-title")
            with Horizontal(classes="row"):
                yield Label(t("setup.players"), classes="label")
                yield _compact(
                    Select,
                    [(str(n), n) for n in range(2, 5)],
                    value=self.players,
                    allow_blank=False,
                    id="players",
                )
            for i in range(MAX_SEATS):
                with Horizontal(classes="row seat", id=f"seat-{i}"):
                    yield Label(t("setup.seat", n=i + 1), classes="label")
                    name = t("setup.you") if i == 0 else t("setup.bot_name", n=i + 1)
                    yield _compact(Input, name, id=f"name-{i}", classes="name")
                    yield _compact(
                        Select,
                        kinds,
                        value=HUMAN if i == 0 else default_level,
                        allow_blank=False,
                        id=f"kind-{i}",
                    )
            with Horizontal(classes="row"):
                yield Label(t("setup.rules"), classes="label")
                yield _compact(
                    Select,
                    [(name, name) for name in PRESETS],
                    value="standard",
                    allow_blank=False,
                    id="preset",
                )
            with Horizontal(classes="row"):
                yield Label(t("setup.time"), classes="label")
                yield _compact(Input, "120", id="time", type="integer")
            with Horizontal(classes="row"):
                yield Label(t("setup.joker_rule"), classes="label")
                yield _compact(
                    Select,
                    [(t("setup.joker_free"), "free"), (t("setup.joker_strict"), "strict")],
                    value="free",
                    allow_blank=False,
                    id="joker",
                )
            with Horizontal(classes="row"):
                yield Label(t("setup.opening"), classes="label")
                yield _compact(Input, "30", id="opening", type="integer")
            with Horizontal(classes="row"):
                yield Label(t("setup.rounds"), classes="label")
                yield _compact(Input, "1", id="rounds", type="integer")
            with Horizontal(classes="row"):
                yield Label(t("setup.target"), classes="label")
                yield _compact(Input, "", id="target", type="integer", placeholder=t("setup.none"))
            with Horizontal(classes="row"):
                yield Label(t("setup.seed"), classes="label")
                yield _compact(
                    Input,
                    "" if self.seed is None else str(self.seed),
                    id="seed",
                    type="integer",
                    placeholder=t("setup.random"),
                )
            with Horizontal(classes="row"):
                yield Label(t("setup.hints"), classes="label")
                yield _compact(Checkbox, t("setup.hints_on"), True, id="hints")
            yield Static("", id="setup-error")
            with Horizontal(id="setup-buttons"):
                yield _compact(Button, t("button.start"), id="start", variant="success")
                yield _compact(Button, t("button.quit"), id="quit", variant="error")

    def on_mount(self) -> None:
        self._show_seats()
        self.query_one("#start", Button).focus()

    def _count(self) -> int:
        value = self.query_one("#players", Select).value
        return value if isinstance(value, int) else 2

    def _show_seats(self) -> None:
        count = self._count()
        for i in range(MAX_SEATS):
            self.query_one(f"#seat-{i}").display = i < count

    @on(Select.Changed, "#players")
    def players_changed(self) -> None:
        self._show_seats()

    @on(Select.Changed, "#preset")
    def preset_changed(self, event: Select.Changed) -> None:
        rules = preset(str(event.value))
        self.query_one("#time", Input).value = str(rules.turn_seconds or 0)
        self.query_one("#joker", Select).value = rules.joker_rule
        self.query_one("#opening", Input).value = str(rules.opening_value)
        players = self.query_one("#players", Select)
        count = self._count()
        players.set_options([(str(n), n) for n in range(rules.min_players, rules.max_players + 1)])
        players.value = max(rules.min_players, min(count, rules.max_players))
        self._show_seats()

    def _int(self, widget_id: str, label: str, *, blank: int | None = None) -> int | None:
        text = self.query_one(f"#{widget_id}", Input).value.strip()
        if not text:
            return blank
        try:
            return int(text)
        except ValueError:
            raise RulesError(self.t("setup.bad_number", field=self.t(label))) from None

    def setup(self) -> GameSetup:
        """The setup the form describes (raises :class:`RulesError` with a translated
        message)."""
        t = self.t
        seats = []
        for i in range(self._count()):
            name = self.query_one(f"#name-{i}", Input).value.strip()
            kind = self.query_one(f"#kind-{i}", Select).value
            if not name:
                raise RulesError(t("setup.need_name", n=i + 1))
            if kind == HUMAN:
                seats.append(Seat(name))
            else:
                seats.append(Seat(name, "bot", str(kind)))
        names = [s.name for s in seats]
        if len(set(names)) != len(names):
            raise RulesError(t("setup.same_names"))
        base = preset(str(self.query_one("#preset", Select).value))
        seconds = self._int("time", "setup.time", blank=0)
        joker = str(self.query_one("#joker", Select).value)
        rounds = self._int("rounds", "setup.rounds")
        target = self._int("target", "setup.target")
        turn_seconds: int | Literal["preset"] | None = seconds if seconds else None
        rules = build_rules(
            base,
            turn_seconds=turn_seconds,
            joker_rule=joker,
            opening_value=self._int("opening", "setup.opening"),
            rounds=rounds,
            target=target,
        )
        seed = self._int("seed", "setup.seed")
        setup = GameSetup(tuple(seats), rules, seed, hints=self.query_one("#hints", Checkbox).value)
        setup.check()
        return setup

    def action_start(self) -> None:
        try:
            setup = self.setup()
        except RulesError as exc:
            self.query_one("#setup-error", Static).update(f"✗ {exc}")
            self.app.bell()
            return
        self.dismiss(setup)

    @on(Input.Submitted)
    def submitted(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#start")
    def start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#quit")
    def quit_pressed(self) -> None:
        self.app.exit()
