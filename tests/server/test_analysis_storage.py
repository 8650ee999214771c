"""The analysis of a finished game is stored with the game: a restarted server serves the kept
analysis instead of making it again, and makes it again only when the judging changed."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from rummikub.analysis import VERSION
from rummikub.server.storage.store import Store

from .helpers import Client, ServerProcess, create_vs_bots, draw_until_round_over


def _get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=60) as res:
            return res.status, json.loads(res.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_the_analysis_is_kept_with_the_game(sqlite_url: str, clients: list[Client]) -> None:
    # 2 deals a position: what is kept matters here, not how well it judges
    env = {"RUMMIKUB_TEST_SEED": "7", "RUMMIKUB_TEST_ANALYSIS_SAMPLES": "2"}
    srv = ServerProcess(sqlite_url, env=env).start()
    try:
        c = Client(srv.ws_url)
        clients.append(c)
        code = create_vs_bots(c, bots=1)["room"]
        draw_until_round_over(c)
        status, made = _get(f"{srv.base}/api/rooms/{code}/analysis")
        assert status == 200 and made["turns"]
        store = Store(sqlite_url)
        try:
            kept = store.load_analysis(code, VERSION)
            assert kept is not None and json.loads(kept) == made
            assert store.load_analysis(code, "an older judging") is None
            # mark the kept analysis: a restarted server must serve it, not make a new one
            marked = {**made, "kept": True}
            store.save_analysis(code, VERSION, json.dumps(marked))
        finally:
            store.close()
        srv.stop()
        srv.start()
        status, served = _get(f"{srv.base}/api/rooms/{code}/analysis")
        assert status == 200 and served == marked
        # an analysis made by another judging is made again (and replaces the kept one)
        store = Store(sqlite_url)
        try:
            store.save_analysis(code, "0", json.dumps(marked))
        finally:
            store.close()
        srv.stop()
        srv.start()
        status, again = _get(f"{srv.base}/api/rooms/{code}/analysis")
        assert status == 200 and again == made
        store = Store(sqlite_url)
        try:
            assert json.loads(store.load_analysis(code, VERSION) or "null") == made
        finally:
            store.close()
    finally:
        srv.stop()
