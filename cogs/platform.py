"""What Discord itself may refuse, handled in one place for the 1-on-1 and the chouette alike.

- **Permissions** (:func:`require_permissions`): checked with ``channel.permissions_for(guild.me)`` *before*
  anything is stored, so a challenge or a chouette is never created where its messages cannot be posted; the refusal
  names the missing permissions as Discord's settings show them. :data:`POST` is what every board needs,
  :data:`THREADS` what a match's own thread needs, :data:`PRIVATE_THREADS` what "no cube, no talk" needs.
- **Archived threads** (:func:`edit_message`): Discord refuses edits in an archived thread (50083); the thread is
  unarchived and the edit made again. A message or channel that is gone (10008, 10003) is reported as None, so the
  caller posts a fresh board instead of losing the game.
- **Answers to an interaction** (:func:`answer_privately`): after its token's 15 minutes (50027) or when the
  interaction is unknown (10015), the answer goes to the channel with the member's mention instead.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from club.errors import InvalidRequestError

log = logging.getLogger("bgclub.discord")

POST = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")
"""What the bot needs in a channel to post and keep a board there."""
THREADS = ("create_public_threads", "send_messages_in_threads")
"""What a match's own thread needs (in the channel it is opened from)."""
PRIVATE_THREADS = ("create_private_threads", "manage_threads")
"""What "no cube, no talk" needs (a private thread; members removed as their cubes leave the game)."""
IN_THREAD = ("view_channel", "send_messages_in_threads", "embed_links", "attach_files", "read_message_history")
"""What the bot needs inside a thread."""
ARCHIVED, UNKNOWN_CHANNEL, UNKNOWN_MESSAGE = 50083, 10003, 10008
CANNOT_DM, INVALID_TOKEN, UNKNOWN_WEBHOOK, UNKNOWN_INTERACTION = 50007, 50027, 10015, 10062


def permission_name(name: str) -> str:
    """``send_messages`` → ``Send Messages`` (as Discord's role settings spell it)."""
    return name.replace("_", " ").title().replace("In Threads", "in Threads")


class MissingBotPermissions(app_commands.CheckFailure):
    """The bot lacks permissions in the channel where something would be posted; nothing was stored. ``missing``:
    discord.py's names of the permissions."""

    def __init__(self, channel: Any, missing: list[str]) -> None:
        self.channel, self.missing = channel, missing
        where = getattr(channel, "mention", None) or "this channel"
        words = ", ".join(f"**{permission_name(name)}**" for name in missing)
        super().__init__(
            f"I cannot post in {where}: I need the permission{'s' if len(missing) > 1 else ''} {words} there. "
            "Ask a server admin to give them to me there (or to choose another channel with /bg config channel)."
        )


def missing_permissions(channel: Any, needs: tuple[str, ...]) -> list[str]:
    """The permissions of ``needs`` the bot lacks in ``channel`` (``permissions_for(guild.me)``), in order; [] when
    the channel is not a server channel or the bot's member is unknown (nothing to check)."""
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if me is None or not hasattr(channel, "permissions_for"):
        return []
    if isinstance(channel, discord.Thread):  # inside a thread: its own sending permission, no thread to open
        renamed = ("send_messages_in_threads" if name == "send_messages" else name for name in needs)
        needs = tuple(dict.fromkeys(name for name in renamed if not name.startswith("create_")))
    permissions = channel.permissions_for(me)
    return [name for name in needs if not getattr(permissions, name, False)]


def require_permissions(channel: Any, *needs: tuple[str, ...]) -> None:
    """Raise :class:`MissingBotPermissions` unless the bot has every permission of ``needs`` (tuples such as
    :data:`POST`, :data:`THREADS`) in ``channel``."""
    wanted = tuple(dict.fromkeys(name for group in needs for name in group))
    missing = missing_permissions(channel, wanted)
    if missing:
        raise MissingBotPermissions(channel, missing)


def error_code(error: BaseException) -> int:
    """Discord's error code of an HTTP error (0 when there is none)."""
    return int(getattr(error, "code", 0) or 0)


async def edit_message(channel: Any, message_id: int, make_kwargs: Callable[[], dict[str, Any]]):
    """Edit message ``message_id`` of ``channel`` with ``make_kwargs()`` (called again for a retry: a file can be
    sent once). An archived thread (50083) is unarchived and the edit retried. Returns the message, or None when the
    message or the channel is gone (10008, 10003: post a fresh one). Other HTTP errors are raised."""
    for attempt in range(2):
        try:
            return await channel.get_partial_message(message_id).edit(**make_kwargs())
        except discord.NotFound:
            return None
        except discord.HTTPException as error:
            if error_code(error) != ARCHIVED or attempt or not isinstance(channel, discord.Thread):
                raise
            log.info("thread %s is archived: unarchiving it to edit message %s", channel.id, message_id)
            await channel.edit(archived=False)
    return None


def postable(channel: object) -> discord.abc.Messageable:
    """``channel`` as one messages are posted in (a text channel, a thread, a direct message). Raises
    :class:`~club.errors.InvalidRequestError` for one that takes no messages (a category, a forum) or None."""
    if not isinstance(channel, discord.abc.Messageable):
        raise InvalidRequestError("Nothing can be posted here: ask in a text channel or a thread.")
    return channel


async def answer_privately(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """An ephemeral answer to the member, whether or not the interaction has been answered yet; when its token has
    lapsed (15 minutes, 50027) or is unknown (10015), the answer is posted in the channel with his mention."""
    text = text if len(text) <= 2000 else text[:1990] + " …"
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(text, ephemeral=True, **kwargs)
        return
    except discord.HTTPException as error:
        if error_code(error) not in (INVALID_TOKEN, UNKNOWN_WEBHOOK, UNKNOWN_INTERACTION):
            raise
        log.info("interaction token of user %s lapsed (%s): answering in the channel", interaction.user.id, error)
    channel = interaction.channel
    if not isinstance(channel, discord.abc.Messageable) or missing_permissions(channel, ("send_messages",)):
        return
    mention = f"<@{interaction.user.id}> "
    await channel.send(
        (mention + text)[:2000], allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False)
    )
