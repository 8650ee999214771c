"""The server's edge under abuse (issue 35): connections per address, slow and half-sent
requests, request bodies, the shape of every error, the names the server answers to (DNS
rebinding) and whose ``X-Forwarded-For`` it believes. Every test runs a real server process and
talks to it over real sockets, from loopback addresses of its own (the limits are per
address)."""

from __future__ import annotations

import json
import socket
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from rummikub.server.protocol.messages import MAX_DEPTH
from rummikub.server.web.app import ServerConfig, create_app
from rummikub.server.web.http_limits import json_problem
from rummikub.server.web.origins import HostPolicy, default_hosts

from .helpers import ServerProcess

SECURITY_HEADERS = ("x-frame-options", "x-content-type-options", "referrer-policy",
                    "content-security-policy")  # fmt: skip


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> dict[str, object]:
        out: dict[str, object] = json.loads(self.body)
        return out

    def is_error(self, status: int, code: str) -> None:
        """The documented shape of every error, with the security headers."""
        assert self.status == status, (self.status, self.body)
        assert self.headers.get("content-type", "").startswith("application/json"), self.headers
        body = self.json()
        assert set(body) == {"error", "code", "params"}, body
        assert body["code"] == code and isinstance(body["params"], dict), body
        assert isinstance(body["error"], str) and body["error"], body
        for name in SECURITY_HEADERS:
            assert name in self.headers, (name, self.headers)


def _open(srv: ServerProcess, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", srv.port), timeout=10, source_address=(source, 0))
    return sock


def _read_answer(sock: socket.socket, timeout: float = 10) -> Answer:
    """One HTTP response read off a raw socket (until its body is complete or the server
    closes the connection)."""
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        got = sock.recv(65536)
        if not got:
            raise ConnectionError(f"closed without an answer: {data!r}")
        data += got
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "-1"))
    while length < 0 or len(body) < length:
        got = sock.recv(65536)
        if not got:
            break
        body += got
    return Answer(status, headers, body)


def _ask(
    srv: ServerProcess,
    method: str,
    path: str,
    body: bytes = b"",
    headers: dict[str, str] | None = None,
    source: str = "127.0.0.1",
) -> Answer:
    """One request on a connection of its own, written by hand (any header, any body)."""
    head = {"Host": f"127.0.0.1:{srv.port}", "Connection": "close", **(headers or {})}
    if body and "Content-Length" not in head and "Transfer-Encoding" not in head:
        head["Content-Length"] = str(len(body))
    text = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in head.items())
    with _open(srv, source) as sock:
        sock.sendall(text.encode("latin-1") + b"\r\n" + body)
        return _read_answer(sock)


def _closed_by_server(sock: socket.socket, deadline: float, trickle: bytes = b"") -> bool:
    """Whether the server closes ``sock`` before ``deadline`` (monotonic); with ``trickle``,
    one byte of it is sent each time the server has said nothing for a quarter second, as a
    slowloris client does."""
    sock.settimeout(0.25)
    sent = 0
    while time.monotonic() < deadline:
        try:
            got = sock.recv(65536)
        except TimeoutError:
            if trickle:
                try:
                    sock.send(trickle[sent % len(trickle) : sent % len(trickle) + 1])
                except OSError:
                    return True
                sent += 1
            continue
        except OSError:  # reset
            return True
        if not got:
            return True
    return False


def _limited(sqlite_url: str, request_timeout: float) -> Iterator[ServerProcess]:
    """A server with small limits, set the way an operator sets them (environment)."""
    srv = ServerProcess(
        sqlite_url,
        env={
            "RUMMIKUB_MAX_WEBSOCKETS": "5",
            "RUMMIKUB_MAX_CONNECTIONS": "8",
            "RUMMIKUB_REQUEST_TIMEOUT": str(request_timeout),
            "RUMMIKUB_MAX_BODY": "2000",
        },
    ).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def limited(sqlite_url: str) -> Iterator[ServerProcess]:
    """Small limits on connections and bodies; the request timeout long enough that a busy
    machine's slow handshake is not cut off by it (it has tests of its own: ``impatient``)."""
    yield from _limited(sqlite_url, 30)


@pytest.fixture
def impatient(sqlite_url: str) -> Iterator[ServerProcess]:
    """The same limits with a request timeout of one second."""
    yield from _limited(sqlite_url, 1)


