"""Backup, restore and integrity check of a club database, as functions and as ``python -m storage`` commands.

The backup of an SQLite file uses SQLite's backup API through an open connection, so it may run while the bot is
using the file (WAL readers do not block the writer); the copy is a consistent snapshot of the last committed state.
The restore (the bot stopped) moves the database and its ``-wal``/``-shm`` aside — a ``-wal`` left by a killed
process would otherwise be replayed onto the copied backup — copies the backup in, and checks that the file in
place has the backup's bytes and passes SQLite's integrity check.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from .database import Database
from .errors import StorageError
from .files import OWNER_ONLY, owner_only
from .health import _digest, _inspect, seal
from .pgerrors import hide_password

POSTGRESQL = ("postgresql://", "postgres://")
"""How a PostgreSQL database's URL starts (the other databases are SQLite files)."""


class RefusedError(StorageError):
    """A backup or restore that would do harm, refused before anything was written: ``str()`` says why."""


@dataclass(frozen=True, slots=True)
class RestoreReport:
    """What :func:`restore_file` or :func:`restore_postgres` did: the ``backup`` copied to ``database`` (a file, or
    a PostgreSQL URL without its password), the files moved ``aside`` (original → new name; none on PostgreSQL), and
    ``check``, the database's integrity check of the result (``["ok"]``)."""

    backup: Path
    database: Path | str
    aside: tuple[tuple[Path, Path], ...]
    check: list[str]


def _same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name the same file (whatever the spelling: ``./``, links)."""
    if a.resolve() == b.resolve():
        return True
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


async def backup_file(source: str | Path, destination: str | Path) -> Path:
    """Copy the club database at ``source`` to ``destination`` (overwritten) with the online backup API; a
    ``postgresql://`` ``source`` is written with ``pg_dump`` as its custom-format archive (:func:`restore_postgres`
    reads it back). The copy is created 0600: it holds the seeds of running games.

    Raises ``FileNotFoundError`` if ``source`` does not exist (a backup never creates an empty database),
    :class:`RefusedError` if ``destination`` is ``source`` itself, :class:`~storage.errors.SchemaError` if it is not
    a club database. Returns the destination path.
    """
    if isinstance(source, str) and source.startswith(POSTGRESQL):
        return await _pg_dump(source, Path(destination))
    source, destination = Path(source), Path(destination)
    if not source.is_file():
        raise FileNotFoundError(f"no database at {source}")
    if _same_file(source, destination):
        raise RefusedError(f"not backed up: {destination} is {source} itself; name a file elsewhere, e.g. "
                           f"{source.parent / 'backups' / source.name}")  # fmt: skip
    async with Database.open(source) as database:
        return await database.backup(destination)


def _sqlite_check(path: Path) -> list[str]:
    """``PRAGMA integrity_check`` and ``foreign_key_check`` of ``path``, read-only: ``["ok"]`` or the problems."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
    try:
        problems = [row[0] for row in conn.execute("PRAGMA integrity_check") if row[0] != "ok"]
        for row in conn.execute("PRAGMA foreign_key_check"):
            problems.append(f"foreign key: {row[0]} row {row[1]} refers to a missing {row[2]}")
        return problems or ["ok"]
    except sqlite3.Error as error:
        return [str(error)]
    finally:
        conn.close()


