"""Entry point: the Discord bot, the same bot in a console, and match-file replays through the use-case layer.

- ``python bot.py`` — the Discord bot (token from ``DISCORD_TOKEN`` or ``[discord] token`` in ``config.toml``).
  ``--sync`` also syncs the slash commands (globally, or to one server at once with ``--guild ID``); without it the
  command tree is never sent to Discord.
- ``python bot.py --console`` — the same use-cases in a terminal (``as alice``, ``/bg challenge bob 5``, …), an
  ASCII board after each action and each turn's PNG in ``[console] images``. Scriptable: ``python bot.py --console <
  script.txt``. ``--db PATH`` overrides ``[storage] path``.
- ``python bot.py replay FILE.mat [FILE …] --images DIR [--jacoby] [--beavers] [--automatic-doubles N]
  [--no-crawford]`` — play match files through the use-case layer (a temporary database unless ``--db``), a board
  image after every turn, each game's result and the final score; the options and the score semantics (a money
  session's running totals) are those of ``python -m backgammon replay``.
- ``python bot.py analyse FILE.mat [--json]`` — every checker play and cube decision graded by the engine (optional
  install, ``requirements-analysis.txt``): error rate, errors, blunders, cube errors and luck per player
  (:mod:`club.analysis.cli`).

The configuration is ``config.toml`` (copy ``config.example.toml``; every key is optional) — see the README.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import logging
import os
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
import discord  # noqa: E402
from discord.ext import commands  # noqa: E402

from club import ClubService, ClubSettings, ManualClock  # noqa: E402
from club.admission import Admission  # noqa: E402
from club.boards import BoardOptions  # noqa: E402
from cogs import EXTENSIONS  # noqa: E402
from cogs.buttons import ITEMS  # noqa: E402
from cogs.publish import Publisher  # noqa: E402
from rendering import warm_up  # noqa: E402
from storage import Database  # noqa: E402

log = logging.getLogger("bgclub")

TOKEN_HELP = """No Discord token.
To run the bot in Discord:
  1. https://discord.com/developers/applications → New Application → Bot → Reset Token (copy it).
  2. Put it in config.toml ([discord] token = "...") or in the environment: export DISCORD_TOKEN=...
  3. Invite the bot with the scopes bot and applications.commands (see README "Discord set-up"), then run
     python bot.py --sync once so the /bg commands appear."""
CONSOLE_HINT = "Without a token you can play right here: python bot.py --console"


# -- configuration ---------------------------------------------------------------------------------------------------
class ConfigError(ValueError):
    """The configuration file is missing (when named explicitly), not TOML, or has a value of the wrong type."""


def load_config(path: Path, *, explicit: bool = False) -> dict:
    """Read the TOML file ``path``. When it is missing: ``config.example.toml``'s defaults, unless ``explicit`` (the
    file was named with ``--config``). Raises :class:`ConfigError` naming the file and the problem (no such file,
    unreadable, not valid TOML with its line and column)."""
    source = path if path.exists() or explicit else ROOT / "config.example.toml"
    try:
        with source.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError(f"{source}: no such file") from None
    except OSError as error:
        raise ConfigError(f"{source}: cannot read it ({error.strerror or error})") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: not valid TOML: {error}") from None


_KINDS = {str: ("a string (in quotes)", (str,)), int: ("a whole number", (int,)), float: ("a number", (int, float))}


def _section(config: dict, name: str) -> dict:
    """The table ``[name]`` of ``config`` (dotted names for nested tables), ``{}`` when absent; ``ConfigError``
    when it is not a table."""
    table, parts = config, name.split(".")
    for depth, part in enumerate(parts, 1):
        table = table.get(part, {})
        if not isinstance(table, dict):
            raise ConfigError(f"[{'.'.join(parts[:depth])}] must be a table, not {table!r}")
    return table


def _value(config: dict, section: str, key: str, kind: type, default):
    """``[section] key`` of ``config`` checked to be of ``kind`` (str, int or float; never a bool), else
    ``default``. Raises :class:`ConfigError` saying which key and what it must be."""
    value = _section(config, section).get(key, default)
    what, types = _KINDS[kind]
    if isinstance(value, bool) or not isinstance(value, types):
        raise ConfigError(f"[{section}] {key} must be {what}, not {value!r}")
    return kind(value)


@dataclass(frozen=True)
class Settings:
    """The configuration the program uses (see ``config.example.toml`` and the README for each key)."""

    token: str = ""
    dev_guild: int = 0
    database: Path = Path("bgclub.sqlite3")
    database_url: str = ""
    synchronous: str = "FULL"
    busy_timeout_ms: int = 10_000
    club_defaults: dict = field(default_factory=dict)
    theme: str = "colourblind"
    width: int = 900
    home: str = "right"
    console_images: Path = Path("images")
    log_level: str = "INFO"
    reminder_seconds: float = 60.0
    shards: int = 0

    def __repr__(self) -> str:
        """Every setting but the token, which is shown as ``<hidden>`` (or ``<none>``): it would let anyone run the
        bot."""
        shown = ", ".join(
            f"{name}={'<hidden>' if self.token else '<none>'}"
            if name == "token"
            else f"{name}={hide_password(value) if name == 'database_url' else value!r}"
            for name, value in self.__dict__.items()
        )
        return f"Settings({shown})"

    __str__ = __repr__

    @classmethod
    def from_config(cls, config: dict, *, base: Path = ROOT, environ: dict | None = None) -> Settings:
        """Settings from the parsed TOML; ``DISCORD_TOKEN`` in ``environ`` wins over ``[discord] token``; relative
        paths are taken from ``base`` (the project folder); ``BGCLUB_DATABASE_URL`` in ``environ`` wins over
        ``[storage] url`` (a ``postgresql://…`` URL: the PostgreSQL backend instead of the file). Raises :class:`ConfigError` for a value of the wrong
        type (``[discord] token = 5``), saying which key and what it must be."""
        environ = os.environ if environ is None else environ
        storage = _section(config, "storage")
        legacy = _value(config, "storage", "database", str, "") if "path" not in storage else ""
        database = Path(_value(config, "storage", "path", str, "") or legacy or "bgclub.sqlite3")
        images = Path(_value(config, "console", "images", str, "images"))
        return cls(
            token=(environ.get("DISCORD_TOKEN") or _value(config, "discord", "token", str, "")).strip(),
            dev_guild=_value(config, "discord", "dev_guild", int, 0),
            shards=_value(config, "discord", "shards", int, 0),
            database=database if database.is_absolute() else base / database,
            database_url=(environ.get("BGCLUB_DATABASE_URL") or _value(config, "storage", "url", str, "")).strip(),
            synchronous=_value(config, "storage", "synchronous", str, "FULL"),
            busy_timeout_ms=_value(config, "storage", "busy_timeout_ms", int, 10_000),
            club_defaults=dict(_section(config, "club.defaults")),
            theme=_value(config, "rendering", "theme", str, "colourblind"),
            width=_value(config, "rendering", "width", int, 900),
            home=_value(config, "rendering", "home", str, "right"),
            console_images=images if images.is_absolute() else base / images,
            log_level=_value(config, "logging", "level", str, "INFO").upper(),
            reminder_seconds=_value(config, "scheduler", "interval_seconds", float, 60.0),
        )

    def board_options(self) -> BoardOptions:
        """The :class:`club.boards.BoardOptions` of ``[rendering]`` (validated; ``ValueError`` says what is wrong)."""
        return BoardOptions(self.theme, self.width, self.home).checked()

    def defaults(self) -> ClubSettings:
        """The settings a new club starts with (``[club.defaults]``); raises ``InvalidRequestError`` for a bad key
        or value, saying which."""
        return ClubSettings.from_json(self.club_defaults)

    def open_database(self, path: Path | None = None):
        """``Database.open`` of ``path`` (default: ``[storage] url`` if set, else ``[storage] path``) with
        ``synchronous`` and ``busy_timeout_ms`` (SQLite's)."""
        if path is None and self.database_url:
            return Database.open(self.database_url)
        path = path or self.database
        path.parent.mkdir(parents=True, exist_ok=True)
        return Database.open(path, synchronous=self.synchronous, busy_timeout_ms=self.busy_timeout_ms)

    def check(self) -> str | None:
        """What is wrong with the configuration, in words, or None."""
        try:
            self.board_options()
        except ValueError as error:
            return f"[rendering]: {error}"
        try:
            self.defaults()
        except ValueError as error:
            return f"[club.defaults]: {error}"
        if self.shards < 0:
            return f"[discord] shards is 0 (as many as Discord recommends) or a number of shards, not {self.shards}"
        if self.database_url and not self.database_url.startswith(("postgresql://", "postgres://")):
            return "[storage] url (or BGCLUB_DATABASE_URL) is a postgresql://user:password@host/database URL"
        if self.synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            return f"[storage] synchronous is FULL, NORMAL, EXTRA or OFF, not {self.synchronous!r}"
        return None


# -- the Discord bot -------------------------------------------------------------------------------------------------
class BgBot(commands.AutoShardedBot):
    """The club's bot: opens the database in ``setup_hook``, loads the cogs, registers the persistent buttons (valid
    after a restart), syncs the command tree only when asked, and closes the database on shutdown. Needs no
    privileged intent (slash commands and buttons carry everything it reads).

    Sharded (discord.py's ``AutoShardedBot``): ``[discord] shards`` shards in this process, 0 = as many as Discord
    recommends (one per 1,000 or so guilds; a small bot gets one).

    ``database``/``service`` may be given (tests); otherwise ``setup_hook`` opens ``settings.database`` and makes
    the service with ``service_options`` (keyword arguments of :class:`ClubService`: a test's clock and dice)."""

    def __init__(
        self,
        settings: Settings,
        *,
        database: Database | None = None,
        service: ClubService | None = None,
        sync: bool = False,
        sync_guild: int | None = None,
        service_options: dict | None = None,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads in the cache; not privileged
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False  # no voice: no warning about it
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            shard_count=settings.shards or None,
        )
        self.settings = settings
        self.board_options = settings.board_options()
        self.database = database
        self.service = service
        self.sync_on_start = sync
        self.sync_guild = sync_guild
        self.publisher = Publisher(self)
        self._owns_database = database is None
        self.service_options = dict(service_options or {})
        self._known: dict[tuple[int, int], str] = {}

    async def setup_hook(self) -> None:
        """Open storage, load the extensions, register the persistent buttons, warm the renderer, and sync the
        command tree if asked (``--sync``)."""
        if self.database is None:
            self.database = await self.settings.open_database()
            log.info("database %s open", hide_password(self.settings.database_url) or self.settings.database)
            await upgrade_stored_states(self.database)
        if self.service is None:
            options = {"admission": Admission(), **self.service_options}
            self.service = ClubService(self.database, defaults=self.settings.defaults(), **options)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(*ITEMS)
        options = self.board_options
        await asyncio.to_thread(warm_up, options.theme, width=options.width, home=options.home)
        if self.sync_on_start:
            await self.sync_commands(self.sync_guild)

    async def sync_commands(self, guild_id: int | None = None) -> list:
        """Send the command tree to Discord: to one server (instant, for testing) or globally."""
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d command(s) to guild %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global command(s) (they may take up to an hour to appear)", len(synced))
        return synced

    async def register_member(self, guild_id: int, user) -> int:
        """Make ``user`` a member of the club of ``guild_id`` under his display name (once per name change)."""
        name = getattr(user, "display_name", None) or getattr(user, "name", None) or str(user.id)
        key = (guild_id, user.id)
        if self._known.get(key) != name:
            await self.service.register(guild_id, user.id, name)
            self._known[key] = name
        return user.id

    async def on_ready(self) -> None:
        """Log who we are."""
        log.info("logged in as %s in %d server(s)", self.user, len(self.guilds))

    async def close(self) -> None:
        """Disconnect, then close the database (an open aiosqlite connection would keep the process alive)."""
        try:
            await super().close()
        finally:
            if self.database is not None and self._owns_database:
                await self.database.close()
                self.database = None


def run_bot(settings: Settings, *, sync: bool, guild: int | None) -> int:
    """Run the bot until stopped (Ctrl-C). Returns the exit code."""
    bot = BgBot(settings, sync=sync, sync_guild=guild or (settings.dev_guild if sync else None))

    async def runner() -> None:
        async with bot:
            await bot.start(settings.token)

    try:
        asyncio.run(runner())
    except discord.LoginFailure:
        print(
            "Discord refused the token (LoginFailure): reset it in the developer portal.", TOKEN_HELP, CONSOLE_HINT,
            sep="\n", file=sys.stderr,
        )  # fmt: skip
        return 1
    except discord.PrivilegedIntentsRequired:  # pragma: no cover - the bot asks for none
        print("Discord says a privileged intent is needed; this bot should need none.", file=sys.stderr)
        return 1
    except (aiohttp.ClientError, OSError, discord.GatewayNotFound, discord.ConnectionClosed,
            discord.DiscordServerError) as error:  # fmt: skip
        print(f"Cannot reach Discord ({error}). Check the network, or play in the console: python bot.py --console",
              file=sys.stderr)  # fmt: skip
        return 1
    except KeyboardInterrupt:
        pass
    return 0


# -- the console -----------------------------------------------------------------------------------------------------
def seed_source(text: str, used: frozenset[str] | set[str] = frozenset()):
    """A reproducible source of dice seeds (``--seed``): the candidates are SHA-256 of ``"<text>:0"``,
    ``"<text>:1"``, … and a candidate whose commitment (SHA-256 of the seed, hex) is in ``used`` is skipped, so a
    restarted console never deals a game the dice of a stored one. The dice stay provably fair (RULES A1:
    committed, derived, revealed) and a script replays the same games into a fresh database."""
    import hashlib
    import itertools

    from club.dice import seed_hash

    counter = itertools.count()

    def next_seed() -> bytes:
        while True:
            seed = hashlib.sha256(f"{text}:{next(counter)}".encode()).digest()
            if seed_hash(seed) not in used:
                return seed

    return next_seed


def no_contribution() -> str:
    """The client seed of a member's action under ``--seed``: empty (it does not count, :data:`club.dice.RECIPE_V2`),
    so that a script replays the same dice; without ``--seed`` each action contributes a fresh :mod:`secrets` value
    (issue 12 item 1)."""
    return ""


def reproducible(text: str, used: frozenset[str] | set[str] = frozenset()) -> dict:
    """The :class:`~club.service.ClubService` options of ``--seed text``: the seeds of :func:`seed_source` and empty
    client seeds (:func:`no_contribution`) — reproducible dice for scripts and demos, not for play that matters."""
    return {"seeds": seed_source(text, used), "contributions": no_contribution}


async def stored_commitments(database: Database) -> set[str]:
    """The seed commitments (hex) of every stored game and chouette dice series, and of the seeds committed ahead:
    the seeds ``--seed`` must skip."""
    async with database.transaction() as tx:
        rows = await tx.fetchall(
            "SELECT seed_hash FROM games WHERE seed_hash IS NOT NULL"
            " UNION SELECT seed_hash FROM chouette_dice WHERE seed_hash IS NOT NULL"
            # the seeds committed ahead of a game not started yet (issue 12 item 1, club.commitments)
            " UNION SELECT json_extract(state, '$.dice.ahead.seed_hash') FROM matches"
            " UNION SELECT json_extract(state, '$.dice.ahead.seed_hash') FROM chouette_sessions"
        )
    return {row[0] for row in rows if row[0]}


async def upgrade_stored_states(database: Database) -> None:
    """Bring states stored in an older format up to date from their logs (:func:`club.states.upgrade_states`);
    logs what was done and what was left (the tables still load and play either way)."""
    from club.states import upgrade_states

    report = await upgrade_states(database)
    if report.upgraded:
        log.info("upgraded %d stored states to the current format", len(report.upgraded))
    for problem in report.problems:
        log.warning("state upgrade: %s", problem)


async def _console(settings: Settings, database_path: Path | None, images: Path | None, seed: str | None = None) -> int:
    from club.console import run_console

    async with settings.open_database(database_path) as database:
        await upgrade_stored_states(database)
        options = {} if seed is None else reproducible(seed, await stored_commitments(database))
        # the console's time passes on request (``wait 6h``): a manual clock starting now
        service = ClubService(database, defaults=settings.defaults(), clock=ManualClock(time.time()), **options)
        # one folder per database, so two databases never overwrite each other's pictures
        stem = "postgresql" if database_path is None else Path(database_path).stem
        folder = None if images is None else images / stem
        return await run_console(service, sys.stdin, sys.stdout, images=folder, options=settings.board_options())


# -- replays ---------------------------------------------------------------------------------------------------------
async def replay_files(
    files: list[Path],
    *,
    images: Path | None,
    database_path: Path | None,
    settings: Settings,
    out=print,
    rule_options: dict | None = None,
) -> int:
    """Play each match file through the use-case layer (:func:`club.matreplay.replay_match_file`), writing a board
    image after every turn (each use-case call that changed the board) into ``images/<file stem>/``, and print each
    game's result and the final score. ``rule_options``: ``jacoby``, ``beavers``, ``automatic_doubles``, ``crawford``, as
    ``python -m backgammon replay`` takes them (RULES D4, D3, G3, M3). Returns 0 when every file played through,
    1 otherwise (also for options that do not suit a file: money options on a match)."""
    from backgammon.errors import MatchFileError, RuleSetError
    from backgammon.matfile import parse_mat
    from club.boards import board_filename
    from club.matreplay import replay_match_file

    options = settings.board_options()
    folder = None
    synchronous = settings.synchronous
    if database_path is None:  # a throw-away database: durability does not matter, speed does
        folder = tempfile.TemporaryDirectory(prefix="bgclub-replay-")
        database_path = Path(folder.name) / "replay.sqlite3"
        synchronous = "OFF"
    failures = 0
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1)))
    try:
        async with Database.open(database_path, synchronous=synchronous) as database:
            for number, path in enumerate(files):
                started = time.perf_counter()
                try:
                    record = parse_mat(path.read_text(encoding="utf-8", errors="replace"))
                except (OSError, MatchFileError) as error:
                    out(f"{path}: cannot read it: {error}")
                    failures += 1
                    continue
                target = None if images is None else images / path.stem
                if target is not None:
                    target.mkdir(parents=True, exist_ok=True)
                pending: list[concurrent.futures.Future] = []

                def write_image(outcome, target=target, pending=pending) -> None:
                    if target is None or not outcome.image_due or outcome.view.game is None:
                        return
                    view = outcome.view  # frozen: safe to draw in a worker while the club goes on
                    pending.append(pool.submit(_write_board, view, target / board_filename(view), options))

                players = (1_000 + 2 * number, 1_001 + 2 * number)
                try:
                    result = await replay_match_file(
                        database, record, players=players, on_outcome=write_image, **(rule_options or {})
                    )
                except RuleSetError as error:
                    out(f"{path}: --jacoby, --beavers and --automatic-doubles are for money sessions only: {error}")
                    failures += 1
                    continue
                written = 0
                for future in pending:
                    try:
                        future.result()
                        written += 1
                    except (OSError, ValueError) as error:
                        out(f"{path.name}: a board image failed: {error}")
                        result.problems.append(f"board image: {error}")
                seconds = time.perf_counter() - started
                out(f"== {path.name}: {record.players[0]} vs {record.players[1]}, "
                    f"{f'{record.length}-point match' if record.length else 'money session'}")  # fmt: skip
                out(result.describe())
                where = f" in {target}" if target is not None else ""
                out(f"({result.calls} use-case calls, {written} board images{where}, {seconds:.1f} s)")
                if not result.ok:
                    failures += 1
    finally:
        pool.shutdown(wait=True)
        if folder is not None:
            folder.cleanup()
    out(f"{len(files) - failures} of {len(files)} file(s) played through the club.")
    return 0 if failures == 0 else 1


