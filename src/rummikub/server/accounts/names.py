"""Usernames: what a player may call himself.

A name is 3 to 20 characters: letters (any script), digits, ``_``, ``-`` and ``.``, starting
with a letter or digit. Names are unique without regard to case or to how a letter is written
(``NFKC`` then ``casefold``: ``Ångström``, ``ÅNGSTRÖM`` and ``ångström`` are one name). A name
may not pass for a bot (``greedy``, ``Expert-2``, ``bot_anna``, ``Anna Bot``) or for the site
(``admin``, ``moderator``, ``system``, ``guest``, ``deleted``...).
"""

from __future__ import annotations

import re
import unicodedata

from .errors import AccountCode, AccountError

__all__ = ["MAX_NAME", "MIN_NAME", "check_name", "name_key"]

MIN_NAME = 3
MAX_NAME = 20
#: the bot levels of every game: no name may start with one (``greedy2``, ``ExpertAnna``)
BOT_LEVELS = ("random", "beginner", "greedy", "strategic", "expert")
#: words that name bots or the site: no name may be one, with digits (``bot_7``), or hold one
#: as a separate word (``anna_bot``)
RESERVED = (
    *BOT_LEVELS, "bot", "robot", "cpu", "computer", "engine", "ai", "admin", "administrator",
    "moderator", "mod", "operator", "system", "server", "root", "support", "staff", "rummikub",
    "guest", "anonymous", "deleted", "nobody",
)  # fmt: skip
_SEPARATORS = re.compile(r"[_.\-]+")


def name_key(name: str) -> str:
    """The form two names are compared in: ``Anna`` and ``ANNA`` are one name."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(name: str) -> str:
    """``name`` as it will be stored (NFKC-normalised, spaces around it removed), or
    :class:`AccountError` naming what is wrong with it."""
    name = unicodedata.normalize("NFKC", name).strip()
    if not MIN_NAME <= len(name) <= MAX_NAME:
        raise AccountError(
            f"a username has {MIN_NAME} to {MAX_NAME} characters, not {len(name)}",
            AccountCode.NAME_LENGTH,
            min=MIN_NAME,
            max=MAX_NAME,
        )
    for i, ch in enumerate(name):
        if ch.isalnum() and (ch.isascii() or unicodedata.category(ch).startswith("L")):
            continue
        if i > 0 and ch in "_.-":
            continue
        raise AccountError(
            f"a username may not hold {ch!r} (letters, digits and _ . - only, starting with "
            "a letter or digit)",
            AccountCode.NAME_CHARACTERS,
            char=ch,
        )
    words = [w for w in _SEPARATORS.split(name_key(name)) if w]
    bare = "".join(w for w in words if not w.isdigit()).strip("0123456789")
    like = next((w for w in RESERVED if w in words or w == bare), None)
    if like is None:
        like = next((w for w in BOT_LEVELS if bare.startswith(w)), None)
    if like is not None:
        raise AccountError(
            f"{name!r} could pass for a bot or the site ({like!r}); choose another name",
            AccountCode.NAME_RESERVED,
            like=like,
        )
    return name
