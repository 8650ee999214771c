"""Bot-against-bot Xpress matches: play them, and write their records."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from rummikub.core.errors import RummikubError

from .bots import XpressBot, get_bot
from .dice import Layout
from .game import XpressMatch, XpressPlayer
from .record import xpress_record
from .rules import XpressRules

__all__ = ["play_match", "run_turn", "simulate", "write_records"]

#: A bot that keeps proposing illegal actions is stopped after this many in one turn.
MAX_REJECTED = 20


def run_turn(match: XpressMatch, bot: XpressBot, time_limit: float | None = None) -> None:
    """Let ``bot`` play the current turn of ``match`` to its end (or the round's end)."""
    player = match.state.current
    turn = match.state.turn
    rejected = 0
    while match.state.end is None and match.state.current == player and match.state.turn == turn:
        obs = match.observation(player, time_limit)
        started = time.perf_counter()
        action = bot.act(obs, time_limit)
        ms = int((time.perf_counter() - started) * 1000)
        try:
            match.act(action, ms=ms)
        except RummikubError as exc:
            rejected += 1
            if rejected >= MAX_REJECTED:
                raise RummikubError(f"bot {bot.name} keeps making illegal moves: {exc}") from exc


def play_match(
    bots: Sequence[XpressBot],
    seed: int,
    *,
    names: Sequence[str] | None = None,
    rules: XpressRules | None = None,
    layout: Layout | None = None,
    time_limit: float | None = None,
) -> XpressMatch:
    """Play a whole match between two bots and return it (finished)."""
    labels = names or [f"{b.name}-{i + 1}" for i, b in enumerate(bots)]
    players = [XpressPlayer(n, "bot", b.name) for n, b in zip(labels, bots, strict=True)]
    match = XpressMatch(players, seed, rules=rules, layout=layout)
    while True:
        while match.state.end is None:
            run_turn(match, bots[match.state.current], time_limit)
        if match.over:
            return match
        match.next_round()


def simulate(
    games: int,
    seed: int,
    bots: Sequence[str] = ("greedy", "expert"),
    *,
    time_limit: float | None = None,
    layout: Layout | None = None,
) -> Iterator[dict[str, Any]]:
    """Play ``games`` matches (seeds ``seed``, ``seed + 1``, ...; the bots swap seats every
    game) and yield each record."""
    if len(bots) != 2:
        raise RummikubError("Xpress needs exactly two bots")
    for g in range(games):
        names = list(bots) if g % 2 == 0 else list(reversed(bots))
        players = [get_bot(n, seed + g) for n in names]
        match = play_match(
            players,
            seed + g,
            names=[f"{n}-{i + 1}" for i, n in enumerate(names)],
            time_limit=time_limit,
            layout=layout,
        )
        yield xpress_record(match)


def write_records(records: Iterator[dict[str, Any]], out: str | Path) -> int:
    """Write records to ``out``: one JSON document per line (JSON Lines). Returns the count."""
    import json

    path = Path(out)
    count = 0
    with path.open("w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec) + "\n")
            fh.flush()
            count += 1
    return count
