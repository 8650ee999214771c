"""Where many independent jobs run (a tournament's games, a bulk analysis): worker processes on
this machine, or a Ray cluster.

:class:`RayExecutor` is a :class:`concurrent.futures.Executor` whose jobs run as Ray tasks, so
code written for a process pool runs on a cluster unchanged. Ray is an optional extra
(``pip install 'rummikub[ray]'``); nothing else needs it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any, ParamSpec, TypeVar

from rummikub.core import Code, UsageError

__all__ = ["RayExecutor", "open_executor"]

P = ParamSpec("P")
T = TypeVar("T")


class RayExecutor(Executor):
    """Jobs as Ray tasks. ``address``: ``auto`` (the cluster this machine belongs to, as
    ``ray start`` made it), ``local`` (a Ray instance started here, for one machine and for
    tests) or a cluster address (``ray://head:10001``, ``head:6379``). A Ray instance this
    executor started is shut down with it."""

    def __init__(self, address: str, *, num_cpus: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise UsageError(
                "Ray is not installed: pip install 'rummikub[ray]'",
                code=Code.BAD_ARGUMENT,
                params={"name": "ray", "value": address},
            ) from None
        self._ray: Any = ray
        self._started = not ray.is_initialized()
        if self._started:
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if address == "local":
                kwargs["num_cpus"] = num_cpus or os.cpu_count() or 1
                ray.init(**kwargs)
            else:
                ray.init(address=address, **kwargs)
        self._tasks: dict[Callable[..., Any], Any] = {}

    @property
    def cpus(self) -> int:
        """The CPUs of the cluster: how many jobs run at once."""
        return int(self._ray.cluster_resources().get("CPU", 1))

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        task = self._tasks.get(fn)
        if task is None:
            task = self._tasks[fn] = self._ray.remote(fn)
        future: Future[T] = task.remote(*args, **kwargs).future()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if self._started and self._ray.is_initialized():
            self._ray.shutdown()
            self._started = False


def open_executor(workers: int, ray: str | None = None) -> tuple[Executor, int]:
    """An executor for many jobs and how many of them run at once: Ray's when ``ray`` names a
    cluster (see :class:`RayExecutor`), else ``workers`` local processes."""
    if ray is not None:
        pool = RayExecutor(ray, num_cpus=workers if ray == "local" else None)
        return pool, pool.cpus
    return ProcessPoolExecutor(max_workers=workers), workers
