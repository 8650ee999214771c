"""The in-process layer of the server tests: the real application (``create_app``: its room
manager, handlers, SQLite storage in a temporary directory, worker processes for the bots) run
in the test's own event loop on a :class:`~rummikub.server.runtime.clock.FakeClock`, driven
through ``httpx``'s ASGI transport (HTTP) and the ``httpx-ws`` package's ASGI WebSocket
transport, the same protocol client as :class:`.helpers.Client` but asynchronous.

Nothing is mocked: a message goes through the middleware, the WebSocket route, the dispatcher,
the room and the group commit to the database and back, as in a server process. Only time is
the test's: a turn clock of 90 s runs out when the test says ``await server.advance(90)``,
whatever the machine's speed.

The deals are fixed: the n-th room an application makes is dealt with seed ``seed * 1000 + n``
(``create_app(seed=...)``, as ``RUMMIKUB_TEST_SEED`` does for a server process).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
from fastapi import FastAPI
from httpx_ws import AsyncWebSocketSession, aconnect_ws
from httpx_ws.transport import ASGIWebSocketTransport

from rummikub.server import ServerConfig, create_app
from rummikub.server.manager import RoomManager
from rummikub.server.runtime.clock import FakeClock

from .helpers import past, to_move_or_over

T = TypeVar("T")
#: leaves a context entered by :func:`hold`
Closer = Callable[[], Awaitable[None]]

#: the address and port the application believes it is served on (the ``Host`` it checks)
BASE = "http://127.0.0.1:8000"
#: the client address of a client that names none (``source``)
LOOPBACK = "127.0.0.1"
#: how long a test waits for a message that should come (real seconds: what comes after a
#: database write or a bot's move in its worker process takes real time)
WAIT = 30.0


@dataclass
class Server:
    """An application running in the test's event loop (see the module's text)."""

    app: FastAPI
    clock: FakeClock
    db_url: str
    _stack: contextlib.AsyncExitStack = field(default_factory=contextlib.AsyncExitStack)
    clients: list[Client] = field(default_factory=list)

    @property
    def manager(self) -> RoomManager:
        manager: RoomManager = self.app.state.manager
        return manager

    async def advance(self, seconds: float) -> None:
        """Move the application's time on (:meth:`FakeClock.advance`)."""
        await self.clock.advance(seconds)

    def http(self, source: str = LOOPBACK) -> httpx.AsyncClient:
        """An HTTP client from the address ``source``."""
        transport = httpx.ASGITransport(app=self.app, client=(source, 40000))
        return httpx.AsyncClient(transport=transport, base_url=BASE)

    async def request(
        self, method: str, path: str, *, source: str = LOOPBACK, **kw: Any
    ) -> httpx.Response:
        async with self.http(source) as http:
            return await http.request(method, path, **kw)

    async def get(self, path: str, *, source: str = LOOPBACK) -> tuple[int, Any]:
        """``GET path``: the status and the JSON body (as :meth:`.ServerProcess.get`)."""
        r = await self.request("GET", path, source=source)
        return r.status_code, r.json()

    async def connect(
        self,
        *,
        browser_id: str | None = "new",
        source: str = LOOPBACK,
        session: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Client:
        """A WebSocket client (as :class:`.helpers.Client`: ``browser_id``, ``source``,
        ``session``); closed with the server unless closed before."""
        if browser_id == "new":
            browser_id = uuid.uuid4().hex
        url = f"{BASE.replace('http', 'ws')}/ws"
        if browser_id is not None:
            url = f"{url}?client={browser_id}"
        all_headers = dict(headers or {})
        if session:
            all_headers["Cookie"] = f"rummikub_session={session}"

        @contextlib.asynccontextmanager
        async def socket() -> AsyncIterator[AsyncWebSocketSession]:
            ws: AsyncWebSocketSession
            async with (
                # the application's accept is waited for as any message (httpx-ws gives it
                # 1 s by default: too short on a busy machine)
                ASGIWebSocketTransport(
                    app=self.app, client=(source, 40001), initial_receive_timeout=WAIT
                ) as transport,
                httpx.AsyncClient(transport=transport, base_url=BASE) as http,
                aconnect_ws(
                    url,
                    http,
                    headers=all_headers,
                    keepalive_ping_interval_seconds=None,
                    max_message_size_bytes=2**22,
                ) as ws,
            ):
                yield ws

        ws, close = await hold(socket())
        client = Client(ws, close)
        self._stack.push_async_callback(client.close)
        self.clients.append(client)
        return client


async def hold(cm: contextlib.AbstractAsyncContextManager[T]) -> tuple[T, Closer]:
    """Enter ``cm`` in a task of its own, which exits it when the returned closer is awaited:
    a context holding an anyio task group (the WebSocket transport's) must be left in the
    task that entered it, and pytest runs a fixture's teardown in another task than the
    test."""
    entered: asyncio.Future[T] = asyncio.get_running_loop().create_future()
    leave = asyncio.Event()

    async def keep() -> None:
        try:
            async with cm as value:
                entered.set_result(value)
                await leave.wait()
        except BaseException as exc:
            if not entered.done():
                entered.set_exception(exc)
                return
            raise

    task = asyncio.create_task(keep())

    async def close() -> None:
        leave.set()
        await task

    try:
        return await entered, close
    except BaseException:
        await task
        raise


@contextlib.asynccontextmanager
async def running(
    tmp_path: Path,
    *,
    seed: int | None = 7,
    config: ServerConfig | None = None,
    clock: FakeClock | None = None,
    db_url: str | None = None,
) -> AsyncIterator[Server]:
    """The application on a fresh SQLite database in ``tmp_path`` (or ``db_url``), started
    (its lifespan run), on a fake clock; stopped afterwards, every client closed first."""
    db_url = db_url or f"sqlite:///{tmp_path / 'rummikub.db'}"
    cfg = config or ServerConfig()
    cfg = ServerConfig(**{**_fields(cfg), "db_url": db_url})
    clock = clock or FakeClock()
    app = create_app(cfg, clock=clock, seed=seed)
    _, stop = await hold(app.router.lifespan_context(app))
    server = Server(app, clock, db_url)
    try:
        async with server._stack:
            yield server
    finally:
        await stop()


def _fields(cfg: ServerConfig) -> dict[str, Any]:
    return {name: getattr(cfg, name) for name in cfg.__dataclass_fields__}


class Client:
    """A protocol client (:class:`.helpers.Client`'s methods, awaited): send messages, wait
    for the ones you need, remember the last state."""

    def __init__(self, ws: AsyncWebSocketSession, close: Closer) -> None:
        self.ws = ws
        self._close = close
        self.state: dict[str, Any] | None = None
        self.seen: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.closed = False

    async def close(self) -> None:
        """Close the connection (the server sees the client go)."""
        if not self.closed:
            self.closed = True
            await self._close()

    async def send(self, **msg: Any) -> None:
        await self.ws.send_text(json.dumps(msg))

    async def send_raw(self, text: str | bytes) -> None:
        if isinstance(text, bytes):
            await self.ws.send_bytes(text)
        else:
            await self.ws.send_text(text)

    async def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        text = await self.ws.receive_text(timeout=timeout)
        self.raw.append(text)
        msg: dict[str, Any] = json.loads(text)
        self.seen.append(msg)
        if msg["type"] == "state":
            self.state = msg
        return msg

    async def wait(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = WAIT
    ) -> dict[str, Any]:
        """The next message that ``pred`` accepts (the others are kept in :attr:`seen`)."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message")
            msg = await self.recv(left)
            if pred(msg):
                return msg

    async def request(self, timeout: float = WAIT, **msg: Any) -> dict[str, Any]:
        """Send with an id and return the reply with that id (``ok``, ``error``, ...)."""
        rid = f"r{time.monotonic_ns()}"
        await self.send(id=rid, **msg)
        return await self.wait(lambda m: m.get("id") == rid, timeout)

    async def wait_state(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = WAIT
    ) -> dict[str, Any]:
        if self.state is not None and pred(self.state):
            return self.state
        return await self.wait(lambda m: m["type"] == "state" and pred(m), timeout)

    async def quiet(self, seconds: float = 0.2) -> list[dict[str, Any]]:
        """The messages that come within ``seconds`` (real time), none expected to."""
        got = []
        with contextlib.suppress(TimeoutError):
            while True:
                got.append(await self.recv(seconds))
        return got

    def my_turn(self) -> bool:
        s = self.state
        return bool(
            s and s["game"] and not s["game"]["round_over"] and s["game"]["current"] == s["you"]
        )


def game(state: dict[str, Any] | None) -> dict[str, Any]:
    assert state is not None and state["game"] is not None
    g: dict[str, Any] = state["game"]
    return g


async def create_vs_bots(
    c: Client, bots: int = 1, *, rules: Any = "standard", **settings: Any
) -> dict[str, Any]:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "beginner"}] * bots
    reply = await c.request(
        type="create", name="Ann", rules=rules, seats=seats, settings={"bot_delay": 0, **settings}
    )
    assert reply["type"] == "joined", reply
    return reply


async def draw_and_wait(c: Client, g: dict[str, Any]) -> dict[str, Any]:
    """Draw (or pass when the pool is empty) in game view ``g`` and return the next state
    (:func:`.helpers.draw_and_wait`)."""
    return await _act_and_wait(c, g, type="draw" if g["pool_size"] else "pass")


async def play_and_wait(c: Client, g: dict[str, Any], table: list[list[str]]) -> dict[str, Any]:
    """Play the new table ``table`` in game view ``g`` and return the next state."""
    return await _act_and_wait(c, g, type="play", table=table)


async def _act_and_wait(c: Client, g: dict[str, Any], **msg: Any) -> dict[str, Any]:
    reply = await c.request(**msg)
    assert reply["type"] == "ok", reply
    return await c.wait_state(past(g))


async def draw_until_round_over(c: Client, turns: int = 400) -> dict[str, Any]:
    """Play the human seat by drawing (or passing) until the round ends (at most ``turns``
    of his turns)."""
    for _ in range(turns):
        state = await c.wait_state(to_move_or_over)
        g = game(state)
        if g["round_over"]:
            return state
        await draw_and_wait(c, g)
    raise AssertionError(f"the round did not end in {turns} turns")
