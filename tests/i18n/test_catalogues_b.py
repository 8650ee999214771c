"""The Dutch, Polish, Spanish and French catalogues (``nl.json``, ``pl.json``, ``es.json``,
``fr.json``) against the English one: every key, the same placeholders, the plural forms CLDR
asks for in each language, and no text left in English.

The files are read directly (not through :func:`rummikub.i18n.catalogue`), so these checks do
not depend on the list of languages. Run as a script for a report of every problem at once:
``.venv/bin/python tests/i18n/test_catalogues_b.py [lang ...]``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from rummikub.i18n import plural_categories

I18N = Path(__file__).resolve().parents[2] / "src" / "rummikub" / "i18n"
LANGS = ("nl", "pl", "es", "fr")

# Texts that are the same word in English and in these languages (names, the game's own words).
SAME_AS_ENGLISH = frozenset(
    {
        "Rummikub",
        "Rummikub!",
        "Rummikub Xpress",
        "Xpress",
        "Chat",
        "Bot",
        "Bot {n}",
        "Bot: {level}",
        "{s} s",
        "joker",
        "Total",
        "Rating",
        "Rating {rating}",
        "{value}%",
        "{colour} {n}",
        "R1 R2 R3 | K5 B5 O5",
        "R4 K7 J",
        "Online",
        "Offline",
        "Score",
        "XP",
        "{name} ({details})",
        ", ",
        "{minutes} min",
    }
)

# Texts that are also the word of one language (keyed by language).
SAME_IN = {
    "nl": frozenset(
        {
            "Scores: {scores}",
            "blunder",
            "Blunders",
            "Jokers",
            "{name}: rating {before} → {after}",
        }
    ),
    "pl": frozenset(),
    "es": frozenset(),
    "fr": frozenset({"Table", "{count} points", "Standard", "pts", "Jokers", "orange"}),
}

COUNT_PARAMS = frozenset({"count", "n"})


def load(lang: str) -> dict[str, str]:
    data = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict), lang
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()), lang
    return data


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def base_key(key: str) -> str:
    return key.partition("#")[0]


def counted_keys(english: dict[str, str]) -> set[str]:
    """The keys whose messages need plural forms: those English gives a ``#one`` form."""
    return {base_key(k) for k in english if "#" in k}


def problems(lang: str) -> list[str]:
    """Every way the catalogue of ``lang`` differs from what English and CLDR ask for."""
    english = load("en")
    messages = load(lang)
    categories = plural_categories(lang)
    counted = counted_keys(english)
    found: list[str] = []
    plain = {k for k in english if "#" not in k}
    for key in sorted(plain - set(messages)):
        found.append(f"missing key {key}")
    for key in messages:
        base, _, form = key.partition("#")
        if base not in english:
            found.append(f"key English lacks: {key}")
            continue
        if form and form not in categories - {"other"}:
            found.append(f"{key}: {form} is not a plural category of {lang}")
        if form and base not in counted:
            found.append(f"{key}: English counts nothing in {base}")
    for base in sorted(counted):
        for form in sorted(categories - {"other"}):
            if f"{base}#{form}" not in messages:
                found.append(f"missing plural form {base}#{form}")
    for key, text in messages.items():
        base, _, form = key.partition("#")
        if base not in english:
            continue
        if not text.strip():
            found.append(f"{key}: empty")
        want = placeholders(english[base])
        have = placeholders(text)
        if not form:
            if have != want:
                found.append(f"{key}: placeholders {sorted(have)}, English {sorted(want)}")
        elif not (want - COUNT_PARAMS <= have <= want):
            # a plural form may leave out the number ("a penalty tile") but nothing else
            found.append(f"{key}: placeholders {sorted(have)}, English {sorted(want)}")
        try:
            text.format(**{p: 1 for p in have})
        except (ValueError, IndexError, KeyError) as err:
            found.append(f"{key}: does not format ({err})")
        if key in english and text == english[key] and text not in SAME_AS_ENGLISH | SAME_IN[lang]:
            found.append(f"{key}: same as English: {text!r}")
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_the_catalogue_has_every_key_placeholder_and_plural_form(lang: str) -> None:
    assert problems(lang) == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_keys_keep_the_order_of_english(lang: str) -> None:
    english = [k for k in load("en")]
    ours = [k for k in load(lang) if k in load("en")]
    assert ours == english


@pytest.mark.parametrize(
    ("lang", "forms"),
    [
        ("nl", {"one", "other"}),
        ("pl", {"one", "few", "many", "other"}),
        ("es", {"one", "many", "other"}),
        ("fr", {"one", "many", "other"}),
    ],
)
def test_cldr_asks_these_forms(lang: str, forms: set[str]) -> None:
    assert plural_categories(lang) == forms


def _render(messages: dict[str, str], lang: str, key: str, count: int) -> str:
    from rummikub.i18n import plural_category

    form = f"{key}#{plural_category(lang, count)}"
    text = messages.get(form, messages[key])
    return text.format(count=count, n=count, name="Ann")


@pytest.mark.parametrize(
    ("lang", "count", "text"),
    [
        ("pl", 1, "1 kostka"),
        ("pl", 2, "2 kostki"),
        ("pl", 5, "5 kostek"),
        ("pl", 12, "12 kostek"),
        ("pl", 22, "22 kostki"),
        ("fr", 0, "0 tuile"),
        ("fr", 1, "1 tuile"),
        ("fr", 2, "2 tuiles"),
        ("fr", 1_000_000, "1000000 de tuiles"),
        ("es", 1, "1 ficha"),
        ("es", 0, "0 fichas"),
        ("es", 1_000_000, "1000000 de fichas"),
        ("nl", 1, "1 steen"),
        ("nl", 0, "0 stenen"),
    ],
)
def test_a_count_of_tiles_takes_the_form_of_its_number(lang: str, count: int, text: str) -> None:
    assert _render(load(lang), lang, "players.tiles", count) == text


if __name__ == "__main__":
    for code in sys.argv[1:] or LANGS:
        report = problems(code)
        print(f"{code}: {len(report)} problems")
        for line in report:
            print("  " + line)
