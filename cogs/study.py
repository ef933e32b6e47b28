"""``/study``: reviews and hints, a group of its own beside ``/bg`` (which is near Discord's limits).

- ``/study review [game]`` — the review of a finished match or money session: both players' PR, the three costliest
  plays as board pictures (the play made and the best play, with equities) and the cube errors; in a chouette's
  channel, every member's cube decisions in its finished games (take/drop/double per cube, RULES C4, C5). The same review is
  posted in the game's thread when a match or session ends (:meth:`Study.on_match_finished`, dispatched by
  :class:`cogs.publish.Publisher`).
- ``/study hint [position] [dice]`` — the best plays of a roll, or the cube advice, with equities, for a position
  given by its gnubg Position ID; in a practice game's thread without a position, for its current position and
  dice. Refused for a game being played — a rated match or session, or a chouette — with the reason (RULES 003 1.5:
  no electronic aids in a match; :mod:`club.analysis.hints`).
- ``/study highlight [game]`` — the turning point of a finished match as an animated GIF, checker by checker
  (:mod:`club.highlight`); posted by itself in the game's thread when a match ends unless the club turned
  ``highlights`` off. Without the engine the turning point is the biggest pip-count or cube swing.
- ``/study quiz [hours]`` — a quiz from the club's recent finished games (:mod:`club.quiz`) posted as a Discord
  poll of 3–4 plays with its board picture; when the poll's final results arrive (a MESSAGE_UPDATE with
  ``is_finalized``, or the reminder loop finding it closed, after a restart too) the engine's ranking, the board after
  the best play, who voted for what and the club's leaderboard. ``/study quizboard`` shows the leaderboard;
  ``/study options`` (admins) sets the weekly schedule, whether names are shown, the threshold and highlights.
- ``/study blunders [member] [count] [share]`` — a member's costliest decisions (checker plays and cube) in his
  recent finished matches (:mod:`club.blunders`), each with its board; private to the asker unless he shares his own.
- ``/study practice [length] [strength]`` — a match (or, length 0, a money session) against the engine in a seat
  the bot takes (:mod:`club.practice`): unrated, outside the club's books; its own thread, played with the ``/bg``
  commands and buttons like any game. Whenever the engine is to act (:meth:`Study.on_practice_turn`, dispatched by
  the publisher) its cube decision, checker play or answer is chosen in the worker pool and applied through the same
  unit of work; one board then shows what it did. Strengths: :data:`club.analysis.practice.STRENGTHS`.

The engine is optional (``requirements-analysis.txt``): without it every command says how to enable analysis and
the rest of the bot is unaffected. The engine runs in the cog's worker pool (:class:`club.analysis.pool.AnalysisPool`),
never on the event loop.
"""

from __future__ import annotations

import asyncio
import datetime
import io
import logging
from dataclasses import replace

import discord
from discord import app_commands
from discord.ext import commands

from club import frontend, notices
from club.analysis import ENABLE_ANALYSIS, engine_available
from club.analysis.engine import CubeState
from club.analysis.hints import (
    check_hint_allowed,
    hint_task,
    hint_text,
    parse_request,
    practice_request,
    refuse_until_over,
)
from club.analysis.pool import AnalysisPool
from club.analysis.practice import DEFAULT_STRENGTH, STRENGTHS
from club.blunders import member_blunders
from club.errors import InvalidRequestError
from club.highlight import Highlight, match_highlight
from club.practice import DEFAULT_LENGTH, MAX_PRACTICE_LENGTH, engine_turns, practice_title, start_practice
from club.quiz import (
    NoQuizError,
    club_leaderboard,
    options_text,
    pending_quizzes,
    quiz_due,
    quiz_posted,
    reveal_quiz,
    start_quiz,
)
from club.results import Outcome, TableView
from club.table import MatchStatus

from . import flow
from .bg import is_club_admin
from .errors import guarded, report
from .host import ClubBot, Interaction, guild_of
from .platform import postable

log = logging.getLogger("bgclub.discord")

GameOption = app_commands.Range[int, 1, 2**53 - 1]
HINT_LEVEL = "2ply"
DEFAULT_QUIZ_HOURS = 24
STRENGTH_CHOICES = [
    app_commands.Choice(name=f"{name} ({level}, noise {noise:g})", value=name)
    for name, (level, noise) in STRENGTHS.items()
]


