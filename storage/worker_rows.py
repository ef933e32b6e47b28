"""A match's rows for another process: the worker of long CPU work (``club.offload``: the replays of ``/bg export``
and ``club verify``, 30,000 actions for a 300-game session) reads them itself, so that nothing is built or pickled on
the event loop.

:meth:`storage.Database.match_rows` says where the rows are (:class:`MatchRows`, picklable): for an SQLite file, the
file itself — :meth:`MatchRows.read` in the worker opens it read-only and reads every part in one read transaction;
for another backend (PostgreSQL, a database in memory) the rows themselves, read in one snapshot and packed as
``(column names, [values of one row, …])``. Either way the worker gets, by part, rows indexable by column name.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .store import sqlite_errors

PARTS: dict[str, str] = {
    "match": "SELECT * FROM matches WHERE id = ?",
    "actions": "SELECT * FROM actions WHERE match_id = ? ORDER BY seq",
    "games": "SELECT * FROM games WHERE match_id = ? ORDER BY number",
}
"""The parts of a match a worker may read: its ``matches`` row, its log in seq order, its games in order."""

Packed = tuple[tuple[str, ...], list[tuple[Any, ...]]]
"""Rows as ``(column names, [values of one row, …])``: what crosses into the worker process."""


def packed(rows: Sequence[Any]) -> Packed:
    """``rows`` (``sqlite3.Row`` or ``asyncpg.Record``: ``keys()`` and iteration) as :data:`Packed`."""
    if not rows:
        return (), []
    return tuple(rows[0].keys()), [tuple(row) for row in rows]


def check_parts(parts: Sequence[str]) -> tuple[str, ...]:
    """``parts`` as a tuple; ``ValueError`` naming the known parts for one that is not in :data:`PARTS`."""
    unknown = [part for part in parts if part not in PARTS]
    if unknown:
        raise ValueError(f"a match's parts are {', '.join(PARTS)}, not {', '.join(map(repr, unknown))}")
    return tuple(parts)


@dataclass(frozen=True, slots=True)
class MatchRows:
    """Where the rows of ``parts`` of match ``match_id`` are: the SQLite ``file`` the worker reads, or the rows
    ``rows`` already read (by part, :data:`Packed`). Made by :meth:`storage.Database.match_rows`."""

    match_id: int
    parts: tuple[str, ...]
    file: str | None = None
    rows: Mapping[str, Packed] | None = None

    def read(self) -> dict[str, list[Any]]:
        """In the worker: the rows of each part (each row indexable by column name), read in one read transaction
        of the file, or unpacked. Raises :class:`~storage.errors.OperationFailedError` for a file that cannot be
        read (damaged, gone)."""
        if self.rows is not None:
            return {part: [dict(zip(columns, row, strict=True)) for row in values]
                    for part, (columns, values) in self.rows.items()}  # fmt: skip
        assert self.file is not None
        with sqlite_errors():
            conn = sqlite3.connect(f"{Path(self.file).resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
            try:
                conn.row_factory = sqlite3.Row
                conn.execute("BEGIN")  # one read transaction: the parts see one moment
                found = {part: conn.execute(PARTS[part], (self.match_id,)).fetchall() for part in self.parts}
                conn.execute("COMMIT")
                return found
            finally:
                conn.close()
