"""The club database on aiosqlite: one connection, WAL, foreign keys, versioned schema, conditional commits.

Open it with ``async with Database.open(path) as db:`` (or ``db = await Database.open(path)`` … ``await db.close()``;
an unclosed aiosqlite connection keeps a thread alive and hangs the event loop at exit).

The log, the versioned commits, dice, deadlines and messages of matches and chouettes go through the one action
store, :attr:`Database.store` (:mod:`storage.store`); this class keeps clubs, members and their direct-message
channels, match rows, the matches' deadlines, and the queries on them.

Concurrency. All statements go through one connection; an ``asyncio.Lock`` serialises them so that one coroutine's
transaction never interleaves with another's statements. A write is a :class:`~storage.records.Commit`: one
``BEGIN IMMEDIATE`` transaction that appends the actions to the log and updates the match (and game) rows only
``WHERE version = ?`` — when another writer (another coroutine, process or bot instance) got there first, nothing is
written and :class:`~storage.errors.VersionConflictError` is raised. The per-match ``asyncio.Lock`` that keeps
read-compute-write cycles of one match in order is the use-case layer's (``club.service``).

Durability. WAL with ``synchronous="FULL"`` (default): a committed action survives a crash of the process (SIGKILL)
and of the machine (power loss), at the price of one fsync per action (well under a millisecond on an SSD; see
``bench/turns.py``). ``"NORMAL"`` survives any crash of the process but may lose the last actions on power loss.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from . import notices, replies, tallies
from .errors import SchemaError
from .files import hold_alone, let_go, owner_only
from .lease import GrantedLease, Lease
from .matchrows import deadline_rows, match_columns, write_game
from .migrations import MIGRATIONS, SCHEMA_VERSION, migrate_or_close, schema_sql
from .records import (
    ActionRecord,
    ClubRecord,
    Commit,
    DeadlineRecord,
    DeadlineWrite,
    GameRecord,
    MatchRecord,
    MatchSummary,
    MatchWrite,
    MemberRecord,
    MessageRecord,
    NewAction,
    built,
    dumps,
)
from .store import Store, Tx, sqlite_errors
from .worker_rows import PARTS, MatchRows, check_parts, packed

_SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
_SUMMARY_COLUMNS = (
    "m.id, m.club_id, m.kind, m.length, m.player0, m.player1, m.stake, m.status, m.version, m.game_number, "
    "m.waiting_for, m.pending, m.score0, m.score1, m.winner, m.updated_at, m.ended_at, d.due_at"
)

_INSERT_ACTION = (
    "INSERT INTO actions (match_id, seq, game_number, member_id, side, kind, args, dice, roll_index, auto, at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


class Database:
    """An open club database (see the module docstring). Create with :meth:`open`; close with :meth:`close`."""

    dialect = "sqlite"
    """``"sqlite"``, or ``"postgresql"`` for :class:`storage.pgstore.PgDatabase` (same interface)."""

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._closed = False
        self.path: Path | None = path
        self.alone: int | None = None  # the one-program lock (storage.files.hold_alone) when opened exclusive
        self.store = Store(conn, self._lock)
        """The one action store (:mod:`storage.store`) on this connection: logs, commits, dice, deadlines, messages."""

    # -- opening and closing -------------------------------------------------------------------------------------
    @classmethod
    def open(
        cls, path: str | Path, *, synchronous: str = "FULL", busy_timeout_ms: int = 10_000, exclusive: bool = False
    ) -> _Opener:
        """Open (creating or upgrading as needed) the database file at ``path``.

        ``path`` may also be a ``postgresql://…`` URL: the same interface on PostgreSQL (:mod:`storage.pgstore`;
        ``synchronous`` and ``busy_timeout_ms`` are SQLite's and do not apply).

        Use as ``async with Database.open(path) as db:`` or ``db = await Database.open(path)``. ``synchronous`` is
        SQLite's setting ("FULL" or "NORMAL", see the module docstring); ``busy_timeout_ms`` how long to wait for
        another process's write lock. ``exclusive``: the program that runs the club on this file (the bot, the
        console) holds it alone until :meth:`close` (:func:`storage.files.hold_alone`); a second such program is
        refused with :class:`~storage.errors.DatabaseInUseError` (tools that only read or copy do not ask).
        Raises :class:`~storage.errors.SchemaError` if the file is not a club database
        or is newer than this code, ``ValueError`` for a bad ``synchronous``, and
        :class:`~storage.errors.DatabaseUnavailableError` for a PostgreSQL URL when asyncpg (the optional
        ``postgres`` extra) is not installed.
        """
        if synchronous.upper() not in _SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {', '.join(_SYNCHRONOUS)}, not {synchronous!r}")
        if isinstance(path, str) and path.partition("://")[0] in BACKENDS:
            return _Opener(BACKENDS[path.partition("://")[0]](path), path)
        return _Opener(cls._connect, Path(path), synchronous.upper(), busy_timeout_ms, exclusive)

    @classmethod
    async def _connect(cls, path: Path, synchronous: str, busy_timeout_ms: int, exclusive: bool = False) -> Database:
        owner_only(path)  # SQLite gives the -wal and -shm files the mode of the database file
        alone = hold_alone(path) if exclusive else None
        try:
            database = await cls._connect_sqlite(path, synchronous, busy_timeout_ms)
        except BaseException:
            let_go(alone)
            raise
        database.alone = alone
        return database

    @classmethod
    async def _connect_sqlite(cls, path: Path, synchronous: str, busy_timeout_ms: int) -> Database:
        with sqlite_errors():
            conn = await aiosqlite.connect(path, isolation_level=None)
            try:
                conn.row_factory = sqlite3.Row
                await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
                mode = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
                if mode[0][0].lower() != "wal":
                    raise SchemaError(f"{path}: cannot switch to WAL journal mode (got {mode[0][0]})")
                await conn.execute(f"PRAGMA synchronous = {synchronous}")
                await conn.execute("PRAGMA foreign_keys = ON")
            except BaseException:
                await conn.close()
                raise
            return await migrate_or_close(cls(conn, path), conn.close)

    async def close(self) -> None:
        """Close the connection (idempotent) and seal the file (:func:`storage.health.seal`: its digest, to notice
        bytes that change on the disk). Waits for a running statement to finish."""
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            await self._conn.close()
        from .health import seal

        if self.path is not None:
            await asyncio.to_thread(seal, self.path)  # bytes that change on the disk later are noticed at start-up
        let_go(self.alone)
        self.alone = None

    def scheduler_lease(self) -> Lease:
        """The reminder scheduler's lease (:mod:`storage.lease`): on SQLite always granted."""
        return GrantedLease()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.close()

    async def _migrate(self) -> None:
        conn = self._conn
        version = list(await conn.execute_fetchall("PRAGMA user_version"))[0][0]
        if version > SCHEMA_VERSION:
            raise SchemaError(
                f"{self.path} has schema version {version}, newer than this code's {SCHEMA_VERSION}; "
                "upgrade the bot before opening it"
            )
        if version == 0:
            tables = await conn.execute_fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
            if tables:
                raise SchemaError(f"{self.path} is an SQLite file with other tables, not a club database")
            await conn.executescript(
                f"BEGIN IMMEDIATE;\n{schema_sql()}\nPRAGMA user_version = {SCHEMA_VERSION};\nCOMMIT;"
            )
            return
        for target, script in MIGRATIONS:
            if target > version:
                await conn.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {int(target)};\nCOMMIT;")
                version = target

    # -- low level -------------------------------------------------------------------------------------------------
    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return await self.store.fetchall(sql, params)

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        return await self.store.fetchone(sql, params)

    async def _fetchvalue(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return await self.store.fetchvalue(sql, params)

    def transaction(self):
        """``async with db.transaction() as tx:`` — one ``BEGIN IMMEDIATE`` transaction, committed at the end of the
        block, rolled back if it raises (:meth:`storage.store.Store.transaction`)."""
        return self.store.transaction()

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        """``async with db.read() as tx:`` — one read transaction (a deferred ``BEGIN``): every query in the block
        sees the same snapshot of the file (WAL), however other processes write meanwhile, and no other statement of
        this connection runs in between. Ended at the end of the block (nothing to write: ``COMMIT`` only releases
        the snapshot)."""
        async with self._lock:
            with sqlite_errors():
                await self._conn.execute("BEGIN")
                try:
                    yield Tx(self._conn)
                finally:
                    await self._conn.execute("COMMIT")

    async def user_version(self) -> int:
        """The schema version of the file (``PRAGMA user_version``)."""
        return await self._fetchvalue("PRAGMA user_version")

    async def integrity_check(self) -> list[str]:
        """``PRAGMA integrity_check`` plus ``PRAGMA foreign_key_check``: ``["ok"]`` for a sound file, else the
        problems found (one string each)."""
        rows = await self._fetchall("PRAGMA integrity_check")
        problems = [row[0] for row in rows if row[0] != "ok"]
        for row in await self._fetchall("PRAGMA foreign_key_check"):
            problems.append(f"foreign key: {row[0]} row {row[1]} refers to a missing {row[2]}")
        return problems or ["ok"]

    async def backup(self, destination: str | Path) -> Path:
        """Copy the whole database to ``destination`` with SQLite's online backup API while it stays in use.

        The copy is a consistent snapshot (a complete, self-contained file, WAL folded in), created 0600 (owner
        only). An existing ``destination`` is overwritten. Returns the destination path.
        """
        destination = owner_only(destination)  # a backup holds the seeds of running games too
        with sqlite_errors():
            target = sqlite3.connect(destination, check_same_thread=False)
            try:
                async with self._lock:
                    await self._conn.backup(target)
                target.execute("PRAGMA journal_mode = DELETE")
            finally:
                target.close()
        return destination

    # -- clubs and members ------------------------------------------------------------------------------------------
    async def get_club(self, guild_id: int) -> ClubRecord | None:
        """The club of Discord guild ``guild_id``, or None."""
        row = await self._fetchone("SELECT * FROM clubs WHERE guild_id = ?", (guild_id,))
        return None if row is None else ClubRecord.from_row(row)

    async def get_club_by_id(self, club_id: int) -> ClubRecord | None:
        """The club with database id ``club_id``, or None."""
        row = await self._fetchone("SELECT * FROM clubs WHERE id = ?", (club_id,))
        return None if row is None else ClubRecord.from_row(row)

    async def ensure_club(
        self, guild_id: int, now: float, *, name: str = "", settings: dict | None = None
    ) -> ClubRecord:
        """The club of ``guild_id``, created with ``name`` and ``settings`` if it does not exist yet."""
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO clubs (guild_id, name, settings, created_at, updated_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, name, dumps(settings or {}), now, now),
            )
            row = await tx.fetchone("SELECT * FROM clubs WHERE guild_id = ?", (guild_id,))
        return ClubRecord.from_row(row)

    async def set_club_settings(self, guild_id: int, settings: dict, now: float) -> bool:
        """Replace the settings of the club of ``guild_id``; False if there is no such club."""
        async with self.transaction() as tx:
            changed = await tx.execute(
                "UPDATE clubs SET settings = ?, updated_at = ? WHERE guild_id = ?", (dumps(settings), now, guild_id)
            )
        return changed == 1

    async def get_member(self, user_id: int) -> MemberRecord | None:
        """The member with Discord user id ``user_id``, or None."""
        row = await self._fetchone("SELECT * FROM members WHERE user_id = ?", (user_id,))
        return None if row is None else MemberRecord.from_row(row)

    async def get_members(self, user_ids: Iterable[int]) -> dict[int, MemberRecord]:
        """The members among ``user_ids``, by user id (missing ids are left out)."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = await self._fetchall(f"SELECT * FROM members WHERE user_id IN ({marks})", ids)
        return {row["user_id"]: MemberRecord.from_row(row) for row in rows}

    async def ensure_member(
        self, user_id: int, display_name: str, now: float, *, club_id: int | None = None
    ) -> MemberRecord:
        """Create the member ``user_id`` (or update the display name), and add him to club ``club_id`` if given."""
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO members (user_id, display_name, created_at, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, "
                "updated_at = excluded.updated_at WHERE members.display_name <> excluded.display_name",
                (user_id, display_name, now, now),
            )
            if club_id is not None:
                await tx.execute(
                    "INSERT INTO club_members (club_id, user_id, joined_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (club_id, user_id) DO NOTHING",
                    (club_id, user_id, now),
                )
            row = await tx.fetchone("SELECT * FROM members WHERE user_id = ?", (user_id,))
        return MemberRecord.from_row(row)

    async def set_preferences(self, user_id: int, preferences: dict, now: float) -> bool:
        """Replace the preferences of member ``user_id``; False if there is no such member."""
        async with self.transaction() as tx:
            return await write_preferences(tx, user_id, preferences, now)

    async def is_club_member(self, club_id: int, user_id: int) -> bool:
        """Whether ``user_id`` belongs to club ``club_id``."""
        row = await self._fetchone("SELECT 1 FROM club_members WHERE club_id = ? AND user_id = ?", (club_id, user_id))
        return row is not None

    async def dm_channel(self, user_id: int, channel_id: int | None = None, now: float = 0.0) -> int | None:
        """The direct-message channel of ``user_id`` remembered so far (0: he accepts no direct messages), None if
        unknown; with ``channel_id``, remember that one first (at ``now``, Unix seconds; ``-1`` forgets it). A direct
        message then costs one request, not a user look-up and a channel opening each time."""
        if channel_id is not None:
            async with self.transaction() as tx:
                if channel_id < 0:
                    await tx.execute("DELETE FROM dm_channels WHERE user_id = ?", (user_id,))
                    return None
                await tx.execute(
                    "INSERT INTO dm_channels (user_id, channel_id, updated_at) VALUES (?, ?, ?) ON CONFLICT (user_id)"
                    " DO UPDATE SET channel_id = excluded.channel_id, updated_at = excluded.updated_at",
                    (user_id, channel_id, now),
                )
            return channel_id
        row = await self._fetchone("SELECT channel_id FROM dm_channels WHERE user_id = ?", (user_id,))
        return None if row is None else int(row[0])

    async def dm_channel_since(self, user_id: int) -> tuple[int, float] | None:
        """The direct-message channel of ``user_id`` remembered so far (0: he accepted none) and when it was
        remembered (Unix s), or None if unknown."""
        row = await self._fetchone("SELECT channel_id, updated_at FROM dm_channels WHERE user_id = ?", (user_id,))
        return None if row is None else (int(row[0]), float(row[1]))

    # -- matches, games and the action log --------------------------------------------------------------------------
    async def create_match(
        self,
        *,
        club_id: int,
        kind: str,
        length: int,
        players: tuple[int, int],
        rules: dict,
        stake: int,
        match: MatchWrite,
        action: NewAction,
        deadline: DeadlineWrite | None,
        now: float,
    ) -> MatchRecord:
        """Insert a new match (version 1) with its first logged action and deadline, in one transaction."""
        row = {"club_id": club_id, "kind": kind, "length": length, "player0": players[0], "player1": players[1],
               "rules": dumps(rules), "stake": stake, **match_columns(match), "ended_at": now if match.ended else None}  # fmt: skip

        async def then(tx: Tx, match_id: int) -> None:
            await self.store.replace_deadlines(tx, ("match", match_id), deadline_rows(deadline, 1, now))

        record = await self.get_match(await self.store.create("match", row, action, now, then))
        assert record is not None  # just written, and a match is never deleted
        return record

    async def get_match(self, match_id: int) -> MatchRecord | None:
        """The match ``match_id`` or None."""
        row = await self._fetchone("SELECT * FROM matches WHERE id = ?", (match_id,))
        return None if row is None else MatchRecord.from_row(row)

    async def get_game(self, match_id: int, number: int) -> GameRecord | None:
        """Game ``number`` (1, 2, …) of match ``match_id``, or None."""
        row = await self._fetchone("SELECT * FROM games WHERE match_id = ? AND number = ?", (match_id, number))
        return None if row is None else GameRecord.from_row(row)

    async def get_game_by_id(self, game_id: int) -> GameRecord | None:
        """The game with database id ``game_id``, or None."""
        row = await self._fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        return None if row is None else GameRecord.from_row(row)

    async def load(self, match_id: int) -> tuple[MatchRecord, GameRecord | None, DeadlineRecord | None] | None:
        """The match, its current game (None before the first) and its deadline, read in one read transaction
        (:meth:`read`); None if unknown."""
        async with self.read() as tx:  # one snapshot: never a match of one commit with a game of another
            found = await _match_and_game(tx, match_id)
            if found is None:
                return None
            row = await tx.fetchone("SELECT * FROM deadlines WHERE match_id = ?", (match_id,))
        return *found, None if row is None else DeadlineRecord.from_row(row)

    async def load_table(self, match_id: int) -> TableRows | None:
        """What one action on match ``match_id`` starts from (:class:`TableRows`: the match, its current game, its
        club and its players' member rows), read in one read transaction (:meth:`read`), each row once; None if
        unknown."""
        async with self.read() as tx:
            found = await _match_and_game(tx, match_id)
            if found is None:
                return None
            match, game = found
            row = await tx.fetchone("SELECT * FROM clubs WHERE id = ?", (match.club_id,))
            assert row is not None  # a match's club is never deleted (foreign key)
            rows = await tx.fetchall("SELECT * FROM members WHERE user_id IN (?, ?)", match.players)
        return TableRows(match, game, ClubRecord.from_row(row), {r["user_id"]: MemberRecord.from_row(r) for r in rows})

    async def commit(self, commit: Commit) -> int:
        """Apply ``commit`` in one transaction if the match is still at ``commit.expected_version``
        (:meth:`storage.store.Store.commit`).

        Appends the actions (seq ``expected_version + 1`` …), writes the match and game rows, replaces the
        deadline, remembers the commit's messages and records its notices pending. Returns the new version. Raises :class:`~storage.errors.VersionConflictError` (nothing written) if
        the match or an updated game changed meanwhile, ``ValueError`` if the commit has no action.
        """
        match_id, now = commit.match_id, commit.now

        async def then(tx: Tx, _id: int) -> None:
            await replies.record(tx, match_id, commit.expected_version, commit.actions, now, self.dialect)
            for game in commit.games:
                await write_game(tx, match_id, game, now)
                if game.status == "over":
                    await tallies.record_game(tx, match_id, game.number)
            await self.store.replace_deadlines(
                tx, ("match", match_id), deadline_rows(commit.deadline, commit.new_version, now)
            )
            for message in commit.messages:
                await self.store.put_message(tx, ("match", match_id), message)

        return await self.store.commit(
            ("match", match_id), commit.expected_version, now, commit.actions, match_columns(commit.match),
            ended=commit.match.ended, then=then, notices=commit.notices,
        )  # fmt: skip

    async def games(self, match_id: int) -> list[GameRecord]:
        """Every game of match ``match_id``, in order."""
        rows = await self._fetchall("SELECT * FROM games WHERE match_id = ? ORDER BY number", (match_id,))
        return await built(rows, GameRecord.from_row)

    async def actions(self, match_id: int, game_number: int | None = None) -> list[ActionRecord]:
        """The logged actions of match ``match_id`` in order (only those of game ``game_number`` if given)."""
        rows = await self.store.log(("match", match_id), game_number=game_number)
        return await built(rows, ActionRecord.from_row)

    async def game_actions(self, match_id: int, numbers: Iterable[int]) -> list[ActionRecord]:
        """The logged actions of match ``match_id``'s games numbered ``numbers`` and those outside any game (the
        challenge), in order: what a check of those games' dice reads, not the whole log (its cost does not grow
        with the match's history)."""
        wanted = sorted(set(numbers))
        marks = ",".join("?" * len(wanted)) or "NULL"
        rows = await self._fetchall(
            f"SELECT * FROM actions WHERE match_id = ? AND (game_number IS NULL OR game_number IN ({marks})) "
            "ORDER BY seq",
            [match_id, *wanted],
        )
        return await built(rows, ActionRecord.from_row)

    async def actions_of_kind(self, match_id: int, kind: str) -> list[ActionRecord]:
        """The logged actions of match ``match_id`` of one ``kind`` (``unused_seed`` …), in order."""
        rows = await self._fetchall(
            "SELECT * FROM actions WHERE match_id = ? AND kind = ? ORDER BY seq", (match_id, kind)
        )
        return await built(rows, ActionRecord.from_row)

    async def match_rows(self, match_id: int, parts: Sequence[str] = ("match", "actions", "games")) -> MatchRows:
        """Where a worker process finds the ``parts`` of match ``match_id`` (:mod:`storage.worker_rows`: its row,
        its log, its games): this SQLite file, which the worker reads itself, or — another backend, a database in
        memory — the rows, read here in one snapshot. ``ValueError`` for an unknown part."""
        wanted = check_parts(parts)
        if self.dialect == "sqlite" and self.path is not None and Path(self.path).is_file():
            return MatchRows(match_id, wanted, file=str(self.path))
        async with self.store.snapshot():
            rows = {part: packed(await self._fetchall(PARTS[part], (match_id,))) for part in wanted}
        return MatchRows(match_id, wanted, rows=rows)

    async def seed_commitments(self) -> set[str]:
        """The seed commitments (hex) of every stored game and chouette dice series, and of the seeds committed
        ahead of a game not started yet (RULES A1): the seeds a reproducible dice source must skip."""
        ahead = self.store.json_text("state", "dice.ahead.seed_hash")
        rows = await self._fetchall(
            "SELECT seed_hash FROM games WHERE seed_hash IS NOT NULL"
            " UNION SELECT seed_hash FROM chouette_dice WHERE seed_hash IS NOT NULL"
            f" UNION SELECT {ahead} FROM matches UNION SELECT {ahead} FROM chouette_sessions"
        )
        return {row[0] for row in rows if row[0]}

    async def match_ids(self, statuses: Iterable[str] | None = None) -> list[int]:
        """The ids of all matches (with one of ``statuses`` if given), ascending."""
        return await self.store.ids("match", None if statuses is None else list(statuses))

    async def waiting_for(self, member_id: int, club_id: int | None = None) -> list[MatchSummary]:
        """The matches where ``member_id`` must act now (oldest first), in club ``club_id`` if given."""
        sql = (
            f"SELECT {_SUMMARY_COLUMNS} FROM matches m LEFT JOIN deadlines d ON d.match_id = m.id "
            "WHERE m.waiting_for = ?"
        )
        params: list[Any] = [member_id]
        if club_id is not None:
            sql += " AND m.club_id = ?"
            params.append(club_id)
        rows = await self._fetchall(sql + " ORDER BY m.updated_at, m.id", params)
        return [MatchSummary.from_row(row) for row in rows]

    async def matches_of(
        self,
        member_id: int,
        *,
        statuses: Iterable[str] | None = None,
        club_id: int | None = None,
        limit: int = 50,
        before: float | None = None,
    ) -> list[MatchSummary]:
        """The matches ``member_id`` plays or played, newest first (``updated_at`` < ``before`` if given)."""
        conditions = ["(m.player0 = ? OR m.player1 = ?)"]
        params: list[Any] = [member_id, member_id]
        if statuses is not None:
            wanted = list(statuses)
            conditions.append(f"m.status IN ({','.join('?' * len(wanted))})")
            params.extend(wanted)
        if club_id is not None:
            conditions.append("m.club_id = ?")
            params.append(club_id)
        if before is not None:
            conditions.append("m.updated_at < ?")
            params.append(before)
        sql = (
            f"SELECT {_SUMMARY_COLUMNS} FROM matches m LEFT JOIN deadlines d ON d.match_id = m.id "
            f"WHERE {' AND '.join(conditions)} ORDER BY m.updated_at DESC, m.id DESC LIMIT ?"
        )
        rows = await self._fetchall(sql, [*params, int(limit)])
        return [MatchSummary.from_row(row) for row in rows]

    # -- deadlines of matches (RULES A2; away days and more time move one) --------------------------------------------
    async def get_deadline(self, match_id: int) -> DeadlineRecord | None:
        """The deadline of match ``match_id``'s pending action, or None."""
        rows = await self.store.deadlines(("match", match_id))
        return DeadlineRecord.from_row(rows[0]) if rows else None

    async def due_deadlines(self, now: float, limit: int = 500) -> list[DeadlineRecord]:
        """Deadlines with a reminder or an expiry due at ``now`` (``next_at <= now``), earliest first."""
        return [DeadlineRecord.from_row(row) for row in await self.store.due_deadlines("match", now, limit)]

    async def next_deadline_at(self) -> float | None:
        """When the next reminder or expiry is due (for a scheduler's sleep), or None."""
        return await self.store.next_deadline_at("match")

    async def mark_deadline(
        self,
        match_id: int,
        version: int,
        *,
        reminders: Sequence[float],
        reminders_sent: int,
        expired_at: float | None,
        next_at: float | None,
        at: float | None = None,
        notice: tuple[str, dict] | None = None,
    ) -> bool:
        """Record that reminders or the expiry fired, if the deadline still belongs to match version ``version``;
        ``at`` = the clock then (default ``expired_at``), ``notice`` the firing's notice recorded with it
        (:meth:`storage.store.Store.mark_deadline`).

        Returns False (nothing written) when the deadline has been replaced meanwhile (someone acted)."""
        return await self.store.mark_deadline(
            ("match", match_id), {"version": version}, reminders=reminders, reminders_sent=reminders_sent,
            expired_at=expired_at, next_at=next_at, at=at, notice=notice,
        )  # fmt: skip

    async def deadlines_pending(self, pending: str, limit: int = 5000) -> list[DeadlineRecord]:
        """The deadlines awaiting ``pending`` (e.g. ``roll_or_double``), oldest first: one per waiting match."""
        rows = await self._fetchall(
            "SELECT * FROM deadlines WHERE pending = ? ORDER BY set_at, match_id LIMIT ?", (pending, int(limit))
        )
        return [DeadlineRecord.from_row(row) for row in rows]

    async def move_deadline(
        self, match_id: int, version: int, *, due_at: float, reminders: Sequence[float], was: float | None = None,
        notice: tuple[str, dict] | None = None, at: float = 0.0, preferences: tuple[int, dict] | None = None,
    ) -> bool:  # fmt: skip
        """Move the deadline of match ``match_id`` (still set at ``version`` and, when ``was`` is given, still due
        at ``was``) to ``due_at`` with the reminder times ``reminders`` (an away period, an away day, more time
        given): its expiry may fire again. ``notice`` ``(key, body)``: the notice of the move, recorded pending at
        ``at`` in the same transaction (:mod:`storage.notices`); ``preferences`` ``(member, preferences)``: a
        member's preferences written with the move (an away day spent: :func:`write_preferences`). False (nothing
        written) when the deadline was replaced or moved meanwhile."""
        left = sorted(at for at in reminders if at < due_at)
        same = "" if was is None else " AND due_at = ?"
        async with self.transaction() as tx:
            changed = await tx.execute(
                "UPDATE deadlines SET due_at = ?, reminders = ?, expired_at = NULL, next_at = ? "
                f"WHERE match_id = ? AND version = ?{same}",
                (due_at, dumps(left), min([*left, due_at]), match_id, version, *(() if was is None else (was,))),
            )
            if changed == 1:
                await write_with_move(tx, notice, preferences, at)
        return changed == 1

    # -- Discord messages -------------------------------------------------------------------------------------------
    async def add_message(
        self,
        match_id: int,
        channel_id: int,
        message_id: int,
        now: float,
        *,
        game_number: int | None = None,
        purpose: str = "board",
    ) -> MessageRecord:
        """Remember that message ``message_id`` in channel ``channel_id`` shows match ``match_id`` (or one game)."""
        row = await self.store.add_message(
            ("match", match_id), channel_id, message_id, now, game_number=game_number, purpose=purpose
        )
        return MessageRecord.from_row(row)

    async def messages(self, match_id: int, *, purpose: str | None = None) -> list[MessageRecord]:
        """The messages that show match ``match_id`` (of one ``purpose`` if given), oldest first."""
        return [MessageRecord.from_row(row) for row in await self.store.messages(("match", match_id), purpose=purpose)]

    async def thread_match(
        self, channel_id: int, member: int, *, guild_id: int | None = None, statuses: Sequence[str] | None = None
    ) -> int | None:
        """The match whose home is the thread ``channel_id`` (the message it opened from has the thread's id), if
        ``member`` plays in it, it belongs to the club of guild ``guild_id`` or to that club's practice room (None:
        any club) and its status is one of ``statuses`` (None: any); else None. One statement."""
        sql = ("SELECT m.id FROM messages g JOIN matches m ON m.id = g.match_id JOIN clubs c ON c.id = m.club_id "
               "WHERE g.channel_id = ? AND g.message_id = ? AND ? IN (m.player0, m.player1)")  # fmt: skip
        params: list[Any] = [channel_id, channel_id, member]
        if guild_id is not None:
            sql += " AND c.guild_id IN (?, ?)"
            params += [guild_id, -guild_id]
        if statuses is not None:
            sql += f" AND m.status IN ({', '.join('?' * len(statuses))})"
            params += list(statuses)
        row = await self._fetchone(sql, params)
        return None if row is None else int(row[0])

    async def message(self, channel_id: int, message_id: int) -> MessageRecord | None:
        """The stored message ``message_id`` of channel ``channel_id`` (which match it shows), or None."""
        row = await self.store.message("match", channel_id, message_id)
        return None if row is None else MessageRecord.from_row(row)


