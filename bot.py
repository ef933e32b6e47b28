"""Entry point: the Discord bot, the same bot in a console, and match-file replays through the use-case layer.

Installed (``pip install .``) it is the command ``bgclub``; in a clone of the repository, ``python bot.py``. Both take
the same arguments:

- ``python bot.py`` — the Discord bot (token from ``DISCORD_TOKEN`` or ``[discord] token`` in ``config.toml``).
  ``--sync`` also syncs the slash commands (globally, or to one server at once with ``--guild ID``); without it the
  command tree is never sent to Discord.
- ``python bot.py --console`` — the same use-cases in a terminal (``as alice``, ``/bg challenge bob 5``, …), an
  ASCII board after each action and each turn's PNG in ``[console] images``. Scriptable: ``python bot.py --console <
  script.txt``. ``--db PATH`` overrides ``[storage] path``. When a rated match or money session ends, the engine's
  review is printed once computed (``--no-review`` or ``[analysis] review_after_match = false``: only on ``review``).
- ``python bot.py replay FILE.mat [FILE …] --images DIR [--jacoby] [--beavers] [--automatic-doubles N]
  [--no-crawford]`` — play match files through the use-case layer (a temporary database unless ``--db``), a board
  image after every turn, each game's result and the final score; the options and the score semantics (a money
  session's running totals) are those of ``python -m backgammon replay``.
- ``python bot.py analyse FILE.mat [--json]`` — every checker play and cube decision graded by the engine (optional
  install, ``requirements-analysis.txt``): error rate, errors, blunders, cube errors and luck per player
  (:mod:`club.analysis.cli`).

The configuration is ``config.toml`` in the current folder (copy ``config.example.toml``; every key is optional;
relative paths in it are taken from the current folder) — see the README.

The parts live in the package :mod:`botapp` (``settings``, ``discord_bot``, ``console``, ``replays``, ``startup``);
this file is the command line and re-exports their public names.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from botapp.console import _console, no_contribution, reproducible, seed_source, stored_commitments
from botapp.discord_bot import CONSOLE_HINT, TOKEN_HELP, BgBot, run_bot
from botapp.replays import replay_files
from botapp.settings import ConfigError, Settings, hide_password, load_config, program, url_password
from botapp.startup import start_up_problem, upgrade_stored_states
from cogs import EXTENSIONS
from storage import DatabaseUnavailableError

__all__ = [
    "CONSOLE_HINT",
    "EXTENSIONS",
    "TOKEN_HELP",
    "BgBot",
    "ConfigError",
    "Redact",
    "Settings",
    "hide_password",
    "load_config",
    "main",
    "no_contribution",
    "replay_files",
    "reproducible",
    "run_bot",
    "seed_source",
    "start_up_problem",
    "stored_commitments",
    "upgrade_stored_states",
    "url_password",
]


class Redact(logging.Filter):
    """A handler filter that replaces each of ``secrets`` (the token) in a record's text by ``[redacted]``, so no
    log line — ours or a library's — shows it."""

    def __init__(self, secrets) -> None:
        super().__init__()
        self.secrets = tuple(secret for secret in secrets if secret)

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if any(secret in text for secret in self.secrets):
            for secret in self.secrets:
                text = text.replace(secret, "[redacted]")
            record.msg, record.args = text, None
        return True


