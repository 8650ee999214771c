"""The progress of an analysis being made: ``GET /api/rooms/CODE/analysis/progress`` says
``none`` before it is asked for, ``running`` with the turns judged of all while the review
worker makes it, ``done`` once it is kept (also after a restart: from the database); and the
web replay page shows it as a progress bar while it waits.

The servers here hold every analysis after its first turn until the test creates a file
(``RUMMIKUB_TEST_ANALYSIS_HOLD``, :func:`rummikub.server.work.jobs.review_text`), so that the
``running`` state is seen for sure, however fast the machine."""

from __future__ import annotations

import json
import shutil
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from rummikub.server.work.jobs import ProgressFile, read_progress

from .helpers import SMALL, Client, ServerProcess, create_vs_bots, draw_until_round_over

#: the longest a test waits for the server to get somewhere
PATIENCE = 60.0


def _get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=PATIENCE) as res:
            return res.status, json.loads(res.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _until(what: str, check: Callable[[], Any]) -> Any:
    """Ask ``check`` again (every 0.1 s, up to :data:`PATIENCE`) until it answers truly."""
    deadline = time.monotonic() + PATIENCE
    while True:
        got = check()
        if got:
            return got
        assert time.monotonic() < deadline, f"still not {what}"
        time.sleep(0.1)


@contextmanager
def _held_server(sqlite_url: str) -> Iterator[tuple[ServerProcess, Path, Path]]:
    """A seeded server (quick analyses) whose analyses wait after their first turn until the
    file it yields (the release) is created; and its temporary directory (``TMPDIR``: where
    it keeps its progress files). A short path: the worker's forkserver has a socket there."""
    tmp = Path(tempfile.mkdtemp(prefix="rk-"))
    release = tmp / "release"
    env = {
        "RUMMIKUB_TEST_SEED": "7",
        "RUMMIKUB_ANALYSIS_SAMPLES": "2",
        "RUMMIKUB_TEST_ANALYSIS_HOLD": str(release),
        "TMPDIR": str(tmp),
    }
    srv = ServerProcess(sqlite_url, env=env).start()
    try:
        yield srv, release, tmp
    finally:
        srv.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def _finished_game(srv: ServerProcess, clients: list[Client]) -> str:
    """The code of a (small) game played to its end against one bot."""
    c = Client(srv.ws_url)
    clients.append(c)
    code = str(create_vs_bots(c, bots=1, rules=SMALL)["room"])
    draw_until_round_over(c)
    return code


def _progress_files(tmp: Path) -> list[Path]:
    return [p for d in tmp.glob("rummikub-analyses-*") for p in d.iterdir()]


def test_a_progress_file_is_written_whole_and_not_too_often(tmp_path: Path) -> None:
    path = tmp_path / "progress"
    assert read_progress(str(path)) is None  # nothing told yet
    told = ProgressFile(str(path), every=3600)
    told(1, 10)  # the first at once
    assert read_progress(str(path)) == (1, 10)
    told(2, 10)  # too soon after it
    assert read_progress(str(path)) == (1, 10)
    told(10, 10)  # the last whenever it comes
    assert read_progress(str(path)) == (10, 10)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["progress"]  # no part left over
    ProgressFile(None)(1, 10)  # told nowhere: nothing written, nothing fails
    ProgressFile(str(tmp_path / "gone" / "progress"))(1, 10)  # nor where it cannot be


def test_the_progress_of_an_analysis(sqlite_url: str, clients: list[Client]) -> None:
    with _held_server(sqlite_url) as (srv, release, tmp):
        c = Client(srv.ws_url)
        clients.append(c)
        code = str(create_vs_bots(c, bots=1, rules=SMALL)["room"])
        progress = f"/api/rooms/{code}/analysis/progress"
        # the analysis route's refusals: a game in play, no such game
        status, body = srv.get(progress)
        assert status == 403 and body["code"] == "not-finished"
        status, body = srv.get("/api/rooms/NOSUCH/analysis/progress")
        assert status == 404 and body["code"] == "no-such-room"
        draw_until_round_over(c)
        # asked for often, the progress makes nothing and is charged to no budget (5 new
        # analyses at once): the analysis is still made after it
        for _ in range(8):
            assert srv.get(progress) == (200, {"state": "none"})
        assert _progress_files(tmp) == []

        answer: list[tuple[int, Any]] = []
        asker = threading.Thread(
            target=lambda: answer.append(_get(f"{srv.base}/api/rooms/{code}/analysis"))
        )
        asker.start()
        try:
            seen: list[dict[str, Any]] = []

            def judged_one() -> bool:
                status, p = srv.get(progress)
                assert status == 200, p
                if seen:  # once being made, it is made until it is done (held: not yet)
                    assert p["state"] == "running", (seen, p)
                if p["state"] == "running":
                    assert 0 <= p["done"] <= p["total"] or p["done"] == p["total"] == 0, p
                    seen.append(p)
                return bool(p["state"] == "running" and p["done"] >= 1)

            _until("running", judged_one)
            held = seen[-1]
            # held after its first turn: the worker told the first, of all the turns
            assert held["done"] == 1 and held["total"] >= 2, held
            assert srv.get(progress) == (200, held)
            # told through one file, whole
            files = _progress_files(tmp)
            assert [f.read_text() for f in files] == [f"1 {held['total']}"], files
            release.touch()
        finally:
            release.touch()
            asker.join(PATIENCE)
        assert answer and answer[0][0] == 200, answer
        assert len(answer[0][1]["turns"]) == held["total"]
        assert srv.get(progress) == (200, {"state": "done"})
        assert _progress_files(tmp) == []  # the file went when the analysis landed

        # stopped, the server removes its progress files' directory; restarted, it finds the
        # analysis kept in the database and says it is done
        srv.stop(keep_log=True)
        assert list(tmp.glob("rummikub-analyses-*")) == []
        srv.start()
        assert srv.get(progress) == (200, {"state": "done"})


def test_the_replay_page_shows_the_progress(
    browser: Any, sqlite_url: str, clients: list[Client]
) -> None:
    with _held_server(sqlite_url) as (srv, release, _):
        code = _finished_game(srv, clients)
        ctx = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
        ctx.set_default_timeout(int(PATIENCE * 1000))
        try:
            page = ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{srv.base}/replay/{code}?analyse=1")
            # held after the first turn: the page polls and shows 1 of all the turns
            bar = page.locator('#replay-progress [role="progressbar"][aria-valuenow="1"]')
            bar.wait_for()
            total = srv.get(f"/api/rooms/{code}/analysis/progress")[1]["total"]
            assert bar.get_attribute("aria-valuemin") == "0"
            assert bar.get_attribute("aria-valuemax") == str(total)
            assert bar.get_attribute("aria-valuetext") == f"1 of {total} turns judged"
            expect(page.locator("#replay-progress")).to_contain_text(
                f"Analysing the game… 1/{total} turns"
            )
            assert page.locator("#replay-analyse").is_disabled()
            release.touch()
            page.wait_for_selector(".review-summary")
            assert page.locator("#replay-progress").count() == 0
            # the polling stopped with the answer: nothing asked for after the review came
            # (a poller left running would show here only if it fired before the end)
            landed = page.evaluate("performance.now()")
            expect(page.locator(".review-summary tbody tr")).to_have_count(2)
            later = page.evaluate(
                """(t) => performance.getEntriesByType("resource")
                    .filter((e) => e.name.endsWith("/analysis/progress") && e.startTime > t)
                    .length""",
                landed,
            )
            assert later == 0
            assert not errors, errors
        finally:
            release.touch()
            ctx.close()