async def _match_and_game(tx: Tx, match_id: int) -> tuple[MatchRecord, GameRecord | None] | None:
    """Inside a read transaction: match ``match_id`` and its current game (None before the first); None if
    unknown."""
    row = await tx.fetchone("SELECT * FROM matches WHERE id = ?", (match_id,))
    if row is None:
        return None
    match = MatchRecord.from_row(row)
    if not match.game_number:
        return match, None
    row = await tx.fetchone("SELECT * FROM games WHERE match_id = ? AND number = ?", (match_id, match.game_number))
    return match, None if row is None else GameRecord.from_row(row)


@dataclass(frozen=True, slots=True)
class TableRows:
    """The rows one action on a match starts from (:meth:`Database.load_table`): ``match``, its current ``game``
    (None before the first), its ``club`` and its players' ``members`` rows by user id (a player not registered as a
    member is missing)."""

    match: MatchRecord
    game: GameRecord | None
    club: ClubRecord
    members: dict[int, MemberRecord]


BACKENDS: dict[str, Callable[[str], Callable[[str], Awaitable[Database]]]] = {}
"""The other backends by URL scheme (``postgresql``, ``postgres``): ``load(url)`` gives how to connect to such a
URL (``await connect(url)``: an open :class:`Database` of that backend), or raises
:class:`~storage.errors.DatabaseUnavailableError` when its driver is not installed. Filled by the :mod:`storage`
package, so that this module imports none of them (they build on it)."""


