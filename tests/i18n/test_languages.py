"""The languages of the interfaces: one list (``rummikub.i18n.SHIPPED``) read by Python, the
server's page and the web client; the choice of a language (``--lang``, the system locale, the
browser's ``Accept-Language``); every shipped catalogue complete by ``rummikub i18n check``;
the plural forms CLDR asks for; numbers in the locale's way; the terminal games' fallback for
a language written right to left."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rummikub.i18n import (
    LANG_ENV,
    LANGUAGES,
    LISTED,
    SHIPPED,
    catalogue,
    detect_language,
    direction,
    format_decimal,
    format_number,
    format_percent,
    language_names,
    negotiate,
    plural_categories,
    plural_category,
    terminal_language,
    translator,
)
from rummikub.i18n.check import check, counted_keys

SRC = Path(__file__).resolve().parents[2] / "src" / "rummikub"
STATIC = SRC / "server" / "web" / "static"


def test_a_language_is_shipped_when_it_is_listed_and_has_its_catalogue() -> None:
    files = {p.stem for p in (SRC / "i18n").glob("*.json")}
    listed = [x.code for x in LISTED]
    assert len(set(listed)) == len(listed), "each language listed once"
    # every listed language has its file, every file is listed
    assert sorted(listed) == sorted(files)
    assert tuple(x.code for x in SHIPPED) == LANGUAGES
    assert set(LANGUAGES) == set(listed) & files


def test_the_languages_are_listed_once_with_their_own_names() -> None:
    assert LANGUAGES == ("en", "sv", "he", "de", "nl", "pl", "es", "fr")
    assert language_names() == {
        "en": "English",
        "sv": "Svenska",
        "he": "עברית",
        "de": "Deutsch",
        "nl": "Nederlands",
        "pl": "Polski",
        "es": "Español",
        "fr": "Français",
    }
    assert [x.code for x in SHIPPED if x.rtl] == ["he"]
    assert direction("he") == "rtl" and direction("de") == "ltr" and direction("xx") == "ltr"


def test_the_web_client_does_not_list_the_languages_again() -> None:
    """The client reads the server's list (``<html data-languages>``): no list of codes in its
    scripts, no <option> of a language in its page."""
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    assert "<option" not in page
    assert 'id="lang-select"' in page
    for path in (STATIC / "js").glob("*.js"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"""\[\s*["']en["']\s*,\s*["']sv["']""", text), path.name
        assert "Svenska" not in text and "עברית" not in text, path.name


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("he-IL,he;q=0.9,en-US;q=0.8,en;q=0.7", "he"),
        ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr"),
        ("de;q=0.1, sv", "sv"),  # the highest q wins, not the first named
        ("en;q=0.5, de;q=0.5", "en"),  # a tie: the header's order
        ("pt-BR, ja", "en"),  # nothing shipped: English
        ("de;q=0, sv;q=0.2", "sv"),  # q=0: not wanted
        ("nl-BE;q=abc, pl", "pl"),  # a q that is no number counts as 0
        ("*", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_the_browsers_languages_choose_the_page_language(header: str | None, lang: str) -> None:
    assert negotiate(header) == lang


def test_the_command_lines_language_comes_before_the_system_locale() -> None:
    assert detect_language({"LANG": "de_DE.UTF-8"}) == "de"
    assert detect_language({"LANG": "he_IL.UTF-8"}) == "he"
    assert detect_language({LANG_ENV: "pl", "LANG": "de_DE.UTF-8"}) == "pl"
    assert detect_language({LANG_ENV: "xx", "LANG": "de_DE.UTF-8"}) == "de"
    assert detect_language({"LANGUAGE": "nl:de", "LANG": "sv_SE.UTF-8"}) == "nl"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_shipped_catalogue_passes_the_check(lang: str) -> None:
    """``rummikub i18n check``'s own check: every key, the same placeholders, the plural forms
    of the language, no text left in English."""
    assert check(lang) == []


def test_the_check_finds_each_kind_of_problem() -> None:
    german = dict(catalogue("de"))
    del german["game.table"]  # missing
    german["game.tabel"] = "Tisch"  # extra
    german["game.waiting_for"] = "Warten auf {nom}…"  # a placeholder renamed
    del german["players.tiles#one"]  # a plural form missing
    german["players.tiles#few"] = "{count} Steine"  # a form German does not have
    german["game.your_turn"] = catalogue("en")["game.your_turn"]  # left in English
    german["game.pool"] = " "  # empty
    german["piece.joker"] = "Joker"  # the same word in both languages: no finding
    kinds = {(f.kind, f.key) for f in check("de", german)}
    assert kinds == {
        ("missing", "game.table"),
        ("extra", "game.tabel"),
        ("placeholders", "game.waiting_for"),
        ("plural-missing", "players.tiles#one"),
        ("plural-extra", "players.tiles#few"),
        ("english", "game.your_turn"),
        ("empty", "game.pool"),
    }


def test_the_check_asks_polish_for_its_three_counted_forms() -> None:
    """A catalogue with English's forms only lacks Polish's few and many; French's many."""
    english = catalogue("en")
    missing = {f.key for f in check("pl", english) if f.kind == "plural-missing"}
    assert {"players.tiles#few", "players.tiles#many"} <= missing
    assert "players.tiles#one" not in missing
    missing_fr = {f.key for f in check("fr", english) if f.kind == "plural-missing"}
    assert "players.tiles#many" in missing_fr and "players.tiles#few" not in missing_fr


def test_cldr_plural_rules_of_the_languages() -> None:
    assert plural_categories("pl") == {"one", "few", "many", "other"}
    assert [plural_category("pl", n) for n in (1, 2, 5, 12, 22, 25)] == [
        "one",
        "few",
        "many",
        "many",
        "few",
        "many",
    ]
    assert plural_category("fr", 0) == "one" and plural_category("fr", 1) == "one"
    assert plural_category("en", 0) == "other"
    assert plural_category("he", 2) == "two" and plural_category("he", 3) == "other"
    assert plural_categories("de") == {"one", "other"}


# Messages with a {count} or {n} that are no count of things: a name ("Seat {n}"), a position
# ("Round {n}/{of}"), a number after a colon, or a sentence written so that no word agrees with
# the number ("… and {count} more"). English gives them no plural forms, so no language does.
# Any other counted message must have plural forms.
NOT_COUNTED = {
    "cli.at_least",  # "--games must be at least {count}": a bound, written without a noun
    "cli.positions_failed",  # "{count} of {of} positions": the noun goes with {of}
    "puzzle.tui.streak",  # "streak {count}": a score
    "puzzle.tui.streak_over",  # "{count} solved (best {best})": scores, no noun
    "game.your_turn_open",
    "log.timeout",
    "log.invalid",
    "replay.deal",
    "replay.counter",
    "setup.seat",
    "setup.bot_name",
    "setup.need_name",
    "setup.player_name",
    "error.meld-too-short",
    "error.meld-group-too-big",
    "error.meld-run-too-long",
    "lobby.seat_n",
    "lobby.more",
    "xpress.round",
    "xpress.idle_title",
    "xpress.place_end",
    "xpress.log_throw",
    "xpress.round_blocked",
    "xpress.replay_setup",
    "xpress.replay_counter",
    "cli.more_violations",
    "error.player-count",
    "piece.tile",
    "game.set_label",
    "tutorial.title",
    "account.claimed",
    "i18n.problems",
}


def test_every_counted_message_has_exactly_the_forms_cldr_asks_for() -> None:
    english = catalogue("en")
    counted = counted_keys()
    for key in NOT_COUNTED:
        assert key in english and f"{key}#one" not in english, key
    for key, text in english.items():
        if "#" not in key and re.search(r"\{(count|n)\}", text):
            assert (key in counted) != (key in NOT_COUNTED), key
    for lang in LANGUAGES:
        messages = catalogue(lang)
        wanted = plural_categories(lang) - {"other"}
        for base in counted:
            forms = {k.partition("#")[2] for k in messages if k.partition("#")[0] == base} - {""}
            assert forms == wanted, (lang, base)


def test_numbers_are_written_the_languages_way() -> None:
    assert format_number("en", 12345) == "12,345"
    assert format_number("de", 12345) == "12.345"
    assert format_number("sv", 12345) == "12\xa0345"
    assert format_decimal("de", 1.5) == "1,5" and format_decimal("en", 1.5) == "1.5"
    assert format_percent("en", 0.42) == "42%"
    assert format_percent("de", 0.42) == "42\xa0%"


def test_a_terminal_game_in_hebrew_says_it_shows_english() -> None:
    lang, notice = terminal_language("he")
    assert lang == "en"
    assert notice is not None
    assert notice.splitlines() == [
        translator("he")("terminal.no_rtl"),
        translator("en")("terminal.no_rtl"),
    ]
    assert "English" in notice and "באנגלית" in notice
    assert terminal_language("de") == ("de", None)
    assert terminal_language("en") == ("en", None)