def _ws(
    srv: ServerProcess, source: str, host: str | None = None, **headers: str
) -> ClientConnection:
    """A WebSocket from ``source``, to the server under the name ``host`` (as a browser that
    resolved that name to the server's address would connect: its ``Host`` is that name)."""
    sock = _open(srv, source)
    url = srv.ws_url if host is None else f"ws://{host}/ws"
    ws: ClientConnection = connect(
        url, sock=sock, additional_headers=headers or None, open_timeout=10
    ).__enter__()
    return ws


def _ws_refusal(
    srv: ServerProcess, source: str = "127.0.0.1", host: str | None = None, **headers: str
) -> Answer:
    """The HTTP answer refusing a WebSocket handshake (the test fails if it is accepted)."""
    try:
        ws = _ws(srv, source, host, **headers)
    except InvalidStatus as exc:
        r = exc.response
        return Answer(
            r.status_code, {k.lower(): v for k, v in r.headers.raw_items()}, bytes(r.body or b"")
        )
    ws.close()
    raise AssertionError("the handshake was accepted")


def _pong(ws: ClientConnection) -> bool:
    ws.send(json.dumps({"type": "ping", "id": 1}))
    return bool(json.loads(ws.recv(timeout=10))["type"] == "pong")


# -- A. connections per address --------------------------------------------------------------


def test_an_address_holds_a_limited_number_of_websockets(limited: ServerProcess) -> None:
    flood = [_ws(limited, "127.0.0.21") for _ in range(5)]
    try:
        refused = _ws_refusal(limited, "127.0.0.21")
        refused.is_error(429, "too-many-connections")
        assert refused.json()["params"] == {"limit": 5}
        # another address is not held up by it, and the flooder's own sockets still work
        other = _ws(limited, "127.0.0.22")
        assert _pong(other) and _pong(flood[0])
        other.close()
        # one closed: its place is free again (the server learns of the close by itself)
        flood.pop().close()
        deadline = time.monotonic() + 10
        while True:
            try:
                flood.append(_ws(limited, "127.0.0.21"))
                break
            except InvalidStatus:
                assert time.monotonic() < deadline, "the closed socket was never counted off"
    finally:
        for ws in flood:
            ws.close()


def test_an_address_holds_a_limited_number_of_tcp_connections(limited: ServerProcess) -> None:
    held = [_open(limited, "127.0.0.31") for _ in range(8)]
    try:
        # the ninth is answered at once, before it has sent anything, and closed
        with _open(limited, "127.0.0.31") as ninth:
            _read_answer(ninth).is_error(429, "too-many-connections")
            assert _closed_by_server(ninth, time.monotonic() + 5)
        assert _ask(limited, "GET", "/api/info", source="127.0.0.32").status == 200
    finally:
        for sock in held:
            sock.close()


