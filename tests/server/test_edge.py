"""The server's edge: the WebSocket ``Origin`` check, security headers on every HTTP response,
rate limits per client address, and a plain error for a database that cannot be opened."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import create_engine
from sqlalchemy.exc import OperationalError
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from rummikub.core import RummikubError
from rummikub.server.storage.startup import DatabaseUnavailable, check_writable, open_store
from rummikub.server.storage.store import Store
from rummikub.server.web.headers import content_security_policy
from rummikub.server.web.http_limits import BucketTable, LimitError, client_key
from rummikub.server.web.origins import OriginError, OriginPolicy, normalise_origin

from .conftest import _drop_pg_database, _fresh_pg_database, _missing
from .helpers import ServerProcess, free_port

# -- the Origin rule -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("origin", "host", "allowed"),
    [
        (None, "127.0.0.1:8000", True),  # not a browser
        (None, None, True),
        ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
        ("https://127.0.0.1:8000", "127.0.0.1:8000", True),  # TLS proxy keeping Host
        ("http://GAME.example.org", "game.example.org", True),  # default port, any case
        ("https://game.example.org", "game.example.org", True),
        ("https://game.example.org:443", "game.example.org", True),
        ("http://game.example.org:80", "game.example.org:80", True),
        ("http://[::1]:8000", "[::1]:8000", True),
        ("http://127.0.0.1:8001", "127.0.0.1:8000", False),  # another port: another site
        ("http://localhost:8000", "127.0.0.1:8000", False),
        ("http://evil.example", "game.example.org", False),
        ("https://game.example.org:8443", "game.example.org", False),
        ("http://game.example.org.evil.example", "game.example.org", False),
        ("null", "game.example.org", False),  # sandboxed frame, file:// page
        ("file://", "game.example.org", False),
        ("chrome-extension://abcdef", "game.example.org", False),
        ("http://game.example.org", None, False),  # no Host: nothing to be the same as
        ("http://game.example.org", "game.example.org:notaport", False),
        ("", "game.example.org", False),
    ],
)
def test_the_origin_rule(origin: str | None, host: str | None, allowed: bool) -> None:
    assert OriginPolicy().allows(origin, host) is allowed


def test_configured_origins_are_allowed_exactly() -> None:
    policy = OriginPolicy(["https://play.example.org", "http://10.0.0.5:8080/"])
    assert policy.allows("https://play.example.org", "127.0.0.1:8000")
    assert policy.allows("https://play.example.org:443", "127.0.0.1:8000")
    assert policy.allows("http://10.0.0.5:8080", "127.0.0.1:8000")
    assert not policy.allows("http://play.example.org", "127.0.0.1:8000")  # scheme counts
    assert not policy.allows("https://other.example.org", "127.0.0.1:8000")
    assert not policy.allows("http://10.0.0.5", "127.0.0.1:8000")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("https://Play.Example.org", "https://play.example.org"),
        ("https://play.example.org:443/", "https://play.example.org"),
        ("http://10.0.0.5:8080", "http://10.0.0.5:8080"),
        ("http://[::1]:8000", "http://[::1]:8000"),
    ],
)
def test_origins_are_normalised(text: str, shown: str) -> None:
    assert normalise_origin(text) == shown


@pytest.mark.parametrize(
    "text",
    ["play.example.org", "ftp://play.example.org", "https://play.example.org/game", "https://",
     "https://ann@play.example.org", "https://play.example.org:99999", "*"],
)  # fmt: skip
def test_a_bad_origin_is_an_error_naming_it(text: str) -> None:
    with pytest.raises(OriginError, match="not a web origin") as info:
        OriginPolicy([text])
    assert repr(text) in str(info.value)
    assert isinstance(info.value, RummikubError)


# -- headers and limits, without a server ----------------------------------------------------


def test_the_policy_names_the_websocket_of_a_plain_host_only() -> None:
    csp = content_security_policy("game.example.org:8000")
    assert "connect-src 'self' ws://game.example.org:8000 wss://game.example.org:8000;" in csp
    assert "script-src 'self';" in csp and "unsafe" not in csp
    assert "frame-ancestors 'none'" in csp
    assert "connect-src 'self' ws://[::1]:8000 wss://[::1]:8000;" in content_security_policy(
        "[::1]:8000"
    )
    # a Host header cannot add to the policy
    for host in ("x; script-src *", "x y", "", None, "a" * 300):
        csp = content_security_policy(host)
        assert "connect-src 'self';" in csp and "script-src 'self';" in csp
        assert csp.count(";") == content_security_policy(None).count(";")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_allows_its_burst_then_says_how_long_to_wait() -> None:
    clock = Clock()
    table = BucketTable(rate=2.0, burst=3.0, clock=clock)
    assert [table.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert table.take("a") == pytest.approx(0.5)  # one token takes 1/rate seconds
    assert table.take("b") == 0.0  # another address has its own bucket
    clock.now += 0.25
    assert table.take("a") == pytest.approx(0.25)  # half a token so far
    clock.now += 0.25
    assert table.take("a") == 0.0
    assert table.take("a") == pytest.approx(0.5)
    clock.now += 100
    assert [table.take("a") for _ in range(4)][-2:] == [0.0, pytest.approx(0.5)]  # burst caps


def test_the_table_of_buckets_is_bounded() -> None:
    clock = Clock()
    table = BucketTable(rate=1.0, burst=1.0, size=2, clock=clock)
    assert table.take("a") == 0.0 and table.take("b") == 0.0
    assert table.take("a") > 0  # a is used: b is now the oldest
    assert table.take("c") == 0.0  # the table is full: b is forgotten
    assert set(table.buckets) == {"a", "c"}
    assert table.take("a") > 0  # a's empty bucket was kept
    for n in range(1000):
        table.take(f"10.0.{n // 256}.{n % 256}")
    assert len(table.buckets) == 2


def test_rate_zero_is_no_limit_and_bad_limits_are_errors() -> None:
    table = BucketTable(rate=0.0, burst=1.0)
    assert all(table.take("a") == 0.0 for _ in range(1000))
    for rate, burst, size in [(-1.0, 10.0, 10), (1.0, 0.5, 10), (1.0, 10.0, 0),
                              (float("nan"), 10.0, 10), (1.0, float("inf"), 10)]:  # fmt: skip
        with pytest.raises(LimitError, match="bad rate limit"):
            BucketTable(rate, burst, size)


@given(
    rate=st.floats(0.01, 100),
    burst=st.integers(1, 50),
    steps=st.lists(st.floats(0, 5), min_size=1, max_size=200),
)
def test_a_bucket_never_allows_more_than_burst_plus_rate_times_time(
    rate: float, burst: int, steps: list[float]
) -> None:
    clock = Clock()
    table = BucketTable(rate=rate, burst=float(burst), clock=clock)
    start = clock.now
    allowed = 0
    for dt in steps:
        clock.now += dt
        wait = table.take("a")
        if wait == 0.0:
            allowed += 1
        else:
            assert 0 < wait <= 1 / rate + 1e-9
    assert allowed <= burst + rate * (clock.now - start) + 1e-6
    # after the wait it names, a refused client is let in
    wait = table.take("a")
    while wait == 0.0:  # empty the bucket first (at most ``burst`` requests)
        wait = table.take("a")
    clock.now += wait * (1 + 1e-9) + 1e-9
    assert table.take("a") == 0.0


def test_addresses_are_counted_per_ipv4_address_and_per_ipv6_64() -> None:
    def key(host: str) -> str:
        return client_key({"type": "http", "client": (host, 5000)})

    assert key("192.0.2.7") == "192.0.2.7"
    assert key("2001:db8:1:2:aaaa::1") == key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert key("2001:db8:1:3::1") != key("2001:db8:1:2::1")
    assert key("::ffff:192.0.2.7") == "192.0.2.7"
    assert client_key({"type": "http", "client": None}) == "-"


# -- a real server ---------------------------------------------------------------------------

SECURITY_HEADERS = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


def _request(
    srv: ServerProcess, path: str, *, source: str = "127.0.0.1"
) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10, source_address=(source, 0))
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def test_every_http_response_has_the_security_headers(sqlite_server: ServerProcess) -> None:
    for path, status in [
        ("/", 200),
        ("/r/ABCDEF", 200),
        ("/replay/ABCDEF", 200),
        ("/static/js/app.js", 200),
        ("/static/style.css", 200),
        ("/i18n/en.json", 200),
        ("/i18n/xx.json", 404),
        ("/static/nope.js", 404),
        ("/api/info", 200),
        ("/api/rooms", 200),
        ("/api/rooms/NOPE99", 404),
        ("/nothing-here", 404),
    ]:
        got, headers, _ = _request(sqlite_server, path)
        assert got == status, path
        for name, value in SECURITY_HEADERS.items():
            assert headers.get(name) == value, (path, name)
        csp = headers["content-security-policy"]
        host = f"127.0.0.1:{sqlite_server.port}"
        assert f"connect-src 'self' ws://{host} wss://{host};" in csp, path
        assert "frame-ancestors 'none'" in csp and "script-src 'self';" in csp


def _ws_status(url: str, origin: str | None) -> int:
    """101 if the handshake with this ``Origin`` succeeds, else the HTTP status of the refusal."""
    headers = {"Origin": origin} if origin is not None else None
    try:
        with connect(url, additional_headers=headers, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "ping", "id": 1}))
            assert json.loads(ws.recv(timeout=10))["type"] == "pong"
            return 101
    except InvalidStatus as exc:
        return exc.response.status_code


def test_the_websocket_accepts_its_own_pages_and_refuses_others(
    sqlite_server: ServerProcess,
) -> None:
    own = f"127.0.0.1:{sqlite_server.port}"
    url = sqlite_server.ws_url
    assert _ws_status(url, None) == 101  # bots, scripts, tests
    assert _ws_status(url, f"http://{own}") == 101
    assert _ws_status(url, f"https://{own}") == 101
    assert _ws_status(url, "http://evil.example") == 403
    assert _ws_status(url, f"http://localhost:{sqlite_server.port}") == 403
    assert _ws_status(url, f"http://127.0.0.1:{sqlite_server.port + 1}") == 403
    assert _ws_status(url, "null") == 403
    log = sqlite_server.output()
    assert "refused a WebSocket from 127.0.0.1: origin http://evil.example is not this server" in (
        log
    )
    assert log.count("refused a WebSocket") == 4  # one line each
    assert "Traceback" not in log


def test_origins_can_be_allowed_on_the_command_line_and_in_the_environment(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RUMMIKUB_ALLOWED_ORIGINS", " https://a.example.org, http://b.example:81 ")
    srv = ServerProcess(sqlite_url, args=["--allow-origin", "https://proxy.example.org"]).start()
    try:
        for origin in ("https://proxy.example.org", "https://a.example.org", "http://b.example:81"):
            assert _ws_status(srv.ws_url, origin) == 101, origin
        assert _ws_status(srv.ws_url, "http://proxy.example.org") == 403
        assert _ws_status(srv.ws_url, "http://b.example") == 403
        assert (
            "Pages from https://proxy.example.org, https://a.example.org, http://b.example:81 "
            "may connect too." in srv.output()
        )
    finally:
        srv.stop()


def _serve(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``rummikub serve ARGS`` run to its end (it must fail before it listens), in this
    process (the command as its entry point runs it: a start that fails costs no interpreter
    and imports of its own); a failure that is not the command's own exit (an exception that
    escaped it: what would print a traceback) fails the test."""
    from typer.testing import CliRunner

    from rummikub.cli.main import app

    argv = ["serve", "--port", str(free_port()), *args]
    result = CliRunner().invoke(app, argv, env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result
    return subprocess.CompletedProcess(argv, result.exit_code, result.stdout, result.stderr)


def test_a_bad_allowed_origin_stops_the_server_with_its_name(sqlite_url: str) -> None:
    done = _serve("--db", sqlite_url, "--allow-origin", "https://play.example.org/lobby")
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "error: rummikub serve: not a web origin: 'https://play.example.org/lobby' "
        "(expected http://HOST[:PORT] or https://HOST[:PORT], without a path)"
    )
    done = _serve("--db", sqlite_url, env={"RUMMIKUB_ALLOWED_ORIGINS": "ftp://x"})
    assert done.returncode == 1 and "not a web origin: 'ftp://x'" in done.stderr


