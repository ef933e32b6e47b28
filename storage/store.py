"""The one action store: the append-only log, versioned commits, dice, deadlines and messages of every table.

A *subject* is ``(kind, id)``: ``("match", 7)`` (a match or money session) or ``("chouette", 7)``. The ids of the two
kinds overlap and are baked into posted buttons and ledger references, so they are never renumbered; every call here
names the kind. Today's tables stay behind the store (a :class:`Kind` says which table holds what); the same code
path serves both kinds:

===========================  ===================================================================================
operation                    what it does (all SQL of these paths is in this module, in portable SQL)
===========================  ===================================================================================
``transaction()``            one write transaction (``BEGIN IMMEDIATE`` on SQLite) yielding a :class:`Tx`
``create(kind, row, entry)`` insert a subject at version 1 with its first logged action; returns its id
``commit(subject, …)``       the versioned commit: ``UPDATE … SET …, version = new WHERE id = ? AND version = ?``
                             (else :class:`~storage.errors.VersionConflictError`, nothing written), then
                             the kind's own writes (``then(tx, id)``), then the actions as seq ``expected + 1 …``
``log(subject)``             the log rows in seq order (one game's only, for matches, if asked)
``write_dice`` / ``dice``    a dice series (RULES A1): chouettes' in ``chouette_dice``; a match's dice live in
                             its ``games`` rows (series = game number), read through the same ``dice``
``replace_deadlines``        a subject's deadlines, replaced in the commit's transaction (RULES A2)
``deadlines`` / ``due`` …    read them; ``mark_deadline`` records reminders and expiries only while unchanged
``latest_time()``            the latest time a club's clock stored (where a restarted manual clock starts)
``add_message`` …            the Discord messages that show a subject (ids only), and which subject a message
                             shows
===========================  ===================================================================================

The log is append-only: nothing here updates or deletes an ``actions`` / ``chouette_actions`` row (the schema's
triggers refuse it too), and replay accepts every kind ever written.

The second backend, :class:`storage.pgstore.PgStore` (PostgreSQL), runs every operation here unchanged: statements
use ``?`` placeholders (translated to ``$n`` by :mod:`storage.pgdialect`), ``ON CONFLICT … DO UPDATE``/``DO
NOTHING``, which both dialects have, and :meth:`Store.json_int` where they differ; column and table names come from
:data:`KINDS`, never from input. It replaces only ``transaction()`` (a write transaction), ``snapshot()`` and the
reads.
"""

from __future__ import annotations

import asyncio
import contextvars
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any

import aiosqlite

from .errors import ConstraintError, DuplicateError, OperationFailedError, VersionConflictError
from .notices import record_in as record_notice
from .records import MessageWrite, dumps

LOG_ROWS = 200
"""The most log rows one INSERT writes (a commit of more actions writes them in several; SQLite and PostgreSQL
both take far more parameters than 200 rows have)."""

Subject = tuple[str, int]
"""``(kind, id)``: ``("match", 7)`` or ``("chouette", 7)``."""


@dataclass(frozen=True, slots=True)
class Kind:
    """Where one kind of subject is kept: its ``rows`` table (id, status, state, version, updated_at, ended_at …),
    its ``log`` table and the column naming the subject there (``key``) with the log's ``log_columns`` after
    ``(key, seq)``; its ``messages`` and ``deadlines`` tables (``deadline_id``: the columns that tell one of its
    deadlines from another besides ``key``); its ``dice`` table (None: the dice are in ``games`` rows)."""

    name: str
    rows: str
    log: str
    key: str
    log_columns: tuple[str, ...]
    messages: str
    deadlines: str
    deadline_id: tuple[str, ...]
    dice: str | None


