"""``GET /metrics`` (the Prometheus text format) and ``GET /api/ready``, for a load balancer."""

from __future__ import annotations

import asyncio
import time

import pytest
from prometheus_client.parser import text_string_to_metric_families

from .inproc import Server, create_vs_bots, draw_and_wait, game


async def scrape(server: Server) -> dict[str, float]:
    res = await server.request("GET", "/metrics")
    assert res.headers["Content-Type"].startswith("text/plain; version=0.0.4")
    text = res.text
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            out[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return out


@pytest.mark.asyncio
async def test_metrics_count_rooms_connections_and_writes(sqlite_app: Server) -> None:
    res = await sqlite_app.request("GET", "/api/ready")
    assert res.status_code == 200
    before = await scrape(sqlite_app)
    assert before["rummikub_connections"] == 0 and before["rummikub_storage_up"] == 1
    c = await sqlite_app.connect()
    await create_vs_bots(c, bots=1)
    state = await c.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == s["you"])
    await draw_and_wait(c, game(state))
    now = await scrape(sqlite_app)
    assert now["rummikub_rooms{status=playing}"] == 1
    assert now["rummikub_rooms{status=waiting}"] == 0
    assert now["rummikub_connections"] == 1
    assert now["rummikub_events_stored_total"] >= 2  # the start and the draw
    assert now["rummikub_write_batches_total"] >= 1
    assert now["rummikub_write_seconds_count"] == now["rummikub_write_batches_total"]
    await c.close()
    # the server notices the closed connection a moment later
    deadline = time.monotonic() + 10
    while (await scrape(sqlite_app))["rummikub_connections"] != 0 and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert (await scrape(sqlite_app))["rummikub_connections"] == 0