def test_the_api_is_rate_limited_per_address(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a bucket of 5 that refills once in 1000 s: the limit is reached within 5 requests however
    # slowly they come (start-up's readiness check took one or more of them)
    monkeypatch.setenv("RUMMIKUB_API_RATE", "0.001")
    monkeypatch.setenv("RUMMIKUB_API_BURST", "5")
    srv = ServerProcess(sqlite_url).start()
    try:
        statuses = [_request(srv, "/api/rooms")[0] for _ in range(5)]
        assert statuses[0] == 200 and 429 in statuses
        assert statuses == sorted(statuses)  # once refused, refused
        status, headers, body = _request(srv, "/api/info")
        assert status == 429
        assert int(headers["retry-after"]) > 100  # a token comes back after 1000 s
        assert json.loads(body) == {
            "error": f"too many requests from your address; try again in "
            f"{headers['retry-after']} s",
            "code": "rate-limited",
            "params": {"seconds": int(headers["retry-after"])},
        }
        assert headers["content-type"] == "application/json"
        assert headers["x-frame-options"] == "DENY" and "content-security-policy" in headers
        # pages and static files have their own, larger, limit; another address its own bucket
        assert _request(srv, "/")[0] == 200
        assert _request(srv, "/static/js/app.js")[0] == 200
        assert _request(srv, "/api/rooms", source="127.0.0.2")[0] == 200
        # the WebSocket is not counted here
        assert _ws_status(srv.ws_url, None) == 101
    finally:
        srv.stop()


# -- a database that cannot be opened --------------------------------------------------------


def _cannot_open(url: str) -> str:
    """Start the server on ``url``: it must fail with one line on standard error (returned)."""
    done = _serve("--db", url)
    assert done.returncode == 1, done
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"error: rummikub serve: cannot open the database {url}: ")
    return lines[0].split(f"{url}: ", 1)[1]


