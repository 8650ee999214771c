"""The server's clock (:mod:`rummikub.server.runtime.clock`): the fake one runs what falls due in
the order of its time, and only when a test moves it; the real one is the system's."""

from __future__ import annotations

import asyncio
import time

import pytest

from rummikub.server.runtime.clock import FakeClock, RealClock
from rummikub.server.runtime.periodic import every
from rummikub.server.runtime.ratelimit import TokenBucket


@pytest.mark.asyncio
async def test_callbacks_run_in_the_order_of_their_time_at_their_time() -> None:
    clock = FakeClock(start=1000.0)
    ran: list[tuple[str, float]] = []
    clock.call_later(3, lambda: ran.append(("c", clock.time())))
    clock.call_later(1, lambda: ran.append(("a", clock.time())))
    clock.call_later(1, lambda: ran.append(("b", clock.time())))  # a tie: in the order armed
    gone = clock.call_later(2, lambda: ran.append(("x", clock.time())))
    gone.cancel()
    await clock.advance(0.5)
    assert ran == [] and clock.time() == 1000.5
    await clock.advance(2.5)
    assert ran == [("a", 1001.0), ("b", 1001.0), ("c", 1003.0)]
    assert clock.time() == 1003.0 and clock.pending() == []


@pytest.mark.asyncio
async def test_what_a_callback_arms_within_the_advance_runs_too() -> None:
    clock = FakeClock()
    start = clock.monotonic()
    ran: list[float] = []

    def tick() -> None:
        ran.append(clock.monotonic() - start)
        if len(ran) < 5:
            clock.call_later(2, tick)

    clock.call_later(2, tick)
    await clock.advance(7)
    assert ran == [2, 4, 6] and clock.pending() == [1.0]


@pytest.mark.asyncio
async def test_sleep_and_a_periodic_job_wait_for_the_clock() -> None:
    clock = FakeClock()
    runs: list[float] = []

    async def job() -> None:
        runs.append(clock.time())

    task = asyncio.create_task(every(clock, 30, job, "failed"))
    await clock.advance(0)
    assert runs == []
    await clock.advance(95)
    t0 = clock.time() - 95
    assert runs == [t0 + 30, t0 + 60, t0 + 90]
    task.cancel()
    slept = asyncio.create_task(clock.sleep(5))
    await clock.advance(4.9)
    assert not slept.done()
    await clock.advance(0.1)
    await slept
    # nothing waits for a delay of 0: it runs as soon as the loop can
    ran: list[int] = []
    clock.call_later(0, lambda: ran.append(1))
    await clock.sleep(0)
    await asyncio.sleep(0)
    assert ran == [1]
    with pytest.raises(ValueError):
        await clock.advance(-1)


def test_a_token_bucket_refills_on_its_clock() -> None:
    clock = FakeClock()
    bucket = TokenBucket(rate=2.0, burst=4.0, clock=clock.monotonic)
    assert all(bucket.take() for _ in range(4)) and not bucket.take()
    assert bucket.wait() == 0.5
    asyncio.run(clock.advance(0.5))
    assert bucket.take() and not bucket.take()


@pytest.mark.asyncio
async def test_the_real_clock_is_the_system_s() -> None:
    clock = RealClock()
    assert abs(clock.time() - time.time()) < 1.0
    assert abs(clock.monotonic() - time.monotonic()) < 1.0
    done = asyncio.Event()
    clock.call_later(0.01, done.set)
    await asyncio.wait_for(done.wait(), 10)
    await clock.sleep(0)
