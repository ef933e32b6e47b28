"""``/bg chouette``: chouettes in a channel, played over days (RULES C1–C11), and each member's own buttons.

Commands (a subgroup of the ``/bg`` group; each parses, makes one :class:`club.chouette.ChouetteService` call and
replies privately): ``start`` (a rule set, stake, times, "no cube, no talk"), ``join``, ``leave``, ``seat`` (the
seat roll), ``status``, ``sheet`` (the score-sheet image), ``proxy @member`` (RULES C9), ``order`` (standing
answers: pass my doubles, take up to N, drop above N, for the game or while away; RULES C9), ``rules`` and ``move``
(a play, with the legal plays suggested). The session of a command is the one running in its channel.

Buttons and menus are the one scheme of :mod:`cogs.buttons` (kind ``c``): the ``custom_id`` carries the session, the
game and board turn they were drawn for (``mark``), the action, the member whose decision it is and the cube —
``t:c:12:3.7:take:<member>:<cube>`` — so they work after a restart (and the old ``ch:``/``chs:`` ones too). A member may press
only his own buttons, or another's as the proxy acting for him (RULES C9: the rules refuse anyone else); each press
is answered privately, and a button from an older turn says "already done" and changes nothing. Time limits: the
one reminder loop (:mod:`cogs.reminders`) fires the chouettes' deadlines too and posts each notice here (pinging
exactly the members who must decide).
"""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from backgammon.chouette import CHOUETTE_PRESETS
from backgammon.errors import BackgammonError
from club import frontend
from club.chouette import ChouetteOutcome, ChouetteService
from club.chouette.images import sheet_png_async
from club.chouette.table import MemberAction, parse_order
from club.errors import InvalidRequestError
from club.proof import chouette_proof
from club.proof import lines as proof_lines
from club.requests import Request
from club.work import Purpose

from .buttons import Key, TableMenu, on_press
from .chouette_present import PanelButton, chouette_message
from .components import LuckModal, luck_words
from .errors import report, send_private
from .flow import register, request_of
from .host import ClubBot, Interaction, guild_of
from .platform import POST, PRIVATE_THREADS, require_permissions

log = logging.getLogger("bgclub.discord")

RULE_CHOICES = [app_commands.Choice(name=name, value=name) for name in CHOUETTE_PRESETS]
STAKE_CHOICES = [app_commands.Choice(name=f"{n}× the base stake", value=n) for n in (1, 2, 4, 8)]


def chouettes_of(interaction: Interaction) -> ChouetteService:
    """The bot's :class:`ChouetteService` (made by this extension's :class:`Chouettes`)."""
    chouettes = interaction.client.chouettes
    if chouettes is None:
        raise InvalidRequestError("Chouettes are not played on this bot now (its chouette extension is not loaded).")
    return chouettes


# -- components: the one scheme of cogs.buttons (the old ch:/chs: ids stay registered there) ------------------
async def press(interaction: Interaction, sid: int, mark: str, member: int, action: str, **options) -> None:
    """A button or menu for ``member``'s decision, pressed by whoever pressed it: the action (his own decision, or
    as the proxy acting for him), answered privately; a refusal says why and changes nothing."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        presser = request_of(interaction, await register(interaction))  # the use-case checks his server
        outcome = await chouettes_of(interaction).act(sid, presser, action, subject=member, mark=mark, **options)
    except Exception as error:
        await report(interaction, error, context={"what": f"chouette button {action}", "chouette": sid})
        return
    await _publish_and_acknowledge(interaction, outcome)


ALIASES: dict[str, str] = {PanelButton.DOUBLE_ALL: MemberAction.DOUBLE, PanelButton.DOUBLE_ORDER: MemberAction.DOUBLE}
"""Box's buttons that double: all the cubes, or in the order of the seats."""


