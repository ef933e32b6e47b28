"""Time limits (RULES A2, M5, C5, C9): the one reminder loop. It fires what :func:`club.scheduler.run_due` says is
due on every table — the 1-on-1 matches (:class:`club.clocks.MatchClock`) and, when ``cogs.chouette`` is loaded,
the chouettes (:class:`club.clocks.ChouetteClock`) — and posts each notice where its table is shown: a match's
in its thread (:meth:`cogs.publish.Publisher.post_notice`), a chouette's in its channel
(the same :meth:`~cogs.publish.Publisher.post_notice`). Each notice fires once, even across restarts (the
scheduler records the firing before returning it) and is posted at least once and shown once: recorded pending
with its firing, posted, then marked posted (:mod:`club.notices`); what a killed process left pending is posted by
the next round, in this process after a restart or in the one that takes the lease over. The events' deadlines
run in the same round, before the posting: their claim notices are pending in the outbox like the others, and the
events' news a killed process left pending is posted too (:meth:`cogs.event.EventCog.post_pending`).

Two bot processes on one PostgreSQL database: only the one holding the scheduler's lease
(:meth:`storage.Database.scheduler_lease`, an advisory lock) runs a round; the other asks again every round and takes
over when the leader's process dies. On SQLite the lease is always granted."""

from __future__ import annotations

import logging

from discord.ext import commands, tasks

from club import notices
from club.clocks import Notice, clocks_of
from club.scheduler import Lease, run_due

from .host import REMINDER_SECONDS, ClubBot

log = logging.getLogger("bgclub.discord")


class Reminders(commands.Cog):
    """Runs :meth:`tick` every ``[scheduler] interval_seconds`` (default :data:`REMINDER_SECONDS`) while the bot is
    connected."""

    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        self.lease: Lease | None = None  # the scheduler's lease, taken on the first round

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Start the loop once connected (``on_ready`` fires again after a reconnect: start it only once)."""
        if not self.loop.is_running():
            self.loop.change_interval(seconds=self.bot.reminder_seconds)
            self.loop.start()

    async def cog_unload(self) -> None:
        """Stop the loop and give the scheduler's lease up."""
        self.loop.cancel()
        if self.lease is not None:
            await self.lease.release()

    def clocks(self):
        """The tables' hooks: matches, and chouettes when their cog is loaded."""
        return clocks_of(self.bot.service, self.bot.chouettes)

    async def tick(self) -> list[Notice]:
        """Fire everything due now on every table and the events' deadlines, then post every notice pending
        (:meth:`post_pending`) and the events' news pending (:meth:`cogs.event.EventCog.post_pending`), if this
        process holds the scheduler's lease (else nothing: another process runs the scheduler); returns the notices
        posted. A notice that cannot be posted is logged, stays pending, and the others still go out."""
        if self.lease is None:
            self.lease = self.bot.service.scheduler_lease()
        if not await self.lease.hold():
            return []
        fired = await run_due(self.clocks())
        events = getattr(self.bot, "events", None)
        if events is not None:  # the events' own deadlines: their claim notices are pending, posted just below
            try:
                await events.tick()
            except Exception:
                log.exception("the events' deadlines failed this round")
        notices = await self.post_pending(fired)
        # Looked up by name: discord.py loads each extension as a fresh module, so its class is not the one this
        # module could import (isinstance would never hold).
        post_news = getattr(self.bot.get_cog("EventCog"), "post_pending", None)
        if post_news is not None:  # what events did that a killed process left unposted (cogs.event)
            await post_news()
        quiz_tick = getattr(self.bot.get_cog("Study"), "quiz_tick", None)
        if quiz_tick is not None:  # quizzes: reveals due, scheduled quizzes (cogs.study)
            await quiz_tick()
        return notices

    async def post_pending(self, fired: list[Notice]) -> list[Notice]:
        """Post every notice recorded and not posted yet (:mod:`club.notices`) — those just ``fired``, and any a
        process killed before it posted them — each marked posted once it is; returns those posted. A notice that
        cannot be posted is logged, stays pending for the next round, and the others still go out."""
        service, done = self.bot.service, []
        for item in await notices.pending(service, fired):
            notice = item.notice
            try:
                await self.bot.publisher.post_notice(notice, nonce=item.nonce)
            except Exception:
                log.exception("could not post the %s of %s %s", notice.kind, notice.table, notice.table_id)
                await notices.failed(service, item)
                continue
            await notices.posted(service, item)
            done.append(notice)
        return done

    @tasks.loop(seconds=REMINDER_SECONDS)
    async def loop(self) -> None:
        """One round of :meth:`tick`, errors logged (the loop keeps running)."""
        try:
            notices = await self.tick()
        except Exception:
            log.exception("the reminder loop failed this round")
            return
        if notices:
            log.info("sent %d time-limit notice(s)", len(notices))


async def setup(bot: ClubBot) -> None:
    """Load the extension."""
    await bot.add_cog(Reminders(bot))
