"""The shared conformance check: run any bot (built-in or outside) through seeded games under
each rules preset, verify every action with the engine and report every violation.

A violation is a decision where the bot raised, answered with something that is not an action,
gave an illegal action (a play the engine rejects, a draw from an empty pool, a pass while the
pool has tiles), timed out, or answered after its time limit; and any game whose record does
not replay exactly, or that had to be abandoned.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from rummikub.core import PRESETS, Play, Rules, RummikubError, load_record, match_record, verify

from .base import Bot
from .play import TurnEvent, play_match

__all__ = ["ConformanceReport", "Violation", "run_conformance"]

BotMaker = Callable[[int], Bot]


@dataclass(frozen=True, slots=True)
class Violation:
    """One thing the bot did wrong."""

    preset: str
    seed: int
    round: int
    turn: int
    player: int
    kind: str
    detail: str

    def __str__(self) -> str:
        return (
            f"{self.preset} seed {self.seed} round {self.round + 1} turn {self.turn + 1} "
            f"seat {self.player}: {self.kind}: {self.detail}"
        )


@dataclass(slots=True)
class ConformanceReport:
    """What :func:`run_conformance` saw."""

    games: int = 0
    rounds: int = 0
    decisions: int = 0
    plays: int = 0
    wins: float = 0.0  # games won by the tested bot (a shared win counts as a fraction)
    seconds: float = 0.0
    max_seconds: float = 0.0
    violations: list[Violation] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.violations

    def summary(self) -> str:
        mean = self.seconds / self.decisions if self.decisions else 0.0
        head = (
            f"{_n(self.games, 'game')} ({self.wins:g} won), {_n(self.rounds, 'round')}, "
            f"{_n(self.decisions, 'decision')} ({_n(self.plays, 'play')}), "
            f"{mean * 1000:.1f} ms mean / {self.max_seconds * 1000:.0f} ms max per decision: "
        )
        if self.ok:
            return head + "no violations"
        lines = [head + _n(len(self.violations), "violation")]
        lines.extend(f"  {v}" for v in self.violations[:20])
        if len(self.violations) > 20:
            lines.append(f"  ... and {len(self.violations) - 20} more")
        return "\n".join(lines)


def _n(count: int, noun: str) -> str:
    """``1 game``, ``2 games`` (the English of a report for programs and tests; the command
    line words it from the message catalogue)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def run_conformance(
    make_bot: BotMaker,
    *,
    games: int = 10,
    presets: Iterable[str | Rules] = tuple(PRESETS),
    players: int = 2,
    seed: int = 0,
    opponents: Sequence[BotMaker] | None = None,
    time_limit: float | None = None,
    slack: float = 0.25,
    check_time: bool = True,
    max_turns: int = 2000,
) -> ConformanceReport:
    """Play ``games`` games per preset with ``make_bot(seed)`` in seat 0 (and seats rotating
    over the games) against ``opponents`` (default: more copies of the same bot).

    Only the tested bot's decisions are checked; every game is then replayed from its record
    and verified. ``time_limit`` (seconds, default: the rules' turn time) is passed to the bot
    and answers later than ``time_limit + slack`` are violations (unless ``check_time`` is
    false, e.g. on a loaded machine)."""
    report = ConformanceReport()
    for spec in presets:
        rules = spec if isinstance(spec, Rules) else PRESETS[spec]
        name = rules.preset
        count = max(players, rules.min_players)
        limit = (
            time_limit
            if time_limit is not None
            else (None if rules.turn_seconds is None else float(rules.turn_seconds))
        )
        for g in range(games):
            game_seed = seed + g
            tested_seat = g % count
            bots: list[Bot] = []
            for s in range(count):
                if s == tested_seat:
                    bots.append(make_bot(game_seed * 7919 + s))
                else:
                    makers = opponents or [make_bot]
                    bots.append(makers[s % len(makers)](game_seed * 7919 + s))
            round_index = [0]

            def watch(
                ev: TurnEvent,
                seat: int = tested_seat,
                rnd: list[int] = round_index,
                game_seed: int = game_seed,
                preset_name: str = name,
                limit: float | None = limit,
            ) -> None:
                if ev.player != seat:
                    return
                report.decisions += 1
                report.seconds += ev.seconds
                report.max_seconds = max(report.max_seconds, ev.seconds)
                rnd[0] = ev.observation.round
                problem, detail = ev.problem, ev.detail
                if problem == "slow" and (
                    not check_time or (limit is not None and ev.seconds <= limit + slack)
                ):
                    problem = None
                if problem is None and isinstance(ev.action, Play):
                    report.plays += 1
                if problem is not None:
                    report.violations.append(
                        Violation(
                            preset_name,
                            game_seed,
                            ev.observation.round,
                            ev.observation.turn,
                            seat,
                            problem,
                            detail,
                        )
                    )

            match = play_match(
                rules, bots, game_seed, time_limit=limit, on_turn=watch, max_turns=max_turns
            )
            for bot in bots:
                close = getattr(bot, "close", None)
                if close is not None:
                    close()
            report.games += 1
            if tested_seat in match.winners:
                report.wins += 1 / len(match.winners)
            report.rounds += len(match.rounds)
            for r, rd in enumerate(match.rounds):
                if rd.end is not None and rd.end.reason == "abandoned":
                    report.violations.append(
                        Violation(
                            name,
                            game_seed,
                            r,
                            len(rd.turns),
                            tested_seat,
                            "abandoned",
                            f"round still running after {max_turns} turns",
                        )
                    )
            try:
                verify(load_record(match_record(match)))
            except RummikubError as exc:
                report.violations.append(
                    Violation(name, game_seed, round_index[0], 0, tested_seat, "record", str(exc))
                )
    return report
