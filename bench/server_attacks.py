"""Server benchmark under attack: does one client's abuse slow other people's games?

Starts ``rummikub serve`` on a free loopback port with a fresh SQLite database, seats a victim
in a room of his own who pings the server ten times a second, and measures his ping round
trips first alone (baseline), then while the attacks named below run from another loopback
address (the server budgets per address; the attacker uses one address, as one person would,
with many sockets). Reports the victim's ping median, p90 and p99 for each phase, and what the
attacks got back (replies by kind, HTTP answers by status). Everything runs on this machine:
the attackers share the server's two cores, so the figures are pessimistic.

    .venv/bin/python bench/server_attacks.py --seconds 15

Attacks (all at once): 10 sockets creating rooms without pause; 20 sockets each seated in a
room of its own sending ``check`` with a 4 KB table as fast as they may; 5 sockets flooding
pings and deeply nested JSON; 4 HTTP threads polling ``/api/rooms`` and 4 polling the record
of a finished game.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from server import free_port, start_server  # noqa: E402

ATTACKER = "127.0.0.66"
VICTIM = "127.0.0.1"
TABLE = [[f"{c}{n}" for n in range(1, 14)] for c in "RBOK" for _ in range(2)] * 5  # 40 melds


async def ws(url: str, source: str) -> ClientConnection:
    return await connect(f"{url}?client={uuid.uuid4().hex}", local_addr=(source, 0))


async def request(c: ClientConnection, **msg: Any) -> dict[str, Any]:
    rid = uuid.uuid4().hex[:8]
    await c.send(json.dumps({**msg, "id": rid}))
    while True:
        got: dict[str, Any] = json.loads(await c.recv())
        if got.get("id") == rid:
            return got


async def vs_bot(url: str, source: str) -> tuple[ClientConnection, str]:
    c = await ws(url, source)
    reply = await request(
        c,
        type="create",
        name="V",
        seats=[{"kind": "human"}, {"kind": "bot", "level": "beginner"}],
        settings={"public": False, "bot_delay": 0},
    )
    return c, str(reply["room"])


async def finished_game(url: str) -> str:
    """A game played to its end by bots (its creator leaves; a stand-in plays for him)."""
    c, code = await vs_bot(url, "127.0.0.77")
    await request(c, type="leave")
    await c.close()
    base = url.replace("ws://", "http://").rsplit("/", 1)[0]
    while True:
        try:
            with urllib.request.urlopen(f"{base}/api/rooms/{code}/record", timeout=5):
                return code
        except urllib.error.HTTPError:
            await asyncio.sleep(0.5)


async def victim(url: str, stop: asyncio.Event, rtts: list[float]) -> None:
    """A person in a game of his own, pinging ten times a second (well inside his limits). A
    ping unanswered for 5 s counts as 5 s."""
    c, _ = await vs_bot(url, VICTIM)
    n = 0
    while not stop.is_set():
        n += 1
        t0 = time.perf_counter()
        await c.send(json.dumps({"type": "ping", "id": f"v{n}"}))
        try:
            async with asyncio.timeout(5.0):
                while True:
                    got = json.loads(await c.recv())
                    if got.get("id") == f"v{n}":
                        break
        except TimeoutError:
            pass
        rtts.append(time.perf_counter() - t0)
        await asyncio.sleep(0.1)
    await c.close()


async def drain(c: ClientConnection, tally: Counter[str]) -> None:
    try:
        async for raw in c:
            msg = json.loads(raw)
            tally[msg.get("code") or msg["type"]] += 1
    except Exception:
        tally["closed"] += 1


async def creator(url: str, stop: asyncio.Event, tally: Counter[str]) -> None:
    c = await ws(url, ATTACKER)
    reader = asyncio.create_task(drain(c, tally))
    seats = [{"kind": "human"}, {"kind": "human"}]
    while not stop.is_set():
        try:
            await c.send(json.dumps({"type": "create", "name": "X", "seats": seats}))
        except Exception:
            break
        await asyncio.sleep(0.002)
    reader.cancel()


async def checker(url: str, stop: asyncio.Event, tally: Counter[str]) -> None:
    c, _ = await vs_bot(url, ATTACKER)
    reader = asyncio.create_task(drain(c, tally))
    text = json.dumps({"type": "check", "table": TABLE})
    while not stop.is_set():
        try:
            await c.send(text)
        except Exception:
            break
        await asyncio.sleep(0.05)  # the per-connection rate a client may use
    reader.cancel()


async def flooder(url: str, stop: asyncio.Event, tally: Counter[str]) -> None:
    c = await ws(url, ATTACKER)
    reader = asyncio.create_task(drain(c, tally))
    deep = "[" * 7000 + "]" * 7000
    i = 0
    while not stop.is_set():
        i += 1
        try:
            await c.send(deep if i % 2 else json.dumps({"type": "ping", "id": i}))
        except Exception:
            break
        await asyncio.sleep(0.001)
    reader.cancel()


def http_poller(url: str, stop: threading.Event, tally: Counter[str]) -> None:
    while not stop.is_set():
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                r.read()
                tally[f"http {r.status}"] += 1
        except urllib.error.HTTPError as exc:
            tally[f"http {exc.code}"] += 1
        except OSError:
            tally["http error"] += 1


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def report(name: str, rtts: list[float]) -> dict[str, float]:
    ms = [x * 1000 for x in rtts]
    out = {
        "pings": len(ms),
        "median_ms": round(statistics.median(ms), 2),
        "p90_ms": round(pct(ms, 0.9), 2),
        "p99_ms": round(pct(ms, 0.99), 2),
    }
    print(
        f"{name:>9}: {out['pings']} pings, median {out['median_ms']} ms, "
        f"p90 {out['p90_ms']} ms, p99 {out['p99_ms']} ms"
    )
    return out


async def attack(url: str, base: str, record_code: str, seconds: float) -> dict[str, int]:
    """Every attack at once for ``seconds`` (run in a process of its own, so the attackers'
    work does not slow the victim's measuring process)."""
    stop = asyncio.Event()
    tally: Counter[str] = Counter()
    http_stop = threading.Event()
    threads = [
        threading.Thread(target=http_poller, args=(f"{base}/api/rooms", http_stop, tally))
        for _ in range(4)
    ] + [
        threading.Thread(
            target=http_poller,
            args=(f"{base}/api/rooms/{record_code}/record", http_stop, tally),
        )
        for _ in range(4)
    ]
    jobs = [creator(url, stop, tally) for _ in range(10)]
    jobs += [checker(url, stop, tally) for _ in range(20)]
    jobs += [flooder(url, stop, tally) for _ in range(5)]
    tasks = [asyncio.create_task(j) for j in jobs]
    for t in threads:
        t.start()
    await asyncio.sleep(seconds)
    stop.set()
    http_stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    for t in threads:
        t.join()
    return dict(tally)


async def measure(url: str, seconds: float) -> list[float]:
    stop = asyncio.Event()
    rtts: list[float] = []
    task = asyncio.create_task(victim(url, stop, rtts))
    await asyncio.sleep(seconds)
    stop.set()
    await task
    return rtts


async def main_async(args: argparse.Namespace, url: str, base: str) -> dict[str, Any]:
    record_code = await finished_game(url)
    calm = await measure(url, args.seconds)
    attacker = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--attack",
        url,
        "--record",
        record_code,
        "--seconds",
        str(args.seconds + 2),
        stdout=asyncio.subprocess.PIPE,
    )
    await asyncio.sleep(1.0)  # the attacks get going
    busy = await measure(url, args.seconds)
    said, _ = await attacker.communicate()
    tally = json.loads(said.decode().strip().splitlines()[-1])
    out: dict[str, Any] = {"baseline": report("alone", calm), "attacked": report("attacked", busy)}
    out["attacks"] = tally
    print("what the attackers got back:", dict(Counter(tally).most_common()))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=15.0, help="length of each phase")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON too")
    ap.add_argument("--attack", metavar="WS_URL", help=argparse.SUPPRESS)
    ap.add_argument("--record", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.attack:  # the attackers' process
        base = args.attack.replace("ws://", "http://").rsplit("/", 1)[0]
        print(json.dumps(asyncio.run(attack(args.attack, base, args.record, args.seconds))))
        return
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(f"sqlite:///{tmp}/bench.db", port)
        try:
            out = asyncio.run(
                main_async(args, f"ws://127.0.0.1:{port}/ws", f"http://127.0.0.1:{port}")
            )
        finally:
            proc.terminate()
            proc.wait(10)
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
