"""The server's clock, a collaborator every part that reads the time or waits is given.

:class:`Clock` is what the server needs of time: the wall clock (what is stored and shown:
turn starts, deadlines, heartbeats), a monotonic clock (intervals: rate limits, caches,
leases), and waiting — a callback after a delay (turn clocks, grace periods, pauses between
rounds) and a coroutine's sleep (heartbeat, reaper, retries, sweeps).

:class:`RealClock` is the system's time and the running event loop's timers; a server made
without a clock uses it, so it behaves exactly as it did when it read :func:`time.time` and
called :meth:`asyncio.loop.call_later` itself. :class:`FakeClock` is time that only moves when
a test says so (:meth:`FakeClock.advance`): what falls due runs then, in the order of its time,
so a test of a turn clock or an idle room takes no real time and does not depend on the
machine's speed.

What a library times on its own (uvicorn's connections, SQLAlchemy's pool, Redis's sockets,
the worker processes' hard limits) stays on the real clock.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Protocol

__all__ = ["Clock", "FakeClock", "FakeTimer", "RealClock", "Timer"]


class Timer(Protocol):
    """A callback waiting for its time (:meth:`Clock.call_later`)."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """What the server needs of time (see the module's text)."""

    def time(self) -> float:
        """The wall clock: seconds since the epoch (:func:`time.time`)."""
        ...

    def monotonic(self) -> float:
        """Seconds from an arbitrary start that never go back (:func:`time.monotonic`)."""
        ...

    def call_later(self, delay: float, callback: Callable[[], object]) -> Timer:
        """Call ``callback`` (in the event loop) ``delay`` seconds from now."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds``."""
        ...


class RealClock:
    """The system's clocks and the running event loop's timers."""

    def time(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    def call_later(self, delay: float, callback: Callable[[], object]) -> Timer:
        return asyncio.get_running_loop().call_later(delay, callback)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class FakeTimer:
    """A callback of a :class:`FakeClock`, due at :attr:`when` (its monotonic time)."""

    __slots__ = ("callback", "cancelled", "when")

    def __init__(self, when: float, callback: Callable[[], object]) -> None:
        self.when = when
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """Time that moves only when :meth:`advance` moves it; for tests.

    Its wall clock starts at ``start`` (seconds since the epoch) and its monotonic clock at
    1000; both move together. :meth:`call_later` and :meth:`sleep` wait for it: nothing is due
    until :meth:`advance` reaches its time (a delay of 0 or less is due at once, and runs as
    soon as the event loop can, as on the real clock). Everything else of the event loop
    (tasks, I/O, threads) runs in real time as usual."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._elapsed = 0.0
        self._start = start
        self._due: list[tuple[float, int, FakeTimer]] = []
        self._order = itertools.count()

    def time(self) -> float:
        return self._start + self._elapsed

    def monotonic(self) -> float:
        return 1000.0 + self._elapsed

    def call_later(self, delay: float, callback: Callable[[], object]) -> Timer:
        if delay <= 0:  # due now: it runs as soon as the event loop can, as on a real clock
            return asyncio.get_running_loop().call_soon(callback)
        timer = FakeTimer(self.monotonic() + delay, callback)
        heapq.heappush(self._due, (timer.when, next(self._order), timer))
        return timer

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        loop = asyncio.get_running_loop()
        woken: asyncio.Future[None] = loop.create_future()

        def wake() -> None:
            if not woken.done():
                woken.set_result(None)

        timer = self.call_later(seconds, wake)
        try:
            await woken
        finally:
            timer.cancel()

    def set_wall_back(self, seconds: float) -> None:
        """The wall clock set back ``seconds`` (by an administrator, or a time server), the
        monotonic clock unmoved: what is measured on the wall clock takes that much longer."""
        self._start -= seconds

    def pending(self) -> list[float]:
        """The seconds from now of every callback and sleep still waiting, soonest first."""
        now = self.monotonic()
        return sorted(t.when - now for _, _, t in self._due if not t.cancelled)

    async def advance(self, seconds: float) -> None:
        """Move the time ``seconds`` on: every callback and sleep that falls due meanwhile
        runs, in the order of its time (a tie in the order it was armed), the clock standing
        at its time while it runs; between two, the event loop runs what is ready, so what a
        callback armed for a time still within ``seconds`` runs too. What a callback starts
        that takes real time (a database write on its thread, a bot's move in its process)
        goes on afterwards: a test waits for its outcome (the message it sends)."""
        if seconds < 0:
            raise ValueError(f"time does not go back ({seconds} s)")
        target = self._elapsed + seconds
        await _settle()
        while self._due and self._due[0][0] - 1000.0 <= target:
            when, _, timer = heapq.heappop(self._due)
            if timer.cancelled:
                continue
            self._elapsed = max(self._elapsed, when - 1000.0)
            try:
                timer.callback()
            except Exception as exc:  # as the event loop does: logged, the others still run
                asyncio.get_running_loop().call_exception_handler(
                    {"message": "a fake clock's callback failed", "exception": exc}
                )
            await _settle()
        self._elapsed = target
        await _settle()


async def _settle(rounds: int = 20) -> None:
    """Let the event loop run what is ready (tasks woken, callbacks soon due)."""
    for _ in range(rounds):
        await asyncio.sleep(0)