def test_idle_and_half_sent_requests_are_cut_off(impatient: ServerProcess) -> None:
    start = time.monotonic()
    with (
        _open(impatient, "127.0.0.41") as idle,
        _open(impatient, "127.0.0.41") as half,
        _open(impatient, "127.0.0.41") as trickling,
        _open(impatient, "127.0.0.41") as slow_body,
    ):
        half.sendall(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        trickling.sendall(b"GET /api/info HTTP/1.1\r\n")
        slow_body.sendall(
            b"POST /api/account/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name": '
        )
        deadline = start + 15
        assert _closed_by_server(idle, deadline), "a connection that sends nothing stays open"
        assert _closed_by_server(half, deadline), "half-sent headers keep the connection"
        assert _closed_by_server(trickling, deadline, trickle=b"X-a: b\r\n"), "slowloris"
        assert _closed_by_server(slow_body, deadline), "a body that never ends"
    # not at once: each had its second (the limit) to send its request
    assert time.monotonic() - start >= 0.9


def _ws_within_the_timeout(srv: ServerProcess, source: str) -> ClientConnection:
    """A WebSocket whose handshake ended within the server's request timeout: on a busy machine
    a handshake slower than that is cut off, as the timeout is meant to, and is made again."""
    for _ in range(20):
        try:
            return _ws(srv, source)
        except ConnectionClosed:  # cut off before its handshake ended
            continue
    raise AssertionError("no handshake ended within the request timeout in 20 tries")


def test_an_open_websocket_is_not_cut_off_by_the_request_timeout(
    impatient: ServerProcess,
) -> None:
    ws = _ws_within_the_timeout(impatient, "127.0.0.51")
    try:
        with _open(impatient, "127.0.0.51") as idle:
            # once an idle connection opened after the WebSocket was cut off, the WebSocket
            # has been open longer than the request timeout
            assert _closed_by_server(idle, time.monotonic() + 15)
        assert _pong(ws)
    finally:
        ws.close()


def test_a_finished_request_is_answered_and_keep_alive_works(limited: ServerProcess) -> None:
    with _open(limited, "127.0.0.52") as sock:
        for _ in range(3):
            sock.sendall(
                f"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:{limited.port}\r\n\r\n".encode()
            )
            assert _read_answer(sock).status == 200


# -- B. bodies ---------------------------------------------------------------------------------

LOGIN = "/api/account/login"


def _login_headers(srv: ServerProcess) -> dict[str, str]:
    return {"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{srv.port}"}


def test_a_body_larger_than_the_limit_is_refused_by_its_length_before_it_is_sent(
    shared_server: ServerProcess,
) -> None:
    """50 MB announced, not a byte of it sent: the answer comes at once (the default limit)."""
    headers = {**_login_headers(shared_server), "Content-Length": str(50 * 2**20)}
    head = f"POST {LOGIN} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    head += f"Host: 127.0.0.1:{shared_server.port}\r\n\r\n"
    with _open(shared_server) as sock:
        sock.sendall(head.encode())
        answer = _read_answer(sock)
        answer.is_error(413, "too-large")
        assert answer.json()["params"] == {"limit": 65536}
        assert _closed_by_server(sock, time.monotonic() + 5)  # the body is not read after it


def test_a_chunked_body_is_cut_off_once_it_passes_the_limit(limited: ServerProcess) -> None:
    chunk = b"x" * 500
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(20)) + b"0\r\n\r\n"
    headers = {**_login_headers(limited), "Transfer-Encoding": "chunked"}
    _ask(limited, "POST", LOGIN, chunks, headers).is_error(413, "too-large")
    # within the limit, the body reaches the endpoint as before
    ok = json.dumps({"name": "nobody", "password": "wrong password"}).encode()
    assert _ask(limited, "POST", LOGIN, ok, _login_headers(limited)).status == 401


def test_headers_are_limited_and_a_body_within_the_limit_is_read(
    shared_server: ServerProcess,
) -> None:
    many = {f"X-Padding-{i}": "x" * 1000 for i in range(70)}
    _ask(shared_server, "GET", "/api/info", headers=many).is_error(431, "too-large")
    # a body just under the limit, sent at once with its headers, is the endpoint's to judge
    padded = json.dumps({"name": "nobody", "password": "p", "claim": ["x" * 60_000]}).encode()
    assert len(padded) < 65536
    login = _ask(shared_server, "POST", LOGIN, padded, _login_headers(shared_server))
    assert login.status == 401, login.body


def test_websocket_messages_are_limited(shared_server: ServerProcess) -> None:
    ws = _ws(shared_server, "127.0.0.1")
    try:
        ws.send("x" * 70_000)
        with pytest.raises(ConnectionClosed) as info:
            ws.recv(timeout=10)
        assert info.value.rcvd is not None and info.value.rcvd.code == 1009
    finally:
        ws.close()


# -- C. every error has the shape and the headers ------------------------------------------------


def test_deep_or_broken_json_bodies_are_client_errors(shared_server: ServerProcess) -> None:
    headers = _login_headers(shared_server)
    deep = b"[" * 5000 + b"]" * 5000
    _ask(shared_server, "POST", LOGIN, deep, headers).is_error(400, "too-deep")
    surrogate = b'{"name": "\\ud800", "password": "\\udfff-x"}'
    _ask(shared_server, "POST", LOGIN, surrogate, headers).is_error(400, "bad-json")
    _ask(shared_server, "POST", LOGIN, b"{not json", headers).is_error(400, "bad-json")


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("GET", "/api/nothing-here", 404, "not-found"),
        ("GET", "/static/nope.js", 404, "not-found"),
        ("GET", "/nothing-here", 404, "not-found"),  # not a browser: JSON
        ("GET", "/i18n/xx.json", 404, "not-found"),
        ("GET", "/api/rooms/NOPE99", 404, "no-such-room"),
        ("POST", "/api/info", 405, "method-not-allowed"),
        ("DELETE", "/", 405, "method-not-allowed"),
        ("GET", "/api/rooms?limit=0", 422, "bad-message"),
        ("GET", "/api/assist?table=" + "x" * 1001, 422, "bad-message"),
    ],
)
def test_every_http_error_has_the_documented_shape(
    shared_server: ServerProcess, method: str, path: str, status: int, code: str
) -> None:
    _ask(shared_server, method, path).is_error(status, code)


