"""``/club``: the club's books in Discord (RULES A3, A4) — score sheets, the ledger, settle-up, leaderboards,
ratings, statistics, exports and the admins' corrections.

A group of its own beside ``/bg``: Discord allows one command (with all its subcommands and options) at most 4000
characters and 25 subcommands, and ``/bg`` with its chouette subgroup is close to both. Each command parses its
options, makes one :class:`club.records.ClubRecords` call and replies — privately unless ``share`` is set (a
correction is always announced in the channel: it is the audit trail). Pictures come from
:mod:`club.records.pictures` (rendered off the event loop), words from :mod:`club.records.texts`, refusals through
:mod:`cogs.errors`. ``/club correct`` is for club admins, with the same check as ``/bg config``.
"""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from backgammon.errors import BackgammonError
from club.errors import InvalidRequestError
from club.records import LEADERBOARDS, ClubRecords, export_books, pictures, texts
from club.records.periods import SessionRef
from club.wording import plural

from .bg import is_club_admin
from .errors import guarded, report
from .flow import register
from .host import ClubBot, Interaction, guild_of

PERIOD_CHOICES = [
    app_commands.Choice(name=name, value=value)
    for name, value in (
        ("this week", "week"),
        ("last week", "last week"),
        ("today", "day"),
        ("this month", "month"),
        ("last month", "last month"),
        ("all time", "all"),
        ("a session", "session"),
    )
]
KIND_CHOICES = [app_commands.Choice(name=kind, value=kind) for kind in LEADERBOARDS]
SESSION_HELP = "money:ID, match:ID or chouette:ID (default: your latest)"
SHARE_HELP = "Post it in the channel for everyone"
MAX_UPLOAD = 8 * 1024 * 1024
"""The largest file the bot uploads (Discord's smallest attachment limit)."""


def records_of(interaction: Interaction) -> ClubRecords:
    """The bot's :class:`ClubRecords` (made by this extension's :func:`setup`)."""
    return interaction.client.records


async def session_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The member's latest sessions (money sessions, matches, chouettes), filtered by what he typed."""
    records = records_of(interaction)
    try:
        found = await records.sessions(guild_of(interaction), member=interaction.user.id, limit=25)
        labels = [(await records.session_label(s), str(SessionRef.of(s))) for s in found]
    except BackgammonError:
        return []
    typed = current.strip().lower()
    return [app_commands.Choice(name=label[:100], value=value) for label, value in labels if typed in label.lower()]


async def _send(
    interaction: Interaction, text: str, png: bytes | None = None, filename: str = "", *, share: bool = False
) -> None:
    """The answer: privately, or (``share``) a private "posted" and then the answer for everyone in the channel —
    the interaction is always deferred privately, so a refusal never shows in the channel."""
    file = discord.utils.MISSING if png is None else discord.File(io.BytesIO(png), filename=filename)
    if share:
        await interaction.followup.send("Posted in the channel.", ephemeral=True)
    await interaction.followup.send(text[:2000], ephemeral=not share, file=file)


