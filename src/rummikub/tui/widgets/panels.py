"""Side panels: the turn timer, the players (rack sizes, opened, scores) and the game log."""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from rich.table import Table as RichTable
from rich.text import Text
from textual.events import Resize
from textual.widgets import RichLog, Static

from rummikub.core import Observation, PlayerInfo

__all__ = ["GameLog", "PlayersPanel", "TurnTimer"]

Translate = Callable[..., str]


def format_seconds(seconds: float) -> str:
    whole = max(0, int(seconds + 0.999))  # 0.2 s left still shows 0:01
    return f"{whole // 60}:{whole % 60:02d}"


class TurnTimer(Static):
    """The time left in the turn; turns orange under 20 s and red under 10 s."""

    def __init__(self, t: Translate, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.t = t

    def show_time(self, left: float | None, *, running: bool = True) -> None:
        if left is None:
            self.update(Text(self.t("timer.off"), Style(color="#9e9e9e")))
            return
        colour = "#66bb6a"
        if left < 20:
            colour = "#ffa726"
        if left < 10:
            colour = "#ef5350"
        label = self.t("timer.left", time=format_seconds(left))
        if not running:
            label = self.t("timer.paused", time=format_seconds(left))
        self.update(Text(f"⏱ {label}", Style(color=colour, bold=True)))


class PlayersPanel(Static):
    """Who plays, whose turn it is, rack sizes, who has opened, and the match scores."""

    def __init__(self, t: Translate, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.t = t

    def show_players(
        self, players: tuple[PlayerInfo, ...], obs: Observation, *, round_over: bool = False
    ) -> None:
        grid = RichTable.grid(padding=(0, 1), expand=True)
        grid.add_column(width=1)
        grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        grid.add_column(justify="right", no_wrap=True)
        grid.add_column(width=1)
        grid.add_column(justify="right")
        for i, p in enumerate(players):
            mark = "▶" if obs.current == i and not round_over else " "
            name = Text(p.name, Style(bold=obs.current == i))
            if p.kind == "bot":
                name.append(f" ({p.bot})", Style(color="#9e9e9e"))
            opened = "✓" if obs.opened[i] else "·"
            grid.add_row(
                mark,
                name,
                self.t("players.tiles", count=obs.rack_sizes[i]),
                opened,
                f"{obs.scores[i]:+d}",
            )
        pool = Text(self.t("players.pool", count=obs.pool_size), Style(color="#9e9e9e"))
        legend = Text(self.t("players.legend"), Style(color="#757575", italic=True))
        out = RichTable.grid()
        out.add_row(grid)
        out.add_row(pool)
        out.add_row(legend)
        self.update(out)


class GameLog(RichLog):
    """What happened, one line per turn (wrapped again when the panel changes width)."""

    DEFAULT_CSS = """
    GameLog { overflow-x: hidden; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, auto_scroll=True, min_width=20)
        self.entries: list[str] = []
        self._wrapped_at = -1

    def add(self, line: str) -> None:
        """Append a line to the log."""
        self.entries.append(line)
        self.write(line)

    def on_resize(self, event: Resize) -> None:
        first = not self._size_known
        super().on_resize(event)
        width = self.scrollable_content_region.width
        if first:
            self._wrapped_at = width
        if width != self._wrapped_at and self.entries:
            self._wrapped_at = width
            self.clear()
            for line in self.entries:
                self.write(line)
