"""Time limits (RULES A2, M5): reminders before a deadline and the club's policy at it.

Every pending action has a deadline stored with its match (``deadlines`` table), written in the same transaction as
the action that made it pending — so a restart loses none. :func:`due` says what is due at a given time;
:func:`run_due` fires it: each reminder and each expiry fires **once** (the firing is recorded in the database
before it is returned; a reminder that could not be sent because the bot was down is not repeated later, and
reminders overtaken while the bot was down collapse into one). The clock is injected: pass ``now``.

At expiry: an unanswered challenge lapses; otherwise the club's ``expiry_policy`` applies — ``nothing`` (the players
are told once; play continues when the late member acts), ``forfeit_game`` or ``forfeit_match``
(:mod:`club.settings`). A member who acts before the expiry has fired replaces the deadline, and a late firing
is then refused by the version check (the action wins).

A bot runs ``await run_due(service)`` every minute or so (or sleeps until ``service.db.next_deadline_at()``) and
sends each :class:`Notice`.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage import DeadlineRecord

from .describe import pending_words
from .errors import ClubError, StaleVersionError
from .results import Outcome
from .service import ClubService
from .settings import ClubSettings


@dataclass(frozen=True, slots=True)
class Due:
    """What is due for one match at a time: ``kind`` ``reminder`` or ``expiry``, for ``member_id`` who must
    ``pending`` by ``due_at``."""

    kind: str
    match_id: int
    member_id: int
    pending: str
    due_at: float
    version: int


@dataclass(frozen=True, slots=True)
class Notice:
    """A fired reminder or expiry to send. ``outcome`` is set when the club acted (a lapse or a forfeit);
    ``text`` says it in words; ``notify`` are the members to tell."""

    kind: str
    match_id: int
    member_id: int
    pending: str
    due_at: float
    text: str
    notify: tuple[int, ...]
    outcome: Outcome | None = None


def _classify(deadline: DeadlineRecord, now: float) -> str | None:
    if deadline.next_at is None or deadline.next_at > now:
        return None
    if now >= deadline.due_at:
        return "expiry" if deadline.expired_at is None else None
    return "reminder" if any(at <= now for at in deadline.reminders) else None


async def due(service: ClubService, now: float | None = None) -> list[Due]:
    """What is due at ``now`` (default: the service's clock), without firing anything."""
    now = service.clock.now() if now is None else now
    items = []
    for deadline in await service.db.due_deadlines(now):
        kind = _classify(deadline, now)
        if kind is not None:
            items.append(
                Due(kind, deadline.match_id, deadline.member_id, deadline.pending, deadline.due_at, deadline.version)
            )
    return items


async def run_due(service: ClubService, now: float | None = None) -> list[Notice]:
    """Fire everything due at ``now`` (default: the service's clock); returns the notices to send, each once."""
    now = service.clock.now() if now is None else now
    notices = []
    for item in await due(service, now):
        notice = await _fire(service, item, now)
        if notice is not None:
            notices.append(notice)
    return notices


async def _fire(service: ClubService, item: Due, now: float) -> Notice | None:
    db = service.db
    async with service._lock_for(item.match_id):
        deadline = await db.get_deadline(item.match_id)
        if deadline is None or deadline.version != item.version or _classify(deadline, now) != item.kind:
            return None  # someone acted, or another scheduler fired it
        match = await db.get_match(item.match_id)
        names = await service._names(match.players)
        who = names.get(item.member_id, str(item.member_id))
        what = pending_words(item.pending)
        if item.kind == "reminder":
            left = [at for at in deadline.reminders if at > now]
            marked = await db.mark_deadline(
                item.match_id,
                item.version,
                reminders=left,
                reminders_sent=deadline.reminders_sent + 1,
                expired_at=None,
                next_at=min([*left, deadline.due_at]),
            )
            if not marked:
                return None
            hours = max(0.0, (deadline.due_at - now) / 3600)
            text = f"Reminder: {who}, you have {hours:.1f} hours left to {what} in match {item.match_id}."
            return Notice("reminder", item.match_id, item.member_id, item.pending, item.due_at, text, (item.member_id,))
        club = await db.get_club_by_id(match.club_id)
        policy = "lapse" if item.pending == "answer_challenge" else ClubSettings.from_json(club.settings).expiry_policy
        if policy == "nothing":
            marked = await db.mark_deadline(
                item.match_id,
                item.version,
                reminders=(),
                reminders_sent=deadline.reminders_sent,
                expired_at=now,
                next_at=None,
            )
            if not marked:
                return None
            text = f"Time is up: {who} did not {what} in time in match {item.match_id}. The club waits for the move."
            return Notice("expiry", item.match_id, item.member_id, item.pending, item.due_at, text, match.players)
    # the club acts through the use-case layer (its own lock and version check)
    side = match.players.index(item.member_id)
    what_to_do = {"lapse": "lapse", "forfeit_game": "forfeit", "forfeit_match": "forfeit_match"}[policy]
    try:
        outcome = await service.expire(
            item.match_id, None if what_to_do == "lapse" else side, what_to_do, version=item.version
        )
    except StaleVersionError:
        return None
    except ClubError:
        return None
    text = f"Time is up for {who} in match {item.match_id}.\n{outcome.message}"
    return Notice("expiry", item.match_id, item.member_id, item.pending, item.due_at, text, match.players, outcome)