def merged(outcomes: list[Outcome]) -> Outcome:
    """The engine's actions of one turn as one outcome (one board: the last view, every event and line)."""
    last = outcomes[-1]
    return replace(
        last,
        events=tuple(event for outcome in outcomes for event in outcome.events),
        message="\n".join(outcome.message for outcome in outcomes if outcome.message),
        image_due=any(outcome.image_due for outcome in outcomes),
        revealed=tuple(item for outcome in outcomes for item in outcome.revealed),
    )


async def engine_ready(interaction: discord.Interaction) -> bool:
    """Whether the engine is installed; when it is not, the member is told privately how to enable it."""
    if engine_available():
        return True
    await interaction.followup.send(ENABLE_ANALYSIS, ephemeral=True)
    return False


async def engine_member(interaction: discord.Interaction) -> int | None:
    """The member registered (:func:`cogs.flow.register`) when the engine is installed; None when it is not (he
    was told how to enable it, :func:`engine_ready`)."""
    return await flow.register(interaction) if await engine_ready(interaction) else None


@app_commands.guild_only()
class Study(commands.GroupCog, group_name="study", group_description="Reviews and hints from the engine"):
    """The ``/study`` commands and the review at match end. ``workers`` engine processes (started on first use)."""

    def __init__(self, bot: ClubBot, workers: int = 2) -> None:
        self.bot = bot
        self.pool = AnalysisPool(workers)
        self._playing: set[int] = set()
        self._resume: asyncio.Task | None = None
        super().__init__()

    async def cog_load(self) -> None:
        """Resume the practice games left waiting for the engine and the reviews not posted yet (a restart in the
        middle of the engine's turn or of a review)."""
        if engine_available():
            self._resume = asyncio.create_task(self.resume())

    async def resume(self) -> None:
        """What the engine owes after a restart: the practice turns, then the reviews (:meth:`resume_reviews`)."""
        await self.resume_practice()
        await self.resume_reviews()

    async def cog_unload(self) -> None:
        """Stop the engine processes."""
        self.pool.shutdown()

    @property
    def engine_id(self) -> int:
        """The member id of the engine seat: the bot's own user id."""
        if self.bot.user is None:
            raise RuntimeError("the bot is not logged in yet: it has no user id")
        return self.bot.user.id

    # -- practice ---------------------------------------------------------------------------------------------------
    @app_commands.command(description="Play the engine: an unrated practice match, hints allowed (/study hint)")
    @app_commands.describe(
        length=f"Points (default {DEFAULT_LENGTH}; 0 = a money session)",
        strength=f"How well the engine plays (default {DEFAULT_STRENGTH})",
    )
    @app_commands.choices(strength=STRENGTH_CHOICES)
    async def practice(
        self,
        interaction: Interaction,
        length: app_commands.Range[int, 0, MAX_PRACTICE_LENGTH] | None = None,
        strength: str | None = None,
    ) -> None:
        """``/study practice [length] [strength]``: start a practice game against the engine (see the module
        docstring); its thread opens in the club's game channel (or here)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/study practice", length=length, strength=strength):
            member = await engine_member(interaction)
            if member is None:
                return
            publisher = self.bot.publisher
            where = await publisher.challenge_channel(guild_of(interaction), interaction.channel)
            publisher.check_challenge_channel(where)  # before anything is stored
            outcome = await start_practice(
                self.bot.service, guild_of(interaction), member, self.engine_id, length=length, strength=strength
            )
            view = outcome.view
            text = f"<@{member}> — {practice_title(view)}: unrated, hints allowed (/study hint in its thread)."
            await publisher.post_practice(outcome, channel=where, text=text)
            await publisher.publish(outcome, actor=member, fallback=where)
            home = await publisher.home(view.match_id)
            where_text = f" in <#{home.id}>" if home is not None else ""
            await interaction.followup.send(
                f"Your {practice_title(view)} is played{where_text}. Play it with /bg roll, /bg move … or the "
                "buttons; the engine answers within seconds.",
                ephemeral=True,
            )

    @commands.Cog.listener()
    async def on_practice_turn(self, view: TableView) -> None:
        """The engine seat of practice game ``view`` is to act: play its turn (:func:`club.practice.engine_turns`,
        chosen in the worker pool) and show it as one board. One run per game at a time; failures are logged (the
        game waits, and the next restart or action tries again)."""
        match_id = view.match_id
        if match_id in self._playing:
            return
        self._playing.add(match_id)
        try:
            for _ in range(10):
                outcomes = await engine_turns(self.bot.service, match_id, self.pool)
                if not outcomes:
                    break
                await self.bot.publisher.publish(merged(outcomes), actor=self.engine_id)
                if not outcomes[-1].view.engine_to_act:
                    break
        except Exception:
            log.exception("the engine could not play its turn in practice match %s", match_id)
        finally:
            self._playing.discard(match_id)

    async def resume_practice(self) -> None:
        """Play every practice turn the engine owes (games left waiting for it by a restart)."""
        try:
            for item in await self.bot.service.waiting(self.engine_id):
                view = await self.bot.service.state(item.match_id)
                if view.engine_to_act:
                    await self.on_practice_turn(view)
        except Exception:
            log.exception("could not resume the practice games")

    # -- review -----------------------------------------------------------------------------------------------------
    async def review_of(self, match_id: int):
        """The :class:`~club.analysis.review.Review` of match ``match_id`` (engine work in the pool)."""
        from club.analysis.review import review_match

        return await review_match(self.bot.service, match_id, pool=self.pool, options=self.bot.board_options)

    @staticmethod
    def review_kwargs(review) -> dict:
        """``send`` keyword arguments for a review: the text and its pictures (at most 10 attachments)."""
        files = [discord.File(io.BytesIO(png), filename=name) for name, _caption, png in review.images[:10]]
        return {"content": review.text[:2000], "files": files}

    @app_commands.command(description="The engine's review of a finished match: PRs, costliest plays, cube errors")
    @app_commands.describe(game="Match number (default: the match of this thread)")
    async def review(self, interaction: Interaction, game: GameOption | None = None) -> None:
        """``/study review [game]``: the review of a finished match (a chouette's cube review in its channel),
        posted in this channel; the answer and every refusal are private."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/study review", game=game):
            if await engine_member(interaction) is None:
                return
            match_id = game or await self.bot.publisher.here(interaction.channel_id, open_only=False)
            chouettes, channel_id = self.bot.chouettes, interaction.channel_id
            session_id = (
                None if chouettes is None or game or channel_id is None else await chouettes.session_in(channel_id)
            )
            if match_id is None and session_id is not None:
                await self._post_here(interaction, f"review of chouette #{session_id}",
                                        content=await self.chouette_review(session_id))  # fmt: skip
                return
            if match_id is None:
                raise InvalidRequestError("Say which match to review: /study review game:<its number>.")
            view = await self._view_here(interaction, match_id)
            if view.status != MatchStatus.OVER:
                raise refuse_until_over(f"match #{match_id}", "review")
            review = await self.review_of(match_id)
            await self._post_here(interaction, f"review of match #{match_id}", **self.review_kwargs(review))

    async def _post_here(self, interaction: Interaction, what: str, **kwargs) -> None:
        """Post ``what`` (a review, a highlight: ``send`` keyword arguments) in the channel asked from; tell the
        member privately."""
        found = None if interaction.channel_id is None else self.bot.get_channel(interaction.channel_id)
        posted = await postable(found or interaction.channel).send(**kwargs)
        await interaction.followup.send(f"The {what} is posted: {posted.jump_url}", ephemeral=True)

    async def chouette_review(self, session_id: int) -> str:
        """The cube review of chouette ``session_id`` (:func:`club.analysis.chouette.review_chouette`)."""
        from club.analysis.chouette import review_chouette

        return await review_chouette(self.bot.chouettes, session_id, pool=self.pool)

    async def _view_here(self, interaction: Interaction, match_id: int) -> TableView:
        await frontend.in_club(self.bot.service, match_id, interaction.guild_id)  # club isolation (RULES A2)
        return await self.bot.service.state(match_id)

    @commands.Cog.listener()
    async def on_match_finished(self, view: TableView) -> None:
        """A match or money session ended: post its review in the game's thread (with the engine), then its
        highlight (:mod:`club.highlight`: by the review's equities, else by the pip count and the cube) unless the
        club turned highlights off."""
        analysis = None
        home = await self.bot.publisher.home(view.match_id)
        if engine_available():
            due = await notices.review_due(self.bot.service, view.match_id)
            if due is not None:
                analysis = await self.post_review(due)
        try:
            guild_id = await self.bot.service.guild_of(view.club_id)
            if home is None or guild_id is None or not (await self.bot.service.club_settings(guild_id)).highlights:
                return
            found = await match_highlight(
                self.bot.service, view.match_id, analysis=analysis, options=self.bot.board_options
            )
            if found is not None:
                await home.send(**self.highlight_kwargs(found))
        except Exception:
            log.exception("could not post the highlight of match %s", view.match_id)

    async def post_review(self, due: notices.DueReview):
        """Compute the review ``due`` (its PRs kept as it is computed) and post it in the game's home, once (the
        post's nonce), then mark it posted; returns its analysis, or None when it failed (logged; tried again at the
        next start)."""
        try:
            review = await self.review_of(due.match_id)
            home = await self.bot.publisher.home(due.match_id)
            if home is not None:
                await home.send(**self.review_kwargs(review), nonce=due.nonce)
        except Exception:
            log.exception("could not post the review of match %s", due.match_id)
            await notices.review_failed(self.bot.service, due)
            return None
        await notices.review_posted(self.bot.service, due)
        return review.analysis

    async def resume_reviews(self) -> None:
        """Post the reviews recorded at a match's end and not posted (the bot stopped while it computed them)."""
        try:
            for due in await notices.reviews_due(self.bot.service):
                await self.post_review(due)
        except Exception:
            log.exception("could not resume the reviews")

    # -- quiz ---------------------------------------------------------------------------------------------------------
    @app_commands.command(description="A quiz poll from the club's recent games; the answer when the poll closes")
    @app_commands.describe(hours="How long the poll stays open (1–168 hours, default 24)")
    async def quiz(self, interaction: Interaction, hours: app_commands.Range[int, 1, 168] | None = None) -> None:
        """``/study quiz [hours]``: post a quiz (:mod:`club.quiz`) here as a Discord poll with its board picture;
        revealed when the poll's final results arrive (:meth:`reveal`)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/study quiz", hours=hours):
            if await engine_member(interaction) is None:
                return
            number = await self.post_quiz(guild_of(interaction), interaction.channel, hours or DEFAULT_QUIZ_HOURS)
            await interaction.followup.send(f"Quiz {number} is posted; the answer comes when the poll closes.",
                                            ephemeral=True)  # fmt: skip

    async def post_quiz(self, guild_id: int, channel, hours: int) -> int:
        """Pick, store and post a quiz in ``channel`` as a poll open ``hours``; returns its number. Raises
        :class:`~club.quiz.NoQuizError` as an :class:`InvalidRequestError` (its message says why)."""
        try:
            new = await start_quiz(
                self.bot.service, guild_id, channel.id, self.pool, hours=hours, options=self.bot.board_options
            )
        except NoQuizError as error:
            raise InvalidRequestError(str(error)) from None
        poll = discord.Poll(question=new.question.poll_question(new.number, new.show_names),
                            duration=datetime.timedelta(hours=new.hours))  # fmt: skip
        for answer in new.question.answers():
            poll.add_answer(text=answer)
        try:
            message = await channel.send(
                file=discord.File(io.BytesIO(new.png), filename=f"quiz-{new.number}.png"), poll=poll
            )
        except BaseException:
            await quiz_posted(self.bot.service, new.quiz_id, None)
            raise
        await quiz_posted(self.bot.service, new.quiz_id, message.id)
        return new.number

    @app_commands.command(description="The club's quiz leaderboard")
    async def quizboard(self, interaction: Interaction) -> None:
        """``/study quizboard``: who found the best play most often in the club's quizzes."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/study quizboard"):
            lines = await club_leaderboard(self.bot.service, guild_of(interaction))
            await interaction.followup.send("\n".join(lines)[:2000], ephemeral=True,
                                            allowed_mentions=discord.AllowedMentions.none())  # fmt: skip

    @app_commands.command(description="Club admins: the quiz schedule and options, automatic highlights")
    @app_commands.describe(
        every_days="Post a quiz every this many days (0 = only /study quiz)",
        channel="Channel of the scheduled quizzes",
        names="Quizzes say whose game a position came from",
        threshold="Equity a play must lose to be asked (0.04–1)",
        highlights="Post each finished match's turning point",
    )
    @app_commands.check(is_club_admin)
    async def options(
        self,
        interaction: Interaction,
        every_days: app_commands.Range[int, 0, 365] | None = None,
        channel: discord.TextChannel | None = None,
        names: bool | None = None,
        threshold: app_commands.Range[float, 0.04, 1.0] | None = None,
        highlights: bool | None = None,
    ) -> None:
        """``/study options``: the club's learning options (:class:`club.settings.ClubSettings` ``quiz_days``,
        ``quiz_channel``, ``quiz_names``, ``quiz_threshold``, ``highlights``), shown and changed."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/study options"):
            changes = {
                "quiz_days": every_days, "quiz_channel": None if channel is None else channel.id, "quiz_names": names,
                "quiz_threshold": threshold, "highlights": highlights,
            }  # fmt: skip
            settings = await self.bot.service.configure_club(guild_of(interaction), **changes)
            where = f"<#{settings.quiz_channel}>" if settings.quiz_channel else "no channel set"
            await interaction.followup.send(options_text(settings, where), ephemeral=True)

    async def cog_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError):
        """Check failures (``/study options`` for admins only) and option errors end up here (:mod:`cogs.errors`)."""
        command = getattr(interaction.command, "qualified_name", None) or "study"
        await report(interaction, error, context={"what": f"/{command}"})

    @commands.Cog.listener()
    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        """A poll's final results arrived (Discord's MESSAGE_UPDATE with ``is_finalized``): reveal its quiz."""
        poll = payload.data.get("poll") if isinstance(payload.data, dict) else None
        if not poll or not (poll.get("results") or {}).get("is_finalized"):
            return
        try:
            for record in await pending_quizzes(self.bot.service, message_id=payload.message_id):
                await self.reveal(record)
        except Exception:
            log.exception("could not reveal the quiz of poll %s", payload.message_id)

    async def reveal(self, record) -> bool:
        """Reveal quiz ``record`` when its poll's results are final (read from Discord: the voters of each
        answer); returns True when revealed. A poll not final yet is left for later (Discord's counts may still
        change); a poll deleted is revealed without votes."""
        channel = postable(self.bot.get_channel(record.channel_id) or await self.bot.fetch_channel(record.channel_id))
        votes: dict[int, list[tuple[int, str]]] = {}
        try:
            message = await channel.fetch_message(record.message_id)
        except discord.NotFound:
            message = None
        if message is not None:
            if message.poll is None or not message.poll.is_finalized():
                return False
            for index, answer in enumerate(message.poll.answers):
                votes[index] = [(user.id, user.display_name) async for user in answer.voters()]
        found = await reveal_quiz(self.bot.service, record, votes, options=self.bot.board_options)
        if found is None:
            return False
        await channel.send(
            found.text, file=discord.File(io.BytesIO(found.png), filename=f"quiz-answer-{record.id}.png"),
            allowed_mentions=discord.AllowedMentions.none(),
            reference=discord.utils.MISSING if message is None else message.to_reference(fail_if_not_exists=False),
        )  # fmt: skip
        return True

    async def quiz_tick(self) -> None:
        """Reveal the quizzes whose polls should have closed (after a restart too), and post the scheduled ones
        that are due (``quiz_days``); run by the one reminder loop (:meth:`cogs.reminders.Reminders.tick`).
        Failures are logged; the next tick tries again."""
        try:
            for record in await pending_quizzes(self.bot.service, due=True):
                await self.reveal(record)
        except Exception:
            log.exception("could not reveal the quizzes due")
        if not engine_available():
            return
        for guild in list(self.bot.guilds):
            try:
                if await quiz_due(self.bot.service, guild.id):
                    settings = await self.bot.service.club_settings(guild.id)
                    channel = self.bot.get_channel(settings.quiz_channel)
                    if channel is not None:
                        await self.post_quiz(guild.id, channel, DEFAULT_QUIZ_HOURS)
            except Exception:
                log.exception("could not post the scheduled quiz of guild %s", guild.id)

    # -- blunders -----------------------------------------------------------------------------------------------------
    @app_commands.command(
        description="A member's costliest plays and cube decisions in recent finished matches (private unless shared)"
    )
    @app_commands.describe(
        member="Whose (default: yours)", count="How many (1–5, default 3)", share="Post it for everyone (yours only)"
    )
    async def blunders(
        self,
        interaction: Interaction,
        member: discord.Member | None = None,
        count: app_commands.Range[int, 1, 5] | None = None,
        share: bool = False,
    ) -> None:
        """``/study blunders [member] [count] [share]``: the costliest decisions (:mod:`club.blunders`), each with its
        board, the play made, the best play and the equity lost; only the asker sees it unless he shares his own."""
        if share and member is not None and member.id != interaction.user.id:
            share = False
        await interaction.response.defer(ephemeral=not share, thinking=True)
        async with guarded(interaction, "/study blunders", count=count, share=share):
            if await engine_member(interaction) is None:
                return
            who = member or interaction.user
            found = await member_blunders(
                self.bot.service, guild_of(interaction), who.id, who.display_name, self.pool, count=count or 3,
                options=self.bot.board_options,
            )  # fmt: skip
            files = [discord.File(io.BytesIO(png), filename=name) for name, png in found.images]
            await interaction.followup.send(found.text, files=files, ephemeral=not share)

    # -- highlights -------------------------------------------------------------------------------------------------
    @staticmethod
    def highlight_kwargs(found: Highlight) -> dict:
        """``send`` keyword arguments for a highlight: its caption and the animation."""
        return {"content": found.caption[:2000], "file": discord.File(io.BytesIO(found.data), filename=found.filename)}

    @app_commands.command(description="The turning point of a finished match, animated checker by checker")
    @app_commands.describe(game="Match number (default: the match of this thread)")
    async def highlight(self, interaction: Interaction, game: GameOption | None = None) -> None:
        """``/study highlight [game]``: the animated turning point of a finished match (by the engine's equity when
        it is installed, else by the pip count and the cube), posted in this channel; refused while the match is
        played (RULES 003 1.5). The answer and every refusal are private."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/study highlight", game=game):
            await flow.register(interaction)
            match_id = game or await self.bot.publisher.here(interaction.channel_id, open_only=False)
            if match_id is None:
                raise InvalidRequestError("Say which match: /study highlight game:<its number>.")
            await self._view_here(interaction, match_id)
            found = await match_highlight(self.bot.service, match_id, pool=self.pool, options=self.bot.board_options)
            if found is None:
                await interaction.followup.send(f"Match #{match_id} has no checker play to show.", ephemeral=True)
                return
            await self._post_here(interaction, f"highlight of match #{match_id}", **self.highlight_kwargs(found))

    # -- hints ------------------------------------------------------------------------------------------------------
    @app_commands.command(description="Best plays or cube advice for a position given by ID (not in games in play)")
    @app_commands.describe(position="gnubg Position ID, e.g. 4HPwATDgc/ABMA", dice="The roll, e.g. 64 (none: cube)")
    async def hint(self, interaction: Interaction, position: str | None = None, dice: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with guarded(interaction, "/study hint", position=position, dice=dice):
            member = await flow.register(interaction)
            here = await self._check_hint_allowed(interaction, member, position)
            if not await engine_ready(interaction):
                return
            if position is None:  # allowed only in a practice game's thread: its current position and dice
                practice = await practice_request(self.bot.service, member, here)
                if practice is None:
                    raise InvalidRequestError("Give the position: /study hint position:<Position ID> dice:<roll>.")
                found, rolled, cube = practice
            else:
                (found, rolled), cube = parse_request(position, dice), CubeState()
            result = await self.pool.run(hint_task, found.position_id(), rolled, cube, HINT_LEVEL)
            await interaction.followup.send(hint_text(found, rolled, result, HINT_LEVEL).text, ephemeral=True)

    async def _check_hint_allowed(self, interaction: Interaction, member: int, position: str | None) -> int | None:
        """Raise the refusal when a hint is not allowed here (:func:`club.analysis.hints.check_hint_allowed`);
        returns the match of this thread (None outside one)."""
        chouettes, channel_id = self.bot.chouettes, interaction.channel_id
        chouette_here = None if chouettes is None or channel_id is None else await chouettes.session_in(channel_id)
        here = await self.bot.publisher.here(interaction.channel_id)
        await check_hint_allowed(
            self.bot.service, member, interaction.guild_id, position, here=here, chouette_here=chouette_here
        )
        return here


async def setup(bot: ClubBot) -> None:
    """Load the ``/study`` cog."""
    await bot.add_cog(Study(bot))
