"""Schema versions: ``PRAGMA user_version`` says which schema a database file has.

``schema.sql`` is the whole current schema (version :data:`SCHEMA_VERSION`); a new, empty database is created from it
in one step. A database made by an older release is upgraded by running, in order, every step of :data:`MIGRATIONS`
whose version is above its ``user_version``; each step runs in its own transaction together with the
``PRAGMA user_version`` that records it, so a crash during an upgrade leaves the file at the last whole step.

To change the schema: edit ``schema.sql``, raise :data:`SCHEMA_VERSION`, and append ``(new_version, sql)`` to
:data:`MIGRATIONS` that turns the previous version into the new one (``ALTER TABLE ...``, new tables, backfills).
"""

from __future__ import annotations

from importlib import resources

SCHEMA_VERSION = 1
"""The schema version this code writes and reads."""

MIGRATIONS: list[tuple[int, str]] = []
"""Upgrade steps ``(version reached, SQL script)`` in ascending order; version 1 is ``schema.sql`` itself."""


def schema_sql() -> str:
    """The text of ``schema.sql`` (the current schema, version :data:`SCHEMA_VERSION`)."""
    return resources.files(__package__).joinpath("schema.sql").read_text(encoding="utf-8")
