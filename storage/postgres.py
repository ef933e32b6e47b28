"""PostgreSQL on asyncpg: the versioned action log of a table and the leader election
that let two bot processes (two shards) share one database.

The second storage backend behind the whole interface of :class:`storage.Database` is :mod:`storage.pgstore`
(``Database.open("postgresql://…")``); this module keeps the two multi-process mechanisms of the groundwork, with
their own tables and migrations:

- :class:`PgLog` — a table row (``kind``, ``id``, ``state``, ``version``) and its append-only log (a trigger refuses
  UPDATE and DELETE, as on SQLite). :meth:`PgLog.commit` appends actions and writes the state in one transaction
  only ``WHERE version = $expected``: of two processes acting on the same version, exactly one commits and the other
  gets :class:`~storage.errors.VersionConflictError` with nothing written (``tests/test_postgres.py`` races two
  processes over 1,000 trials: none applied twice, none lost).
- :meth:`PgLog.claim_due` — due reminders taken with ``FOR UPDATE SKIP LOCKED`` and marked sent in the same
  statement, so each is sent by exactly one process; :meth:`PgLog.leader` — a session-level advisory lock, so that
  exactly one process runs the reminder scheduler at a time (another takes over when it dies: the lock goes with its
  connection).

Migrations: ``schema_version`` holds the version; :data:`PG_MIGRATIONS` are applied in order, each in its own
transaction, like ``PRAGMA user_version`` and :data:`storage.migrations.MIGRATIONS` on SQLite.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import asyncpg

from .errors import SchemaError, VersionConflictError
from .migrations import migrate_or_close
from .records import dumps

PG_SCHEMA_V1 = """
CREATE TABLE tables (
    kind    TEXT    NOT NULL CHECK (kind IN ('match', 'money', 'chouette')),
    id      BIGINT  NOT NULL,
    state   JSONB   NOT NULL,
    version INTEGER NOT NULL CHECK (version >= 1),
    PRIMARY KEY (kind, id)
);
CREATE TABLE table_actions (
    kind      TEXT    NOT NULL,
    table_id  BIGINT  NOT NULL,
    seq       INTEGER NOT NULL CHECK (seq >= 1),
    member_id BIGINT,
    action    TEXT    NOT NULL,
    args      JSONB   NOT NULL DEFAULT '{}',
    at        DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (kind, table_id, seq),
    FOREIGN KEY (kind, table_id) REFERENCES tables (kind, id)
);
CREATE INDEX table_actions_member ON table_actions (member_id) WHERE member_id IS NOT NULL;
CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the action log is append-only: actions cannot be changed or deleted';
END $$;
CREATE TRIGGER table_actions_append_only BEFORE UPDATE OR DELETE ON table_actions
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TABLE reminders (
    id       BIGSERIAL PRIMARY KEY,
    kind     TEXT    NOT NULL,
    table_id BIGINT  NOT NULL,
    due_at   DOUBLE PRECISION NOT NULL,
    sent_at  DOUBLE PRECISION,
    sent_by  TEXT
);
CREATE INDEX reminders_due ON reminders (due_at) WHERE sent_at IS NULL;
"""

PG_MIGRATIONS: list[tuple[int, str]] = [(1, PG_SCHEMA_V1)]
"""``(version reached, SQL)`` in ascending order."""

PG_SCHEMA_VERSION = PG_MIGRATIONS[-1][0]
"""The PostgreSQL schema version this code writes and reads."""


@dataclass(frozen=True, slots=True)
class PgAction:
    """One logged action of a table: ``seq``, who (``member_id``, None = the club), ``action`` and ``args``, when."""

    seq: int
    member_id: int | None
    action: str
    args: dict
    at: float


class PgLog:
    """Tables, their logs and reminders in one PostgreSQL database (see the module docstring).

    Open with ``await PgLog.open(url)`` (``url`` = ``postgresql://…``); close with :meth:`close`."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = 4) -> PgLog:
        """Connect to ``url`` and bring the schema up to :data:`PG_SCHEMA_VERSION`. Raises
        :class:`~storage.errors.SchemaError` for a database newer than this code."""
        pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size)
        return await migrate_or_close(cls(pool), pool.close)

    async def close(self) -> None:
        """Close every connection."""
        await self._pool.close()

    async def _migrate(self) -> None:
        async with self._pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock(7130)")  # one process migrates at a time
            try:
                await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                version = await conn.fetchval("SELECT max(version) FROM schema_version") or 0
                if version > PG_SCHEMA_VERSION:
                    raise SchemaError(f"the database has schema version {version}, newer than {PG_SCHEMA_VERSION}")
                for target, script in PG_MIGRATIONS:
                    if target > version:
                        async with conn.transaction():
                            await conn.execute(script)
                            await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", target)
            finally:
                await conn.execute("SELECT pg_advisory_unlock(7130)")

    async def schema_version(self) -> int:
        """The schema version of the database."""
        return await self._pool.fetchval("SELECT max(version) FROM schema_version")

    async def create(self, kind: str, table_id: int, state: dict, action: str, member_id: int | None, at: float):
        """A new table at version 1 with its first action."""
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO tables (kind, id, state, version) VALUES ($1, $2, $3::jsonb, 1)", kind, table_id,
                dumps(state),
            )  # fmt: skip
            await conn.execute(
                "INSERT INTO table_actions (kind, table_id, seq, member_id, action, args, at) "
                "VALUES ($1, $2, 1, $3, $4, '{}', $5)",
                kind, table_id, member_id, action, float(at),
            )  # fmt: skip

    async def load(self, kind: str, table_id: int) -> tuple[dict, int] | None:
        """``(state, version)`` of a table, or None."""
        row = await self._pool.fetchrow("SELECT state, version FROM tables WHERE kind = $1 AND id = $2", kind, table_id)
        return None if row is None else (json.loads(row[0]), row[1])

    async def commit(
        self,
        kind: str,
        table_id: int,
        expected_version: int,
        state: dict,
        actions: Sequence[tuple[int | None, str, dict]],
        at: float,
    ) -> int:
        """Append ``actions`` (``(member_id, action, args)``, seq ``expected_version + 1`` …) and write ``state``, in
        one transaction, only if the table is still at ``expected_version``; returns the new version. Raises
        :class:`~storage.errors.VersionConflictError` (nothing written) when another writer got there first,
        ``ValueError`` without an action."""
        if not actions:
            raise ValueError("a commit must log at least one action: every change of state is in the log")
        new_version = expected_version + len(actions)
        async with self._pool.acquire() as conn, conn.transaction():
            status = await conn.execute(
                "UPDATE tables SET state = $1::jsonb, version = $2 WHERE kind = $3 AND id = $4 AND version = $5",
                dumps(state), new_version, kind, table_id, expected_version,
            )  # fmt: skip
            if status != "UPDATE 1":
                actual = await conn.fetchval("SELECT version FROM tables WHERE kind = $1 AND id = $2", kind, table_id)
                raise VersionConflictError(table_id, expected_version, actual)
            await conn.executemany(
                "INSERT INTO table_actions (kind, table_id, seq, member_id, action, args, at) "
                "VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)",
                [(kind, table_id, expected_version + i, member, name, dumps(args), float(at))
                 for i, (member, name, args) in enumerate(actions, 1)],
            )  # fmt: skip
        return new_version

    async def actions(self, kind: str, table_id: int) -> list[PgAction]:
        """The log of a table, in order."""
        rows = await self._pool.fetch(
            "SELECT seq, member_id, action, args, at FROM table_actions WHERE kind = $1 AND table_id = $2 ORDER BY seq",
            kind, table_id,
        )  # fmt: skip
        return [PgAction(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    # -- reminders and the scheduler's leader ------------------------------------------------------------------------
    async def add_reminder(self, kind: str, table_id: int, due_at: float) -> int:
        """A reminder of a table due at ``due_at``; returns its id."""
        return await self._pool.fetchval(
            "INSERT INTO reminders (kind, table_id, due_at) VALUES ($1, $2, $3) RETURNING id", kind, table_id,
            float(due_at),
        )  # fmt: skip

    async def claim_due(self, now: float, by: str, limit: int = 50) -> list[int]:
        """Take up to ``limit`` reminders due at ``now`` and not yet sent, marked sent by ``by`` in the same
        statement: rows another process is taking are skipped (``FOR UPDATE SKIP LOCKED``), so every reminder is
        claimed once. Returns the ids claimed (to send)."""
        rows = await self._pool.fetch(
            "UPDATE reminders SET sent_at = $1, sent_by = $2 WHERE id IN (SELECT id FROM reminders "
            "WHERE sent_at IS NULL AND due_at <= $1 ORDER BY due_at, id LIMIT $3 FOR UPDATE SKIP LOCKED) RETURNING id",
            float(now), by, int(limit),
        )  # fmt: skip
        return sorted(row[0] for row in rows)

    async def leader(self, name: str = "scheduler") -> Leadership | None:
        """Try to become the one process that runs ``name`` (a session-level advisory lock on a connection of its
        own). Returns a :class:`Leadership` to hold (and :meth:`Leadership.release`), or None when another process
        leads."""
        conn = await self._pool.acquire()
        key = int.from_bytes(name.encode()[:8].ljust(8, b"\0"), "big", signed=True)
        if await conn.fetchval("SELECT pg_try_advisory_lock($1)", key):
            return Leadership(self._pool, conn, key)
        await self._pool.release(conn)
        return None


class Leadership:
    """The advisory lock of a leader (see :meth:`PgLog.leader`): held until :meth:`release` or until its process
    dies (PostgreSQL frees it with the connection)."""

    def __init__(self, pool: asyncpg.Pool, conn, key: int) -> None:
        self._pool, self._conn, self._key = pool, conn, key

    async def release(self) -> None:
        """Give the lead up (another process may take it)."""
        try:
            await self._conn.execute("SELECT pg_advisory_unlock($1)", self._key)
        finally:
            await self._pool.release(self._conn)