def _write_board(view, path: Path, options: BoardOptions) -> None:
    """Render ``view`` (seen by the member who must act) and write the PNG to ``path`` (in a worker thread: Pillow
    drawing and PNG compression release the GIL, so images are made while the club plays on)."""
    from club.boards import render_table

    path.write_bytes(render_table(view, view.waiting_for, options))


# -- command line ----------------------------------------------------------------------------------------------------
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


CONFIG_HELP = "configuration file (TOML; default: config.toml, else the defaults of config.example.toml)"


def url_password(url: str) -> str:
    """The password in a ``postgresql://user:password@host/…`` URL, or ``""``."""
    from urllib.parse import urlsplit

    try:
        return urlsplit(url).password or ""
    except ValueError:
        return ""


def hide_password(url: str) -> str:
    """``url`` with its password (if any) shown as ``<hidden>``, for logs and ``repr``."""
    password = url_password(url)
    return url.replace(f":{password}@", ":<hidden>@") if password else url


def _settings(config: Path | None) -> Settings | int:
    """The :class:`Settings` of ``--config`` (default ``config.toml``), or exit code 2 after a one-line message on
    standard error when the file is missing (named explicitly), not TOML, or has a value of the wrong type."""
    path = config if config is not None else ROOT / "config.toml"
    source = path if path.exists() or config is not None else ROOT / "config.example.toml"
    try:
        return Settings.from_config(load_config(path, explicit=config is not None))
    except ConfigError as error:
        where = "" if str(error).startswith(str(source)) else f"{source}: "  # load_config names the file itself
        print(f"config: {where}{error}", file=sys.stderr)
        return 2


