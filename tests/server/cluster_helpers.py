"""Helpers of the cluster tests: nodes (``rummikub serve --broker``), a Redis of a test's own,
and waiting on conditions (never on a fixed time)."""

from __future__ import annotations

import contextlib
import subprocess
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

from .helpers import Client, ServerProcess, free_port

T = TypeVar("T")

#: generous: the machine may be loaded (a takeover takes a lease's life, ~5 s, plus a beat)
PATIENCE = 90.0


def node(db_url: str, broker: str, name: str, *, seed: str = "7") -> ServerProcess:
    """A node of a cluster (not started), its deals fixed (``RUMMIKUB_TEST_SEED``)."""
    return ServerProcess(
        db_url, args=["--broker", broker, "--node", name], env={"RUMMIKUB_TEST_SEED": seed}
    )


def eventually(check: Callable[[], T | None], what: str, timeout: float = PATIENCE) -> T:
    """Wait until ``check()`` returns something (not ``None``, not false) and return it."""
    end = time.monotonic() + timeout
    while True:
        try:
            got = check()
        except OSError:  # a node not answering yet
            got = None
        if got:
            return got
        if time.monotonic() > end:
            raise TimeoutError(f"waited {timeout:.0f} s for {what}")
        time.sleep(0.2)


def runner(srv: ServerProcess, code: str) -> str | None:
    """The node running the room ``code``, as ``GET /api/rooms/CODE`` on ``srv`` names it."""
    status, info = srv.get(f"/api/rooms/{code}")
    return info.get("node") if status == 200 else None


def rooms_run(srv: ServerProcess) -> int:
    status, health = srv.get("/api/health")
    assert status == 200
    return int(health["rooms"])


def drain(c: Client) -> None:
    """Read what ``c`` was sent so far (a client that never reads is cut off)."""
    with contextlib.suppress(TimeoutError):
        while True:
            c.recv(0.05)


@contextlib.contextmanager
def private_redis(program: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A Redis of the test's own (to cut a node off from its broker): its URL and process."""
    port = free_port()
    proc = subprocess.Popen(
        [program, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        import redis

        def pong() -> bool:
            try:
                return bool(redis.Redis(port=port, socket_timeout=1).ping())
            except redis.RedisError:
                return False

        eventually(pong, "the test's Redis to answer", 30)
        yield f"redis://127.0.0.1:{port}/0", proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
