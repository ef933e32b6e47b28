"""What the club does when a chouette deadline passes (RULES A2, C5, C9): the hook of the one clock
(:class:`club.clocks.ChouetteClock`) — mark the late member away for his proxy, or decide by the club's policy
(:func:`club.chouette.step.policy_decision`); a late Team player is marked away and an Acting Captain plays on
(RULES C9) while another Team member is present in the game, else the board's rolls and plays follow the club's
``expiry_policy``.

:class:`ChouetteExpiry` belongs to one :class:`~club.chouette.service.ChouetteService`, whose ``expire`` it serves
(with the service's store, steps and finishing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from backgammon.chouette.cubes import TEAM_SIDE
from backgammon.errors import ChouetteError
from storage.chouettes import ChouetteDeadline

from ..clocks import StepNotice
from ..settings import ExpiryPolicy
from ..vocabulary import ChouetteAction
from .step import ChouetteStep, policy_decision
from .table import Awaited, DeadlineStage, Pending, name

if TYPE_CHECKING:
    from .service import ChouetteService
    from .views import ChouetteOutcome


class ChouetteExpiry:
    """The deadline hook of the chouette ``service`` (see the module docstring)."""

    def __init__(self, service: ChouetteService) -> None:
        self.service = service

    async def expire(
        self, deadline: ChouetteDeadline, notice: StepNotice | None = None
    ) -> tuple[str, ChouetteOutcome | None] | None:
        """The club acts at ``deadline`` (expired): marks the member away for his proxy, or decides by the policy
        (module docstring). Returns ``(what happened in words, outcome or None)``; None when the deadline changed
        meanwhile (someone acted) or the rules refuse the policy's decision now (5.8 order: tried again later). A
        game it starts whose opening waits for its beacon round has it fetched, out of the lock, like a member's
        action (:meth:`~club.chouette.service.ChouetteService._beacon_roll`). ``notice`` (built from ``(words,
        outcome or None)``) is recorded pending in the same transaction as what the club did."""
        steps: list[ChouetteStep] = []
        result = await self._expire(deadline, steps, notice)
        if result is None:
            return None
        text, outcome = result
        if outcome is None:
            return result
        due = steps[0].book.beacon_due()
        return (text, outcome) if due is None else (text, await self.service._beacon_roll(outcome, due))

    async def _expire(
        self, deadline: ChouetteDeadline, steps: list[ChouetteStep], notice: StepNotice | None
    ) -> tuple[str, ChouetteOutcome | None] | None:
        service = self.service
        lock = service.club._lock_for(("chouette", deadline.session_id))
        async with lock:
            current = {d.subject_id: d for d in await service.store.deadlines(deadline.session_id)}.get(
                deadline.subject_id
            )
            if current != deadline:
                return None
            step = await service._load_step(deadline.session_id)
            steps.append(step)
            table = step.table
            pending = next((p for p in table.pending() if p.subject == deadline.subject_id), None)
            if pending is None or pending.actor != deadline.actor_id:
                return None
            who = step.names.get(pending.subject, str(pending.subject))
            board_turn = pending.pending in (Awaited.ROLL, Awaited.PLAY)
            if board_turn and table.live_board.turn == TEAM_SIDE and table.session.stand_in_candidate():
                step.log(ChouetteAction.AWAY, None, {"member": pending.subject})  # an Acting Captain plays on (C9)
            elif board_turn:
                if step.settings.expiry_policy == ExpiryPolicy.NOTHING:
                    text = f"Time is up: {who} did not {pending.pending} in time. The chouette waits for them."
                    if not await service.store.mark_deadline(deadline, reminders=(), reminders_sent=deadline.reminders_sent,
                                                             expired_at=step.now,
                                                             notice=None if notice is None else notice.recorded(text, None)):  # fmt: skip
                        return None  # another bot on the same database fired it first
                    return text, None
                step.log(ChouetteAction.FORFEIT, None, {"side": table.live_board.turn})
            elif (
                deadline.stage == DeadlineStage.MEMBER
                and pending.pending != Awaited.BOX_ANSWER
                and name(pending.subject) not in table.session.away
            ):
                step.log(ChouetteAction.AWAY, None, {"member": pending.subject})
                again = next((p for p in table.pending() if p.subject == pending.subject), None)
                if again is not None and again.actor == pending.subject:
                    self._decide_by_policy(step, again)
            else:
                try:
                    self._decide_by_policy(step, pending)
                except ChouetteError:
                    return None
            text = f"Time is up for {who}."
            return text, await service._finish(step, None, notice, (text,))

    @staticmethod
    def _decide_by_policy(step: ChouetteStep, pending: Pending) -> None:
        kind, args = policy_decision(step.table, pending)
        step.log(kind, None, args)
