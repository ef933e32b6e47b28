"""The club database on PostgreSQL (asyncpg): the same :class:`~storage.Database` interface, for bots that outgrow
one process. ``Database.open("postgresql://…")`` returns a :class:`PgDatabase`.

Every statement is the SQLite one translated by :mod:`storage.pgdialect` (``?`` → ``$n`` …); rows come back as
``asyncpg.Record`` (by index and by column name, like ``sqlite3.Row``). What differs, and how:

- **Connections**: a pool, not one connection; a write transaction (:meth:`PgStore.transaction`) holds one
  connection and starts with ``pg_advisory_xact_lock`` on :data:`WRITE_LOCK` — one writer at a time in the whole
  database, across processes, as SQLite's ``BEGIN IMMEDIATE`` gives — so read-then-write steps inside a
  transaction (the tallies' running sums) stay exact. The versioned commit (``UPDATE … WHERE version = ?``) is what
  makes two processes acting on the same match safe: exactly one commits, the other gets
  :class:`~storage.errors.VersionConflictError` with nothing written.
- **Snapshots** (:meth:`PgStore.snapshot`, :meth:`PgDatabase.read`): a ``REPEATABLE READ READ ONLY`` transaction.
- **Numbers**: ``sum()`` of a ``BIGINT`` is ``numeric`` in PostgreSQL; it is decoded to ``int`` (``float`` if it
  has a fraction), as SQLite gives it.
- **Errors**: storage's own (:mod:`storage.errors`, :func:`pg_errors`), as on SQLite: a unique key
  :class:`~storage.errors.DuplicateError`, another refused write (a check, an append-only trigger)
  :class:`~storage.errors.ConstraintError`, any other failure :class:`~storage.errors.OperationFailedError`.
- **Schema**: table ``bgclub_schema`` holds the version (SQLite: ``PRAGMA user_version``); :func:`pg_schema` and
  :func:`pg_migrations` of :mod:`storage.pgdialect`, under an advisory lock (two processes starting together
  migrate once).
- **The scheduler** (:meth:`PgDatabase.scheduler_lease`, :mod:`storage.lease`): a session-level advisory lock on a
  connection of its own, so that one bot process runs the reminder loop at a time.
"""

from __future__ import annotations

import asyncio
import contextvars
import re
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import asyncpg

from .database import Database
from .errors import ConstraintError, DuplicateError, OperationFailedError, SchemaError, StorageError
from .lease import AdvisoryLease, Lease
from .migrations import SCHEMA_VERSION, migrate_or_close
from .pgdialect import pg_migrations, pg_schema, to_postgres
from .pgerrors import unavailable
from .store import Store, Tx

WRITE_LOCK = 0x6267636C7562  # "bgclub"
"""The advisory lock every write transaction takes (one writer at a time, like SQLite's ``BEGIN IMMEDIATE``)."""

MIGRATE_LOCK = 0x6267636C7563
"""The advisory lock held while the schema is created or upgraded."""

_BEGIN_WRITE = f"BEGIN; SELECT pg_advisory_xact_lock({WRITE_LOCK})"


@contextmanager
def pg_errors() -> Iterator[None]:
    """Raise PostgreSQL's exceptions in the block as storage's own, as :func:`storage.store.sqlite_errors` does
    SQLite's: a unique key :class:`DuplicateError`, another refused write (a check, a foreign key, an append-only
    trigger's ``RAISE``) :class:`ConstraintError`, any other error of the server :class:`OperationFailedError`."""
    try:
        yield
    except asyncpg.UniqueViolationError as error:
        raise DuplicateError(str(error)) from error
    except (asyncpg.IntegrityConstraintViolationError, asyncpg.RaiseError) as error:
        raise ConstraintError(str(error)) from error
    except asyncpg.PostgresError as error:
        raise OperationFailedError(str(error)) from error


def is_url(target: object) -> bool:
    """Whether ``target`` names a PostgreSQL database (``postgresql://…`` or ``postgres://…``) rather than a file."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def _numeric(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        return float(text)


async def _setup(conn: asyncpg.Connection) -> None:
    await conn.set_type_codec("numeric", encoder=str, decoder=_numeric, schema="pg_catalog", format="text")


async def _keep(conn: asyncpg.Connection) -> None:
    """The pool's reset of a connection handed back: only a ``ROLLBACK`` of a transaction left open (a cancelled
    task); a connection of this store keeps no other session state (transaction locks end with their transaction),
    and skipping asyncpg's reset query saves a round trip per statement."""
    if conn.is_in_transaction():
        await conn.execute("ROLLBACK")


