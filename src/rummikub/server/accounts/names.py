"""Usernames: what a player may call himself.

A name is 3 to 20 characters: letters (any script), digits, ``_``, ``-`` and ``.``, starting
with a letter or digit. Names are unique without regard to case, to how a letter is written
(``NFKC`` then ``casefold``: ``Ångström``, ``ÅNGSTRÖM`` and ``ångström`` are one name) and to
letters of other scripts that look the same: two names with one *confusable skeleton*
(Unicode UTS #39) are one name, so a Cyrillic ``Аlice`` cannot sign up beside ``alice``. A name
may not pass for a bot (``greedy``, ``Expert-2``, ``bot_anna``, ``Anna Bot``) or for the site
(``admin``, ``moderator``, ``system``, ``guest``, ``deleted``...), written with look-alike
letters (``аdmin`` in Cyrillic) or not.

The skeleton comes from the Unicode consortium's confusables data as
``confusable-homoglyphs`` ships it: the widely used, pure-Python package (django-registration
checks usernames with it) that keeps that data current with Unicode's releases. Its table
holds each confusable pair both ways; UTS #39 maps every character to one *prototype*, and in
the data a prototype is never itself mapped, so each character's prototype is its one
neighbour that others map to as well (a pair nothing else joins is one class either way: its
smaller member stands for it). ``confusables`` (the other candidate) ships Unicode 8.0 data of
2015 and compares two strings at a time, which gives no key a database can index; ICU's
``SpoofChecker`` (PyICU) needs a C++ build against ICU. A new version of the data may move a
few rare characters: stored keys are compared as they were made (:func:`name_skeleton`).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from confusable_homoglyphs.confusables import (  # type: ignore[import-untyped]
    confusables_data,
)

from .errors import AccountCode, AccountError

__all__ = ["MAX_NAME", "MIN_NAME", "check_name", "name_key", "name_skeleton", "skeleton"]

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
    """The form a name is looked up in: ``Anna`` and ``ANNA`` are one name."""
    return unicodedata.normalize("NFKC", name).casefold()


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype (UTS #39's table), from the pairs of the data."""
    pairs: dict[str, list[str]] = {
        k: [str(h["c"]) for h in v] for k, v in dict(confusables_data).items()
    }
    out: dict[str, str] = {}
    for char, others in pairs.items():
        if len(char) != 1 or len(others) != 1:
            continue  # a prototype: several characters look like it (or it is a sequence)
        (other,) = others
        # ``other`` is the prototype when others map to it too (or it is a sequence); a pair
        # of two alone is one class either way: the smaller stands for both
        if len(other) > 1 or len(pairs.get(other, ())) > 1 or char > other:
            out[char] = other
    return out


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: decomposed (NFD), each character replaced by its
    prototype, decomposed again. Two strings that look alike have one skeleton."""
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in decomposed))


def name_skeleton(name: str) -> str:
    """The key two names are one name by: the skeleton of the case-folded NFKC form, folded
    again (a skeleton may hold capitals: ``0`` looks like ``O``). ``Alice``, ``ALICE`` and
    ``Аlice`` with a Cyrillic ``А`` have one."""
    return skeleton(name_key(name)).casefold()


def _reserved_like(key: str) -> str | None:
    """The reserved word (or bot level) the name of comparison form ``key`` passes for."""
    words = [w for w in _SEPARATORS.split(key) if w]
    bare = "".join(w for w in words if not w.isdigit()).strip("0123456789")
    like = next((w for w in RESERVED if w in words or w == bare), None)
    if like is None:
        like = next((w for w in BOT_LEVELS if bare.startswith(w)), None)
    return like


@cache
def _reserved_skeletons() -> dict[str, str]:
    return {name_skeleton(w): w for w in RESERVED}


def _reserved_by_look(name: str) -> str | None:
    """The reserved word ``name`` looks like, letter for letter (``аdmin``, ``bоt_7``)."""
    words = [w for w in _SEPARATORS.split(name_key(name)) if w]
    bare = "".join(w for w in words if not w.isdigit()).strip("0123456789")
    looks = _reserved_skeletons()
    shapes = [name_skeleton(w) for w in words]
    found = next((looks[s] for s in shapes if s in looks), None)
    if found is None and bare:
        found = looks.get(name_skeleton(bare))
    if found is None and bare:
        shape = name_skeleton(bare)
        found = next((w for w in BOT_LEVELS if shape.startswith(name_skeleton(w))), None)
    return found


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
    like = _reserved_like(name_key(name)) or _reserved_by_look(name)
    if like is not None:
        raise AccountError(
            f"{name!r} could pass for a bot or the site ({like!r}); choose another name",
            AccountCode.NAME_RESERVED,
            like=like,
        )
    return name