@on_press("c")
async def press_component(interaction: Interaction, key: Key, values: list[str], item) -> None:
    """A chouette's button or menu (kind ``c`` of :mod:`cogs.buttons`): the member's decision (his own, or as
    proxy), :func:`press`. Menus: play, double the chosen cubes, or take the chosen cubes and drop the rest (003
    Atlanta 5.6, 5.10/5.11). *Add your luck* (member 0: anyone at the table) opens the luck box
    (:class:`cogs.components.LuckModal`)."""
    sid, mark, member = key.table_id, key.stamp, int(key.args[0])
    if key.action == PanelButton.LUCK:  # any member of the chouette, at any time: the box for his words
        await interaction.response.send_modal(LuckModal(sid, add_luck))
    elif not isinstance(item, TableMenu):
        action = ALIASES.get(key.action, key.action)
        await press(interaction, sid, mark, member, action, cube=key.args[1] or None,
                    in_order=key.action == PanelButton.DOUBLE_ORDER)  # fmt: skip
    elif key.action == MemberAction.PLAY:
        await press(interaction, sid, mark, member, MemberAction.PLAY, value=values[0] if values else None)
    elif key.action == MemberAction.DOUBLE:
        await press(interaction, sid, mark, member, MemberAction.DOUBLE, value=[int(v) for v in values if v.isdigit()])
    else:
        decisions = {o.value: MemberAction.TAKE if o.value in values else MemberAction.DROP for o in item.item.options}
        await press(interaction, sid, mark, member, MemberAction.TAKE, value=decisions)


async def add_luck(interaction: Interaction, sid: int, words: str) -> None:
    """The luck box of chouette ``sid`` submitted: the words join the dice of every series waiting for its first
    roll (:meth:`club.chouette.ChouetteService.add_luck`); the board is redrawn (it names who added luck) and the
    member answered privately; a refusal says why and changes nothing."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        outcome = await chouettes_of(interaction).add_luck(sid, request_of(interaction, await register(interaction)),
                                                              words)  # fmt: skip
    except Exception as error:
        await report(interaction, error, context={"what": "chouette luck", "chouette": sid})
        return
    await _publish_and_acknowledge(interaction, outcome, luck_words(words, outcome.message))


async def _publish_and_acknowledge(interaction: Interaction, outcome: ChouetteOutcome,
                                   private: str | None = None) -> None:  # fmt: skip
    """Publish ``outcome``'s board and answer the member privately (``private``, default what happened)."""
    try:
        message = await interaction.client.publisher.publish_chouette(outcome)
    except Exception as error:
        log.error("could not publish chouette %s v%s", outcome.session_id, outcome.view.version, exc_info=error)
        message = None
    text = private or " ".join(outcome.message.splitlines()[:3]) or "Done."
    if message is not None and getattr(message, "jump_url", None):
        text += f"\nBoard: {message.jump_url}"
    await send_private(interaction, text)


# -- commands ----------------------------------------------------------------------------------------------------------
async def _session(interaction: Interaction, member: int | None = None, *, for_turn: bool = False) -> int:
    """The chouette of the channel; outside one (``member`` given), by the addressing rule: the one chouette waiting
    for his decision (``for_turn``) or the one he sits in (:func:`club.frontend.resolve_chouette`); none or several:
    refused with the list and jump links. Without ``member`` (start, join, seat) only the channel's."""
    chouettes = chouettes_of(interaction)
    channel_id = interaction.channel_id
    session_id = None if channel_id is None else await chouettes.session_in(channel_id)
    if session_id is not None:
        return session_id  # the chouette of his channel comes first (club.frontend.resolve_chouette)
    if member is None:
        raise InvalidRequestError("No chouette runs in this channel: start one with /bg chouette start.")
    return await frontend.resolve_chouette(chouettes, member, guild_id=interaction.guild_id, for_turn=for_turn,
                                           links=_board_links(interaction))  # fmt: skip


def _where(interaction: Interaction) -> tuple[int, int]:
    """``(server id, channel id)`` of a chouette command (:func:`cogs.host.guild_of`: refused from a direct
    message)."""
    guild_id = guild_of(interaction)
    if interaction.channel_id is None:
        raise InvalidRequestError("Chouettes are played in a server's channels.")
    return guild_id, interaction.channel_id


def _board_links(interaction: Interaction):
    """``async (session ids) -> {id: jump link}`` to each chouette's newest board message."""

    async def links(session_ids: list[int]) -> dict[int, str]:
        """The jump links of the chouettes that have a board message."""
        found = {}
        for session_id in session_ids:
            boards = await chouettes_of(interaction).messages(session_id, purpose=Purpose.BOARD)
            if boards:
                last = boards[-1]
                found[session_id] = (f"https://discord.com/channels/{interaction.guild_id}/{last.channel_id}/"
                                     f"{last.message_id}")  # fmt: skip
        return found

    return links


