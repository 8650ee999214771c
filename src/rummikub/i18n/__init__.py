"""Message catalogues for every user interface (terminal UI now, others later).

Catalogues are flat JSON objects ``{"key": "text with {placeholders}"}`` shipped next to this
module, one per language (``en.json``, ``sv.json``). :func:`translator` returns a callable that
formats a key with named parameters; keys missing from a catalogue fall back to English.
The language comes from ``--lang`` or the system locale (:func:`detect_language`).

Two kinds of variants of a message sit next to it in the catalogue:

- plural forms: with a ``count`` parameter, ``key#one`` (or ``key#other``...) is used when the
  catalogue has it for the CLDR plural category of ``count`` in the language
  (:func:`plural_category`); the plain ``key`` is the ``other`` form;
- the second person: ``t(key, you=True)`` uses ``key@you`` when there is one, for the player
  at the keyboard ("You drew a tile", not "You draws a tile"). Plural forms of it are
  ``key@you#one``...
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from functools import cache
from importlib import resources

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "Translator",
    "catalogue",
    "detect_language",
    "plural_category",
    "translator",
]

#: Languages with a shipped catalogue, English first (the fallback).
LANGUAGES: tuple[str, ...] = ("en", "sv")
DEFAULT_LANGUAGE = "en"


@cache
def catalogue(lang: str) -> Mapping[str, str]:
    """The messages of ``lang`` (raises :class:`ValueError` for an unknown language)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (languages: {', '.join(LANGUAGES)})")
    text = resources.files(__package__).joinpath(f"{lang}.json").read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise ValueError(f"catalogue {lang}.json must map keys to strings")
    return data


def plural_category(lang: str, count: int) -> str:
    """The CLDR plural category of the integer ``count`` in ``lang``.

    English and Swedish (the shipped languages) share CLDR's rule for integers: ``one`` for
    1, ``other`` for everything else. A language added later with other categories (e.g.
    ``few``) gets its rule here; Babel is not needed for two languages with one rule.
    """
    if lang in ("en", "sv"):
        return "one" if abs(count) == 1 else "other"
    raise ValueError(f"no plural rule for language {lang!r}")


def _normalise(tag: str) -> str | None:
    """``sv_SE.UTF-8`` -> ``sv``; ``C``/``POSIX``/empty -> None."""
    base = tag.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].strip().lower()
    if not base or base in ("c", "posix"):
        return None
    return base


def detect_language(env: Mapping[str, str] | None = None) -> str:
    """The language of the system locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``,
    in the order gettext reads them), if there is a catalogue for it; else English."""
    env = os.environ if env is None else env
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for part in value.split(":"):
            lang = _normalise(part)
            if lang is None:
                continue
            if lang in LANGUAGES:
                return lang
        # The first variable that is set decides (as in gettext), unless it says nothing.
        if any(_normalise(p) for p in value.split(":")):
            return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


class Translator:
    """``t("key", name="Ann")`` -> the message of ``key`` in this language, formatted.

    An unknown key raises :class:`KeyError` (a programming error: tests check every key used
    by the interfaces is in every catalogue).
    """

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._messages = catalogue(lang)
        self._fallback = catalogue(DEFAULT_LANGUAGE)

    def __call__(self, key: str, /, *, you: bool = False, **params: object) -> str:
        if you and self.has(f"{key}@you"):
            key = f"{key}@you"
        count = params.get("count")
        if isinstance(count, int) and not isinstance(count, bool):
            form = f"{key}#{plural_category(self.lang, count)}"
            if form in self._messages or (key not in self._messages and form in self._fallback):
                key = form
        text = self._messages.get(key)
        if text is None:
            text = self._fallback[key]
        return text.format(**params) if params else text

    def has(self, key: str) -> bool:
        return key in self._fallback


def translator(lang: str | None = None) -> Translator:
    """A translator for ``lang`` (``None``: the system locale's language)."""
    return Translator(detect_language() if lang is None else lang)
