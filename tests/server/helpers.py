"""Shared helpers of the server tests: a real server process and a WebSocket client."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from .forked import Forked, spawn

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: characters of a stopped server's log a failed test's report shows
LOG_TAIL = 6000


class _PortTaken(RuntimeError):
    pass


class ServerProcess:
    """``rummikub serve`` in a process of its own on a free port of 127.0.0.1 (forked from the
    test process's warm parent, :mod:`.forked`)."""

    def __init__(
        self,
        db_url: str,
        port: int | None = None,
        args: Sequence[str] = (),
        *,
        env: dict[str, str] | None = None,
    ) -> None:
        self.db_url = db_url
        self.env = env or {}
        self.port = port or free_port()
        self.args = list(args)  # more options of ``rummikub serve``
        self.proc: Forked | subprocess.Popen[bytes] | None = None
        # The server's output goes to a file: a pipe nobody reads would fill and stall the server.
        self.log_file = Path(tempfile.mkstemp(prefix="rummikub-serve-", suffix=".log")[1])

    def output(self) -> str:
        """Everything the server printed so far (all of its runs)."""
        try:
            return self.log_file.read_text(errors="replace")
        except FileNotFoundError:  # stopped: the log is gone
            return ""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> ServerProcess:
        """Start the server and wait until it answers. Should another process have taken the
        port since it was chosen (``free_port`` lets it go before the server binds it), a new
        port is chosen and the server started again."""
        for _ in range(3):
            try:
                return self._start()
            except _PortTaken:
                self.port = free_port()
        return self._start()

    def _start(self) -> ServerProcess:
        env = dict(os.environ, PYTHONUNBUFFERED="1", **self.env)
        seen = len(self.output())
        # forked from this test process's warm parent (tests/server/forked.py): the same
        # command line, without importing the server again
        self.proc = spawn(
            ["serve", "--port", str(self.port), "--db", self.db_url, *self.args],
            env,
            self.log_file,
        )
        # a failsafe, not a wait: the loop ends as soon as the server answers (a loaded
        # machine starting three cluster nodes at once has taken more than 30 s)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                said = self.output()[seen:]
                if "address already in use" in said.lower():
                    raise _PortTaken(said)
                raise RuntimeError(f"server exited: {said}")
            try:
                with urllib.request.urlopen(self.base + "/api/health", timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"server did not start: {self.output()[seen:][-2000:]}")

    def kill(self) -> None:
        """Kill the server at once (SIGKILL: no shutdown code runs)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self, *, keep_log: bool = False) -> None:
        """Stop the server (Ctrl+C, then SIGKILL after 10 s) and delete its log (kept with
        ``keep_log``, for a server that is started again)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        if not keep_log:
            # the end of the log to the test's output, which pytest shows only when the test
            # fails: what the server said is then in the report (the file is gone)
            said = self.output()
            if said:
                print(
                    f"--- the end of the log of serve {' '.join(self.args)} ---\n{said[-LOG_TAIL:]}"
                )
            self.log_file.unlink(missing_ok=True)

    def get(self, path: str) -> tuple[int, Any]:
        try:
            with urllib.request.urlopen(self.base + path, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())


class Client:
    """A protocol client: send messages, wait for the ones you need, remember the last state."""

    def __init__(
        self,
        url: str,
        *,
        browser_id: str | None = "new",
        source: str | None = None,
        session: str | None = None,
    ) -> None:
        """``browser_id``: the id a browser sends to say who it is (``"new"``: a fresh one, as
        a new browser would; ``None``: none, as a bare script). ``source``: the loopback address
        to connect from (budgets are per address). ``session``: the session cookie of an
        account (the handshake carries it, as a logged-in browser's does)."""
        if browser_id == "new":
            browser_id = uuid.uuid4().hex
        if browser_id is not None:
            url = f"{url}?client={browser_id}"
        sock = None
        if source is not None:
            host, port = url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
            sock = socket.create_connection((host, int(port)), source_address=(source, 0))
        headers = {"Cookie": f"rummikub_session={session}"} if session else None
        # max_queue=None: the connection's thread takes every message in as it comes, read or
        # not, so a client a test stops reading (one that only made the room a browser plays
        # in) does not hold the server's messages back and its close is answered at once, not
        # after the 10 s close_timeout
        self.ws: ClientConnection = connect(
            url, max_size=2**22, max_queue=None, sock=sock, additional_headers=headers
        ).__enter__()
        self.state: dict[str, Any] | None = None
        self.seen: list[dict[str, Any]] = []
        self.raw: list[str] = []

    def close(self) -> None:
        self.ws.close()

    def send(self, **msg: Any) -> None:
        self.ws.send(json.dumps(msg))

    def send_raw(self, text: str | bytes) -> None:
        self.ws.send(text)

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        msg: dict[str, Any] = json.loads(text)
        self.seen.append(msg)
        if msg["type"] == "state":
            self.state = msg
        return msg

    def wait(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 20) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message")
            msg = self.recv(left)
            if pred(msg):
                return msg

    def request(self, timeout: float = 20, **msg: Any) -> dict[str, Any]:
        """Send with an id and return the reply with that id (``ok``, ``error``, ...)."""
        rid = f"r{time.monotonic_ns()}"
        self.send(id=rid, **msg)
        return self.wait(lambda m: m.get("id") == rid, timeout)

    def wait_state(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = 30
    ) -> dict[str, Any]:
        if self.state is not None and pred(self.state):
            return self.state
        return self.wait(lambda m: m["type"] == "state" and pred(m), timeout)

    def my_turn(self) -> bool:
        s = self.state
        return bool(
            s and s["game"] and not s["game"]["round_over"] and s["game"]["current"] == s["you"]
        )


def game(state: dict[str, Any] | None) -> dict[str, Any]:
    assert state is not None and state["game"] is not None
    g: dict[str, Any] = state["game"]
    return g


#: a small tile set and small racks: a game of some twenty turns, analysed in a second (for
#: tests that need a finished game, not any game in particular)
SMALL = {"preset": "standard", "numbers": 7, "copies": 1, "rack_size": 6, "opening_value": 0}


def create_vs_bots(
    c: Client, bots: int = 1, *, rules: Any = "standard", **settings: Any
) -> dict[str, Any]:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "beginner"}] * bots
    reply = c.request(
        type="create", name="Ann", rules=rules, seats=seats, settings={"bot_delay": 0, **settings}
    )
    assert reply["type"] == "joined", reply
    return reply


