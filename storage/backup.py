"""Online backup and integrity check of a database file, as functions and as ``python -m storage`` commands.

The backup uses SQLite's backup API through an open connection, so it may run while the bot is using the file
(WAL readers do not block the writer); the copy is a consistent snapshot of the last committed state.
"""

from __future__ import annotations

from pathlib import Path

from .database import Database


async def backup_file(source: str | Path, destination: str | Path) -> Path:
    """Copy the club database at ``source`` to ``destination`` (overwritten) with the online backup API.

    Raises ``FileNotFoundError`` if ``source`` does not exist (a backup never creates an empty database),
    :class:`~storage.errors.SchemaError` if it is not a club database. Returns the destination path.
    """
    source = Path(source)
    if not source.is_file():
        raise FileNotFoundError(f"no database at {source}")
    async with Database.open(source) as database:
        return await database.backup(destination)


async def check_file(path: str | Path) -> list[str]:
    """``PRAGMA integrity_check`` and foreign-key check of the database at ``path``: ``["ok"]`` or the problems.

    ``path`` may be a ``postgresql://…`` URL: then :meth:`storage.pgstore.PgDatabase.integrity_check` (schema
    version and triggers). Raises ``FileNotFoundError`` if there is no file at ``path``."""
    if isinstance(path, str) and path.startswith(("postgresql://", "postgres://")):
        async with Database.open(path) as database:
            return await database.integrity_check()
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no database at {path}")
    async with Database.open(path) as database:
        return await database.integrity_check()
