"""A read-only view of an SQLite club file for a worker process: the queries of :mod:`storage` on one snapshot.

Long reads that build many rows (the all-time export of the books, :mod:`club.records.bundle`) run in a worker
process, which opens the file itself: nothing is read, built or pickled on the bot's event loop, and no thread of
the bot's process holds the GIL meanwhile. :class:`FileSnapshot` is a :class:`~storage.Database` whose reads
(``_fetchall``, ``_fetchone``, ``_fetchvalue``, and so every query built on them: :mod:`storage.books`,
:mod:`storage.matfiles`, ``get_members`` …) run on a plain ``sqlite3`` connection opened read-only, inside one read
transaction: every read sees the same moment, whatever the bot writes meanwhile. It writes nothing.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .database import Database
from .errors import OperationFailedError
from .store import sqlite_errors


class FileSnapshot(Database):
    """The SQLite file at ``path``, read-only, as one snapshot (see the module docstring). Use as ``with
    FileSnapshot(path) as db:``; only reads work (a write raises :class:`~storage.errors.OperationFailedError`).
    Raises :class:`~storage.errors.OperationFailedError` for a file that cannot be read (damaged, gone)."""

    def __init__(self, path: str | Path) -> None:  # no aiosqlite connection, no lock: one reader, no writes
        self.path = Path(path)
        self.alone = None
        with sqlite_errors():
            self._reader = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
            self._reader.row_factory = sqlite3.Row
            self._reader.execute("BEGIN")
            self._reader.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()  # the snapshot starts here

    def __enter__(self) -> FileSnapshot:
        return self

    def __exit__(self, *exc_info) -> None:
        self._reader.close()

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with sqlite_errors():
            return self._reader.execute(sql, params).fetchall()

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        with sqlite_errors():
            return self._reader.execute(sql, params).fetchone()

    async def _fetchvalue(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = await self._fetchone(sql, params)
        if row is None:
            raise OperationFailedError(f"no row from {sql!r}")
        return row[0]
