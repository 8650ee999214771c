"""The replay viewer: step through a game record turn by turn, every rack shown."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from rummikub.analysis import TurnAnalysis, judge_tile_turn
from rummikub.core import (
    GameRecord,
    RoundState,
    Rules,
    Table,
    TurnLog,
    parse_tiles,
    rack_value,
    replay,
)

from ..host import host_of
from ..tiles import tile_text
from ..widgets import TableView, rows_from_table
from .game import describe_turn, fresh_ids
from .round_end import score_table

__all__ = ["Frame", "ReplayScreen", "frames_of"]

#: the colour of each verdict in the replay's status line
VERDICT_STYLES = {
    "forced": "#9e9e9e", "best": "#66bb6a", "good": "#9ccc65", "inaccuracy": "#ffca28",
    "mistake": "#ffa726", "blunder": "#ef5350",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Frame:
    """One position of the replay: a round's deal (``log`` None) or the state after a turn."""

    round: int
    turn: int  # -1 for the deal
    state: RoundState
    log: TurnLog | None
    before: RoundState | None


def frames_of(rec: GameRecord) -> list[Frame]:
    """Every position of the record (raises :class:`~rummikub.core.RecordError` if the record
    does not replay)."""
    frames: list[Frame] = []
    seen_round = -1
    for step in replay(rec):
        if step.round != seen_round:
            seen_round = step.round
            frames.append(Frame(step.round, -1, step.before, None, None))
        frames.append(Frame(step.round, step.turn, step.after, step.log, step.before))
    for ri, rd in enumerate(rec.rounds):
        if not rd.turns:  # a round without turns still has its deal
            frames.append(
                Frame(ri, -1, RoundState.start(rec.rules, rd.racks, rd.pool, rd.first), None, None)
            )
    frames.sort(key=lambda f: (f.round, f.turn))
    return frames


#: the heights of a sparkline, lowest first
BARS = "▁▂▃▄▅▆▇█"


