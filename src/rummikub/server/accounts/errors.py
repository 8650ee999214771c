"""Why an account request was refused: one code per reason, the message naming the part."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

__all__ = ["AccountCode", "AccountError"]


class AccountCode(StrEnum):
    #: ``min``, ``max``: a username too short or too long
    NAME_LENGTH = "name-length"
    #: ``char``: a character a username may not hold
    NAME_CHARACTERS = "name-characters"
    #: ``like``: a name that could pass for a bot or the site's own
    NAME_RESERVED = "name-reserved"
    #: ``min``, ``max``
    PASSWORD_LENGTH = "password-length"
    PASSWORD_IS_NAME = "password-is-name"
    #: a name taken or reserved: one answer for both
    NAME_UNAVAILABLE = "name-unavailable"
    #: one answer for a wrong name and a wrong password (no user enumeration)
    BAD_LOGIN = "bad-login"
    #: no session, or one that expired or was logged out
    NOT_LOGGED_IN = "not-logged-in"
    #: ``retry_after`` seconds
    LOCKED = "locked"


class AccountError(ValueError):
    """An account request refused; ``code`` says why, ``params`` the details."""

    def __init__(self, message: str, code: AccountCode, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
