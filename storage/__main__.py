"""Command line: ``python -m storage backup SOURCE DEST`` and ``python -m storage check PATH``.

Exit status 0 on success, 1 when the check finds problems or the source is missing.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from .backup import backup_file, check_file


def main(argv: list[str] | None = None) -> int:
    """Run the command in ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m storage", description="Club database maintenance.")
    commands = parser.add_subparsers(dest="command", required=True)
    backup = commands.add_parser("backup", help="online backup of a database file (safe while the bot runs)")
    backup.add_argument("source")
    backup.add_argument("destination")
    check = commands.add_parser("check", help="PRAGMA integrity_check and foreign-key check")
    check.add_argument("path")
    args = parser.parse_args(argv)
    try:
        if args.command == "backup":
            path = asyncio.run(backup_file(args.source, args.destination))
            print(f"backed up {args.source} to {path}")
            return 0
        problems = asyncio.run(check_file(args.path))
    except FileNotFoundError as error:
        print(error, file=sys.stderr)
        return 1
    for problem in problems:
        print(problem)
    return 0 if problems == ["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