def test_a_validation_error_names_the_field(shared_server: ServerProcess) -> None:
    assert _ask(shared_server, "GET", "/api/rooms?limit=0").json()["params"] == {"field": "limit"}


def test_a_browser_gets_a_page_for_an_address_that_has_none(shared_server: ServerProcess) -> None:
    answer = _ask(shared_server, "GET", "/nothing/here", headers={"Accept": "text/html"})
    assert answer.status == 404 and answer.headers["content-type"].startswith("text/html")
    page = answer.body.decode()
    # the site's page, marked to say there is nothing here (in the visitor's language)
    assert '<body data-missing="1">' in page
    assert 'href="/"' in page and 'href="/static/style.css"' in page
    # the policy allows no inline script or style: every script is a file of the site
    assert page.count("<script") == page.count('<script type="module" src="/static/') == 1
    assert "style=" not in page
    for name in SECURITY_HEADERS:
        assert name in answer.headers
    # the API keeps answering JSON, whatever the client accepts
    api = _ask(shared_server, "GET", "/api/nothing", headers={"Accept": "text/html"})
    api.is_error(404, "not-found")


def test_what_is_not_http_gets_the_error_shape_too(shared_server: ServerProcess) -> None:
    with _open(shared_server) as sock:
        sock.sendall(b"\x16\x03\x01 this is not HTTP\r\n\r\n")
        _read_answer(sock).is_error(400, "bad-request")


def test_a_refused_websocket_handshake_has_the_shape_and_headers(
    shared_server: ServerProcess,
) -> None:
    refused = _ws_refusal(shared_server, Origin="http://evil.example")
    refused.is_error(403, "bad-origin")


def test_an_unexpected_failure_is_a_500_with_the_shape_and_headers() -> None:
    app = create_app(ServerConfig())

    @app.get("/api/fails")
    async def fails() -> None:
        raise RuntimeError("a bug")

    client = TestClient(app, raise_server_exceptions=False)
    r = client.get("/api/fails", headers={"Host": "127.0.0.1:8000"})
    assert r.status_code == 500
    assert r.json() == {
        "error": "the server failed to handle this request",
        "code": "internal",
        "params": {},
    }
    for name in SECURITY_HEADERS:
        assert name in r.headers


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b'{"a": [[[1]]]}', None),
        (b'{"a": "[[[[[[[[[[[[[[[[[[[[[[[["}', None),  # brackets in a string do not count
        (b'{"a": "\\"[[[[[[[[[[[[[[[[[[[[[[["}', None),  # nor after an escaped quote
        (b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), "too-deep"),
        (b'{"a": "\\ud83d\\ude00"}', None),  # a surrogate pair: one character
        (b'{"a": "\\ud83d"}', "bad-json"),
        (b'{"\\udc00": 1}', "bad-json"),
        (b"\xff", "bad-json"),
    ],
)
def test_json_bodies_are_checked_without_recursion(body: bytes, problem: str | None) -> None:
    found = json_problem(body)
    assert (found[0] if found else None) == problem


# -- E. X-Forwarded-For ------------------------------------------------------------------------


def _burst_of_forged_addresses(srv: ServerProcess, n: int) -> list[int]:
    """``n`` API requests from one address, each claiming another in X-Forwarded-For."""
    return [
        _ask(srv, "GET", "/api/info", headers={"X-Forwarded-For": f"10.0.{i // 250}.{i % 250}"},
             source="127.0.0.61").status
        for i in range(n)
    ]  # fmt: skip