def _count(status: str) -> int:
    """The rows a statement changed, from asyncpg's status text (``UPDATE 1``, ``INSERT 0 3``, ``DELETE 0``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PgTx(Tx):
    """The statements of one open transaction (or snapshot) on one pooled connection — :class:`storage.store.Tx`'s
    interface: SQL written for SQLite, translated (:func:`~storage.pgdialect.to_postgres`)."""

    _conn: asyncpg.Connection

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the number of rows it changed. Raises :class:`ConstraintError` when the
        schema refuses it (:func:`pg_errors`)."""
        with pg_errors():
            return _count(await self._conn.execute(to_postgres(sql), *params))

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one INSERT into a table with an ``id`` column; returns the new id."""
        with pg_errors():
            return await self._conn.fetchval(to_postgres(sql) + " RETURNING id", *params)

    async def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        """Run one statement for every parameter tuple."""
        rows = [tuple(each) for each in params]
        if not rows:
            return
        with pg_errors():
            await self._conn.executemany(to_postgres(sql), rows)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[asyncpg.Record]:
        """Run a query; returns all its rows."""
        with pg_errors():
            return await self._conn.fetch(to_postgres(sql), *params)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> asyncpg.Record | None:
        """Run a query; returns its first row or None."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None


_SNAPSHOT: contextvars.ContextVar[tuple[object, PgTx, asyncio.Lock] | None] = contextvars.ContextVar(
    "pg_snapshot", default=None
)
"""The store and snapshot transaction the running task holds (its reads then run inside it, one at a time: tasks it
starts inherit the snapshot, and a connection runs one statement at a time)."""


class PgStore(Store):
    """The one action store (:class:`storage.store.Store`) on an asyncpg pool: every operation of the store with
    the same meaning; only transactions, snapshots and reads are PostgreSQL's (see the module docstring)."""

    dialect = "postgresql"

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @staticmethod
    def json_int(column: str, key: str) -> str:
        """PostgreSQL's expression of the whole number under ``key`` of the JSON text in ``column``."""
        return f"(({column})::jsonb ->> '{key}')::bigint"

    @staticmethod
    def json_text(column: str, path: str) -> str:
        """PostgreSQL's expression of the text under the dotted ``path`` of the JSON text in ``column``."""
        return f"(({column})::jsonb #>> '{{{','.join(path.split('.'))}}}')"

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgTx]:
        """``async with store.transaction() as tx:`` — one write transaction on a connection of its own, taking the
        database's write lock first (:data:`WRITE_LOCK`); committed at the end of the block, rolled back if it
        raises."""
        async with self._pool.acquire() as conn:
            with pg_errors():
                await conn.execute(_BEGIN_WRITE)  # one round trip: BEGIN and the write lock
                try:
                    yield PgTx(conn)
                except BaseException:
                    if not conn.is_closed():
                        await conn.execute("ROLLBACK")
                    raise
                await conn.execute("COMMIT")

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[None]:
        """``async with store.snapshot():`` — every read of this task in the block sees one snapshot (a
        ``REPEATABLE READ READ ONLY`` transaction); nested, it is the outer one."""
        held = _SNAPSHOT.get()
        if held is not None and held[0] is self:
            yield
            return
        async with self.reading() as tx:
            token = _SNAPSHOT.set((self, tx, asyncio.Lock()))
            try:
                yield
            finally:
                _SNAPSHOT.reset(token)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[PgTx]:
        """One read-only ``REPEATABLE READ`` transaction on a connection of its own, yielding its statements."""
        with pg_errors():
            async with self._pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
                yield PgTx(conn)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[asyncpg.Record]:
        """One query (inside this task's :meth:`snapshot` if it holds one); all its rows."""
        held = _SNAPSHOT.get()
        if held is not None and held[0] is self:
            async with held[2]:
                return await held[1].fetchall(sql, params)
        with pg_errors():
            return await self._pool.fetch(to_postgres(sql), *params)


