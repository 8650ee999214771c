"""Server benchmark: many simultaneous bot-only games over real WebSocket connections.

Starts ``rummikub serve`` on a free loopback port (a fresh SQLite database unless ``--db``
is given), opens ``--games`` rooms with two seats each, and plays them with client-side
``beginner`` bots that see only their own state messages. Every action is timed from the
moment it is sent until *every* client of that room has received the resulting state; the
median, p90 and p99 of that latency are reported. Finished games are replaced by new ones, so
the number of concurrent games stays constant for ``--duration`` seconds.

    .venv/bin/python bench/server.py --games 200 --duration 30 --think 1.0
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from rummikub.bots import BeginnerBot
from rummikub.core import Draw, Observation, Pass, Play, Rack, Rules, Table, parse_tiles

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: str, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "rummikub.cli.main", "serve", "--port", str(port), "--db", db],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start")


POOL: Any = None


def decide(seat: int, g: dict[str, Any]) -> dict[str, Any]:
    """A beginner bot's move from one seat's state message (runs in a worker process)."""
    obs = Observation(
        player=seat,
        rules=Rules.from_dict("casual"),
        rack=Rack(parse_tiles(" ".join(g["rack"]))),
        table=Table.from_json(g["table"]),
        rack_sizes=tuple(g["rack_sizes"]),
        pool_size=g["pool_size"],
        opened=tuple(g["opened"]),
        current=g["current"],
        turn=g["turn"],
        passes=g["passes"],
        scores=tuple(g["totals"]),
    )
    action = BeginnerBot().act(obs)
    if isinstance(action, Play):
        return {"type": "play", "table": action.table.to_json()}
    if isinstance(action, Draw):
        return {"type": "draw"}
    assert isinstance(action, Pass)
    return {"type": "pass"}


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.games_done = 0
        self.errors = 0
        self.recording = False
        self.elapsed = 0.0


class Seat:
    """One connection playing one seat with a client-side bot."""

    def __init__(self, ws: ClientConnection, game: Game) -> None:
        self.ws = ws
        self.game = game
        self.seat: int | None = None
        self.state: dict[str, Any] | None = None
        self.acted_turn: tuple[int, int] | None = None

    async def send(self, **msg: Any) -> None:
        await self.ws.send(json.dumps(msg))

    async def run(self) -> None:
        async for raw in self.ws:
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "joined":
                self.seat = msg["seat"]
                self.game.joined(msg["room"])
            elif kind == "state":
                self.state = msg
                self.game.seen(self, msg["seq"])
                await self.maybe_act()
            elif kind == "error":
                self.game.stats.errors += 1
                self.acted_turn = None
                await self.maybe_act(fallback=True)
            if self.game.over:
                return

    async def maybe_act(self, fallback: bool = False) -> None:
        s = self.state
        if s is None or s["game"] is None:
            return
        g = s["game"]
        if g["round_over"] or g["match_over"]:
            self.game.finish()
            return
        if g["current"] != self.seat:
            return
        key = (g["round"], g["turn"])
        if self.acted_turn == key:
            return
        self.acted_turn = key
        if self.game.think:
            await asyncio.sleep(random.uniform(0.5, 1.5) * self.game.think)
        if fallback:
            msg = {"type": "draw" if g["pool_size"] else "pass"}
        else:  # the bot thinks in another process, so this one only measures
            loop = asyncio.get_running_loop()
            msg = await loop.run_in_executor(POOL, decide, s["you"], g)
        self.game.sent(s["seq"])
        await self.send(**msg)


class Game:
    def __init__(self, url: str, stats: Stats, think: float, source: str) -> None:
        self.url = url
        self.source = source
        self.stats = stats
        self.think = think
        self.rules = Rules.from_dict("casual")
        self.code: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.seats: list[Seat] = []
        self.pending: dict[int, tuple[float, set[int]]] = {}
        self.over = False
        self.done = asyncio.Event()

    def joined(self, code: str) -> None:
        if not self.code.done():
            self.code.set_result(code)

    def sent(self, seq: int) -> None:
        self.pending[seq + 1] = (time.perf_counter(), set())

    def seen(self, seat: Seat, seq: int) -> None:
        for target in [k for k in self.pending if k <= seq]:
            t0, got = self.pending[target]
            got.add(id(seat))
            if len(got) == len(self.seats):
                del self.pending[target]
                if self.stats.recording:
                    self.stats.latencies.append(time.perf_counter() - t0)
                    self.stats.actions += 1

    def finish(self) -> None:
        if not self.over:
            self.over = True
            self.stats.games_done += 1
            self.done.set()

    async def connect(self) -> ClientConnection:
        return await connect(f"{self.url}?client={uuid.uuid4().hex}", local_addr=(self.source, 0))

    async def play(self) -> None:
        # each player is a browser of his own (one seat per person), and each game's players
        # connect from their own loopback address (the server budgets per address)
        a = Seat(await self.connect(), self)
        b = Seat(await self.connect(), self)
        self.seats = [a, b]
        tasks = [asyncio.create_task(a.run())]
        await a.send(
            type="create",
            name="A",
            rules="casual",
            seats=[{"kind": "human"}, {"kind": "human"}],
            settings={"public": False, "hints": False},
        )
        code = await self.code
        tasks.append(asyncio.create_task(b.run()))
        await b.send(type="join", room=code, name="B")
        await self.done.wait()
        for seat in self.seats:
            await seat.ws.close()
        for t in tasks:
            t.cancel()


def loopback(n: int) -> str:
    """The n-th of many loopback addresses (all of 127.0.0.0/8 reaches this machine)."""
    return f"127.1.{n // 250}.{n % 250 + 1}"


async def keep_games(
    url: str, stats: Stats, think: float, stop: asyncio.Event, source: str
) -> None:
    while not stop.is_set():
        await Game(url, stats, think, source).play()


async def main_async(args: argparse.Namespace, url: str) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    workers = []
    for n in range(args.games):
        workers.append(asyncio.create_task(keep_games(url, stats, args.think, stop, loopback(n))))
        await asyncio.sleep(args.ramp / args.games)
    await asyncio.sleep(2)
    stats.recording = True
    t0 = time.perf_counter()
    await asyncio.sleep(args.duration)
    stats.recording = False
    stats.elapsed = time.perf_counter() - t0
    stop.set()
    for w in workers:
        w.cancel()
    return stats


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="concurrent games (2 seats each)")
    ap.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    ap.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean seconds a player waits before acting (0: as fast as possible)",
    )
    ap.add_argument("--ramp", type=float, default=10.0, help="seconds to open all games")
    ap.add_argument("--db", default=None, help="database URL (default: fresh SQLite file)")
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    db = args.db or f"sqlite:///{Path(tmp.name) / 'bench.db'}"
    port = free_port()
    proc = start_server(db, port)
    global POOL
    from concurrent.futures import ProcessPoolExecutor

    POOL = ProcessPoolExecutor(1)
    try:
        stats = asyncio.run(main_async(args, f"ws://127.0.0.1:{port}/ws"))
    finally:
        proc.terminate()
        proc.wait(10)
        POOL.shutdown(cancel_futures=True)
    lat = [x * 1000 for x in stats.latencies]
    if not lat:
        raise SystemExit("no actions measured")
    print(
        f"concurrent games: {args.games} ({2 * args.games} WebSocket connections), "
        f"think time {args.think}s, database {db.split(':')[0]}"
    )
    print(
        f"actions measured: {stats.actions} in {stats.elapsed:.1f}s "
        f"({stats.actions / stats.elapsed:.0f}/s), games finished: {stats.games_done}, "
        f"errors: {stats.errors}"
    )
    print(
        f"action -> every client saw the result: median {statistics.median(lat):.1f} ms, "
        f"p90 {pct(lat, 0.9):.1f} ms, p99 {pct(lat, 0.99):.1f} ms, max {max(lat):.1f} ms"
    )


if __name__ == "__main__":
    main()
