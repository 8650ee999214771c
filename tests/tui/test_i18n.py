"""The message catalogues: same keys and placeholders in every language, every key used."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rummikub.i18n import LANGUAGES, catalogue, detect_language, translator

SRC = Path(__file__).resolve().parents[2] / "src" / "rummikub"


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_catalogues_have_the_same_keys_and_placeholders() -> None:
    english = catalogue("en")
    for lang in LANGUAGES:
        other = catalogue(lang)
        assert set(other) == set(english), lang
        for key, text in english.items():
            assert placeholders(other[key]) == placeholders(text), (lang, key)
            assert other[key].strip(), (lang, key)


def test_every_key_the_interface_uses_exists() -> None:
    english = catalogue("en")
    used: set[str] = set()
    for path in [*(SRC / "tui").rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"\bt\(\"([a-z_.-]+)\"", text))
        used |= set(re.findall(r"(?:Problem|EditorError)\(\s*\"([a-z_.]+)\"", text))
        used |= set(re.findall(r"\"((?:meld|play|edit)\.[a-z_]+)\"", text))
    assert used, "the pattern found nothing"
    missing = sorted(k for k in used if k not in english)
    assert not missing
    for reason in ("rummikub", "exhausted", "abandoned"):
        assert f"end.reason.{reason}" in english


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({"LANG": "sv_SE.UTF-8"}, "sv"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
        ({"LC_ALL": "sv_FI", "LANG": "en_US"}, "sv"),
        ({"LANGUAGE": "de:sv", "LANG": "en_US"}, "sv"),
        ({"LC_MESSAGES": "POSIX", "LANG": "sv_SE"}, "sv"),
    ],
)
def test_language_from_the_locale(env: dict[str, str], lang: str) -> None:
    assert detect_language(env) == lang


def test_translator_formats_and_falls_back() -> None:
    sv = translator("sv")
    assert sv("problem.opening", value=12, needed=30) == (
        "Öppning: 12 av 30 poäng i nya kombinationer"
    )
    assert translator("en")("log.draw", name="Ann") == "Ann drew a tile"
    with pytest.raises(KeyError):
        sv("no.such.key")
    with pytest.raises(ValueError, match="unknown language"):
        translator("xx")
