"""Alembic's environment: migrates the engine :func:`api.archive.migrations.config` hands over."""

from __future__ import annotations

from alembic import context

from api.archive.schema import metadata

engine = context.config.attributes["engine"]
with engine.begin() as connection:
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()