KINDS: dict[str, Kind] = {
    "match": Kind(
        "match", "matches", "actions", "match_id",
        ("game_number", "member_id", "side", "kind", "args", "dice", "roll_index", "auto", "at"),
        "messages", "deadlines", (), None,
    ),
    "chouette": Kind(
        "chouette", "chouette_sessions", "chouette_actions", "session_id",
        ("game_number", "member_id", "kind", "args", "dice", "series", "roll_index", "auto", "at"),
        "chouette_messages", "chouette_deadlines", ("subject_id",), "chouette_dice",
    ),
}  # fmt: skip
"""The kinds of subject and their tables."""


def kind_of(subject: Subject) -> Kind:
    """The :class:`Kind` of ``subject``; ``ValueError`` for an unknown kind or a bad id."""
    kind, subject_id = subject
    if kind not in KINDS:
        raise ValueError(f"a subject's kind is one of {', '.join(KINDS)}, not {kind!r}")
    if isinstance(subject_id, bool) or not isinstance(subject_id, int):
        raise ValueError(f"a subject's id is a whole number, not {subject_id!r}")
    return KINDS[kind]


@contextmanager
def sqlite_errors() -> Iterator[None]:
    """Raise SQLite's exceptions in the block as storage's own (:mod:`storage.errors`): a unique key
    :class:`DuplicateError`, another refused write (a check, a foreign key, an append-only trigger)
    :class:`ConstraintError`, anything else (a full disk, a locked or damaged file) :class:`OperationFailedError`;
    the message stays SQLite's."""
    try:
        yield
    except sqlite3.IntegrityError as error:
        text = str(error)
        raise (DuplicateError if text.startswith("UNIQUE constraint failed") else ConstraintError)(text) from error
    except sqlite3.Error as error:
        raise OperationFailedError(str(error)) from error


def _marks(values: Sequence[Any]) -> str:
    """``(?, ?, …)``: one placeholder for each of ``values``."""
    return f"({', '.join('?' * len(values))})"


class Tx:
    """The statements of one open transaction (only valid inside :meth:`Store.transaction`). Each raises
    storage's errors (:func:`sqlite_errors`), never ``sqlite3``'s."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the number of rows it changed. One trip to the connection's thread: the
        statement has run to its end, so its cursor is left to be freed with it (``await cursor.close()`` would be
        a second trip, for every statement of every action)."""
        with sqlite_errors():
            return (await self._conn.execute(sql, params)).rowcount

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one INSERT; returns the new row id (one trip, as :meth:`execute`)."""
        with sqlite_errors():
            rowid = (await self._conn.execute(sql, params)).lastrowid
        assert rowid is not None  # an INSERT always sets it
        return rowid

    async def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        """Run one statement for every parameter tuple."""
        with sqlite_errors():
            await self._conn.executemany(sql, params)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """Run a query; returns all its rows."""
        with sqlite_errors():
            return list(await self._conn.execute_fetchall(sql, params))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        """Run a query; returns its first row or None."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None


_IN_SNAPSHOT: contextvars.ContextVar[object | None] = contextvars.ContextVar("in_snapshot", default=None)
"""The store whose read snapshot the running task holds (its reads then run inside it, without the lock again)."""

Then = Callable[[Tx, int], Awaitable[None]] | None
"""A kind's own writes in a commit's transaction: ``then(tx, subject_id)``."""


