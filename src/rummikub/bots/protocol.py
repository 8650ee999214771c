"""Outside bots: a program in any language that speaks the line-based JSON protocol
``rummikub-bot/1`` on its standard input and output (see ``docs/bots.md``).

:class:`OutsideBot` is the host side. It starts the program, sends it the observation each turn
and turns its answer into an action. Nothing the program does can crash the host: a program
that misses its deadline gets a :class:`~rummikub.core.Timeout` (and is restarted before its
next turn), one that exits is restarted (up to ``max_restarts`` times, then every turn is a
timeout), and a line that is not a valid answer is a rejected play.
"""

from __future__ import annotations

import contextlib
import json
import queue
import shlex
import subprocess
import threading
import time
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from rummikub.core import (
    Action,
    Draw,
    Meld,
    Observation,
    Pass,
    Play,
    Rules,
    RummikubError,
    Table,
    Timeout,
    parse_tile,
)

from .moves import check_observed

__all__ = ["PROTOCOL", "OutsideBot", "ProtocolError", "parse_answer"]

PROTOCOL = "rummikub-bot/1"
#: time a bot gets per decision when the rules set no turn limit
DEFAULT_LIMIT = 30.0


class ProtocolError(RummikubError):
    """A line from an outside bot that is not a valid answer."""


def parse_answer(line: str) -> Action:
    """The action in one answer line: ``{"action": "play", "play": [...], "table": [[...]]}``,
    ``{"action": "draw"}`` or ``{"action": "pass"}``. Raises :class:`ProtocolError` naming
    what is wrong."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"not JSON: {exc.msg} at column {exc.colno}") from None
    if not isinstance(data, dict):
        raise ProtocolError("an answer must be a JSON object")
    kind = data.get("action")
    if kind == "draw":
        return Draw()
    if kind == "pass":
        return Pass()
    if kind != "play":
        raise ProtocolError(f"'action' must be 'play', 'draw' or 'pass', got {kind!r}")
    tiles = data.get("play")
    table = data.get("table")
    if not isinstance(tiles, list) or not all(isinstance(t, str) for t in tiles):
        raise ProtocolError("'play' must be a list of tile strings")
    if not isinstance(table, list):
        raise ProtocolError("'table' must be a list of melds (lists of tile strings)")
    try:
        placed = tuple(parse_tile(t, position=i) for i, t in enumerate(tiles))
        melds = tuple(Meld.from_json(m, where=f"table meld {i + 1}") for i, m in enumerate(table))
    except RummikubError as exc:
        raise ProtocolError(str(exc)) from None
    return Play(placed, Table(melds))


class _Process:
    """One running bot program with a reader thread feeding its output lines to a queue, and
    one keeping the last lines of its standard error (copied to ``stderr`` when given), to
    tell why a program that stopped did."""

    #: lines of standard error kept
    TAIL = 20

    def __init__(self, argv: Sequence[str], cwd: Path | None, stderr: IO[str] | None) -> None:
        self.proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
            cwd=cwd,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.stderr_tail: deque[str] = deque(maxlen=self.TAIL)
        self.copy_to = stderr
        self.err_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self.err_reader.start()

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        try:
            for line in self.proc.stderr:
                self.stderr_tail.append(line.rstrip("\n"))
                if self.copy_to is not None:
                    with contextlib.suppress(OSError, ValueError):
                        self.copy_to.write(line)
                        self.copy_to.flush()
        except (OSError, ValueError):
            pass

    def _read(self) -> None:
        assert self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(None)  # end of output: the program exited or closed stdout

    def send(self, message: dict[str, Any]) -> bool:
        """Write one line; False if the program no longer reads."""
        if self.proc.stdin is None or self.proc.poll() is not None:
            return False
        try:
            self.proc.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            return False
        return True

    def receive(self, deadline: float) -> str:
        """The next non-empty line before ``deadline`` (``time.monotonic``); raises
        ``TimeoutError`` when the deadline passes, ``EOFError`` when the program is gone."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                raise TimeoutError from None
            if line is None:
                self.lines.put(None)
                raise EOFError
            if line.strip():
                return line.strip()

    def stop(self, grace: float = 0.5) -> None:
        if self.proc.poll() is None:
            self.send({"type": "quit"})
            try:
                self.proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.err_reader.join(timeout=1.0)  # the last lines it wrote, before they are read
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


