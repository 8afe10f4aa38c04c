"""The archive: finished games kept in a SQL database (SQLAlchemy Core, Alembic migrations)
after Redis lets them go (see :mod:`api.archive.store`)."""
