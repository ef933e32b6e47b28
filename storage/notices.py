"""Time-limit notices to post (table ``notices``, schema version 13): at least once, each once.

A notice fired by the scheduler (:mod:`club.scheduler`) is recorded **pending** in the same transaction as the
firing it comes from — a mark on a deadline (:meth:`storage.store.Store.mark_deadline`), a deadline moved, or the
club's own step on a table (:meth:`storage.store.Store.commit`'s ``notices``) — under a ``key`` that names it, so
recording it again changes nothing. The process holding the
scheduler's lease posts what is pending (:mod:`cogs.reminders`), then marks it posted; a process that dies between
the two leaves it pending and the next holder posts it (the post carries the row's nonce, so Discord does not show
it twice). A notice that could not be posted :data:`ATTEMPTS` times is given up (logged each time). A finished match's review
goes through the same outbox (keys :data:`REVIEW`…), so that one being computed when the bot stops is posted after it;
so does what an event's commit has to post (keys :data:`EVENT`…, recorded in that commit).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

ATTEMPTS = 5
"""How many failed posts a notice gets before it is given up."""


@dataclass(frozen=True, slots=True)
class PendingNotice:
    """A notice recorded and not posted yet: its row ``id``, ``key``, ``body`` (the JSON object of
    :func:`club.notices.notice_body`) and how many posts failed (``attempts``)."""

    id: int
    key: str
    body: dict
    attempts: int


async def record_in(tx: Any, key: str, body: dict, at: float) -> None:
    """Record notice ``key`` pending inside the open transaction ``tx`` (nothing when it is recorded already)."""
    await tx.execute(
        "INSERT INTO notices (key, body, created_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING",
        (key, json.dumps(body, sort_keys=True), at),
    )


async def record(db, key: str, body: dict, at: float) -> None:
    """Record notice ``key`` pending (nothing when it is recorded already)."""
    async with db.transaction() as tx:
        await record_in(tx, key, body, at)


REVIEW = "review:"
"""The key prefix of a match's review to post (the same outbox: recorded when the match ends, posted once)."""

EVENT = "event:"
"""The key prefix of what an event's commit has to post (its results, new pairings, decisions asked: the same
outbox, recorded in the event's commit, posted once)."""


async def pending(db, limit: int = 200, *, prefix: str = "") -> list[PendingNotice]:
    """The rows not posted yet and not given up, oldest first (at most ``limit``): the time-limit notices, or with
    ``prefix`` (:data:`REVIEW`, :data:`EVENT`) those of its keys."""
    if prefix:
        which, params = "key LIKE ?", [prefix + "%"]
    else:
        which, params = "key NOT LIKE ? AND key NOT LIKE ?", [REVIEW + "%", EVENT + "%"]
    rows = await db._fetchall(
        f"SELECT id, key, body, attempts FROM notices WHERE posted_at IS NULL AND attempts < ? AND {which} "
        "ORDER BY id LIMIT ?",
        (ATTEMPTS, *params, int(limit)),
    )
    return [PendingNotice(row[0], row[1], json.loads(row[2]), row[3]) for row in rows]


KEEP_SECONDS = 7 * 86400.0
"""How long a posted notice's row is kept (then dropped as the next one is posted: the table stays small)."""


async def find(db, key: str) -> PendingNotice | None:
    """Notice ``key`` if it is recorded and not posted yet (nor given up), else None."""
    row = await db._fetchone(
        "SELECT id, key, body, attempts FROM notices WHERE key = ? AND posted_at IS NULL AND attempts < ?",
        (key, ATTEMPTS),
    )
    return None if row is None else PendingNotice(row[0], row[1], json.loads(row[2]), row[3])


async def posted(db, notice_id: int, at: float) -> None:
    """Mark notice ``notice_id`` posted at ``at``; drop the rows posted more than :data:`KEEP_SECONDS` before."""
    async with db.transaction() as tx:
        await tx.execute("UPDATE notices SET posted_at = ? WHERE id = ? AND posted_at IS NULL", (at, notice_id))
        await tx.execute("DELETE FROM notices WHERE posted_at < ?", (at - KEEP_SECONDS,))


async def failed(db, notice_id: int) -> None:
    """Count one failed post of notice ``notice_id`` (given up after :data:`ATTEMPTS`)."""
    async with db.transaction() as tx:
        await tx.execute("UPDATE notices SET attempts = attempts + 1 WHERE id = ?", (notice_id,))


async def posted_keys(db, keys: list[str], at: float) -> None:
    """Mark the notices of ``keys`` posted at ``at`` (those shown by a front end as they fired)."""
    if keys:
        async with db.transaction() as tx:
            await tx.execute(
                f"UPDATE notices SET posted_at = ? WHERE posted_at IS NULL AND key IN ({', '.join('?' * len(keys))})",
                (at, *keys),
            )
