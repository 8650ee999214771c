"""The server's worker processes (:mod:`rummikub.server.work.pool`): owners served in turn, a job
past its hard limit stopped, a job whose caller gave up stopped, owners bounded."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from rummikub.server.work.pool import LAZY_ENV, Busy, JobFailed, JobTimeout, WorkPool

from .inproc import running


def _hold(path: str) -> None:
    """A job that says it has started (the file ``path``), then thinks for an hour."""
    with open(path, "w"):
        pass
    time.sleep(3600)


def test_owners_are_served_in_turn() -> None:
    async def main() -> list[str]:
        pool = WorkPool("test", 1, per_owner=3)
        try:
            order: list[str] = []

            async def job(owner: str, name: str) -> None:
                await pool.run(owner, 60, os.getpid)
                order.append(name)

            # all queued in one step of the loop, while the processes start: the order the
            # one worker takes them in is the pool's choice alone, one job an owner in turn
            await asyncio.gather(
                job("a", "a1"), job("a", "a2"), job("a", "a3"), job("b", "b1"), job("c", "c1")
            )
            return order
        finally:
            pool.close()

    assert asyncio.run(main()) == ["a1", "b1", "c1", "a2", "a3"]


class _SlowStart(WorkPool):
    """A pool whose processes start only when the test lets them (as a forkserver compiling
    the solver's kernels after an install would take its time)."""

    def __init__(self) -> None:
        super().__init__("test", 1)
        self.go = threading.Event()
        self.asked = threading.Event()

    def _start_processes(self) -> Any:
        self.asked.set()
        assert self.go.wait(60), "the test never let the processes start"
        return super()._start_processes()


def test_the_event_loop_goes_on_while_the_processes_start() -> None:
    async def main() -> None:
        pool = _SlowStart()
        try:
            first = asyncio.ensure_future(pool.run("a", 60, os.getpid))
            # the loop is not held while the processes start: it runs other work
            assert await asyncio.to_thread(pool.asked.wait, 60)
            ticks = 0
            for _ in range(5):
                await asyncio.sleep(0)
                ticks += 1
            assert ticks == 5 and not first.done() and pool.waiting == 1
            pool.go.set()
            assert await first != os.getpid()  # the job ran, in a worker process
            assert pool.waiting == 0 and pool.done == 1
        finally:
            pool.go.set()
            pool.close()

    asyncio.run(main())


def test_a_job_past_its_limit_is_stopped_and_the_pool_goes_on() -> None:
    async def main() -> None:
        pool = WorkPool("test", 1)
        try:
            first = await pool.run("a", 60, os.getpid)
            with pytest.raises(JobTimeout):
                await pool.run("a", 0.5, time.sleep, 3600)
            assert pool.stopped == 1
            # the stopped job's process was replaced: a new one answers
            assert await pool.run("b", 60, os.getpid) != first
        finally:
            pool.close()

    asyncio.run(main())


def test_a_job_given_up_is_stopped(tmp_path: Path) -> None:
    started = tmp_path / "started"

    async def main() -> None:
        pool = WorkPool("test", 1)
        try:
            first = await pool.run("a", 60, os.getpid)
            long = asyncio.ensure_future(pool.run("a", 3600, _hold, str(started)))
            while not started.exists():  # until the worker is in it
                await asyncio.sleep(0.01)
            long.cancel()
            # the worker thinking for nobody is killed: the next job does not wait an hour
            assert await pool.run("b", 60, os.getpid) != first
            assert pool.load("a") == 0
        finally:
            pool.close()

    asyncio.run(main())


def test_an_owner_with_too_many_jobs_is_refused_at_once() -> None:
    async def main() -> None:
        pool = WorkPool("test", 1, per_owner=1)
        try:
            held = asyncio.ensure_future(pool.run("a", 3600, time.sleep, 3600))
            await asyncio.sleep(0)
            with pytest.raises(Busy):
                await pool.run("a", 60, os.getpid)
            assert pool.refused == 1
            held.cancel()
            assert isinstance(await pool.run("b", 60, os.getpid), int)  # others are served
        finally:
            pool.close()

    asyncio.run(main())


class _BrokenStart(WorkPool):
    """A pool whose processes fail to start the first time (the system refused a process)."""

    def __init__(self) -> None:
        super().__init__("test", 1)
        self.tries = 0

    def _start_processes(self) -> Any:
        self.tries += 1
        if self.tries == 1:
            raise OSError("no more processes")
        return super()._start_processes()


def test_jobs_waiting_for_processes_that_cannot_start_fail_and_the_next_tries_again() -> None:
    async def main() -> None:
        pool = _BrokenStart()
        try:
            with pytest.raises(JobFailed, match="no worker could start: no more processes"):
                await pool.run("a", 60, os.getpid)
            assert pool.waiting == 0 and pool.load("a") == 0
            assert await pool.run("a", 60, os.getpid) != os.getpid()
            assert pool.tries == 2
        finally:
            pool.close()

    asyncio.run(main())


@pytest.mark.asyncio
async def test_a_server_starts_its_workers_when_it_starts_unless_a_test_says_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bots' processes start with the server (their kernels load before the first bot
    move); under ``RUMMIKUB_TEST_LAZY_WORKERS``, which the suite sets, with the first job."""
    monkeypatch.delenv(LAZY_ENV, raising=False)
    async with running(tmp_path / "eager") as server:
        assert server.manager.work.started
    monkeypatch.setenv(LAZY_ENV, "1")
    async with running(tmp_path / "lazy") as server:
        work = server.manager.work
        assert not work.started
        assert await work.run("a", 60, os.getpid) != os.getpid()  # the job started them
        assert work.started and work.done == 1
