"""Errors of the storage layer, the same on both backends (SQLite and PostgreSQL): callers never see ``sqlite3``'s
or ``asyncpg``'s exceptions. The use-case layer (``club/``) turns them into its own typed errors."""

from __future__ import annotations


class StorageError(Exception):
    """Base class of storage errors."""


class SchemaError(StorageError):
    """The file is not a club database, or was written by a newer schema than this code knows."""


class DatabaseUnavailableError(StorageError):
    """A PostgreSQL database cannot be used: the server cannot be reached, refuses the login, or the role may not
    create the club's tables. ``str()`` is one line for the operator: which database (never the password), what went
    wrong, what to do (:mod:`storage.pgerrors`)."""


class DatabaseInUseError(DatabaseUnavailableError):
    """Another bot or console holds the SQLite file (:func:`storage.files.hold_alone`): two programs must never
    share one file. ``str()`` is the one line for the operator."""


class OperationFailedError(StorageError):
    """A statement could not run: the disk is full, the file is locked or damaged, the server went away. ``str()``
    is the database's own words. Nothing of the failed transaction was written."""


class ConstraintError(StorageError):
    """The schema refused a write: a check, a foreign key, or an append-only log or audit trail (a trigger) that
    refuses to change or delete its rows. ``str()`` is the database's own words. Nothing was written."""


class DuplicateError(ConstraintError):
    """A write would store a second row under a unique key (the same id, the same message, the same result row).
    Nothing was written."""


class VersionConflictError(StorageError):
    """A conditional write found a different version than expected: someone else changed the match first.

    ``match_id``, ``expected`` (the version the writer read) and ``actual`` (the stored one, None if the match is gone).
    Nothing was written.
    """

    def __init__(self, match_id: int, expected: int, actual: int | None) -> None:
        super().__init__(f"match {match_id} is at version {actual}, not {expected}: it changed meanwhile")
        self.match_id = match_id
        self.expected = expected
        self.actual = actual
