"""Command line: ``python -m storage backup SOURCE DEST``, ``python -m storage restore BACKUP DATABASE`` (the bot
stopped: the database and its -wal/-shm moved aside, the backup copied in and checked, :func:`storage.backup.restore_file`),
``python -m storage check PATH`` and
``python -m storage migrate-to URL [--from PATH]`` (copy the SQLite file into PostgreSQL and compare every table,
:mod:`storage.migrate`; then ``python -m club verify URL`` replays every stored table on the copy — the use-case
layer's check, which storage does not import).

Exit status 0 on success, 1 when the check finds problems or the source is missing (or the copy differs), 2 for a
refused target (a backup or restore onto its own source, a backup that is not a sound club database).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from .backup import POSTGRESQL, RefusedError, backup_file, check_file, restore_file, restore_postgres
from .errors import DatabaseUnavailableError, StorageError


def main(argv: list[str] | None = None) -> int:
    """Run the command in ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m storage", description="Club database maintenance.")
    commands = parser.add_subparsers(dest="command", required=True)
    backup = commands.add_parser("backup", help="online backup of a database file (safe while the bot runs)")
    backup.add_argument("source")
    backup.add_argument("destination")
    restore = commands.add_parser(
        "restore", help="stop the bot first: put a backup in place of the database, the old files kept aside"
    )
    restore.add_argument("backup")
    restore.add_argument("database")
    check = commands.add_parser("check", help="PRAGMA integrity_check and foreign-key check (or a postgresql:// URL)")
    check.add_argument("path")
    migrate = commands.add_parser("migrate-to", help="copy the SQLite file into an empty PostgreSQL database, verified")
    migrate.add_argument("url", help="postgresql://user:password@host/database (an empty database)")
    migrate.add_argument(
        "--from", dest="source", default="bgclub.sqlite3", help="the SQLite file (default: %(default)s)"
    )
    args = parser.parse_args(argv)
    if args.command == "migrate-to":
        return asyncio.run(_migrate_to(args.source, args.url))
    if args.command == "restore":
        return _restore(args.backup, args.database)
    try:
        if args.command == "backup":
            path = asyncio.run(backup_file(args.source, args.destination))
            print(f"backed up {args.source} to {path}")
            return 0
        problems = asyncio.run(check_file(args.path))
    except (FileNotFoundError, DatabaseUnavailableError) as error:
        print(error, file=sys.stderr)
        return 1
    except RefusedError as error:
        print(error, file=sys.stderr)
        return 2
    for problem in problems:
        print(problem)
    return 0 if problems == ["ok"] else 1


def _restore(backup: str, database: str) -> int:
    """``restore``: :func:`storage.backup.restore_file`, and what it did, one line a step."""
    try:
        if database.startswith(POSTGRESQL):
            report = asyncio.run(restore_postgres(backup, database))
        else:
            report = restore_file(backup, database)
    except FileNotFoundError as error:
        print(error, file=sys.stderr)
        return 1
    except RefusedError as error:
        print(error, file=sys.stderr)
        return 2
    except (OSError, StorageError) as error:
        print(f"not restored: {error}", file=sys.stderr)
        return 1
    for old, new in report.aside:
        print(f"moved {old} aside to {new}")
    print(f"copied {report.backup} to {report.database}")
    for problem in report.check:
        print(f"integrity check: {problem}")
    if report.check != ["ok"]:
        print("the restored file is not sound: restore another backup (the old files are kept as moved above)")
        return 1
    print(f"restored: {report.database} holds exactly {report.backup}; actions taken since that backup are lost. "
          f"Replay every log of it: python -m club verify {report.database}; then start the bot")  # fmt: skip
    return 0


async def _migrate_to(source: str, url: str) -> int:
    """``migrate-to``: the copy and its comparison (:func:`storage.migrate.migrate_to`)."""
    from .migrate import migrate_to

    try:
        report = await migrate_to(source, url)
    except FileNotFoundError as error:
        print(f"{error} (name the SQLite file with --from PATH)", file=sys.stderr)
        return 1
    except (StorageError, OSError) as error:
        print(f"not copied: {error}", file=sys.stderr)
        return 2
    for table in report.tables:
        print(f"{table.name}: {table.rows} rows {'same' if table.same else 'DIFFERENT'}")
    for problem in report.problems:
        print(problem)
    if not report.ok:
        print(f"the copy differs from {source}: do not use it (drop the database and copy again)")
        return 1
    print(f"copied {report.rows} rows of {len(report.tables)} database tables, every table the same")
    print(
        "now replay every table on the copy: python -m club verify URL; then set [storage] url (or "
        "BGCLUB_DATABASE_URL) to the database and start the bot"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
