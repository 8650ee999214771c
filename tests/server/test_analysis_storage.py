"""The analysis of a finished game is stored with the game: a restarted server serves the kept
analysis instead of making it again, and makes it again only when the judging changed. In
process (:mod:`.inproc`): the application started three times on the same database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummikub.server import ServerConfig
from rummikub.server.handlers.analyses import KEPT
from rummikub.server.storage.store import Store

from .helpers import SMALL
from .inproc import create_vs_bots, draw_until_round_over, running

#: 2 deals a position: what is kept matters here, not how well it judges
CONFIG = ServerConfig(analysis_samples=2)


@pytest.mark.asyncio
async def test_the_analysis_is_kept_with_the_game(sqlite_url: str, tmp_path: Path) -> None:
    async with running(tmp_path, db_url=sqlite_url, config=CONFIG) as srv:
        c = await srv.connect()
        code = (await create_vs_bots(c, bots=1, rules=SMALL))["room"]
        await draw_until_round_over(c)
        status, made = await srv.get(f"/api/rooms/{code}/analysis")
        assert status == 200 and made["turns"]
    store = Store(sqlite_url)
    try:
        kept = store.load_analysis(code, KEPT)
        assert kept is not None and json.loads(kept) == made
        assert store.load_analysis(code, "an older judging") is None
        # mark the kept analysis: a restarted server must serve it, not make a new one
        marked = {**made, "kept": True}
        store.save_analysis(code, KEPT, json.dumps(marked))
    finally:
        store.close()
    async with running(tmp_path, db_url=sqlite_url, config=CONFIG) as srv:
        status, served = await srv.get(f"/api/rooms/{code}/analysis")
        assert status == 200 and served == marked
    # an analysis made by another judging is made again (and replaces the kept one)
    store = Store(sqlite_url)
    try:
        store.save_analysis(code, "0", json.dumps(marked))
    finally:
        store.close()
    async with running(tmp_path, db_url=sqlite_url, config=CONFIG) as srv:
        status, again = await srv.get(f"/api/rooms/{code}/analysis")
        assert status == 200 and again == made
    store = Store(sqlite_url)
    try:
        assert json.loads(store.load_analysis(code, KEPT) or "null") == made
    finally:
        store.close()
