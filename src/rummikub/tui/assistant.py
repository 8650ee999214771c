"""The assistant at a real table, in the terminal (``rummikub assist``): type the table and the
rack, press Enter, and see the best play laid out as the new table — tiles from the rack green
and marked ``*``, tiles moved from another set blue and marked ``~`` — with one page per view
(most tiles, most value, fewest changes, keeping the joker). ``Ctrl+T`` takes the new table as
the next position (the placed tiles leave the rack), so the next turn needs only the rack
edited."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Checkbox, Input, Label, Static

from rummikub.core import Rack, Role, Rules, RummikubError, parse_tile, preset
from rummikub.i18n import Translator, translator
from rummikub.solver.assistant import Alternative, alternatives, read_position

from .tiles import TileLook, tile_text

__all__ = ["AssistantApp", "alternative_text"]

#: the mark a tile carries in plain text (no colour): from the rack, moved, stays
MARKS = {"rack": "*", "moved": "~", "kept": ""}


def _role(label: str) -> Role | None:
    """What a joker's label says it stands for: ``J=R6`` -> R6, ``J=7`` -> 7."""
    role = label.partition("=")[2]
    if not role:
        return None
    return int(role) if role.isdigit() else parse_tile(role)


def alternative_text(t: Translator, alt: Alternative) -> Text:
    """One alternative: the views it is best under, what it places, and the new table with each
    tile drawn as it is marked."""
    views = " · ".join(t(f"assist.view.{v}") for v in alt.views)
    tiles = " ".join(str(x) for x in alt.play)
    out = Text()
    out.append(f"{views}\n", style="bold")
    out.append(
        t("assist.summary", count=len(alt.play), tiles=tiles, value=alt.value, changes=alt.changes)
    )
    out.append("\n\n")
    for meld in alt.table:
        for x in meld:
            look = TileLook(fresh=x.mark == "rack", moved=x.mark == "moved")
            out.append_text(tile_text(x.tile, _role(x.label), look))
            out.append(MARKS[x.mark] or " ")
        out.append("\n")
    out.append("\n")
    out.append(f"* {t('assist.mark.rack')}   ~ {t('assist.mark.moved')}", style="italic #a5d6a7")
    return out


class AssistantApp(App[None]):
    """The assistant's one screen. ``table``/``rack``: the position to start from."""

    TITLE = "Rummikub"
    ENABLE_COMMAND_PALETTE = False
    # The form takes three rows (a label and a one-line field a row, the checkbox), so the
    # answer gets the rest of even an 80x24 terminal; a long answer scrolls in its box, and
    # the key line stays at the bottom.
    CSS = """
    Screen { background: #1b3a2b; }
    #form { height: auto; padding: 0 1; }
    #form .row { height: 1; margin-bottom: 1; }
    #form Label { color: #e0e0e0; width: 26; }
    #form Input { width: 1fr; }
    #form Checkbox { height: 1; }
    #form Input:focus, #form Checkbox:focus { background: #2e7d32; }
    #result-box { height: 1fr; background: #1f4a34; border: round #4c8a66; padding: 0 1; }
    #result { height: auto; }
    #keys { dock: bottom; height: auto; padding: 0 1; color: #a5d6a7; background: #142c20; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "solve", show=False),
        Binding("pagedown,ctrl+n", "step(1)", show=False),
        Binding("pageup,ctrl+b", "step(-1)", show=False),
        Binding("ctrl+t", "play_it", show=False),
        Binding("escape,ctrl+q", "quit", show=False),
    ]

    def __init__(
        self,
        *,
        table: str = "",
        rack: str = "",
        opened: bool = True,
        rules: Rules | None = None,
        lang: str | None = None,
    ) -> None:
        super().__init__()
        self.t = translator(lang)
        self.start_table = table
        self.start_rack = rack
        self.start_opened = opened
        self.rules = rules or preset("standard")
        self.found: list[Alternative] = []
        self.shown = 0
        self.asked = False

    def compose(self) -> ComposeResult:
        t = self.t
        yield Static(t("assist.keys"), id="keys")
        with Vertical(id="form"):
            for field, start in (("table", self.start_table), ("rack", self.start_rack)):
                with Horizontal(classes="row"):
                    yield Label(t(f"assist.{field}"))
                    yield Input(
                        start, placeholder=t(f"assist.{field}_placeholder"), id=field, compact=True
                    )
            yield Checkbox(t("assist.opened"), self.start_opened, id="opened", compact=True)
        with VerticalScroll(id="result-box"):
            yield Static(t("assist.intro"), id="result")

    def on_mount(self) -> None:
        self.title = self.t("assist.title")
        self.query_one("#rack" if self.start_table else "#table", Input).focus()
        if self.start_rack:
            self.action_solve()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_solve()

    def _result(self, content: Text | str) -> None:
        self.query_one("#result", Static).update(content)

    def action_solve(self) -> None:
        t = self.t
        table_text = self.query_one("#table", Input).value
        rack_text = self.query_one("#rack", Input).value
        opened = self.query_one("#opened", Checkbox).value
        try:
            table, rack = read_position(table_text, rack_text, self.rules)
            self.found = alternatives(table, rack, opened=opened, rules=self.rules)
        except RummikubError as exc:
            self.found = []
            token = exc.params.get("token")
            message = t.coded(exc.code, exc.params) + (f" ({token})" if token else "")
            self._result(Text(message, style="bold #ff8a80"))
            return
        self.asked = True
        self.shown = 0
        self._draw()

    def _draw(self) -> None:
        t = self.t
        if not self.found:
            opened = self.query_one("#opened", Checkbox).value
            self._result(t("assist.nothing") if opened else t("assist.no_opening"))
            return
        alt = self.found[self.shown]
        head = Text(f"{self.shown + 1}/{len(self.found)}  ", style="#a5d6a7")
        head.append_text(alternative_text(t, alt))
        self._result(head)

    def action_step(self, by: int) -> None:
        if self.found:
            self.shown = (self.shown + by) % len(self.found)
            self._draw()

    def action_play_it(self) -> None:
        """The alternative shown becomes the position: its table, the rack without its tiles."""
        if not self.found:
            return
        alt = self.found[self.shown]
        rack_input = self.query_one("#rack", Input)
        left = list(Rack.parse(rack_input.value.upper()).tiles)
        for tile in alt.play:
            left.remove(tile)
        self.query_one("#table", Input).value = " | ".join(
            " ".join(x.label for x in meld) for meld in alt.table
        )
        rack_input.value = " ".join(str(x) for x in left)
        self.query_one("#opened", Checkbox).value = True
        self.found = []
        self._result(self.t("assist.intro"))
        rack_input.focus()