def standings_text(
    frames: list[Frame], names: list[str], rules: Rules, index: int, width: int = 60
) -> Text:
    """Each player's standing over the game: the points left in his rack at every position, as
    one sparkline per player (at most ``width`` columns, each the last position it covers),
    the column of position ``index`` highlighted, and his points there."""
    values = [[rack_value(r, rules) for r in f.state.racks] for f in frames]
    top = max(1, *(v for row in values for v in row))
    cols = min(width, len(frames))
    last = [((c + 1) * len(frames)) // cols - 1 for c in range(cols)]
    here = next(c for c, end in enumerate(last) if end >= index)
    wide = max(len(n) for n in names)
    out = Text()
    for p, name in enumerate(names):
        out.append(f"{name:<{wide}} ")
        for c, end in enumerate(last):
            bar = BARS[min(len(BARS) - 1, values[end][p] * len(BARS) // (top + 1))]
            out.append(
                bar, style="reverse bold" if c == here else CURVE_STYLES[p % len(CURVE_STYLES)]
            )
        out.append(f" {values[index][p]}")
        if p < len(names) - 1:
            out.append("\n")
    return out


#: one colour per player's line (as the web replay's chart)
CURVE_STYLES = ("#42a5f5", "#ef5350", "#66bb6a", "#ffa726", "#ab47bc", "#26a69a")


class ReplayScreen(Screen[None]):
    """Left/right (or space) step, up/down jump ten turns, PageUp/PageDown change round,
    Home/End go to the start/end, P plays automatically, A shows each turn's verdict (the
    analysis), B lays out the better play on the table, G shows each player's standing over the
    game (points left in his rack, one line per player), Q leaves."""

    BINDINGS = [  # noqa: RUF012
        Binding("right,space,l", "step(1)", show=False),
        Binding("left,backspace,h", "step(-1)", show=False),
        Binding("down", "step(10)", show=False),
        Binding("up", "step(-10)", show=False),
        Binding("pagedown", "round(1)", show=False),
        Binding("pageup", "round(-1)", show=False),
        Binding("home", "goto(0)", show=False),
        Binding("end", "goto(-1)", show=False),
        Binding("p", "autoplay", show=False),
        Binding("a", "analysis", show=False),
        Binding("b", "better", show=False),
        Binding("g", "graph", show=False),
        Binding("q,escape", "leave", show=False),
    ]

    def __init__(self, record: GameRecord, *, autoplay_seconds: float = 1.0) -> None:
        super().__init__()
        self.record = record
        self.frames = frames_of(record)
        self.index = 0
        self.autoplay_seconds = autoplay_seconds
        self._auto: object | None = None
        self.analysing = False
        self.better = False
        self.graph = False
        self._verdicts: dict[int, TurnAnalysis] = {}

    @property
    def t(self):  # type: ignore[no-untyped-def]
        app = host_of(self)
        return app.t

    def compose(self) -> ComposeResult:
        t = self.t
        with Vertical(id="replay"):
            yield Static("", id="replay-status")
            with VerticalScroll(id="table-box") as box:
                box.border_title = t("game.table")
                yield TableView(t, editable=False, id="table")
            yield Static("", id="replay-racks")
            yield Static(t("replay.keys"), id="keys")

    def on_mount(self) -> None:
        self.show()

    def verdict(self, index: int) -> TurnAnalysis | None:
        """The analysis of the turn that led to frame ``index`` (None for a deal)."""
        frame = self.frames[index]
        if frame.log is None or frame.before is None:
            return None
        if index not in self._verdicts:
            self._verdicts[index] = judge_tile_turn(
                frame.before, frame.log, round=frame.round, turn=frame.turn, time_limit=2.0
            )
        return self._verdicts[index]

    def show(self) -> None:
        t = self.t
        rec = self.record
        names = [p.name for p in rec.players]
        frame = self.frames[self.index] if self.frames else None
        if frame is None:
            self.query_one("#replay-status", Static).update(t("replay.empty"))
            return
        rd = rec.rounds[frame.round]
        head = t(
            "replay.position_of",
            index=self.index + 1,
            total=len(self.frames),
            round=frame.round + 1,
            rounds=len(rec.rounds),
        )
        if frame.log is None:
            what = t("replay.deal_start", name=names[rd.first])
        else:
            what = (
                t("replay.turn", turn=frame.turn + 1)
                + " "
                + describe_turn(t, names[frame.log.player], frame.log, show_draw=True)
            )
        status = Text(head + "\n", style="bold")
        status.append(what)
        end = frame.state.end
        if end is not None and frame.log is not None and frame.turn == len(rd.turns) - 1:
            winner = names[end.winner] if end.winner is not None else "-"
            status.append(
                "\n"
                + t(
                    "end.title",
                    round=frame.round + 1,
                    name=winner,
                    reason=t(f"end.reason.{end.reason}"),
                ),
                style="bold #66bb6a",
            )
        table = frame.state.table
        judged = self.verdict(self.index) if self.analysing else None
        if judged is not None:
            status.append(
                "\n"
                + t("replay.verdict", verdict=t(f"verdict.{judged.verdict}"), lost=judged.lost),
                style="bold " + VERDICT_STYLES[judged.verdict],
            )
            for found in judged.findings:
                status.append(" · " + t(f"finding.{found}"), style=VERDICT_STYLES[judged.verdict])
            if judged.best is not None and judged.verdict not in ("best", "forced"):
                shown = " ".join(judged.best_pieces)
                status.append("\n" + t("replay.better", tiles=shown, points=judged.best_points))
                if self.better:
                    table = Table.from_json(judged.best)
        self.query_one("#replay-status", Static).update(status)
        changed: list[bool] = []
        played = frame.log is not None and frame.log.action == "play"
        if frame.before is not None and (played or table is not frame.state.table):
            # the melds the play made (or the better play would make) are marked
            old = Counter(m.key() for m in frame.before.table.melds)
            for m in table.melds:
                changed.append(old[m.key()] <= 0)
                old[m.key()] -= 1
        rows = rows_from_table(table, rec.rules, changed=changed)
        fresh: frozenset[int] = frozenset()
        if table is not frame.state.table and judged is not None:
            fresh = fresh_ids(rows, parse_tiles(" ".join(judged.best_pieces)))
        elif frame.log is not None and frame.log.action == "play":
            fresh = fresh_ids(rows, frame.log.play)
        self.query_one("#table", TableView).show(rows, fresh=fresh, editable=False)
        racks = RichTable.grid(padding=(0, 1))
        racks.add_column(no_wrap=True)
        racks.add_column(justify="right")
        racks.add_column()
        for i, name in enumerate(names):
            rack = frame.state.racks[i]
            mark = "▶ " if frame.state.current == i and end is None else "  "
            tiles = Text(" ").join(tile_text(x) for x in rack.tiles)
            racks.add_row(mark + name, t("end.points", count=rack_value(rack, rec.rules)), tiles)
        body = RichTable.grid()
        body.add_row(racks)
        body.add_row(Text(t("players.pool", count=len(frame.state.pool)), style="#9e9e9e"))
        if self.graph:
            body.add_row(Text(t("replay.standings"), style="bold"))
            body.add_row(standings_text(self.frames, names, rec.rules, self.index))
        if self.index == len(self.frames) - 1 and any(r.end for r in rec.rounds):
            from rummikub.core import load_match

            body.add_row(score_table(load_match(rec), t))
        self.query_one("#replay-racks", Static).update(body)

    def action_step(self, delta: int) -> None:
        if self.frames:
            self.index = max(0, min(len(self.frames) - 1, self.index + delta))
            self.show()

    def action_goto(self, index: int) -> None:
        if self.frames:
            self.index = index % len(self.frames)
            self.show()

    def action_round(self, delta: int) -> None:
        if not self.frames:
            return
        current = self.frames[self.index].round
        want = current + delta
        for i, f in enumerate(self.frames):
            if f.round == want and f.turn == -1:
                self.index = i
                break
        self.show()

    def action_graph(self) -> None:
        """Show (or hide) each player's standing over the game."""
        self.graph = not self.graph
        self.show()

    def action_analysis(self) -> None:
        """Show (or hide) the verdict of every turn."""
        self.analysing = not self.analysing
        self.better = self.better and self.analysing
        self.show()

    def action_better(self) -> None:
        """Lay out the better play of the turn on the table (or the play made)."""
        self.analysing = True
        self.better = not self.better
        self.show()

    def action_autoplay(self) -> None:
        if self._auto is not None:
            self._auto.stop()  # type: ignore[attr-defined]
            self._auto = None
            return
        self._auto = self.set_interval(self.autoplay_seconds, lambda: self.action_step(1))

    def action_leave(self) -> None:
        self.app.exit()
