"""Login lockouts: too many failed passwords for one account lock it for a while, the lock
doubling with every further failure; a success clears it. Together with the per-address rate
limit this bounds an online guessing attack to a handful of tries an hour per account, while
the real owner, who fails rarely, is hardly ever locked out for long.

A pure model: the caller gives the time (seconds, any monotonic or wall clock); the state of
each account is a small record the server keeps in its database.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FREE_FAILURES", "MAX_LOCK", "Attempts", "after_failure", "locked_for"]

FREE_FAILURES = 5  #: failures allowed before the first lock
FIRST_LOCK = 30.0  #: seconds of the first lock
MAX_LOCK = 3600.0  #: the longest lock


@dataclass(frozen=True, slots=True)
class Attempts:
    """Failed logins in a row for one account, and until when it is locked."""

    failures: int = 0
    locked_until: float = 0.0


def locked_for(state: Attempts, now: float) -> float:
    """Seconds the account stays locked (0: a password may be tried)."""
    return max(0.0, min(MAX_LOCK, state.locked_until - now))  # min: float rounding


def after_failure(state: Attempts, now: float) -> Attempts:
    """The state after a wrong password at ``now``: from the sixth failure in a row on, each
    locks the account, for 30 s, then 60 s, 120 s ... up to an hour."""
    failures = state.failures + 1
    extra = failures - FREE_FAILURES
    if extra <= 0:
        return Attempts(failures, state.locked_until)
    lock = min(MAX_LOCK, FIRST_LOCK * 2 ** (extra - 1))
    return Attempts(failures, now + lock)
