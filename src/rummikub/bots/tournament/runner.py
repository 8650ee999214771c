"""Running a tournament: games in parallel worker processes, results appended as they finish."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from rummikub.core import player_count_error
from rummikub.games import get_game

from ..executors import open_executor
from ..play import TurnEvent, play_match
from ..specs import make_bot
from .results import GameResult, ResultsFile, TournamentConfig
from .schedule import Pairing, schedule
from .stats import Standings, standings

__all__ = ["Interrupted", "play_pairing", "run_tournament"]

Progress = Callable[[int, int], None]

#: how often the tournament looks whether Ctrl+C was pressed while it waits for a game
STOP_CHECK_SECONDS = 0.2


def play_pairing(
    pairing: Pairing,
    rules: Any,
    time_limit: float | None,
    game_name: str = "tiles",
    stop: threading.Event | None = None,
) -> tuple[GameResult, dict[str, Any]]:
    """Play one scheduled game of the game ``game_name``; its result line and its record.
    Once ``stop`` is set, :class:`KeyboardInterrupt` is raised after the decision under way."""
    game = get_game(game_name)
    bots = [
        make_bot(spec, pairing.bot_seed(seat), time_limit=time_limit, game=game.name)
        for seat, spec in enumerate(pairing.seats)
    ]
    n = len(bots)
    decisions = [0] * n
    seconds = [0.0] * n
    problems = [0] * n

    def watch(ev: TurnEvent) -> None:
        if stop is not None and stop.is_set():
            raise KeyboardInterrupt
        decisions[ev.player] += 1
        seconds[ev.player] += ev.seconds
        if ev.problem is not None and ev.problem != "slow":
            problems[ev.player] += 1

    names = [f"{spec}#{seat + 1}" for seat, spec in enumerate(pairing.seats)]
    limit: float | str | None = "rules" if time_limit is None else time_limit
    try:
        match = play_match(rules, bots, pairing.seed, game=game, names=names,
                           time_limit=limit, on_turn=watch)  # type: ignore[arg-type]  # fmt: skip
    finally:
        for bot in bots:
            close = getattr(bot, "close", None)
            if close is not None:
                close()
    result = GameResult(
        game=pairing.game, deal=pairing.deal, rotation=pairing.rotation, seed=pairing.seed,
        seats=pairing.seats, totals=match.totals, winners=tuple(match.winners),
        rounds=len(match.rounds), turns=sum(decisions),
        decisions=tuple(decisions), seconds=tuple(seconds), problems=tuple(problems),
    )  # fmt: skip
    record = game.match_record(match)
    record["tournament"] = {"game": pairing.game, "deal": pairing.deal,
                            "rotation": pairing.rotation}  # fmt: skip
    return result, record


def _pending(config: TournamentConfig, games: int, done: set[int]) -> Iterator[Pairing]:
    for p in schedule(config.bots, config.players, games, config.seed):
        if p.game not in done:
            yield p


class Interrupted(KeyboardInterrupt):
    """A tournament stopped by Ctrl+C (SIGINT): every game finished before it is in the
    results file (``finished`` of the ``total`` asked for); the games under way were dropped
    and are played again when the same command is run again."""

    def __init__(self, finished: int, total: int) -> None:
        super().__init__(f"{finished} of {total} games finished")
        self.finished = finished
        self.total = total


def _ignore_sigint() -> None:  # pragma: no cover - runs in the worker processes
    """A worker process leaves Ctrl+C to the tournament: the terminal sends SIGINT to every
    process of the command, and a worker stopped in the middle of a game would only break
    the pool (the tournament stops the workers itself, at once)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def _sigint_flag() -> Iterator[threading.Event]:
    """An event set by Ctrl+C (SIGINT), which still raises :class:`KeyboardInterrupt` at once.
    The event makes the stop certain: an exception raised in a callback from compiled code
    (the solver's numba functions call back into Python) can be lost there, and the game goes
    on, so the games check the event after every decision. Outside the main thread (where
    Python runs signal handlers) the event is never set."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def on_sigint(signum: int, frame: object) -> None:
        stop.set()
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


def _stop_workers(pool: Executor) -> None:
    """Stop ``pool`` without waiting for the games under way: its worker processes are
    terminated (a game takes seconds; Ctrl+C must stop the tournament within 2)."""
    # the processes before the shutdown forgets them (no public way to stop a process pool's
    # workers in Python 3.11: 3.14 adds terminate_workers)
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        proc.terminate()
    for proc in processes:
        proc.join(1.0)


def run_tournament(
    config: TournamentConfig,
    games: int,
    out: Path,
    *,
    workers: int | None = None,
    records: Path | None = None,
    fresh: bool = False,
    progress: Progress | None = None,
    ray: str | None = None,
) -> Standings:
    """Play the games of ``config`` not yet in ``out`` (``workers`` processes; default: one per
    core; 1 runs in this process; with ``ray``, tasks on that Ray cluster — see
    :class:`~rummikub.bots.executors.RayExecutor`) and return the standings over all games in
    the file. ``progress(done, total)`` is called as games finish. Every game's result depends
    only on its seed: the same file comes out however the games are spread.

    Ctrl+C (SIGINT) raises :class:`Interrupted` at once: the games finished by then, also
    those whose results were still on their way from a worker, are in ``out``; the games under
    way are dropped (their worker processes stopped)."""
    game = get_game(config.game)
    rules = game.rules_from_json(config.rules)
    if config.players not in game.player_counts(rules):
        raise player_count_error(config.players, game.player_counts(rules))
    workers = workers or os.cpu_count() or 1
    with ResultsFile(out, config, records=records, fresh=fresh) as results:
        total = games
        finished = sum(1 for g in results.done if g < games)
        if progress is not None:
            progress(finished, total)
        todo = _pending(config, games, set(results.done))
        if workers <= 1 and ray is None:
            try:
                with _sigint_flag() as stop:
                    for pairing in todo:
                        result, record = play_pairing(
                            pairing, rules, config.time_limit, game.name, stop
                        )
                        _add_whole(results, result, record)
                        finished += 1
                        if progress is not None:
                            progress(finished, total)
                        if stop.is_set():
                            raise KeyboardInterrupt
            except KeyboardInterrupt:
                raise Interrupted(finished, total) from None
        else:
            pool: Executor
            if ray is None:
                pool, at_once = ProcessPoolExecutor(workers, initializer=_ignore_sigint), workers
            else:
                pool, at_once = open_executor(workers, ray)
            running: set[Future[tuple[GameResult, dict[str, Any]]]] = set()
            try:
                with _sigint_flag() as stop:
                    for pairing in todo:
                        running.add(
                            pool.submit(play_pairing, pairing, rules, config.time_limit, game.name)
                        )
                        if len(running) >= at_once * 2:
                            finished += _collect(running, results, stop)
                            if progress is not None:
                                progress(finished, total)
                    while running:
                        finished += _collect(running, results, stop)
                        if progress is not None:
                            progress(finished, total)
            except KeyboardInterrupt:
                finished += _keep_finished(running, results)
                _stop_workers(pool)
                raise Interrupted(finished, total) from None
            except BaseException:
                _stop_workers(pool)
                raise
            pool.shutdown(wait=True)
        outcomes = [r.outcome() for g, r in sorted(results.done.items()) if g < games]
    return standings(outcomes, config.bots)


def _keep_finished(
    running: set[Future[tuple[GameResult, dict[str, Any]]]], results: ResultsFile
) -> int:
    """Write the games of ``running`` that finished (their results not collected yet); the
    number written."""
    kept = 0
    for fut in running:
        if fut.done() and not fut.cancelled() and fut.exception() is None:
            result, record = fut.result()
            if result.game not in results.done:  # not written just before the interruption
                _add_whole(results, result, record)
                kept += 1
    return kept


def _collect(
    running: set[Future[tuple[GameResult, dict[str, Any]]]],
    results: ResultsFile,
    stop: threading.Event,
) -> int:
    """Write the games of ``running`` that finish first (at least one); the number written.
    Waits in short steps, checking ``stop`` (Ctrl+C) between them: the KeyboardInterrupt of
    Ctrl+C alone has been seen lost with the pool's threads about."""
    done: set[Future[tuple[GameResult, dict[str, Any]]]] = set()
    while not done:
        if stop.is_set():
            raise KeyboardInterrupt
        done, _ = wait(running, timeout=STOP_CHECK_SECONDS, return_when=FIRST_COMPLETED)
    for fut in done:
        _add_whole(results, *fut.result())
        running.discard(fut)
    return len(done)


def _add_whole(results: ResultsFile, result: GameResult, record: dict[str, Any]) -> None:
    """Write a game's record and result with Ctrl+C held back until both are written (the
    interruption comes right after), so no game is half in the files."""
    mask = getattr(signal, "pthread_sigmask", None)  # not on Windows
    if mask is None:  # pragma: no cover - POSIX in the tests
        results.add(result, record)
        return
    held = mask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        results.add(result, record)
    finally:
        mask(signal.SIG_SETMASK, held)
