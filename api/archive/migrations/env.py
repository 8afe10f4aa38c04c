"""Alembic's environment: migrates the engine :func:`api.archive.migrations.config` hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text

from api.archive.schema import metadata

#: The PostgreSQL advisory lock that makes processes starting at once migrate one by one.
MIGRATION_LOCK = 6666

engine = context.config.attributes["engine"]
with engine.begin() as connection:
    if connection.dialect.name == "postgresql":
        connection.execute(text(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()
