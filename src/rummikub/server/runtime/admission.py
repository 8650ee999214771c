"""What one client may cost the server: budgets per client address, not per connection.

A person who opens twenty sockets gets no more than one who opens one. Each address has
four buckets: messages (all WebSocket messages of all its connections), work (seconds of
server CPU spent on its requests: checking and playing tables), hints (seconds of worker CPU
its hints took) and rooms created. Hints have a bucket of their own so that asking for a hint,
which may take seconds, never keeps the asker from playing the move it suggests.
Each connection also keeps its own message bucket, so one noisy tab cannot starve another
tab of the same address. The table of addresses is bounded: the least recently seen is
forgotten first.

:class:`ConnectionCounter` counts what an address has open at once (its WebSockets, its TCP
connections) against a limit.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from .clock import Clock, RealClock
from .ratelimit import TokenBucket

__all__ = ["Admission", "Budget", "ConnectionCounter", "Limits"]


@dataclass(frozen=True, slots=True)
class Limits:
    """Per-connection and per-address limits (rates per second, bursts in units)."""

    #: WebSocket messages of one connection
    conn_rate: float = 20.0
    conn_burst: float = 60.0
    #: WebSocket messages of all connections of one address
    client_rate: float = 60.0
    client_burst: float = 180.0
    #: seconds of server CPU one address may use per second (checks, plays)
    work_rate: float = 0.1
    work_burst: float = 1.0
    #: seconds of worker CPU one address's hints may use per second
    hint_rate: float = 0.2
    hint_burst: float = 10.0
    #: rooms one address may create (per second; burst)
    room_rate: float = 0.1
    room_burst: float = 20.0
    #: addresses remembered at once
    max_clients: int = 10_000


@dataclass(slots=True)
class Budget:
    messages: TokenBucket
    work: TokenBucket
    hints: TokenBucket
    rooms: TokenBucket


class Admission:
    """The budgets of every client address a server has seen recently, refilled on
    ``clock``."""

    def __init__(self, limits: Limits | None = None, clock: Clock | None = None) -> None:
        self.limits = limits or Limits()
        self._clock = (clock or RealClock()).monotonic
        self._budgets: OrderedDict[str, Budget] = OrderedDict()

    def budget(self, client: str) -> Budget:
        found = self._budgets.get(client)
        if found is not None:
            self._budgets.move_to_end(client)
            return found
        lim = self.limits
        made = Budget(
            TokenBucket(lim.client_rate, lim.client_burst, self._clock),
            TokenBucket(lim.work_rate, lim.work_burst, self._clock),
            TokenBucket(lim.hint_rate, lim.hint_burst, self._clock),
            TokenBucket(lim.room_rate, lim.room_burst, self._clock),
        )
        self._budgets[client] = made
        while len(self._budgets) > lim.max_clients:
            self._budgets.popitem(last=False)
        return made

    def connection_bucket(self) -> TokenBucket:
        return TokenBucket(self.limits.conn_rate, self.limits.conn_burst, self._clock)


class ConnectionCounter:
    """How many connections each address has open, at most ``limit`` each (``0``: no limit).
    Only addresses with a connection open are kept, so the table is as large as the
    connections are many."""

    def __init__(self, limit: int) -> None:
        if limit < 0:
            raise ValueError(f"a connection limit is 0 (none) or more, not {limit}")
        self.limit = limit
        self.open_by: dict[str, int] = {}

    def open(self, key: str) -> bool:
        """Count one more connection of ``key``; ``False`` (nothing counted) when it has
        ``limit`` open already."""
        now = self.open_by.get(key, 0)
        if self.limit and now >= self.limit:
            return False
        self.open_by[key] = now + 1
        return True

    def close(self, key: str) -> None:
        """One connection of ``key`` has closed."""
        left = self.open_by.get(key, 0) - 1
        if left > 0:
            self.open_by[key] = left
        else:
            self.open_by.pop(key, None)
