"""Errors in one place: a refusal (a rules or use-case error, a failed check, a bad option) becomes an ephemeral
message saying what was wrong and what is possible; anything else is logged with its context and the member gets a
short apology — never Discord's bare "This interaction failed"."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from contextlib import asynccontextmanager
from typing import Any

import discord
from discord import app_commands

from club import frontend

from .platform import answer_privately

log = logging.getLogger("bgclub.discord")

APOLOGY = (
    "Sorry — something went wrong on our side and it has been logged. "
    "Look at the board again (/bg board) before you retry."
)


class NotClubAdmin(app_commands.CheckFailure):
    """The member may not change the club's settings (RULES A2: a club decision)."""


def is_club_admin(interaction: discord.Interaction) -> bool:
    """Check: the member may manage the server (the club's admins, RULES A2). Raises :class:`NotClubAdmin`."""
    permissions = interaction.permissions
    if permissions.manage_guild or permissions.administrator:
        return True
    raise NotClubAdmin("Only club admins (members who may manage this server) can change the club's settings.")


def refusal_text(error: BaseException, legal: Sequence[str] | None = None) -> str | None:
    """The message for ``error`` if it is a refusal meant for the member, else None (a bug: log it)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if frontend.is_refusal(error):
        return frontend.explain(error, legal)
    if isinstance(error, app_commands.CheckFailure):
        if isinstance(error, app_commands.NoPrivateMessage):
            return "Backgammon is played in a server's channels, not in direct messages."
        return str(error) or "You may not use this command here."
    if isinstance(error, app_commands.TransformerError):
        return f"{error.value!r} is not a valid {error.type.name.lower()} here."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} s."
    return None


async def send_private(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """An ephemeral message to the member, whether or not the interaction has been answered yet (after the token's
    15 minutes: in the channel, with his mention; :func:`cogs.platform.answer_privately`)."""
    await answer_privately(interaction, text, **kwargs)


async def report(
    interaction: discord.Interaction,
    error: BaseException,
    *,
    legal: Sequence[str] | None = None,
    context: dict[str, Any] | None = None,
) -> None:
    """Tell the member about ``error``: the refusal in words, or (after logging it with ``context``) an apology."""
    text = refusal_text(error, legal)
    if text is None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        log.error(
            "unexpected error in %s (user %s, guild %s, channel %s, %s)",
            (context or {}).get("what", "an interaction"),
            getattr(interaction.user, "id", None),
            interaction.guild_id,
            interaction.channel_id,
            ", ".join(f"{key}={value!r}" for key, value in (context or {}).items() if key != "what") or "-",
            exc_info=(type(original), original, original.__traceback__),
        )
        text = APOLOGY
    try:
        await send_private(interaction, text)
    except discord.HTTPException:
        log.warning("could not tell user %s about %r", getattr(interaction.user, "id", None), error, exc_info=True)


@asynccontextmanager
async def guarded(interaction: discord.Interaction, what: str, **context: Any):
    """``async with guarded(interaction, "board"):`` — whatever the body raises is reported (see :func:`report`)."""
    try:
        yield
    except Exception as error:
        await report(interaction, error, context={"what": what, **context})
