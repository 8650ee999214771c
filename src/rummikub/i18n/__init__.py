"""The message catalogue of every user interface: the terminal games, the command line and the
web client (the server serves the same files to the browser, see ``docs/web.md``).

There is one catalogue per language, a flat JSON object ``{"key": "text with {placeholders}"}``
shipped next to this module (``en.json``, ``sv.json``, ...). :func:`translator` returns a callable
that formats a key with named parameters; keys missing from a catalogue fall back to English.
The language comes from ``--lang`` or the system locale (:func:`detect_language`); a browser's
``Accept-Language`` header is matched by :func:`negotiate`.

The languages are listed once, in :data:`LISTED` (code, the language's own name, its writing
direction): a language is shipped (:data:`SHIPPED`) when it is listed there and its catalogue
file is here (a test checks every listed language has its file and every file is listed).
:data:`LANGUAGES` (the codes), the server's pages and the web client's language menu all read
that list (``docs/i18n.md`` says how to add a language).

Two kinds of variants of a message sit next to it in the catalogue:

- plural forms: with a ``count`` parameter (or, lacking one, ``n``), ``key#one``, ``key#few``...
  is used when the catalogue has it for the CLDR plural category of the number in the language
  (:func:`plural_category`, from Babel's CLDR data); the plain ``key`` is the ``other`` form;
- the second person: ``t(key, you=True)`` uses ``key@you`` when there is one, for the player
  at the keyboard ("You drew a tile", not "You draws a tile"). Plural forms of it are
  ``key@you#one``...

Every error code of the engine (:class:`rummikub.core.Code`) and of the server has a message
``error.<code>``; :meth:`Translator.error` renders an error from its code and params.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import NamedTuple

from babel import Locale, numbers

from rummikub.core import RummikubError

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANG_ENV",
    "LISTED",
    "SHIPPED",
    "Language",
    "Translator",
    "catalogue",
    "catalogue_bytes",
    "detect_language",
    "direction",
    "format_decimal",
    "format_number",
    "format_percent",
    "language_names",
    "negotiate",
    "plural_categories",
    "plural_category",
    "terminal_language",
    "translator",
]


class Language(NamedTuple):
    """A shipped language: its code (the catalogue is ``<code>.json``), its name in itself (as
    the language menus show it) and whether it is written right to left."""

    code: str
    name: str
    rtl: bool = False


#: The languages, English first (the fallback): the one list of them. A language is shipped
#: (:data:`SHIPPED`) when its catalogue ``<code>.json`` is here too.
LISTED: tuple[Language, ...] = (
    Language("en", "English"),
    Language("sv", "Svenska"),
    Language("he", "עברית", rtl=True),
    Language("de", "Deutsch"),
    Language("nl", "Nederlands"),
    Language("pl", "Polski"),
    Language("es", "Español"),
    Language("fr", "Français"),
)


def _has_catalogue(code: str) -> bool:
    return resources.files(__package__).joinpath(f"{code}.json").is_file()


#: The listed languages whose catalogue is here: those the interfaces offer.
SHIPPED: tuple[Language, ...] = tuple(x for x in LISTED if _has_catalogue(x.code))
#: The codes of :data:`SHIPPED`.
LANGUAGES: tuple[str, ...] = tuple(lang.code for lang in SHIPPED)
DEFAULT_LANGUAGE = "en"
#: An environment variable naming the language, read before the system locale (the command
#: line's global ``rummikub --lang xx`` sets it for every subcommand).
LANG_ENV = "RUMMIKUB_LANG"


def language_names() -> dict[str, str]:
    """Each shipped language's code and its own name, in the order of :data:`SHIPPED`."""
    return {lang.code: lang.name for lang in SHIPPED}


def direction(lang: str) -> str:
    """``"rtl"`` for a language written right to left, else ``"ltr"``."""
    return "rtl" if any(x.code == lang and x.rtl for x in LISTED) else "ltr"


