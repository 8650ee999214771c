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


@pytest.mark.parametrize(
    ("lang", "one", "many"),
    [("en", "1 tile", "2 tiles"), ("sv", "1 bricka", "2 brickor")],
)
def test_plural_forms(lang: str, one: str, many: str) -> None:
    t = translator(lang)
    assert t("players.tiles", count=1) == one
    assert t("players.tiles", count=2) == many
    assert t("players.tiles", count=0) == many.replace("2", "0")


def test_the_player_at_the_keyboard_is_spoken_to() -> None:
    en, sv = translator("en"), translator("sv")
    assert en("log.draw", name="You", you=True) == "You drew a tile"
    assert en("log.round_over", name="You", you=True) == "The round is over; you win it."
    assert en("end.title", round=1, name="You", reason="Rummikub!", you=True) == (
        "Round 1: you win (Rummikub!)"
    )
    assert en("log.timeout_penalty", name="You", count=1, you=True) == (
        "You ran out of time and drew a penalty tile"
    )
    assert (
        en("log.timeout_penalty", name="Bo", count=3)
        == "Bo ran out of time and drew 3 penalty tiles"
    )
    assert sv("log.round", round=2, name="Du", you=True) == "Omgång 2 börjar; du börjar."
    # a key without a second-person form uses the name
    assert en("game.thinking", name="Bot 2", you=True) == "Bot 2 is thinking…"


def test_no_catalogue_hedges_a_plural() -> None:
    for lang in LANGUAGES:
        for key, text in catalogue(lang).items():
            assert "(s)" not in text and "/straff" not in text and "/jok" not in text, key
            assert not re.search(r"\b1 (tiles|dice|points|brickor)\b", text), key


def test_variants_belong_to_a_message() -> None:
    english = catalogue("en")
    for key in english:
        base = key.split("#")[0].split("@")[0]
        assert base in english, key
        form = key.partition("#")[2]
        assert form in ("", "one", "other"), key
