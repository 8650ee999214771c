"""Guest names and chat (issue 35): something visible, and nothing that reorders the text
around it (``server/text.py``), checked where a room is created, joined and chatted in."""

from __future__ import annotations

import pytest

from rummikub.server.protocol.refusals import ClientError
from rummikub.server.protocol.text import check_text

from .inproc import Server

INVISIBLE = [
    "\u200b",  # zero-width space
    "\ufeff",  # byte order mark
    "\u2800",  # Braille blank
    "\u00a0\u200b",  # no-break space
    "\u3164",  # Hangul filler
    "\u2060\u2061\u180e",  # word joiner, function application, Mongolian vowel separator
    "\u3000\u2003",  # ideographic space, em space
    "\u0301\u0308",  # combining marks on nothing
    "\U000e0041\U000e0042",  # tag characters
    "\u00ad",  # soft hyphen
]
BIDI = ["Ann\u202e", "\u202dBo", "a\u2066b\u2069", "x\u200ey", "x\u200fy", "\u061cx", "\u202ax"]
VISIBLE = [
    "Ann",
    "Zoë",
    "Zoe\u0308",
    "李小龙",
    "محمد",
    "אבי",
    "👍",
    "👨\u200d👩\u200d👧",
    "A B",
    "_",
]


@pytest.mark.parametrize("text", INVISIBLE)
def test_text_with_nothing_visible_is_refused(text: str) -> None:
    with pytest.raises(ClientError) as info:
        check_text(text, "name")
    assert info.value.code == "invisible-text" and info.value.params == {"field": "name"}


@pytest.mark.parametrize("text", [*BIDI, "ok\ud800"])
def test_bidirectional_controls_and_lone_surrogates_are_refused(text: str) -> None:
    with pytest.raises(ClientError) as info:
        check_text(text, "text")
    bad = next(c for c in text if not (c.isalnum() or c in "ok"))
    assert info.value.code == "bad-character"
    assert info.value.params == {"field": "text", "char": f"U+{ord(bad):04X}"}


@pytest.mark.parametrize("text", VISIBLE)
def test_names_in_any_script_are_taken(text: str) -> None:
    assert check_text(text, "name") == text


@pytest.mark.asyncio
async def test_names_and_chat_are_checked_by_the_server(sqlite_app: Server) -> None:
    ann, bo = await sqlite_app.connect(), await sqlite_app.connect()
    seats = [{"kind": "human"}, {"kind": "human"}]
    for name, code in [("\u200b\u200b", "invisible-text"), ("\u2800", "invisible-text"),
                       ("\ufeff", "invisible-text"), ("Ann\u202e", "bad-character")]:  # fmt: skip
        reply = await ann.request(type="create", name=name, seats=seats)
        assert reply["type"] == "error" and reply["code"] == code, (name, reply)
        assert reply["params"]["field"] == "name"
    room = (await ann.request(type="create", name="Ann", seats=seats))["room"]
    for name in ("\u00a0\u200b", "\u202eoB"):
        reply = await bo.request(type="join", room=room, name=name)
        assert reply["type"] == "error" and reply["code"] in ("invisible-text", "bad-character")
    assert (await bo.request(type="join", room=room, name="Bö 李"))["type"] == "joined"
    for text, code in [("\u200b", "invisible-text"), ("\u3164 \u3164", "invisible-text"),
                       ("hi \u202e", "bad-character")]:  # fmt: skip
        reply = await ann.request(type="chat", text=text)
        assert reply["type"] == "error" and reply["code"] == code, (text, reply)
        assert reply["params"]["field"] == "text"
    assert (await ann.request(type="chat", text="hej 👍"))["type"] == "ok"
    said = await bo.wait(lambda m: m["type"] == "chat")
    assert said["text"] == "hej 👍" and said["name"] == "Ann"
    assert not any(m["type"] == "chat" and m["text"] != "hej 👍" for m in bo.seen)
