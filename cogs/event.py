"""``/event``: club events in Discord — knock-outs, double elimination, round robins, Swiss, ladders and league
seasons, run asynchronously (:mod:`club.events`).

Thin: each command parses its options, makes one :class:`club.events.service.EventService` call and answers
privately (refusals too, through :mod:`cogs.errors`). What an event does by itself — a pairing made, a result
recorded, a deadline passed — reaches Discord through the service's listener (:meth:`EventCog.on_update`),
whatever caused it (a command, a match that ended, the reminder loop), recorded pending in the event's commit and
posted once (:mod:`club.notices`; what a killed process left is posted by the reminder loop): each new pairing is
an ordinary club challenge posted in the event's channel with one message that mentions both players (the second
accepts to start; the match then lives in its own thread as any), and the bracket or standings picture is posted,
then edited after each result. With the club's ``event_forum`` set, each event gets one post there when it is created, and its
round announcements and picture go to that post instead (the challenges stay in the event's channel: a match's
thread cannot open inside a post). The picture's message is logged with the event, so after a restart the same
message is edited. ``/event admin live`` schedules a Discord event for a live night (cancelled with the event).
Organisers: club admins (who may manage the server) and members with the role the club names (``organiser_role``,
"Organiser" by default). Event names autocomplete.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from backgammon.errors import BackgammonError
from club import notices
from club.errors import InvalidRequestError
from club.events import pictures
from club.events.formats import EventError, Format, Settings, check_options
from club.events.log import Event, LiveNight, Post, Seeding, Status
from club.events.service import WHEN_EXAMPLE, Decision, EventService, EventUpdate, asked_words, parse_when
from club.events.texts import bracket_text, format_words, pairings_text, standings_text, summary
from club.results import Outcome
from club.wording import plural

from .buttons import Key, TableButton, on_press
from .errors import guarded, is_club_admin, report
from .flow import register
from .host import ClubBot, Interaction, guild_of
from .present import MENTIONS, mention

log = logging.getLogger(__name__)

FORMAT_CHOICES = [
    app_commands.Choice(name=name, value=value)
    for name, value in (
        ("single elimination (knock-out)", Format.SINGLE),
        ("double elimination (grand-final reset)", Format.DOUBLE),
        ("round robin (Berger tables)", Format.ROUND_ROBIN),
        ("Swiss (out_after: MoreSwiss)", Format.SWISS),
        ("ladder (challenge up to 3 above)", Format.LADDER),
        ("league season (divisions, up and down)", Format.LEAGUE),
    )
]
DECISIONS = [
    app_commands.Choice(name=name, value=value)
    for name, value in (
        ("award to the first player", Decision.A),
        ("award to the second player", Decision.B),
        ("replay", Decision.REPLAY),
        ("both out", Decision.BOTH_OUT),
    )  # fmt: skip
]
BUTTON_DECISIONS = {"award_a": Decision.A, "award_b": Decision.B, "replay": Decision.REPLAY,
                    "both_out": Decision.BOTH_OUT}  # fmt: skip
"""The organiser's buttons on an undecided pairing: each button's action (in its id) → its decision."""
NAME_HELP = "The event's name"
OPTION_NAMES = {"final_length": "final", "round_hours": "hours"}
"""/event create's options named otherwise than the event settings' fields they set."""


def events_of(interaction: Interaction) -> EventService:
    """The bot's :class:`EventService` (made by this extension's :func:`setup`)."""
    return interaction.client.events


async def may_organise(interaction: Interaction) -> bool:
    """Whether the member may organise events: an admin (manage server) or a member with the role the club names
    (:meth:`EventService.may_organise`)."""
    permissions = interaction.permissions  # his permissions in this channel, as Discord sends them
    roles = [role.name for role in getattr(interaction.user, "roles", ())]
    return await events_of(interaction).may_organise(
        guild_of(interaction), admin=permissions.manage_guild or permissions.administrator, roles=roles
    )


async def event_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The club's events whose name starts with what the member typed, the newest first."""
    try:
        found = await events_of(interaction).named(guild_of(interaction), current.strip())
    except BackgammonError:
        return []
    return [app_commands.Choice(name=f"{r.name} ({r.status})"[:100], value=r.name[:100]) for r in found[:25]]


