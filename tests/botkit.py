"""A fake Discord for the bot tests: autospec'd interactions, channels, threads, messages and members around a real
:class:`bot.BgBot` (its cogs, real SQLite, real PNGs). Nothing talks to Discord.

dpytest cannot drive slash commands or buttons, so the tests call each command's callback and each button's
``DynamicItem`` callback directly (or the library's own dispatch, :meth:`FakeDiscord.press_via_library`), with
``unittest.mock.create_autospec`` objects standing in for what Discord would send. Everything the bot posts, edits or
replies is recorded: :attr:`FakeDiscord.posts` (by message id) and each interaction's ``replies``.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock, create_autospec

import discord
from clubkit import seeded
from discord.components import _component_factory

import bot as botmod
from club import ClubService, InjectedDice, ManualClock
from cogs.buttons import ITEMS
from storage import Database

GUILD = 777
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def menu_type(custom_id: str) -> int:
    """The Discord component type of ``custom_id``: 3 for a menu (``tm:``, and the old ``bgplay:``/``chs:``), else 2
    (a button)."""
    return 3 if custom_id.startswith(("tm:", "bgplay:", "chs:")) else 2


@dataclass
class Post:
    """A message the bot posted (or a direct message): what it shows now, and its history of edits."""

    id: int
    channel_id: int
    content: str = ""
    embed: discord.Embed | None = None
    png: bytes | None = None
    components: list[dict] = field(default_factory=list)  # action rows as Discord payloads
    edits: int = 0
    threads: list[int] = field(default_factory=list)

    @property
    def custom_ids(self) -> list[str]:
        """Every component's custom_id, in order."""
        return [item["custom_id"] for row in self.components for item in row["components"] if "custom_id" in item]

    def custom_id(self, action: str) -> str:
        """The custom_id of the button for ``action`` (``t:m:<match>:<version>:<action>``) or of the play menu
        (``action="play"``: ``tm:m:<match>:<version>:play``). Raises AssertionError if the message has none."""
        for custom_id in self.custom_ids:
            if custom_id.startswith(("t:m:", "tm:m:")) and custom_id.rsplit(":", 1)[1] == action:
                return custom_id
        raise AssertionError(f"no {action!r} component on message {self.id}: {self.custom_ids}")

    @property
    def actions(self) -> list[str]:
        """The actions of the components (``play`` for the menu)."""
        return [c.rsplit(":", 1)[1] for c in self.custom_ids if c.startswith(("t:m:", "tm:m:"))]

    @property
    def menu_options(self) -> list[str]:
        """The options of the play menu, if any."""
        for row in self.components:
            for item in row["components"]:
                if item.get("custom_id", "").startswith("tm:m:"):
                    return [option["value"] for option in item["options"]]
        return []


@dataclass
class Reply:
    """Something the bot answered an interaction with (``kind``: defer, message, followup)."""

    kind: str
    content: str = ""
    ephemeral: bool = False
    png: bytes | None = None
    file_bytes: bytes | None = None
    filename: str | None = None
    components: list[dict] = field(default_factory=list)
    embed: discord.Embed | None = None


def _components(view) -> list[dict]:
    return [] if view is None else view.to_components()


def _read(file: discord.File | None) -> bytes | None:
    if file is None:
        return None
    file.fp.seek(0)
    return file.fp.read()


@dataclass
class SentMessage:
    """What ``send``/``edit`` return to the bot: it reads only ``id``, ``channel`` and ``jump_url``."""

    id: int
    channel: Any
    jump_url: str


