"""Is this database file fit to open? One plain sentence for each way it is not, never a traceback.

:func:`check_before_opening` is what start-up (the bot, the console) and ``python -m club verify`` run first, with
the plain :mod:`sqlite3` module and without writing anything: the folder must be writable (SQLite needs its -wal
and -shm files next to the database), the file must be an SQLite database of this program (``PRAGMA user_version``
1 … :data:`~storage.migrations.SCHEMA_VERSION` with a ``matches`` table, or an empty file / no file yet), not of a
newer schema, and ``PRAGMA quick_check`` must say ``ok``. A damaged file is refused with what to do: restore the
newest sound backup, named by :func:`newest_backup` (the ``.sqlite3``/``.db``/``.bak`` files next to the database
and in a ``backups`` folder beside it).

Bytes that change on the disk without a write through the file system (a failing disk, a flipped bit in a page
SQLite's checks do not read: a free page, a value inside a row) are noticed by the **seal**: when the last connection
closes the file cleanly (no -wal left), :func:`seal` writes ``<file>.seal`` with the file's SHA-256, size and
modification time; at the next start :func:`check_seal` recomputes the digest when size and time are unchanged
(a file written since — by another process, a restore — has a new time and is not judged by an old seal), and
:func:`check_shrunk` refuses a file that is gone, emptied or smaller than its seal records (never a new club).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .migrations import SCHEMA_VERSION

BACKUP_SUFFIXES = (".sqlite3", ".sqlite", ".db", ".bak")


@dataclass(frozen=True, slots=True)
class FileProblem:
    """Why a database file cannot be used: ``kind`` (``folder``, ``foreign``, ``newer``, ``damaged``,
    ``unreadable``) and ``text``, one sentence saying what is wrong and what to do."""

    kind: str
    text: str


def _inspect(path: Path) -> tuple[str, int | None, str | None]:
    """(what, user_version, quick_check's first problem) of an existing file, read-only. ``what`` is ``club``,
    ``empty``, ``foreign`` or ``notdb``."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error:
        return "notdb", None, None
    conn.text_factory = bytes  # the schema table's names are checked as UTF-8 here, not decoded by sqlite3
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        try:
            tables = {row[0].decode() for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except UnicodeDecodeError:
            return "club", version, "its schema table holds a name that is not UTF-8 text"
        if not tables and version == 0:
            return "empty", 0, None
        if version == 0 or "matches" not in tables:
            return "foreign", version, None
        rows = conn.execute("PRAGMA quick_check").fetchall()
        bad = [row[0].decode("utf-8", "replace") for row in rows if row[0] != b"ok"]
        return "club", version, (bad[0] if bad else None)
    except sqlite3.DatabaseError as error:  # "file is not a database", "database disk image is malformed"
        text = str(error)
        return ("notdb" if "not a database" in text else "club"), None, text
    finally:
        conn.close()


def newest_backup(path: str | Path) -> Path | None:
    """The newest sound club database (by modification time) among the files next to ``path`` and in a
    ``backups`` folder beside it (names ending in :data:`BACKUP_SUFFIXES`, the database itself and its -wal/-shm
    left out), or None."""
    path = Path(path).resolve()
    candidates = []
    for folder in (path.parent, path.parent / "backups"):
        if not folder.is_dir():
            continue
        for each in folder.iterdir():
            if each.resolve() == path or not each.is_file() or not each.name.endswith(BACKUP_SUFFIXES):
                continue
            candidates.append(each)
    for each in sorted(candidates, key=lambda p: p.stat().st_mtime, reverse=True):
        what, version, problem = _inspect(each)
        if what == "club" and problem is None and version is not None and version <= SCHEMA_VERSION:
            return each
    return None


def can_write(folder: Path) -> bool:
    """Whether a file can be created in ``folder`` (tried for real: ``os.access`` says yes to root on a read-only
    mount)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _restore_advice(path: Path) -> str:
    backup = newest_backup(path)
    if backup is None:
        return (f"restore your last backup (none found next to it nor in {path.parent / 'backups'}): "
                f"python -m storage restore BACKUP {path}")  # fmt: skip
    made = time.strftime("%Y-%m-%d %H:%M", time.localtime(backup.stat().st_mtime))
    return (f"stop the bot and restore the last backup, {backup} (made {made}), which keeps the damaged file and "
            f"its -wal/-shm aside: python -m storage restore {backup} {path}")  # fmt: skip


def _seal_path(path: Path) -> Path:
    return path.with_name(path.name + ".seal")


def _digest(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def seal(path: str | Path) -> Path | None:
    """Write the seal of the database at ``path`` (see the module docstring), created 0600; returns its path, or
    None (and removes an old seal) when the file is still in use (a -wal file is there) or gone."""
    path = Path(path)
    target = _seal_path(path)
    wal = Path(f"{path}-wal")
    try:
        if not path.is_file() or (wal.exists() and wal.stat().st_size > 0):
            target.unlink(missing_ok=True)
            return None
        stat = path.stat()
        record = {"sha256": _digest(path), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
        if path.stat().st_mtime_ns != stat.st_mtime_ns:  # written while we read it: no seal
            target.unlink(missing_ok=True)
            return None
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            json.dump(record, handle)
        return target
    except OSError:  # a read-only folder, a vanished file: no seal, and no error at shutdown
        return None


def check_seal(path: str | Path) -> str | None:
    """What the seal of ``path`` says is wrong (bytes changed with neither size nor time changing), or None (sound,
    no seal, or a file written since it was sealed)."""
    path = Path(path)
    try:
        record = json.loads(_seal_path(path).read_text())
        stat = path.stat()
        if stat.st_size != record["size"] or stat.st_mtime_ns != record["mtime_ns"]:
            return None
        if _digest(path) != record["sha256"]:
            return "its bytes changed on the disk since the bot closed it (the SHA-256 differs from its seal)"
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return None


def check_shrunk(path: str | Path) -> str | None:
    """What the seal of ``path`` says about a file that is gone or smaller than when it was sealed (emptied, cut
    short, replaced), or None. The club's files only grow between clean closes (nothing vacuums them), so a smaller
    file is never the bot's own doing; one sentence naming the seal, the backup to restore and how to start anew."""
    path = Path(path)
    target = _seal_path(path)
    try:
        sealed = json.loads(target.read_text())["size"]
        size = path.stat().st_size if path.exists() else None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(sealed, int) or (size is not None and size >= sealed):
        return None
    now = "is gone" if size is None else ("is empty (0 bytes)" if size == 0 else f"has {size} bytes")
    return (f"{path} {now}, but its seal {target} records {sealed} bytes at the bot's last clean close: it was "
            f"emptied, cut short or replaced, and is not started as a new club; {_restore_advice(path)} (to start a "
            f"new club there on purpose, delete {target} first)")  # fmt: skip


def check_before_opening(path: str | Path, *, write: bool = True) -> FileProblem | None:
    """What stops the database at ``path`` from being opened (see the module docstring), or None when it is fine
    (or does not exist yet and its folder is writable). ``write``: whether the caller will write (start-up) — a
    read-only folder is then a problem. Never raises for a bad file; reads nothing but the file's header pages
    and its b-trees (``quick_check``)."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if write:
        if not folder.is_dir():
            return FileProblem(
                "folder", f"{folder} does not exist: create it, or set [storage] path to a folder that does"
            )
        if not can_write(folder):
            return FileProblem("folder", f"the folder {folder} is read-only for this user: SQLite needs to write "
                               f"{path.name}-wal and {path.name}-shm beside the database; make it writable or set "
                               "[storage] path to a writable folder")  # fmt: skip
        if path.exists() and not os.access(path, os.R_OK | os.W_OK):
            return FileProblem("unreadable", f"{path} cannot be read and written by this user: fix its owner or mode "
                               "(chmod 600, owned by the bot's user)")  # fmt: skip
    shrunk = check_shrunk(path)
    if shrunk is not None:
        return FileProblem("damaged", shrunk)
    if not path.exists():
        return None
    if path.is_dir():
        return FileProblem("foreign", f"{path} is a folder, not a database file")
    if not os.access(path, os.R_OK):
        return FileProblem("unreadable", f"{path} cannot be read by this user: fix its owner or mode")
    if path.stat().st_size == 0:
        return None
    what, version, problem = _inspect(path)
    if what == "notdb":
        return FileProblem("foreign", f"{path} is not an SQLite database (another program's file, or damaged beyond "
                           f"its header): point [storage] path elsewhere, or {_restore_advice(path)}")  # fmt: skip
    if what == "foreign":
        return FileProblem("foreign", f"{path} is an SQLite database of another program (user_version {version}, no "
                           "club tables): point [storage] path to the club's file")  # fmt: skip
    if version is not None and version > SCHEMA_VERSION:
        return FileProblem("newer", f"{path} has schema version {version}, newer than this program's "
                           f"{SCHEMA_VERSION}: upgrade the bot (git pull) before opening it")  # fmt: skip
    if problem is not None:
        return FileProblem("damaged", f"{path} is damaged (SQLite quick_check: {problem}); {_restore_advice(path)}")
    changed = check_seal(path)
    if changed is not None:
        return FileProblem("damaged", f"{path} is damaged: {changed}; {_restore_advice(path)}")
    return None