def test_forwarded_addresses_are_believed_only_from_proxies_the_operator_names(
    sqlite_url: str,
) -> None:
    limits = {"RUMMIKUB_API_RATE": "0.001", "RUMMIKUB_API_BURST": "5"}
    srv = ServerProcess(sqlite_url, env=limits).start()
    try:  # the client's own address is counted: the limit holds
        assert 429 in _burst_of_forged_addresses(srv, 10)
    finally:
        srv.stop()
    proxied = dict(limits, RUMMIKUB_FORWARDED_ALLOW_IPS="127.0.0.61")
    srv = ServerProcess(sqlite_url, env=proxied).start()
    try:  # from the proxy named: each forwarded client has its own budget
        assert set(_burst_of_forged_addresses(srv, 10)) == {200}
    finally:
        srv.stop()


# -- F. the names the server answers to (DNS rebinding) ------------------------------------------


def test_a_request_naming_another_host_is_refused(shared_server: ServerProcess) -> None:
    port = shared_server.port
    evil = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
    refused = _ws_refusal(shared_server, host=evil["Host"], Origin=evil["Origin"])
    refused.is_error(400, "bad-host")
    login = json.dumps({"name": "ann", "password": "a password"}).encode()
    headers = {**evil, "Content-Type": "application/json"}
    _ask(shared_server, "POST", LOGIN, login, headers).is_error(400, "bad-host")
    _ask(shared_server, "GET", "/api/info", headers={"Host": "evil.example"}).is_error(
        400, "bad-host"
    )
    # a second Host header cannot smuggle the name past the check
    with _open(shared_server) as sock:
        sock.sendall(
            f"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nHost: evil.example\r\n"
            "Connection: close\r\n\r\n".encode()
        )
        _read_answer(sock).is_error(400, "bad-host")
    assert "Host evil.example:" in shared_server.output()
    # the server's own names and addresses
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", "LOCALHOST"):
        assert _ask(shared_server, "GET", "/api/info", headers={"Host": host}).status == 200
    ws = _ws(shared_server, "127.0.0.1", f"localhost:{port}", Origin=f"http://localhost:{port}")
    assert _pong(ws)
    ws.close()


def test_names_can_be_allowed(sqlite_url: str) -> None:
    srv = ServerProcess(
        sqlite_url,
        args=["--allow-host", "game.example.org", "--allow-origin", "https://proxy.example.org"],
        env={"RUMMIKUB_ALLOWED_HOSTS": "*.example.net"},
    ).start()
    try:
        for host in ("game.example.org", "proxy.example.org", "a.example.net", "b.a.example.net"):
            assert _ask(srv, "GET", "/api/info", headers={"Host": host}).status == 200, host
        for host in ("example.net", "game.example.org.evil.example", "evil.example"):
            _ask(srv, "GET", "/api/info", headers={"Host": host}).is_error(400, "bad-host")
    finally:
        srv.stop()


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        (None, True),  # not a browser
        ("localhost", True),
        ("localhost:8000", True),
        ("127.0.0.1:8000", True),
        ("192.168.1.5:8000", True),  # an address: a browser sends it only to that address
        ("[::1]:8000", True),
        ("[fe80::1]", True),
        ("game.example.org", True),
        ("GAME.example.org.:443", True),
        ("x.lan.example", True),
        ("lan.example", False),
        ("evil.example:8000", False),
        ("localhost.evil.example", False),
        ("", False),
        ("a b", False),
        ("game.example.org@evil.example", False),
    ],
)
def test_the_host_rule(host: str | None, allowed: bool) -> None:
    policy = HostPolicy(["localhost", "game.example.org", "*.lan.example"])
    assert policy.allows(host) is allowed


def test_anything_may_be_allowed_and_the_defaults_follow_the_bound_address() -> None:
    assert HostPolicy(["*"]).allows("anything.example")
    assert default_hosts("127.0.0.1") == ["localhost"]
    assert default_hosts("game.lan") == ["localhost", "game.lan"]
    every = default_hosts("0.0.0.0")
    assert socket.gethostname().lower() in every and len(every) > 2


def test_a_bad_trusted_proxy_stops_the_server_with_its_name(sqlite_url: str) -> None:
    srv = ServerProcess(sqlite_url, args=["--forwarded-allow-ips", "10.0.0.0/8,nginx"])
    with pytest.raises(RuntimeError, match="not an address or network: 'nginx'"):
        srv.start()
    srv.stop()


def test_the_health_check_of_a_plain_client_still_works(shared_server: ServerProcess) -> None:
    with urllib.request.urlopen(f"http://localhost:{shared_server.port}/api/health") as r:
        assert r.status == 200
