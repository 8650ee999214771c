"""A token bucket per connection: a flood from one client is dropped cheaply before parsing."""

from __future__ import annotations

import time

__all__ = ["TokenBucket"]


class TokenBucket:
    """``rate`` messages per second on average, bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
