"""Passwords: the rules for a new one, and hashing with Argon2id (``argon2-cffi``, the
maintained binding of the reference implementation, with its default parameters: RFC 9106's
second recommended option, 64 MiB and 3 passes).

Only the hash is stored. A login with an unknown name still spends the time of one
verification, so the answer's timing does not tell which names exist.
"""

from __future__ import annotations

from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from .errors import AccountCode, AccountError
from .names import name_key

__all__ = ["MAX_PASSWORD", "MIN_PASSWORD", "check_password", "hash_password", "verify_password"]

MIN_PASSWORD = 8
MAX_PASSWORD = 256


@cache
def _hasher() -> PasswordHasher:
    return PasswordHasher()


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
