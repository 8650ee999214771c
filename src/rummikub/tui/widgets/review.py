"""The game review of the replay viewer, drawn as Rich text: each player's summary (accuracy
and his inaccuracies, mistakes and blunders) and the evaluation graph (each player's win
chance over the game, one column per turn, the turns that went wrong marked)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.table import Table as RichTable
from rich.text import Text

from rummikub.analysis import PlayerSummary, TurnAnalysis

__all__ = [
    "BARS",
    "CURVE_STYLES",
    "ERRORS",
    "HERE",
    "HERE_BACK",
    "MARKS",
    "VERDICT_STYLES",
    "chance_graph",
    "columns",
    "progress_text",
    "summary_table",
    "turn_chances",
]

Translate = Callable[..., str]

#: the colour of each verdict
VERDICT_STYLES = {
    "forced": "#9e9e9e", "best": "#66bb6a", "good": "#9ccc65", "inaccuracy": "#ffca28",
    "mistake": "#ffa726", "blunder": "#ef5350",
}  # fmt: skip

#: the verdicts a review points out (the next/previous mistake keys jump between them), mildest
#: first
ERRORS = ("inaccuracy", "mistake", "blunder")

#: the mark of each of them under the graph: a distinct symbol (for monochrome terminals and
#: colour-blind readers) in the verdict's colour
MARKS = {"inaccuracy": "○", "mistake": "◆", "blunder": "✖"}

#: the mark of the position shown, under a column without a mistake
HERE = "▲"
#: the background of the column of the position shown
HERE_BACK = "#546e7a"

#: one colour per player's line (as the web replay's chart)
CURVE_STYLES = ("#42a5f5", "#ef5350", "#66bb6a", "#ffa726", "#ab47bc", "#26a69a")

#: the heights of a bar within one row of the graph, lowest first
BARS = "▁▂▃▄▅▆▇█"


def summary_table(players: Sequence[PlayerSummary], t: Translate) -> RichTable:
    """One row per player: his accuracy (0-100 %, ``–`` when he never had a choice), his mean
    loss of win chance per turn with a choice, and how many inaccuracies, mistakes and
    blunders he made."""
    table = RichTable(box=None, padding=(0, 1), show_edge=False, header_style="bold")
    table.add_column(t("review.player"), no_wrap=True)
    table.add_column(t("review.accuracy"), justify="right")
    table.add_column(t("review.mean_loss"), justify="right")
    for verdict in ERRORS:
        table.add_column(
            Text.assemble(
                (MARKS[verdict], VERDICT_STYLES[verdict]), " ", t(f"review.count.{verdict}")
            ),
            justify="right",
        )
    for seat, player in enumerate(players):
        loss = player.loss
        table.add_row(
            Text(player.name, style=CURVE_STYLES[seat % len(CURVE_STYLES)]),
            "–" if player.accuracy is None else t("review.percent", value=f"{player.accuracy:.0f}"),
            "–" if loss is None else f"{loss:.1f}",
            *(
                Text(
                    str(player.verdicts.get(v, 0)),
                    style=VERDICT_STYLES[v] if player.verdicts.get(v, 0) else "",
                )
                for v in ERRORS
            ),
        )
    return table


def turn_chances(turns: Sequence[TurnAnalysis], seats: int) -> list[tuple[float, ...]]:
    """Every seat's win chance after each turn (0..1); a turn without an evaluation keeps the
    chances of the turn before it (even chances before the first)."""
    last: tuple[float, ...] = (1.0 / seats,) * seats
    out = []
    for turn in turns:
        if turn.chances is not None and len(turn.chances) == seats:
            last = tuple(turn.chances)
        out.append(last)
    return out


def columns(count: int, width: int) -> list[tuple[int, int]]:
    """``count`` turns drawn in at most ``width`` columns: the range of turns ``[first,
    last]`` each column covers (one turn a column when they fit)."""
    cols = max(1, min(width, count))
    ends = [((c + 1) * count) // cols - 1 for c in range(cols)]
    return [(0 if c == 0 else ends[c - 1] + 1, end) for c, end in enumerate(ends)]


def _bar(value: float, row: int, height: int) -> str:
    """The character of a bar ``value`` (0..1) high in row ``row`` (0 the bottom) of a graph
    ``height`` rows high; the bottom row always shows at least the lowest bar."""
    level = round(value * height * len(BARS)) - row * len(BARS)
    if row == 0:
        level = max(1, level)
    if level <= 0:
        return " "
    return BARS[min(len(BARS), level) - 1]


def chance_graph(
    turns: Sequence[TurnAnalysis],
    names: Sequence[str],
    here: int | None,
    *,
    width: int = 60,
    height: int = 2,
    percent: Callable[[float], str] = lambda value: f"{value:.0f}%",
) -> Text:
    """Each player's win chance over the game: per player ``height`` rows of bars (0 to 100 %
    from his bottom row to his top one), one column per turn (at most ``width`` columns, each
    the last turn it covers), his name and his chance after turn ``here``; below them one row
    of marks, the worst verdict of each column's turns (:data:`MARKS`). The column of turn
    ``here`` (``None``: before the first turn) is drawn on :data:`HERE_BACK`, and marked
    :data:`HERE` when no mistake is marked there. ``percent`` words a chance (0-100)."""
    chances = turn_chances(turns, len(names))
    spans = columns(len(turns), width)
    current = next((c for c, (a, b) in enumerate(spans) if a <= (here or 0) <= b), None)
    if here is None or not turns:
        current = None
    wide = max(len(n) for n in names)
    out = Text(no_wrap=True, overflow="crop")
    for seat, name in enumerate(names):
        colour = CURVE_STYLES[seat % len(CURVE_STYLES)]
        shown = "–" if here is None or not chances else percent(100 * chances[here][seat])
        for row in reversed(range(height)):
            label = name if row == height - 1 else ""
            out.append(f"{label:<{wide}} ", style=colour if label else "")
            for c, (_, last) in enumerate(spans):
                bar = _bar(chances[last][seat], row, height) if turns else " "
                out.append(bar, style=f"{colour} on {HERE_BACK}" if c == current else colour)
            if row == height - 1:
                out.append(f" {shown:>4}", style="bold " + colour)
            out.append("\n")
    out.append(" " * (wide + 1))
    for c, (first, last) in enumerate(spans):
        worst = max(
            (ERRORS.index(t.verdict) for t in turns[first : last + 1] if t.verdict in ERRORS),
            default=None,
        )
        if worst is None:
            out.append(
                HERE if c == current else " ", style=f"bold on {HERE_BACK}" if c == current else ""
            )
        else:
            verdict = ERRORS[worst]
            style = "bold " + VERDICT_STYLES[verdict]
            out.append(MARKS[verdict], style=f"{style} on {HERE_BACK}" if c == current else style)
    return out


def progress_text(t: Translate, done: int, total: int, width: int = 30) -> Text:
    """The analysis under way: a bar and ``done/total`` turns."""
    filled = 0 if total <= 0 else (done * width) // total
    out = Text(t("review.analysing", done=done, total=total) + " ", style="bold")
    out.append("█" * filled, style="#66bb6a")
    out.append("░" * (width - filled), style="#555555")
    return out
