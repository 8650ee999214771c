"""The web client under the server's Content-Security-Policy, in Chromium: over http (ws://)
and behind TLS (wss://), every page works and the browser reports no violation."""

from __future__ import annotations

import os
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from .browser_helpers import drag_until
from .helpers import Client, ServerProcess, create_vs_bots, draw_until_round_over, free_port

# Records every violation of the page's policy (the event fires on the document).
WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
localStorage.setItem('rummikub.lang', 'en');
"""

# A self-signed certificate for 127.0.0.1 and localhost (test only; valid until 2126).
TEST_KEY = """-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgLsaE5Q9C31f179kq
Z5BS2MEw7t98gsSK6ti9zvIw11KhRANCAATcuZ7sZYTqoHywCwtNi30zsZeSF4d4
+xSx6RUtOyYW9CmQUTrNycgVrxXvAkkyJwT53SWR0+vcK4Q6c59FUrfA
-----END PRIVATE KEY-----
"""
TEST_CERT = """-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIUKxuyiHAwKgvqE6Ik0/8lsWkYa4wwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTIwMTE3NTMzNFoYDzIxMjYxMTA3
MTc1MzM0WjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAATcuZ7sZYTqoHywCwtNi30zsZeSF4d4+xSx6RUtOyYW9CmQUTrNycgV
rxXvAkkyJwT53SWR0+vcK4Q6c59FUrfAo28wbTAdBgNVHQ4EFgQU9uuneuAvZJp5
+OiCorNcpet7vd4wHwYDVR0jBBgwFoAU9uuneuAvZJp5+OiCorNcpet7vd4wDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARhwR/AAABgglsb2NhbGhvc3QwCgYIKoZI
zj0EAwIDSAAwRQIgKP+VCrBEYg4m9V+LzZ2Q8cU/hJrGIlyaldaKkQXD2kwCIQDM
qdpB69KOIF8qa6HNSDnctCntZ4OLqvVHnDZnrUYLsQ==
-----END CERTIFICATE-----
"""


class Watched:
    """A page whose policy violations, console errors, script errors and WebSockets are kept."""

    def __init__(self, browser: Any, **kw: Any) -> None:
        self.ctx = browser.new_context(locale="en-GB", **kw)
        self.ctx.set_default_timeout(20_000)
        self.ctx.add_init_script(WATCH)
        self.page = self.ctx.new_page()
        self.console: list[str] = []
        self.errors: list[str] = []
        self.sockets: list[str] = []
        self.page.on(
            "console", lambda m: self.console.append(m.text) if m.type == "error" else None
        )
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("websocket", lambda ws: self.sockets.append(ws.url))

    def violations(self) -> list[str]:
        found: list[str] = self.page.evaluate("window.__csp")
        return found

    def assert_clean(self) -> None:
        assert self.violations() == []
        assert self.console == []
        assert self.errors == []

    def close(self) -> None:
        self.ctx.close()


def _play_a_little(w: Watched, base: str) -> None:
    """The lobby, a game against a bot (with a tile dragged onto the table), Swedish, and an
    Xpress game: the client's pages, their styles set from script, and the WebSocket."""
    page = w.page
    page.goto(base + "/")
    page.fill("#player-name", "Ann")
    page.click("#play-bots")
    page.wait_for_selector(".rack .tile")
    page.wait_for_selector("#btn-draw:not([disabled]), #btn-draw[disabled]")
    drag_until(
        page,
        page.locator(".rack .tile").first,
        page.locator(".new-meld"),
        "document.querySelectorAll('.meld').length > 0",
    )
    page.select_option("#lang-select", "sv")
    page.wait_for_selector("text=Sortera")
    page.select_option("#lang-select", "en")
    page.goto(base + "/")
    page.fill("#player-name", "Bo")
    page.click("#play-xpress")
    page.wait_for_selector(".dice-tray.rack .die")


def test_the_client_works_under_the_policy_over_http(
    browser: Any, sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    # a finished game for the replay page
    c = Client(sqlite_server.ws_url)
    clients.append(c)
    done = create_vs_bots(c, bots=1)
    draw_until_round_over(c)
    w = Watched(browser)
    try:
        _play_a_little(w, sqlite_server.base)
        w.page.goto(f"{sqlite_server.base}/replay/{done['room']}")
        w.page.wait_for_selector("#replay-next")
        w.page.click("#replay-next")
        w.page.click("#replay-last")
        w.page.wait_for_selector(".replay-end")
        w.assert_clean()
        assert w.sockets and all(u.startswith("ws://127.0.0.1:") for u in w.sockets)
        # the policy is enforced: an inline script and an inline style attribute are refused
        # (and reported), an outside connection too
        w.page.evaluate(
            """() => {
              const s = document.createElement('script');
              s.textContent = 'window.__ran = true';
              document.body.append(s);
              document.body.setAttribute('style', 'color: red');
              try { new WebSocket('ws://example.invalid/ws'); } catch (e) {}
            }"""
        )
        w.page.wait_for_function("() => window.__csp.length >= 3")
        assert w.page.evaluate("window.__ran === undefined")
        found = " | ".join(w.violations())
        assert "script-src-elem inline" in found
        assert "style-src-attr inline" in found
        assert "connect-src ws://example.invalid/ws" in found
    finally:
        w.close()


class TlsServer:
    """The server behind TLS: uvicorn with a certificate, as a TLS proxy would serve it."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.key, self.cert = folder / "key.pem", folder / "cert.pem"
        self.key.write_text(TEST_KEY)
        self.cert.write_text(TEST_CERT)
        self.db = f"sqlite:///{folder / 'rummikub.db'}"
        self.log = Path(tempfile.mkstemp(prefix="rummikub-tls-", suffix=".log")[1])
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def start(self) -> TlsServer:
        code = (
            "import uvicorn; from rummikub.server import ServerConfig, create_app; "
            f"uvicorn.run(create_app(ServerConfig(db_url={self.db!r})), host='127.0.0.1', "
            f"port={self.port}, ssl_keyfile={str(self.key)!r}, "
            f"ssl_certfile={str(self.cert)!r}, log_level='warning')"
        )
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", code],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=dict(os.environ, PYTHONUNBUFFERED="1"),
            )
        insecure = ssl.create_default_context()
        insecure.check_hostname = False
        insecure.verify_mode = ssl.CERT_NONE
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"TLS server exited: {self.log.read_text()}")
            try:
                with urllib.request.urlopen(
                    self.base + "/api/health", timeout=1, context=insecure
                ) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("TLS server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.unlink(missing_ok=True)


def test_the_client_works_under_the_policy_behind_tls(browser: Any, tmp_path: Path) -> None:
    srv = TlsServer(tmp_path).start()
    w = Watched(browser, ignore_https_errors=True)
    try:
        response = w.page.goto(srv.base + "/")
        assert response is not None
        csp = response.headers["content-security-policy"]
        assert f"wss://127.0.0.1:{srv.port}" in csp
        _play_a_little(w, srv.base)
        w.assert_clean()
        assert w.sockets and all(u.startswith("wss://127.0.0.1:") for u in w.sockets)
    finally:
        w.close()
        srv.stop()