def catalogue_bytes(lang: str) -> bytes:
    """The catalogue file of ``lang`` as shipped (raises :class:`ValueError` for an unknown
    language): what the server sends the browser."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (languages: {', '.join(LANGUAGES)})")
    return resources.files(__package__).joinpath(f"{lang}.json").read_bytes()


@cache
def catalogue(lang: str) -> Mapping[str, str]:
    """The messages of ``lang`` (raises :class:`ValueError` for an unknown language)."""
    data = json.loads(catalogue_bytes(lang).decode("utf-8"))
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise ValueError(f"catalogue {lang}.json must map keys to strings")
    return data


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


def plural_category(lang: str, count: int) -> str:
    """The CLDR plural category (``one``, ``few``, ``other``...) of ``count`` in ``lang``."""
    return str(_locale(lang).plural_form(abs(count)))


def plural_categories(lang: str) -> frozenset[str]:
    """Every CLDR plural category of ``lang``, ``other`` included."""
    return frozenset(_locale(lang).plural_form.tags) | {"other"}


def _normalise(tag: str) -> str | None:
    """``sv_SE.UTF-8`` -> ``sv``; ``C``/``POSIX``/empty -> None."""
    base = tag.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].strip().lower()
    if not base or base in ("c", "posix"):
        return None
    return base


def negotiate(accept_language: str | None) -> str:
    """The shipped language a browser prefers most, from its ``Accept-Language`` header
    (``he-IL,he;q=0.9,en;q=0.5``: the highest ``q`` first, ties in the header's order; a
    region is matched by its language); English when it names none of them."""
    ranked: list[tuple[float, int, str]] = []
    for i, item in enumerate((accept_language or "")[:1000].split(",")):
        tag, _, rest = item.strip().partition(";")
        q = 1.0
        for param in rest.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        lang = _normalise(tag) if tag.strip() != "*" else None
        if lang in LANGUAGES and q > 0:
            ranked.append((-q, i, lang))
    return min(ranked)[2] if ranked else DEFAULT_LANGUAGE


def detect_language(env: Mapping[str, str] | None = None) -> str:
    """The language of ``RUMMIKUB_LANG`` (:data:`LANG_ENV`) or else of the system locale
    (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, in the order gettext reads them), if
    there is a catalogue for it; else English."""
    env = os.environ if env is None else env
    chosen = _normalise(env.get(LANG_ENV, ""))
    if chosen in LANGUAGES:
        return chosen
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


def terminal_language(lang: str | None) -> tuple[str, str | None]:
    """The language a terminal game can show, and what to say if it is not the one asked for.

    Textual draws a line cell by cell, left to right, without the bidirectional algorithm: a
    language written right to left (Hebrew) would come out mirrored. So a terminal game asked
    for such a language is shown in English, and the returned notice (``terminal.no_rtl`` in
    the language asked for, then in English) says so on start. ``lang`` ``None`` is the system
    locale's language (:func:`detect_language`)."""
    asked = detect_language() if lang is None else lang
    if direction(asked) != "rtl":
        return asked, None
    own = Translator(asked)("terminal.no_rtl")
    english = Translator(DEFAULT_LANGUAGE)("terminal.no_rtl")
    return DEFAULT_LANGUAGE, f"{own}\n{english}"


def format_number(lang: str, value: int) -> str:
    """A whole number as ``lang`` writes it (``12 345`` in Swedish, ``12.345`` in German)."""
    return str(numbers.format_decimal(value, locale=_locale(lang)))


def format_decimal(lang: str, value: float, digits: int = 1) -> str:
    """A number with ``digits`` decimals as ``lang`` writes it (``3,5`` in German)."""
    pattern = "#,##0." + "0" * digits if digits else "#,##0"
    return str(numbers.format_decimal(value, pattern, locale=_locale(lang)))


def format_percent(lang: str, fraction: float) -> str:
    """A fraction as a whole percentage in ``lang`` (0.42 -> ``42 %`` in German and Swedish,
    ``42%`` in English), by the language's own pattern."""
    return str(numbers.format_percent(fraction, locale=_locale(lang)))


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
        return self._render(key, params, you=you)

    def decimal(self, value: float, digits: int = 1) -> str:
        """``value`` with ``digits`` decimals as this language writes it (``99,1`` in
        Swedish): for the numbers put into a message."""
        return format_decimal(self.lang, value, digits)

    def percent(self, fraction: float) -> str:
        """``fraction`` as a whole percentage as this language writes it (``42 %`` in
        Swedish)."""
        return format_percent(self.lang, fraction)

    def _render(self, key: str, params: Mapping[str, object], *, you: bool = False) -> str:
        if you and self.has(f"{key}@you"):
            key = f"{key}@you"
        count = params.get("count", params.get("n"))
        if isinstance(count, int) and not isinstance(count, bool):
            form = f"{key}#{plural_category(self.lang, count)}"
            if form in self._messages or (key not in self._messages and form in self._fallback):
                key = form
        text = self._messages.get(key)
        if text is None:
            text = self._fallback[key]
        return text.format(**params)

    def has(self, key: str) -> bool:
        return key in self._fallback

    def coded(self, code: str, params: Mapping[str, object] | None = None) -> str:
        """The message of an error ``code`` (``error.<code>``) with its ``params``; a ``why``
        param that is itself a code is rendered first, with the same params. A code without a
        message (from a newer program) gives the generic one."""
        values = dict(params or {})
        why = values.get("why")
        if isinstance(why, str) and self.has(f"error.{why}"):
            rest = {k: v for k, v in values.items() if k != "why"}
            values["why"] = self._render(f"error.{why}", rest)
        key = f"error.{code}"
        if not self.has(key):
            key = "error.error"
        try:
            return self._render(key, values)
        except (KeyError, IndexError):  # params missing: say what went wrong without them
            return self("error.error")

    def error(self, err: RummikubError) -> str:
        """An error of the engine in this language, from its code and params."""
        return self.coded(err.code, err.params)


def translator(lang: str | None = None) -> Translator:
    """A translator for ``lang`` (``None``: the system locale's language)."""
    return Translator(detect_language() if lang is None else lang)
