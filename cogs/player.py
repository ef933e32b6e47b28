"""``/player``: a member's own correspondence settings and actions, outside the full ``/bg`` group.

Commands (each parses, makes one :class:`club.correspondence.Correspondence` call, posts the notices where the
games are shown and answers privately): ``away days [reason]`` (one notice in each of my games, my clocks paused),
``back`` (ends it early), ``ping [text]`` (a message in each of my games, mentioning my opponents), ``nudge [game]``
(after the club's hours of waiting, at most once per that many hours), ``autoroll on|off [hours]`` (auto-roll when I
may not double; with hours: also roll for me when I do not double within that many hours), ``settle step [member]
[points]`` (a settlement between Team members in my chouette, 003 Atlanta 4.4: offer, accept, decline, preempt).

Buttons (posted with a deadline notice under the club's ``claim`` expiry policy): **Claim the game**, **Claim the
match**, **Give 24 h more** — the one button scheme of :mod:`cogs.buttons`, ``t:m:<match>:<version>:<action>``
(persistent: they work after a restart, the ``bgc:`` ones of before too; a button of an older deadline is refused as
stale). Only the waiting opponent may press them (:func:`claim`).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from club import frontend
from club.chouette.table import SettleStep
from club.clocks import Claim
from club.commitments import phrase_text
from club.correspondence import Correspondence, autoroll_words, away_state_in, pinged_words, resolve_their_turn
from club.describe import shorten
from club.errors import InvalidRequestError
from club.wording import plural

from .buttons import CLAIM_LABELS, TableButton
from .chouette import _publish_and_acknowledge, _session
from .errors import guarded, report, send_private
from .flow import board_links, register, request_of
from .host import ClubBot, Interaction, guild_of


def correspondence(bot: ClubBot) -> Correspondence:
    """The bot's correspondence use-cases (matches, and chouettes when loaded)."""
    return Correspondence(bot.service, bot.chouettes)


async def post_notices(bot, notices) -> None:
    """Post each notice where its table is shown (a match's thread, a chouette's channel)."""
    for notice in notices:
        await bot.publisher.post_notice(notice)


