"""The Discord harness: the real bot driven through discord.py's real code, against a fake Discord on 127.0.0.1.

What runs is production's path. :class:`Harness` starts :mod:`discord_fake` (an aiohttp server answering Discord's
REST API with Discord-shaped JSON and error codes), points discord.py's ``Route.BASE`` at it, builds the real
:class:`bot.BgBot` on a temporary SQLite file and logs it in (``Client.login``: ``GET /users/@me``, the application,
then the real ``setup_hook`` — database, cogs, dynamic items). The guild arrives as a ``GUILD_CREATE`` gateway event;
interactions arrive as genuine ``INTERACTION_CREATE`` payloads fed to ``bot._connection.parse_interaction_create``,
so the CommandTree (option parsing, transformers, checks, error handlers) and the ViewStore (dynamic items) route
them. Every request the bot makes goes over a socket to the fake, which checks it against Discord's limits
(:mod:`discord_limits`) and enforces what Discord enforces. Thread and channel changes come back as gateway events.

Use it (the ``harness`` fixture of ``conftest.py`` gives one on a fresh database)::

    async def test_challenge(harness):
        h = harness
        alice, bob = h.member("Alice"), h.member("Bob")
        games = h.channel("games")
        answer = await h.command(alice, "bg challenge", games, opponent=bob, length="3")
        assert answer.private and "challenge" in answer.text.lower()
        board = h.last(games)                       # a Msg: content, embed, buttons, labels, files, png …
        accepted = await h.press(bob, board, "Accept")   # a label or a custom_id
        thread = h.thread_of(board)
        choices = await h.autocomplete(alice, "bg move", "play", "13/", thread)
        h.clock.advance(3600)                       # the club's clock (ManualClock)
        await h.tick()                              # the reminder loops, once

- **Answers.** :meth:`Harness.command` / :meth:`press` / :meth:`select` return an :class:`Exchange`: the initial
  response type (``deferred``, ``thinking``), what the member saw (``text``, ``messages``), whether it was private.
- **Failures as Discord answers them.** :meth:`fail` (any error code on requests matching a pattern),
  :meth:`rate_limit` (429 with ``retry_after``), :meth:`archive` (the thread refuses edits with 50083 until
  unarchived), :meth:`delete_channel` / :meth:`delete_message` (10003 / 10008), :meth:`deny` (50013 and the
  permission overwrite in the bot's cache), :meth:`close_dms` (50007) / :meth:`open_dms`, :meth:`advance_discord` (interaction tokens
  lapse after 15 minutes: 50027), :meth:`on_request` (a hook when a request matches).
- **Options.** ``Harness.start(path, clock=, dice=, seed=, settings=, reviews=False)``: a ManualClock, injected
  dice, the seed of the provably fair dice, bot settings, and (``reviews=False``) no engine review posted when a
  match ends (minutes of analysis in a long play-out that tests something else).
- **A restart.** :meth:`restart` closes the bot and builds a new one on the same database and the same Discord.
- **The checks.** Leaving the harness (:meth:`assert_clean`) fails the test on any limit violation, route the fake
  does not know, interaction without exactly one initial response within 3 s, thinking defer never completed, or
  apology (``cogs.errors.APOLOGY``) unless the test allowed it (``h.allow_apology = True``).
- **Random play.** :func:`play_turn` makes the move the board asks for through its buttons (or ``/bg move``).
- **The whole run.** :data:`SESSION` keeps, across every harness of the pytest session, which command was invoked
  by which test, how many interactions were answered, and every problem found (read by
  ``tests/test_discord_coverage.py``, which runs last).
"""

from __future__ import annotations

import asyncio
import copy
import datetime as dt
import itertools
import os
import secrets
import time
from collections.abc import Callable
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.http import Route

import bot as botmod
from club import ManualClock
from cogs.errors import APOLOGY
from tests.discord_fake import (
    EPHEMERAL,
    FORUM,
    TEXT,
    VOICE,
    Failure,
    FakeDiscordServer,
    InteractionRecord,
    World,
    iso,
)

GUILD = 777_000_000_000_000_001
BOT_ID = 555_000_000_000_000_001
BOT_ROLE = 555_000_000_000_000_002
OWNER = 111_000_000_000_000_001
BOT_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True, create_public_threads=True,
    create_private_threads=True, manage_threads=True, embed_links=True, attach_files=True, read_message_history=True,
)  # fmt: skip
"""What the bot is invited with (README "Discord set-up")."""
MEMBER_PERMISSIONS = discord.Permissions(view_channel=True, send_messages=True, use_application_commands=True)
OPTION = discord.AppCommandOptionType


@dataclass
class SessionRecord:
    """What every harness of this pytest session did: ``invoked`` maps a command's qualified name (``"bg
    challenge"``) to the tests that ran it; ``harnesses`` and ``interactions`` count the bots started and the
    interactions sent; ``problems`` lists what :meth:`Harness.problems` found (``"test id: problem"``)."""

    invoked: dict[str, set[str]] = field(default_factory=dict)
    harnesses: int = 0
    interactions: int = 0
    problems: list[str] = field(default_factory=list)


