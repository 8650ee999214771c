"""Moderation in the web client: the host removes a person from the waiting room (whose page
says so and goes back to the lobby), a player on a phone mutes another's chat (also after a
reload) and reports him from the player list."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from rummikub.server.storage.models import ReportRow
from rummikub.server.storage.store import Store

from .browser_helpers import english_context, open_page
from .helpers import Client, ServerProcess

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True}


def _no_sideways_scroll(page: Any) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"))


def test_the_host_removes_a_person_whose_page_says_so(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    ctx_a = english_context(browser, timeout=20_000)
    a = open_page(ctx_a, sqlite_server.base + "/")
    a.fill("#player-name", "Ann")
    a.select_option("#room-players", "3")
    a.click("#create-room")
    link = a.locator("#invite-link").input_value()
    ctx_b = english_context(browser, timeout=20_000, **PHONE)
    b = open_page(ctx_b, link)
    b.fill("#join-name", "Bo")
    b.click("#join-seat")
    b.wait_for_selector(".seat-list >> text=Bo")
    assert b.locator(".remove-seat").count() == 0  # only the host removes
    a.wait_for_selector(".seat-list >> text=Bo")
    assert a.locator(".remove-seat").count() == 1  # not himself, not the free seat
    assert _no_sideways_scroll(a)
    a.click("#remove-1")  # asks first: the person cannot come back
    a.click("#remove-no-1")
    a.click("#remove-1")
    a.click("#remove-yes-1")
    b.wait_for_url(sqlite_server.base + "/")
    b.wait_for_selector("#toast.error >> text=The host removed you from room")
    a.wait_for_function("() => !document.querySelector('.seat-list').textContent.includes('Bo')")
    assert a.locator(".remove-seat").count() == 0
    # joining again is refused, saying why
    b.goto(link)
    b.fill("#join-name", "Bo")
    b.click("#join-seat")
    b.wait_for_selector("#toast.error >> text=you cannot join it again")
    assert _no_sideways_scroll(b)
    assert not b.errors, b.errors
    ctx_a.close()
    ctx_b.close()


def test_a_player_mutes_and_reports_another(
    browser: Any, sqlite_server: ServerProcess, sqlite_url: str, clients: list[Client]
) -> None:
    ann = Client(sqlite_server.ws_url)
    clients.append(ann)
    code = ann.request(type="create", name="Ann", seats=[{"kind": "human"}] * 2)["room"]
    ctx = english_context(browser, timeout=20_000, **PHONE)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # what the server sent the page: a muted line must not even arrive
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    page.goto(f"{sqlite_server.base}/r/{code}")
    page.fill("#join-name", "Bea")
    page.click("#join-seat")
    page.wait_for_selector(".rack .tile")
    page.click(".tab[data-tab='chat']")
    assert ann.request(type="chat", text="before the mute")["type"] == "ok"
    page.wait_for_selector(".chat-list li >> text=before the mute")

    page.click("#mute-0")
    page.wait_for_selector("#mute-0[aria-pressed='true']")
    assert page.locator(".chat-list li >> text=before the mute").count() == 0
    muted = page.evaluate(f"() => localStorage.getItem('rummikub.muted.{code}')")
    assert muted == "[0]"

    def said_and_synced(text: str, sync: str) -> None:
        """Ann says ``text``, then Bea says ``sync``: once Bea's line is on her page, Ann's
        would be too had the server sent it."""
        assert ann.request(type="chat", text=text)["type"] == "ok"
        page.fill("#chat-input", sync)
        page.press("#chat-input", "Enter")
        page.wait_for_selector(f".chat-list li >> text={sync}")
        assert page.locator(f".chat-list li >> text={text}").count() == 0
        assert not [f for f in frames if f'"text":"{text}"' in f]
        assert [f for f in frames if f'"text":"{sync}"' in f]

    said_and_synced("while muted", "sync one")
    page.reload()  # a new connection: the page sends the mute again
    page.wait_for_selector(".rack .tile")
    page.click(".tab[data-tab='chat']")
    page.wait_for_selector(".chat-list li >> text=sync one")
    page.wait_for_selector("#mute-0[aria-pressed='true']")
    said_and_synced("after the reload", "sync two")
    assert _no_sideways_scroll(page)

    page.click("#mute-0")  # heard again
    page.wait_for_selector("#mute-0[aria-pressed='false']")
    assert ann.request(type="chat", text="heard again")["type"] == "ok"
    page.wait_for_selector(".chat-list li >> text=heard again")

    # the report: the dialog, an empty reason refused in the page, then stored
    assert page.locator("#report-1").count() == 0  # not oneself
    page.click("#report-0")
    page.wait_for_selector("#report-dialog >> text=Report Ann")
    assert _no_sideways_scroll(page)
    page.click("#report-send")
    page.wait_for_selector("#report-error >> text=Write a reason first.")
    page.fill("#report-reason", "Spam in\nthe chat")
    page.click("#report-send")
    page.wait_for_selector("#toast >> text=Your report was stored")
    assert page.locator("#report-dialog").count() == 0
    # a second report of the same player is refused in the dialog
    page.click("#report-0")
    page.fill("#report-reason", "again")
    page.click("#report-send")
    page.wait_for_selector("#report-error >> text=You have already reported seat 1")
    page.click("#report-cancel")
    assert page.locator("#report-dialog").count() == 0
    assert not errors, errors
    ctx.close()

    store = Store(sqlite_url)
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(select(ReportRow)).all()
    finally:
        store.close()
    assert [(r.room_code, r.seat, r.reported_seat, r.reason) for r in rows] == [
        (code, 2, 1, "Spam in the chat")
    ]
