"""Durable storage of clubs, members, matches, money sessions, games and their action logs (SQLite, aiosqlite).

- :class:`Database` — open/close (an async context manager), versioned schema (``schema.sql`` + ``PRAGMA
  user_version``), WAL, foreign keys; conditional commits (``UPDATE … WHERE version = ?``) that append to the
  append-only action log and update the state in one transaction; queries; online backup.
- :mod:`storage.store` — the one action store: every table's append-only log, versioned commits, dice, deadlines and
  messages, keyed by ``(kind, id)`` (``"match"`` or ``"chouette"``); the interface a second backend implements.
- :mod:`storage.chouettes` / :mod:`storage.matchrows` — each kind's own rows on top of the store.
- :mod:`storage.records` — the rows read and written (frozen dataclasses).
- :mod:`storage.worker_rows` — a match's rows read by a worker process (:meth:`Database.match_rows`).
- :mod:`storage.filesnapshot` — :class:`FileSnapshot`: an SQLite file read-only, as one snapshot, in a worker process.
- :mod:`storage.errors` — :class:`StorageError`, :class:`SchemaError`, :class:`VersionConflictError`,
  :class:`ConstraintError`, :class:`DuplicateError`, :class:`OperationFailedError`,
  :class:`DatabaseUnavailableError`: the same on both backends, never ``sqlite3``'s or ``asyncpg``'s.
- :mod:`storage.pgstore` / :mod:`storage.pgdialect` — the same interface on PostgreSQL (asyncpg):
  ``Database.open("postgresql://…")``; :mod:`storage.migrate` copies a file into it.
- :mod:`storage.lease` — the reminder scheduler's lease (``Database.scheduler_lease()``): one bot process on a
  database runs the scheduler at a time (PostgreSQL: a session-level advisory lock; SQLite: always granted).
- ``python -m storage backup SOURCE DEST`` / ``python -m storage restore BACKUP DATABASE`` / ``python -m storage check PATH`` / ``python -m storage migrate-to URL``
  — maintenance entries.

No game rules and no Discord types here: ``club/`` decides what to write, this package writes it atomically.
"""

from . import backends
from .backup import backup_file, check_file
from .database import Database
from .errors import (
    ConstraintError,
    DatabaseInUseError,
    DatabaseUnavailableError,
    DuplicateError,
    OperationFailedError,
    SchemaError,
    StorageError,
    VersionConflictError,
)
from .migrations import SCHEMA_VERSION
from .records import (
    ActionRecord,
    ClubRecord,
    Commit,
    DeadlineRecord,
    DeadlineWrite,
    GameRecord,
    GameWrite,
    MatchRecord,
    MatchSummary,
    MatchWrite,
    MemberRecord,
    MessageRecord,
    MessageWrite,
    NewAction,
    dumps,
)
from .store import KINDS, Store, Subject
from .worker_rows import MatchRows

backends.register()

__all__ = [
    "KINDS",
    "SCHEMA_VERSION",
    "ActionRecord",
    "ClubRecord",
    "Commit",
    "ConstraintError",
    "Database",
    "DeadlineRecord",
    "DeadlineWrite",
    "DuplicateError",
    "GameRecord",
    "GameWrite",
    "MatchRecord",
    "MatchRows",
    "MatchSummary",
    "MatchWrite",
    "MemberRecord",
    "MessageRecord",
    "MessageWrite",
    "NewAction",
    "OperationFailedError",
    "SchemaError",
    "StorageError",
    "DatabaseInUseError",
    "DatabaseUnavailableError",
    "Store",
    "Subject",
    "VersionConflictError",
    "backup_file",
    "check_file",
    "dumps",
]
