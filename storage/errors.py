"""Errors of the storage layer. The use-case layer (``club/``) turns them into its own typed errors."""

from __future__ import annotations


class StorageError(Exception):
    """Base class of storage errors."""


class SchemaError(StorageError):
    """The file is not a club database, or was written by a newer schema than this code knows."""


class DatabaseUnavailableError(StorageError):
    """A PostgreSQL database cannot be used: the server cannot be reached, refuses the login, or the role may not
    create the club's tables. ``str()`` is one line for the operator: which database (never the password), what went
    wrong, what to do (:mod:`storage.pgerrors`)."""


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
