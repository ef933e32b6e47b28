"""The Discord client of the club (DESIGN "bot.py", "cogs"): :class:`BgBot` opens storage, loads the cogs, registers
the persistent buttons and syncs the command tree only when asked; :func:`run_bot` runs it until stopped and turns
Discord's refusals into one clear message. Split out of ``bot.py``, which re-exports these names."""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Callable

import aiohttp
import discord
from discord.ext import commands

from club import ClubService, picture_pool
from club.admission import Admission
from cogs import EXTENSIONS
from cogs.buttons import ITEMS, refuse_unknown
from cogs.host import ClubBot
from cogs.publish import Publisher
from storage import Database, DatabaseUnavailableError

from .heap import settle_heap
from .settings import Settings, hide_password, program
from .startup import upgrade_stored_states

log = logging.getLogger("bgclub")

SWEEP_SECONDS = 60.0
"""How often, at most, discord.py's table of rate-limit buckets is swept for inactive ones (:func:`sweep_buckets_sparingly`)."""


def sweep_buckets_sparingly(http: discord.http.HTTPClient, clock: Callable[[], float] = time.monotonic) -> None:
    """Make ``http`` (the bot's :class:`discord.http.HTTPClient`) sweep its rate-limit buckets at most once every
    :data:`SWEEP_SECONDS`. discord.py sweeps the whole table (a bucket per channel and route) for buckets idle 5
    minutes every time it makes a new bucket once it holds 256: with a thread per game, a burst of clicks on a
    thousand games makes a thousand new buckets among thousands, a sweep each — about 2 s of CPU in one burst,
    growing with the square of the games. Idle buckets still go, at most a minute later (``clock``: seconds).
    Nothing is changed when this version of discord.py has no such sweep."""
    sweep = getattr(http, "_try_clear_expired_ratelimits", None)
    if sweep is None:
        return
    last = -SWEEP_SECONDS

    def sparingly() -> None:
        nonlocal last
        now = clock()
        if now - last >= SWEEP_SECONDS:
            last = now
            sweep()

    http._try_clear_expired_ratelimits = sparingly  # type: ignore[method-assign]


TOKEN_HELP = f"""No Discord token.
To run the bot in Discord:
  1. https://discord.com/developers/applications → New Application → Bot → Reset Token (copy it).
  2. Put it in config.toml ([discord] token = "...") or in the environment: export DISCORD_TOKEN=...
  3. Invite the bot with the scopes bot and applications.commands (see README "Discord set-up"), then run
     {program()} --sync once so the /bg commands appear."""
CONSOLE_HINT = f"Without a token you can play right here: {program()} --console"


class BgBot(ClubBot):
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
        if service is not None:
            self.service = service
        self.reminder_seconds = settings.reminder_seconds
        self.sync_on_start = sync
        self.sync_guild = sync_guild
        self.publisher = Publisher(self)
        self._owns_database = database is None
        self.service_options = dict(service_options or {})
        sweep_buckets_sparingly(self.http)

    async def setup_hook(self) -> None:
        """Open storage, load the extensions, register the persistent buttons (and the refusal of ids matching none
        of them), start and warm the picture workers, and sync the
        command tree if asked (``--sync``)."""
        if self.database is None:
            self.database = await self.settings.open_database()
            log.info("database %s open", hide_password(self.settings.database_url) or self.settings.database)
            await upgrade_stored_states(self.database)
        if getattr(self, "service", None) is None:
            options = {"admission": Admission(), "beacon": self.settings.dice_beacon(), **self.service_options}
            self.service = ClubService(self.database, defaults=self.settings.defaults(), **options)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(*ITEMS)
        self.add_listener(refuse_unknown, "on_interaction")  # a component id none of ITEMS matches
        board = self.board_options
        await picture_pool.warm(board.theme, width=board.width, home=board.home)
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

    async def on_ready(self) -> None:
        """Log who we are."""
        log.info("logged in as %s in %d server(s)", self.user, len(self.guilds))

    async def close(self) -> None:
        """Disconnect, then close the database (an open aiosqlite connection would keep the process alive)."""
        try:
            await super().close()
        finally:
            for service in (self.chouettes, getattr(self, "service", None)):
                if service is not None:
                    await service.flush()  # the board messages not stored yet
            if self.database is not None and self._owns_database:
                await self.database.close()
                self.database = None


def run_bot(settings: Settings, *, sync: bool, guild: int | None) -> int:
    """Run the bot until stopped (Ctrl-C). Returns the exit code."""
    bot = BgBot(settings, sync=sync, sync_guild=guild or (settings.dev_guild if sync else None))

    async def runner() -> None:
        async with bot:  # bot.start(token), with the start-up heap settled between its two steps
            await bot.login(settings.token)  # setup_hook: storage, cogs, buttons, the renderer
            settle_heap()
            await bot.connect()

    try:
        asyncio.run(runner())
    except DatabaseUnavailableError as error:  # setup_hook opens storage: [storage] url cannot be used
        print(f"database: {error}", file=sys.stderr)
        return 2
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
        print(f"Cannot reach Discord ({error}). Check the network, or play in the console: {program()} --console",
              file=sys.stderr)  # fmt: skip
        return 1
    except KeyboardInterrupt:
        pass
    return 0