SESSION = SessionRecord()
"""The record of the whole run (see :class:`SessionRecord`)."""


def _current_test() -> str:
    """The pytest id of the test running now (``"?"`` outside pytest)."""
    return os.environ.get("PYTEST_CURRENT_TEST", "?").rsplit(" ", 1)[0]


@dataclass
class Member:
    """A member of the test guild (not cached by the bot: Discord sends him with each interaction)."""

    id: int
    name: str
    admin: bool = False
    bot: bool = False
    roles: list[int] = field(default_factory=list)

    def user_payload(self) -> dict:
        """The user object Discord sends."""
        return {"id": str(self.id), "username": self.name.lower(), "global_name": self.name, "discriminator": "0",
                "avatar": None, "bot": self.bot, "public_flags": 0}  # fmt: skip

    def member_payload(self, *, with_user: bool = True) -> dict:
        """The guild member object Discord sends (with his permissions in the channel)."""
        permissions = discord.Permissions.all() if self.admin else MEMBER_PERMISSIONS
        payload = {"nick": None, "roles": [str(role) for role in self.roles], "joined_at": iso(1_600_000_000), "deaf": False, "mute": False,
                   "flags": 0, "pending": False, "permissions": str(permissions.value), "avatar": None,
                   "communication_disabled_until": None}  # fmt: skip
        if with_user:
            payload["user"] = self.user_payload()
        return payload

    @property
    def mention(self) -> str:
        """``<@id>``."""
        return f"<@{self.id}>"


class Msg:
    """A message as Discord holds it now (read live from the fake; :meth:`seen` freezes a copy as a member's screen
    shows it, to press a stale button later)."""

    def __init__(self, world: World, message_id: int, frozen: dict | None = None) -> None:
        self.world, self.id, self._frozen = world, message_id, frozen

    @property
    def data(self) -> dict:
        """The message JSON."""
        return self._frozen if self._frozen is not None else self.world.messages[self.id]

    def seen(self) -> Msg:
        """A frozen copy of the message as it is now."""
        return Msg(self.world, self.id, copy.deepcopy(self.data))

    @property
    def exists(self) -> bool:
        """Whether the message is still there."""
        return self.id in self.world.messages

    channel_id = property(lambda self: int(self.data["channel_id"]))
    content = property(lambda self: self.data.get("content") or "")
    embeds = property(lambda self: self.data.get("embeds") or [])
    ephemeral = property(lambda self: bool(self.data.get("flags", 0) & EPHEMERAL))
    edits = property(lambda self: self.world.edits.get(self.id, 0))

    @property
    def embed(self) -> dict:
        """The first embed ({} if none)."""
        return self.embeds[0] if self.embeds else {}

    @property
    def text(self) -> str:
        """Content, embed titles, descriptions and field values in one string (for assertions)."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts += [f"{f.get('name')}: {f.get('value')}" for f in embed.get("fields") or []]
            parts.append((embed.get("footer") or {}).get("text") or "")
        return "\n".join(part for part in parts if part)

    @property
    def items(self) -> list[dict]:
        """Every component (buttons and selects) in order."""
        return [item for row in self.data.get("components") or [] for item in row.get("components") or []]

    @property
    def custom_ids(self) -> list[str]:
        """The custom_id of every component."""
        return [item["custom_id"] for item in self.items if item.get("custom_id")]

    @property
    def labels(self) -> list[str]:
        """The label of every button."""
        return [item.get("label") or "" for item in self.items if item.get("type") == 2]

    @property
    def actions(self) -> list[str]:
        """The 1-on-1 actions its components offer, in order (``t:m:<match>:<version>:<action>`` buttons and the
        ``tm:m:…:play`` menu as ``play``)."""
        return [c.split(":")[4] for c in self.custom_ids if c.startswith(("t:m:", "tm:m:"))]

    def action_id(self, action: str) -> str:
        """The custom_id of the 1-on-1 component for ``action`` (``play``: the menu); AssertionError if none."""
        for custom_id in self.custom_ids:
            if custom_id.startswith(("t:m:", "tm:m:")) and custom_id.split(":")[4] == action:
                return custom_id
        raise AssertionError(f"no {action!r} component on message {self.id}: {self.custom_ids}")

    @property
    def menu_options(self) -> list[str]:
        """The options of the 1-on-1 play menu ([] without one)."""
        menus = [c for c in self.custom_ids if c.startswith("tm:m:")]
        return self.options(menus[0]) if menus else []

    @property
    def chouette_ids(self) -> list[str]:
        """The chouette components' custom_ids (``t:c:…`` buttons, ``tm:c:…`` menus)."""
        return [c for c in self.custom_ids if c.startswith(("t:c:", "tm:c:"))]

    def chouette_id(self, member: int, action: str) -> str:
        """The custom_id of ``member``'s chouette ``action`` (a button, or the menu ``play``/``double``/``take``)."""
        for custom_id in self.chouette_ids:
            if chouette_parts(custom_id) == (member, action):
                return custom_id
        raise AssertionError(f"no {action!r} for {member} on message {self.id}: {self.chouette_ids}")

    def component(self, key: str) -> dict:
        """The component whose custom_id is ``key``, or whose label is ``key`` (case-insensitive, or the label's
        text after "Name: "); AssertionError listing the components otherwise."""
        for item in self.items:
            if item.get("custom_id") == key:
                return item
        wanted = key.lower()
        for item in self.items:
            label = (item.get("label") or "").lower()
            if label == wanted or label.split(": ", 1)[-1] == wanted:
                return item
        for item in self.items:
            if item.get("type") != 2 and (item.get("placeholder") or "").lower().startswith(wanted):
                return item
        raise AssertionError(f"no component {key!r} on message {self.id}: {self.labels} {self.custom_ids}")

    def options(self, key: str | None = None) -> list[str]:
        """The option values of a select (the first one, or ``key``)."""
        selects = [item for item in self.items if item.get("type") == 3]
        item = self.component(key) if key else (selects[0] if selects else None)
        assert item is not None and item.get("type") == 3, f"no select on message {self.id}"
        return [option["value"] for option in item.get("options") or []]

    @property
    def files(self) -> dict[str, bytes]:
        """Attachments: name → bytes."""
        return dict(self.world.files.get(self.id, {}))

    @property
    def png(self) -> bytes | None:
        """The first PNG attachment."""
        return next((data for name, data in self.files.items() if name.endswith(".png")), None)

    def __repr__(self) -> str:
        return f"<Msg {self.id} in {self.channel_id}: {self.content[:60]!r} {self.labels}>"


