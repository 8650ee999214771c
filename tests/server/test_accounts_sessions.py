"""Sessions that end reach the open WebSockets (issue 35): logging out, logging out
everywhere, a new password, deleting the account and the operator's reset each take the
account from the connections that session logged in (they are told ``session-ended`` and
closed with code 4001, so the page connects again as a guest), and only from those. A deleted
account's seats in a running game lose its name and its ``account`` mark; the CSRF key is the
server's own secret and the answers carrying a session or CSRF token are never cached."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from rummikub.server.accounts import token_hash
from rummikub.server.accounts.live import SWEEP_SECONDS, Ended
from rummikub.server.accounts.store import DELETED_NAME, AccountStore
from rummikub.server.manager import RoomManager
from rummikub.server.runtime.connection import SESSION_ENDED
from rummikub.server.storage.store import Store

from .helpers import Client, ServerProcess

PASSWORD = "correct horse battery"


class Browser:
    """A browser of the server: its cookies, the CSRF token of its session, its WebSocket."""

    def __init__(self, sqlite_server: ServerProcess) -> None:
        self.sqlite_server = sqlite_server
        self.http = httpx.Client(
            base_url=sqlite_server.base, headers={"Origin": sqlite_server.base}, timeout=30
        )
        self.csrf: str | None = None
        self.sockets: list[Client] = []

    def post(self, path: str, **body: Any) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf} if self.csrf else {}
        r = self.http.post(path, json=body, headers=headers)
        if r.status_code == 200 and "csrf" in r.json():
            self.csrf = r.json()["csrf"]
        return r

    def enter(self, how: str, name: str = "Ann", password: str = PASSWORD) -> None:
        r = self.post(f"/api/account/{how}", name=name, password=password)
        assert r.status_code == 200, r.text

    @property
    def session(self) -> str:
        token = self.http.cookies.get("rummikub_session")
        assert token
        return str(token)

    def socket(self) -> Client:
        c = Client(self.sqlite_server.ws_url, session=self.session)
        self.sockets.append(c)
        return c

    def close(self) -> None:
        for c in self.sockets:
            c.close()
        self.http.close()


@pytest.fixture
def browsers(sqlite_server: ServerProcess) -> Iterator[list[Browser]]:
    made = [Browser(sqlite_server) for _ in range(3)]
    yield made
    for b in made:
        b.close()


def logged_in(c: Client) -> bool:
    """Whether the connection plays under an account: it may join the rated queue."""
    reply = c.request(type="queue", players=[2], bots=False)
    if reply["type"] == "queued":
        assert c.request(type="unqueue")["type"] == "unqueued"
        return True
    assert reply["code"] == "account-needed"
    return False


def ended(c: Client, reason: str) -> None:
    """``c`` is told its session ended, and closed with :data:`SESSION_ENDED`."""
    msg = c.wait(lambda m: m["type"] == "session-ended", timeout=SWEEP_SECONDS * 3)
    assert msg["reason"] == reason
    with pytest.raises(ConnectionClosed):
        while True:  # nothing is sent after it; the server closes the socket
            c.recv(timeout=10)
    assert c.ws.close_code == SESSION_ENDED


def test_logging_out_ends_this_sessions_sockets_only(browsers: list[Browser]) -> None:
    here, there, _ = browsers
    here.enter("signup")
    there.enter("login")
    mine, theirs = here.socket(), there.socket()
    assert logged_in(mine) and logged_in(theirs)
    assert here.post("/api/account/logout").status_code == 200
    ended(mine, "logout")
    assert logged_in(theirs)  # another browser's session goes on


def test_logging_out_everywhere_ends_every_socket(browsers: list[Browser]) -> None:
    here, there, _ = browsers
    here.enter("signup")
    there.enter("login")
    sockets = [here.socket(), here.socket(), there.socket()]
    assert all(logged_in(c) for c in sockets)
    assert there.post("/api/account/logout-all").status_code == 200
    for c in sockets:
        ended(c, "logout-all")


def test_a_new_password_ends_the_other_sessions_sockets(browsers: list[Browser]) -> None:
    here, there, _ = browsers
    here.enter("signup")
    there.enter("login")
    mine, theirs = here.socket(), there.socket()
    r = here.post("/api/account/password", old=PASSWORD, new="a new password")
    assert r.status_code == 200
    ended(theirs, "password")
    assert logged_in(mine)  # this browser's own socket stays logged in


def test_a_deleted_accounts_socket_can_no_longer_play_rated(browsers: list[Browser]) -> None:
    here, _, _ = browsers
    here.enter("signup")
    sock = here.socket()
    made = sock.request(type="create", name="x", rules="standard", settings={"rated": True},
                        seats=[{"kind": "human"}, {"kind": "human"}])  # fmt: skip
    assert made["type"] == "joined"
    assert here.post("/api/account/delete", password=PASSWORD).status_code == 200
    ended(sock, "deleted")
    # the page connects again: as a guest, who may not create a rated room nor queue
    again = Client(here.sqlite_server.ws_url)
    here.sockets.append(again)
    refused = again.request(type="create", name="x", rules="standard", settings={"rated": True},
                            seats=[{"kind": "human"}, {"kind": "human"}])  # fmt: skip
    assert refused["code"] == "account-needed"
    assert not logged_in(again)


def test_the_operators_reset_reaches_the_sockets(
    sqlite_server: ServerProcess, browsers: list[Browser]
) -> None:
    """The reset runs in another process: the server finds the sessions gone in its sweep."""
    here, _, _ = browsers
    here.enter("signup")
    sock = here.socket()
    assert logged_in(sock)
    done = subprocess.run(
        [sys.executable, "-m", "rummikub.cli.main", "accounts", "reset-password", "ann",
         "--db", sqlite_server.db_url, "--password-stdin"],
        input="the operator's one\n", capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    ended(sock, "ended")


def test_answers_with_a_session_or_csrf_token_are_not_cached(browsers: list[Browser]) -> None:
    here, _, _ = browsers
    r = here.post("/api/account/signup", name="Ann", password=PASSWORD)
    assert r.headers["cache-control"] == "no-store"
    assert here.http.get("/api/account").headers["cache-control"] == "no-store"
    assert (
        here.post("/api/account/login", name="Ann", password=PASSWORD).headers["cache-control"]
        == "no-store"
    )
    r = here.post("/api/account/password", old=PASSWORD, new="a new password")
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    assert here.post("/api/account/logout").headers["cache-control"] == "no-store"


def test_the_csrf_key_is_a_secret_of_the_server_kept_across_restarts(
    sqlite_server: ServerProcess, browsers: list[Browser]
) -> None:
    here, _, _ = browsers
    here.enter("signup")
    csrf = here.http.get("/api/account").json()["csrf"]
    # not the public constant it once was: another site cannot compute it from the session
    public = hmac.new(b"rummikub-csrf/1", b"csrf:" + here.session.encode(), hashlib.sha256)
    assert csrf != public.hexdigest()
    sqlite_server.stop(keep_log=True)
    sqlite_server.start()
    assert here.http.get("/api/account").json()["csrf"] == csrf  # the same after a restart
    assert here.post("/api/account/logout").status_code == 200


# -- the room manager: a deleted account's seats (in process) ------------------------------
async def _delete_while_seated(db: str) -> dict[str, Any]:
    store = Store(db)
    manager = RoomManager(store)
    await manager.start()
    sent: list[dict[str, Any]] = []
    closed: list[int] = []
    got = asyncio.Event()

    async def send(text: str) -> None:
        sent.append(json.loads(text))
        got.set()

    async def close(code: int) -> None:
        closed.append(code)
        got.set()

    async def first(kind: str) -> dict[str, Any]:
        while True:
            found = next((m for m in sent if m["type"] == kind), None)
            if found is not None:
                return found
            got.clear()
            await asyncio.wait_for(got.wait(), 30)

    accounts = manager.accounts
    _, token = await asyncio.to_thread(accounts.sign_up, "Alice", PASSWORD, 1.0)
    alice = await asyncio.to_thread(accounts.session, token, 2.0)
    assert alice is not None
    conn = manager.new_connection(send, close, client="127.0.0.9", account=alice)
    await manager.receive(conn, json.dumps({
        "type": "create", "name": "x", "rules": "standard",
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
        "settings": {"bot_delay": 0},
    }))  # fmt: skip
    code = (await first("joined"))["room"]
    before = manager.rooms[code].room.seats[0].public()
    gone = await asyncio.to_thread(accounts.delete, alice, PASSWORD, 3.0)
    hit = manager.sessions_ended(Ended(alice.id, "deleted", seats=gone.seats, name=DELETED_NAME))
    notice = await first("session-ended")
    while not closed:
        got.clear()
        await asyncio.wait_for(got.wait(), 30)
    # someone else takes the name: the old seat does not pass for him
    await asyncio.to_thread(accounts.sign_up, "alice", PASSWORD, 4.0)
    after = manager.rooms[code].room.seats[0].public()
    stored = store.load_room(code, events=False)
    assert stored is not None
    await manager.disconnect(conn)
    await manager.stop()
    store.close()
    return {
        "before": (before["name"], before["account"]),
        "after": (after["name"], after["account"]),
        "stored": stored.seats[0].name,
        "seats": gone.seats,
        "hit": hit,
        "notice": notice["reason"],
        "closed": closed,
        "account": conn.account,
    }


def test_a_deleted_accounts_seat_loses_its_name_and_mark(tmp_path: Path) -> None:
    out = asyncio.run(_delete_while_seated(f"sqlite:///{tmp_path / 'r.db'}"))
    assert out["before"] == ("Alice", True)
    assert out["after"] == (DELETED_NAME, False)
    assert out["stored"] == DELETED_NAME
    assert len(out["seats"]) == 1 and out["hit"] == 1 and out["account"] is None
    assert out["notice"] == "deleted" and out["closed"] == [SESSION_ENDED]


class Holder:
    """A connection as the registry sees it: it only learns that its session ended."""

    def __init__(self) -> None:
        self.reasons: list[str] = []

    def lose_account(self, reason: str) -> None:
        self.reasons.append(reason)


async def _password_change_and_sweep(db: str) -> dict[str, list[str]]:
    store = Store(db)
    try:
        accounts = AccountStore(store.engine)
        now = time.time()  # the sweep asks the database about now
        ann, here = accounts.sign_up("Ann", PASSWORD, now)
        _, there = accounts.log_in("Ann", PASSWORD, now)
        mine, theirs, stranger = Holder(), Holder(), Holder()
        live = accounts.live
        live.add(mine, ann.id, token_hash(here))
        live.add(theirs, ann.id, token_hash(there))
        bob, bobs = accounts.sign_up("Bob", PASSWORD, now)
        live.add(stranger, bob.id, token_hash(bobs))
        new = accounts.change_password(ann, PASSWORD, "a new password", now)
        # as the API does: this browser's connections go on under its new session
        live.rekey(token_hash(here), token_hash(new))
        live.end(Ended(ann.id, "password", keep=token_hash(new)))
        await live.sweep()  # the database agrees: nothing more ends
        return {"mine": mine.reasons, "theirs": theirs.reasons, "stranger": stranger.reasons}
    finally:
        store.close()


def test_after_a_new_password_the_sweep_keeps_this_browsers_connections(tmp_path: Path) -> None:
    out = asyncio.run(_password_change_and_sweep(f"sqlite:///{tmp_path / 'r.db'}"))
    assert out == {"mine": [], "theirs": ["password"], "stranger": []}