def settings_of(format: str, **options) -> Settings:
    """The event settings from the command's options (None: the default). Raises :class:`InvalidRequestError`."""
    values = {k: v for k, v in options.items() if v is not None}
    if "lengths" in values:
        try:
            values["lengths"] = tuple(int(n) for n in str(values["lengths"]).replace(" ", "").split(",") if n)
        except ValueError:
            raise InvalidRequestError("lengths are whole numbers separated by commas, e.g. 5,5,7") from None
    try:
        kind = Format(format)
        check_options(kind, {key: OPTION_NAMES.get(key, key) for key in values})
        return Settings(kind, **values)
    except (EventError, ValueError) as error:
        raise InvalidRequestError(str(error)) from None


def _names_text(text: str, names: dict[int, str]) -> str:
    for member, name in names.items():
        text = text.replace(f"<@{member}>", name)
    return text


async def _answer(interaction: Interaction, text: str, png: bytes | None = None, filename: str = "") -> None:
    if png is None:
        await interaction.followup.send(text[:2000] or "Done.", ephemeral=True)
    else:
        await interaction.followup.send(text[:2000] or "Done.", ephemeral=True,
                                        file=discord.File(io.BytesIO(png), filename=filename))  # fmt: skip


class AdminCommands(app_commands.Group):
    """``/event admin``: the organiser's decisions."""

    def __init__(self) -> None:
        super().__init__(name="admin", description="Organisers: decide matches, check-in, close, next season")

    @app_commands.command(description="Decide an unplayed match: award it, replay it, or both out")
    @app_commands.describe(event=NAME_HELP, match="The match's key, e.g. W2-1 (see /event pairings)")
    @app_commands.choices(decision=DECISIONS)
    @app_commands.autocomplete(event=event_autocomplete)
    async def decide(self, interaction: Interaction, event: str, match: str, decision: str) -> None:
        await _call(interaction, "/event admin decide", lambda s, m, o: s.decide(
            guild_of(interaction), event, m, match.strip().upper(), decision, organiser=o))  # fmt: skip

    @app_commands.command(description="Open check-in: only those who check in are seeded")
    @app_commands.describe(event=NAME_HELP, hours="How long check-in stays open")
    @app_commands.autocomplete(event=event_autocomplete)
    async def checkin(self, interaction: Interaction, event: str, hours: app_commands.Range[int, 1, 168] = 24) -> None:
        await _call(interaction, "/event admin checkin", lambda s, m, o: s.open_checkin(
            guild_of(interaction), event, m, hours, organiser=o))  # fmt: skip

    @app_commands.command(description="End a ladder or a league season (or call an event off)")
    @app_commands.describe(event=NAME_HELP)
    @app_commands.autocomplete(event=event_autocomplete)
    async def close(self, interaction: Interaction, event: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/event admin close"):
            member = await register(interaction)
            update = await events_of(interaction).close(guild_of(interaction), event, member,
                                                        organiser=await may_organise(interaction))  # fmt: skip
            text = _names_text(update.text, update.names) or f"{update.event.name}: done."
            if update.event.status is Status.CANCELLED and update.event.live:
                cancelled = await cancel_live(interaction.guild, update.event)
                text += f"\n{plural(cancelled, 'live night')} cancelled on Discord."
            await _answer(interaction, text)

    @app_commands.command(description="Start a league's next season: promotion and relegation applied")
    @app_commands.describe(event="The finished season", name="The new season's name")
    @app_commands.autocomplete(event=event_autocomplete)
    async def season(self, interaction: Interaction, event: str, name: app_commands.Range[str, 1, 40]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/event admin season"):
            member = await register(interaction)
            update = await events_of(interaction).next_season(guild_of(interaction), event, member, name,
                                                              organiser=await may_organise(interaction))  # fmt: skip
            forum = await open_forum_post(interaction.client, guild_of(interaction), update.event)
            await _answer(interaction, _names_text(update.text, update.names) + forum)

    @app_commands.command(description="Club admins: who organises events, and the forum of their posts")
    @app_commands.describe(organiser_role="The role whose members organise events besides admins (none: admins only)",
                           forum="A forum: one post per event for its rounds and pictures",
                           clear_forum="No forum: each event posts in its own channel")  # fmt: skip
    @app_commands.check(is_club_admin)
    async def settings(
        self, interaction: Interaction, organiser_role: app_commands.Range[str, 1, 100] | None = None,
        forum: discord.ForumChannel | None = None, clear_forum: bool = False,
    ) -> None:  # fmt: skip
        """``/event admin settings``: the club's ``organiser_role`` and ``event_forum``
        (:class:`club.settings.ClubSettings`), shown and changed."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/event admin settings"):
            settings = await interaction.client.service.configure_club(
                guild_of(interaction), organiser_role=None if organiser_role is None else role_name(organiser_role),
                event_forum=0 if clear_forum else None if forum is None else forum.id,
            )  # fmt: skip
            await _answer(interaction, settings_text(settings))

    @app_commands.command(description="Schedule a Discord event for a live night (cancelled if the event is)")
    @app_commands.describe(event=NAME_HELP, when=f"When it starts: {WHEN_EXAMPLE} (UTC) or with an offset (+01:00)",
                           hours="How long it lasts", channel="A voice channel (default: a link to the event)")  # fmt: skip
    @app_commands.autocomplete(event=event_autocomplete)
    async def live(
        self, interaction: Interaction, event: str, when: app_commands.Range[str, 1, 40],
        hours: app_commands.Range[int, 1, 24] = 3, channel: discord.VoiceChannel | None = None,
    ) -> None:  # fmt: skip
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/event admin live"):
            member = await register(interaction)
            service = events_of(interaction)
            start = parse_when(when)
            found = await service.check_live(guild_of(interaction), event, member, start, hours,
                                             organiser=await may_organise(interaction))  # fmt: skip
            night = await schedule_live(interaction, found, start, hours, channel)
            await service.record_live(found.id, member, night)
            text = (f"Live night of {found.name}: <t:{int(start)}:F>, {plural(hours, 'hour')}, {night.where} — "
                    f"https://discord.com/events/{guild_of(interaction)}/{night.id}")  # fmt: skip
            posted, forum = await event_channels(interaction.client, found, guild_of(interaction))
            if forum or posted:
                await (forum or posted).send(content=text, allowed_mentions=discord.AllowedMentions.none())
            await _answer(interaction, f"Scheduled on Discord and announced. {text}")


def role_name(text: str) -> str:
    """A role's name as typed (``none``: no role — admins only)."""
    name = text.strip().removeprefix("@")
    return "" if name.lower() in ("none", "-") else name


def settings_text(settings) -> str:
    """The club's event settings in words."""
    role = settings.organiser_role
    who = f"club admins and members with the role {role}" if role else "club admins only (no organiser role)"
    where = (f"one post per event in <#{settings.event_forum}>" if settings.event_forum
             else "in the channel where each event was created (no forum)")  # fmt: skip
    return f"Events are organised by {who}; their rounds and pictures are posted {where}."


def _utc(seconds: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(seconds, dt.UTC)


def _link(guild_id: int, channel_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}"


async def schedule_live(interaction: Interaction, event: Event, start: float, hours: int,
                        voice: discord.VoiceChannel | None) -> LiveNight:  # fmt: skip
    """Create the Discord scheduled event of a live night: in ``voice`` if given, else an external one whose
    location links to the event's post (its forum post, or its channel). Raises :class:`InvalidRequestError` when
    Discord refuses it (nothing is stored then)."""
    guild = interaction.guild
    assert guild is not None
    end = start + hours * 3600
    options: dict = {"name": event.name, "start_time": _utc(start), "end_time": _utc(end),
                     "privacy_level": discord.PrivacyLevel.guild_only,
                     "description": f"{event.name}: a live night — play your event matches together."}  # fmt: skip
    if voice is not None:
        where = voice.mention
        options.update(entity_type=discord.EntityType.voice, channel=voice)
    else:
        home = event.posts.get(Post.FORUM) or event.channel_id or interaction.channel_id
        if home is None:
            raise InvalidRequestError("This event has no channel to link its live night to: name a voice channel.")
        where = _link(guild.id, home)
        options.update(entity_type=discord.EntityType.external, location=where)
    try:
        scheduled = await guild.create_scheduled_event(**options)
    except discord.HTTPException as error:
        raise InvalidRequestError(f"Discord refused the live night ({error.text or error.status}); give the bot "
                                  "the Create Events permission, or choose another time or channel.") from None  # fmt: skip
    return LiveNight(scheduled.id, start, end, where)


async def cancel_live(guild: discord.Guild | None, event: Event) -> int:
    """Cancel on Discord the live nights of ``event`` still scheduled; returns how many were."""
    if guild is None:
        return 0
    cancelled = 0
    for night in event.live:
        try:
            scheduled = await guild.fetch_scheduled_event(night.id)
            if scheduled.status is discord.EventStatus.scheduled:
                await scheduled.cancel()
                cancelled += 1
        except discord.HTTPException as error:
            log.info("event %s: live night %s not cancelled: %s", event.id, night.id, error)
    return cancelled


async def _call(interaction: Interaction, what: str, call, *, about: discord.Member | None = None) -> None:
    """The shape of most commands: defer privately, register the member (and the member the command is ``about``,
    an opponent or a winner), one service call (given the service, the member and whether he may organise), its
    text privately."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    async with guarded(interaction, what):
        member = await register(interaction)
        if about is not None:
            await register(interaction, about)
        update = await call(events_of(interaction), member, await may_organise(interaction))
        await _answer(interaction, _names_text(update.text, update.names) or f"{update.event.name}: done.")


class EventCommands(app_commands.Group):
    """The ``/event`` commands (thin: parse → one event call → reply)."""

    def __init__(self) -> None:
        super().__init__(name="event", description="Club events: knock-outs, Swiss, round robins, ladders, leagues",
                         guild_only=True)  # fmt: skip
        self.add_command(AdminCommands())

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Check failures and option errors of every ``/event`` command (see :mod:`cogs.errors`)."""
        command = getattr(interaction.command, "qualified_name", None) or "event"
        await report(interaction, error, context={"what": f"/{command}"})

    @app_commands.command(description="Create an event (organisers); members then /event join")
    @app_commands.describe(
        name="Its name, e.g. Spring Open", format="The format", lengths="Match length per round, e.g. 5,5,7",
        final="The final's length", rounds="Swiss rounds", out_after="MoreSwiss: out at this many losses",
        consolation="Single elimination: progressive consolation", cycles="Round robin: once or twice round",
        division_size="League: players per division", up="League: promoted from each division (default 2)",
        down="League: relegated from each division (default 2)", reach="Ladder: challenge up to this many places above",
        hours="Hours each round has", cap="Most players (more join a waiting list)",
        seeding="By the club rating (default) or at random", rules="A rule-set preset (default: the club's)",
        entry="An entry fee, recorded only (default 0: none)",
    )  # fmt: skip
    @app_commands.choices(format=FORMAT_CHOICES, seeding=[app_commands.Choice(name="club rating", value=Seeding.RATING),
                                                          app_commands.Choice(name="random", value=Seeding.RANDOM)])  # fmt: skip
    async def create(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 40],
        format: str,
        lengths: app_commands.Range[str, 1, 60] | None = None,
        final: app_commands.Range[int, 1, 25] | None = None,
        rounds: app_commands.Range[int, 1, 30] | None = None,
        out_after: app_commands.Range[int, 1, 10] | None = None,
        consolation: bool | None = None,
        cycles: app_commands.Range[int, 1, 2] | None = None,
        division_size: app_commands.Range[int, 3, 16] | None = None,
        up: app_commands.Range[int, 0, 8] | None = None,
        down: app_commands.Range[int, 0, 8] | None = None,
        reach: app_commands.Range[int, 1, 10] | None = None,
        hours: app_commands.Range[int, 1, 2000] | None = None,
        cap: app_commands.Range[int, 0, 1024] = 0,
        seeding: str = Seeding.RATING,
        rules: app_commands.Range[str, 1, 40] | None = None,
        entry: app_commands.Range[int, 0, 1_000_000] = 0,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/event create"):
            member = await register(interaction)
            settings = settings_of(format, lengths=lengths, final_length=final, rounds=rounds, out_after=out_after,
                                   consolation=consolation, cycles=cycles, division_size=division_size, up=up,
                                   down=down, reach=reach, round_hours=hours)  # fmt: skip
            update = await events_of(interaction).create(
                guild_of(interaction), member, name, settings, organiser=await may_organise(interaction), cap=cap,
                seeding=seeding, rules=rules, entry=entry, channel_id=interaction.channel_id,
            )  # fmt: skip
            forum = await open_forum_post(interaction.client, guild_of(interaction), update.event)
            await _answer(interaction, f"{update.text}\n{summary(update.event, {})}{forum}")

    @app_commands.command(description="Join an event (or its waiting list)")
    @app_commands.describe(event=NAME_HELP)
    @app_commands.autocomplete(event=event_autocomplete)
    async def join(self, interaction: Interaction, event: str) -> None:
        await _call(interaction, "/event join", lambda s, m, o: s.join(guild_of(interaction), event, m))

    @app_commands.command(description="Leave an event before it starts")
    @app_commands.describe(event=NAME_HELP)
    @app_commands.autocomplete(event=event_autocomplete)
    async def leave(self, interaction: Interaction, event: str) -> None:
        await _call(interaction, "/event leave", lambda s, m, o: s.leave(guild_of(interaction), event, m))

    @app_commands.command(description="Check in to an event")
    @app_commands.describe(event=NAME_HELP)
    @app_commands.autocomplete(event=event_autocomplete)
    async def checkin(self, interaction: Interaction, event: str) -> None:
        await _call(interaction, "/event checkin", lambda s, m, o: s.checkin(guild_of(interaction), event, m))

    @app_commands.command(description="Start an event (its organiser): the field is seeded, round 1 is paired")
    @app_commands.describe(event=NAME_HELP)
    @app_commands.autocomplete(event=event_autocomplete)
    async def start(self, interaction: Interaction, event: str) -> None:
        await _call(interaction, "/event start", lambda s, m, o: s.start(guild_of(interaction), event, m, organiser=o))

    @app_commands.command(description="Withdraw from a running event (your remaining matches are forfeited)")
    @app_commands.describe(event=NAME_HELP)
    @app_commands.autocomplete(event=event_autocomplete)
    async def withdraw(self, interaction: Interaction, event: str) -> None:
        await _call(interaction, "/event withdraw", lambda s, m, o: s.withdraw(guild_of(interaction), event, m))

    @app_commands.command(description="Ladder: challenge a member up to 3 places above you")
    @app_commands.describe(event=NAME_HELP, opponent="Whom you challenge")
    @app_commands.autocomplete(event=event_autocomplete)
    async def challenge(self, interaction: Interaction, event: str, opponent: discord.Member) -> None:
        await _call(interaction, "/event challenge", lambda s, m, o: s.challenge(
            guild_of(interaction), event, m, opponent.id), about=opponent)  # fmt: skip

    @app_commands.command(description="Report your event match's result (the match's own result decides)")
    @app_commands.describe(event=NAME_HELP, winner="Who won")
    @app_commands.autocomplete(event=event_autocomplete)
    async def report(self, interaction: Interaction, event: str, winner: discord.Member) -> None:
        await _call(interaction, "/event report", lambda s, m, o: s.report(
            guild_of(interaction), event, m, winner.id), about=winner)  # fmt: skip

    @app_commands.command(description="The bracket (or the latest round's pairings), with its picture")
    @app_commands.describe(event=NAME_HELP)
    @app_commands.autocomplete(event=event_autocomplete)
    async def bracket(self, interaction: Interaction, event: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/event bracket"):
            await register(interaction)
            service = events_of(interaction)
            found = await service.find(guild_of(interaction), event)
            names = await service.names(found.entrants)
            text = bracket_text(found, names)
            png = None
            if found.state is not None and found.format in (Format.SINGLE, Format.DOUBLE):
                png = await pictures.bracket_png_async(found.state, names, found.name,
                                                       theme=interaction.client.board_options.theme)  # fmt: skip
            await _answer(interaction, f"```\n{text[:1900]}\n```", png, f"bracket-{found.id}.png")

    @app_commands.command(description="Standings with tie-breaks, each place explained")
    @app_commands.describe(event=NAME_HELP)
    @app_commands.autocomplete(event=event_autocomplete)
    async def standings(self, interaction: Interaction, event: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/event standings"):
            await register(interaction)
            found, png, text = await standings_picture(interaction.client, guild_of(interaction), event)
            await _answer(interaction, f"```\n{text[:1900]}\n```", png, f"standings-{found.id}.png")

    @app_commands.command(description="A round's pairings and why each was made")
    @app_commands.describe(event=NAME_HELP, round="The round (default: the latest)")
    @app_commands.autocomplete(event=event_autocomplete)
    async def pairings(
        self, interaction: Interaction, event: str, round: app_commands.Range[int, 1, 100] | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/event pairings"):
            await register(interaction)
            service = events_of(interaction)
            found = await service.pairings(guild_of(interaction), event, round)
            text = pairings_text(found, await service.names(found.entrants), round)
            await _answer(interaction, f"```\n{text[:1900]}\n```")

    @app_commands.command(description="An event's results as a ZIP: results.csv, event.json, every match's .mat")
    @app_commands.describe(event=NAME_HELP)
    @app_commands.autocomplete(event=event_autocomplete)
    async def export(self, interaction: Interaction, event: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/event export"):
            await register(interaction)
            filename, data = await events_of(interaction).export(guild_of(interaction), event)
            file = discord.File(io.BytesIO(data), filename=filename)
            await interaction.followup.send(f"{event}: results.csv, event.json and the .mat files.", file=file,
                                            ephemeral=True)  # fmt: skip

    @app_commands.command(description="Your next event matches: opponent, deadline, a link")
    async def my(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/event my"):
            member = await register(interaction)
            mine = await events_of(interaction).my(guild_of(interaction), member)
            lines = []
            for item in mine:
                link = ""
                if item.match_id is not None:
                    home = await interaction.client.publisher.home(item.match_id)
                    if home is not None:
                        link = f" — {home.jump_url}"
                lines.append(f"{item.event}: {item.pairing.key} against {item.opponent_name}, match "
                             f"{item.match_id or '(being made)'}, by <t:{int(item.deadline)}:f>{link}")  # fmt: skip
            await _answer(interaction, "\n".join(lines) or "You have no event match to play.")

    @app_commands.command(description="The club's events, or one event's format, status and field")
    @app_commands.describe(event="An event (default: the list)")
    @app_commands.autocomplete(event=event_autocomplete)
    async def show(self, interaction: Interaction, event: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/event show"):
            await register(interaction)
            service = events_of(interaction)
            if event is None:
                found = await service.named(guild_of(interaction))
                text = "\n".join(f"{r.name} — {r.format.replace('_', ' ')}, {r.status}" for r in found)
                await _answer(interaction, text or "This club has no events yet: an organiser uses /event create.")
                return
            one = await service.find(guild_of(interaction), event)
            await _answer(interaction, summary(one, await service.names(one.entrants + one.waiting)))


@on_press("e")
async def press(interaction: Interaction, key: Key, values: list[str], item) -> None:
    """An event's button (kind ``e`` of :mod:`cogs.buttons`): the organiser's decision, :func:`decide_button`."""
    await decide_button(interaction, key.table_id, int(key.args[0]), key.action)


async def decide_button(interaction: Interaction, event_id: int, index: int, action: str) -> None:
    """An organiser's button on a pairing nobody played: award it, replay it, or both out (refused privately for
    anyone who may not organise, or a pairing decided since)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    async with guarded(interaction, "event decision", event=event_id, action=action):
        member = await register(interaction)
        service = events_of(interaction)
        event = await service.load(event_id)
        keys = list(event.state.pairings) if event.state is not None else []
        if await service.club.club_id_of(guild_of(interaction)) != event.club_id or index >= len(keys):
            raise InvalidRequestError("This button is not one the bot drew for this server's events.")
        decision = BUTTON_DECISIONS.get(action, action)
        update = await service.decide(guild_of(interaction), event.name, member, keys[index], decision,
                                      organiser=await may_organise(interaction))  # fmt: skip
        await _answer(interaction, _names_text(update.text, update.names))


async def event_channels(bot: ClubBot, event: Event, guild_id: int | None):
    """``(channel, forum post)`` of an event: the channel of its challenges (where it was created, else the club's
    game channel) and its forum post (None without one), each None when gone."""
    publisher = bot.publisher
    channel = await publisher.channel(event.channel_id) if event.channel_id else None
    if channel is None and guild_id is not None:
        settings = await bot.service.club_settings(guild_id)
        channel = await publisher.channel(settings.game_channel) if settings.game_channel else None
    forum = await publisher.channel(event.posts[Post.FORUM]) if Post.FORUM in event.posts else None
    return channel, forum


async def open_forum_post(bot: ClubBot, guild_id: int, event: Event) -> str:
    """Open the event's post in the club's ``event_forum`` (if it names one) and log it with the event; returns a
    line for the organiser ("" without a forum)."""
    settings = await bot.service.club_settings(guild_id)
    if not settings.event_forum:
        return ""
    forum = await bot.publisher.channel(settings.event_forum)
    if not isinstance(forum, discord.ForumChannel):
        return f"\nThe club's event forum <#{settings.event_forum}> is not a forum the bot can reach: no post opened."
    try:
        thread, _ = await forum.create_thread(name=event.name, content=summary(event, {})[:2000],
                                              allowed_mentions=discord.AllowedMentions.none())  # fmt: skip
    except discord.HTTPException as error:
        log.warning("event %s: no forum post in %s: %s", event.id, forum.id, error)
        return f"\nThe bot could not open a post in {forum.mention} ({error.text or error.status}): no post opened."
    await bot.events.remember(event.id, Post.FORUM, thread.id)
    return f"\nIts rounds and pictures are posted in {thread.mention}."


async def standings_picture(bot: ClubBot, guild_id: int, name: str) -> tuple[Event, bytes, str]:
    """``(event, PNG, text)`` of an event's standings (every division of a league, the picture of the first)."""
    service: EventService = bot.events
    found, tables = await service.standings(guild_id, name)
    names = await service.names(found.entrants)
    marks = pictures.league_marks(tables, found.settings.up, found.settings.down) if len(tables) > 1 else [{}]
    texts = []
    for number, rows in enumerate(tables, 1):
        title = f"{found.name} — division {number}" if len(tables) > 1 else f"{found.name} — standings"
        texts.append(standings_text(title, rows, names))
    table = pictures.standings_table(texts[0].splitlines()[0], tables[0], names, format_words(found), marks=marks[0])
    png = await pictures.table_png_async(table, theme=bot.board_options.theme)
    return found, png, "\n".join(texts)


class EventCog(commands.Cog):
    """Holds the event use-cases on the bot (``bot.events``), the ``/event`` group and the listener that posts
    what events do by themselves."""

    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        bot.events = EventService(bot.service)
        bot.events.outbox = True  # what events do is recorded pending with it, posted once (club.notices)
        bot.events.listeners.append(self.on_update)
        self.commands = EventCommands()
        self.picture_locks: dict[int, asyncio.Lock] = {}  # event id → one picture posted or edited at a time
        self.resumed = False

    async def cog_unload(self) -> None:
        """Take ``/event`` out of the tree."""
        self.bot.tree.remove_command("event")

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once connected: make the matches a crash left unmade (:meth:`EventService.resume`), posted as any."""
        if not self.resumed:
            self.resumed = True
            try:
                await self.bot.events.resume()
            except Exception:
                log.exception("events: resuming after a restart failed")

    async def on_update(self, update: EventUpdate) -> None:
        """Post what an event did (:meth:`post`), then mark its news posted (:attr:`EventUpdate.news`, recorded
        pending in the event's commit): a process killed in between leaves it pending, and :meth:`post_pending`
        posts it. Its claim notices are pending in the outbox themselves: the reminder loop posts them
        (:meth:`cogs.reminders.Reminders.post_pending`)."""
        await self.post(update)
        if update.news is not None:
            await notices.news_posted(self.bot.service, update.news)

    async def post_pending(self) -> int:
        """Post the events' news a killed process left pending (rebuilt from the event's log,
        :meth:`EventService.news_of`), each marked posted once it is; the holder of the scheduler's lease calls it
        each round. A news item that cannot be posted is logged and tried again next round (up to
        :data:`storage.notices.ATTEMPTS`). Returns how many were posted."""
        service, done = self.bot.service, 0
        for item in await notices.news_due(service):
            try:
                await self.post(await self.bot.events.news_of(item))
            except Exception:
                log.exception("event %s: could not post its news of version %s", item.event_id, item.version)
                await notices.failed(service, item)
                continue
            await notices.news_posted(service, item)
            done += 1
        return done

    async def post(self, update: EventUpdate) -> None:
        """Post what an event did: in the event's forum post if it has one (else in its channel) the results and
        the new pairings in words; each new pairing's challenge with both players mentioned once (in the event's
        channel), after the result that made it; then the decisions asked of the organiser and the bracket or
        standings picture (edited when posted before). Each message carries a nonce (the match's for a challenge,
        the news' own for the rest: :meth:`club.notices.EventNews.nonce`), so posting the same news again shows
        nothing twice."""
        event = update.event
        publisher = self.bot.publisher
        guild_id = await self.bot.service.guild_of(event.club_id)
        channel, forum = await event_channels(self.bot, event, guild_id)
        news = forum or channel
        if channel is None or news is None:
            log.info("event %s: no channel to post in", event.id)
            return
        words = [line for line in update.text.splitlines() if line.split(":")[0] not in update.asked
                 and (forum is not None or " — match " not in line)]  # fmt: skip
        nonce = update.news.nonce if update.news is not None else (lambda part: None)
        if words:
            await news.send(content="\n".join(words)[:2000], allowed_mentions=MENTIONS, nonce=nonce("w"))
        for pairing, match_id in update.matches:
            view = await self.bot.service.state(match_id)
            assert pairing.b is not None
            content = (f"{mention(pairing.a)} {mention(pairing.b)} {event.name} {pairing.key}: "
                       f"{update.names.get(pairing.a, '')} v {update.names.get(pairing.b, '')} — "
                       f"{update.names.get(pairing.b, '')} accepts to start; by <t:{pairing.deadline}:f>.")  # fmt: skip
            text = f"{event.name} {pairing.key} ({pairing.why})."
            await publisher.post_challenge(Outcome(view, _names_text(text, update.names)), channel=channel,
                                           content=content, nonce=f"bgc{match_id}")  # fmt: skip
        for index, key in enumerate(update.asked):
            await self._ask(news, update, key, nonce(f"a{index}"))
        if update.results and guild_id is not None:
            await self._picture(news, guild_id, update)

    async def _ask(self, channel, update: EventUpdate, key: str, nonce: str | None = None) -> None:
        """The organiser's buttons for pairing ``key``, undecided at its deadline and forfeited by nobody (neither
        player touched it, or the club's policy is ``nothing`` or ``claim``)."""
        event = update.event
        assert event.state is not None
        pairing = event.state.pairings[key]
        index = list(event.state.pairings).index(key)
        name_a, name_b = update.names.get(pairing.a, "?"), update.names.get(pairing.b or 0, "?")
        view = discord.ui.View(timeout=None)
        labels = {Decision.A: f"Award to {name_a}", Decision.B: f"Award to {name_b}", Decision.REPLAY: "Replay",
                  Decision.BOTH_OUT: "Both out"}  # fmt: skip
        for action, decision in BUTTON_DECISIONS.items():
            view.add_item(TableButton.of("e", event.id, event.version, action, index, label=labels[decision][:80]))
        hours = plural(round(self.bot.events.grace / 3600), "hour")
        why = asked_words(event, key, update.names)
        text = (f"{mention(event.organiser)} {event.name} {key} ({name_a} v {name_b}): {why}. Decide (or /event "
                f"admin decide); if nobody does within {hours}, both are out.")  # fmt: skip
        await channel.send(content=text[:2000], view=view, allowed_mentions=MENTIONS, nonce=nonce)

    async def _picture(self, news, guild_id: int, update: EventUpdate) -> None:
        """Post the event's bracket or standings picture in ``news`` as the event now stands, or edit the message
        posted before (logged with the event: the same message after a restart). The post's nonce is the event's
        (:func:`club.notices.picture_nonce`): a process killed before the message was logged gets the same message
        back when the news is posted again."""
        async with self.picture_locks.setdefault(update.event.id, asyncio.Lock()):
            event = await self.bot.events.load(update.event.id)
            if event.state is None:
                return
            if event.format in (Format.SINGLE, Format.DOUBLE):
                png = await pictures.bracket_png_async(event.state, update.names, event.name,
                                                       theme=self.bot.board_options.theme)  # fmt: skip
                filename = f"bracket-{event.id}.png"
            else:
                _, png, _ = await standings_picture(self.bot, guild_id, event.name)
                filename = f"standings-{event.id}.png"
            old = event.posts.get(Post.PICTURE)
            if old is not None:
                try:
                    await news.get_partial_message(old).edit(attachments=[discord.File(io.BytesIO(png), filename)])
                    return
                except discord.HTTPException as error:  # gone, or in another channel: post it again
                    log.info("event %s: picture %s not edited: %s", event.id, old, error)
            message = await news.send(content=f"{event.name}:", file=discord.File(io.BytesIO(png), filename),
                                      nonce=notices.picture_nonce(event.id, old))  # fmt: skip
            await self.bot.events.remember(event.id, Post.PICTURE, message.id)


async def setup(bot: ClubBot) -> None:
    """Load the extension: the cog, the ``/event`` group and the events made after a crash."""
    cog = EventCog(bot)
    await bot.add_cog(cog)
    bot.tree.add_command(cog.commands)
