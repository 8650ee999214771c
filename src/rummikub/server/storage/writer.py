"""Group commit: appends from every room are queued and written in one transaction per batch.

A room awaits its own append before it broadcasts or acknowledges, so no accepted action is
ever reported before it is stored; while one batch is being written the next one collects.
Under load this turns one transaction per action into one per batch.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor

from .store import Append, Store

__all__ = ["GroupWriter"]

log = logging.getLogger("rummikub.server")


class GroupWriter:
    def __init__(self, store: Store, executor: Executor) -> None:
        self.store = store
        self.executor = executor
        self._queue: list[tuple[Append, asyncio.Future[None]]] = []
        self._task: asyncio.Task[None] | None = None
        self.batches = 0
        self.items = 0
        #: called with the seconds each successful group commit took (the server's metrics)
        self.on_commit: Callable[[float], None] | None = None

    async def append(self, item: Append) -> None:
        """Store ``item``; returns once the transaction holding it has committed."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._queue.append((item, fut))
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run())
        await fut

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while self._queue:
            batch, self._queue = self._queue, []
            started = time.perf_counter()
            try:
                await loop.run_in_executor(
                    self.executor, self.store.append_many, [item for item, _ in batch]
                )
                if self.on_commit is not None:
                    self.on_commit(time.perf_counter() - started)
            except Exception:
                # One bad item must not fail the others: write them one by one.
                log.exception("group commit of %d events failed; retrying singly", len(batch))
                for item, fut in batch:
                    try:
                        await loop.run_in_executor(self.executor, self.store.append_many, [item])
                    except Exception as exc:
                        if not fut.done():
                            fut.set_exception(exc)
                    else:
                        if not fut.done():
                            fut.set_result(None)
                continue
            self.batches += 1
            self.items += len(batch)
            for _, fut in batch:
                if not fut.done():
                    fut.set_result(None)
