"""The replay viewer: step through a game record turn by turn, every rack shown; A adds the
game review (each turn's verdict, each player's accuracy, the win-chance graph, the better
move laid out on the table)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import Worker, WorkerState, get_current_worker

from rummikub.analysis import GameAnalysis, TurnAnalysis, analyse
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
from rummikub.games import AnyRecord, get_game
from rummikub.i18n import Translator

from ..host import host_of
from ..tiles import tile_text
from ..widgets import TableView, rows_from_table
from ..widgets.review import (
    CURVE_STYLES,
    ERRORS,
    HERE,
    MARKS,
    VERDICT_STYLES,
    chance_graph,
    progress_text,
    summary_table,
)
from .game import describe_turn, fresh_ids
from .round_end import score_table

__all__ = ["Frame", "ReplayScreen", "frames_of"]


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


class AnalysisCancelled(Exception):
    """The viewer closed while its analysis ran: the analysis stops at its next turn."""


Progress = Callable[[int, int], None]


def analyse_record(
    record: GameRecord, progress: Progress, samples: int | None = None
) -> GameAnalysis:
    """The analysis of ``record`` (seconds: the viewer runs it in a thread); ``samples``: the
    deals a position (``None``: the analysis's default)."""
    return analyse(AnyRecord(get_game("tiles"), record), progress=progress, samples=samples)


class ReplayScreen(Screen[None]):
    """Left/right (or space) step, up/down jump ten turns, PageUp/PageDown change round,
    Home/End go to the start/end, P plays automatically, G shows each player's standing over
    the game (points left in his rack, one line per player), Q leaves.

    A shows the review (the game is analysed in a worker thread the first time, its progress
    shown): each player's accuracy and mistakes, the graph of each player's win chance over
    the game with the mistakes marked, and each turn's verdict, win chance before and after,
    findings and better move; ] and [ (or N and Shift+N) jump to the next and previous
    inaccuracy, mistake or blunder; B lays out the whole table of the better move (its new and
    changed melds marked, the tiles it places highlighted) and back."""

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
        Binding("right_square_bracket,n", "mistake(1)", show=False),
        Binding("left_square_bracket,N", "mistake(-1)", show=False),
        Binding("g", "graph", show=False),
        Binding("q,escape", "leave", show=False),
    ]

    def __init__(
        self,
        record: GameRecord,
        *,
        autoplay_seconds: float = 1.0,
        review_samples: int | None = None,
    ) -> None:
        super().__init__()
        self.record = record
        #: the deals a position the review (A) samples (``None``: the analysis's default)
        self.review_samples = review_samples
        self.frames = frames_of(record)
        self.index = 0
        self.autoplay_seconds = autoplay_seconds
        self._auto: object | None = None
        self.analysing = False  # the review is shown (A)
        self.better = False  # the table shows the better move (B)
        self.graph = False
        #: the game's analysis, once its worker has finished
        self.analysis: GameAnalysis | None = None
        self.progress: tuple[int, int] = (0, 0)  # turns analysed, of
        self.failed: str | None = None
        self._worker: Worker[GameAnalysis] | None = None
        self._turn_at: dict[int, int] = {}  # frame index -> index of its turn in the analysis
        self._here: list[int | None] = []  # frame index -> the last turn judged at or before it
        self._pending: int = 0  # a jump to a mistake asked for before the analysis was there

    @property
    def t(self) -> Translator:
        return host_of(self).t

    def compose(self) -> ComposeResult:
        t = self.t
        with Vertical(id="replay"):
            yield Static("", id="replay-status")
            with VerticalScroll(id="table-box") as box:
                box.border_title = t("game.table")
                yield TableView(t, editable=False, id="table")
            yield Static("", id="review")
            yield Static("", id="replay-racks")
            yield Static(t("replay.keys"), id="keys")

    def on_mount(self) -> None:
        self.show()

    # -- the analysis --------------------------------------------------------------------
    def verdict(self, index: int) -> TurnAnalysis | None:
        """The analysis of the turn that led to frame ``index`` (None for a deal, or before
        the analysis has finished)."""
        if self.analysis is None or index not in self._turn_at:
            return None
        return self.analysis.turns[self._turn_at[index]]

    def start_analysis(self) -> None:
        """Analyse the game in a worker thread (once); :meth:`show` shows its progress."""
        if self.analysis is not None or self._worker is not None:
            return
        self.failed = None
        self.progress = (0, sum(1 for f in self.frames if f.log is not None))
        self._worker = self.run_worker(
            partial(self._analyse, self.app),
            name="review",
            group="review",
            thread=True,
            exit_on_error=False,
        )

    def _analyse(self, app: App[object]) -> GameAnalysis:
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise AnalysisCancelled
            app.call_from_thread(self._progressed, done, total)

        return analyse_record(self.record, progress, self.review_samples)

    def _progressed(self, done: int, total: int) -> None:
        self.progress = (done, total)
        if self.analysing and self.analysis is None:
            self.query_one("#review", Static).update(progress_text(self.t, done, total))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self._worker:
            return
        if event.state == WorkerState.SUCCESS and self._worker.result is not None:
            self.set_analysis(self._worker.result)
        elif event.state == WorkerState.ERROR:
            self._worker = None
            self.failed = str(event.worker.error)
            self.show()
        elif event.state == WorkerState.CANCELLED:
            self._worker = None

    def set_analysis(self, analysis: GameAnalysis) -> None:
        """Show ``analysis`` (of this record): each frame gets its turn's judgement."""
        self.analysis = analysis
        where = {(t.round, t.turn): k for k, t in enumerate(analysis.turns)}
        self._turn_at = {}
        self._here = []
        last: int | None = None
        for i, frame in enumerate(self.frames):
            k = where.get((frame.round, frame.turn)) if frame.log is not None else None
            if k is not None:
                self._turn_at[i] = k
                last = k
            self._here.append(last)
        pending, self._pending = self._pending, 0
        if pending:
            self.action_mistake(pending)
        else:
            self.show()

    def mistakes(self) -> list[int]:
        """The frames of the turns judged an inaccuracy, a mistake or a blunder."""
        return [i for i in sorted(self._turn_at) if (v := self.verdict(i)) and v.verdict in ERRORS]

    # -- drawing -------------------------------------------------------------------------
    def show(self) -> None:
        t = self.t
        rec = self.record
        names = [p.name for p in rec.players]
        frame = self.frames[self.index] if self.frames else None
        review = self.query_one("#review", Static)
        review.display = self.analysing
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
        judged = self.verdict(self.index) if self.analysing else None
        if judged is not None:
            status.append_text(self.judgement_text(judged))
        self.query_one("#replay-status", Static).update(status)
        if self.analysing:
            review.update(self.review_body(names))
        self.show_table(frame, judged)
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

    def judgement_text(self, judged: TurnAnalysis) -> Text:
        """The status lines of a judged turn: its verdict, the mover's win chance before and
        after it and what it cost, its findings, and the better move."""
        t = self.t
        style = VERDICT_STYLES[judged.verdict]
        verdict = t(f"verdict.{judged.verdict}")
        out = Text("\n")
        if judged.verdict in MARKS:
            out.append(MARKS[judged.verdict] + " ", style="bold " + style)
        if judged.win_chance is None or judged.loss is None:
            out.append(
                t("replay.verdict", verdict=verdict, lost=judged.lost), style="bold " + style
            )
        else:
            before, after = judged.win_chance
            out.append(t("review.verdict", verdict=verdict), style="bold " + style)
            out.append(" · ")
            was, now = f"{100 * before:.0f}", f"{100 * after:.0f}"
            if judged.loss > 0:
                loss = f"{judged.loss:.1f}"
                out.append(t("review.chance_lost", before=was, after=now, loss=loss))
            else:
                out.append(t("review.chance", before=was, after=now))
        for found in judged.findings:
            out.append(" · " + t(f"finding.{found}"), style=style)
        if judged.verdict not in ("best", "forced"):
            better = self.better_text(judged)
            if better:
                out.append("\n" + better)
        return out

    def better_text(self, judged: TurnAnalysis) -> str:
        """The better move in words (empty if the analysis names none)."""
        t = self.t
        if judged.best_action == "draw":
            return t("review.better_draw")
        if judged.best_action == "pass":
            return t("review.better_pass")
        if judged.best_pieces:
            shown = " ".join(judged.best_pieces)
            return t("review.better_play", tiles=shown, points=judged.best_points)
        return ""

    def review_body(self, names: list[str]) -> RenderableType:
        """The review under the table: the progress of the analysis, or each player's summary
        and the win-chance graph."""
        t = self.t
        if self.failed is not None:
            return Text(t("review.failed", error=self.failed), style="bold #ef5350")
        if self.analysis is None:
            return progress_text(t, *self.progress)
        title = Text(t("review.summary"), style="bold")
        title.append("  " + t("review.keys"), style="#a5d6a7")
        legend = Text(t("review.graph") + "  ", style="bold")
        for verdict in ERRORS:
            legend.append(MARKS[verdict] + " ", style="bold " + VERDICT_STYLES[verdict])
            legend.append(t(f"verdict.{verdict}") + "  ", style="")
        legend.append(HERE + " ", style="bold")
        legend.append(t("review.here"))
        wide = max(len(n) for n in names)
        width = max(10, self.size.width - wide - 10)
        graph = chance_graph(
            self.analysis.turns,
            names,
            self._here[self.index] if self._here else None,
            width=width,
            height=2 if len(names) <= 3 else 1,
            percent=lambda value: t("review.percent", value=f"{value:.0f}"),
        )
        return Group(
            title,
            summary_table(self.analysis.summary(), t),
            legend,
            graph,
        )

    def show_table(self, frame: Frame, judged: TurnAnalysis | None) -> None:
        """The table of the position; with B (and a judged turn) the whole table of the best
        move instead: its new and changed melds marked, the tiles it places highlighted."""
        t = self.t
        rules = self.record.rules
        box = self.query_one("#table-box", VerticalScroll)
        view = self.query_one("#table", TableView)
        if self.better and judged is not None and frame.before is not None:
            box.border_title = t("review.best_table", turn=frame.turn + 1)
            if judged.best is None:  # the best move places nothing: the table stays
                rows = rows_from_table(frame.before.table, rules)
                view.show(rows, editable=False)
                return
            table = Table.from_json(judged.best)
            changed = set(judged.best_changed)
            rows = rows_from_table(
                table, rules, changed=[i in changed for i in range(len(table.melds))]
            )
            fresh = fresh_ids(rows, parse_tiles(" ".join(judged.best_pieces)))
            view.show(rows, fresh=fresh, editable=False)
            return
        box.border_title = t("game.table")
        table = frame.state.table
        marks: list[bool] = []
        played = frame.log is not None and frame.log.action == "play"
        if frame.before is not None and played:  # the melds the play made are marked
            old = Counter(m.key() for m in frame.before.table.melds)
            for m in table.melds:
                marks.append(old[m.key()] <= 0)
                old[m.key()] -= 1
        rows = rows_from_table(table, rules, changed=marks)
        placed = frame.log.play if frame.log is not None and played else ()
        view.show(rows, fresh=fresh_ids(rows, placed), editable=False)

    # -- keys ----------------------------------------------------------------------------
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
        """Show (or hide) the review (analysing the game the first time)."""
        self.analysing = not self.analysing
        self.better = self.better and self.analysing
        if self.analysing:
            self.start_analysis()
        self.show()

    def action_better(self) -> None:
        """Lay out the better move of the turn on the table (or the move made)."""
        self.analysing = True
        self.better = not self.better
        self.start_analysis()
        self.show()

    def action_mistake(self, delta: int) -> None:
        """Go to the next (``delta`` 1) or previous (-1) inaccuracy, mistake or blunder; before
        the analysis is there, go once it is."""
        self.analysing = True
        if self.analysis is None:
            self._pending = delta
            self.start_analysis()
            self.show()
            return
        found = self.mistakes()
        later = [i for i in found if i > self.index] if delta > 0 else []
        earlier = [i for i in found if i < self.index] if delta < 0 else []
        if later or earlier:
            self.index = later[0] if later else earlier[-1]
        else:
            self.notify(self.t("review.no_next" if delta > 0 else "review.no_previous"))
        self.show()

    def action_autoplay(self) -> None:
        if self._auto is not None:
            self._auto.stop()  # type: ignore[attr-defined]
            self._auto = None
            return
        self._auto = self.set_interval(self.autoplay_seconds, lambda: self.action_step(1))

    def action_leave(self) -> None:
        self.app.exit()