class _Opener:
    """What :meth:`Database.open` returns: awaitable (gives the Database) and an async context manager (closes it)."""

    def __init__(self, connect, *args) -> None:
        self._connect = connect
        self._args = args
        self._database: Database | None = None

    def __await__(self):
        return self._connect(*self._args).__await__()

    async def __aenter__(self) -> Database:
        self._database = await self._connect(*self._args)
        return self._database

    async def __aexit__(self, *exc_info) -> None:
        if self._database is not None:
            await self._database.close()


async def write_preferences(tx: Tx, user_id: int, preferences: dict, now: float) -> bool:
    """Replace the preferences of member ``user_id`` in transaction ``tx``; False if there is no such member."""
    changed = await tx.execute(
        "UPDATE members SET preferences = ?, updated_at = ? WHERE user_id = ?", (dumps(preferences), now, user_id)
    )
    return changed == 1


async def write_with_move(
    tx: Tx, notice: tuple[str, dict] | None, preferences: tuple[int, dict] | None, at: float
) -> None:
    """What a deadline's move writes with it in ``tx``: its ``notice`` recorded pending and a member's
    ``preferences`` (:meth:`Database.move_deadline`, :meth:`storage.chouettes.ChouetteStore.move_deadline`)."""
    if notice is not None:
        await notices.record_in(tx, *notice, at)
    if preferences is not None:
        await write_preferences(tx, *preferences, at)
