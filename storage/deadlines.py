"""The deadlines of 1-on-1 matches (table ``deadlines``, through the one store :mod:`storage.store`), a mixin of
:class:`storage.database.Database` (RULES A2: time limits; away days and more time move a deadline)."""

from __future__ import annotations

from collections.abc import Sequence

from .records import DeadlineRecord, dumps


class MatchDeadlines:
    """Deadline methods for :class:`~storage.database.Database` (uses its ``store``, ``transaction`` and
    ``_fetchall``)."""

    # -- deadlines --------------------------------------------------------------------------------------------------
    async def get_deadline(self, match_id: int) -> DeadlineRecord | None:
        """The deadline of match ``match_id``'s pending action, or None."""
        rows = await self.store.deadlines(("match", match_id))
        return DeadlineRecord.from_row(rows[0]) if rows else None

    async def due_deadlines(self, now: float, limit: int = 500) -> list[DeadlineRecord]:
        """Deadlines with a reminder or an expiry due at ``now`` (``next_at <= now``), earliest first."""
        return [DeadlineRecord.from_row(row) for row in await self.store.due_deadlines("match", now, limit)]

    async def next_deadline_at(self) -> float | None:
        """When the next reminder or expiry is due (for a scheduler's sleep), or None."""
        return await self.store.next_deadline_at("match")

    async def mark_deadline(
        self,
        match_id: int,
        version: int,
        *,
        reminders: Sequence[float],
        reminders_sent: int,
        expired_at: float | None,
        next_at: float | None,
        at: float | None = None,
    ) -> bool:
        """Record that reminders or the expiry fired, if the deadline still belongs to match version ``version``;
        ``at`` = the clock then (default ``expired_at``; :meth:`storage.store.Store.mark_deadline`).

        Returns False (nothing written) when the deadline has been replaced meanwhile (someone acted)."""
        return await self.store.mark_deadline(
            ("match", match_id), {"version": version}, reminders=reminders, reminders_sent=reminders_sent,
            expired_at=expired_at, next_at=next_at, at=at,
        )  # fmt: skip

    async def deadlines_pending(self, pending: str, limit: int = 5000) -> list[DeadlineRecord]:
        """The deadlines awaiting ``pending`` (e.g. ``roll_or_double``), oldest first: one per waiting match."""
        rows = await self._fetchall(
            "SELECT * FROM deadlines WHERE pending = ? ORDER BY set_at, match_id LIMIT ?", (pending, int(limit))
        )
        return [DeadlineRecord.from_row(row) for row in rows]

    async def move_deadline(self, match_id: int, version: int, *, due_at: float, reminders: Sequence[float]) -> bool:
        """Move the deadline of match ``match_id`` (still set at ``version``) to ``due_at`` with the reminder times
        ``reminders`` (an away period, an away day, more time given): its expiry may fire again. False (nothing
        written) when the deadline was replaced meanwhile."""
        left = sorted(at for at in reminders if at < due_at)
        async with self.transaction() as tx:
            changed = await tx.execute(
                "UPDATE deadlines SET due_at = ?, reminders = ?, expired_at = NULL, next_at = ? "
                "WHERE match_id = ? AND version = ?",
                (due_at, dumps(left), min([*left, due_at]), match_id, version),
            )
        return changed == 1
