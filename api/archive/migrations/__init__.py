"""Alembic migrations of the archive's schema (:mod:`api.archive.schema`); :func:`upgrade`
brings a database to the head, run by every process that opens the archive."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine

from api.archive.schema import metadata

#: The folder of ``env.py`` and ``versions/``.
HERE: Final = Path(__file__).resolve().parent


def config(engine: Engine) -> Config:
    """Alembic's configuration on ``engine`` (no ``alembic.ini``: ``env.py`` takes the
    engine from ``attributes``)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["engine"] = engine
    return cfg


def upgrade(engine: Engine) -> None:
    """Migrate the database of ``engine`` to the head revision (a no-op when it is there)."""
    command.upgrade(config(engine), "head")


def differences(engine: Engine) -> list[object]:
    """What the database of ``engine`` lacks or has beyond :data:`~api.archive.schema.metadata`
    (Alembic's comparison; empty when the migrations build the schema)."""
    with engine.connect() as conn:
        found: list[object] = compare_metadata(MigrationContext.configure(conn), metadata)
    return found