class FakePartialMessage:
    """``channel.get_partial_message(id)``: ``edit`` (content, embed, attachments, view) and ``create_thread`` act
    on the recorded post; an unknown message raises :class:`discord.NotFound`, as Discord does."""

    def __init__(self, fake: FakeDiscord, channel, message_id: int) -> None:
        self.fake, self.channel, self.id = fake, channel, message_id

    def _post(self) -> Post:
        post = self.fake.posts.get(self.id)
        if post is None or post.channel_id != self.channel.id:
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), "unknown message")
        return post

    async def edit(self, *, content=..., embed=..., attachments=..., view=..., allowed_mentions=None, **kwargs):
        post = self._post()
        if content is not ...:
            post.content = content or ""
        if embed is not ...:
            post.embed = embed
        if attachments is not ...:
            post.png = _read(attachments[0]) if attachments else None
        if view is not ...:
            post.components = _components(view)
        post.edits += 1
        return self.fake._message(self.channel, self.id)

    async def create_thread(self, *, name, auto_archive_duration=None, **kwargs):
        post = self._post()
        thread = self.fake._channel(discord.Thread, name, channel_id=self.id)  # a thread's id is its message's
        thread.parent_id = self.channel.id
        post.threads.append(thread.id)
        return thread


class FakeDiscord:
    """Channels, threads, members and messages for one test, attached to a :class:`bot.BgBot`."""

    def __init__(self) -> None:
        self._ids = itertools.count(900_000_000_000_000_001)
        self.channels: dict[int, Any] = {}
        self.posts: dict[int, Post] = {}
        self.order: list[int] = []  # post ids in the order they were posted
        self.dms: list[tuple[int, str]] = []
        self.members: dict[int, Any] = {}
        self.bot: Any = None

    def next_id(self) -> int:
        return next(self._ids)

    # -- bot --------------------------------------------------------------------------------------------------------
    def attach(self, bot) -> None:
        """Route the bot's channel and user look-ups to this fake."""
        self.bot = bot
        bot.get_channel = lambda channel_id: self.channels.get(channel_id)

        async def fetch_channel(channel_id):
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), "unknown channel")

        bot.fetch_channel = fetch_channel
        bot.get_user = lambda user_id: self.members.get(user_id)

        async def fetch_user(user_id):
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), "unknown user")

        bot.fetch_user = fetch_user

        async def start_private_message(user_id):  # POST /users/@me/channels: a DM channel per member
            return {"id": str(8_000_000 + user_id), "type": 1}

        def get_partial_messageable(channel_id, *, type=None, guild_id=None):  # noqa: A002 - discord.py's name
            async def send(content=None, **kwargs):
                self.dms.append((channel_id - 8_000_000, content))

            return SimpleNamespace(id=channel_id, send=AsyncMock(side_effect=send))

        bot.http.start_private_message = start_private_message
        bot.get_partial_messageable = get_partial_messageable

    # -- members ----------------------------------------------------------------------------------------------------
    def member(self, user_id: int, name: str, *, bot: bool = False):
        """A guild member (autospec'd :class:`discord.Member`); his direct messages land in :attr:`dms`."""
        member = create_autospec(discord.Member, instance=True)
        member.id = user_id
        member.display_name = name
        member.name = name.lower()
        member.bot = bot
        member.mention = f"<@{user_id}>"

        async def send(content=None, **kwargs):
            self.dms.append((user_id, content))

        member.send = AsyncMock(side_effect=send)
        self.members[user_id] = member
        return member

    # -- channels ---------------------------------------------------------------------------------------------------
    def text_channel(self, name: str = "games"):
        """A text channel (threads can be opened from its messages)."""
        return self._channel(discord.TextChannel, name)

    def _channel(self, kind, name: str, channel_id: int | None = None):
        channel = create_autospec(kind, instance=True)
        channel.id = channel_id or self.next_id()
        channel.name = name
        channel.mention = f"<#{channel.id}>"

        async def send(content=None, *, embed=None, file=None, view=None, allowed_mentions=None, **kwargs):
            return self._post(channel, content, embed, _read(file), view)

        channel.send = AsyncMock(side_effect=send)
        channel.get_partial_message = lambda message_id: self._partial(channel, message_id)
        self.channels[channel.id] = channel
        return channel

    def _message(self, channel, message_id: int) -> SentMessage:
        return SentMessage(message_id, channel, f"https://discord.com/channels/{GUILD}/{channel.id}/{message_id}")

    def _post(self, channel, content, embed, png, view) -> SentMessage:
        post = Post(self.next_id(), channel.id, content or "", embed, png, _components(view))
        self.posts[post.id] = post
        self.order.append(post.id)
        return self._message(channel, post.id)

    def _partial(self, channel, message_id: int) -> FakePartialMessage:
        return FakePartialMessage(self, channel, message_id)

    # -- reading what was posted ------------------------------------------------------------------------------------
    def in_channel(self, channel_id: int) -> list[Post]:
        """The posts in a channel or thread, oldest first."""
        return [self.posts[i] for i in self.order if self.posts[i].channel_id == channel_id]

    def last(self, channel_id: int) -> Post:
        """The newest post in a channel or thread."""
        posts = self.in_channel(channel_id)
        assert posts, f"nothing was posted in {channel_id}"
        return posts[-1]

    def find(self, custom_id: str) -> Post:
        """The post that carries the component ``custom_id``."""
        for post in self.posts.values():
            if custom_id in post.custom_ids:
                return post
        raise AssertionError(f"no message carries {custom_id}")

    # -- interactions -----------------------------------------------------------------------------------------------
    def interaction(
        self,
        user,
        channel,
        *,
        kind: discord.InteractionType = discord.InteractionType.application_command,
        data: dict | None = None,
        message: Post | None = None,
        permissions: discord.Permissions | None = None,
        namespace: dict | None = None,
    ):
        """An autospec'd :class:`discord.Interaction` from ``user`` in ``channel``; ``message`` is the post a
        component was pressed on. The bot's answers are recorded in ``interaction.replies``."""
        interaction = create_autospec(discord.Interaction, instance=True)
        interaction.client = self.bot
        interaction.user = user
        interaction.guild_id = GUILD
        interaction.channel = channel
        interaction.channel_id = channel.id
        interaction.type = kind
        interaction.data = data or {}
        interaction.permissions = permissions or discord.Permissions.none()
        interaction.namespace = SimpleNamespace(**(namespace or {}))
        interaction.command_failed = False
        interaction.command = None
        replies: list[Reply] = []
        interaction.replies = replies
        state = {"done": False}

        response = create_autospec(discord.InteractionResponse, instance=True)
        response.is_done.side_effect = lambda: state["done"]

        def finish():
            assert not state["done"], "the interaction was answered twice"
            state["done"] = True

        async def defer(*, ephemeral=False, thinking=False):
            finish()
            replies.append(Reply("defer", ephemeral=ephemeral))

        async def send_message(content=None, *, ephemeral=False, file=None, embed=None, view=None, **kwargs):
            finish()
            replies.append(Reply("message", content or "", ephemeral, _read(file), components=_components(view)))

        async def edit_message(**kwargs):
            finish()
            replies.append(Reply("edit", kwargs.get("content") or ""))

        response.defer = AsyncMock(side_effect=defer)
        response.send_message = AsyncMock(side_effect=send_message)
        response.edit_message = AsyncMock(side_effect=edit_message)
        interaction.response = response

        followup = create_autospec(discord.Webhook, instance=True)

        async def followup_send(content=None, *, ephemeral=False, file=None, embed=None, view=None, **kwargs):
            assert state["done"], "a followup before the interaction was answered"
            data = _read(file)
            replies.append(Reply(
                "followup", content or "", ephemeral, png=data if data and data.startswith(PNG_MAGIC) else None,
                file_bytes=data, filename=getattr(file, "filename", None), components=_components(view), embed=embed,
            ))  # fmt: skip
            return self._message(channel, self.next_id())

        followup.send = AsyncMock(side_effect=followup_send)
        interaction.followup = followup
        if message is not None:  # what discord.py reads of the message a component was pressed on
            interaction.message = SimpleNamespace(
                id=message.id,
                channel=channel,
                flags=discord.MessageFlags(),
                components=[_component_factory(row) for row in message.components],
            )
        else:
            interaction.message = None
        return interaction

    def as_seen(self, post: Post) -> Post:
        """A copy of ``post`` as a member's screen shows it now (to press one of its buttons later, when the message
        itself has changed: a stale button)."""
        return copy.deepcopy(post)

    async def press(self, user, custom_id: str, value: str | None = None, *, seen: Post | None = None):
        """``user`` presses the component ``custom_id`` where it was posted (or on ``seen``, an old copy of the
        message): the DynamicItem is rebuilt from its custom_id (:meth:`from_custom_id`) and its callback run, as
        discord.py does. Returns the interaction."""
        interaction, item = await self.prepare_press(user, custom_id, value, seen=seen)
        await item.callback(interaction)
        return interaction

    async def prepare_press(self, user, custom_id: str, value: str | None = None, *, seen: Post | None = None):
        """The interaction of ``user`` pressing ``custom_id`` and the DynamicItem discord.py would build for it
        (via :meth:`from_custom_id`), before its callback runs: ``(interaction, item)``."""
        post = seen or self.find(custom_id)
        channel = self.channels[post.channel_id]
        data = {"custom_id": custom_id, "component_type": menu_type(custom_id)}
        if value is not None:
            data["values"] = [value]
        interaction = self.interaction(user, channel, kind=discord.InteractionType.component, data=data, message=post)
        for factory in ITEMS:
            match = factory.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match:
                base = discord.ui.View.from_message(interaction.message, timeout=None)
                component = next(child for child in base.children if getattr(child, "custom_id", None) == custom_id)
                return interaction, await factory.from_custom_id(interaction, component, match)
        raise AssertionError(f"{custom_id} matches no dynamic item")

    async def press_via_library(self, user, custom_id: str, value: str | None = None):
        """Like :meth:`press`, but through discord.py's own dispatch of dynamic items (the registry filled by
        ``bot.add_dynamic_items`` in ``setup_hook``), so it fails if the bot did not register them."""
        post = self.find(custom_id)
        channel = self.channels[post.channel_id]
        component_type = menu_type(custom_id)
        data = {"custom_id": custom_id, "component_type": component_type}
        if value is not None:
            data["values"] = [value]
        interaction = self.interaction(user, channel, kind=discord.InteractionType.component, data=data, message=post)
        store = self.bot._connection._view_store  # discord.py's registry of persistent items
        store.dispatch_view(component_type, custom_id, interaction)
        pending = [task for task in asyncio.all_tasks() if task.get_name().startswith("discord-ui-dynamic-item")]
        assert pending, f"no dynamic item registered for {custom_id}"
        await asyncio.gather(*pending)
        return interaction