class Exchange:
    """One interaction and everything the bot answered to it."""

    def __init__(self, harness: Harness, record: InteractionRecord) -> None:
        self.harness, self.record = harness, record

    @property
    def initial(self) -> int | None:
        """The initial response type (4 message, 5 deferred "thinking", 6 deferred update, 7 update, 8
        autocomplete), or None when there was none."""
        return int(self.record.callbacks[0]["type"]) if self.record.callbacks else None

    @property
    def first_response(self) -> float | None:
        """Seconds from the interaction's arrival to the initial response reaching Discord (None: none came)."""
        return self.record.callback_delays[0] if self.record.callback_delays else None

    @property
    def thinking(self) -> bool:
        """Answered with a thinking defer (type 5)."""
        return self.initial == 5

    @property
    def messages(self) -> list[Msg]:
        """The messages the member got as answers: the original response, then the followups (existing ones)."""
        ids = ([self.record.original] if self.record.original and self.initial in (4, 5) else []) + [
            message for message in self.record.followups if message != self.record.original
        ]
        return [Msg(self.harness.world, i) for i in ids if i in self.harness.world.messages]

    @property
    def text(self) -> str:
        """Everything the member was told, in order."""
        return "\n".join(message.text for message in self.messages)

    @property
    def private(self) -> bool:
        """Every answer was ephemeral (and there was one)."""
        return bool(self.messages) and all(message.ephemeral for message in self.messages)

    @property
    def choices(self) -> list[dict]:
        """The autocomplete choices answered."""
        return list((self.record.callbacks[0].get("data") or {}).get("choices") or []) if self.record.callbacks else []

    def __repr__(self) -> str:
        return f"<Exchange {self.record.label} initial={self.initial} text={self.text[:80]!r}>"