class Store:
    """The action store on one aiosqlite connection (see the module docstring). ``lock`` serialises the
    connection's statements (shared with :class:`~storage.Database`, which owns the connection)."""

    dialect = "sqlite"
    """Which SQL the connection speaks: ``"sqlite"`` here, ``"postgresql"`` for :class:`storage.pgstore.PgStore`."""

    def __init__(self, conn: aiosqlite.Connection, lock: asyncio.Lock) -> None:
        self._conn = conn
        self._lock = lock

    @staticmethod
    def json_int(column: str, key: str) -> str:
        """The SQL expression of the whole number under ``key`` of the JSON text in ``column`` (NULL if absent);
        ``column`` and ``key`` are names from this package, never input."""
        return f"json_extract({column}, '$.{key}')"

    @staticmethod
    def json_text(column: str, path: str) -> str:
        """The SQL expression of the text under the dotted ``path`` (``"dice.ahead.seed_hash"``) of the JSON text in
        ``column`` (NULL if absent); names from this package, never input."""
        return f"json_extract({column}, '$.{path}')"

    # -- transactions and reads -------------------------------------------------------------------------------------
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """``async with store.transaction() as tx:`` — one ``BEGIN IMMEDIATE`` transaction, committed at the end of
        the block, rolled back if it raises. No other statement of this connection runs in between."""
        async with self._lock:
            with sqlite_errors():
                await self._conn.execute("BEGIN IMMEDIATE")
                try:
                    yield Tx(self._conn)
                except BaseException:
                    await self._conn.execute("ROLLBACK")
                    raise
                await self._conn.execute("COMMIT")

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[None]:
        """``async with store.snapshot():`` — every read of this task in the block (:meth:`fetchall`,
        :meth:`fetchone` and what is built on them) sees one snapshot of the file: one read transaction (a deferred
        ``BEGIN``), however other processes write meanwhile (no torn load). Holds the connection's
        lock for the block, so only reads belong in it; nested, it is the outer one."""
        if _IN_SNAPSHOT.get() is self:
            yield
            return
        async with self._lock:
            with sqlite_errors():
                await self._conn.execute("BEGIN")
                token = _IN_SNAPSHOT.set(self)
                try:
                    yield
                finally:
                    _IN_SNAPSHOT.reset(token)
                    await self._conn.execute("COMMIT")

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """One query outside a write transaction (inside this task's :meth:`snapshot` if it holds one); all its
        rows."""
        if _IN_SNAPSHOT.get() is self:
            return await Tx(self._conn).fetchall(sql, params)
        async with self._lock:
            return await Tx(self._conn).fetchall(sql, params)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        """One query outside a write transaction; its first row or None."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchvalue(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first column of the one row of a query that always gives one (an aggregate such as ``count(*)``, a
        ``PRAGMA``). Raises :class:`OperationFailedError` when it gives none."""
        row = await self.fetchone(sql, params)
        if row is None:
            raise OperationFailedError(f"no row from {sql!r}")
        return row[0]

    # -- subjects and their log -------------------------------------------------------------------------------------
    async def create(self, kind: str, row: Mapping[str, Any], entry, now: float, then: Then = None) -> int:
        """Insert a new subject of ``kind`` with the columns ``row`` (version 1, ``created_at``/``updated_at`` =
        ``now``) and its first logged action ``entry`` (an object with ``params(id, seq, at)``); then the kind's own
        writes. Returns the new id."""
        spec = KINDS[kind]
        columns = [*row, "version", "created_at", "updated_at"]
        values = [*row.values(), 1, now, now]
        async with self.transaction() as tx:
            subject_id = await tx.insert(
                f"INSERT INTO {spec.rows} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", values
            )
            await tx.execute(self._insert_log(spec), entry.params(subject_id, 1, now))
            if then is not None:
                await then(tx, subject_id)
        return subject_id

    async def commit(
        self,
        subject: Subject,
        expected_version: int,
        now: float,
        entries: Sequence,
        row: Mapping[str, Any],
        *,
        ended: bool,
        then: Then = None,
        notices: Sequence[tuple[str, dict]] = (),
    ) -> int:
        """The versioned commit of ``subject``: in one transaction, set the columns ``row`` (plus ``version``,
        ``updated_at`` and, the first time ``ended``, ``ended_at``) only if its version is still
        ``expected_version``; the kind's own writes (``then``: game rows the log refers to, dice, deadlines …); append
        ``entries`` (objects with ``params(id, seq, at)``) as seq ``expected + 1 …``; record ``notices``
        ``(key, body)`` pending (:mod:`storage.notices`: what the club did and its notice land together). Returns
        the new version. Raises :class:`VersionConflictError` (nothing written)
        when someone got there first, ``ValueError`` for no entry (every change of state is in the log)."""
        spec = kind_of(subject)
        subject_id = subject[1]
        if not entries:
            raise ValueError("a commit must log at least one action: every change of state is in the log")
        new_version = expected_version + len(entries)
        sets = ", ".join(f"{column} = ?" for column in row)
        async with self.transaction() as tx:
            changed = await tx.execute(
                f"UPDATE {spec.rows} SET {sets}, version = ?, updated_at = ?, "
                "ended_at = CASE WHEN ? = 1 THEN ? ELSE ended_at END WHERE id = ? AND version = ?",
                (*row.values(), new_version, now, int(ended), now, subject_id, expected_version),
            )
            if changed != 1:
                found = await tx.fetchone(f"SELECT version FROM {spec.rows} WHERE id = ?", (subject_id,))
                raise VersionConflictError(subject_id, expected_version, None if found is None else found[0])
            if then is not None:
                await then(tx, subject_id)  # first: the log may refer to the rows it writes (a new game)
            rows = [entry.params(subject_id, expected_version + i, now) for i, entry in enumerate(entries, 1)]
            for start in range(0, len(rows), LOG_ROWS):  # one statement for a commit's actions
                chunk = rows[start : start + LOG_ROWS]
                await tx.execute(self._insert_log(spec, len(chunk)), [value for row in chunk for value in row])
            for key, body in notices:
                await record_notice(tx, key, body, now)
        return new_version

    @staticmethod
    def _insert_log(spec: Kind, count: int = 1) -> str:
        """The INSERT of ``count`` log rows of ``spec`` in one statement."""
        columns = (spec.key, "seq", *spec.log_columns)
        values = ", ".join([f"({', '.join('?' * len(columns))})"] * count)
        return f"INSERT INTO {spec.log} ({', '.join(columns)}) VALUES {values}"

    async def log(self, subject: Subject, *, game_number: int | None = None) -> list[sqlite3.Row]:
        """The logged actions of ``subject`` in seq order (only those of game ``game_number`` if given)."""
        spec = kind_of(subject)
        return await self._rows_of(spec.log, spec.key, subject[1], "seq", "game_number", game_number)

    async def row(self, subject: Subject) -> sqlite3.Row | None:
        """The subject's own row, or None."""
        spec = kind_of(subject)
        return await self.fetchone(f"SELECT * FROM {spec.rows} WHERE id = ?", (subject[1],))

    async def rewrite_state(self, subject: Subject, version: int, state: Mapping[str, Any]) -> bool:
        """Store ``state`` as the subject's state if it is still at ``version`` — the state-format upgrade only
        (``club.states``: the new state is the one its log replays to; no action is logged, the version and the log
        stay as they are). False (nothing written) when it has moved on."""
        spec = kind_of(subject)
        async with self.transaction() as tx:
            changed = await tx.execute(
                f"UPDATE {spec.rows} SET state = ? WHERE id = ? AND version = ?", (dumps(state), subject[1], version)
            )
        return changed == 1

    async def ids_below_format(self, kind: str, state_format: int) -> list[int]:
        """The ids of ``kind``'s subjects whose state is older than ``state_format`` (its ``format`` key, absent in
        format 1). SQLite's ``json_extract``; PostgreSQL's is ``(state::jsonb ->> 'format')::int``."""
        rows = await self.fetchall(
            f"SELECT id FROM {KINDS[kind].rows} WHERE coalesce({self.json_int('state', 'format')}, 1) < ? ORDER BY id",
            (state_format,),
        )
        return [row[0] for row in rows]

    async def ids(self, kind: str, statuses: Sequence[str] | None = None) -> list[int]:
        """The ids of every subject of ``kind`` (with one of ``statuses`` if given), ascending."""
        spec = KINDS[kind]
        if statuses is None:
            rows = await self.fetchall(f"SELECT id FROM {spec.rows} ORDER BY id")
        else:
            wanted = list(statuses)
            rows = await self.fetchall(
                f"SELECT id FROM {spec.rows} WHERE status IN ({','.join('?' * len(wanted))}) ORDER BY id", wanted
            )
        return [row[0] for row in rows]

    # -- dice (RULES A1) --------------------------------------------------------------------------------------------
    @staticmethod
    async def write_dice(tx: Tx, subject: Subject, series: Mapping[str, Any]) -> None:
        """Insert dice series ``series["series"]`` of ``subject`` (columns dice, seed_hash, seed, seed_revealed,
        rolls) or update its counter and revelation (the seed and its commitment never change). A match's dice are
        written with its game rows (``Database``), so only kinds with a dice table come here."""
        spec = kind_of(subject)
        if spec.dice is None:
            raise ValueError(f"a {spec.name}'s dice are kept in its game rows")
        await tx.execute(
            f"INSERT INTO {spec.dice} ({spec.key}, series, dice, seed_hash, seed, seed_revealed, rolls) "
            f"VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT ({spec.key}, series) DO UPDATE SET "
            "seed_revealed = excluded.seed_revealed, rolls = excluded.rolls",
            (subject[1], series["series"], series["dice"], series["seed_hash"], series["seed"],
             int(series["seed_revealed"]), series["rolls"]),
        )  # fmt: skip

    async def dice(self, subject: Subject, series: Sequence[int] | None = None) -> list[sqlite3.Row]:
        """The dice series of ``subject`` in order (only those numbered in ``series`` if given: a use-case reads
        the ones it may use, not one per game played), as rows with ``series``, ``dice``, ``seed_hash``, ``seed``,
        ``seed_revealed`` and ``rolls`` (a match's: one per game, ``series`` = the game number)."""
        spec = kind_of(subject)
        table, key, number = (spec.dice, spec.key, "series") if spec.dice else ("games", "match_id", "number")
        sql = f"SELECT {number} AS series, dice, seed_hash, seed, seed_revealed, rolls FROM {table} WHERE {key} = ?"
        params: list[Any] = [subject[1]]
        if series is not None:
            wanted = sorted(set(series))
            sql += f" AND {number} IN ({','.join('?' * len(wanted))})"
            params += wanted
        return await self.fetchall(sql + f" ORDER BY {number}", params)

    # -- deadlines (RULES A2) ---------------------------------------------------------------------------------------
    @staticmethod
    async def replace_deadlines(
        tx: Tx, subject: Subject, rows: Sequence[Mapping[str, Any]], *, stored: Sequence[Any] | None = None
    ) -> None:
        """Replace every deadline of ``subject`` by ``rows`` (column → value, without the subject's key; reminders
        as a list; the same columns in each) in the transaction ``tx``: one upsert of them all (a column not given
        — ``marked_at`` — starts empty, as in a new row), after deleting the subject's other deadlines — those of
        ``stored`` (the ids, in the kind's ``deadline_id`` column, of the deadlines read with the subject: no delete
        when every one is still due), else any. A match has one at most: no delete, unless ``rows`` is empty."""
        spec = kind_of(subject)
        keys = (spec.key, *spec.deadline_id)
        given = [{spec.key: subject[1], **row, "reminders": dumps(sorted(row.get("reminders", ())))} for row in rows]
        if not given or spec.deadline_id:
            (column,) = spec.deadline_id or ("",)  # one column tells a subject's deadlines apart
            kept = [row[column] for row in given]
            if stored is None:
                where, params = f"{spec.key} = ?" + (f" AND {column} NOT IN {_marks(kept)}" if kept else ""), kept
            else:
                gone = [value for value in stored if value not in kept]
                where, params = f"{spec.key} = ? AND {column} IN {_marks(gone)}", gone
            if stored is None or params:
                await tx.execute(f"DELETE FROM {spec.deadlines} WHERE {where}", [subject[1], *params])
        if not given:
            return
        columns = list(given[0])
        updates = [f"{column} = excluded.{column}" for column in columns if column not in keys]
        if "marked_at" not in columns:
            updates.append("marked_at = NULL")
        await tx.execute(
            f"INSERT INTO {spec.deadlines} ({', '.join(columns)}) VALUES {', '.join([_marks(columns)] * len(given))} "
            f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {', '.join(updates)}",
            [row[column] for row in given for column in columns],
        )

    async def deadlines(self, subject: Subject) -> list[sqlite3.Row]:
        """The deadlines of ``subject`` (earliest due first)."""
        spec = kind_of(subject)
        order = ", ".join(("due_at", *spec.deadline_id))
        return await self.fetchall(
            f"SELECT * FROM {spec.deadlines} WHERE {spec.key} = ? ORDER BY {order}", (subject[1],)
        )

    async def due_deadlines(self, kind: str, now: float, limit: int = 500) -> list[sqlite3.Row]:
        """Deadlines of ``kind`` with a reminder or an expiry due at ``now`` (``next_at <= now``), earliest first."""
        spec = KINDS[kind]
        order = ", ".join(("next_at", spec.key, *spec.deadline_id))
        return await self.fetchall(
            f"SELECT * FROM {spec.deadlines} WHERE next_at IS NOT NULL AND next_at <= ? ORDER BY {order} LIMIT ?",
            (now, int(limit)),
        )

    async def next_deadline_at(self, kind: str) -> float | None:
        """When the next reminder or expiry of ``kind`` is due, or None."""
        row = await self.fetchone(f"SELECT min(next_at) FROM {KINDS[kind].deadlines} WHERE next_at IS NOT NULL")
        return None if row is None else row[0]

    async def mark_deadline(
        self,
        subject: Subject,
        same: Mapping[str, Any],
        *,
        reminders: Sequence[float],
        reminders_sent: int,
        expired_at: float | None,
        next_at: float | None,
        at: float | None = None,
        notice: tuple[str, dict] | None = None,
    ) -> bool:
        """Record that reminders or the expiry of a deadline of ``subject`` fired, if it still has the values
        ``same`` (column → value: the version, or the actor, stage, mark …). False (nothing written) when it was
        replaced meanwhile (someone acted) or when what it records has been recorded already: the expiry only if
        the deadline has not expired yet, a reminder only if fewer than ``reminders_sent`` were sent — so that of two
        processes (two bots on one database) firing the same deadline at once, exactly one marks it and sends the
        notice. ``at`` (Unix s; default ``expired_at``) is the club's clock when it fired, kept as ``marked_at``
        (:meth:`latest_time`). ``notice`` ``(key, body)``: the notice of this firing, recorded pending in the same
        transaction (:mod:`storage.notices`), so no firing is recorded without its notice."""
        spec = kind_of(subject)
        where = " AND ".join(f"{column} = ?" for column in (spec.key, *same))
        marked = expired_at if at is None else at
        params = [dumps(sorted(reminders)), reminders_sent, expired_at, next_at, marked, subject[1], *same.values()]
        if expired_at is not None:
            where += " AND expired_at IS NULL"
        else:
            where += " AND reminders_sent < ?"
            params.append(reminders_sent)
        async with self.transaction() as tx:
            changed = await tx.execute(
                f"UPDATE {spec.deadlines} SET reminders = ?, reminders_sent = ?, expired_at = ?, next_at = ?, marked_at = ? "
                f"WHERE {where}",
                params,
            )
            if changed == 1 and notice is not None:
                await record_notice(tx, notice[0], notice[1], 0.0 if marked is None else marked)
        return changed == 1

    async def latest_time(self) -> float | None:
        """The latest time (Unix s) the database holds that a club's clock wrote, or None for an empty database:
        the newest logged action of the matches and of the chouettes (the log's last row by id: a clock that never
        goes back logs in time order), the last reminder or expiry recorded on a deadline (``marked_at``, a deadline
        table holds only the open tables' deadlines), and the clubs' and members' ``updated_at``. A clock that
        restarts on this database (the console's :class:`~club.clock.ManualClock`) starts no earlier, so that time
        never runs backwards between two sessions. Index lookups and scans of small tables only, in SQL both
        dialects share."""
        row = await self.fetchone(
            "SELECT max(t) FROM ("
            " SELECT (SELECT at FROM actions ORDER BY id DESC LIMIT 1) AS t"
            " UNION ALL SELECT (SELECT at FROM chouette_actions ORDER BY id DESC LIMIT 1)"
            " UNION ALL SELECT max(marked_at) FROM deadlines"
            " UNION ALL SELECT max(marked_at) FROM chouette_deadlines"
            " UNION ALL SELECT max(updated_at) FROM clubs"
            " UNION ALL SELECT max(updated_at) FROM members"
            ") AS times"
        )
        return None if row is None or row[0] is None else float(row[0])

    # -- Discord messages (ids only) --------------------------------------------------------------------------------
    async def add_message(
        self,
        subject: Subject,
        channel_id: int,
        message_id: int,
        now: float,
        *,
        game_number: int | None = None,
        purpose: str = "board",
    ) -> sqlite3.Row:
        """Remember that message ``message_id`` in ``channel_id`` shows ``subject`` (or one of its games)."""
        spec = kind_of(subject)
        async with self.transaction() as tx:
            await self.put_message(tx, subject, MessageWrite(channel_id, message_id, game_number, purpose, now))
            row = await tx.fetchone(
                f"SELECT * FROM {spec.messages} WHERE channel_id = ? AND message_id = ?", (channel_id, message_id)
            )
        assert row is not None  # just written in this transaction
        return row

    @staticmethod
    async def put_message(tx: Any, subject: Subject, message: MessageWrite) -> None:
        """Within transaction ``tx``: remember ``message`` for ``subject`` (a message remembered before is moved to
        it)."""
        spec = kind_of(subject)
        await tx.execute(
            f"INSERT INTO {spec.messages} ({spec.key}, game_number, channel_id, message_id, purpose, created_at) "
            f"VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (channel_id, message_id) DO UPDATE SET "
            f"{spec.key} = excluded.{spec.key}, game_number = excluded.game_number, purpose = excluded.purpose",
            (subject[1], message.game_number, message.channel_id, message.message_id, message.purpose,
             message.created_at),
        )  # fmt: skip

    async def messages(self, subject: Subject, *, purpose: str | None = None) -> list[sqlite3.Row]:
        """The messages that show ``subject`` (of one ``purpose`` if given), oldest first."""
        spec = kind_of(subject)
        return await self._rows_of(spec.messages, spec.key, subject[1], "id", "purpose", purpose)

    async def _rows_of(self, table: str, key: str, subject_id: int, order: str, column: str, value: Any) -> list:
        """The rows of ``table`` whose ``key`` is ``subject_id`` (and ``column`` is ``value`` unless None), by
        ``order``."""
        where, params = f"{key} = ?", [subject_id]
        if value is not None:
            where, params = f"{where} AND {column} = ?", [subject_id, value]
        return await self.fetchall(f"SELECT * FROM {table} WHERE {where} ORDER BY {order}", params)

    async def message(self, kind: str, channel_id: int, message_id: int) -> sqlite3.Row | None:
        """The stored message ``message_id`` of ``channel_id`` among ``kind``'s, or None."""
        spec = KINDS[kind]
        return await self.fetchone(
            f"SELECT * FROM {spec.messages} WHERE channel_id = ? AND message_id = ?", (channel_id, message_id)
        )

    async def subject_of_message(self, channel_id: int, message_id: int) -> Subject | None:
        """Which subject a remembered message shows, whatever its kind; None if it is not remembered."""
        for kind, spec in KINDS.items():
            row = await self.message(kind, channel_id, message_id)
            if row is not None:
                return (kind, row[spec.key])
        return None
