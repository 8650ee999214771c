"""Accounts (issue 19, in progress): the rules for usernames and passwords, password hashing
(Argon2id), login lockouts, and session and CSRF tokens. Pure parts with no database or HTTP of
their own; the server's account endpoints build on them (docs/server.md)."""

from __future__ import annotations

from .errors import AccountCode, AccountError
from .lockout import Attempts, after_failure, locked_for
from .names import check_name, name_key, name_skeleton
from .passwords import check_password, hash_password, verify_password
from .tokens import csrf_token, csrf_valid, new_token, token_hash

__all__ = [
    "AccountCode",
    "AccountError",
    "Attempts",
    "after_failure",
    "check_name",
    "check_password",
    "csrf_token",
    "csrf_valid",
    "hash_password",
    "locked_for",
    "name_key",
    "name_skeleton",
    "new_token",
    "token_hash",
    "verify_password",
]
