"""``GET /metrics`` (the Prometheus text format) and ``GET /api/ready``, for a load balancer."""

from __future__ import annotations

import time
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

from .helpers import Client, ServerProcess, create_vs_bots, draw_and_wait, game


def scrape(base: str) -> dict[str, float]:
    with urllib.request.urlopen(f"{base}/metrics", timeout=30) as res:
        assert res.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = res.read().decode()
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            out[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return out


def test_metrics_count_rooms_connections_and_writes(
    sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    base = sqlite_server.base
    with urllib.request.urlopen(f"{base}/api/ready", timeout=30) as res:
        assert res.status == 200
    before = scrape(base)
    assert before["rummikub_connections"] == 0 and before["rummikub_storage_up"] == 1
    c = Client(sqlite_server.ws_url)
    clients.append(c)
    create_vs_bots(c, bots=1)
    state = c.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == s["you"])
    draw_and_wait(c, game(state))
    now = scrape(base)
    assert now["rummikub_rooms{status=playing}"] == 1
    assert now["rummikub_rooms{status=waiting}"] == 0
    assert now["rummikub_connections"] == 1
    assert now["rummikub_events_stored_total"] >= 2  # the start and the draw
    assert now["rummikub_write_batches_total"] >= 1
    assert now["rummikub_write_seconds_count"] == now["rummikub_write_batches_total"]
    c.close()
    clients.remove(c)
    # the server notices the closed connection a moment later
    deadline = time.monotonic() + 10
    while scrape(base)["rummikub_connections"] != 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert scrape(base)["rummikub_connections"] == 0
