"""The server's metrics in the Prometheus text format (``GET /metrics``), with the
``prometheus_client`` library: what a load balancer's dashboard and alerts need.

=====================================  =========================================================
metric                                 what
=====================================  =========================================================
``rummikub_rooms{status}``             rooms this server runs, by status (waiting, playing,
                                       finished and still in memory)
``rummikub_rooms_damaged``             games that could not be restored
``rummikub_connections``               open WebSocket connections
``rummikub_events_stored_total``       events stored (every accepted action, chat line, start
                                       and round end): its rate is the actions per second
``rummikub_write_batches_total``       group-commit transactions
``rummikub_write_seconds``             histogram of the time one group commit took
``rummikub_storage_up``                1 while the database takes writes, 0 while it is down
``rummikub_jobs_total{pool}``          jobs the worker processes ran (pools: ``bot`` for bot
                                       moves and hints, ``review`` for analyses, ``assistant``)
``rummikub_jobs_stopped_total{pool}``  jobs stopped at their hard time limit
``rummikub_jobs_refused_total{pool}``  jobs refused: their owner (room, address) or the pool
                                       had as many waiting as allowed
``rummikub_jobs_running{pool}``        jobs running now
``rummikub_jobs_waiting{pool}``        jobs waiting for a worker
=====================================  =========================================================

A node of a cluster (``--broker``) has these too:

=====================================  =========================================================
``rummikub_broker_published_total``    messages this node published to the broker
``rummikub_broker_received_total``     messages this node received from the broker
``rummikub_connections_proxied``       this node's clients forwarded to other nodes' rooms
``rummikub_connections_remote``        other nodes' clients in this node's rooms
``rummikub_takeovers_total``           rooms this node took over from nodes that died
``rummikub_rooms_dropped_total``       rooms this node stopped running (lease lost, cut off)
``rummikub_fenced_writes_total``       writes refused: the node no longer held the lease
``rummikub_cluster_healthy``           1 while this node renews its leases
=====================================  =========================================================
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

__all__ = ["CONTENT_TYPE", "Metrics"]

#: the media type of the text format
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
#: the buckets of the write histogram, in seconds
WRITE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class _Now(Collector):
    """The values read from the server at the moment of the scrape."""

    def __init__(self, read: Callable[[], dict[str, Any]]) -> None:
        self.read = read

    def collect(self) -> Iterator[Metric]:
        now = self.read()
        rooms = GaugeMetricFamily("rummikub_rooms", "Rooms this server runs.", labels=["status"])
        for status in ("waiting", "playing", "finished"):
            rooms.add_metric([status], now["rooms"].get(status, 0))
        yield rooms
        yield GaugeMetricFamily(
            "rummikub_rooms_damaged", "Games that could not be restored.", value=now["damaged"]
        )
        yield GaugeMetricFamily(
            "rummikub_connections", "Open WebSocket connections.", value=now["connections"]
        )
        yield CounterMetricFamily(
            "rummikub_events_stored", "Events stored (actions, chat, starts, round ends).",
            value=now["events"],
        )  # fmt: skip
        yield CounterMetricFamily(
            "rummikub_write_batches", "Group-commit transactions.", value=now["batches"]
        )
        yield GaugeMetricFamily(
            "rummikub_storage_up", "1 while the database takes writes.", value=now["storage_up"]
        )
        yield from _pools(now.get("pools", {}))
        cluster = now.get("cluster")
        if cluster is not None:
            yield from _cluster(cluster)


#: the metrics of the worker pools: key, name, help, counter (or gauge)
POOLS = (
    ("done", "jobs", "Jobs the worker processes ran.", True),
    ("stopped", "jobs_stopped", "Jobs stopped at their hard time limit.", True),
    ("refused", "jobs_refused", "Jobs refused: their owner or the pool had too many.", True),
    ("running", "jobs_running", "Jobs running now.", False),
    ("waiting", "jobs_waiting", "Jobs waiting for a worker.", False),
)


def _pools(pools: dict[str, dict[str, int]]) -> Iterator[Metric]:
    for key, name, text, counter in POOLS:
        kind = CounterMetricFamily if counter else GaugeMetricFamily
        family = kind(f"rummikub_{name}", text, labels=["pool"])
        for pool, values in pools.items():
            family.add_metric([pool], values[key])
        yield family


#: the metrics of a cluster node: name, help, counter (or gauge)
CLUSTER = (
    ("broker_published", "Messages published to the broker.", True),
    ("broker_received", "Messages received from the broker.", True),
    ("connections_proxied", "This node's clients forwarded to other nodes' rooms.", False),
    ("connections_remote", "Other nodes' clients in this node's rooms.", False),
    ("takeovers", "Rooms taken over from nodes that died.", True),
    ("rooms_dropped", "Rooms this node stopped running (lease lost, cut off).", True),
    ("fenced_writes", "Writes refused: the node no longer held the room's lease.", True),
    ("cluster_healthy", "1 while this node renews its leases.", False),
)


def _cluster(values: dict[str, float]) -> Iterator[Metric]:
    for name, text, counter in CLUSTER:
        kind = CounterMetricFamily if counter else GaugeMetricFamily
        yield kind(f"rummikub_{name}", text, value=values[name])


class Metrics:
    """One server's metrics; ``read`` gives the values of the moment (see :class:`_Now`)."""

    def __init__(self, read: Callable[[], dict[str, Any]]) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.write_seconds = Histogram(
            "rummikub_write_seconds",
            "Seconds one group commit took.",
            buckets=WRITE_BUCKETS,
            registry=self.registry,
        )
        self.registry.register(_Now(read))

    def committed(self, seconds: float) -> None:
        """A group commit took ``seconds``."""
        self.write_seconds.observe(seconds)

    def text(self) -> bytes:
        return generate_latest(self.registry)
