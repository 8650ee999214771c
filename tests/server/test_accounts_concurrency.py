"""Login lockouts under concurrency (SQLite and PostgreSQL): tries at once each count, and no
more passwords are checked than the lockout allows, whether the name has an account or not.

Before issue 35 the count was read before and written after the ~100 ms password hash, so ten
wrong tries at once counted as two and twenty addresses had 32 guesses instead of five."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter

import httpx
import pytest

from rummikub.server.accounts import AccountCode, AccountError
from rummikub.server.accounts.lockout import FREE_FAILURES
from rummikub.server.accounts.store import AccountStore

from .helpers import ServerProcess

T0 = 1_800_000_000.0
PASSWORD = "correct horse battery"


def at_once(accounts: AccountStore, name: str, n: int, now: float = T0) -> Counter[str]:
    """``n`` wrong logins of ``name`` on ``n`` threads let go together; each answer's code."""
    start = threading.Barrier(n)
    codes: list[str] = []
    lock = threading.Lock()

    def guess(i: int) -> None:
        start.wait()
        try:
            accounts.log_in(name, f"guess number {i}", now)
            code = "ok"
        except AccountError as exc:
            code = str(exc.code)
        with lock:
            codes.append(code)

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return Counter(codes)


@pytest.mark.parametrize("name", ["Anna", "Nobody"])
def test_wrong_logins_at_once_each_count(accounts: AccountStore, name: str) -> None:
    accounts.sign_up("Anna", PASSWORD, T0)
    n = FREE_FAILURES - 1
    assert at_once(accounts, name, n) == {AccountCode.BAD_LOGIN: n}
    assert accounts.attempts(name) == n
    # so one more wrong password is checked, and the next try is refused as locked
    with pytest.raises(AccountError, check=lambda e: e.code == AccountCode.BAD_LOGIN):
        accounts.log_in(name, "one more guess", T0 + 1)
    with pytest.raises(AccountError, check=lambda e: e.code == AccountCode.LOCKED):
        accounts.log_in(name, "and another", T0 + 2)


@pytest.mark.parametrize("name", ["Anna", "Nobody"])
def test_no_more_passwords_are_checked_than_the_lockout_allows(
    accounts: AccountStore, name: str
) -> None:
    """Twenty tries at once (as from twenty addresses): five passwords are checked (a
    ``bad-login`` answer means the password was tried), the others are refused as locked."""
    accounts.sign_up("Anna", PASSWORD, T0)
    assert at_once(accounts, name, 20) == {
        AccountCode.BAD_LOGIN: FREE_FAILURES,
        AccountCode.LOCKED: 20 - FREE_FAILURES,
    }
    # the lock is over: one more password is checked, then the name locks again (longer)
    assert at_once(accounts, name, 10, T0 + 31) == {
        AccountCode.BAD_LOGIN: 1,
        AccountCode.LOCKED: 9,
    }
    with pytest.raises(AccountError) as locked:
        accounts.log_in(name, PASSWORD, T0 + 32)
    assert locked.value.code == AccountCode.LOCKED
    assert locked.value.params["retry_after"] == 59  # 60 s from T0 + 31


def test_the_owner_gets_in_after_the_lock_and_the_count_starts_again(
    accounts: AccountStore,
) -> None:
    accounts.sign_up("Anna", PASSWORD, T0)
    assert at_once(accounts, "Anna", 8) == {AccountCode.BAD_LOGIN: 5, AccountCode.LOCKED: 3}
    assert accounts.log_in("anna", PASSWORD, T0 + 31)[0].name == "Anna"
    assert accounts.attempts("Anna") == 0
    assert at_once(accounts, "ANNA", 3, T0 + 32) == {AccountCode.BAD_LOGIN: 3}


def test_failures_are_forgotten_after_a_quiet_day(accounts: AccountStore) -> None:
    for i in range(FREE_FAILURES - 1):
        with pytest.raises(AccountError):
            accounts.log_in("Nobody", f"guess {i}", T0)
    with pytest.raises(AccountError, check=lambda e: e.code == AccountCode.BAD_LOGIN):
        accounts.log_in("Nobody", "a day later", T0 + 86400 + 1)
    assert accounts.attempts("Nobody") == 1


async def _logins_at_once(base: str, name: str, n: int, source: str) -> list[httpx.Response]:
    """``n`` wrong logins of ``name`` sent together from the loopback address ``source``."""
    transport = httpx.AsyncHTTPTransport(local_address=source)
    async with httpx.AsyncClient(
        base_url=base, headers={"Origin": base}, timeout=60, transport=transport
    ) as c:
        return await asyncio.gather(
            *[
                c.post("/api/account/login", json={"name": name, "password": f"guess {i}"})
                for i in range(n)
            ]
        )


def test_logins_at_once_over_http_lock_after_five(sqlite_url: str) -> None:
    """Ten wrong logins sent together to a real server: five are checked (401), five refused
    as locked (429), for a known name and an unknown one alike."""
    srv = ServerProcess(sqlite_url).start()
    try:
        with httpx.Client(base_url=srv.base, headers={"Origin": srv.base}, timeout=30) as c:
            r = c.post("/api/account/signup", json={"name": "Ann", "password": PASSWORD})
            assert r.status_code == 200
        # (from two addresses: each may send 10 logins at once before its rate limit)
        for name, source in (("Ann", "127.0.0.2"), ("Nobody", "127.0.0.3")):
            answers = asyncio.run(_logins_at_once(srv.base, name, 10, source))
            got = Counter((r.status_code, r.json()["code"]) for r in answers)
            assert got == {(401, "bad-login"): 5, (429, "locked"): 5}, (name, got)
    finally:
        srv.stop()
