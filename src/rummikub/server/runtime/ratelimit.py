"""Token buckets: a flood from one client is refused cheaply, before any real work."""

from __future__ import annotations

from collections.abc import Callable
from time import monotonic

__all__ = ["TokenBucket"]


class TokenBucket:
    """``rate`` units per second on average, bursts of up to ``burst``.

    :meth:`take` asks for units before the work; :meth:`charge` books units after it, when the
    cost (e.g. the seconds of CPU a request took) is only known then, and may go into debt: the
    client then waits until the bucket has refilled above zero.

    ``clock`` gives the seconds of a monotonic clock (the server's :meth:`.Clock.monotonic`).
    """

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self._clock = clock
        self.stamp = clock()

    def _refill(self) -> None:
        now = self._clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, amount: float = 1.0) -> bool:
        self._refill()
        if self.tokens >= amount:
            self.tokens -= amount
            return True
        return False

    def has(self, amount: float = 0.0) -> bool:
        """Whether ``amount`` more could be taken now (taking nothing)."""
        self._refill()
        return self.tokens > amount

    def charge(self, amount: float) -> None:
        self._refill()
        self.tokens -= amount

    def wait(self) -> float:
        """Seconds until the bucket holds one unit again."""
        self._refill()
        return max(0.0, (1.0 - self.tokens) / self.rate) if self.rate > 0 else float("inf")
