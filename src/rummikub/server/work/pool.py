"""Worker processes for the server's CPU work (bot moves, hints, analyses, the assistant), so
that no room's thinking can starve another room, the event loop or the rest of the server.

A :class:`WorkPool` runs jobs (functions of :mod:`.jobs`) in processes of its own:

- **fair share:** every job has an *owner* (a room, a client address); each owner has a queue,
  and a free worker takes the next job of the next owner in turn (round robin), so a room or an
  address with many jobs waits for its own, never holds up the others' for more than the jobs
  already running;
- **bounded:** an owner may have at most ``per_owner`` jobs queued or running (more are
  refused at once with :class:`Busy`), and the pool at most ``queue`` waiting;
- **stopped when overrunning:** a job still running at its hard time limit is stopped (its
  process is killed and replaced) and raises :class:`JobTimeout`; a job whose caller gave up
  (cancelled) is stopped the same way;
- **processes, not threads:** the work is Python that holds the GIL, so threads would take
  turns with each other and with the event loop; processes run side by side.

Workers are forked from a *forkserver* that has imported the jobs and loaded the solver's
compiled kernels once (:mod:`.warm_worker`), so a replaced worker is ready in milliseconds.
The processes start in a thread, never on the event loop (the kernels load then: right after an
install they compile, which can take half a minute), when the server starts or with the first
job; jobs wait in their queues until the processes are there.

For tests only, ``RUMMIKUB_TEST_LAZY_WORKERS=1`` has a server start its bots' processes with
their first job instead of when it starts (:func:`start_with_server`): a test suite starts well
over a hundred servers, most of which never run a job, and each start of the processes is most
of a CPU second (the forkserver imports the solver and loads its kernels). A server that reads
it says so in its log; on a server people play on it only delays the first bot move.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from concurrent.futures import CancelledError as FutureCancelled
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pebble

__all__ = ["LAZY_ENV", "Busy", "JobFailed", "JobTimeout", "WorkPool", "start_with_server"]

log = logging.getLogger("rummikub.server")

T = TypeVar("T")

#: what the forkserver imports before it forks a worker (and so every worker has loaded)
PRELOAD = ["rummikub.server.work.warm_worker"]
#: the test-only switch that leaves a server's processes to its first job (see the module's text)
LAZY_ENV = "RUMMIKUB_TEST_LAZY_WORKERS"


def start_with_server(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether a server starts its worker processes when it starts (always, unless
    ``environ`` sets :data:`LAZY_ENV`: tests only), rather than with their first job."""
    if environ.get(LAZY_ENV, "") in ("", "0"):
        return True
    log.warning("%s is set: the worker processes start with the first job (tests only)", LAZY_ENV)
    return False


def _ready() -> None:
    """The first job of a pool's processes: they are up (:meth:`WorkPool.start`)."""


class Busy(Exception):
    """The owner (or the pool) has as many jobs waiting as it may: try again later."""


class JobTimeout(Exception):
    """The job ran past its hard time limit and was stopped."""


class JobFailed(Exception):
    """The job's process died (killed by the system, out of memory) before it answered."""


@dataclass(eq=False)
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    timeout: float
    future: asyncio.Future[Any]
    queued_at: float = field(default_factory=time.monotonic)


