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

from rummikub.core import PRESETS, Rules, RulesError, RummikubError, preset

from ..host import host_of
from ..session import GameSetup, Seat, bot_levels, build_rules

__all__ = ["NewGameScreen"]

MAX_SEATS = 6
W = TypeVar("W", bound=Widget)
HUMAN = "human"
#: Longest turn time the form accepts (a day, as the engine).
MAX_SECONDS = 24 * 3600
#: The ids of the number fields, in form order, with the key of their label.
NUMBER_FIELDS = {
    "time": "setup.time",
    "opening": "setup.opening",
    "rounds": "setup.rounds",
    "target": "setup.target",
    "seed": "setup.seed",
}


def max_opening(rules: Rules) -> int:
    """The highest opening value the form accepts: what a full rack of the highest number
    is worth (a higher value is a game nobody can open)."""
    return rules.rack_size * rules.numbers


class FormErrors(RummikubError):
    """Everything wrong with the new-game form, one message per line."""

    def __init__(self, messages: list[str], fields: set[str]) -> None:
        self.messages = messages
        self.fields = fields
        super().__init__("\n".join(messages))


def _compact(cls: Callable[..., W], *args: Any, **kwargs: Any) -> W:
    """The widget in its one-line ("compact") form, so the whole form fits a terminal."""
    return cls(*args, compact=True, **kwargs)


class FieldSelect(Select[Any]):
    """A menu of the form: Enter moves to the next field as on every field (Space, ↓ or ↑
    open the menu)."""

    BINDINGS = [Binding("enter", "next_field", show=False)]  # noqa: RUF012

    def action_next_field(self) -> None:
        self.screen.focus_next()


class FieldCheckbox(Checkbox):
    """The form's last field: Space ticks it, Enter starts the game."""

    BINDINGS = [Binding("enter", "screen.start", show=False)]  # noqa: RUF012