def restore_file(backup: str | Path, database: str | Path) -> RestoreReport:
    """Put the backup file ``backup`` in place of the SQLite database ``database`` (the bot stopped).

    The backup is checked first (a sound club database: it passes ``quick_check``); then ``database`` and its
    ``-wal``/``-shm``, if there, are renamed ``<name>.damaged-<UTC time>`` (+ ``-wal``/``-shm``) and kept, the
    backup is copied in (0600, through a temporary file and a rename), its bytes compared with the backup's and
    its integrity checked, and the file is sealed (:func:`storage.health.seal`). Raises ``FileNotFoundError`` if
    there is no ``backup``, :class:`RefusedError` (nothing changed) if ``backup`` is ``database`` itself or not a
    sound club database, ``OSError`` if a file cannot be moved or written.
    """
    backup, database = Path(backup), Path(database)
    if not backup.is_file():
        raise FileNotFoundError(f"not restored: no backup at {backup}")
    if _same_file(backup, database):
        raise RefusedError(f"not restored: {backup} is {database} itself; name a backup file")
    what, _, problem = _inspect(backup)
    if what != "club" or problem is not None:
        why = problem or {"empty": "an empty database", "foreign": "another program's database"}.get(
            what, "not an SQLite database"
        )
        raise RefusedError(f"not restored: {backup} is not a sound club database ({why}); name another backup")
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    aside = []
    for suffix in ("", "-wal", "-shm"):
        each = Path(f"{database}{suffix}")
        if each.exists():
            target = database.with_name(f"{database.name}.damaged-{stamp}{suffix}")
            os.replace(each, target)
            aside.append((each, target))
    temporary = database.with_name(f".{database.name}.restoring")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, OWNER_ONLY)
    with os.fdopen(descriptor, "wb") as out, open(backup, "rb") as source:
        shutil.copyfileobj(source, out)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, database)
    check = _sqlite_check(database)
    if _digest(database) != _digest(backup):
        check = [p for p in check if p != "ok"] + [f"{database} does not hold the bytes of {backup}"]
    if check == ["ok"]:
        seal(database)
    return RestoreReport(backup, database, tuple(aside), check)


async def _run(tool: str, *args: str) -> str:
    """Run the PostgreSQL client ``tool`` with ``args``; its first error line ("" when it succeeded)."""
    try:
        process = await asyncio.create_subprocess_exec(
            tool, *args, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE
        )
    except FileNotFoundError:
        return f"{tool} is not installed (Debian: apt-get install postgresql-client)"
    _, err = await process.communicate()
    if process.returncode == 0:
        return ""
    lines = [line for line in err.decode("utf-8", "replace").splitlines() if line.strip()]
    return lines[0] if lines else f"{tool} ended with status {process.returncode}"


async def _pg_dump(url: str, destination: Path) -> Path:
    """``pg_dump`` of ``url`` into ``destination`` (custom format, 0600). Raises :class:`RefusedError` when it
    fails (the message without the password)."""
    owner_only(destination)
    error = await _run("pg_dump", "--format=custom", "--no-owner", f"--file={destination}", f"--dbname={url}")
    if error:
        raise RefusedError(f"not backed up: {error.replace(url, hide_password(url))}")
    return destination


async def restore_postgres(backup: str | Path, url: str) -> RestoreReport:
    """Put the ``pg_dump`` archive ``backup`` (:func:`backup_file`) in place of the club tables of the PostgreSQL
    database ``url`` (the bot stopped): ``pg_restore --clean`` in one transaction, so a failure changes nothing; then
    the database's own check (:meth:`storage.pgstore.PgDatabase.integrity_check`). Raises ``FileNotFoundError`` if
    there is no ``backup``, :class:`RefusedError` (nothing changed) if ``pg_restore`` cannot use it."""
    backup = Path(backup)
    if not backup.is_file():
        raise FileNotFoundError(f"not restored: no backup at {backup}")
    error = await _run("pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction",
                       "--exit-on-error", f"--dbname={url}", str(backup))  # fmt: skip
    if error:
        raise RefusedError(f"not restored: {backup} could not be restored into {hide_password(url)} ({error}); "
                           "nothing was changed")  # fmt: skip
    async with Database.open(url) as database:
        check = await database.integrity_check()
    return RestoreReport(backup, hide_password(url), (), check)


async def check_file(path: str | Path) -> list[str]:
    """``PRAGMA integrity_check`` and foreign-key check of the database at ``path``: ``["ok"]`` or the problems.

    ``path`` may be a ``postgresql://…`` URL: then :meth:`storage.pgstore.PgDatabase.integrity_check` (schema
    version and triggers). Raises ``FileNotFoundError`` if there is no file at ``path``."""
    if isinstance(path, str) and path.startswith(POSTGRESQL):
        async with Database.open(path) as database:
            return await database.integrity_check()
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no database at {path}")
    async with Database.open(path) as database:
        return await database.integrity_check()
