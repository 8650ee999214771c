"""Login lockouts: too many failed passwords for one name lock it for a while, the lock
doubling with every further failure; a success clears it. Together with the per-address rate
limit this bounds an online guessing attack to a handful of tries an hour per account, while
the real owner, who fails rarely, is hardly ever locked out for long.

The schedule: the first :data:`FREE_FAILURES` wrong passwords in a row may be tried; the
fifth locks the name for 30 s (so the sixth try is refused as locked, its password not even
checked), and each wrong password after a lock locks again for twice as long, up to an hour.
Failures are forgotten after a day without any (:data:`FORGET_AFTER`). Every name typed is
counted, whether an account has it or not, so the lock does not tell which names exist.

A pure model: the caller gives the time (seconds, any monotonic or wall clock); the server
keeps the state of each name in its database and counts a try *before* its password is
checked (:meth:`~.store.AccountStore.log_in`), so tries at once cannot slip past the count.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "FORGET_AFTER",
    "FREE_FAILURES",
    "LOCK_STEPS",
    "MAX_LOCK",
    "Attempts",
    "after_failure",
    "lock_after",
    "locked_for",
]

FREE_FAILURES = 5  #: wrong passwords in a row that are checked before the first lock
FIRST_LOCK = 30.0  #: seconds of the first lock
MAX_LOCK = 3600.0  #: the longest lock
FORGET_AFTER = 86400.0  #: failures are forgotten after this long without another
#: how many locks double before they reach :data:`MAX_LOCK`
LOCK_STEPS = next(n for n in range(64) if FIRST_LOCK * 2**n >= MAX_LOCK)


@dataclass(frozen=True, slots=True)
class Attempts:
    """Failed logins in a row for one name, and until when it is locked."""

    failures: int = 0
    locked_until: float = 0.0


def lock_after(failures: int) -> float:
    """Seconds the ``failures``-th wrong password in a row locks the name for (0: none)."""
    extra = failures - FREE_FAILURES
    if extra < 0:
        return 0.0
    return min(MAX_LOCK, FIRST_LOCK * 2.0 ** min(extra, LOCK_STEPS))


def locked_for(state: Attempts, now: float) -> float:
    """Seconds the name stays locked (0: a password may be tried)."""
    return max(0.0, min(MAX_LOCK, state.locked_until - now))  # min: float rounding


def after_failure(state: Attempts, now: float) -> Attempts:
    """The state after a wrong password at ``now``: from the fifth failure in a row on, each
    locks the name, for 30 s, then 60 s, 120 s ... up to an hour."""
    failures = state.failures + 1
    lock = lock_after(failures)
    return Attempts(failures, now + lock if lock > 0 else state.locked_until)
