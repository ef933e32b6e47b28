"""One clock for every table (RULES A2, M5, C5, C9): one deadline model, one :func:`run_due`, one reminder loop.

Every decision a table waits for has a deadline stored with the table (written in the same transaction as the
action that made it pending, so a restart loses none). Whatever the table, a deadline is the same thing — a
:class:`Deadline`: ``subject`` must decide, ``actor`` may decide now (the subject himself, ``stage`` ``"member"``,
or his proxy / the Captain once he missed it, ``stage`` ``"proxy"``), set at table ``version`` — and the same
life: reminders at the club's hours before ``due_at``, then one expiry. :func:`due` says what is due at a time;
:func:`run_due` fires it: each reminder and each expiry fires **once** (the firing is recorded before it is
returned; reminders overtaken while the bot was down collapse into one). The clock is injected: pass ``now``.

What differs between the tables stays a hook of the table (a :class:`~club.clocks.TableClock`, in
:mod:`club.clocks`), not a silent harmonisation:

- how a deadline is read and when a stored one is still the same (the 1-on-1: the match version; the chouette: the
  actor, stage, turn mark and version);
- what happens at the expiry — the 1-on-1 (:class:`MatchClock`): an unanswered challenge lapses, otherwise the
  club's ``expiry_policy`` (``nothing``: the players are told once and play continues when the late member acts;
  ``forfeit_game``; ``forfeit_match``); the chouette (:class:`ChouetteClock`): the late member is marked away for
  his proxy, or the policy decides (:meth:`club.chouette.service.ChouetteService.expire`).

A member who acts before the expiry has fired replaces the deadline, and a late firing is then refused by the
table's staleness check (the action wins). A bot runs ``await run_due(clocks)`` every minute or so
(:mod:`cogs.reminders`) and sends each :class:`Notice`.
"""

from __future__ import annotations

from storage.lease import Lease as Lease  # the scheduler's lease, for the front ends (they import no storage)

from .clocks import ChouetteClock, Deadline, MatchClock, Notice, NoticeKind, TableClock
from .correspondence import before_expiry, roll_for_late_doublers


def _clocks(tables) -> list[TableClock]:
    """``tables`` as hooks: a :class:`TableClock`, a :class:`ClubService` (its matches), a :class:`ChouetteService`
    (its chouettes), or a list of these."""
    if isinstance(tables, (list, tuple)):
        return [clock for item in tables for clock in _clocks(item)]
    if hasattr(tables, "due_deadlines"):
        return [tables]
    if hasattr(tables, "store") and hasattr(tables, "club"):
        return [ChouetteClock(tables)]
    return [MatchClock(tables)]


async def due(clocks, now: float | None = None) -> list[tuple[NoticeKind, Deadline]]:
    """What is due at ``now`` (default: each table's clock) as ``(kind, deadline)``, without firing anything.
    ``clocks``: as for :func:`run_due`."""
    items = []
    for clock in _clocks(clocks):
        at = clock.now() if now is None else now
        for deadline in await clock.due_deadlines(at):
            kind = deadline.classify(at)
            if kind is not None:
                items.append((kind, deadline))
    return items


async def run_due(clocks, now: float | None = None) -> list[Notice]:
    """Fire everything due at ``now`` (default: each table's clock) on every table of ``clocks`` — a
    :class:`TableClock`, a :class:`ClubService` (its matches), a :class:`ChouetteService` (its chouettes), or a list
    of these; returns the notices to send, each once, each recorded pending (:mod:`club.notices`) in the very
    transaction of what fired it: a reminder's or an expiry's mark on its deadline, a deadline moved (an away
    period, an away day), or the club's own step (a forfeit, a lapse, a proxy's turn, an auto-roll)."""
    notices = []
    for clock in _clocks(clocks):
        at = clock.now() if now is None else now
        fired = []
        if isinstance(clock, MatchClock):  # a member's opt-in: roll for him once his roll_after hours are up
            fired += await roll_for_late_doublers(clock.service, at)
        for kind, deadline in await due(clock, at):
            if kind == NoticeKind.REMINDER:
                notice = await _remind(clock, deadline, at)
            else:
                notice = await before_expiry(clock, deadline, at)
                if notice is None:
                    notice = await clock.expire(deadline, at)
            if notice is not None:
                fired.append(notice)
        notices += fired
    return notices


async def _remind(clock: TableClock, deadline: Deadline, now: float) -> Notice | None:
    names = await clock.names([deadline.subject, deadline.actor])
    actor = names.get(deadline.actor, str(deadline.actor))
    whose = "" if deadline.actor == deadline.subject else f" for {names.get(deadline.subject, deadline.subject)}"
    hours = max(0.0, (deadline.due_at - now) / 3600)
    text = (
        f"Reminder: {actor}, you have {hours:.1f} hours left to {clock.words(deadline.pending)}{whose} "
        f"in {clock.noun} {deadline.table_id}."
    )
    notice = Notice(NoticeKind.REMINDER, deadline.table, deadline.table_id, deadline.subject, deadline.actor,
                    deadline.pending, deadline.due_at, text, (deadline.actor,))  # fmt: skip
    return notice if await clock.mark_reminded(deadline, now, notice) else None
