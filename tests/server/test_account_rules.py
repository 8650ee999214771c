"""The pure parts of accounts: usernames, passwords (Argon2id), lockouts, session and CSRF
tokens — each with the attack it stops."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummikub.server.accounts import (
    AccountCode,
    AccountError,
    Attempts,
    after_failure,
    check_name,
    check_password,
    csrf_token,
    csrf_valid,
    hash_password,
    locked_for,
    name_key,
    name_skeleton,
    new_token,
    token_hash,
    verify_password,
)
from rummikub.server.accounts.passwords import FAST_ENV, hasher_parameters

KEY = b"k" * 32


@pytest.mark.parametrize("name", ["Anna", "Åsa-Lena", "player_7", "Abbot", "modesty", "李小龍"])
def test_ordinary_names_are_taken(name: str) -> None:
    assert check_name(f"  {name} ") == name


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ab", AccountCode.NAME_LENGTH),
        ("x" * 21, AccountCode.NAME_LENGTH),
        ("an na", AccountCode.NAME_CHARACTERS),
        ("_anna", AccountCode.NAME_CHARACTERS),
        ("anna<script>", AccountCode.NAME_CHARACTERS),
        ("anna\u200b", AccountCode.NAME_CHARACTERS),  # an invisible character
        # passing for a bot or for the site
        ("greedy", AccountCode.NAME_RESERVED),
        ("Greedy-2", AccountCode.NAME_RESERVED),
        ("EXPERT", AccountCode.NAME_RESERVED),
        ("ｅｘｐｅｒｔ", AccountCode.NAME_RESERVED),  # full-width letters
        ("strategic_anna", AccountCode.NAME_RESERVED),
        ("anna_bot", AccountCode.NAME_RESERVED),
        ("bot-7", AccountCode.NAME_RESERVED),
        ("Admin", AccountCode.NAME_RESERVED),
        ("guest", AccountCode.NAME_RESERVED),
    ],
)
def test_bad_names_are_refused_with_the_reason(name: str, code: AccountCode) -> None:
    with pytest.raises(AccountError) as err:
        check_name(name)
    assert err.value.code == code


def test_names_are_one_name_whatever_the_case_or_the_writing() -> None:
    assert name_key("Ångström") == name_key("ÅNGSTRÖM") == name_key("A\u030angstro\u0308m")


@pytest.mark.parametrize(
    ("name", "like"),
    [
        ("\u0430dmin", "admin"),  # Cyrillic а
        ("b\u043et", "bot"),  # Cyrillic о
        ("exp\u0435rt", "expert"),  # Cyrillic е
        ("\u0410DMIN", "admin"),  # Cyrillic А, capitals
        ("gr\u0435\u0435dy_7", "greedy"),
        ("b0t", "bot"),  # a zero for the o
        ("anna_r\u043ebot", "robot"),
    ],
)
def test_look_alike_letters_do_not_pass_the_reserved_names(name: str, like: str) -> None:
    with pytest.raises(AccountError) as err:
        check_name(name)
    assert err.value.code == AccountCode.NAME_RESERVED and err.value.params["like"] == like


def test_names_that_look_alike_are_one_name() -> None:
    alice = name_skeleton("alice")
    assert name_skeleton("\u0410lice") == name_skeleton("ALICE") == alice  # Cyrillic А
    assert name_skeleton("\u0430lic\u0435") == alice  # Cyrillic а and е
    assert name_skeleton("ａｌｉｃｅ") == alice  # full-width
    assert name_skeleton("anna1") == name_skeleton("annal")  # 1 and l look alike
    assert name_skeleton("alice") != name_skeleton("alina")


LATIN = "aceopxy"
CYRILLIC = "\u0430\u0441\u0435\u043e\u0440\u0445\u0443"  # а с е о р х у


@given(st.text(alphabet=LATIN + "bdfhk", min_size=3, max_size=20), st.data())
def test_any_cyrillic_look_alike_has_the_latin_names_skeleton(
    name: str, data: st.DataObject
) -> None:
    swap = data.draw(st.lists(st.booleans(), min_size=len(name), max_size=len(name)))
    twin = "".join(
        CYRILLIC[LATIN.index(c)] if c in LATIN and flip else c
        for c, flip in zip(name, swap, strict=True)
    )
    assert name_skeleton(twin) == name_skeleton(name)


def test_passwords_are_checked() -> None:
    with pytest.raises(AccountError) as err:
        check_password("short", "anna")
    assert err.value.code == AccountCode.PASSWORD_LENGTH
    with pytest.raises(AccountError) as err:
        check_password("AnnaAnna", "annaanna")
    assert err.value.code == AccountCode.PASSWORD_IS_NAME
    check_password("correct horse battery", "anna")


def test_hashes_are_salted_argon2id_and_verify() -> None:
    one, two = hash_password("correct horse"), hash_password("correct horse")
    assert one != two and one.startswith("$argon2id$")
    assert verify_password(one, "correct horse") == (True, None)
    assert verify_password(one, "Correct horse") == (False, None)
    assert verify_password("not a hash", "correct horse") == (False, None)
    # an unknown name is checked against a dummy hash: never a match
    assert verify_password(None, "not a password of anyone") == (False, None)


def test_passwords_are_hashed_with_rfc_9106_parameters_outside_tests() -> None:
    """The least parameters only where the test-only variable asks for them (this suite sets
    it, tests/conftest.py); a server hashes with argon2-cffi's defaults: 64 MiB, 3 passes,
    4 lanes (RFC 9106's second recommended option)."""
    assert hasher_parameters({}) == {"time_cost": 3, "memory_cost": 65536, "parallelism": 4}
    assert hasher_parameters({FAST_ENV: "0"}) == hasher_parameters({})
    assert hasher_parameters({FAST_ENV: "1"}) == {
        "time_cost": 1,
        "memory_cost": 8,
        "parallelism": 1,
    }
    assert hash_password("correct horse").startswith("$argon2id$v=19$m=8,t=1,p=1$")


def test_an_old_hash_is_upgraded_on_login() -> None:
    from argon2 import PasswordHasher

    weak = PasswordHasher(time_cost=1, memory_cost=8192).hash("correct horse")
    ok, new = verify_password(weak, "correct horse")
    assert ok and new is not None and new.startswith("$argon2id$") and new != weak


def test_guessing_locks_the_account_for_longer_and_longer() -> None:
    state, now = Attempts(), 1000.0
    for _ in range(4):
        state = after_failure(state, now)
        assert locked_for(state, now) == 0
    locks = []  # from the fifth wrong password on (docs/server.md: "after 5 wrong passwords")
    for _ in range(9):
        state = after_failure(state, now)
        locks.append(locked_for(state, now))
    assert locks == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600]
    assert locked_for(state, now + 3600) == 0


@given(st.integers(0, 40), st.floats(0, 1e6))
def test_a_lock_never_exceeds_an_hour(failures: int, now: float) -> None:
    state = Attempts()
    for _ in range(failures):
        state = after_failure(state, now)
    assert 0 <= locked_for(state, now) <= 3600


def test_session_tokens_are_random_and_stored_hashed() -> None:
    a, b = new_token(), new_token()
    assert a != b and len(a) >= 43
    assert token_hash(a) != a and len(token_hash(a)) == 64


def test_csrf_tokens_belong_to_their_session_and_key() -> None:
    session = new_token()
    token = csrf_token(session, KEY)
    assert csrf_valid(session, token, KEY)
    assert not csrf_valid(new_token(), token, KEY)  # another session's token
    assert not csrf_valid(session, token, b"x" * 32)  # another server's key
    assert not csrf_valid(session, None, KEY) and not csrf_valid(None, token, KEY)
    assert not csrf_valid(session, token[:-1] + "0" if token[-1] != "0" else token[:-1] + "1", KEY)