class PgDatabase(Database):
    """An open club database on PostgreSQL: :class:`storage.Database`'s whole interface (see the module
    docstring). Open with ``Database.open(url)`` (or :meth:`connect`); close with :meth:`close`."""

    dialect = "postgresql"

    store: PgStore

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self._closed = False
        self.url = url
        self.path = None
        self.store = PgStore(pool)
        self._leases: list[AdvisoryLease] = []

    @classmethod
    async def connect(cls, url: str, *, min_size: int = 1, max_size: int = 8) -> PgDatabase:
        """Connect to ``url`` (a pool of ``min_size`` … ``max_size`` connections), creating or upgrading the schema.
        Raises :class:`~storage.errors.SchemaError` for a database of another program or of a newer schema,
        :class:`~storage.errors.DatabaseUnavailableError` (one line, :mod:`storage.pgerrors`) when the server cannot
        be reached, refuses the login or the role may not create the tables."""
        try:
            pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size, init=_setup, reset=_keep)
            return await migrate_or_close(cls(pool, url), pool.close)
        except (OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise unavailable(error, url) or error from error

    async def close(self) -> None:
        """Close every connection of the pool (idempotent)."""
        if self._closed:
            return
        self._closed = True
        for lease in self._leases:
            await lease.release()
        await self._pool.close()

    def scheduler_lease(self) -> Lease:
        """The reminder scheduler's lease (:mod:`storage.lease`): a session-level advisory lock on
        a connection of its own, so that one bot process on this database runs the scheduler at a time. Released by
        :meth:`AdvisoryLease.release`, by :meth:`close`, or by the death of the process."""
        lease = AdvisoryLease(self.url)
        self._leases.append(lease)
        return lease

    async def _migrate(self) -> None:
        async with self._pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATE_LOCK)  # one process migrates at a time
            try:
                await conn.execute("CREATE TABLE IF NOT EXISTS bgclub_schema (version INTEGER NOT NULL)")
                version = await conn.fetchval("SELECT max(version) FROM bgclub_schema") or 0
                if version > SCHEMA_VERSION:
                    raise SchemaError(
                        f"the database has schema version {version}, newer than this code's {SCHEMA_VERSION}; "
                        "upgrade the bot before opening it"
                    )
                if version == 0:
                    if await conn.fetchval("SELECT to_regclass('matches') IS NOT NULL"):
                        raise SchemaError("the database has a matches table but no bgclub_schema: not a club database")
                    async with conn.transaction():
                        await conn.execute(pg_schema())
                        await conn.execute("INSERT INTO bgclub_schema (version) VALUES ($1)", SCHEMA_VERSION)
                    return
                for target, script in pg_migrations():
                    if target > version:
                        async with conn.transaction():
                            await conn.execute(script)
                            await conn.execute("INSERT INTO bgclub_schema (version) VALUES ($1)", target)
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATE_LOCK)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[PgTx]:
        """``async with db.read() as tx:`` — one read snapshot (``REPEATABLE READ READ ONLY``)."""
        async with self.store.reading() as tx:
            yield tx

    async def user_version(self) -> int:
        """The schema version of the database (table ``bgclub_schema``)."""
        return await self._fetchvalue("SELECT max(version) FROM bgclub_schema")

    async def integrity_check(self) -> list[str]:
        """``["ok"]`` when the schema is this code's and every trigger of the schema (the append-only logs, results,
        corrections and sheets) is in place, else the problems.
        (PostgreSQL checks foreign keys and constraints on every write; there is no file to scan.)"""
        problems = []
        version = await self.user_version()
        if version != SCHEMA_VERSION:
            problems.append(f"schema version {version}, not {SCHEMA_VERSION}")
        rows = await self._fetchall("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        names = {row[0] for row in rows}
        for trigger in sorted(set(re.findall(r"CREATE TRIGGER (\w+)", pg_schema())) - names):
            problems.append(f"the trigger {trigger} is missing: its table is no longer append-only")
        return problems or ["ok"]

    async def backup(self, destination) -> Any:
        """Not for PostgreSQL: raises :class:`~storage.errors.StorageError` saying to use ``pg_dump``."""
        raise StorageError(
            "a PostgreSQL database is backed up with the server's tools: pg_dump --format=custom DATABASE > FILE"
        )

    async def reset_identities(self) -> None:
        """Set every identity column's next value past the largest id stored (after rows were copied in with their
        own ids, :mod:`storage.migrate`)."""
        rows = await self._fetchall(
            "SELECT table_name FROM information_schema.columns WHERE column_name = 'id' AND is_identity = 'YES' "
            "AND table_schema = current_schema()"
        )
        async with self.transaction() as tx:
            for row in rows:
                table = row[0]
                await tx.fetchone(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), coalesce(max(id), 0) + 1, false) "
                    f"FROM {table}"
                )

    def __repr__(self) -> str:
        return f"PgDatabase({self.url.split('@')[-1]!r})"
