"""The ``/bg`` command group. Each command parses its options, makes one club call and replies (DESIGN "cogs");
the shared work is in :mod:`cogs.flow` (game actions), :mod:`cogs.present` (messages) and :mod:`cogs.errors`."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from backgammon.errors import BackgammonError
from backgammon.game import Action
from backgammon.rules import PRESETS
from club import EXPIRY_POLICIES, frontend
from club.correspondence import games_extras
from club.export import export_mat
from club.table import TableAction

from . import flow
from .buttons import CLAIMS, Key, MatchButton, TableMenu, on_press
from .components import LuckModal
from .errors import guarded, is_club_admin, report
from .host import ClubBot, Interaction, guild_of
from .player import claim
from .present import board_message

GameOption = app_commands.Range[int, 1, 2**53 - 1]
PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESETS]
LEVEL_CHOICES = [app_commands.Choice(name=name, value=name) for name in frontend.RESIGN_LEVELS]
LENGTHS = ("money", "1", "3", "5", "7", "9", "11", "13", "15", "17", "19", "21", "25")
HOUR = 3600.0
GAME_HELP = "Match number, if you have several"


async def game_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
    """The member's open games, those waiting for him first (at most 25), filtered by what he typed."""
    try:
        choices = await frontend.game_choices(
            interaction.client.service, interaction.user.id, interaction.guild_id, current
        )
    except BackgammonError:
        return []
    return [app_commands.Choice(name=label, value=match_id) for label, match_id in choices]


