"""Chouette deadlines (RULES A2, C5, C9) on the club's scheduler machinery (:mod:`club.scheduler`).

Every decision a chouette waits for has a row in ``chouette_deadlines`` written with the action that made it due, so
a restart loses none. :func:`due` lists what is due at a time; :func:`run_due` fires each reminder and expiry
**once** (recorded before it is returned; reminders overtaken while the bot was down collapse into one), exactly as
:func:`club.scheduler.run_due` does for matches, and the clock is injected the same way. At an expiry the club acts
through :meth:`ChouetteService.expire <club.chouette.service.ChouetteService.expire>`: the late member is marked away
and his proxy (or the Captain) is pinged, or the club's policy decides.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..scheduler import _classify
from .service import ChouetteService
from .table import DECISION_KINDS
from .views import DECISION_WORDS, ChouetteOutcome


@dataclass(frozen=True, slots=True)
class ChouetteNotice:
    """A fired chouette reminder or expiry to post: ``kind`` (``reminder``/``expiry``), the session, whose decision
    (``subject``), who may make it (``actor``), ``text``, ``ping`` (the members to mention) and the ``outcome``
    when the club acted."""

    kind: str
    session_id: int
    subject: int
    actor: int
    pending: str
    due_at: float
    text: str
    ping: tuple[int, ...]
    outcome: ChouetteOutcome | None = None


async def due(chouettes: ChouetteService, now: float | None = None):
    """The chouette deadlines with a reminder or an expiry due at ``now`` (default the clock), with their kind:
    a list of ``(kind, deadline)``; nothing is fired."""
    now = chouettes.clock.now() if now is None else now
    items = []
    for deadline in await chouettes.store.due_deadlines(now):
        kind = _classify(deadline, now)
        if kind is not None:
            items.append((kind, deadline))
    return items


async def run_due(chouettes: ChouetteService, now: float | None = None) -> list[ChouetteNotice]:
    """Fire every chouette reminder and expiry due at ``now``; returns the notices to post, each once."""
    now = chouettes.clock.now() if now is None else now
    notices = []
    for kind, deadline in await due(chouettes, now):
        names = await chouettes.club._names([deadline.subject_id, deadline.actor_id])
        subject = names.get(deadline.subject_id, str(deadline.subject_id))
        actor = names.get(deadline.actor_id, str(deadline.actor_id))
        what = DECISION_WORDS.get(deadline.pending, deadline.pending) if deadline.pending in DECISION_KINDS else "act"
        if kind == "reminder":
            left = [at for at in deadline.reminders if at > now]
            marked = await chouettes.store.mark_deadline(
                deadline, reminders=left, reminders_sent=deadline.reminders_sent + 1, expired_at=None
            )
            if not marked:
                continue
            hours = max(0.0, (deadline.due_at - now) / 3600)
            whose = "" if deadline.actor_id == deadline.subject_id else f" for {subject}"
            text = f"Reminder: {actor}, you have {hours:.1f} hours left to {what}{whose}"
            text += f" in chouette {deadline.session_id}."
            notices.append(ChouetteNotice("reminder", deadline.session_id, deadline.subject_id, deadline.actor_id,
                                          deadline.pending, deadline.due_at, text, (deadline.actor_id,)))  # fmt: skip
            continue
        fired = await chouettes.expire(deadline)
        if fired is None:
            continue
        text, outcome = fired
        if outcome is not None:
            text = f"{text}\n{outcome.message}".strip()
            ping = outcome.ping
        else:
            ping = (deadline.actor_id,)
        notices.append(ChouetteNotice("expiry", deadline.session_id, deadline.subject_id, deadline.actor_id,
                                      deadline.pending, deadline.due_at, text, ping, outcome))  # fmt: skip
    return notices
