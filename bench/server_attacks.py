"""Server benchmark under attack: does one client's abuse slow other people's games?

Starts ``rummikub serve`` on a free loopback port with a fresh SQLite database, seats a victim
in a room of his own against a beginner bot (no bot delay), who pings the server ten times a
second and draws once a second when it is his turn, and measures his ping round trips and the
bot's answer to each draw (the time until it is his turn again) first alone (baseline), then
while each attack below runs from another loopback address (the server budgets per address;
the attacker uses one address, as one person would, with many sockets). Each attack has a
phase of its own and a fresh victim room. Reports the victim's ping median, p90 and p99 and
the bot's median and p99 for each phase, and what the attacks got back (replies by kind, HTTP
answers by status). Everything runs on this machine: the attackers share the server's two
cores, so the figures are pessimistic. The target: ping p99 under 50 ms in every phase.

    .venv/bin/python bench/server_attacks.py --seconds 15
    .venv/bin/python bench/server_attacks.py --attacks ws-flood,slowloris --seconds 10

Attacks (``--attacks``, all by default):

- ``classic``: all at once: 10 sockets creating rooms without pause; 20 sockets each seated in
  a room of its own sending ``check`` with a 4 KB table as fast as they may; 5 sockets flooding
  pings and deeply nested JSON; 4 HTTP threads polling ``/api/rooms`` and 4 polling the record
  of a finished game.
- ``ws-flood``: 3,000 WebSockets opened from the one address as fast as it can, and held.
- ``slowloris``: 200 connections sending a request's headers a line every 2 s, never ending
  them, each reopened when the server closes it; plus idle connections that send nothing.
- ``big-body``: 4 threads each sending a 50 MB login body, again and again.
- ``analysis-flood``: 40 simultaneous ``GET /api/rooms/CODE/analysis`` of a game that has just
  finished (nobody asked for its analysis yet), repeated as each round is answered.
- ``assistant-flood``: 3 loops asking ``/api/assist`` for a crowded position; meanwhile another
  address asks once a second and its successes are counted (``other ...``).
- ``huge-rack``: a guest creates a room against a beginner bot with ``grace_seconds`` 0, draws
  until his rack holds 56 tiles (about 42 draws) and leaves: the stand-in bot then plays the
  56-tile rack. Repeated with a new room while the phase lasts.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import resource
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from server import free_port, start_server  # noqa: E402

ATTACKER = "127.0.0.66"
VICTIM = "127.0.0.1"
BYSTANDER = "127.0.0.88"  # another address using the assistant while it is flooded
ATTACKS = (
    "classic",
    "ws-flood",
    "slowloris",
    "big-body",
    "analysis-flood",
    "assistant-flood",
    "huge-rack",
)
#: a crowded position for the assistant: 13 sets on the table, 14 tiles and a joker to place
ASSIST_TABLE = " | ".join(
    ["R1 R2 R3 R4", "B5 B6 B7", "K9 K10 K11 K12", "O2 O3 O4", "R7 B7 K7", "O10 O11 O12 O13",
     "B1 B2 B3", "K3 K4 K5", "R10 R11 R12", "B11 O11 K11", "R5 B5 O5", "K1 K2 K3", "O6 O7 O8"]
)  # fmt: skip
ASSIST_RACK = "R5 R6 R8 B8 B9 K6 K8 O9 O1 R13 B13 K13 B4 J"
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


async def victim(url: str, stop: asyncio.Event, rtts: list[float], bot: list[float]) -> None:
    """A person in a game of his own against a beginner bot, pinging ten times a second (well
    inside his limits) and drawing once a second when it is his turn: ``rtts`` gets each
    ping's round trip (one unanswered for 5 s counts as 5 s), ``bot`` the time from each draw
    until it is his turn again (the bot's move, stored and sent)."""
    c, _ = await vs_bot(url, VICTIM)
    waiting: dict[str, asyncio.Future[None]] = {}
    drawn: list[float] = []  # when the draw waiting for the bot's answer was sent
    mine = asyncio.Event()
    turn = [-1]

    async def read() -> None:
        async for raw in c:
            msg = json.loads(raw)
            fut = waiting.pop(str(msg.get("id")), None)
            if fut is not None and not fut.done():
                fut.set_result(None)
            if msg.get("type") == "state" and msg.get("game"):
                g = msg["game"]
                if g["current"] == msg["you"] and not g["round_over"] and g["turn"] > turn[0]:
                    turn[0] = g["turn"]
                    if drawn:
                        bot.append(time.perf_counter() - drawn.pop())
                    mine.set()

    async def draws() -> None:
        while not stop.is_set():
            await mine.wait()
            mine.clear()
            await asyncio.sleep(1.0)
            drawn.append(time.perf_counter())
            await c.send(json.dumps({"type": "draw", "id": f"d{time.monotonic_ns()}"}))

    reader = asyncio.create_task(read())
    drawer = asyncio.create_task(draws())
    n = 0
    while not stop.is_set():
        n += 1
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiting[f"v{n}"] = fut
        t0 = time.perf_counter()
        await c.send(json.dumps({"type": "ping", "id": f"v{n}"}))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(fut, 5.0)
        rtts.append(time.perf_counter() - t0)
        await asyncio.sleep(0.1)
    drawer.cancel()
    reader.cancel()
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


def http_get(url: str, source: str, timeout: float = 10) -> int:
    """The status of a GET of ``url`` from the address ``source`` (0: no answer)."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(
        parts.hostname or "127.0.0.1", parts.port, timeout=timeout, source_address=(source, 0)
    )
    try:
        conn.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""))
        r = conn.getresponse()
        r.read()
        return r.status
    except OSError:
        return 0
    finally:
        conn.close()


def http_poller(url: str, stop: threading.Event, tally: Counter[str]) -> None:
    while not stop.is_set():
        status = http_get(url, ATTACKER, 5)
        tally[f"http {status}" if status else "http error"] += 1


# -- the attacks of issue 35 -----------------------------------------------------------------


async def ws_flood(url: str, stop: asyncio.Event, tally: Counter[str]) -> None:
    """3,000 WebSockets from one address, opened as fast as it can and held."""
    held: list[ClientConnection] = []
    t0 = time.perf_counter()
    for _ in range(3000):
        if stop.is_set():
            break
        try:
            held.append(await connect(url, local_addr=(ATTACKER, 0), open_timeout=10))
            tally["ws accepted"] += 1
        except InvalidStatus as exc:
            tally[f"ws refused {exc.response.status_code}"] += 1
        except (OSError, TimeoutError):
            tally["ws error"] += 1
    tally["ws flood ms"] = round((time.perf_counter() - t0) * 1000)
    await stop.wait()
    alive = sum(1 for ws in held if ws.state.name == "OPEN")
    tally["ws still open at end"] = alive
    await asyncio.gather(*(ws.close() for ws in held), return_exceptions=True)


async def slowloris(base: str, stop: asyncio.Event, tally: Counter[str]) -> None:
    """200 connections whose request headers never end (a line every 2 s), each reopened when
    the server closes it, and 20 that send nothing."""
    parts = urllib.parse.urlsplit(base)

    async def one(trickle: bool) -> None:
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(
                    parts.hostname, parts.port, local_addr=(ATTACKER, 0)
                )
            except OSError:
                tally["slow connect error"] += 1
                await asyncio.sleep(1)
                continue
            tally["slow opened"] += 1
            opened = time.perf_counter()
            if trickle:
                writer.write(f"GET / HTTP/1.1\r\nHost: {parts.netloc}\r\n".encode())
            try:
                while not stop.is_set():
                    try:
                        got = await asyncio.wait_for(reader.read(4096), 2.0)
                    except TimeoutError:
                        if trickle:
                            writer.write(b"X-Slow: 1\r\n")
                            await writer.drain()
                        continue
                    if got.startswith(b"HTTP/1.1 429"):
                        tally["slow refused 429"] += 1
                    if not got:
                        tally["slow closed by server"] += 1
                        tally["slow held ms (sum)"] += round((time.perf_counter() - opened) * 1000)
                        break
            except OSError:
                tally["slow reset"] += 1
            writer.close()
        if stop.is_set():
            tally["slow still open at end"] += 1

    await asyncio.gather(*[one(True) for _ in range(200)], *[one(False) for _ in range(20)])


def big_body(base: str, stop: threading.Event, tally: Counter[str]) -> None:
    """A 50 MB login body, again and again: the time until the server answers, and what."""
    parts = urllib.parse.urlsplit(base)
    body = b'{"name": "' + b"x" * (50 * 2**20) + b'", "password": "p"}'
    head = (
        f"POST /api/account/login HTTP/1.1\r\nHost: {parts.netloc}\r\n"
        f"Origin: {base}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode()
    while not stop.is_set():
        t0 = time.perf_counter()
        try:
            with socket.create_connection(
                (parts.hostname, parts.port), timeout=30, source_address=(ATTACKER, 0)
            ) as sock:
                sock.sendall(head)
                sock.settimeout(0.5)
                try:
                    answer = sock.recv(4096)  # refused by its length: at once
                except TimeoutError:
                    sock.settimeout(60)
                    sock.sendall(body)
                    answer = sock.recv(4096)
        except OSError:
            tally["body error"] += 1
            continue
        status = answer.split(b" ", 2)[1].decode() if answer.count(b" ") >= 2 else "none"
        tally[f"body http {status}"] += 1
        tally["body answered ms (max)"] = max(
            tally["body answered ms (max)"], round((time.perf_counter() - t0) * 1000)
        )


def analysis_flood(base: str, code: str, stop: threading.Event, tally: Counter[str]) -> None:
    """Rounds of 40 simultaneous requests for the analysis of a game just finished."""
    url = f"{base}/api/rooms/{code}/analysis"
    rounds = 0
    while not stop.is_set():
        got: list[int] = []
        t0 = time.perf_counter()
        threads = [
            threading.Thread(target=lambda out=got: out.append(http_get(url, ATTACKER, 120)))
            for _ in range(40)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        rounds += 1
        for status in got:
            tally[f"analysis http {status}"] += 1
        if rounds == 1:
            tally["analysis first round ms"] = round((time.perf_counter() - t0) * 1000)


def assistant_loop(base: str, source: str, stop: threading.Event, tally: Counter[str]) -> None:
    """``/api/assist`` for a crowded position, again and again (``BYSTANDER``: once a
    second, counting as ``other ...``)."""
    query = urllib.parse.urlencode({"table": ASSIST_TABLE, "rack": ASSIST_RACK})
    url = f"{base}/api/assist?{query}"
    who = "other" if source == BYSTANDER else "assist"
    while not stop.is_set():
        status = http_get(url, source, 30)
        tally[f"{who} http {status}"] += 1
        if source == BYSTANDER:
            stop.wait(1.0)


async def huge_rack(url: str, stop: asyncio.Event, tally: Counter[str]) -> None:
    """A guest draws until his rack holds 56 tiles and leaves his room (``grace_seconds`` 0):
    the stand-in bot plays that rack."""
    seats = [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]
    settings = {"public": False, "bot_delay": 0, "grace_seconds": 0}
    while not stop.is_set():
        c = await ws(url, ATTACKER)
        await c.send(json.dumps({"type": "create", "id": "c", "name": "Huge", "seats": seats,
                                 "settings": settings}))  # fmt: skip
        rack, draws, acted = 14, 0, -1
        try:
            while rack < 56 and not stop.is_set():
                try:
                    msg = json.loads(await asyncio.wait_for(c.recv(), 1.0))
                except TimeoutError:
                    continue
                if msg.get("type") == "error":
                    tally[f"huge {msg.get('code')}"] += 1
                    break
                g = msg.get("game") if msg.get("type") == "state" else None
                if not g:
                    continue
                rack = len(g.get("rack") or [])
                if g["round_over"] or not g["pool_size"]:
                    break
                if g["current"] == msg["you"] and g["turn"] > acted and rack < 56:
                    acted = g["turn"]
                    await c.send(json.dumps({"type": "draw"}))
                    draws += 1
            tally["huge draws"] += draws
            tally["huge rack size (last)"] = rack
            if rack >= 56:
                tally["huge racks left to the bot"] += 1
            await c.send(json.dumps({"type": "leave"}))
        except Exception as exc:  # the connection was cut: counted, and a new room
            tally[f"huge {type(exc).__name__}"] += 1
        await c.close()
        if rack >= 56:
            await asyncio.sleep(2.0)  # the stand-in plays it meanwhile


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


async def attack(
    kind: str, url: str, base: str, record_code: str, seconds: float
) -> dict[str, int]:
    """Attack ``kind`` for ``seconds`` (run in a process of its own, so the attackers' work
    does not slow the victim's measuring process)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 10_000)), hard))
    if kind == "classic":
        return await classic(url, base, record_code, seconds)
    stop = asyncio.Event()
    tally: Counter[str] = Counter()
    http_stop = threading.Event()
    jobs: list[Awaitable[None]] = []
    threads: list[threading.Thread] = []

    def thread(target: Callable[..., None], *args: Any) -> None:
        threads.append(threading.Thread(target=target, args=(*args, http_stop, tally)))

    if kind == "ws-flood":
        jobs.append(ws_flood(url, stop, tally))
    elif kind == "slowloris":
        jobs.append(slowloris(base, stop, tally))
    elif kind == "big-body":
        for _ in range(4):
            thread(big_body, base)
    elif kind == "analysis-flood":
        thread(analysis_flood, base, record_code)
    elif kind == "assistant-flood":
        for _ in range(3):
            thread(assistant_loop, base, ATTACKER)
        thread(assistant_loop, base, BYSTANDER)
    elif kind == "huge-rack":
        jobs.append(huge_rack(url, stop, tally))
    else:
        raise SystemExit(f"no attack {kind!r} (attacks: {', '.join(ATTACKS)})")
    tasks = [asyncio.ensure_future(j) for j in jobs]
    for t in threads:
        t.start()
    await asyncio.sleep(seconds)
    stop.set()
    http_stop.set()
    done = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 60)
    for got in done:
        if isinstance(got, BaseException):
            tally[f"attack failed: {got!r}"[:120]] += 1
    for t in threads:
        t.join(120)
    return dict(tally)


async def classic(url: str, base: str, record_code: str, seconds: float) -> dict[str, int]:
    """Every attack of the first round at once for ``seconds``."""
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


async def measure(url: str, seconds: float) -> tuple[list[float], list[float]]:
    """The victim's ping round trips and bot answers over ``seconds``, in a new room."""
    stop = asyncio.Event()
    rtts: list[float] = []
    bot: list[float] = []
    task = asyncio.create_task(victim(url, stop, rtts, bot))
    await asyncio.sleep(seconds)
    stop.set()
    await task
    return rtts, bot


def report_bot(bot: list[float]) -> dict[str, float]:
    ms = [x * 1000 for x in bot] or [float("nan")]
    out = {"moves": len(bot), "median_ms": round(statistics.median(ms), 1),
           "p99_ms": round(pct(ms, 0.99), 1)}  # fmt: skip
    print(f"{'':>9}  bot: {out['moves']} moves, median {out['median_ms']} ms, "
          f"p99 {out['p99_ms']} ms")  # fmt: skip
    return out


async def main_async(args: argparse.Namespace, url: str, base: str) -> dict[str, Any]:
    kinds = [k.strip() for k in args.attacks.split(",") if k.strip()]
    await finished_game(url)  # the server warms up (the solver's kernels, the bots)
    calm, calm_bot = await measure(url, args.seconds)
    out: dict[str, Any] = {"baseline": {"ping": report("alone", calm), "bot": report_bot(calm_bot)}}
    for kind in kinds:
        # the record attack polls a finished game; the analysis flood needs one nobody has
        # asked about yet: a new one each time
        record_code = await finished_game(url)
        attacker = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--attack",
            url,
            "--kind",
            kind,
            "--record",
            record_code,
            "--seconds",
            str(args.seconds + 2),
            stdout=asyncio.subprocess.PIPE,
        )
        await asyncio.sleep(1.0)  # the attack gets going
        busy, busy_bot = await measure(url, args.seconds)
        said, _ = await attacker.communicate()
        lines = said.decode().strip().splitlines()
        tally = json.loads(lines[-1]) if lines else {"attacker printed nothing": 1}
        out[kind] = {"ping": report(kind[:9], busy), "bot": report_bot(busy_bot), "got": tally}
        print(f"{'':>9}  the attacker got back:", dict(Counter(tally).most_common()))
        await asyncio.sleep(args.pause)  # the server settles before the next
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=15.0, help="length of each phase")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON too")
    ap.add_argument(
        "--attacks", default=",".join(ATTACKS), help=f"comma-separated: {', '.join(ATTACKS)}"
    )
    ap.add_argument("--pause", type=float, default=5.0, help="seconds between attacks")
    ap.add_argument("--attack", metavar="WS_URL", help=argparse.SUPPRESS)
    ap.add_argument("--kind", default="classic", help=argparse.SUPPRESS)
    ap.add_argument("--record", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.attack:  # the attackers' process
        base = args.attack.replace("ws://", "http://").rsplit("/", 1)[0]
        tally = asyncio.run(attack(args.kind, args.attack, base, args.record, args.seconds))
        print(json.dumps(tally))
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
