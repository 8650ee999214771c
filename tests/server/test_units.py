"""Unit tests of the server's pure parts: message schema, rate limiter, views (the catalogue the
web client uses is tested in tests/i18n)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.core import Rules
from rummikub.server.protocol.messages import (
    MAX_MESSAGE_BYTES,
    ProtocolError,
    SettingsSpec,
    client_limits,
    parse_message,
    settings_ranges,
)
from rummikub.server.rooms.room import Room, Seat, Settings, shown_table
from rummikub.server.runtime.ratelimit import TokenBucket

STATIC = Path(__file__).resolve().parents[2] / "src" / "rummikub" / "server" / "web" / "static"
CATALOGUES = Path(__file__).resolve().parents[2] / "src" / "rummikub" / "i18n"


def test_every_key_used_by_the_client_is_in_the_catalogue() -> None:
    en = json.loads((CATALOGUES / "en.json").read_text(encoding="utf-8"))
    used: set[str] = set()
    for path in [*(STATIC / "js").glob("*.js"), STATIC / "index.html"]:
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\bt\(\s*["']([a-z_]+\.[a-z_.0-9-]+)["']""", text))
        used |= set(
            re.findall(
                r"""i18n(?:-placeholder|Placeholder)?["']?\s*[:=]\s*["']([a-z_]+\.[a-z_.]+)["']""",
                text,
            )
        )
    missing = {k for k in used if k not in en}
    assert not missing


def test_the_limits_the_client_is_told_are_the_ones_enforced() -> None:
    """/api/info tells the web client the longest name, chat and code and each numeric room
    setting's default and range: exactly what the message schema accepts."""
    limits = client_limits()
    room = "ABCDEF"

    def accepted(**msg: object) -> bool:
        try:
            parse_message(json.dumps(msg))
        except ProtocolError:
            return False
        return True

    assert accepted(type="chat", text="x" * limits["chat"])
    assert not accepted(type="chat", text="x" * (limits["chat"] + 1))
    assert accepted(type="join", room=room, name="n" * limits["name"])
    assert not accepted(type="join", room=room, name="n" * (limits["name"] + 1))
    assert accepted(type="watch", room="C" * limits["code"])
    assert not accepted(type="watch", room="C" * (limits["code"] + 1))
    ranges = settings_ranges()
    assert set(ranges) == {"grace_seconds", "bot_delay", "round_pause"}
    seats = [{"kind": "human"}, {"kind": "human"}]
    for name, r in ranges.items():
        assert r["default"] == getattr(SettingsSpec(), name)
        for value, ok in ((r["min"], True), (r["max"], True), (r["max"] + 1, False)):
            made = accepted(type="create", name="A", seats=seats, settings={name: value})
            assert made == ok, (name, value)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            ["type", "id", "table", "text", "room", "name", "seats", "token", "rules", "tiles", "x"]
        ),
        json_values,
        max_size=5,
    )
)
def test_any_json_gives_a_message_or_a_protocol_error(data: dict[str, object]) -> None:
    text = json.dumps(data)
    try:
        msg = parse_message(text)
    except ProtocolError as exc:
        assert exc.code in ("bad-message", "bad-json", "too-large") and exc.message
    else:
        assert msg.type == data["type"]


def test_size_limit() -> None:
    with pytest.raises(ProtocolError) as err:
        parse_message(json.dumps({"type": "chat", "text": "x" * MAX_MESSAGE_BYTES}))
    assert err.value.code == "too-large"


@given(st.integers(min_value=1, max_value=100))
def test_token_bucket_allows_the_burst_then_refuses(burst: int) -> None:
    bucket = TokenBucket(rate=0.001, burst=burst)
    assert sum(bucket.take() for _ in range(burst + 10)) == burst


def test_public_view_has_no_rack_and_seat_view_only_its_own() -> None:
    room = Room(
        "ABCDEF",
        Rules(),
        Settings(),
        7,
        [Seat(0, "human", name="Ann", token_hash="x"), Seat(1, "bot", "beginner")],
        0.0,
    )
    room.start()
    assert room.match is not None
    public = room.public_view(0.0)
    assert "rack" not in public["game"]
    mine = room.view(public, 0)
    assert mine["game"]["rack"] == room.match.observation(0).rack.to_json()
    assert room.view(public, None)["game"].get("rack") is None
    assert "rack" not in public["game"]  # the shared part was not changed


def test_shown_table_names_every_joker() -> None:
    from rummikub.core import Table

    table = Table.parse("R5 J R7 | K9 B9 J")
    assert shown_table(table, Rules()) == [["R5", "J=R6", "R7"], ["K9", "B9", "J=9"]]