class Harness:
    """A running bot against the fake Discord (see the module docstring). Build with :meth:`start`."""

    def __init__(self, path: Path, *, clock: ManualClock | None = None, dice=None, seed: int = 0,
                 settings: dict | None = None, reviews: bool = True) -> None:  # fmt: skip
        self.path = Path(path)
        self.reviews = reviews
        self.clock = clock or ManualClock()
        self.dice = dice
        self.seed = seed
        self.settings = dict(settings or {})
        bot_user = {"id": str(BOT_ID), "username": "bgclub", "global_name": None, "discriminator": "0000",
                    "avatar": None, "bot": True, "verified": True, "mfa_enabled": False, "flags": 0}  # fmt: skip
        self.world = World(guild_id=GUILD, bot_user=bot_user, application_id=BOT_ID)
        self.world.gateway = self._gateway
        self.server = FakeDiscordServer(self.world)
        self.bot: botmod.BgBot | None = None
        self.members: dict[int, Member] = {}
        self._ids = 100_000_000_000_000_000
        self.allow_apology = False
        self.exchanges: list[Exchange] = []
        self._old_base = Route.BASE
        self._baseline: set[asyncio.Task] = set()
        self._waiters: set[asyncio.Task] = set()
        self._contributions = itertools.count(1)
        self.guild = GUILD

    # -- life cycle ---------------------------------------------------------------------------------------------------
    @classmethod
    @asynccontextmanager
    async def start(cls, path: Path, **options):
        """``async with Harness.start(tmp_path / "club.sqlite3") as h:`` — the bot logged in, the guild available;
        on leaving, :meth:`assert_clean` (unless the body raised) and everything closed."""
        harness = cls(path, **options)
        await harness._open()
        failed = False
        try:
            yield harness
        except BaseException:
            failed = True
            raise
        finally:
            try:
                await harness.close()
            finally:
                SESSION.harnesses += 1
                SESSION.interactions += len(harness.world.interactions)
                if not failed:
                    test = _current_test()
                    SESSION.problems += [f"{test}: {problem}" for problem in harness.problems()]
                    harness.assert_clean()

    async def _open(self) -> None:
        self._baseline = set(asyncio.all_tasks())
        Route.BASE = await self.server.start()
        await self._boot()

    async def _boot(self) -> None:
        from tests.clubkit import seeded

        # durability and big pictures cost time and prove nothing here (storage and rendering have their own tests)
        settings = {"synchronous": "OFF", "width": 400, **self.settings}
        settings = botmod.Settings(database=self.path, reminder_seconds=3600.0, **settings)
        # the members' client seeds reproducible too, counting on across a restart
        options = {"clock": self.clock, "seeds": seeded(self.seed), "contributions": self._contribution}
        if self.dice is not None:
            options["dice"] = self.dice
        self.bot = botmod.BgBot(settings, service_options=options)
        await self.bot.login("harness-token")  # GET /users/@me, the application, then the real setup_hook
        self.bot._connection.parse_guild_create(self._guild_payload())
        if not self.reviews:  # the engine's review of every finished match (tests/test_study_bot.py has its own)
            study = self.bot.get_cog("Study")
            listeners = self.bot.extra_events.get("on_match_finished", [])
            listeners[:] = [f for f in listeners if study is None or getattr(f, "__self__", None) is not study]

    def _contribution(self) -> str:
        """A member's client seed when the front end gives none: ``client-1``, ``client-2`` … (reproducible dice)."""
        return f"client-{next(self._contributions)}"

    async def restart(self) -> None:
        """Close the bot and start a new one on the same database file and the same Discord (buttons posted
        before must keep working)."""
        await self.settle()
        await self.bot.close()
        await self._boot()

    async def close(self) -> None:
        """Close the bot and the fake Discord; restore ``Route.BASE``."""
        try:
            if self.bot is not None:
                await self.settle()
                await self.bot.close()
        finally:
            await self.server.stop()
            Route.BASE = self._old_base

    def _guild_payload(self) -> dict:
        world = self.world
        roles = [
            {"id": str(GUILD), "name": "@everyone", "permissions": str(MEMBER_PERMISSIONS.value), "position": 0,
             "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0},
            {"id": str(BOT_ROLE), "name": "bgclub", "permissions": str(BOT_PERMISSIONS.value), "position": 1,
             "color": 0, "hoist": False, "managed": True, "mentionable": False, "flags": 0,
             "tags": {"bot_id": str(BOT_ID)}},
            *world.roles.values(),
        ]  # fmt: skip
        me = {"user": world.bot_user, "roles": [str(BOT_ROLE)], "joined_at": iso(1_600_000_000), "deaf": False,
              "mute": False, "flags": 0, "nick": None}  # fmt: skip
        channels = [c for c in world.channels.values() if c["type"] in (TEXT, FORUM, VOICE)]
        threads = [c for c in world.channels.values() if c["type"] in (11, 12) and
                   not c["thread_metadata"]["archived"]]  # fmt: skip
        return {"id": str(GUILD), "name": "Backgammon club", "owner_id": str(OWNER), "icon": None,
                "roles": roles, "channels": channels, "threads": threads, "members": [me], "member_count": 10,
                "emojis": [], "stickers": [], "features": [], "unavailable": False, "large": False,
                "premium_tier": 0, "verification_level": 0, "default_message_notifications": 0,
                "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0, "preferred_locale": "en-US",
                "system_channel_flags": 0, "afk_timeout": 300, "voice_states": [], "presences": [],
                "stage_instances": [], "guild_scheduled_events": [], "joined_at": iso(1_600_000_000)}  # fmt: skip

    def _gateway(self, event: str, data: dict) -> None:
        """Deliver a gateway event to the bot (as its websocket would)."""
        if self.bot is not None:
            getattr(self.bot._connection, "parse_" + event.lower())(copy.deepcopy(data))

    async def settle(self) -> None:
        """Wait until every task the bot started since the harness began has finished (the fake's own connection
        tasks excepted)."""
        me = asyncio.current_task()
        self._waiters.add(me)  # two exchanges awaited together must not wait for each other
        try:
            for _ in range(100):
                pending = [task for task in asyncio.all_tasks() if task not in self._baseline and not task.done()
                           and task not in self._waiters and not _infrastructure(task) and not _caller(task)]  # fmt: skip
                if not pending:
                    return
                await asyncio.wait(pending, timeout=30)
        finally:
            self._waiters.discard(me)

    # -- the guild ------------------------------------------------------------------------------------------------
    def member(self, name: str, *, admin: bool = False, bot: bool = False) -> Member:
        """A new member of the guild (ids count up from 10¹⁷); ``admin`` gives him every permission."""
        self._ids += 1
        member = Member(self._ids, name, admin=admin, bot=bot)
        self.members[member.id] = member
        self.world.users[member.id] = member.user_payload()
        return member

    def channel(self, name: str = "games", *, kind: int = TEXT) -> int:
        """A new text channel (``kind``: :data:`~discord_fake.FORUM` a forum channel, :data:`~discord_fake.VOICE`
        a voice channel); returns its id (pass it to :meth:`command`)."""
        channel = self.world.add_channel(name, kind=kind)
        self._gateway("CHANNEL_CREATE", channel)
        return int(channel["id"])

    def role(self, name: str, *members: Member) -> int:
        """A new role of the guild called ``name`` (GUILD_ROLE_CREATE to the bot), given to ``members`` (Discord
        sends a member's role ids with each interaction); returns its id."""
        role_id = self.world.snowflake()
        role = {"id": str(role_id), "name": name, "permissions": "0", "position": 1 + len(self.world.roles),
                "color": 0, "hoist": False, "managed": False, "mentionable": True, "flags": 0}  # fmt: skip
        self.world.roles[role_id] = role
        self._gateway("GUILD_ROLE_CREATE", {"guild_id": str(GUILD), "role": role})
        for member in members:
            member.roles.append(role_id)
        return role_id

    def thread_of(self, message: Msg) -> int:
        """The id of the thread opened from ``message`` (AssertionError if there is none)."""
        assert message.id in self.world.channels, f"no thread was opened from message {message.id}"
        return message.id

    def messages(self, channel_id: int, *, ephemeral: bool = False) -> list[Msg]:
        """The messages in a channel or thread, oldest first (ephemeral ones only if asked)."""
        return [Msg(self.world, int(m["id"])) for m in self.world.messages.values()
                if int(m["channel_id"]) == channel_id and (ephemeral or not m.get("flags", 0) & EPHEMERAL)]  # fmt: skip

    def vote(self, member: Member, message: Msg, answer: str) -> None:
        """``member`` votes in the poll of ``message`` for the answer whose text is ``answer`` (Discord sends the
        bot a MESSAGE_POLL_VOTE_ADD)."""
        found = [a["answer_id"] for a in message.data["poll"]["answers"] if a["poll_media"]["text"] == answer]
        assert found, f"no answer {answer!r} in the poll"
        self.world.vote(message.id, member.user_payload(), found[0])
        self._gateway("MESSAGE_POLL_VOTE_ADD", {"user_id": str(member.id), "channel_id": str(message.channel_id),
                                                "message_id": str(message.id), "guild_id": str(GUILD),
                                                "answer_id": found[0]})  # fmt: skip

    def end_poll(self, message: Msg) -> None:
        """The poll of ``message`` closes: Discord finalises its results and sends the bot a MESSAGE_UPDATE with
        them (``is_finalized`` true), as it does when a poll's time is up."""
        data = self.world.end_poll(message.id)
        self._gateway("MESSAGE_UPDATE", {**data, "guild_id": str(GUILD)})

    def last(self, channel_id: int) -> Msg:
        """The newest public message in a channel or thread."""
        found = self.messages(channel_id)
        assert found, f"nothing was posted in {channel_id}"
        return found[-1]

    def with_component(self, key: str) -> Msg:
        """The newest message that carries a component with custom_id (or label) ``key``."""
        for message in reversed(list(self.world.messages.values())):
            msg = Msg(self.world, int(message["id"]))
            try:
                msg.component(key)
            except AssertionError:
                continue
            return msg
        raise AssertionError(f"no message carries {key!r}")

    def dms(self, member: Member) -> list[Msg]:
        """The direct messages the bot sent ``member``."""
        channel = self.world.dm_channels.get(member.id)
        return [] if channel is None else self.messages(channel)

    def requests(self, method: str | None = None, contains: str = "") -> list:
        """The requests the bot made (filtered by method and a substring of the path)."""
        return [r for r in self.world.requests if (method is None or r.method == method) and contains in r.path]

    # -- platform conditions --------------------------------------------------------------------------------------
    def fail(self, pattern: str, code: int, *, times: int | None = 1) -> Failure:
        """Answer requests whose ``"METHOD /path"`` matches the regular expression ``pattern`` with Discord's error
        ``code`` (``times`` times; None = always)."""
        import re

        failure = Failure(re.compile(pattern), code, times)
        self.world.failures.append(failure)
        return failure

    def rate_limit(self, pattern: str, retry_after: float, *, times: int = 1) -> Failure:
        """A 429 (``retry_after`` seconds, with the ``Via`` header discord.py checks) for matching requests."""
        failure = self.fail(pattern, 429, times=times)
        failure.retry_after = retry_after
        return failure

    def archive(self, thread_id: int, *, locked: bool = False) -> None:
        """Discord archives the thread (after its auto-archive duration): edits are refused with 50083 until it is
        unarchived; a THREAD_UPDATE tells the bot."""
        thread = self.world.channel(thread_id)
        thread["thread_metadata"].update(archived=True, locked=locked, archive_timestamp=iso(self.world.now()))
        self._gateway("THREAD_UPDATE", thread)

    def delete_channel(self, channel_id: int) -> None:
        """The channel or thread is deleted (10003 from now on; CHANNEL_DELETE / THREAD_DELETE to the bot)."""
        channel = self.world.channels.pop(channel_id)
        for message_id in [i for i, m in self.world.messages.items() if int(m["channel_id"]) == channel_id]:
            del self.world.messages[message_id]
        if channel["type"] in (11, 12):
            self._gateway("THREAD_DELETE", {"id": channel["id"], "guild_id": channel["guild_id"],
                                            "parent_id": channel["parent_id"], "type": channel["type"]})  # fmt: skip
        else:
            self._gateway("CHANNEL_DELETE", channel)

    def delete_message(self, message: Msg) -> None:
        """Someone deletes the message (10008 from now on)."""
        del self.world.messages[message.id]

    def deny(self, channel_id: int, *permissions: str) -> None:
        """Take ``permissions`` (discord.py names: ``send_messages``, ``attach_files`` …) from the bot in the
        channel: Discord answers 50013, and the channel's overwrite reaches the bot's cache (CHANNEL_UPDATE)."""
        denied = self.world.denied.setdefault(channel_id, set())
        denied.update(permissions)
        channel = self.world.channel(channel_id)
        bits = discord.Permissions(**{name: True for name in denied}).value
        channel["permission_overwrites"] = [{"id": str(BOT_ROLE), "type": 0, "allow": "0", "deny": str(bits)}]
        self._gateway("CHANNEL_UPDATE", channel)

    def close_dms(self, member: Member) -> None:
        """``member`` accepts no direct messages from the bot (50007)."""
        self.world.closed_dms.add(member.id)

    def open_dms(self, member: Member) -> None:
        """``member`` accepts direct messages from the bot again."""
        self.world.closed_dms.discard(member.id)

    def advance_discord(self, seconds: float) -> None:
        """Move Discord's clock on: interaction tokens older than 15 minutes are refused (50027)."""
        self.world.offset += seconds

    def on_request(self, pattern: str, hook: Callable[[Any], Any]) -> None:
        """Call ``hook(request)`` after each request matching ``pattern`` has been answered."""
        import re

        self.world.hooks.append((re.compile(pattern), hook))

    async def tick(self) -> None:
        """One round of each deadline loop (matches and chouettes), as their ``tasks.loop`` would run it."""
        for cog in self.bot.cogs.values():
            tick = getattr(cog, "tick", None)
            if tick is not None:
                await tick()
        await self.settle()

    # -- interactions ---------------------------------------------------------------------------------------------
    def _base(self, user: Member, channel_id: int, kind: int, data: dict, label: str) -> tuple[dict, InteractionRecord]:
        world = self.world
        channel = world.channel(channel_id)
        guild = self.guild
        if guild != GUILD:  # sent from another server (a forged or replayed interaction): its channel is there too
            channel = {**channel, "guild_id": str(guild)}
        interaction_id = world.snowflake()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(24)
        record = InteractionRecord(interaction_id, token, kind, world.now(), 0.0, channel_id, label=label)
        world.interactions[token] = record
        app_permissions = BOT_PERMISSIONS.value & ~discord.Permissions(
            **{name: True for name in world.denied.get(channel_id, ())}
        ).value  # fmt: skip
        payload = {
            "id": str(interaction_id), "application_id": str(world.application_id), "type": kind, "token": token,
            "version": 1, "guild_id": str(guild), "channel_id": str(channel_id), "channel": channel,
            "member": user.member_payload(), "app_permissions": str(app_permissions), "locale": "en-GB",
            "guild_locale": "en-US", "entitlements": [], "authorizing_integration_owners": {"0": str(GUILD)},
            "context": 0, "attachment_size_limit": 10 * 1024 * 1024,
            "guild": {"id": str(guild), "locale": "en-US", "features": []}, "data": data,
        }  # fmt: skip
        return payload, record

    async def _dispatch(self, payload: dict, record: InteractionRecord) -> Exchange:
        before = set(asyncio.all_tasks())
        record.sent_at = time.monotonic()
        self.bot._connection.parse_interaction_create(payload)
        started = [task for task in asyncio.all_tasks() - before if not task.done()]
        if started:
            await asyncio.wait(started, timeout=60)
        await self.settle()
        exchange = Exchange(self, record)
        self.exchanges.append(exchange)
        return exchange

    def _command(self, path: str):
        names = path.removeprefix("/").split()
        command = self.bot.tree.get_command(names[0])
        assert command is not None, f"no command /{names[0]}"
        chain = [command]
        for name in names[1:]:
            command = command.get_command(name)
            assert command is not None, f"no command /{path}"
            chain.append(command)
        assert isinstance(command, app_commands.Command), f"/{path} is a group, not a command"
        return chain

    def _options(self, command: app_commands.Command, values: dict, resolved: dict,
                 focused: str | None = None) -> list[dict]:  # fmt: skip
        params = {param.name: param for param in command.parameters}
        options = []
        for name, value in values.items():
            assert name in params, f"/{command.qualified_name} has no option {name!r}: {sorted(params)}"
            kind = params[name].type
            if name == focused:
                options.append({"type": kind.value, "name": name, "value": str(value), "focused": True})
                continue
            options.append({"type": kind.value, "name": name, "value": self._value(kind, value, resolved)})
        return options

    def _value(self, kind, value, resolved: dict):
        if kind in (OPTION.user, OPTION.mentionable):
            member = value if isinstance(value, Member) else self.members[int(value)]
            resolved.setdefault("users", {})[str(member.id)] = member.user_payload()
            resolved.setdefault("members", {})[str(member.id)] = member.member_payload(with_user=False)
            return str(member.id)
        if kind is OPTION.channel:
            channel = self.world.channel(int(value))
            resolved.setdefault("channels", {})[str(value)] = {
                "id": channel["id"], "name": channel["name"], "type": channel["type"],
                "permissions": str(MEMBER_PERMISSIONS.value), "parent_id": channel.get("parent_id"),
            }  # fmt: skip
            return str(value)
        if kind is OPTION.integer:
            return int(value)
        if kind is OPTION.number:
            return float(value)
        if kind is OPTION.boolean:
            return bool(value)
        return str(value)

    def _command_data(self, path: str, values: dict, focused: str | None = None) -> tuple[dict, app_commands.Command]:
        chain = self._command(path)
        leaf = chain[-1]
        resolved: dict = {}
        options = self._options(leaf, values, resolved, focused)
        for node in reversed(chain[1:]):
            kind = 1 if isinstance(node, app_commands.Command) else 2
            options = [{"type": kind, "name": node.name, "options": options}]
        data = {"id": str(self.world.snowflake()), "name": chain[0].name, "type": 1, "options": options}
        if resolved:
            data["resolved"] = resolved
        return data, leaf

    async def command(self, user: Member, path: str, channel_id: int, **options) -> Exchange:
        """``user`` runs the slash command ``path`` (``"bg challenge"``, ``"bg chouette start"``, ``"club
        sheet"``) in ``channel_id`` with ``options`` (a :class:`Member` for a user option, a channel id for a
        channel option). Returns the :class:`Exchange` once every task it started has finished."""
        data, leaf = self._command_data(path, options)
        SESSION.invoked.setdefault(leaf.qualified_name, set()).add(_current_test())
        payload, record = self._base(user, channel_id, 2, data, f"/{path}")
        return await self._dispatch(payload, record)

    async def autocomplete(self, user: Member, path: str, option: str, typed: str, channel_id: int,
                           **options) -> list[dict]:  # fmt: skip
        """What Discord shows ``user`` while he types ``typed`` in ``option`` of ``/path`` (the other options
        already filled): the autocomplete choices (each ``{"name", "value"}``), checked against the limits."""
        data, leaf = self._command_data(path, {**options, option: typed}, focused=option)
        payload, record = self._base(user, channel_id, 4, data, f"/{path} {option} autocomplete")
        record.focused_type = next(p.type.value for p in leaf.parameters if p.name == option)
        exchange = await self._dispatch(payload, record)
        return exchange.choices

    async def press(self, user: Member, message: Msg, key: str, *, values: list[str] | None = None) -> Exchange:
        """``user`` presses the button (or chooses ``values`` in the select) ``key`` — a custom_id or a label — on
        ``message`` (a frozen :meth:`Msg.seen` copy for a stale screen)."""
        item = message.component(key)
        data: dict[str, Any] = {"custom_id": item["custom_id"], "component_type": item["type"]}
        if item["type"] == 3:
            data["values"] = list(values or [])
        payload, record = self._base(user, message.channel_id, 3, data, f"component {item['custom_id']}")
        payload["message"] = copy.deepcopy(message.data)
        record.message_id = message.id
        return await self._dispatch(payload, record)

    async def submit(self, user: Member, shown: Exchange, *texts: str) -> Exchange:
        """``user`` fills the modal that ``shown`` answered with (response type 9) — ``texts``, one per text input in
        order — and submits it (a MODAL_SUBMIT interaction, type 5, from the message the button was on)."""
        modal = shown.record.callbacks[0]
        assert int(modal["type"]) == 9, f"{shown.record.label} showed no modal"
        data = modal["data"]
        inputs = [item for row in data["components"] for item in row["components"]]
        rows = [{"type": 1, "components": [{"type": 4, "custom_id": item["custom_id"], "value": text}]}
                for item, text in zip(inputs, texts, strict=True)]  # fmt: skip
        body = {"custom_id": data["custom_id"], "components": rows}
        payload, record = self._base(user, shown.record.channel_id, 5, body, f"modal {data['title'][:40]}")
        if shown.record.message_id is not None:
            payload["message"] = copy.deepcopy(self.world.message_payload(shown.record.message_id))
            record.message_id = shown.record.message_id
        return await self._dispatch(payload, record)

    async def select(self, user: Member, message: Msg, values: list[str] | str, key: str | None = None) -> Exchange:
        """``user`` chooses ``values`` in the select ``key`` (default: the message's first select)."""
        if key is None:
            key = next(item["custom_id"] for item in message.items if item.get("type") == 3)
        return await self.press(user, message, key, values=[values] if isinstance(values, str) else list(values))

    @contextmanager
    def from_guild(self, guild_id: int):
        """``with h.from_guild(888):`` — the interactions sent inside come from another server (``guild_id``): club
        isolation (RULES A2) is checked against what Discord says of them, not against the channel."""
        self.guild = guild_id
        try:
            yield
        finally:
            self.guild = GUILD

    # -- the checks -----------------------------------------------------------------------------------------------
    def problems(self) -> list[str]:
        """Everything that breaks Discord's rules or the bot's promises so far (see :meth:`assert_clean`)."""
        found = list(self.world.violations)
        found += [f"a route the fake Discord does not know: {route}" for route in self.world.unhandled]
        for record in self.world.interactions.values():
            if len(record.callbacks) != 1:
                found.append(f"{record.label}: {len(record.callbacks)} initial responses")
            found += [f"{record.label}: {what} (Discord: {code})" for what, code in record.refused
                      if code != 50027]  # fmt: skip
            thinking = bool(record.callbacks) and int(record.callbacks[0]["type"]) == 5
            lapsed = any(code == 50027 for _, code in record.refused)  # the bot tried; Discord no longer lets it
            if thinking and not record.followups and not record.original_edits and not lapsed:
                found.append(f"{record.label}: the thinking defer was never completed")
        if not self.allow_apology:
            for message in self.world.messages.values():
                if APOLOGY[:40] in (message.get("content") or ""):
                    found.append(f"an apology in channel {message['channel_id']}: {message['content'][:80]!r}")
        return found

    def assert_clean(self) -> None:
        """AssertionError listing every problem (:meth:`problems`)."""
        problems = self.problems()
        assert not problems, "Discord harness:\n  " + "\n  ".join(problems)


def _infrastructure(task: asyncio.Task) -> bool:
    """The fake Discord's and aiohttp's own tasks (connection handlers), which never finish on their own, and
    discord.py's view timers (an ephemeral message's view gets 15 minutes: ``Webhook.send``)."""
    coro = task.get_coro()
    code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
    filename = getattr(code, "co_filename", "") or ""
    if filename.endswith(("discord/ui/view.py", "discord\\ui\\view.py")) and "timeout" in code.co_name:
        return True
    return "aiohttp" in filename or "discord_fake" in filename or "discord_routes" in filename


def _caller(task: asyncio.Task) -> bool:
    """A task of the test's own (the test itself, or exchanges it awaits together with ``asyncio.gather``): its
    coroutine is defined under ``tests/``. The bot's tasks run discord.py's or the bot's coroutines; waiting for the
    caller would wait for the exchange that is waiting."""
    coro = task.get_coro()
    code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
    return str(getattr(code, "co_filename", "")).startswith(_TESTS)


_TESTS = str(Path(__file__).resolve().parent)


def chouette_parts(custom_id: str) -> tuple[int, str]:
    """``(member, action)`` of a chouette component id (``t:c:<sid>:<mark>:<action>:<member>:<cube>`` or
    ``tm:c:<sid>:<mark>:<what>:<member>``)."""
    parts = custom_id.split(":")
    return int(parts[5]), parts[4]


PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
"""The first bytes of a PNG file."""


def utc(seconds: float) -> dt.datetime:
    """Unix seconds as an aware datetime."""
    return dt.datetime.fromtimestamp(seconds, dt.UTC)


async def play_turn(h: Harness, match_id: int, rng, *, cube: float = 0.0, answers: dict | None = None) -> Exchange:
    """Make the decision match ``match_id`` waits for, as its member would in Discord: the button on the newest
    board that carries it (Roll, Double, Take …), the play menu, or ``/bg move`` in the game's thread when the menu
    is not offered (more than 25 plays). ``cube``: the chance of doubling when allowed; ``answers``: the answer to
    a double (default take). Returns the exchange; AssertionError if the board offers no way to do it."""
    view = await h.bot.service.state(match_id)
    member = h.members[view.waiting_for]
    pending = view.pending
    if pending == "play":
        plays = await h.bot.service.legal_plays(match_id, member.id)
        play = rng.choice(plays)
        menu = f"tm:m:{match_id}:{view.version}:play"
        board = _board_of(h, match_id, view.version, required=False)
        if board is not None and menu in board.custom_ids:
            return await h.press(member, board, menu, values=[play])
        homes = await h.bot.service.messages(match_id, purpose="home")
        return await h.command(member, "bg move", homes[-1].channel_id, play=play)
    board = _board_of(h, match_id, view.version)
    if pending in ("roll_or_double", "roll"):
        action = "double" if "double" in view.legal and rng.random() < cube else "roll"
        return await h.press(member, board, f"t:m:{match_id}:{view.version}:{action}")
    if pending in ("answer_double", "answer_beaver", "answer_raccoon"):
        action = (answers or {}).get(pending, "take")
        return await h.press(member, board, f"t:m:{match_id}:{view.version}:{action}")
    if pending == "answer_resignation":
        return await h.press(member, board, f"t:m:{match_id}:{view.version}:accept_resignation")
    raise AssertionError(f"match {match_id}: nothing to do for {pending!r}")


def _board_of(h: Harness, match_id: int, version: int, *, required: bool = True) -> Msg | None:
    prefix = (f"t:m:{match_id}:{version}:", f"tm:m:{match_id}:{version}:")
    for message in reversed(list(h.world.messages.values())):
        if any(item.get("custom_id", "").startswith(prefix)
               for row in message.get("components") or [] for item in row.get("components") or []):  # fmt: skip
            return Msg(h.world, int(message["id"]))
    if not required:
        return None
    raise AssertionError(f"no board of match {match_id} at version {version} carries its buttons")