async def claim(interaction: Interaction, match_id: int, version: int, action: str, *, due: int | None = None) -> None:
    """The claim buttons of a deadline notice (``claim_game``, ``claim_match``: the late member forfeits, RULES M5;
    ``more_time``: give him 24 hours more, once) for the deadline set at ``version`` of match ``match_id`` (and
    due at ``due``, whole Unix s, when the button says); answered privately. Only the waiting opponent may press
    them; a button of an older deadline is refused as stale and changes nothing."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    async with guarded(interaction, "claim"):
        bot = interaction.client
        member = await register(interaction)
        await frontend.resolve_match(bot.service, member, guild_id=interaction.guild_id, given=match_id)
        cases = correspondence(bot)
        if action == Claim.MORE_TIME:
            notices = await cases.more_time(match_id, member, 24.0, version=version, due=due)
            await post_notices(bot, notices)
            await send_private(interaction, notices[0].text)
            return
        outcome = await cases.claim(match_id, member, action, version=version)
        await bot.publisher.publish(outcome, actor=member)
        await send_private(interaction, " ".join(outcome.message.splitlines()[:3]) or "Done.")


def claim_view(notice) -> discord.ui.View | None:
    """The buttons a notice offers (``notice.offer``), or None; Claim the game says what it scores (``notice.terms``:
    "Claim the game: 1 point (single, a single game at the cube)")."""
    if not getattr(notice, "offer", ()):
        return None
    view = discord.ui.View(timeout=None)
    terms = getattr(notice, "terms", None) or {}
    for action in notice.offer:
        label = f"{CLAIM_LABELS[action]}: {terms[action]}" if action == Claim.CLAIM_GAME and action in terms else None
        due = (int(notice.due_at),) if action == Claim.MORE_TIME else ()  # this deadline's, not a later one's
        view.add_item(TableButton.of("m", notice.table_id, notice.version, action, *due,
                                     label=shorten(label, 80) if label else None))  # fmt: skip
    return view


STATE_CHOICES = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
SETTLE_CHOICES = [
    app_commands.Choice(name=step.value, value=step.value)
    for step in (SettleStep.OFFER, SettleStep.ACCEPT, SettleStep.DECLINE, SettleStep.PREEMPT)
]


@app_commands.guild_only()
class Player(commands.GroupCog, group_name="player", group_description="Your games over days: away, ping, nudge"):
    """The ``/player`` commands."""

    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(description="Go away for some days: one notice in each of your games, your clocks paused")
    @app_commands.describe(days="Whole days (from your club's yearly allowance)", reason="Shown in your games")
    async def away(
        self, interaction: Interaction, days: app_commands.Range[int, 1, 366], reason: str | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/player away"):
            member = await register(interaction)
            notices = await correspondence(self.bot).away(guild_of(interaction), member, days, reason or "")
            await post_notices(self.bot, notices)
            state = await away_state_in(self.bot.service, guild_of(interaction), member)
            await send_private(interaction, state.granted(len(notices), "/player back"))

    @app_commands.command(description="Back early: your clocks run again, unused whole days come back")
    async def back(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/player back"):
            member = await register(interaction)
            notices = await correspondence(self.bot).back(guild_of(interaction), member)
            await post_notices(self.bot, notices)
            await send_private(
                interaction, f"Welcome back: {plural(len(notices), 'game')} told, your clocks run again."
            )

    @app_commands.command(description="A message in each of your games, mentioning your opponents")
    @app_commands.describe(text="What to tell them (optional)")
    async def ping(self, interaction: Interaction, text: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/player ping"):
            member = await register(interaction)
            notices = await correspondence(self.bot).ping(guild_of(interaction), member, text or "")
            await post_notices(self.bot, notices)
            await send_private(interaction, pinged_words(len(notices)))

    @app_commands.command(description="Nudge an opponent who has kept you waiting")
    @app_commands.describe(game="Match number, if you have several")
    async def nudge(self, interaction: Interaction, game: app_commands.Range[int, 1, 2**53 - 1] | None = None):
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/player nudge"):
            member = await register(interaction)
            here = await self.bot.publisher.here(interaction.channel_id)
            match_id = await resolve_their_turn(
                self.bot.service, member, guild_id=interaction.guild_id, given=game, here=here,
                links=board_links(self.bot, interaction.guild_id),
            )  # fmt: skip
            notices = await correspondence(self.bot).nudge(match_id, member)
            await post_notices(self.bot, notices)
            await send_private(interaction, "Nudged.")

    @app_commands.command(description="Roll for you when you may not double; with hours, also when you do not")
    @app_commands.describe(state="on or off", hours="Also roll for me when I do not double within this many hours")
    @app_commands.choices(state=STATE_CHOICES)
    async def autoroll(
        self, interaction: Interaction, state: str, hours: app_commands.Range[float, 1, 720] | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/player autoroll"):
            member = await register(interaction)
            after = float(hours) if state == "on" and hours else 0.0
            prefs = await self.bot.service.set_preferences(member, auto_roll=state == "on", roll_after=after)
            text = autoroll_words(prefs)
            await send_private(interaction, text)

    @app_commands.command(description="Money play: take any double up to this cube at once (only you know)")
    @app_commands.describe(upto="The biggest cube you take at once (0: answer yourself)", game="Session number")
    async def autotake(
        self, interaction: Interaction, upto: app_commands.Range[int, 0, 4096], game: int | None = None
    ) -> None:
        """``/player autotake <upto> [game]``: a standing take answer in a money session, private (RULES D2, C9)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/player autotake"):
            member = await register(interaction)
            here = await self.bot.publisher.here(interaction.channel_id)
            match_id = await frontend.resolve_match(self.bot.service, member, guild_id=interaction.guild_id,
                                                    given=game, here=here)  # fmt: skip
            text = await self.bot.service.standing_take(match_id, request_of(interaction, member), upto or None)
            await send_private(interaction, text)

    @app_commands.command(description="Your dice phrase: part of your client seed in every game (empty: clear it)")
    @app_commands.describe(phrase="Any text up to 100 characters; leave out to clear")
    async def seed(self, interaction: Interaction, phrase: app_commands.Range[str, 1, 100] | None = None):
        """``/player seed [phrase]`` (:mod:`club.commitments`)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/player seed"):
            member = await register(interaction)
            prefs = await self.bot.service.set_preferences(member, seed=(phrase or "").strip())
            await send_private(interaction, phrase_text(prefs.seed))

    @app_commands.command(description="Chouette: buy a Team member's interest in the game (003 Atlanta 4.4)")
    @app_commands.describe(
        step="offer (you buy), accept or decline (the member offered), preempt (Box pays them instead)",
        member="For an offer: the Team member whose cube you take over",
        points="For an offer: whole points you pay them (negative: they pay you)",
    )
    @app_commands.choices(step=SETTLE_CHOICES)
    async def settle(
        self,
        interaction: Interaction,
        step: str,
        member: discord.Member | None = None,
        points: app_commands.Range[int, -10_000, 10_000] | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/player settle"):
            me = await register(interaction)
            if step == SettleStep.OFFER and (member is None or points is None):
                raise InvalidRequestError("An offer names the member and the points, e.g. member:@Cy points:1.")
            seller = await register(interaction, member) if step == SettleStep.OFFER else None
            chouettes = self.bot.chouettes
            if chouettes is None:
                raise InvalidRequestError("Chouettes are not played in this club's bot.")
            outcome = await chouettes.team_settle(
                await _session(interaction, me),
                request_of(interaction, me),
                step,
                seller=seller,
                points=points if step == SettleStep.OFFER else None,
            )
            await _publish_and_acknowledge(interaction, outcome)

    async def cog_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError):
        """Check failures and option errors of every ``/player`` command end up here (see :mod:`cogs.errors`)."""
        command = getattr(interaction.command, "qualified_name", None) or "player"
        await report(interaction, error, context={"what": f"/{command}"})


async def setup(bot: ClubBot) -> None:
    """Load the extension: ``/player`` and the claim buttons (persistent)."""
    await bot.add_cog(Player(bot))
