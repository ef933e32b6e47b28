"""Command line maintenance: ``python -m club verify PATH`` and ``python -m club upgrade PATH`` (backup and
restore are ``python -m storage backup|restore``).

``PATH`` may be a ``postgresql://…`` URL (the PostgreSQL backend). ``verify`` replays every stored match's log and checks it against the stored state and the dice commitments
(:mod:`club.verify`); exit status 0 when everything is sound, 1 otherwise. ``upgrade`` rewrites states stored in an older format as the
state their log replays to (:mod:`club.states`; the bot does it at start), and keeps the ``.mat`` file of every
finished table that has none (an older database: :func:`club.export.fill_mat_files`; exports read these files);
exit status 1 if any state was left as it was or a file could not be made.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from club.wording import plural
from storage import Database, StorageError
from storage.errors import DatabaseUnavailableError
from storage.health import FileProblem, check_before_opening
from storage.pgerrors import hide_password

from .export import fill_mat_files
from .service import ClubService
from .states import upgrade_states
from .verify import ChouetteReport, verify_database


async def _verify(path: Path | str, quiet: bool) -> int:
    async with Database.open(path) as db:
        reports = await verify_database(db)
    bad = [report for report in reports if not report.ok]
    for report in reports:
        if report.ok and quiet:
            continue
        status = "ok" if report.ok else "PROBLEMS"
        label = getattr(report, "label", None) or f"match {report.match_id}"
        print(
            f"{label}: {status} — {report.actions} actions, {report.games} game{'s' if report.games != 1 else ''}, "
            f"{report.proven_rolls} rolls proven, {report.injected_games} games with injected dice"
        )
        for problem in report.problems:
            print(f"    {problem}")
        for line in report.luck:
            print(f"    luck: {line}")
    print(f"{checked_words(reports)} checked, {len(bad)} with problems")
    return 1 if bad else 0


def checked_words(reports) -> str:
    """``2 matches and 1 chouette``: what ``reports`` checked (matches and money sessions count as matches; the
    chouettes, :class:`~club.verify.ChouetteReport`, apart)."""
    chouettes = sum(isinstance(report, ChouetteReport) for report in reports)
    matches = len(reports) - chouettes
    words = [f"{matches} match{'es' if matches != 1 else ''}"] if matches or not chouettes else []
    words += [f"{chouettes} chouette{'s' if chouettes != 1 else ''}"] if chouettes else []
    return " and ".join(words)


async def _upgrade(path: Path | str) -> int:
    async with Database.open(path) as db:
        report = await upgrade_states(db)
        made, unkept = await fill_mat_files(ClubService(db))
    for problem in report.problems + unkept:
        print(f"    {problem}")
    print(f"{len(report.upgraded)} states upgraded, {report.current} already current, {len(report.problems)} left")
    print(f"{plural(made, '.mat file')} of finished tables kept, {len(unkept)} could not be made")
    return 1 if report.problems or unkept else 0


def main(argv: list[str] | None = None) -> int:
    """Run the command in ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m club", description="Club maintenance.")
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser("verify", help="replay every game's log and check it against the stored state")
    verify.add_argument("path")
    verify.add_argument("--quiet", action="store_true", help="print only matches with problems and the summary")
    upgrade = commands.add_parser("upgrade", help="rewrite states of an older format from their logs")
    upgrade.add_argument("path")
    args = parser.parse_args(argv)
    if args.path.startswith(("postgresql://", "postgres://")):  # a PostgreSQL database: no file to check first
        try:
            return asyncio.run(_upgrade(args.path) if args.command == "upgrade" else _verify(args.path, args.quiet))
        except DatabaseUnavailableError as error:
            print(error, file=sys.stderr)
            return 1
        except (StorageError, OSError) as error:
            print(f"{hide_password(args.path)} cannot be read: {error}", file=sys.stderr)
            return 1
    path = Path(args.path)
    if not path.is_file():
        print(f"no database at {path}", file=sys.stderr)
        return 1
    problem = check_before_opening(path, write=False)
    if problem is None and path.stat().st_size == 0:
        problem = FileProblem("foreign", f"{path} is an empty file, not a club database")
    if problem is not None:
        print(problem.text)
        return 1
    try:
        if args.command == "upgrade":
            return asyncio.run(_upgrade(path))
        return asyncio.run(_verify(path, args.quiet))
    except (StorageError, OSError) as error:  # damage quick_check did not see
        print(
            f"{path} cannot be read to the end ({error}): it is damaged; restore the last backup: "
            f"python -m storage restore BACKUP {path}"
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
