"""Cluster benchmark: concurrent games on 1, 2 and 3 nodes sharing a PostgreSQL and a Redis.

For each node count, starts that many ``rummikub serve --broker`` nodes on loopback (a fresh
PostgreSQL database from ``--pg`` and a Redis of its own, ``redis-server`` on a free port), then
plays ``--games`` two-seat games at once with the client-side bots of ``bench/server.py``. The
two players of a game connect to *different* nodes whenever there are two or more (the worst
case for a round-robin load balancer: every action of the second player is forwarded through
Redis, and the room's messages for him come back the same way). Every action is timed from the
moment it is sent until every client of the room has its result.

Besides latency it measures what the capacity model of docs/cluster.md needs: the nodes' CPU
seconds per action (from /proc), group-commit transactions and PostgreSQL commits per action,
broker messages per action (``/metrics``) and Redis's CPU per action.

    nice .venv/bin/python bench/cluster.py --pg postgresql://postgres@127.0.0.1:54340/postgres \\
        --nodes 1 2 3 --games 100 --duration 20 --think 1.0

The clients run on the same cores as the nodes, PostgreSQL and Redis.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).parent))
import server as single  # bench/server.py: the games and their bots

TICK = os.sysconf("SC_CLK_TCK")


class ClusterGame(single.Game):
    """A game whose players connect to the nodes ``urls`` in turn."""

    def __init__(self, urls: list[str], stats: single.Stats, think: float, source: str) -> None:
        super().__init__(urls[0], stats, think, source)
        self.urls = urls
        self.connected = 0

    async def connect(self) -> ClientConnection:
        url = self.urls[self.connected % len(self.urls)]
        self.connected += 1
        return await connect(f"{url}?client={uuid.uuid4().hex}", local_addr=(self.source, 0))


async def keep_games(
    urls: list[str], stats: single.Stats, think: float, stop: asyncio.Event, source: str
) -> None:
    while not stop.is_set():
        await ClusterGame(urls, stats, think, source).play()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def metrics(port: int) -> dict[str, float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
        text = r.read().decode()
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            out[name] = float(value)
    return out


def pg_commits(url: str, db: str) -> int:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = %s", (db,)
        ).fetchone()
    assert row is not None
    return int(row[0])


def redis_cpu(port: int) -> float:
    import redis

    info: dict[str, Any] = redis.Redis(port=port).info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


@dataclass
class Sample:
    node_cpu: float
    batches: float
    events: float
    published: float
    commits: int
    redis_cpu: float


def sample(
    procs: list[subprocess.Popen[bytes]], ports: list[int], pg: str, db: str, rp: int
) -> Sample:
    got = [metrics(p) for p in ports]
    return Sample(
        sum(cpu_seconds(p.pid) for p in procs),
        sum(m.get("rummikub_write_batches_total", 0) for m in got),
        sum(m.get("rummikub_events_stored_total", 0) for m in got),
        sum(m.get("rummikub_broker_published_total", 0) for m in got),
        pg_commits(pg, db),
        redis_cpu(rp),
    )


async def measure(
    urls: list[str], args: argparse.Namespace, probe: Any
) -> tuple[single.Stats, Sample, Sample]:
    stats = single.Stats()
    stop = asyncio.Event()
    workers = []
    n = len(urls)
    for k in range(args.games):
        mine = [urls[k % n], urls[(k + 1) % n]]
        workers.append(
            asyncio.create_task(keep_games(mine, stats, args.think, stop, single.loopback(k)))
        )
        await asyncio.sleep(args.ramp / args.games)
    await asyncio.sleep(3)
    before = probe()
    stats.recording = True
    t0 = time.perf_counter()
    await asyncio.sleep(args.duration)
    stats.recording = False
    stats.elapsed = time.perf_counter() - t0
    after = probe()
    stop.set()
    for w in workers:
        w.cancel()
    return stats, before, after


def start_node(pg_db: str, broker: str, name: str) -> tuple[subprocess.Popen[bytes], int]:
    port = single.free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "rummikub.cli.main", "serve", "--port", str(port),
         "--db", pg_db, "--broker", broker, "--node", name],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"node {name} did not start")


def run(count: int, args: argparse.Namespace) -> None:
    import psycopg

    db = f"rummikub_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(args.pg, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{db}"')
    base = args.pg.rpartition("/")[0]
    rport = single.free_port()
    redis_proc = subprocess.Popen(
        [shutil.which("redis-server") or "redis-server", "--port", str(rport),
         "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    time.sleep(0.5)
    nodes: list[tuple[subprocess.Popen[bytes], int]] = []
    try:
        for i in range(count):
            nodes.append(start_node(f"{base}/{db}", f"redis://127.0.0.1:{rport}/0", f"b{i}"))
        procs = [p for p, _ in nodes]
        ports = [port for _, port in nodes]
        urls = [f"ws://127.0.0.1:{port}/ws" for port in ports]

        def probe() -> Sample:
            return sample(procs, ports, args.pg, db, rport)

        stats, a, b = asyncio.run(measure(urls, args, probe))
    finally:
        for p, _ in nodes:
            p.terminate()
        for p, _ in nodes:
            p.wait(15)
        redis_proc.terminate()
        redis_proc.wait(10)
        with psycopg.connect(args.pg, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
    lat = [x * 1000 for x in stats.latencies]
    if not lat:
        raise SystemExit("no actions measured")
    acts = stats.actions
    print(
        f"nodes {count}: {args.games} games ({2 * args.games} connections), think {args.think}s: "
        f"{acts} actions in {stats.elapsed:.1f}s ({acts / stats.elapsed:.0f}/s), "
        f"games finished {stats.games_done}, errors {stats.errors}"
    )
    print(
        f"  action -> every client: median {statistics.median(lat):.1f} ms, "
        f"p90 {single.pct(lat, 0.9):.1f} ms, p99 {single.pct(lat, 0.99):.1f} ms, "
        f"max {max(lat):.1f} ms"
    )
    events = b.events - a.events
    print(
        f"  per action: node CPU {1000 * (b.node_cpu - a.node_cpu) / acts:.2f} ms, "
        f"events stored {events / acts:.2f}, group commits {(b.batches - a.batches) / acts:.3f}, "
        f"PostgreSQL commits {(b.commits - a.commits) / acts:.2f}, "
        f"broker messages {(b.published - a.published) / acts:.2f}, "
        f"Redis CPU {1000 * (b.redis_cpu - a.redis_cpu) / acts:.3f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pg", required=True, help="PostgreSQL URL of a database to create others")
    ap.add_argument("--nodes", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--games", type=int, default=100, help="concurrent games (2 seats each)")
    ap.add_argument("--duration", type=float, default=20.0, help="measured seconds")
    ap.add_argument("--think", type=float, default=1.0, help="mean seconds before acting")
    ap.add_argument("--ramp", type=float, default=10.0, help="seconds to open all games")
    args = ap.parse_args()
    from concurrent.futures import ProcessPoolExecutor

    single.POOL = ProcessPoolExecutor(1)
    try:
        for count in args.nodes:
            run(count, args)
    finally:
        single.POOL.shutdown(cancel_futures=True)


if __name__ == "__main__":
    main()