def to_move_or_over(s: dict[str, Any]) -> bool:
    """A state where it is the client's turn, or the round is over."""
    return s["game"] is not None and bool(
        s["game"]["round_over"] or s["game"]["current"] == s["you"]
    )


def past(g: dict[str, Any]) -> Callable[[dict[str, Any]], bool]:
    """A state past the turn of game view ``g`` (the move made in it has been taken)."""
    acted_on = (g["round"], g["turn"])
    return lambda s: s["game"] is not None and (s["game"]["round"], s["game"]["turn"]) > acted_on


def draw_until_round_over(c: Client, timeout: float = 60) -> dict[str, Any]:
    """Play the human seat by drawing (or passing) until the round ends."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        state = c.wait_state(to_move_or_over)
        g = game(state)
        if g["round_over"]:
            return state
        draw_and_wait(c, g)
    raise TimeoutError("round did not end")


def draw_and_wait(c: Client, g: dict[str, Any]) -> dict[str, Any]:
    """Draw (or pass when the pool is empty) in game view ``g`` and return the next state.

    The state after the move may arrive before the reply, so the latest state is kept and turn
    numbers are compared instead of discarding it."""
    return _act_and_wait(c, g, type="draw" if g["pool_size"] else "pass")


def play_and_wait(c: Client, g: dict[str, Any], table: list[list[str]]) -> dict[str, Any]:
    """Play the new table ``table`` in game view ``g`` and return the next state."""
    return _act_and_wait(c, g, type="play", table=table)


def _act_and_wait(c: Client, g: dict[str, Any], **msg: Any) -> dict[str, Any]:
    reply = c.request(**msg)
    assert reply["type"] == "ok", reply
    return c.wait_state(past(g))


def missing_go_outs(g: dict[str, Any], you: int, rules: Any) -> tuple[Any, bool]:
    """The move of a player who misses going out, in game view ``g`` (seat ``you``): the new
    table after laying the solver's most tiles while they leave a tile on the rack, or None to
    draw (nothing to lay, or the whole rack would go); and whether the whole rack could have
    gone (a go-out missed, once the player has opened)."""
    from rummikub.core import Table
    from rummikub.core.tiles import parse_tiles
    from rummikub.solver import solve

    rack = parse_tiles(" ".join(g["rack"]))
    opened = bool(g["opened"][you])
    best = solve(Table.from_json(g["table"]), rack, opened=opened, rules=rules)
    missed = opened and best.tiles == len(rack)
    return (best.table.to_json() if 0 < best.tiles < len(rack) else None), missed
