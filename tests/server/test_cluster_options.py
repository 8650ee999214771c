"""``rummikub serve --broker``: the options a node of a cluster needs, refused plainly."""

from __future__ import annotations

import pytest

from rummikub.server.storage.startup import BadClusterOptions, check_cluster


def test_a_node_needs_postgresql_and_a_redis_url() -> None:
    check_cluster("sqlite:///x.db", None)  # a server alone: anything goes
    check_cluster("postgresql://u@db/r", "redis://broker:6379/0")
    with pytest.raises(BadClusterOptions, match="--db postgresql://"):
        check_cluster("sqlite:///x.db", "redis://broker:6379/0")
    with pytest.raises(BadClusterOptions, match="--db postgresql://"):
        check_cluster(None, "redis://broker:6379/0")  # the default SQLite file
    with pytest.raises(BadClusterOptions, match="a Redis URL"):
        check_cluster("postgresql://u@db/r", "amqp://u:secret@broker/")
    with pytest.raises(BadClusterOptions) as refused:
        check_cluster("postgresql://u@db/r", "http://u:secret@broker/")
    assert "secret" not in str(refused.value)