class NewGameScreen(Screen[GameSetup]):
    """Fill in the form and press Start (or Enter on the last field, or F5 anywhere);
    dismisses with the :class:`GameSetup`. Quit is not in the Tab order: going backwards from
    the first field must not reach a button that leaves."""

    BINDINGS = [  # noqa: RUF012
        Binding("f5,ctrl+n", "start", show=False, priority=True),
    ]

    def __init__(self, *, seed: int | None = None, players: int = 4) -> None:
        super().__init__()
        self.seed = seed
        self.players = players

    @property
    def t(self):  # type: ignore[no-untyped-def]
        app = host_of(self)
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
                    FieldSelect,
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
                        FieldSelect,
                        kinds,
                        value=HUMAN if i == 0 else default_level,
                        allow_blank=False,
                        id=f"kind-{i}",
                    )
            with Horizontal(classes="row"):
                yield Label(t("setup.rules"), classes="label")
                yield _compact(
                    FieldSelect,
                    [(t(f"preset.{name}"), name) for name in PRESETS],
                    value="standard",
                    allow_blank=False,
                    id="preset",
                )
            yield Static(self.preset_info(preset("standard")), id="preset-info")
            with Horizontal(classes="row"):
                yield Label(t("setup.time"), classes="label")
                yield _compact(Input, "120", id="time")
            with Horizontal(classes="row"):
                yield Label(t("setup.joker_rule"), classes="label")
                yield _compact(
                    FieldSelect,
                    [(t("setup.joker_free"), "free"), (t("setup.joker_strict"), "strict")],
                    value="free",
                    allow_blank=False,
                    id="joker",
                )
            with Horizontal(classes="row"):
                yield Label(t("setup.opening"), classes="label")
                yield _compact(Input, "30", id="opening")
            with Horizontal(classes="row"):
                yield Label(t("setup.rounds"), classes="label")
                yield _compact(Input, "1", id="rounds")
            with Horizontal(classes="row"):
                yield Label(t("setup.target"), classes="label")
                yield _compact(Input, "", id="target", placeholder=t("setup.none"))
            with Horizontal(classes="row"):
                yield Label(t("setup.seed"), classes="label")
                yield _compact(
                    Input,
                    "" if self.seed is None else str(self.seed),
                    id="seed",
                    placeholder=t("setup.random"),
                )
            with Horizontal(classes="row"):
                yield Label(t("setup.hints"), classes="label")
                yield _compact(FieldCheckbox, t("setup.hints_on"), True, id="hints")
        # below the scrolling form, so the errors and Start are always in sight
        yield Static("", id="setup-error")
        with Horizontal(id="setup-buttons"):
            yield _compact(Button, t("setup.start"), id="start", variant="success")
            yield _compact(Button, t("setup.quit"), id="quit", variant="error")
        yield Static(t("setup.keys"), id="setup-keys")

    def on_mount(self) -> None:
        self.query_one("#quit", Button).can_focus = False  # a click or Ctrl+Q
        self._show_seats()
        # the first field, not Start: a stray Enter must not start a game
        self.query_one("#players", Select).focus()

    def preset_info(self, rules: Rules) -> str:
        """What a preset decides beyond the fields of the form (penalties, the tile set)."""
        t = self.t
        invalid = (
            t("setup.invalid.reject")
            if rules.invalid_play == "reject"
            else t("setup.invalid.penalty", count=rules.invalid_penalty)
        )
        return str(
            t(
                "setup.info",
                timeout=rules.timeout_penalty,
                invalid=invalid,
                tiles=rules.tile_count,
                players=rules.max_players,
            )
        )

    @on(Select.Changed, ".seat Select")
    def kind_changed(self, event: Select.Changed) -> None:
        """Keep the default names right: "Bot 2" becomes "Player 2" when the seat becomes a
        person, and "You" makes no sense once two people share the keyboard."""
        self._default_names()

    def _default_names(self) -> None:
        t = self.t
        count = self._count()
        kinds = [self.query_one(f"#kind-{i}", Select).value for i in range(MAX_SEATS)]
        people = sum(1 for k in kinds[:count] if k == HUMAN)
        for i in range(MAX_SEATS):
            name = self.query_one(f"#name-{i}", Input)
            defaults = {
                t("setup.you"),
                t("setup.bot_name", n=i + 1),
                t("setup.player_name", n=i + 1),
            }
            if name.value not in defaults:
                continue  # the player typed a name: keep it
            if kinds[i] != HUMAN:
                name.value = t("setup.bot_name", n=i + 1)
            elif people == 1:
                name.value = t("setup.you")
            else:
                name.value = t("setup.player_name", n=i + 1)

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
        self._default_names()

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
        self.query_one("#preset-info", Static).update(self.preset_info(rules))
        self._show_seats()

    def _number(
        self, widget_id: str, low: int, high: int, errors: list[str], bad: set[str]
    ) -> int | None:
        """The whole number in a field (None when blank); a word or a value out of
        ``low..high`` adds a message to ``errors``."""
        t = self.t
        field = t(NUMBER_FIELDS[widget_id])
        text = self.query_one(f"#{widget_id}", Input).value.strip()
        if not text:
            return None
        try:
            value = int(text)
        except ValueError:
            errors.append(t("setup.bad_number", field=field, value=text))
            bad.add(widget_id)
            return None
        if not low <= value <= high:
            errors.append(t("setup.out_of_range", field=field, value=value, low=low, high=high))
            bad.add(widget_id)
            return None
        return value

    def setup(self) -> GameSetup:
        """The setup the form describes. Raises :class:`FormErrors` listing every problem
        (translated) at once."""
        t = self.t
        errors: list[str] = []
        bad: set[str] = set()
        seats = []
        for i in range(self._count()):
            name = self.query_one(f"#name-{i}", Input).value.strip()
            kind = self.query_one(f"#kind-{i}", Select).value
            if not name:
                errors.append(t("setup.need_name", n=i + 1))
                bad.add(f"name-{i}")
            elif kind == HUMAN:
                seats.append(Seat(name))
            else:
                seats.append(Seat(name, "bot", str(kind)))
        names = [s.name for s in seats]
        if len(set(names)) != len(names):
            errors.append(t("setup.same_names"))
        base = preset(str(self.query_one("#preset", Select).value))
        if not self.query_one("#time", Input).value.strip():
            errors.append(t("setup.time_blank"))
            bad.add("time")
        seconds = self._number("time", 0, MAX_SECONDS, errors, bad)
        opening = self._number("opening", 0, max_opening(base), errors, bad)
        if opening is None and "opening" not in bad:
            errors.append(t("setup.blank", field=t("setup.opening")))
            bad.add("opening")
        rounds = self._number("rounds", 1, 1000, errors, bad)
        target = self._number("target", 1, 1_000_000, errors, bad)
        if rounds is None and target is None and not {"rounds", "target"} & bad:
            errors.append(t("setup.need_length"))
            bad |= {"rounds", "target"}
        seed = self._number("seed", 0, 2**63 - 1, errors, bad)
        for widget_id in [*NUMBER_FIELDS, *(f"name-{i}" for i in range(MAX_SEATS))]:
            self.query_one(f"#{widget_id}", Input).set_class(widget_id in bad, "-invalid")
        if errors:
            raise FormErrors(errors, bad)
        turn_seconds: int | Literal["preset"] | None = seconds if seconds else None
        rules = build_rules(
            base,
            turn_seconds=turn_seconds,
            joker_rule=str(self.query_one("#joker", Select).value),
            opening_value=opening,
            rounds=rounds,
            target=target,
        )
        setup = GameSetup(tuple(seats), rules, seed, hints=self.query_one("#hints", Checkbox).value)
        setup.check()
        return setup

    def action_start(self) -> None:
        try:
            setup = self.setup()
        except FormErrors as exc:
            self.query_one("#setup-error", Static).update("\n".join(f"✗ {m}" for m in exc.messages))
            self.app.bell()
            return
        except RulesError as exc:
            self.query_one("#setup-error", Static).update(f"✗ {self.t.error(exc)}")
            self.app.bell()
            return
        self.dismiss(setup)

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        """Enter moves to the next field; on the last one (the seed) it starts the game."""
        if event.input.id == "seed":
            self.action_start()
        else:
            self.focus_next()

    @on(Button.Pressed, "#start")
    def start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#quit")
    def quit_pressed(self) -> None:
        self.app.exit()