@pytest.fixture
def read_only_dir(tmp_path: Path) -> Iterator[Path]:
    """A directory holding a database ``old.db`` in which nothing can be written: a read-only
    mount for root (whom permissions do not stop), permissions for anyone else."""
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() == 0:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(folder)], check=True)
        try:
            open_store(f"sqlite:///{folder / 'old.db'}").close()
            subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
            yield folder
        finally:
            subprocess.run(["umount", str(folder)], check=True)
    else:
        open_store(f"sqlite:///{folder / 'old.db'}").close()
        for f in folder.iterdir():
            f.chmod(0o444)
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)


def test_a_read_only_directory_or_file_is_named(read_only_dir: Path) -> None:
    reason = _cannot_open(f"sqlite:///{read_only_dir / 'new.db'}")
    assert reason.startswith(f"the directory {read_only_dir} is ") and "read-only" in reason
    reason = _cannot_open(f"sqlite:///{read_only_dir / 'old.db'}")
    assert reason.startswith(f"the file {read_only_dir / 'old.db'} is ") and "read-only" in reason
    sub = read_only_dir / "games"
    reason = _cannot_open(f"sqlite:///{sub / 'x.db'}")
    assert reason.startswith(f"cannot create the directory {sub}: {read_only_dir} is ")
    assert "read-only" in reason