async def plays_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The legal plays of the member's dice on the chouette's board that match what he typed."""
    try:
        session_id = await _session(interaction, interaction.user.id, for_turn=True)
        plays = await chouettes_of(interaction).legal_plays(session_id, interaction.user.id)
    except BackgammonError:
        return []
    return [app_commands.Choice(name=play, value=play) for play in frontend.filter_plays(plays, current)]


class ChouetteCommands(app_commands.Group):
    """The ``/bg chouette`` subcommands (thin: parse → one club call → reply)."""

    def __init__(self) -> None:
        super().__init__(name="chouette", description="Chouettes: one Box against a Team, over days")

    async def _run(self, interaction: Interaction, what: str, call) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            request = request_of(interaction, await register(interaction))
            outcome = await call(chouettes_of(interaction), request)
        except Exception as error:
            await report(interaction, error, context={"what": f"/bg chouette {what}"})
            return
        await _publish_and_acknowledge(interaction, outcome)

    @app_commands.command(description="Start a chouette in this channel")
    @app_commands.describe(
        rules="Rule family (default Atlanta)",
        stake="Money per point (default none)",
        hours="Hours for each cube decision",
        proxy_hours="Hours for a proxy",
        no_talk="A private thread for those whose cube is in the game",
    )
    @app_commands.choices(rules=RULE_CHOICES)
    async def start(
        self,
        interaction: Interaction,
        rules: str | None = None,
        stake: app_commands.Range[int, 0, 1_000_000_000] = 0,
        hours: app_commands.Range[float, 0.05, 720.0] | None = None,
        proxy_hours: app_commands.Range[float, 0.05, 720.0] | None = None,
        no_talk: bool = False,
    ) -> None:
        async def call(chouettes: ChouetteService, request: Request) -> ChouetteOutcome:
            needs = (POST, PRIVATE_THREADS) if no_talk else (POST,)
            require_permissions(interaction.channel, *needs)  # before anything is stored
            guild_id, channel_id = _where(interaction)
            return await chouettes.start(guild_id, channel_id, request.member, rules=rules,
                                         stake=stake, decision_hours=hours, proxy_hours=proxy_hours,
                                         no_talk=no_talk)  # fmt: skip

        await self._run(interaction, "start", call)

    @app_commands.command(description="Join (or come back to) this channel's chouette")
    @app_commands.describe(stake="Play for a multiple of the stake (Atlanta 2.2)")
    @app_commands.choices(stake=STAKE_CHOICES)
    async def join(self, interaction: Interaction, stake: int = 1) -> None:
        async def call(chouettes: ChouetteService, request: Request) -> ChouetteOutcome:
            return await chouettes.join(await _session(interaction), request, stake=stake)

        await self._run(interaction, "join", call)

    @app_commands.command(description="Leave the chouette (after the game in progress)")
    async def leave(self, interaction: Interaction) -> None:
        async def call(chouettes: ChouetteService, request: Request) -> ChouetteOutcome:
            return await chouettes.leave(await _session(interaction, request.member), request)

        await self._run(interaction, "leave", call)

    @app_commands.command(description="Throw for the seats and start the first game")
    async def seat(self, interaction: Interaction) -> None:
        async def call(chouettes: ChouetteService, request: Request) -> ChouetteOutcome:
            return await chouettes.seat(await _session(interaction), request)

        await self._run(interaction, "seat", call)

    @app_commands.command(description="Name who decides for you when you are away")
    @app_commands.describe(member="Your proxy")
    async def proxy(self, interaction: Interaction, member: discord.Member) -> None:
        async def call(chouettes: ChouetteService, me: Request) -> ChouetteOutcome:
            other = await register(interaction, member)
            return await chouettes.proxy(await _session(interaction, me.member), me, other)

        await self._run(interaction, "proxy", call)

    @app_commands.command(description="Standing answers for your cube")
    @app_commands.describe(answers="pass take 4 drop 8 until back, or clear")
    async def order(self, interaction: Interaction, answers: app_commands.Range[str, 1, 80]) -> None:
        async def call(chouettes: ChouetteService, request: Request) -> ChouetteOutcome:
            order = parse_order(answers)
            return await chouettes.standing_order(await _session(interaction, request.member), request, **order)

        await self._run(interaction, "order", call)

    @app_commands.command(description="Play your dice on the chouette's board")
    @app_commands.describe(play="Your play, e.g. 13/7 8/7")
    @app_commands.autocomplete(play=plays_autocomplete)
    async def move(self, interaction: Interaction, play: str) -> None:
        async def call(chouettes: ChouetteService, request: Request) -> ChouetteOutcome:
            session_id = await _session(interaction, request.member, for_turn=True)
            return await chouettes.play(session_id, request, play)

        await self._run(interaction, "move", call)

    @app_commands.command(description="The chouette: seats, cubes, who must decide")
    async def status(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            member = await register(interaction)
            view = await chouettes_of(interaction).state(await _session(interaction, member))
            message = await chouette_message(interaction.client, view, viewer=member, buttons=False)
            await interaction.followup.send(**message.send_kwargs(ephemeral=True))
        except Exception as error:
            await report(interaction, error, context={"what": "/bg chouette status"})

    @app_commands.command(description="The score sheet")
    async def sheet(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            member = await register(interaction)
            view = await chouettes_of(interaction).state(await _session(interaction, member))
            png = await sheet_png_async(view, interaction.client.board_options)
            totals = ", ".join(f"{view.name(m)} {t:+d}" for m, t in view.sheet.totals.items())
            file = discord.File(io.BytesIO(png), filename=f"sheet-{view.session_id}.png")
            text = f"Score sheet of chouette #{view.session_id}: {totals or 'no game finished yet'}."
            await interaction.followup.send(text[:2000], file=file, ephemeral=True)
        except Exception as error:
            await report(interaction, error, context={"what": "/bg chouette sheet"})

    @app_commands.command(description="The rules this chouette is played under")
    async def rules(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            member = await register(interaction)
            view = await chouettes_of(interaction).state(await _session(interaction, member))
            hours = f"{view.decision_time / 3600:g} h per cube decision, {view.proxy_time / 3600:g} h for a proxy"
            text = f"Chouette #{view.session_id}: {view.rules_text}.\nTime: {hours}."
            if view.stake:
                text += f"\nStake: {view.stake} per point."
            await send_private(interaction, text)
        except Exception as error:
            await report(interaction, error, context={"what": "/bg chouette rules"})

    @app_commands.command(description="The dice proof: commitments, revealed seeds and every roll")
    async def verify(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            member = await register(interaction)
            session_id = await _session(interaction, member)
            series, text = await chouette_proof(chouettes_of(interaction), session_id)
            lines = proof_lines(series)
            file = discord.File(
                io.BytesIO("\n".join(lines).encode("utf-8")), filename=f"chouette-{session_id}-dice.txt"
            )
            await interaction.followup.send(text[:2000], file=file, ephemeral=True)
        except Exception as error:
            await report(interaction, error, context={"what": "/bg chouette verify"})

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Check failures and option errors of every ``/bg chouette`` command end up in :func:`cogs.errors.report`."""
        await report(interaction, error, context={"what": "/bg chouette"})


# -- the cog ----------------------------------------------------------------------------------------------------------
class Chouettes(commands.Cog):
    """Holds the chouette use-cases and publisher on the bot (their deadlines fire in the one reminder loop,
    :mod:`cogs.reminders`)."""

    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        bot.chouettes = ChouetteService(bot.service)
        self.commands = ChouetteCommands()

    async def cog_unload(self) -> None:
        """Take ``/bg chouette`` out of the tree."""
        group = self.bot.tree.get_command("bg")
        if isinstance(group, app_commands.Group):
            group.remove_command("chouette")


async def setup(bot: ClubBot) -> None:
    """Load the extension: the cog and ``/bg chouette`` under the ``/bg`` group (the persistent buttons and menus are
    :data:`cogs.buttons.ITEMS`, registered by the bot)."""
    cog = Chouettes(bot)
    await bot.add_cog(cog)
    group = bot.tree.get_command("bg")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("cogs.chouette needs the /bg group: load cogs.bg first")
    group.add_command(cog.commands)
