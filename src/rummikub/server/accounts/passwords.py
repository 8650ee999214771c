"""Passwords: the rules for a new one, and hashing with Argon2id (``argon2-cffi``, the
maintained binding of the reference implementation, with its default parameters: RFC 9106's
second recommended option, 64 MiB and 3 passes).

Only the hash is stored. A login with an unknown name still spends the time of one
verification, so the answer's timing does not tell which names exist.

For tests only, ``RUMMIKUB_TEST_FAST_PASSWORDS=1`` hashes with Argon2id's least parameters (one
pass over 8 KiB): a test suite registers and logs in hundreds of times, each a tenth of a CPU
second with the real parameters. A server that reads it says so in its log; never set it where
people keep accounts (their hashes would be weak until their next login without it, which
upgrades them).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from .errors import AccountCode, AccountError
from .names import name_key

__all__ = [
    "FAST_ENV",
    "MAX_PASSWORD",
    "MIN_PASSWORD",
    "check_password",
    "hash_password",
    "hasher_parameters",
    "verify_password",
]

MIN_PASSWORD = 8
MAX_PASSWORD = 256
#: the test-only switch to the least parameters (see the module's text)
FAST_ENV = "RUMMIKUB_TEST_FAST_PASSWORDS"
#: Argon2id's least parameters: one pass, 8 KiB, one lane
_FAST = {"time_cost": 1, "memory_cost": 8, "parallelism": 1}


def hasher_parameters(environ: Mapping[str, str] = os.environ) -> dict[str, int]:
    """The parameters passwords are hashed with: argon2-cffi's defaults (RFC 9106), or the
    least ones when ``environ`` sets :data:`FAST_ENV` (tests only)."""
    if environ.get(FAST_ENV, "") not in ("", "0"):
        return dict(_FAST)
    default = PasswordHasher()
    return {
        "time_cost": default.time_cost,
        "memory_cost": default.memory_cost,
        "parallelism": default.parallelism,
    }


@cache
def _hasher() -> PasswordHasher:
    parameters = hasher_parameters()
    if parameters == _FAST:
        logging.getLogger(__name__).warning(
            "%s is set: passwords are hashed with test parameters (one pass over 8 KiB); "
            "never on a server where people keep accounts",
            FAST_ENV,
        )
    return PasswordHasher(
        time_cost=parameters["time_cost"],
        memory_cost=parameters["memory_cost"],
        parallelism=parameters["parallelism"],
    )


@cache
def _dummy_hash() -> str:
    return _hasher().hash("not a password of anyone")


def check_password(password: str, name: str) -> None:
    """Raise :class:`AccountError` if ``password`` may not be ``name``'s new password."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(
            f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters, not {len(password)}",
            AccountCode.PASSWORD_LENGTH,
            min=MIN_PASSWORD,
            max=MAX_PASSWORD,
        )
    if name_key(password) == name_key(name):
        raise AccountError("the password may not be the username", AccountCode.PASSWORD_IS_NAME)


def hash_password(password: str) -> str:
    """The Argon2id hash to store (salted: two hashes of one password differ)."""
    return _hasher().hash(password)


def verify_password(stored: str | None, password: str) -> tuple[bool, str | None]:
    """(whether ``password`` matches the ``stored`` hash, a new hash to store when the
    parameters have changed since it was made, else ``None``). ``stored=None`` (no such
    account) verifies against a dummy hash, so it takes as long, and is never a match."""
    hasher = _hasher()
    try:
        hasher.verify(stored if stored is not None else _dummy_hash(), password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False, None
    if stored is None:
        return False, None
    return True, hash_password(password) if hasher.check_needs_rehash(stored) else None
