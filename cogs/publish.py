"""Where a match's messages go, and keeping them current with the bot's own token.

A challenge is posted in the club's game channel (``/bg config channel``) or where it was made, with Accept /
Decline / Withdraw buttons, the challenged member mentioned — but only after :func:`check_challenge_channel` found
that the bot may post there (nothing is stored otherwise). When it is accepted the game gets its own thread, opened
from the challenge message (or, where threads cannot be made, the game lives in that channel) — its **home**. After
every turn the home gets the new board: a new message that mentions the member who must act (the previous board
loses its buttons), or, when the same member acts again (he rolled, now he plays), the board message edited in place.
Every message is posted and edited with the bot's token (never an interaction token, which lapses after 15 minutes),
and remembered in the database (:meth:`club.service.ClubService.remember_message`), so games that last for days —
and bot restarts — keep working. Members who asked for it (``/bg notify on``) also get a direct message.

Discord's own conditions (:mod:`cogs.platform`): an archived thread is unarchived to edit its board; a deleted board
message is posted again; a deleted thread or channel gets a fresh home — a new thread in the challenge's channel, or
the channel where the member acted — remembered as the game's home, so the game is never lost. The **live-message
index** (:class:`LiveIndex`) answers "the live board of this game" from memory (one database read per game after a
start) instead of rereading every board message. Direct messages reuse each member's DM channel (remembered in the
database); a member who accepts none (50007) is told once, in the game's home, that he will be mentioned there.

Remembered message purposes: ``challenge`` (the challenge post), ``home`` (the game's thread or channel; a thread is
recorded as its own message id too, so ``match_of_message(thread, thread)`` finds the game of a thread), ``board``.
"""

from __future__ import annotations

import io
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal

import discord

from club.boards import finished_games
from club.chouette.images import sheet_png_async
from club.describe import shorten
from club.errors import ClubError
from club.results import Outcome, TableView
from club.table import MatchStatus, TableAction, TableEvent, TableType
from club.work import Purpose, TableLocks

from .chouette_present import chouette_message
from .platform import CANNOT_DM, POST, THREADS, edit_message, error_code, missing_permissions, require_permissions
from .player import claim_view  # Claim the game / Claim the match / Give 24 h more
from .present import COLOURS, MENTIONS, board_message, mention, title

log = logging.getLogger("bgclub.discord")

THREAD_ARCHIVE_MINUTES: Literal[60, 1440, 4320, 10080] = 10080  # a week (one of Discord's four): games are slow
OPEN = (MatchStatus.CHALLENGED, MatchStatus.ACTIVE)
TABLES_HELD = 2048
"""How many tables' live messages :class:`LiveIndex` holds (the most recently used)."""


@dataclass
class _Held:
    """What :class:`LiveIndex` holds of one table: the newest record of each purpose, and every ``decisions`` record
    (None until the table's messages have been read)."""

    live: dict[str, Any] = field(default_factory=dict)
    listed: list[Any] | None = None


class LiveIndex:
    """The messages of each table, by ``(kind, id)`` (``("match", 12)``, ``("chouette", 3)``): the newest remembered
    record of each purpose, and every ``decisions`` record (the overflow rows of its boards), read from the database
    once — all the table's messages in one read, at the first question about it — and then kept current as messages
    are posted. Only the ``size`` tables used most recently are held (:data:`TABLES_HELD`): one used before them is
    read again at its next question, so the bot's memory does not grow with the number of open games."""

    LISTED = Purpose.DECISIONS
    """The purpose whose every record is kept, not only the newest."""

    def __init__(self, size: int = TABLES_HELD) -> None:
        self.size = size
        self._tables: OrderedDict[tuple[str, int], _Held] = OrderedDict()

    def _hold(self, key: tuple[str, int]) -> _Held:
        held = self._tables.get(key)
        if held is None:
            held = self._tables[key] = _Held()
            while len(self._tables) > self.size:
                self._tables.popitem(last=False)
        else:
            self._tables.move_to_end(key)
        return held

    async def _load(self, key: tuple[str, int], load) -> _Held:
        held = self._hold(key)
        if held.listed is not None:
            return held
        records = await load()  # every remembered message of the table, oldest first
        held = self._hold(key)
        newest = {record.purpose: record for record in records}
        for purpose, record in newest.items():
            held.live.setdefault(purpose, record)  # one set meanwhile is newer
        held.listed = [record for record in records if record.purpose == self.LISTED]
        return held

    async def get(self, key: tuple[str, int], purpose: str, load) -> Any:
        """The live record of ``purpose`` for table ``key`` (None: none); ``load()`` (all the table's remembered
        records, oldest first) is awaited only when the table is not held."""
        return (await self._load(key, load)).live.get(purpose)

    async def listed(self, key: tuple[str, int], load) -> list[Any]:
        """Every ``decisions`` record of table ``key``, oldest first (``load`` as for :meth:`get`)."""
        return list((await self._load(key, load)).listed or ())

    def set(self, key: tuple[str, int], purpose: str, record: Any) -> None:
        """``record`` is now the live message of ``purpose`` for table ``key``."""
        held = self._hold(key)
        held.live[purpose] = record
        if purpose == self.LISTED and held.listed is not None:
            held.listed.append(record)