def test_a_directory_that_cannot_be_made_is_named(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    folder = blocker / "games"
    reason = _cannot_open(f"sqlite:///{folder / 'x.db'}")
    assert reason == f"cannot create the directory {folder}: {blocker} is not a directory"
    reason = _cannot_open("sqlite:////proc/rummikub-none/x.db")
    assert reason.startswith("cannot create the directory /proc/rummikub-none: ")


def test_a_file_that_is_not_a_database_is_named(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("shopping list\n" * 100)
    assert _cannot_open(f"sqlite:///{path}") == "file is not a database"
    assert _cannot_open(f"sqlite:///{tmp_path}") == f"{tmp_path} is not a file"


def test_an_unreachable_postgresql_server_is_named_without_its_password() -> None:
    port = free_port()  # nothing listens there
    done = _serve("--db", f"postgresql://ann:secret@127.0.0.1:{port}/games")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    line = done.stderr.strip()
    assert line.startswith(
        f"error: rummikub serve: cannot open the database "
        f"postgresql://ann:***@127.0.0.1:{port}/games: connection failed"
    )
    assert "Connection refused" in line and "secret" not in line and "\n" not in line


def test_a_database_opened_read_only_is_caught_before_the_first_move(tmp_path: Path) -> None:
    """SQLite opens a file it may not write read-only without an error; the start-up check
    writes nothing but must be refused."""
    path = tmp_path / "games.db"
    Store(f"sqlite:///{path}").close()
    engine = create_engine(f"sqlite:///file:{path}?mode=ro&uri=true")
    try:
        with pytest.raises(OperationalError, match="readonly database"):
            check_writable(engine)
    finally:
        engine.dispose()
    store = open_store(f"sqlite:///{path}")  # and a writable one passes
    store.close()


def test_database_errors_are_the_projects_errors() -> None:
    err = DatabaseUnavailable("sqlite:////x/y.db", "the directory /x is read-only")
    assert isinstance(err, RummikubError)
    assert str(err) == "cannot open the database sqlite:////x/y.db: the directory /x is read-only"


def test_a_read_only_postgresql_database_is_caught_at_start(pg_admin_url: str | None) -> None:
    if not pg_admin_url:
        _missing("PostgreSQL (RUMMIKUB_TEST_PG_URL)")
        return
    url, name = _fresh_pg_database(pg_admin_url)
    try:
        open_store(url).close()  # the tables exist; now every transaction is read-only
        read_only = url + "?options=-c%20default_transaction_read_only%3Don"
        with pytest.raises(DatabaseUnavailable) as info:
            open_store(read_only)
        assert info.value.reason == "cannot execute UPDATE in a read-only transaction"
        assert str(info.value).startswith(f"cannot open the database {read_only.split('?')[0]}")
    finally:
        _drop_pg_database(pg_admin_url, name)