def _setup_logging(level: str, secrets=()) -> None:
    """Log to standard error at ``level``; every handler redacts ``secrets`` (:class:`Redact`)."""
    logging.basicConfig(
        level=getattr(logging, level, logging.INFO),
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    logging.getLogger("discord.http").setLevel(logging.WARNING)
    if secrets:
        for handler in logging.getLogger().handlers:
            handler.addFilter(Redact(secrets))


CONFIG_HELP = "configuration file (TOML; default: config.toml in the current folder, else the built-in defaults)"


def _settings(config: Path | None) -> Settings | int:
    """The :class:`Settings` of ``--config`` (default ``config.toml`` in the current folder), or exit code 2 after a
    one-line message on standard error when the file is missing (named explicitly), not TOML, or has a value of the
    wrong type."""
    path = config if config is not None else Path("config.toml")
    try:
        return Settings.from_config(load_config(path, explicit=config is not None))
    except ConfigError as error:
        where = "" if str(error).startswith(str(path)) else f"{path}: "  # load_config names the file itself
        print(f"config: {where}{error}", file=sys.stderr)
        return 2


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and run the bot, the console or a replay; returns the process exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("analyse", "analyze"):
        from club.analysis.cli import main as analyse_main

        return analyse_main(argv[1:])
    if argv and argv[0] == "replay":
        parser = argparse.ArgumentParser(prog=f"{program()} replay", description="Play match files through the club")
        parser.add_argument("files", nargs="+", type=Path, help=".mat / .txt match files")
        parser.add_argument("--images", type=Path, default=None, help="folder for a board image after every turn")
        parser.add_argument("--db", type=Path, default=None, help="database file (default: a temporary one)")
        parser.add_argument("--config", type=Path, default=None, help=CONFIG_HELP)
        parser.add_argument("--jacoby", action="store_true", help="Jacoby rule (money sessions only, RULES D4)")
        parser.add_argument("--beavers", action="store_true", help="beavers and raccoons (money sessions, RULES D3)")
        parser.add_argument(
            "--automatic-doubles", type=int, default=0, metavar="N", help="automatic doubles limit (money, RULES G3)"
        )
        parser.add_argument("--no-crawford", action="store_true", help="played without the Crawford rule (RULES M3)")
        args = parser.parse_args(argv[1:])
        if args.automatic_doubles < 0:
            parser.error("--automatic-doubles is 0 (none) or more")
        settings = _settings(args.config)
        if isinstance(settings, int):
            return settings
        _setup_logging("WARNING")
        options = {
            "jacoby": args.jacoby,
            "beavers": args.beavers,
            "automatic_doubles": args.automatic_doubles,
            "crawford": False if args.no_crawford else None,
        }
        return asyncio.run(
            replay_files(args.files, images=args.images, database_path=args.db, settings=settings, rule_options=options)
        )

    parser = argparse.ArgumentParser(
        prog=program(),
        description=f"Backgammon club bot for Discord ({program()} replay FILE.mat --images DIR: replay a match file)",
    )
    parser.add_argument("--config", type=Path, default=None, help=CONFIG_HELP)
    parser.add_argument("--console", action="store_true", help="play in this terminal instead of Discord")
    parser.add_argument("--db", type=Path, default=None, help="database file (default: [storage] path)")
    parser.add_argument("--sync", action="store_true", help="send the slash commands to Discord at start")
    parser.add_argument("--guild", type=int, default=None, help="with --sync: sync to this server only (instant)")
    parser.add_argument(
        "--seed", default=None, help="console: reproducible dice seeds (the same script, the same game)"
    )
    parser.add_argument("--no-images", action="store_true", help="console: print the boards only, write no PNGs")
    parser.add_argument(
        "--no-review", action="store_true", help="console: no automatic engine review when a match ends"
    )
    args = parser.parse_args(argv)
    settings = _settings(args.config)
    if isinstance(settings, int):
        return settings
    problem = settings.check()
    if problem is not None:
        print(f"config: {problem}", file=sys.stderr)
        return 2
    no_token = not settings.token
    if no_token and not args.console:
        if args.sync:  # asked for Discord explicitly: nothing to do without a token
            print(TOKEN_HELP + "\n" + CONSOLE_HINT)
            return 1
        print(TOKEN_HELP + "\nStarting the console mode: the same use-cases in this terminal (quit to leave).\n")
    database = args.db or (None if settings.database_url else settings.database)  # None: [storage] url
    refusal = start_up_problem(database)
    if refusal is not None:
        print(refusal, file=sys.stderr)
        return 2
    if args.console or no_token:
        _setup_logging("WARNING")
        try:
            images = None if args.no_images else settings.console_images
            return asyncio.run(_console(settings, database, images, args.seed, review=not args.no_review))
        except DatabaseUnavailableError as error:  # [storage] url: one line, what is wrong and what to do
            print(f"database: {error}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:  # Ctrl-C while a command ran (at the prompt the console says Bye itself)
            print("\nBye.")
            return 0
    if args.db is not None:
        settings = Settings(**{**settings.__dict__, "database": args.db, "database_url": ""})
    _setup_logging(settings.log_level, secrets=(settings.token, url_password(settings.database_url)))
    return run_bot(settings, sync=args.sync, guild=args.guild)


if __name__ == "__main__":
    sys.exit(main())
