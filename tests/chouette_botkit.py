"""The fake Discord of :mod:`botkit` for the chouette cog: commands of ``/bg chouette`` called through their
callbacks, the chouette buttons and menus pressed through their ``DynamicItem`` rebuilt from the ``custom_id``
(test code only)."""

from __future__ import annotations

from contextlib import asynccontextmanager

import discord
from botkit import menu_type, running_bot

import bot as botmod
from cogs.buttons import ITEMS


@asynccontextmanager
async def chouette_bot(path, **options):
    """:func:`botkit.running_bot` (its extensions include ``cogs.chouette``)."""
    assert "cogs.chouette" in botmod.EXTENSIONS
    async with running_bot(path, **options) as (bot, fake):
        yield bot, fake


def group(bot):
    """The ``/bg chouette`` group."""
    return bot.tree.get_command("bg").get_command("chouette")


async def command(bot, fake, name: str, user, channel, **options):
    """Run ``/bg chouette <name>`` for ``user`` in ``channel``; returns the interaction (its replies recorded)."""
    chouette = group(bot)
    interaction = fake.interaction(user, channel)
    await chouette.get_command(name).callback(chouette, interaction, **options)
    return interaction


def chouette_ids(post) -> list[str]:
    """The chouette component ids of a post."""
    return [custom_id for custom_id in post.custom_ids if custom_id.startswith(("t:c:", "tm:c:"))]


def chouette_parts(custom_id: str) -> tuple[int, str]:
    """``(member, action)`` of a chouette component id (``t:c:<sid>:<mark>:<action>:<member>:<cube>`` or
    ``tm:c:<sid>:<mark>:<what>:<member>``)."""
    parts = custom_id.split(":")
    return int(parts[5]), parts[4]


def find_id(post, member: int, action: str) -> str:
    """The custom_id of ``member``'s ``action`` button (or menu: ``play``, ``double``, ``take``) on ``post``."""
    for custom_id in chouette_ids(post):
        if chouette_parts(custom_id) == (member, action):
            return custom_id
    raise AssertionError(f"no {action!r} for {member} on message {post.id}: {chouette_ids(post)}")


def options_of(post, custom_id: str) -> list[str]:
    """The option values of the menu ``custom_id`` on ``post``."""
    for row in post.components:
        for item in row["components"]:
            if item.get("custom_id") == custom_id:
                return [option["value"] for option in item["options"]]
    raise AssertionError(f"no menu {custom_id}")


async def press(fake, user, custom_id: str, values: list[str] | None = None, *, seen=None):
    """``user`` presses the chouette component ``custom_id`` where it was posted (or on ``seen``, an old copy),
    as discord.py would: the item is rebuilt from its custom_id and its callback run. Returns the interaction."""
    post = seen or fake.find(custom_id)
    channel = fake.channels[post.channel_id]
    data = {"custom_id": custom_id, "component_type": menu_type(custom_id)}
    if values is not None:
        data["values"] = list(values)
    interaction = fake.interaction(user, channel, kind=discord.InteractionType.component, data=data, message=post)
    for factory in ITEMS:
        match = factory.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match:
            base = discord.ui.View.from_message(interaction.message, timeout=None)
            component = next(child for child in base.children if getattr(child, "custom_id", None) == custom_id)
            item = await factory.from_custom_id(interaction, component, match)
            await item.callback(interaction)
            return interaction
    raise AssertionError(f"{custom_id} matches no chouette item")


def private_text(interaction) -> str:
    """The last private answer of an interaction."""
    replies = [reply for reply in interaction.replies if reply.kind != "defer"]
    assert replies and replies[-1].ephemeral, "no private answer"
    return replies[-1].content
