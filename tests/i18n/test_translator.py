"""The translator: the language, CLDR plural rules (Babel), the second person, and the wording of
every refusal of the engine from its code and params."""

from __future__ import annotations

from typing import Any

import pytest

from rummikub.core import RulesError, preset
from rummikub.i18n import (
    LANGUAGES,
    catalogue,
    detect_language,
    plural_categories,
    plural_category,
    translator,
)

from ..core.refusals import REFUSALS, Refusal


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({"LANG": "sv_SE.UTF-8"}, "sv"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "ja_JP.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
        ({"LC_ALL": "sv_FI", "LANG": "en_US"}, "sv"),
        ({"LANGUAGE": "ja:sv", "LANG": "en_US"}, "sv"),
        ({"LC_MESSAGES": "POSIX", "LANG": "sv_SE"}, "sv"),
    ],
)
def test_language_from_the_locale(env: dict[str, str], lang: str) -> None:
    assert detect_language(env) == lang


def test_translator_formats_and_refuses_unknown_keys_and_languages() -> None:
    sv = translator("sv")
    assert sv("problem.opening", value=12, needed=30) == (
        "Öppning: 12 av 30 poäng i nya kombinationer"
    )
    assert translator("en")("log.draw", name="Ann") == "Ann drew a tile"
    with pytest.raises(KeyError):
        sv("no.such.key")
    with pytest.raises(ValueError, match="unknown language"):
        translator("xx")


def test_the_plural_rules_are_cldrs() -> None:
    for lang in ("en", "sv"):
        assert [plural_category(lang, n) for n in (0, 1, 2, 5, 21)] == [
            "other",
            "one",
            "other",
            "other",
            "other",
        ]
        assert plural_categories(lang) == {"one", "other"}
    # a language added later brings its own categories, from Babel's CLDR data
    assert [plural_category("pl", n) for n in (1, 2, 5, 22)] == ["one", "few", "many", "few"]
    assert plural_categories("pl") >= {"one", "few", "many", "other"}


@pytest.mark.parametrize(
    ("lang", "key", "params", "forms"),
    [
        ("en", "players.tiles", {}, ("0 tiles", "1 tile", "2 tiles")),
        ("sv", "players.tiles", {}, ("0 brickor", "1 bricka", "2 brickor")),
        (
            "en",
            "game.play_ok",
            {},
            (
                "Ready: end your turn to play 0 tiles.",
                "Ready: end your turn to play 1 tile.",
                "Ready: end your turn to play 2 tiles.",
            ),
        ),
        (
            "sv",
            "xpress.dice_info",
            {"v": 9},
            ("0 tärningar · värde 9", "1 tärning · värde 9", "2 tärningar · värde 9"),
        ),
        (
            "en",
            "log.timeout_penalty",
            {"name": "Bo"},
            (
                "Bo ran out of time and drew 0 penalty tiles",
                "Bo ran out of time and drew a penalty tile",
                "Bo ran out of time and drew 2 penalty tiles",
            ),
        ),
        (
            "sv",
            "error.too-many-copies",
            {"tile": "J", "limit": 0},
            (
                "J förekommer 0 gånger, men spelet har bara 0.",
                "J förekommer en gång, men spelet har bara 0.",
                "J förekommer 2 gånger, men spelet har bara 0.",
            ),
        ),
    ],
)
def test_plural_forms_for_0_1_2(
    lang: str, key: str, params: dict[str, object], forms: tuple[str, str, str]
) -> None:
    t = translator(lang)
    count = "n" if "{n}" in catalogue(lang)[key] else "count"
    values: list[dict[str, Any]] = [{**params, count: n} for n in (0, 1, 2)]
    assert tuple(t(key, **v) for v in values) == forms


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
    assert sv("log.round", round=2, name="Du", you=True) == "Omgång 2 börjar; du börjar."
    # a key without a second-person form uses the name
    assert en("game.thinking", name="Bot 2", you=True) == "Bot 2 is thinking…"


@pytest.mark.parametrize("refusal", REFUSALS, ids=lambda r: r.name)
def test_every_refusal_is_worded_in_every_language(refusal: Refusal) -> None:
    err = refusal.error()
    worded = {lang: translator(lang).error(err) for lang in LANGUAGES}
    for lang, text in worded.items():
        assert text != translator(lang)("error.error"), (lang, refusal.name)
        assert "{" not in text and "meld-" not in text and "joker-" not in text, text
        for key, value in err.params.items():
            if isinstance(value, str) and key not in ("why", "action"):
                assert value in text, (lang, value, text)
    assert worded["sv"] != worded["en"]


def test_an_invalid_meld_is_worded_with_its_reason() -> None:
    params = {"meld": "R4", "why": "meld-too-short", "count": 1, "number": 3}
    assert translator("en").coded("invalid-meld", params) == (
        "R4 is not a valid set: a set needs at least 3 tiles (this has 1)."
    )
    assert translator("sv").coded("invalid-meld", params) == (
        "R4 är ingen giltig kombination: en kombination behöver minst 3 brickor (den här har 1)."
    )


def test_rules_that_refuse_the_players_say_so() -> None:
    with pytest.raises(RulesError) as err:
        preset("standard").check_players(5)
    assert translator("sv").error(err.value) == "De här reglerna gäller 2–4 spelare, inte 5."
    assert translator("en").error(err.value) == "These rules are for 2–4 players, not 5."


def test_an_unknown_code_or_missing_params_get_the_generic_message() -> None:
    en = translator("en")
    assert en.coded("from-a-newer-server") == "Something went wrong."
    assert en.coded("not-on-rack") == "Something went wrong."  # {tiles} missing
    assert en.coded("not-on-rack", {"tiles": "R5"}) == "Not on your rack: R5."
