"""The server's background jobs: a job run every few seconds for as long as the server runs,
and cancelling a set of background tasks."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable

from .clock import Clock

__all__ = ["cancel_all", "every"]

log = logging.getLogger("rummikub.server")


async def every(
    clock: Clock, seconds: float, job: Callable[[], Awaitable[object]], failed: str
) -> None:
    """Run ``job`` every ``seconds`` of ``clock`` until cancelled; a failure is logged
    (``failed``, with its traceback) and the next run goes on."""
    while True:
        await clock.sleep(seconds)
        try:
            await job()
        except Exception:
            log.exception(failed)


async def cancel_all(tasks: Iterable[asyncio.Task[None]]) -> None:
    """Cancel the background tasks and wait until each has ended (however it ends)."""
    tasks = list(tasks)
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(BaseException):
            await task