class OutsideBot:
    """A bot played by an outside program (``cmd`` is a command line or an argument list).

    ``startup_timeout`` bounds the wait for the ``ready`` line; ``default_limit`` is the time per
    decision when neither the caller nor the rules give one. ``stderr``: a file the program's
    standard error goes to (default: discarded; its last lines are kept either way). Counters
    ``timeouts``, ``crashes``, ``rejected`` and ``restarts`` say how it behaved;
    ``start_error`` why its last start failed (None: it started), ``stderr_tail`` the last
    lines the program wrote to standard error."""

    def __init__(
        self,
        cmd: str | Sequence[str],
        *,
        name: str | None = None,
        startup_timeout: float = 10.0,
        default_limit: float = DEFAULT_LIMIT,
        max_restarts: int = 3,
        cwd: str | Path | None = None,
        stderr: IO[str] | None = None,
    ) -> None:
        self.argv = shlex.split(cmd) if isinstance(cmd, str) else list(cmd)
        if not self.argv:
            raise RummikubError("an outside bot needs a command")
        self.name = name or "cmd:" + (cmd if isinstance(cmd, str) else shlex.join(cmd))
        self.startup_timeout = startup_timeout
        self.default_limit = default_limit
        self.max_restarts = max_restarts
        self.cwd = Path(cwd) if cwd is not None else None
        self.stderr = stderr
        self.program_name: str | None = None
        self.timeouts = self.crashes = self.rejected = self.starts = 0
        self.dead = False
        self.start_error: str | None = None
        self.ran = False  # a process was started at least once (it has standard error)
        self.stderr_tail: list[str] = []
        self._proc: _Process | None = None
        self._game: tuple[Rules, int, int] | None = None
        self._game_sent = False

    # -- lifecycle ------------------------------------------------------------------------
    def _start(self) -> _Process | None:
        """A running, greeted program, or None when it cannot be had."""
        if self._proc is not None:
            if self._proc.proc.poll() is None:
                return self._proc
            self._proc.stop()  # it exited between turns
            self._proc = None
            self.crashes += 1
        if self.dead or self.starts > self.max_restarts:
            self.dead = True
            return None
        self.starts += 1
        try:
            proc = _Process(self.argv, self.cwd, self.stderr)
        except OSError as exc:
            self.dead = True
            self.start_error = f"cannot run {self.argv[0]}: {exc.strerror or exc}"
            return None
        self.ran = True
        proc.send({"type": "hello", "protocol": PROTOCOL})
        deadline = time.monotonic() + self.startup_timeout
        try:
            while True:
                line = proc.receive(deadline)
                try:
                    msg = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if isinstance(msg, dict) and msg.get("type") == "ready":
                    name = msg.get("name")
                    self.program_name = name if isinstance(name, str) else None
                    break
        except (TimeoutError, EOFError) as exc:
            proc.stop(grace=0.0)
            self.stderr_tail = list(proc.stderr_tail)
            status = proc.proc.returncode
            if isinstance(exc, TimeoutError):
                self.start_error = f"no ready line within {self.startup_timeout:g} s"
            elif status is not None and status != 0:
                self.start_error = f"it exited with status {status} before its ready line"
            else:
                self.start_error = "it stopped before its ready line"
            self.crashes += 1
            return None
        self.start_error = None
        self._proc = proc
        self._game_sent = False
        return proc

    @property
    def restarts(self) -> int:
        """How many times the program was started again after the first start."""
        return max(0, self.starts - 1)

    def check_start(self) -> str | None:
        """Start the program and greet it as a game would: None when it answers ``ready``
        (it is stopped again), else why not (:attr:`stderr_tail` has its last words)."""
        proc = self._start()
        if proc is None:
            return self.start_error or "it could not be started"
        self.close()
        return None

    def _kill(self) -> None:
        if self._proc is not None:
            self._proc.stop(grace=0.0)
            self.stderr_tail = list(self._proc.stderr_tail)
            self._proc = None

    def close(self) -> None:
        """Say ``quit`` and stop the program."""
        if self._proc is not None:
            self._proc.stop()
            self.stderr_tail = list(self._proc.stderr_tail)
            self._proc = None

    def __enter__(self) -> OutsideBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:  # pragma: no cover - best effort at interpreter exit
        with contextlib.suppress(Exception):
            self._kill()

    # -- game hooks -----------------------------------------------------------------------
    def start_game(self, rules: Rules, player: int, players: int) -> None:
        """Tell the program a new game starts (sent lazily before its first turn)."""
        self._game = (rules, player, players)
        self._game_sent = False

    def end_game(self, scores: Sequence[int], winners: Sequence[int]) -> None:
        """Tell the program the game is over."""
        if self._proc is not None and self._game_sent:
            self._proc.send({"type": "game_over", "scores": list(scores), "winners": list(winners)})
        self._game = None
        self._game_sent = False

    # -- turns ----------------------------------------------------------------------------
    def act(self, obs: Observation, time_limit: float | None = None) -> Action:
        limit = time_limit if time_limit is not None else self.default_limit
        deadline = time.monotonic() + limit
        proc = self._start()
        if proc is None:
            return Timeout()
        game = self._game
        if game is None or game[1] != obs.player or game[2] != obs.players:
            game = self._game = (obs.rules, obs.player, obs.players)
            self._game_sent = False
        if not self._game_sent:
            proc.send(
                {
                    "type": "new_game",
                    "rules": game[0].to_dict(),
                    "player": game[1],
                    "players": game[2],
                }
            )
            self._game_sent = True
        sent = proc.send(
            {
                "type": "turn",
                "observation": obs.to_json(),
                "time_limit": round(max(0.0, deadline - time.monotonic()), 3),
            }
        )
        if not sent:
            return self._crashed()
        while True:
            try:
                line = proc.receive(deadline)
            except TimeoutError:
                self.timeouts += 1
                self._kill()  # a late answer must not be read as the next turn's
                return Timeout()
            except EOFError:
                return self._crashed()
            problem: str
            action: Action | None
            try:
                action = parse_answer(line)
            except ProtocolError as exc:
                action, problem = None, f"bad answer: {exc}"
                reason = "bad-answer"
            else:
                if isinstance(action, Play):
                    err = check_observed(obs, action)
                    if err is None:
                        return action
                    if obs.rules.invalid_play == "penalty":
                        self.rejected += 1
                        proc.send(
                            {
                                "type": "error",
                                "reason": err.reason,
                                "message": str(err),
                                "retry": False,
                            }
                        )
                        return action  # the engine records the invalid play and penalises it
                    problem, reason = str(err), err.reason or "illegal"
                elif isinstance(action, Draw) and obs.pool_size == 0:
                    problem, reason = "the pool is empty: pass instead of drawing", "pool-empty"
                elif isinstance(action, Pass) and obs.pool_size > 0:
                    problem, reason = (
                        ("you can only pass when the pool is empty: draw instead"),
                        "pool-not-empty",
                    )
                else:
                    return action
            self.rejected += 1
            if action is None and obs.rules.invalid_play == "penalty":
                proc.send({"type": "error", "reason": reason, "message": problem, "retry": False})
                return Play((), obs.table)  # garbage counts as an invalid play
            if not proc.send(
                {"type": "error", "reason": reason, "message": problem, "retry": True}
            ):
                return self._crashed()

    def _crashed(self) -> Action:
        self._kill()
        self.crashes += 1
        return Timeout()
