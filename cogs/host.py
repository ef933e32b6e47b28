"""The bot as the cogs see it: :class:`ClubBot`, a discord.py bot carrying the club's use-cases, and
:data:`Interaction`, an interaction whose ``client`` is that bot.

:class:`botapp.discord_bot.BgBot` is the one concrete bot (it opens storage and fills these attributes in
``setup_hook``); the cogs are typed against this class so that they never import the entry layer above them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

import discord
from discord.ext import commands

from club import ClubService
from club.boards import BoardOptions
from club.chouette import ChouetteService
from club.errors import InvalidRequestError
from club.events.service import EventService
from club.records import ClubRecords

if TYPE_CHECKING:
    from .publish import Publisher

REMINDER_SECONDS = 60.0
"""How often the reminder loop runs, in seconds, unless ``[scheduler] interval_seconds`` says otherwise."""


class Named(Protocol):
    """A Discord user or member as :meth:`ClubBot.register_member` reads him: an id and, when known, names."""

    @property
    def id(self) -> int: ...


class ClubBot(commands.AutoShardedBot):
    """A discord.py bot with the club's use-cases on it: ``service`` (the 1-on-1 tables, set in ``setup_hook``),
    ``publisher`` (where boards go), ``board_options`` (theme and size of the pictures), ``records`` (set by the
    ``/club`` extension), ``events`` (set by the ``/event`` extension), ``chouettes`` (set by the chouette extension; None while it is not loaded) and
    ``reminder_seconds`` (the reminder loop's period)."""

    service: ClubService
    publisher: Publisher
    board_options: BoardOptions
    records: ClubRecords
    events: EventService
    chouettes: ChouetteService | None = None
    reminder_seconds: float = REMINDER_SECONDS

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._known: dict[tuple[int, int], str] = {}

    async def register_member(self, guild_id: int, user: Named) -> int:
        """Make ``user`` a member of the club of ``guild_id`` under his display name (once per name change);
        returns his id."""
        name = getattr(user, "display_name", None) or getattr(user, "name", None) or str(user.id)
        key = (guild_id, user.id)
        if self._known.get(key) != name:
            await self.service.register(guild_id, user.id, name)
            self._known[key] = name
        return user.id


Interaction = discord.Interaction[ClubBot]
"""An interaction with the club's bot (``interaction.client`` is a :class:`ClubBot`)."""


def of_club(interaction: discord.Interaction) -> Interaction:
    """``interaction`` as one with the club's bot (for the discord.py hooks typed for any client: a button's
    ``callback``, a modal's ``on_submit``). Raises ``TypeError`` when its client is not a :class:`ClubBot`."""
    if not isinstance(interaction.client, ClubBot):
        raise TypeError(f"an interaction of {type(interaction.client).__name__}, not of the club's bot")
    return cast(Interaction, interaction)


def guild_of(interaction: discord.Interaction) -> int:
    """The id of the server ``interaction`` comes from. Raises :class:`InvalidRequestError` from a direct message: a
    club is a server, and its members act in it (RULES A2)."""
    if interaction.guild_id is None:
        raise InvalidRequestError("The club's commands work in its server, not in a direct message.")
    return interaction.guild_id
