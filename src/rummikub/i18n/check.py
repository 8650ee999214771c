"""The check of a language's catalogue against the English one (``rummikub i18n check``; the
test suite runs it over every shipped language).

A catalogue is complete when it has every key of ``en.json`` and no other, each text with the
same placeholders as the English, the plural forms its language needs (``key#one``,
``key#few``...: the CLDR categories of the language, :func:`.plural_categories`) for every
message English counts (a message English has ``key#one`` of) and no others, and no text left
in English (a text identical to the English one is allowed when it is the same word in both
languages: :data:`SAME_AS_ENGLISH`, or has no words at all: ``{a}–{b}``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from . import catalogue, plural_categories

__all__ = ["SAME_AS_ENGLISH", "Finding", "check", "counted_keys", "same_as_english"]

#: Words a language may write as English does (names, and words the languages share): a text
#: identical to the English one is no finding when all its words are here. ``"*"`` holds for
#: every language; a language's own words are added to it. Compared case-insensitively.
SAME_AS_ENGLISH: Mapping[str, frozenset[str]] = {
    "*": frozenset({"rummikub", "xpress", "xp", "ok", "min", "elo"}),
    "sv": frozenset({"joker", "orange", "rating", "match", "person", "standard", "bot"}),
    "de": frozenset({"joker", "start", "online", "offline", "bot", "orange", "standard", "chat"}),
    "he": frozenset(),
    "nl": frozenset({"joker", "jokers", "bot", "chat", "online", "offline", "rating"})
    | {"score", "scores", "blunder", "blunders"},
    "pl": frozenset({"joker", "bot", "online", "offline"}),
    "es": frozenset({"bot", "chat", "total"}),
    "fr": frozenset(
        {"joker", "jokers", "bot", "orange", "points", "pts", "score", "standard", "table", "total"}
    ),
}

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_WORD = re.compile(r"[^\W\d_]{2,}")


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem of a catalogue: its ``kind`` (``missing``, ``extra``, ``placeholders``,
    ``plural-missing``, ``plural-extra``, ``english``, ``empty``, ``no-catalogue``) and the
    key it is about."""

    lang: str
    kind: str
    key: str
    detail: str = ""


def placeholders(text: str) -> set[str]:
    """The named placeholders of a text (``{name}``)."""
    return set(_PLACEHOLDER.findall(text))


def _shared(text: str, same: frozenset[str]) -> bool:
    """Whether every word of ``text`` (its placeholders aside) is one the languages share."""
    return all(w.casefold() in same for w in _WORD.findall(_PLACEHOLDER.sub("", text)))


def same_as_english(lang: str, text: str) -> bool:
    """Whether ``lang`` may write ``text`` as English does: all its words are shared ones
    (:data:`SAME_AS_ENGLISH`), such as the game's name."""
    return _shared(text, SAME_AS_ENGLISH["*"] | SAME_AS_ENGLISH.get(lang, frozenset()))


def counted_keys() -> frozenset[str]:
    """The messages that count something: those English has a ``#one`` form of."""
    return frozenset(k.partition("#")[0] for k in catalogue("en") if "#" in k)


def check(lang: str, messages: Mapping[str, str] | None = None) -> list[Finding]:
    """Every problem of the catalogue of ``lang`` (none: it is complete); ``messages`` checks
    those instead of the shipped file (a catalogue being written)."""
    english = catalogue("en")
    if messages is None:
        try:
            messages = catalogue(lang)
        except FileNotFoundError:
            return [Finding(lang, "no-catalogue", f"{lang}.json")]
    counted = counted_keys()
    categories = plural_categories(lang) - {"other"}
    same = SAME_AS_ENGLISH["*"] | SAME_AS_ENGLISH.get(lang, frozenset())
    found: list[Finding] = []
    plain_en = {k for k in english if "#" not in k}
    plain = {k for k in messages if "#" not in k}
    found += [Finding(lang, "missing", k) for k in sorted(plain_en - plain)]
    found += [Finding(lang, "extra", k) for k in sorted(plain - plain_en)]
    for key in sorted(plain & plain_en):
        if placeholders(messages[key]) != placeholders(english[key]):
            ours = ", ".join(sorted(placeholders(messages[key]))) or "-"
            theirs = ", ".join(sorted(placeholders(english[key]))) or "-"
            found.append(Finding(lang, "placeholders", key, f"{ours} / en: {theirs}"))
        if not messages[key].strip():
            found.append(Finding(lang, "empty", key))
        elif lang != "en" and messages[key] == english[key] and not _shared(messages[key], same):
            found.append(Finding(lang, "english", key, messages[key]))
    for key in sorted(messages):
        if "#" not in key:
            continue
        base, _, category = key.partition("#")
        if base not in counted or category not in categories or base not in messages:
            found.append(Finding(lang, "plural-extra", key))
        elif not placeholders(messages[key]) <= placeholders(messages[base]):
            found.append(Finding(lang, "placeholders", key, ", ".join(placeholders(messages[key]))))
    for base in sorted(counted):
        if base not in plain_en:
            continue
        for category in sorted(categories):
            if f"{base}#{category}" not in messages:
                found.append(Finding(lang, "plural-missing", f"{base}#{category}"))
    return found
