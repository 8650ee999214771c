"""The server's worker processes (:mod:`rummikub.server.work.pool`): owners served in turn, a job
past its hard limit stopped, a job whose caller gave up stopped, owners bounded."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from rummikub.server.work.pool import Busy, JobTimeout, WorkPool


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

            # all queued in one step of the loop, before the first can end: the order the
            # one worker takes them in is the pool's choice alone
            await asyncio.gather(
                job("a", "a1"), job("a", "a2"), job("a", "a3"), job("b", "b1"), job("c", "c1")
            )
            return order
        finally:
            pool.close()

    assert asyncio.run(main()) == ["a1", "a2", "b1", "c1", "a3"]


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