class Publisher:
    """Posts and edits a match's messages for ``bot`` (which has ``service``, ``board_options`` and the discord.py
    client methods ``get_channel``/``fetch_channel``/``get_partial_messageable``)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.index = LiveIndex()
        self._locks = TableLocks()  # kept while in use
        self._newest: dict[tuple[str, int], int] = {}  # kept while a publication of the table waits or runs
        self._dm_told: set[int] = set()

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

    async def _record(self, match_id: int, purpose: str):
        return await self._live((TableType.MATCH, match_id), purpose)

    async def _remember(self, match_id: int, channel_id: int, message_id: int, *, purpose: str,
                        game_number: int | None = None):  # fmt: skip
        record = await self.service.remember_message(match_id, channel_id, message_id, game_number=game_number,
                                                     purpose=purpose)  # fmt: skip
        self.index.set((TableType.MATCH, match_id), purpose, record)
        return record

    async def home(self, match_id: int):
        """The channel or thread where match ``match_id`` is played, or None (none yet, or it is gone)."""
        record = await self._record(match_id, Purpose.HOME)
        return await self.channel(record.channel_id) if record is not None else None

    async def here(self, channel_id: int | None, *, open_only: bool = True) -> int | None:
        """The match whose thread ``channel_id`` is, or None. With ``open_only`` (game actions) only a match still
        challenged or being played: in a finished match's thread an action resolves to the member's open challenge
        or game instead (the looking commands — board, rules, verify, export — pass False: the thread's match)."""
        if not channel_id:
            return None
        match_id = await self.service.match_of_message(channel_id, channel_id)
        if match_id is None or not open_only:
            return match_id
        return match_id if await self.service.match_status(match_id) in OPEN else None

    # -- the challenge ------------------------------------------------------------------------------------------------
    async def challenge_channel(self, guild_id: int, origin):
        """Where a challenge of the club ``guild_id`` made in ``origin`` is posted: the club's game channel if set
        and reachable, else ``origin``."""
        settings = await self.service.club_settings(guild_id)
        channel = await self.channel(settings.game_channel) if settings.game_channel else None
        return channel or origin

    @staticmethod
    def check_challenge_channel(channel) -> None:
        """Raise :class:`cogs.platform.MissingBotPermissions` unless the bot may post a challenge in ``channel`` and
        open its game's thread there (in a thread: post in it)."""
        needs = (POST,) if isinstance(channel, discord.Thread) else (POST, THREADS)
        require_permissions(channel, *needs)

    async def post_challenge(
        self, outcome: Outcome, *, channel, content: str | None = None, nonce: str | None = None
    ) -> discord.Message:
        """Post the challenge (Accept / Decline / Withdraw) in ``channel`` (see :meth:`challenge_channel`);
        ``content`` in place of the line that mentions the challenged member (an event's pairing mentions both);
        ``nonce``: the post's (Discord returns the first message of a nonce instead of a second)."""
        board = await board_message(self.service, outcome.view, outcome.message, options=self.bot.board_options)
        kwargs = board.send_kwargs()
        if content is not None:
            kwargs["content"] = content[:2000]
        if nonce is not None:
            kwargs["nonce"] = nonce
        message = await channel.send(**kwargs)
        await self._remember(outcome.match_id, channel.id, message.id, purpose=Purpose.CHALLENGE)
        return message

    async def post_practice(self, outcome: Outcome, *, channel, text: str) -> discord.Message:
        """Post ``text``, the start of a practice game against the engine (:mod:`club.practice`), in ``channel`` and
        remember it as the game's first message (its thread opens from it, as a challenge's does)."""
        message = await channel.send(content=text[:2000], allowed_mentions=MENTIONS)
        await self._remember(outcome.match_id, channel.id, message.id, purpose=Purpose.CHALLENGE)
        return message

    async def _close_challenge(self, view: TableView, text: str) -> None:
        record = await self._record(view.match_id, Purpose.CHALLENGE)
        channel = await self.channel(record.channel_id) if record is not None else None
        if channel is None:
            return
        embed = discord.Embed(title=title(view)[:256], description=text[:4000] or view.status,
                              colour=COLOURS.get(view.status, discord.Colour.blurple()))  # fmt: skip
        embed.add_field(name="Rules", value=view.rules_text[:1024] or "-", inline=False)
        try:
            await edit_message(channel, record.message_id, lambda: {
                "content": "", "embed": embed, "attachments": [], "view": None, "allowed_mentions": MENTIONS})  # fmt: skip
        except discord.HTTPException as error:
            log.info("could not close the challenge message of match %s: %s", view.match_id, error)

    async def open_home(self, view: TableView, *, fallback=None):
        """Open the game's home: at its first game a thread from the challenge message (named after the match); when
        the home it had is gone, a fresh thread from a new message in the challenge's channel, else ``fallback``
        (the channel where the member acted). Where no thread can be made, the game lives in that channel. Returns
        it (None when there is nowhere to post)."""
        record = await self._record(view.match_id, Purpose.CHALLENGE)
        channel = await self.channel(record.channel_id) if record is not None else None
        had_home = await self._record(view.match_id, Purpose.HOME) is not None
        candidates = [c for c in (channel, fallback) if c is not None]
        candidates = [c for c in candidates if not missing_permissions(c, POST)] or candidates[:1]
        if not candidates:
            return None
        base = candidates[0]
        message_id = record.message_id if record is not None and base is channel else None
        if had_home or message_id is None:  # a fresh start: say where the game went on
            notice = await base.send(content=f"{title(view)} continues here (its thread was gone)."[:2000],
                                     allowed_mentions=MENTIONS)  # fmt: skip
            message_id = notice.id
        home = base
        if isinstance(base, discord.TextChannel) and not missing_permissions(base, THREADS):
            try:
                home = await base.get_partial_message(message_id).create_thread(
                    name=shorten(title(view), 100), auto_archive_duration=THREAD_ARCHIVE_MINUTES
                )
                message_id = home.id
            except discord.HTTPException as error:
                log.warning("no thread for match %s in channel %s (%s): playing in the channel", view.match_id,
                            base.id, error)  # fmt: skip
        await self._remember(view.match_id, home.id, message_id, purpose=Purpose.HOME)
        return home

    # -- one post-or-edit rule for every table (the hook: ``edit``) ---------------------------------------------------
    def _store(self, kind: str):
        return self.service if kind == TableType.MATCH else self.bot.chouettes

    def _loader(self, key: tuple[str, int]):
        kind, table_id = key
        return lambda: self._store(kind).messages(table_id)

    async def _live(self, key: tuple[str, int], purpose: str):
        return await self.index.get(key, purpose, self._loader(key))

    async def _keep(self, key: tuple[str, int], channel_id: int, message_id: int, purpose: str, game_number):
        kind, table_id = key
        if purpose == Purpose.BOARD:  # stored with the table's next commit: one write transaction per action
            record = self._store(kind).board_posted(table_id, channel_id, message_id, game_number=game_number)
            self.index.set(key, purpose, record)
            return record
        record = await self._store(kind).remember_message(table_id, channel_id, message_id, purpose=purpose,
                                                           game_number=game_number)  # fmt: skip
        self.index.set(key, purpose, record)
        return record

    async def post_or_edit(
        self, key: tuple[str, int], channel, message, *, edit: bool, game_number: int | None, version: int = 0
    ):
        """Show ``message`` (a :class:`cogs.present.BoardMessage` or :class:`cogs.chouette_present.ChouetteMessage`)
        for table ``key`` (``("match", id)`` or ``("chouette", id)``) in ``channel``: the live board edited in place
        when the table's hook says so (``edit``) and it is in this channel and game, else a new message (the old one
        loses its buttons). Rows beyond five go to overflow messages after it. A deleted board is posted again.

        One table's boards are published one at a time, in order; an edit of ``version`` when a newer version of the
        same table is already waiting is skipped (a burst of edits — a rate-limited one holding the others back —
        becomes one edit, the newest; posts, which mention someone, are never skipped)."""
        self._newest[key] = max(self._newest.get(key, 0), version)
        try:
            async with self._locks(key):
                return await self._post_or_edit(key, channel, message, edit=edit, game_number=game_number,
                                                version=version)  # fmt: skip
        finally:
            if self._newest.get(key) == version and not self._locks(key).locked():  # nothing newer waits
                del self._newest[key]

    async def _post_or_edit(self, key, channel, message, *, edit: bool, game_number, version: int):
        previous = await self._live(key, Purpose.BOARD)
        posted = None
        live = previous is not None and previous.channel_id == channel.id and previous.game_number == game_number
        if edit and live and version < self._newest[key]:
            return channel.get_partial_message(previous.message_id)  # coalesced: the newer board follows at once
        if edit and live:
            posted = await edit_message(channel, previous.message_id, message.edit_kwargs)  # None when it is gone
            if posted is not None:
                await self._overflow(key, channel, message, previous, game_number)
        if posted is None:
            posted = await channel.send(**message.send_kwargs())
            record = await self._keep(key, channel.id, posted.id, Purpose.BOARD, game_number)
            if previous is not None:
                await self._strip(previous)
                for extra in await self._extras(key, previous):
                    await self._strip(extra)
            await self._overflow(key, channel, message, record, game_number)
        return posted

    async def _extras(self, key: tuple[str, int], board) -> list:
        """The overflow messages of the board message ``board`` (remembered after it)."""
        return [r for r in await self.index.listed(key, self._loader(key)) if r.message_id > board.message_id]

    async def _overflow(self, key: tuple[str, int], channel, message, board, game_number) -> None:
        """More than five rows: the others in messages after the board (edited in place when they exist)."""
        views = list(getattr(message, "overflow", ()) or ())
        records = await self._extras(key, board) if views or key[0] == TableType.CHOUETTE else []
        for index, components in enumerate(views):
            if index < len(records):
                edited = await edit_message(channel, records[index].message_id, partial(dict, view=components))
                if edited is not None:
                    continue
            extra = await channel.send(content="More decisions:", view=components, allowed_mentions=MENTIONS)
            await self._keep(key, channel.id, extra.id, Purpose.DECISIONS, game_number)
        for record in records[len(views) :]:
            await self._strip(record)

    # -- boards ---------------------------------------------------------------------------------------------------------
    async def publish(self, outcome: Outcome, *, actor: int | None, fallback=None) -> discord.Message | None:
        """Show ``outcome`` (``actor`` did it; None = the club, at a time limit): close the challenge message when
        it was answered, then post or edit the board in the game's home (a fresh home when it is gone, see
        :meth:`open_home`; ``fallback`` is where the member acted) and notify by direct message. Returns the board
        message (None when there is no game to show or nowhere to show it)."""
        view = outcome.view
        answers = (TableAction.ACCEPT, TableAction.DECLINE, TableAction.CANCEL, TableAction.LAPSE)
        answered = any(event.kind in answers for event in outcome.events)
        first_line = outcome.message.splitlines()[0] if outcome.message else ""
        if view.game is None:
            if answered:
                await self._close_challenge(view, first_line)
            await self.notify(outcome, actor, None)
            return None
        home = await self.home(view.match_id) or await self.open_home(view, fallback=fallback)
        if answered:
            await self._close_challenge(view, first_line + (f" The game is played in <#{home.id}>." if home else ""))
        if home is None:
            log.warning("match %s has no channel to post its board in", view.match_id)
            return None
        for final in await finished_games(self.service, outcome):  # each game's last position, with its result
            shown = await board_message(self.service, final, options=self.bot.board_options, buttons=False)
            await home.send(**shown.send_kwargs())
        board = await board_message(self.service, view, outcome.message, options=self.bot.board_options)
        same_member = actor is not None and actor == view.waiting_for  # the 1-on-1's hook: he acts again
        message = await self.post_or_edit((TableType.MATCH, view.match_id), home, board, edit=same_member,
                                          game_number=view.game_number, version=view.version)  # fmt: skip
        await self.notify(outcome, actor, message, home=home)
        if view.engine_to_act:  # a practice game: the engine's turn (cogs.study plays it, in its worker pool)
            self.bot.dispatch("practice_turn", view)
        if any(event.kind in (TableEvent.MATCH_OVER, TableEvent.SESSION_OVER) for event in outcome.events):
            self.bot.dispatch("match_finished", view)  # listeners (the review, cogs.study) run as their own tasks
        return message

    async def _strip(self, record) -> None:
        """Take the buttons off a remembered message (errors logged: it may be gone)."""
        channel = await self.channel(record.channel_id)
        if channel is None:
            return
        try:
            await edit_message(channel, record.message_id, lambda: {"view": None})
        except discord.HTTPException as error:
            log.debug("could not remove the buttons of message %s: %s", record.message_id, error)

    # -- direct messages ------------------------------------------------------------------------------------------------
    async def _dm_channel(self, member_id: int) -> int | None:
        """The member's DM channel id: remembered, else opened once (``POST /users/@me/channels``) and remembered;
        0 when he accepts no direct messages."""
        channel_id = await self.service.dm_channel(member_id)
        if channel_id is None:
            data = await self.bot.http.start_private_message(member_id)
            channel_id = await self.service.remember_dm_channel(member_id, int(data["id"]))
        return channel_id

    async def direct_message(self, member_id: int, text: str, *, home=None, wanted: bool | None = None) -> bool:
        """Send ``text`` to ``member_id`` privately if he asked for it (``/bg notify on``; ``wanted``: whether he
        did, when the caller knows; None: his preferences are read); True if sent. When he accepts no direct
        messages (50007), that is remembered and said once in ``home`` (he is mentioned there); they are tried again
        after :data:`club.service.DM_RETRY_SECONDS`, or at once when he turns them on again."""
        try:
            if not (wanted if wanted is not None else (await self.service.preferences(member_id)).notify):
                return False
        except ClubError:
            return False
        try:
            channel_id = await self._dm_channel(member_id)
            if not channel_id:
                return False
            await self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private).send(text[:2000])
        except discord.HTTPException as error:
            if error_code(error) == CANNOT_DM:
                await self.service.remember_dm_channel(member_id, 0)
                await self._say_no_dm(member_id, home)
            log.info("no direct message to %s: %s", member_id, error)
            return False
        return True

    def dms_wanted(self, member_id: int) -> None:
        """``member_id`` asked for direct messages again (``/bg notify on``): if they are still refused, say so
        again (once)."""
        self._dm_told.discard(member_id)

    async def _say_no_dm(self, member_id: int, home) -> None:
        if home is None or member_id in self._dm_told:
            return
        self._dm_told.add(member_id)
        text = (f"{mention(member_id)} I cannot send you direct messages (your privacy settings for this server "
                "refuse them), so I will mention you here when it is your turn.")  # fmt: skip
        try:
            await home.send(content=text, allowed_mentions=MENTIONS)
        except discord.HTTPException as error:
            log.info("could not say that %s takes no direct messages: %s", member_id, error)

    async def notify(self, outcome: Outcome, actor: int | None, message: discord.Message | None, *, home=None) -> None:
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
            wanted = None if outcome.direct is None else member in outcome.direct
            await self.direct_message(member, text, home=home, wanted=wanted)

    async def post_notice(self, notice, *, nonce: str | None = None) -> None:
        """Post a time-limit notice (:class:`club.clocks.Notice`) where its table is shown: a chouette's in its
        channel (:meth:`post_chouette_notice`); a match's in the game's home, mentioning whom it concerns, then the
        board if the club acted (a forfeit, a lapse); direct messages to who asked for them. ``nonce``: the post's
        (:attr:`club.notices.Pending.nonce`: Discord returns the first message of a nonce instead of a second)."""
        if getattr(notice, "table", TableType.MATCH) == TableType.CHOUETTE:
            await self.post_chouette_notice(notice, nonce=nonce)
            return
        channel = await self.home(notice.table_id)
        if channel is None:
            record = await self._record(notice.table_id, Purpose.CHALLENGE)
            channel = await self.channel(record.channel_id) if record is not None else None
        await self._send_notice(channel, notice, nonce)
        if notice.outcome is not None:
            await self.publish(notice.outcome, actor=None)
        else:
            for member in notice.ping:
                await self.direct_message(member, notice.text, home=channel)

    # -- chouettes: the same rule, the chouette's hook ---------------------------------------------------------------
    async def publish_chouette(self, outcome) -> discord.Message | None:
        """Show ``outcome`` in the session's channel: a new board message when someone new must decide (it
        mentions exactly them), else the board message edited in place; then the "no cube, no talk" thread."""
        view = outcome.view
        channel = await self.channel(view.channel_id)
        if channel is None:
            log.warning("chouette %s has no channel to post in", view.session_id)
            return None
        if outcome.finished and view.sheet.rows:
            await self._post_sheet(channel, view)
        message = await chouette_message(self.bot, view, outcome.message, ping=outcome.ping)
        edit = not outcome.ping and not outcome.finished  # the chouette's hook: nobody new must decide
        posted = await self.post_or_edit((TableType.CHOUETTE, view.session_id), channel, message, edit=edit,
                                         game_number=view.game_number, version=view.version)  # fmt: skip
        if view.no_talk:
            await self.sync_thread(view, channel)
        return posted

    async def _post_sheet(self, channel, view) -> None:
        """The score-sheet image after a game (RULES C11), before the next game's board."""
        png = await sheet_png_async(view, self.bot.board_options)
        totals = ", ".join(f"{view.name(m)} {t:+d}" for m, t in view.sheet.totals.items())
        await channel.send(
            content=f"Score sheet after game {view.sheet.rows[-1].game}: {totals}."[:2000],
            file=discord.File(io.BytesIO(png), filename=f"sheet-{view.session_id}-{view.sheet.rows[-1].game}.png"),
            allowed_mentions=MENTIONS,
        )

    async def sync_thread(self, view, channel) -> None:
        """ "No cube, no talk": the game's private thread holds Box and the members whose cube is in the game —
        opened at the game's start, members removed as their cubes leave play. Errors are logged, never raised."""
        if not view.board_live:
            return
        threads = [r for r in await self.bot.chouettes.messages(view.session_id, purpose=Purpose.THREAD)
                   if r.game_number == view.game_number]  # fmt: skip
        try:
            if threads:
                thread = await self.channel(threads[-1].channel_id)
            else:
                thread = await channel.create_thread(
                    name=f"Chouette #{view.session_id} game {view.game_number}: no cube, no talk",
                    type=discord.ChannelType.private_thread,
                    invitable=False,
                )
                await self.bot.chouettes.remember_message(view.session_id, thread.id, thread.id, purpose=Purpose.THREAD,
                                                      game_number=view.game_number)  # fmt: skip
                for member in view.in_game:
                    await thread.add_user(discord.Object(id=member))
            if thread is None:
                return
            for member in view.order:
                if member not in view.in_game:
                    await thread.remove_user(discord.Object(id=member))
        except discord.HTTPException as error:
            log.info("no-talk thread of chouette %s: %s", view.session_id, error)

    async def post_chouette_notice(self, notice, *, nonce: str | None = None) -> None:
        """Post a chouette time-limit notice (:class:`club.clocks.Notice`) in the session's channel, mentioning
        whom it concerns, under the post's ``nonce`` (as for :meth:`post_notice`), then the new board when the club
        acted; direct messages to who asked for them."""
        channel_id = await self.bot.chouettes.channel_of(notice.table_id)
        await self._send_notice(await self.channel(channel_id) if channel_id is not None else None, notice, nonce)
        if notice.outcome is not None:
            await self.publish_chouette(notice.outcome)
        for member in notice.ping:
            await self.direct_message(member, notice.text)

    async def _send_notice(self, channel, notice, nonce: str | None) -> None:
        """The notice's own message in ``channel`` (None: logged, nowhere to post it), mentioning whom it concerns,
        with its claim buttons, under ``nonce`` (Discord returns the first message of a nonce instead of a second):
        what makes a notice posted at least once shown once, for matches and chouettes alike."""
        if channel is None:
            log.warning("notice for %s %s with nowhere to post it: %s", notice.table, notice.table_id, notice.text)
            return
        mentions = " ".join(mention(member) for member in notice.ping)
        extra = {"view": view} if (view := claim_view(notice)) is not None else {}
        await channel.send(content=f"{mentions} {notice.text}"[:2000], allowed_mentions=MENTIONS, nonce=nonce,
                           **extra)  # fmt: skip