async def _picture_answer(interaction: Interaction, what: str, share: bool, fetch, table, words, filename):
    """The shape of the picture commands: defer privately, register the member, one records call
    (``fetch(records, member)``), its picture (``table``) and words, the file named ``filename(result)``."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    async with guarded(interaction, what):
        member = await register(interaction)
        result = await fetch(records_of(interaction), member)
        png = await pictures.png_async(table(result), theme=interaction.client.board_options.theme)
        await _send(interaction, words(result), png, filename(result), share=share)


class RecordCommands(app_commands.Group):
    """The ``/club`` commands (thin: parse → one club call → reply)."""

    def __init__(self) -> None:
        super().__init__(
            name="club", description="The club's books: sheets, ledger, settle-up, ratings", guild_only=True
        )

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Check failures and option errors of every ``/club`` command (see :mod:`cogs.errors`)."""
        command = getattr(interaction.command, "qualified_name", None) or "club"
        await report(interaction, error, context={"what": f"/{command}"})

    @app_commands.command(description="The score sheet of a session")
    @app_commands.describe(session=SESSION_HELP, share=SHARE_HELP)
    @app_commands.autocomplete(session=session_autocomplete)
    async def sheet(self, interaction: Interaction, session: str | None = None, share: bool = False) -> None:
        await _picture_answer(
            interaction, "/club sheet", share,
            lambda records, member: records.sheet(interaction.guild_id, session, member=member),
            pictures.sheet_table, texts.sheet_text, lambda sheet: f"sheet-{sheet.session.source}-{sheet.session.id}.png",
        )  # fmt: skip

    @app_commands.command(description="Who is up: points and money per member")
    @app_commands.describe(period="Default: this week", session=SESSION_HELP, share=SHARE_HELP)
    @app_commands.choices(period=PERIOD_CHOICES)
    @app_commands.autocomplete(session=session_autocomplete)
    async def ledger(
        self, interaction: Interaction, period: str = "week", session: str | None = None, share: bool = False
    ) -> None:
        await _picture_answer(
            interaction, "/club ledger", share,
            lambda records, member: records.ledger(interaction.guild_id, period, session=session, member=member),
            pictures.ledger_table, texts.ledger_text, lambda _: "ledger.png",
        )  # fmt: skip

    @app_commands.command(description="The fewest payments that clear a period")
    @app_commands.describe(period="Default: this week", session=SESSION_HELP, share=SHARE_HELP)
    @app_commands.choices(period=PERIOD_CHOICES)
    @app_commands.autocomplete(session=session_autocomplete)
    async def settle(
        self, interaction: Interaction, period: str = "week", session: str | None = None, share: bool = False
    ) -> None:
        await _picture_answer(
            interaction, "/club settle", share,
            lambda records, member: records.settle(interaction.guild_id, period, session=session, member=member),
            pictures.settlement_table, texts.settlement_text, lambda _: "settle-up.png",
        )  # fmt: skip

    @app_commands.command(description="Leaderboard: money, matches (ratings), chouette or pr (error rate)")
    @app_commands.describe(kind="Default: money", period="Money, chouette, pr (default: all time)", share=SHARE_HELP)
    @app_commands.choices(kind=KIND_CHOICES, period=PERIOD_CHOICES[:-1])
    async def leaderboard(
        self, interaction: Interaction, kind: str = "money", period: str = "all", share: bool = False
    ) -> None:
        await _picture_answer(
            interaction, "/club leaderboard", share,
            lambda records, _member: records.leaderboard(interaction.guild_id, kind, period),
            pictures.leaderboard_table, texts.leaderboard_text, lambda _: f"leaderboard-{kind}.png",
        )  # fmt: skip

    @app_commands.command(description="A member's match rating (FIBS formula)")
    @app_commands.describe(member="Default: you", share=SHARE_HELP)
    async def rating(self, interaction: Interaction, member: discord.Member | None = None, share: bool = False) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/club rating"):
            await register(interaction)
            who = await register(interaction, member) if member is not None else interaction.user.id
            rating, rank, rated = await records_of(interaction).rating(guild_of(interaction), who)
            name = (member or interaction.user).display_name
            await _send(interaction, texts.rating_text(name, rating, rank, rated), share=share)

    @app_commands.command(description="A member's statistics: games, gammons, cubes")
    @app_commands.describe(member="Default: you", share=SHARE_HELP)
    async def stats(self, interaction: Interaction, member: discord.Member | None = None, share: bool = False) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/club stats"):
            await register(interaction)
            who = await register(interaction, member) if member is not None else interaction.user.id
            stats = await records_of(interaction).stats(guild_of(interaction), who)
            text = texts.stats_text(stats)
            events = getattr(interaction.client, "events", None)  # club events (cogs.event), when loaded
            if events is not None:
                text += "\n" + (await events.member_events(interaction.guild_id, who)).text()
            await _send(interaction, text, share=share)

    @app_commands.command(description="The books as a ZIP: ledger and sheet CSVs, .mat files")
    @app_commands.describe(period="Default: this month", session=SESSION_HELP)
    @app_commands.choices(period=PERIOD_CHOICES)
    @app_commands.autocomplete(session=session_autocomplete)
    async def export(self, interaction: Interaction, period: str = "month", session: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/club export", period=period, session=session):
            await register(interaction)
            books = await export_books(records_of(interaction), guild_of(interaction), period, session=session)
            with books.file:  # the streamed ZIP (a spooled temporary file), sent as it is
                if books.size > MAX_UPLOAD:
                    raise InvalidRequestError(
                        f"The export is {books.size / 1e6:.0f} MB, more than Discord takes: export a shorter period."
                    )
                text = f"The club's books: {books.filename} ({len(books.names)} files)."
                if books.left_out:
                    text += f" {plural(books.left_out, 'older match file')} left out: export a shorter period for them."
                # discord.File takes any seekable, readable io.IOBase (it checks that itself); its annotation names
                # only BufferedIOBase, which a spooled temporary file is not
                file = discord.File(books.file, filename=books.filename)  # type: ignore[arg-type]
                await interaction.followup.send(text, file=file, ephemeral=True)

    @app_commands.command(description="Admins: correct the ledger (payer gives payee points/money)")
    @app_commands.describe(
        payer="Who gives", payee="Who receives", reason="Why (kept in the audit trail)", points="Points to move",
        money="Money to move", session="The session it corrects (optional)",
    )  # fmt: skip
    @app_commands.autocomplete(session=session_autocomplete)
    @app_commands.check(is_club_admin)
    async def correct(
        self,
        interaction: Interaction,
        payer: discord.Member,
        payee: discord.Member,
        reason: app_commands.Range[str, 1, 500],
        points: app_commands.Range[int, 0, 1_000_000_000] = 0,
        money: app_commands.Range[int, 0, 1_000_000_000] = 0,
        session: str | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/club correct", payer=payer.id, payee=payee.id):
            admin = await register(interaction)
            giver, taker = await register(interaction, payer), await register(interaction, payee)
            correction = await records_of(interaction).correct(
                guild_of(interaction), admin, giver, taker, points=points, money=money, reason=reason, session=session
            )
            names = {admin: interaction.user.display_name, giver: payer.display_name, taker: payee.display_name}
            await _send(interaction, texts.correction_text(correction, names), share=True)  # the audit trail is public


class Records(commands.Cog):
    """Holds the records use-cases on the bot (``bot.records``) and the ``/club`` group."""

    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        bot.records = ClubRecords(bot.service)
        self.commands = RecordCommands()

    async def cog_unload(self) -> None:
        """Take ``/club`` out of the tree."""
        self.bot.tree.remove_command("club")


async def setup(bot: ClubBot) -> None:
    """Load the extension: the cog and the ``/club`` group."""
    cog = Records(bot)
    await bot.add_cog(cog)
    bot.tree.add_command(cog.commands)