async def call(command, cog, interaction, **options):
    """Run a slash command's callback as discord.py would after parsing the options."""
    await command.callback(cog, interaction, **options)
    return interaction


@asynccontextmanager
async def running_bot(
    path: Path, *, clock: ManualClock | None = None, dice: InjectedDice | None = None, seed: int = 0, **settings
):
    """A :class:`bot.BgBot` on a real SQLite file at ``path`` with its cogs loaded and dynamic items registered
    (``setup_hook``), the fake Discord attached; yields ``(bot, fake)`` and closes everything. Dice are provably
    fair from reproducible seeds (``seed``) unless ``dice`` injects them."""
    database = await Database.open(path)
    service = ClubService(database, clock=clock or ManualClock(), dice=dice, seeds=seeded(seed))
    bot = botmod.BgBot(botmod.Settings(**settings), database=database, service=service)
    fake = FakeDiscord()
    fake.attach(bot)
    try:
        await bot._async_setup_hook()  # what Client.login does first: bind the running loop
        await bot.setup_hook()
        yield bot, fake
    finally:
        try:
            await bot.close()
        finally:
            await database.close()


def cog_of(bot):
    """The ``/bg`` cog."""
    return bot.get_cog("Backgammon")


def last_reply(interaction) -> Reply:
    """The last thing the bot answered this interaction with (not the defer)."""
    replies = [reply for reply in interaction.replies if reply.kind != "defer"]
    assert replies, "the interaction got no answer beyond the defer"
    return replies[-1]
