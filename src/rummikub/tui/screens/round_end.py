"""End of a round: every rack revealed, and the match's score table (every round and the
running totals)."""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from rich.table import Table as RichTable
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Static

from rummikub.core import Match, rack_value

from ..host import host_of
from ..session import Session
from ..tiles import tile_text

__all__ = ["RoundEndScreen", "score_table"]


def score_table(match: Match, t: Callable[..., str]) -> RichTable:
    """Rows: rounds; columns: players; each cell the round's score and the running total."""
    table = RichTable(title=t("end.scores"), title_style="bold", expand=False)
    table.add_column(t("end.round"), justify="right")
    for p in match.players:
        table.add_column(p.name, justify="right")
    running = [0] * len(match.players)
    for i, rd in enumerate(match.rounds):
        if rd.end is None:
            continue
        cells = []
        for k, s in enumerate(rd.end.scores):
            running[k] += s
            cells.append(f"{s:+d} ({running[k]:+d})")
        table.add_row(str(i + 1), *cells)
    best = max(running) if match.rules.scoring != "penalty-points" else min(running)
    table.add_row(
        Text(t("end.total"), style="bold"),
        *[
            Text(f"{v:+d}", style=Style(bold=True, color="#66bb6a" if v == best else None))
            for v in running
        ],
    )
    return table


class RoundEndScreen(Screen[str]):
    """Shows who won the round, all racks, and the score table; dismisses with ``"next"``,
    ``"new"`` or ``"quit"``."""

    BINDINGS = [  # noqa: RUF012
        Binding("enter,n", "choose('next')", show=False),
        Binding("q", "choose('quit')", show=False),
        Binding("ctrl+s", "save", show=False),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        app = host_of(self)
        t = app.t
        match = self.session.match
        end = match.state.end
        assert end is not None
        winner = match.players[end.winner].name if end.winner is not None else "-"
        reason = t(f"end.reason.{end.reason}")
        with VerticalScroll(id="end-box"):
            yield Static(
                Text(
                    t(
                        "end.title",
                        round=len(match.rounds),
                        name=winner,
                        reason=reason,
                        you=end.winner is not None and self.session.is_you(end.winner),
                    ),
                    style="bold",
                ),
                id="end-title",
            )
            racks = RichTable.grid(padding=(0, 2))
            racks.add_column(no_wrap=True)
            racks.add_column(justify="right")
            racks.add_column()
            for i, p in enumerate(match.players):
                rack = end.racks[i]
                tiles = (
                    Text(" ").join(tile_text(x) for x in rack.tiles)
                    if rack.tiles
                    else Text(t("end.empty_rack"), style="italic")
                )
                racks.add_row(p.name, t("end.points", count=rack_value(rack, match.rules)), tiles)
            yield Static(racks, id="end-racks")
            yield Static(score_table(match, t), id="end-scores")
            if match.over:
                names = ", ".join(match.players[w].name for w in match.winners)
                yield Static(
                    Text(t("end.match_over", names=names), style="bold #66bb6a"), id="end-winner"
                )
            with Horizontal(id="end-buttons"):
                if not match.over:
                    yield Button(t("button.next_round"), id="next", variant="success")
                yield Button(t("button.new_game"), id="new", variant="primary")
                yield Button(t("button.save"), id="save")
                yield Button(t("button.quit"), id="quit", variant="error")

    def action_choose(self, choice: str) -> None:
        if choice == "next" and self.session.match.over:
            return
        self.dismiss(choice)

    def action_save(self) -> None:
        app = host_of(self)
        path = self.session.save()
        self.notify(app.t("game.saved", path=str(path)))

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        elif event.button.id is not None:
            self.action_choose(event.button.id)