def start_up_problem(database: Path | None) -> str | None:
    """Why the program cannot start, in one line, or None (issue 12 item 7): the database file is refused by
    :func:`storage.health.check_before_opening` (read-only folder, foreign or newer file, damaged: restore which
    backup; None = a PostgreSQL database, nothing to check here), or the bundled fonts are missing
    (:func:`rendering.text.font_problem`)."""
    from rendering.text import font_problem
    from storage.health import check_before_opening

    problem = None if database is None else check_before_opening(database)
    if problem is not None:
        return f"database: {problem.text}"
    fonts = font_problem()
    return None if fonts is None else f"fonts: {fonts}"


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and run the bot, the console or a replay; returns the process exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("analyse", "analyze"):
        from club.analysis.cli import main as analyse_main

        return analyse_main(argv[1:])
    if argv and argv[0] == "replay":
        parser = argparse.ArgumentParser(prog="python bot.py replay", description="Play match files through the club")
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
        description="Backgammon club bot for Discord (python bot.py replay FILE.mat --images DIR: replay a match file)"
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
            return asyncio.run(_console(settings, database, images, args.seed))
        except KeyboardInterrupt:  # Ctrl-C while a command ran (at the prompt the console says Bye itself)
            print("\nBye.")
            return 0
    if args.db is not None:
        settings = Settings(**{**settings.__dict__, "database": args.db, "database_url": ""})
    _setup_logging(settings.log_level, secrets=(settings.token, url_password(settings.database_url)))
    return run_bot(settings, sync=args.sync, guild=args.guild)


if __name__ == "__main__":
    sys.exit(main())
