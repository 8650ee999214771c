"""The one message catalogue per language (``rummikub/i18n/<lang>.json``): the same keys and
placeholders in every language, CLDR plural forms wherever a message counts something, a
message for every error code, and every key an interface uses."""

from __future__ import annotations

import re
from pathlib import Path

from rummikub.core import Code
from rummikub.i18n import LANGUAGES, catalogue, plural_categories
from rummikub.server.protocol.codes import ServerCode

SRC = Path(__file__).resolve().parents[2] / "src" / "rummikub"
STATIC = SRC / "server" / "web" / "static"


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def base_key(key: str) -> str:
    """``game.rack_of@you#one`` -> ``game.rack_of@you``; the plain key is the ``other`` form."""
    return key.partition("#")[0]


def test_every_language_has_every_key_with_the_same_placeholders() -> None:
    english = catalogue("en")
    plain = {k for k in english if "#" not in k}  # the plural forms differ by language
    for lang in LANGUAGES:
        other = catalogue(lang)
        ours = {k for k in other if "#" not in k}
        assert sorted(plain - ours) == [], f"{lang} lacks these keys"
        assert sorted(ours - plain) == [], f"{lang} has keys English lacks"
        for key, text in english.items():
            if "#" in key:
                continue
            assert placeholders(other[key]) == placeholders(text), (lang, key)
            assert other[key].strip(), (lang, key)


def test_a_plural_form_uses_no_placeholder_its_message_lacks() -> None:
    for lang in LANGUAGES:
        messages = catalogue(lang)
        for key, text in messages.items():
            assert base_key(key) in messages, (lang, key)
            assert placeholders(text) <= placeholders(messages[base_key(key)]), (lang, key)
            you = key.partition("@")
            assert you[1] == "" or you[2].partition("#")[0] == "you", (lang, key)


def test_plural_forms_are_the_cldr_categories_of_each_language() -> None:
    counted = {base_key(k) for lang in LANGUAGES for k in catalogue(lang) if "#" in k}
    assert "players.tiles" in counted and "game.play_ok" in counted
    for lang in LANGUAGES:
        messages = catalogue(lang)
        categories = plural_categories(lang)
        for key in messages:
            if "#" in key:
                assert key.partition("#")[2] in categories - {"other"}, (lang, key)
        for base in counted:
            for category in categories - {"other"}:
                assert f"{base}#{category}" in messages, (lang, base, category)


# A number written next to what it counts ("{count} tiles", "{n} tärningar"): such a message
# needs its plural forms. Units (s, min) and numbers that are not counts ("Seat {n}") do not.
COUNTED = re.compile(
    r"\{(count|n)\}\s+(tiles|dice|points|melds|sets|penalty|table|brickor|tärningar|poäng|"
    r"straffbrickor|kombinationer|serier)\b"
)


def test_no_message_counts_without_plural_forms() -> None:
    for lang in LANGUAGES:
        messages = catalogue(lang)
        for key, text in messages.items():
            if "#" in key or not COUNTED.search(text):
                continue
            assert f"{key}#one" in messages, (lang, key, text)


def test_no_message_hedges_a_plural() -> None:
    for lang in LANGUAGES:
        for key, text in catalogue(lang).items():
            assert "(s)" not in text and "/brick" not in text and "/straff" not in text, key
            assert "/jok" not in text and "/tärning" not in text, key
            assert not re.search(r"\b1 (tiles|dice|points|brickor|tärningar)\b", text), key


def test_every_error_code_has_a_message_in_every_language() -> None:
    engine = {c.value for c in Code}
    server = {c.value for c in ServerCode}
    assert not engine & server, "a code means one thing"
    for lang in LANGUAGES:
        messages = catalogue(lang)
        missing = sorted(c for c in engine | server if f"error.{c}" not in messages)
        assert missing == [], lang


def _used(pattern: str, paths: list[Path]) -> set[str]:
    found: set[str] = set()
    for path in paths:
        found |= set(re.findall(pattern, path.read_text(encoding="utf-8")))
    return found


def test_every_key_the_web_client_uses_exists() -> None:
    files = [*(STATIC / "js").glob("*.js"), STATIC / "index.html"]
    used = _used(r"""\bt\(\s*["']([a-z_]+\.[a-z_.0-9-]+)["']""", files)
    used |= _used(
        r"""i18n(?:-placeholder|Placeholder|-title|Title)?["']?\s*[:=]\s*["']([a-z_]+\.[a-z_.]+)["']""",
        files,
    )
    assert len(used) > 50, "the patterns found too little"
    assert sorted(k for k in used if k not in catalogue("en")) == []


def test_every_key_the_terminal_games_and_the_command_line_use_exists() -> None:
    files = [
        *(SRC / "tui").rglob("*.py"),  # the tile game's and Xpress's terminal apps
        *(SRC / "cli").rglob("*.py"),
    ]
    used = _used(r"""\bt\(\s*\"([a-z_]+\.[a-z_.0-9-]+)\"""", files)
    used |= _used(r"(?:Problem|EditorError)\(\s*\"([a-z_.]+)\"", files)
    used |= _used(r"\"((?:play|edit|xpress\.tui)\.[a-z_.]+)\"", files)
    assert {"game.rejected", "xpress.tui.round_won", "solve.play", "text.round_start"} <= used
    assert sorted(k for k in used if k not in catalogue("en")) == []
    english = catalogue("en")
    for reason in ("rummikub", "exhausted", "abandoned"):
        assert f"end.reason.{reason}" in english
    for reason in ("out", "blocked", "abandoned"):
        assert f"xpress.tui.reason_{reason}" in english
    # the replay text names every way a round of either game ends, and every kind of turn
    for how in ("rummikub", "exhausted", "abandoned", "out", "blocked"):
        assert f"text.how.{how}" in english
    for turn in ("timeout", "invalid"):
        assert f"text.{turn}" in english
    from rummikub.analysis import VERDICTS  # the replay viewer words every verdict

    for name in VERDICTS:
        assert f"verdict.{name}" in english


def test_the_catalogue_is_one_file_per_language() -> None:
    assert not (STATIC / "i18n").exists(), "the web client reads the package's catalogue"
    assert not (SRC / "xpress" / "messages.py").exists()
    assert sorted(p.name for p in (SRC / "i18n").glob("*.json")) == [
        f"{lang}.json" for lang in sorted(LANGUAGES)
    ]


def test_swedish_has_one_word_for_the_rack() -> None:
    """Swedish calls the rack *ställ* in every message whose English names it (not *hylla*, nor
    *bricka*, which is a tile): docs/i18n-vocabulary.md."""
    english, swedish = catalogue("en"), catalogue("sv")
    racks = [k for k, v in english.items() if re.search(r"\brack", v, re.IGNORECASE)]
    assert len(racks) > 30
    assert [k for k in racks if not re.search(r"ställ", swedish[k], re.IGNORECASE)] == []
    assert [k for k, v in swedish.items() if re.search(r"\bhyll", v, re.IGNORECASE)] == []


def test_swedish_has_one_word_for_the_pool() -> None:
    """The face-down tiles are *lagret* (the Swedish rule text's word) in every Swedish message
    whose English names the pool: not *potten*, nor *högen*."""
    english, swedish = catalogue("en"), catalogue("sv")
    pools = [k for k, v in english.items() if re.search(r"\bpool\b", v, re.IGNORECASE)]
    assert len(pools) > 5
    assert [k for k in pools if not re.search(r"\blag(ret|er)\b", swedish[k], re.I)] == []
    assert [k for k, v in swedish.items() if re.search(r"\bpott|\bhögen\b", v, re.I)] == []
