"""File modes and logging of the database file: the file, its -wal/-shm and every backup hold the
seeds of running games, so they are created readable by their owner only, and aiosqlite's statement logs (which carry
every parameter) are dropped."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from .errors import DatabaseInUseError

try:
    import fcntl
except ImportError:  # Windows: no flock; the one-program guard is not available there
    fcntl = None  # type: ignore[assignment]

OWNER_ONLY = 0o600
"""The mode of the database file, its -wal/-shm and every backup: they hold the seeds of running games."""


class _NoStatements(logging.Filter):
    """Drops aiosqlite's DEBUG records: they repr every statement with its parameters, seeds of running games
    included; its INFO and higher records (errors) pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno > logging.DEBUG


logging.getLogger("aiosqlite").addFilter(_NoStatements())


def owner_only(path: str | Path) -> Path:
    """Create ``path`` if missing, readable and writable by its owner only (0600), or close up an existing file
    (and its -wal/-shm) to 0600 — whatever the umask. Returns the path. Raises ``OSError`` (e.g. a read-only
    folder: ``PermissionError``)."""
    path = Path(path)
    if not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, OWNER_ONLY))
    for each in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if each.exists() and (each.stat().st_mode & 0o777) != OWNER_ONLY:
            os.chmod(each, OWNER_ONLY)
    return path


def hold_alone(path: str | Path) -> int | None:
    """Take the one-program lock of the database file ``path``: an exclusive ``flock`` on the file itself (separate
    from SQLite's own locks, freed by the system when the process ends, even on a kill). Returns the descriptor to
    give to :func:`let_go` (None where ``flock`` does not exist). Raises :class:`DatabaseInUseError` when another bot
    or console holds it."""
    if fcntl is None:
        return None
    handle = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(handle)
        raise DatabaseInUseError(
            f"{path}: another bot or console is using this database; two programs must never share one SQLite file "
            "(stop the other first, or use PostgreSQL for several bot processes)"
        ) from None
    return handle


def let_go(handle: int | None) -> None:
    """Free the lock :func:`hold_alone` took (after SQLite has closed the file: closing another descriptor of the
    file while SQLite holds it would drop SQLite's own locks)."""
    if handle is not None:
        os.close(handle)
