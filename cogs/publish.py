"""Where a match's messages go, and keeping them current with the bot's own token.

A challenge is posted in the club's game channel (``/bg config channel``) or where it was made, with Accept /
Decline / Withdraw buttons, the challenged member mentioned. When it is accepted the game gets its own thread, opened
from the challenge message (or, where threads cannot be made, the game lives in that channel) — its **home**. After
every turn the home gets the new board: a new message that mentions the member who must act (the previous board
loses its buttons), or, when the same member acts again (he rolled, now he plays), the board message edited in place.
Every message is posted and edited with the bot's token (never an interaction token, which lapses after 15 minutes),
and remembered in the database (:meth:`club.service.ClubService.remember_message`), so games that last for days —
and bot restarts — keep working. Members who asked for it (``/bg notify on``) also get a direct message.

Remembered message purposes: ``challenge`` (the challenge post), ``home`` (the game's thread or channel; a thread is
recorded as its own message id too, so ``match_of_message(thread, thread)`` finds the game of a thread), ``board``.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from club.boards import finished_games
from club.describe import shorten
from club.errors import ClubError
from club.results import Outcome, TableView

from .present import COLOURS, MENTIONS, board_message, mention, title

log = logging.getLogger("bgclub.discord")

THREAD_ARCHIVE_MINUTES = 10080  # a week: asynchronous games are slow


class Publisher:
    """Posts and edits a match's messages for ``bot`` (which has ``service``, ``board_options`` and the discord.py
    client methods ``get_channel``/``fetch_channel``/``get_user``/``fetch_user``)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @property
    def service(self):
        """The bot's :class:`~club.service.ClubService`."""
        return self.bot.service

    # -- channels -----------------------------------------------------------------------------------------------------
    async def channel(self, channel_id: int | None):
        """The channel or thread ``channel_id`` (from the cache, else fetched), or None if it is gone."""
        if not channel_id:
            return None
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException as error:
                log.warning("channel %s is not reachable: %s", channel_id, error)
                return None
        return channel

    async def home(self, match_id: int):
        """The channel or thread where match ``match_id`` is played, or None before it has one."""
        records = await self.service.messages(match_id, purpose="home")
        return await self.channel(records[-1].channel_id) if records else None

    async def here(self, channel_id: int | None) -> int | None:
        """The match whose thread ``channel_id`` is, or None."""
        if not channel_id:
            return None
        return await self.service.match_of_message(channel_id, channel_id)

    # -- the challenge ------------------------------------------------------------------------------------------------
    async def post_challenge(self, outcome: Outcome, *, guild_id: int, origin) -> discord.Message:
        """Post the challenge (Accept / Decline / Withdraw) in the club's game channel, else in ``origin``."""
        settings = await self.service.club_settings(guild_id)
        channel = await self.channel(settings.game_channel) if settings.game_channel else None
        channel = channel or origin
        board = await board_message(self.service, outcome.view, outcome.message, options=self.bot.board_options)
        message = await channel.send(**board.send_kwargs())
        await self.service.remember_message(outcome.match_id, channel.id, message.id, purpose="challenge")
        return message

    async def _close_challenge(self, view: TableView, text: str) -> None:
        records = await self.service.messages(view.match_id, purpose="challenge")
        if not records:
            return
        record = records[-1]
        channel = await self.channel(record.channel_id)
        if channel is None:
            return
        embed = discord.Embed(title=title(view)[:256], description=text[:4000] or view.status,
                              colour=COLOURS.get(view.status, discord.Colour.blurple()))  # fmt: skip
        embed.add_field(name="Rules", value=view.rules_text[:1024] or "-", inline=False)
        try:
            await channel.get_partial_message(record.message_id).edit(
                content="", embed=embed, attachments=[], view=None, allowed_mentions=MENTIONS
            )
        except discord.HTTPException as error:
            log.info("could not close the challenge message of match %s: %s", view.match_id, error)

    async def open_home(self, view: TableView):
        """Open the game's home when its first game starts: a thread from the challenge message (named after the
        match), or the challenge's channel where no thread can be made. Returns it (None if that channel is gone)."""
        records = await self.service.messages(view.match_id, purpose="challenge")
        if not records:
            return None
        record = records[-1]
        channel = await self.channel(record.channel_id)
        if channel is None:
            return None
        home, message_id = channel, record.message_id
        if not isinstance(channel, discord.Thread) and isinstance(channel, discord.TextChannel):
            try:
                home = await channel.get_partial_message(record.message_id).create_thread(
                    name=shorten(title(view), 100), auto_archive_duration=THREAD_ARCHIVE_MINUTES
                )
                message_id = home.id
            except discord.HTTPException as error:
                log.warning("no thread for match %s in channel %s (%s): playing in the channel", view.match_id,
                            channel.id, error)  # fmt: skip
                home = channel
        await self.service.remember_message(view.match_id, home.id, message_id, purpose="home")
        return home

    # -- boards ---------------------------------------------------------------------------------------------------------
    async def publish(self, outcome: Outcome, *, actor: int | None) -> discord.Message | None:
        """Show ``outcome`` (``actor`` did it; None = the club, at a time limit): close the challenge message when
        it was answered, then post or edit the board in the game's home and notify by direct message. Returns the
        board message (None when there is no game to show or nowhere to show it)."""
        view = outcome.view
        answered = any(event.kind in ("accept", "decline", "cancel", "lapse") for event in outcome.events)
        first_line = outcome.message.splitlines()[0] if outcome.message else ""
        if view.game is None:
            if answered:
                await self._close_challenge(view, first_line)
            await self.notify(outcome, actor, None)
            return None
        home = await self.home(view.match_id) or await self.open_home(view)
        if answered:
            await self._close_challenge(view, first_line + (f" The game is played in <#{home.id}>." if home else ""))
        if home is None:
            log.warning("match %s has no channel to post its board in", view.match_id)
            return None
        for final in await finished_games(self.service, outcome):  # each game's last position, with its result
            shown = await board_message(self.service, final, options=self.bot.board_options, buttons=False)
            await home.send(**shown.send_kwargs())
        board = await board_message(self.service, view, outcome.message, options=self.bot.board_options)
        boards = await self.service.messages(view.match_id, purpose="board")
        previous = boards[-1] if boards else None
        message = None
        if (
            previous is not None
            and actor is not None
            and actor == view.waiting_for
            and previous.channel_id == home.id
            and previous.game_number == view.game_number
        ):
            try:
                message = await home.get_partial_message(previous.message_id).edit(**board.edit_kwargs())
            except discord.NotFound:
                message = None
        if message is None:
            message = await home.send(**board.send_kwargs())
            await self.service.remember_message(
                view.match_id, home.id, message.id, game_number=view.game_number, purpose="board"
            )
            if previous is not None:
                await self._strip(previous)
        await self.notify(outcome, actor, message)
        if any(event.kind in ("match_over", "session_over") for event in outcome.events):
            self.bot.dispatch("match_finished", view)  # listeners (the review, cogs.study) run as their own tasks
        return message

    async def _strip(self, record) -> None:
        channel = await self.channel(record.channel_id)
        if channel is None:
            return
        try:
            await channel.get_partial_message(record.message_id).edit(view=None)
        except discord.HTTPException as error:
            log.debug("could not remove the buttons of message %s: %s", record.message_id, error)

    # -- direct messages ------------------------------------------------------------------------------------------------
    async def direct_message(self, member_id: int, text: str) -> bool:
        """Send ``text`` to ``member_id`` privately if he asked for it (``/bg notify on``); True if sent."""
        try:
            if not (await self.service.preferences(member_id)).notify:
                return False
        except ClubError:
            return False
        user = self.bot.get_user(member_id)
        try:
            if user is None:
                user = await self.bot.fetch_user(member_id)
            await user.send(text[:2000])
        except discord.HTTPException as error:
            log.info("no direct message to %s: %s", member_id, error)
            return False
        return True

    async def notify(self, outcome: Outcome, actor: int | None, message: discord.Message | None) -> None:
        """Direct messages to the members the outcome concerns (``outcome.notify``), but not to the ``actor``."""
        view = outcome.view
        link = f"\n{message.jump_url}" if message is not None and getattr(message, "jump_url", None) else ""
        for member in outcome.notify:
            if member == actor or member not in view.players:
                continue
            if member == view.waiting_for:
                text = f"Your turn in {title(view)}: {view.pending_text}.{link}"
            else:
                last = outcome.message.splitlines()[-1] if outcome.message else view.status
                text = f"{title(view)}: {last}{link}"
            await self.direct_message(member, text)

    async def post_notice(self, notice) -> None:
        """Post a time-limit notice (:class:`club.scheduler.Notice`) in the game's home, mentioning whom it
        concerns, then the board if the club acted (a forfeit, a lapse); direct messages to who asked for them."""
        mentions = " ".join(mention(member) for member in notice.ping)
        channel = await self.home(notice.table_id)
        if channel is None:
            records = await self.service.messages(notice.table_id, purpose="challenge")
            channel = await self.channel(records[-1].channel_id) if records else None
        if channel is not None:
            from .player import claim_view  # Claim the game / Claim the match / Give 24 h more (issue 14)

            extra = {"view": view} if (view := claim_view(notice)) is not None else {}
            await channel.send(content=f"{mentions} {notice.text}"[:2000], allowed_mentions=MENTIONS, **extra)
        else:
            log.warning("notice for match %s with nowhere to post it: %s", notice.table_id, notice.text)
        if notice.outcome is not None:
            await self.publish(notice.outcome, actor=None)
        else:
            for member in notice.ping:
                await self.direct_message(member, notice.text)
