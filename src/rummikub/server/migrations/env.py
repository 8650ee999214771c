"""Alembic's environment for the server's schema: always run by
:mod:`rummikub.server.storage.schema` with the connection it holds (and its lock), never from
the ``alembic`` command line."""

from __future__ import annotations

from alembic import context

from rummikub.server.storage.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata)
with context.begin_transaction():
    context.run_migrations()