class WorkPool:
    """``workers`` processes running jobs fairly by owner (see the module's text)."""

    def __init__(self, name: str, workers: int, *, per_owner: int = 2, queue: int = 256) -> None:
        self.name = name
        self.workers = max(1, workers)
        self.per_owner = per_owner
        self.queue = queue
        self._pool: pebble.ProcessPool | None = None
        self._starting: asyncio.Future[pebble.ProcessPool] | None = None
        self._queues: OrderedDict[str, deque[_Job]] = OrderedDict()
        self._load: dict[str, int] = {}  # jobs queued or running, by owner
        self._running = 0
        self._waiting = 0
        self._closed = False
        #: figures for the metrics: jobs done, stopped at their limit, refused
        self.done = 0
        self.stopped = 0
        self.refused = 0

    # -- lifecycle ---------------------------------------------------------------------
    def _start_processes(self) -> pebble.ProcessPool:
        """The processes, started and ready (run in a thread: see :meth:`start`)."""
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(PRELOAD)
        pool = pebble.ProcessPool(max_workers=self.workers, context=ctx)
        try:
            pool.schedule(_ready).result()  # pebble starts its processes with the first job
        except BaseException:
            pool.stop()  # type: ignore[no-untyped-call]
            raise
        return pool

    def start(self) -> None:
        """Start the processes, in a thread: the forkserver imports the jobs and loads the
        solver's kernels before it forks the first worker (a fraction of a second, but half a
        minute on a busy machine right after an install, when it compiles them), and starting
        a process waits for it. The event loop goes on meanwhile; jobs wait in their queues
        until the workers are there. Called by the first job if not before (needs the running
        event loop)."""
        if self._starting is not None or self._pool is not None or self._closed:
            return
        loop = asyncio.get_running_loop()
        self._starting = loop.run_in_executor(None, self._start_processes)
        self._starting.add_done_callback(self._started)

    def _started(self, fut: asyncio.Future[pebble.ProcessPool]) -> None:
        self._starting = None
        if fut.cancelled():
            return
        exc = fut.exception()
        if exc is not None:  # no process could start: the waiting jobs fail, the next retries
            log.error("the %s workers could not start: %s", self.name, exc)
            for q in self._queues.values():
                for job in q:
                    if not job.future.done():
                        job.future.set_exception(JobFailed(f"no worker could start: {exc}"))
            self._queues.clear()
            self._waiting = 0
            return
        pool = fut.result()
        if self._closed:  # closed while it started
            pool.stop()  # type: ignore[no-untyped-call]
            return
        self._pool = pool
        self._pump()

    def close(self) -> None:
        """Stop every job and process; jobs still queued are cancelled."""
        self._closed = True
        for q in self._queues.values():
            for job in q:
                job.future.cancel()
        self._queues.clear()
        if self._pool is not None:
            self._pool.stop()  # type: ignore[no-untyped-call]
            self._pool.join(timeout=5)
            self._pool = None

    @property
    def started(self) -> bool:
        """Whether the processes are starting or there (:meth:`start` has been called)."""
        return self._starting is not None or self._pool is not None

    @property
    def running(self) -> int:
        return self._running

    @property
    def waiting(self) -> int:
        return self._waiting

    def figures(self) -> dict[str, int]:
        """Jobs done, stopped, refused, running and waiting (for the metrics)."""
        return {
            "done": self.done,
            "stopped": self.stopped,
            "refused": self.refused,
            "running": self._running,
            "waiting": self._waiting,
        }

    def load(self, owner: str) -> int:
        """Jobs of ``owner`` queued or running."""
        return self._load.get(owner, 0)

    # -- jobs ----------------------------------------------------------------------------
    async def run(self, owner: str, timeout: float, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in a worker, in ``owner``'s turn; stop it after ``timeout``
        seconds of running (:class:`JobTimeout`). Raises :class:`Busy` at once when ``owner``
        already has ``per_owner`` jobs, or the pool ``queue`` jobs, waiting."""
        if self._closed:
            raise Busy(f"the {self.name} workers are stopped")
        if self._load.get(owner, 0) >= self.per_owner or self._waiting >= self.queue:
            self.refused += 1
            raise Busy(f"too many {self.name} jobs waiting")
        loop = asyncio.get_running_loop()
        job = _Job(fn, args, timeout, loop.create_future())
        self._queues.setdefault(owner, deque()).append(job)
        self._load[owner] = self._load.get(owner, 0) + 1
        self._waiting += 1
        try:
            self._pump()
            out: T = await job.future
            return out
        finally:
            left = self._load.get(owner, 1) - 1
            if left:
                self._load[owner] = left
            else:
                self._load.pop(owner, None)

    def _next(self) -> _Job | None:
        """The next job in turn: the first owner's, who then goes to the back of the line."""
        while self._queues:
            owner, q = next(iter(self._queues.items()))
            job = q.popleft()
            self._waiting -= 1
            if q:
                self._queues.move_to_end(owner)
            else:
                del self._queues[owner]
            if not job.future.done():  # a caller who gave up while it waited
                return job
        return None

    def _pump(self) -> None:
        if self._pool is None:  # the jobs wait for the processes (never started on the loop)
            self.start()
            return
        while self._running < self.workers:
            job = self._next()
            if job is None:
                return
            try:
                running = self._pool.schedule(job.fn, args=job.args, timeout=job.timeout)
            except Exception as exc:  # the pool could not take it (shutting down)
                job.future.set_exception(JobFailed(str(exc)))
                continue
            self._running += 1
            self._watch(job, running, asyncio.get_running_loop())

    def _watch(self, job: _Job, running: Any, loop: asyncio.AbstractEventLoop) -> None:
        """Stop ``running`` (kill its process) when the caller gives up; hand its outcome to
        the event loop when it ends."""

        def given_up(future: asyncio.Future[Any]) -> None:
            if future.cancelled():
                running.cancel()

        def ended(_: Any) -> None:
            loop.call_soon_threadsafe(self._finished, job, running)

        job.future.add_done_callback(given_up)
        running.add_done_callback(ended)

    def _finished(self, job: _Job, running: Any) -> None:
        self._running -= 1
        self.done += 1
        fut = job.future
        if not fut.done():
            try:
                fut.set_result(running.result())
            except FutureTimeout:
                self.stopped += 1
                log.warning(
                    "%s job %s stopped after %.1f s", self.name, job.fn.__name__, job.timeout
                )
                fut.set_exception(JobTimeout(f"stopped after {job.timeout:.1f} s"))
            except FutureCancelled:
                fut.cancel()
            except pebble.ProcessExpired as exc:
                log.warning("%s job %s: its process died (%s)", self.name, job.fn.__name__, exc)
                fut.set_exception(JobFailed(str(exc)))
            except BaseException as exc:  # the job's own error, raised in the worker
                fut.set_exception(exc)
        if not self._closed:
            self._pump()
