"""The kept ``.mat`` files of finished tables (``mat_files``, RULES A4), read many at a time for an export.

A finished match or money session's file is written once when the table ends (``club.export.keep_mat_file``) at the
table's version; :func:`kept_mats` reads the files of a batch of tables in one query, :func:`unkept_mats` lists the
finished tables without a current file (an older database: ``python -m club upgrade`` or the export fills them).
The single-table reads and writes are :func:`storage.books.kept_mat` and :func:`storage.books.keep_mat`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .database import Database

BATCH = 500
"""The most tables one :func:`kept_mats` query names (SQLite allows 32,766 parameters; this keeps a batch small)."""


async def kept_mats(db: Database, match_ids: Sequence[int]) -> dict[int, tuple[str, str]]:
    """``{match id: (file name, .mat text)}`` of those of ``match_ids`` (at most :data:`BATCH`) whose file is kept
    at the table's current version; a table without one (or with one made at an older version) is left out.
    Raises ``ValueError`` for more than :data:`BATCH` ids."""
    if len(match_ids) > BATCH:
        raise ValueError(f"kept_mats reads at most {BATCH} tables at once, not {len(match_ids)}")
    if not match_ids:
        return {}
    marks = ", ".join("?" * len(match_ids))
    rows = await db._fetchall(
        f"SELECT f.match_id, f.name, f.text FROM mat_files f JOIN matches m ON m.id = f.match_id "
        f"WHERE f.match_id IN ({marks}) AND f.version = m.version",
        tuple(match_ids),
    )
    return {row[0]: (row[1], row[2]) for row in rows}


async def unkept_mats(
    db: Database, club_id: int | None = None, *, start: float | None = None, end: float | None = None
) -> list[int]:
    """The ids of the finished tables (status ``over``) with no kept file at their current version, oldest first;
    only club ``club_id``'s with a game finished in ``start <= ended_at < end`` if given (None = unbounded)."""
    sql = (
        "SELECT m.id FROM matches m LEFT JOIN mat_files f ON f.match_id = m.id AND f.version = m.version "
        "WHERE m.status = 'over' AND f.match_id IS NULL"
    )
    params: list[object] = []
    if club_id is not None:
        sql += (
            " AND m.club_id = ? AND EXISTS (SELECT 1 FROM games g WHERE g.match_id = m.id AND g.status = 'over' "
            "AND g.ended_at >= ? AND g.ended_at < ?)"
        )
        params += [club_id, float("-inf") if start is None else start, float("inf") if end is None else end]
    rows = await db._fetchall(sql + " ORDER BY m.id", params)
    return [row[0] for row in rows]