async def length_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Match lengths (and ``money``) beginning with what was typed."""
    typed = current.strip().lower()
    names = [length for length in LENGTHS if length.startswith(typed)] or ([typed] if typed.isdigit() else [])
    return [app_commands.Choice(name=f"{n}-point match" if n.isdigit() else "money session", value=n) for n in names]


@app_commands.guild_only()
class Backgammon(commands.GroupCog, group_name="bg", group_description="Backgammon: matches and money games"):
    """The ``/bg`` commands (one extension, thin methods)."""

    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        super().__init__()

    # -- starting ----------------------------------------------------------------------------------------------------
    @app_commands.command(description="Challenge a member to a match or a money session")
    @app_commands.describe(
        opponent="Who you challenge",
        length="Points to play to, or money (the default)",
        rules="Rule set (default: the club's)",
        stake="Money sessions: stake per point",
    )
    @app_commands.choices(rules=PRESET_CHOICES)
    @app_commands.autocomplete(length=length_autocomplete)
    async def challenge(
        self,
        interaction: Interaction,
        opponent: discord.Member,
        length: str | None = None,
        rules: str | None = None,
        stake: app_commands.Range[int, 0, 1_000_000_000] | None = None,
    ) -> None:
        await flow.challenge(interaction, opponent, length=length, rules=rules, stake=stake)

    @app_commands.command(description="Accept the challenge or the resignation offered to you")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=game_autocomplete)
    async def accept(self, interaction: Interaction, game: GameOption | None = None) -> None:
        await flow.command_action(interaction, TableAction.ACCEPT, game=game)

    @app_commands.command(description="Decline the challenge or resignation offered to you (or withdraw yours)")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=game_autocomplete)
    async def decline(self, interaction: Interaction, game: GameOption | None = None) -> None:
        await flow.command_action(interaction, TableAction.DECLINE, game=game)

    # -- playing ---------------------------------------------------------------------------------------------------------
    @app_commands.command(description="Roll the dice")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=game_autocomplete)
    async def roll(self, interaction: Interaction, game: GameOption | None = None) -> None:
        await flow.command_action(interaction, Action.ROLL, game=game)

    @app_commands.command(description="Play your dice, e.g. 13/7 8/7 or bar/22* 6/off")
    @app_commands.describe(play="Your play, e.g. 13/7 8/7 (legal plays are suggested)", game=GAME_HELP)
    @app_commands.autocomplete(game=game_autocomplete)
    async def move(self, interaction: Interaction, play: str, game: GameOption | None = None) -> None:
        await flow.command_action(interaction, Action.PLAY, game=game, value=play)

    @move.autocomplete("play")
    async def play_autocomplete(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The legal plays of the member's dice that match what he has typed (at most 25)."""
        service = self.bot.service
        try:
            game = getattr(interaction.namespace, "game", None)
            match_id = await frontend.resolve_match(
                service, interaction.user.id, guild_id=interaction.guild_id, given=game, thread=interaction.channel_id
            )
            plays = await service.legal_plays(match_id, interaction.user.id)
        except BackgammonError:
            return []
        return [app_commands.Choice(name=play, value=play) for play in frontend.filter_plays(plays, current)]

    @app_commands.command(description="Offer a double (before rolling)")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=game_autocomplete)
    async def double(self, interaction: Interaction, game: GameOption | None = None) -> None:
        await flow.command_action(interaction, Action.DOUBLE, game=game)

    @app_commands.command(description="Take the double offered to you")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=game_autocomplete)
    async def take(self, interaction: Interaction, game: GameOption | None = None) -> None:
        await flow.command_action(interaction, Action.TAKE, game=game)

    @app_commands.command(description="Drop the double offered to you (you lose at the current cube)")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=game_autocomplete)
    async def drop(self, interaction: Interaction, game: GameOption | None = None) -> None:
        await flow.command_action(interaction, Action.DROP, game=game)

    @app_commands.command(description="Beaver: take the double and redouble at once (money play)")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=game_autocomplete)
    async def beaver(self, interaction: Interaction, game: GameOption | None = None) -> None:
        await flow.command_action(interaction, Action.BEAVER, game=game)

    @app_commands.command(description="Raccoon: redouble the beaver (money play)")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=game_autocomplete)
    async def raccoon(self, interaction: Interaction, game: GameOption | None = None) -> None:
        await flow.command_action(interaction, Action.RACCOON, game=game)

    @app_commands.command(description="Offer to resign a single game, a gammon or a backgammon")
    @app_commands.describe(level="What you concede (default: single)", game=GAME_HELP)
    @app_commands.choices(level=LEVEL_CHOICES)
    @app_commands.autocomplete(game=game_autocomplete)
    async def resign(self, interaction: Interaction, level: str = "single", game: GameOption | None = None):
        await flow.command_action(interaction, Action.RESIGN, game=game, value=frontend.resign_level(level))

    @app_commands.command(description="Money session: end it when the current game ends")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=game_autocomplete)
    async def stop(self, interaction: Interaction, game: GameOption | None = None) -> None:
        await flow.command_action(interaction, TableAction.STOP, game=game)

    # -- looking ---------------------------------------------------------------------------------------------------------
    @app_commands.command(description="Show a board from your side (only you see it)")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=game_autocomplete)
    async def board(self, interaction: Interaction, game: GameOption | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/bg board", game=game):
            member = await flow.register(interaction)
            view = await self.bot.service.state(await self._match(interaction, member, game))
            message = await board_message(
                self.bot.service, view, options=self.bot.board_options, viewer=member,
                buttons=view.waiting_for == member,
            )  # fmt: skip
            await interaction.followup.send(**message.send_kwargs(ephemeral=True))

    @app_commands.command(description="Your games: those waiting for you, and the others")
    async def games(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/bg games"):
            member = await flow.register(interaction)
            service = self.bot.service
            waiting, others = await frontend.open_games(service, member, interaction.guild_id)
            listed = [item.match_id for item in waiting] + [item.match_id for item in others]
            links = await flow.board_links(self.bot, interaction.guild_id)(listed)
            ids = [item.match_id for item in others]
            due, away = await games_extras(service, member, interaction.guild_id, ids)
            text = frontend.games_text(waiting, others, links=links, due=due, now=service.clock.now(), away=away)
            await interaction.followup.send(text[:2000], ephemeral=True)

    @app_commands.command(description="The rules a match is played under")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=game_autocomplete)
    async def rules(self, interaction: Interaction, game: GameOption | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/bg rules", game=game):
            member = await flow.register(interaction)
            view = await self.bot.service.state(await self._match(interaction, member, game))
            await interaction.followup.send(frontend.rules_text(view)[:2000], ephemeral=True)

    @app_commands.command(description="The dice proof of a game (commitment; the seed once it is over)")
    @app_commands.describe(game=GAME_HELP, number="Game of the match (default: the current one)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def verify(
        self,
        interaction: Interaction,
        game: GameOption | None = None,
        number: app_commands.Range[int, 1, 10_000] | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/bg verify", game=game):
            member = await flow.register(interaction)
            proof = await frontend.dice_proof(self.bot.service, await self._match(interaction, member, game), number)
            if proof.published.strip():  # the published values as a file for tools/verify_dice.py
                name = f"dice-{proof.match_id}-game-{proof.game_number}.txt"
                file = discord.File(io.BytesIO(proof.published.encode("utf-8")), filename=name)
                await interaction.followup.send(proof.text[:2000], file=file, ephemeral=True)
            else:
                await interaction.followup.send(proof.text[:2000], ephemeral=True)

    @app_commands.command(description="The match as a .mat file (for GNU Backgammon)")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.autocomplete(game=game_autocomplete)
    async def export(self, interaction: Interaction, game: GameOption | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/bg export", game=game):
            member = await flow.register(interaction)
            name, text = await export_mat(self.bot.service, await self._match(interaction, member, game))
            file = discord.File(io.BytesIO(text.encode("utf-8")), filename=name)
            await interaction.followup.send(f"Match file: {name}", file=file, ephemeral=True)

    # -- settings ----------------------------------------------------------------------------------------------------------
    @app_commands.command(description="Direct messages when it is your turn: on or off")
    @app_commands.describe(state="on or off")
    @app_commands.choices(
        state=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
    )
    async def notify(self, interaction: Interaction, state: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/bg notify"):
            member = await flow.register(interaction)
            preferences = await self.bot.service.set_preferences(member, notify=state == "on")
            if preferences.notify:
                self.bot.publisher.dms_wanted(member)
            text = (
                "I will send you a direct message when it is your turn."
                if preferences.notify
                else ("No more direct messages; the board still mentions you when it is your turn.")
            )
            await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(description="Club settings (admins): rule sets, time limits, reminders, expiry, channel")
    @app_commands.describe(
        match_rules="Default rule set for matches",
        money_rules="Default rule set for money sessions",
        move_hours="Hours for each action",
        challenge_hours="Hours to answer a challenge",
        reminders="Hours before a deadline to remind, e.g. 24,4 (or none)",
        expiry="What happens at the deadline",
        channel="Channel where games get their threads",
        clear_channel="Play games where they are challenged",
        max_stake="Largest stake per point",
        away_days="Away days per member a year",
        nudge_hours="Hours of waiting before a nudge",
    )
    @app_commands.choices(
        match_rules=PRESET_CHOICES,
        money_rules=PRESET_CHOICES,
        expiry=[app_commands.Choice(name=policy.replace("_", " "), value=policy) for policy in EXPIRY_POLICIES],
    )
    @app_commands.check(is_club_admin)
    async def config(
        self,
        interaction: Interaction,
        match_rules: str | None = None,
        money_rules: str | None = None,
        move_hours: app_commands.Range[float, 0.02, 8760.0] | None = None,
        challenge_hours: app_commands.Range[float, 0.02, 8760.0] | None = None,
        reminders: str | None = None,
        expiry: str | None = None,
        channel: discord.TextChannel | None = None,
        clear_channel: bool = False,
        max_stake: app_commands.Range[int, 0, 1_000_000_000] | None = None,
        away_days: app_commands.Range[int, 0, 366] | None = None,
        nudge_hours: app_commands.Range[float, 1.0, 720.0] | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/bg config"):
            changes = {
                "match_rules": match_rules,
                "money_rules": money_rules,
                "move_time": None if move_hours is None else move_hours * HOUR,
                "challenge_time": None if challenge_hours is None else challenge_hours * HOUR,
                "reminders": None if reminders is None else _hours_list(reminders),
                "expiry_policy": expiry,
                "game_channel": 0 if clear_channel else (channel.id if channel is not None else None),
                "max_stake": max_stake,
                "away_days": away_days,
                "nudge_hours": nudge_hours,
            }
            settings = await self.bot.service.configure_club(guild_of(interaction), **changes)
            changed = any(value is not None for value in changes.values())
            await interaction.followup.send(settings_text(settings, changed), ephemeral=True)

    async def cog_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError):
        """Check failures and option errors of every ``/bg`` command end up here (see :mod:`cogs.errors`)."""
        command = getattr(interaction.command, "qualified_name", None) or "bg"
        await report(interaction, error, context={"what": f"/{command}"})

    async def _match(self, interaction: Interaction, member: int, game: int | None) -> int:
        return await frontend.resolve_match(
            self.bot.service, member, guild_id=interaction.guild_id, given=game, thread=interaction.channel_id,
            open_only=False,
            links=flow.board_links(self.bot, interaction.guild_id),
        )  # fmt: skip


@on_press("m")
async def press(interaction: Interaction, key: Key, values: list[str], item) -> None:
    """A 1-on-1's button or menu (kind ``m`` of :mod:`cogs.buttons`): the one game action
    (:func:`cogs.flow.component_action`), a menu's chosen play; the claim buttons of a deadline notice
    (:func:`cogs.player.claim`, staleness by the deadline's version), *Rematch* (:func:`cogs.flow.rematch`: no
    staleness, stamp 0 — it stands while the match is over) and *Add your luck* (:class:`cogs.components.LuckModal`)."""
    if key.action in CLAIMS:  # Give 24 h more carries its deadline's due time
        await claim(interaction, key.table_id, int(key.stamp), key.action, due=int(key.args[0]) if key.args else None)
    elif key.action == MatchButton.REMATCH:
        await flow.rematch(interaction, key.table_id)
    elif key.action == MatchButton.LUCK:
        await interaction.response.send_modal(LuckModal(key.table_id))
    elif isinstance(item, TableMenu):
        play = values[0] if values else None
        await flow.component_action(interaction, key.table_id, int(key.stamp), Action.PLAY, play)
    else:
        await flow.component_action(interaction, key.table_id, int(key.stamp), key.action)


def _hours_list(text: str) -> list[float]:
    from club.errors import InvalidRequestError

    if text.strip().lower() in ("none", "no", "off", "-", "0"):
        return []
    try:
        return [float(part) * HOUR for part in text.replace(";", ",").split(",") if part.strip()]
    except ValueError:
        raise InvalidRequestError(f"reminders are hours before the deadline, like 24,4 — not {text!r}") from None


def settings_text(settings, changed: bool) -> str:
    """The club settings in words."""
    hours = [f"{value / HOUR:g} h" for value in settings.reminders] or ["none"]
    lines = [
        "Club settings updated:" if changed else "Club settings:",
        f"• rule sets: matches {settings.match_rules}, money sessions {settings.money_rules}",
        f"• time per action: {settings.move_time / HOUR:g} h; to answer a challenge: {settings.challenge_time / HOUR:g} h",
        f"• reminders before the deadline: {', '.join(hours)}",
        f"• at the deadline: {settings.expiry_policy.replace('_', ' ')}",
        f"• games are played in: {f'<#{settings.game_channel}>' if settings.game_channel else 'the channel of the challenge'}",
        f"• largest stake per point: {settings.max_stake}",
        f"• away days per member a year: {settings.away_days}; a nudge after {settings.nudge_hours:g} h of waiting",
    ]
    if settings.rule_overrides:
        lines.append(f"• rule options: {settings.rule_overrides}")
    return "\n".join(lines)


async def setup(bot: ClubBot) -> None:
    """Load the extension."""
    await bot.add_cog(Backgammon(bot))
