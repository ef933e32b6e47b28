"""The events of the clubs (knock-outs, Swiss, round robins, ladders, leagues): their rows, their append-only logs
and the link from each pairing to the club match that plays it. All the SQL of events is here, in the SQL both
backends share (``?`` placeholders, ``ON CONFLICT``), so :class:`EventStore` runs unchanged on SQLite and on
PostgreSQL (:class:`storage.pgstore.PgStore`).

Writes are versioned like a table's: :meth:`EventStore.commit` appends actions as seq ``version + 1 …`` and moves
the row's version only ``WHERE version = ?`` — of two writers who read the same version, one commits and the other
gets :class:`~storage.errors.VersionConflictError` with nothing written (two results racing make the next round
once).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import DuplicateError, VersionConflictError
from .notices import record_in
from .records import dumps


@dataclass(frozen=True, slots=True)
class EventRecord:
    """An event's row: ``version`` is the seq of its last logged action; ``next_at`` its next deadline (Unix s)."""

    id: int
    club_id: int
    name: str
    format: str
    status: str
    version: int
    next_at: float | None
    created_by: int
    created_at: float
    updated_at: float
    ended_at: float | None

    @classmethod
    def from_row(cls, row: Any) -> EventRecord:
        """From a row of ``events``."""
        return cls(*(row[name] for name in cls.__slots__))


@dataclass(frozen=True, slots=True)
class EventAction:
    """One logged action of an event: ``kind`` and its ``args`` (parsed JSON), who acted (None: the club), when."""

    seq: int
    member_id: int | None
    kind: str
    args: dict[str, Any]
    at: float


@dataclass(frozen=True, slots=True)
class NewEventAction:
    """An action to append: ``kind``, JSON-able ``args``, who acted (None: the club)."""

    kind: str
    args: Mapping[str, Any]
    member_id: int | None = None


_COLUMNS = ", ".join(EventRecord.__slots__)


@dataclass(frozen=True, slots=True)
class Append:
    """Actions to append to event ``event_id``'s log (seq ``expected_version + 1 …``) with the row's new
    ``status`` and ``next_at``, written only if the event is still at ``expected_version``."""

    event_id: int
    expected_version: int
    actions: Sequence[NewEventAction]
    status: str
    next_at: float | None


async def _append(tx: Any, append: Append, now: float) -> None:
    """Write ``append`` inside the open transaction ``tx``. Raises :class:`~storage.errors.VersionConflictError`
    when the event has moved on (the transaction is then rolled back whole)."""
    if not append.actions:
        raise ValueError("an event commit logs at least one action: every change of an event is in its log")
    event_id, expected = append.event_id, append.expected_version
    new_version = expected + len(append.actions)
    changed = await tx.execute(
        "UPDATE events SET version = ?, status = ?, next_at = ?, updated_at = ?, "
        "ended_at = CASE WHEN ? IN ('over', 'cancelled') AND ended_at IS NULL THEN ? ELSE ended_at END "
        "WHERE id = ? AND version = ?",
        (new_version, append.status, append.next_at, now, append.status, now, event_id, expected),
    )
    if changed != 1:
        found = await tx.fetchone("SELECT version FROM events WHERE id = ?", (event_id,))
        raise VersionConflictError(event_id, expected, None if found is None else found[0])
    await tx.executemany(
        _INSERT_ACTION,
        [(event_id, expected + i, a.member_id, a.kind, dumps(a.args), now) for i, a in enumerate(append.actions, 1)],
    )


class EventStore:
    """The event tables of an open :class:`~storage.Database` (its action store's connection and lock)."""

    def __init__(self, database: Any) -> None:
        self.store = database.store

    async def create(
        self,
        *,
        club_id: int,
        name: str,
        format: str,
        created_by: int,
        action: NewEventAction,
        now: float,
        then: Sequence[NewEventAction] = (),
        status: str = "open",
        next_at: float | None = None,
        notices: Callable[[int], Sequence[tuple[str, dict]]] | None = None,
        also: Append | None = None,
    ) -> EventRecord:
        """Insert a new event at version 1 with its first ``action``, in one transaction with: ``then``, the actions
        that follow at once (seq 2 …; the row then takes ``status`` and ``next_at``); the pending ``notices(event
        id)`` of :meth:`commit`; and ``also``, an append to another event (a league season logging its next).
        Raises :class:`~storage.errors.DuplicateError` when the club already has an event of that name and
        :class:`~storage.errors.VersionConflictError` when ``also``'s event has moved on; nothing is written then."""
        async with self.store.transaction() as tx:
            event_id = await tx.insert(
                "INSERT INTO events (club_id, name, format, status, version, created_by, created_at, updated_at) "
                "VALUES (?, ?, ?, 'open', 1, ?, ?, ?)",
                (club_id, name, format, created_by, now, now),
            )
            await tx.execute(_INSERT_ACTION, (event_id, 1, action.member_id, action.kind, dumps(action.args), now))
            if then:
                await _append(tx, Append(event_id, 1, then, status, next_at), now)
            for key, body in notices(event_id) if notices else ():
                await record_in(tx, key, body, now)
            if also is not None:
                await _append(tx, also, now)
        record = await self.get(event_id)
        assert record is not None
        return record

    async def commit(
        self,
        event_id: int,
        expected_version: int,
        actions: Sequence[NewEventAction],
        now: float,
        *,
        status: str,
        next_at: float | None,
        notices: Sequence[tuple[str, dict]] = (),
    ) -> int:
        """Append ``actions`` (seq ``expected_version + 1 …``) and set the row's status and next deadline, only if
        the event is still at ``expected_version``; record ``notices`` ``(key, body)`` pending in the same
        transaction (:mod:`storage.notices`: what the commit has to post). Returns the new version. Raises
        :class:`~storage.errors.VersionConflictError` (nothing written) when another writer got there first."""
        append = Append(event_id, expected_version, actions, status, next_at)
        async with self.store.transaction() as tx:
            await _append(tx, append, now)
            for key, body in notices:
                await record_in(tx, key, body, now)
        return expected_version + len(actions)

    async def get(self, event_id: int) -> EventRecord | None:
        """The event ``event_id``, or None."""
        row = await self.store.fetchone(f"SELECT {_COLUMNS} FROM events WHERE id = ?", (event_id,))
        return None if row is None else EventRecord.from_row(row)

    async def named(self, club_id: int, name: str) -> EventRecord | None:
        """The club's event called ``name`` (case-insensitive), or None."""
        row = await self.store.fetchone(
            f"SELECT {_COLUMNS} FROM events WHERE club_id = ? AND lower(name) = lower(?)", (club_id, name)
        )
        return None if row is None else EventRecord.from_row(row)

    async def of_club(self, club_id: int, statuses: Sequence[str] | None = None, limit: int = 100) -> list[EventRecord]:
        """The club's events (with one of ``statuses`` if given), the newest first."""
        sql = f"SELECT {_COLUMNS} FROM events WHERE club_id = ?"
        params: list[Any] = [club_id]
        if statuses:
            sql += f" AND status IN ({', '.join('?' * len(statuses))})"
            params += list(statuses)
        rows = await self.store.fetchall(sql + " ORDER BY id DESC LIMIT ?", (*params, limit))
        return [EventRecord.from_row(row) for row in rows]

    async def log(self, event_id: int, after: int = 0) -> list[EventAction]:
        """The event's actions after seq ``after``, in order."""
        rows = await self.store.fetchall(
            "SELECT seq, member_id, kind, args, at FROM event_actions WHERE event_id = ? AND seq > ? ORDER BY seq",
            (event_id, after),
        )
        return [EventAction(r["seq"], r["member_id"], r["kind"], json.loads(r["args"]), r["at"]) for r in rows]

    async def due(self, now: float, limit: int = 200) -> list[EventRecord]:
        """Running events whose next deadline has come, the earliest first."""
        rows = await self.store.fetchall(
            f"SELECT {_COLUMNS} FROM events WHERE next_at IS NOT NULL AND next_at <= ? AND status = 'running' "
            "ORDER BY next_at, id LIMIT ?",
            (now, limit),
        )
        return [EventRecord.from_row(row) for row in rows]

    async def next_at(self) -> float | None:
        """The earliest next deadline of a running event, or None."""
        row = await self.store.fetchone("SELECT min(next_at) FROM events WHERE status = 'running'")
        return None if row is None else row[0]

    # -- the matches that play the pairings ---------------------------------------------------------------------------
    async def claim_pairing(self, event_id: int, pairing: str, now: float) -> bool:
        """Claim the making of the match of ``pairing``: True for the one caller who gets it (he creates the
        match and :meth:`link_match`), False when it was claimed before (by another process, or before a restart)."""
        try:
            async with self.store.transaction() as tx:
                await tx.execute(
                    "INSERT INTO event_matches (event_id, pairing, match_id, at) VALUES (?, ?, NULL, ?)",
                    (event_id, pairing, now),
                )
        except DuplicateError:
            return False
        return True

    async def link_match(self, event_id: int, pairing: str, match_id: int) -> None:
        """Record that club match ``match_id`` plays ``pairing``."""
        async with self.store.transaction() as tx:
            await tx.execute(
                "UPDATE event_matches SET match_id = ? WHERE event_id = ? AND pairing = ?",
                (match_id, event_id, pairing),
            )

    async def matches(self, event_id: int) -> dict[str, int | None]:
        """The event's pairings that have a claimed match: pairing key → match id (None: claimed, not made yet)."""
        rows = await self.store.fetchall("SELECT pairing, match_id FROM event_matches WHERE event_id = ?", (event_id,))
        return {r["pairing"]: r["match_id"] for r in rows}

    async def pairing_of_match(self, match_id: int) -> tuple[int, str] | None:
        """``(event id, pairing key)`` of the event pairing club match ``match_id`` plays, or None (not an event
        match)."""
        row = await self.store.fetchone("SELECT event_id, pairing FROM event_matches WHERE match_id = ?", (match_id,))
        return None if row is None else (row["event_id"], row["pairing"])

    async def match_ending(self, match_id: int) -> tuple[bool, bool]:
        """How club match ``match_id`` ended as its log tells: ``(a game was forfeited or claimed, the match was
        forfeited)``."""
        rows = await self.store.fetchall(
            "SELECT DISTINCT kind FROM actions WHERE match_id = ? AND kind IN ('forfeit', 'forfeit_match')",
            (match_id,),
        )
        kinds = {r["kind"] for r in rows}
        return "forfeit" in kinds, "forfeit_match" in kinds

    async def acted(self, match_id: int) -> set[int]:
        """The members who made any move in club match ``match_id`` (the club's own actions not counted)."""
        rows = await self.store.fetchall(
            "SELECT DISTINCT member_id FROM actions WHERE match_id = ? AND member_id IS NOT NULL AND auto = 0 "
            "AND kind NOT IN ('challenge', 'client_seed')",
            (match_id,),
        )
        return {r["member_id"] for r in rows}


_INSERT_ACTION = "INSERT INTO event_actions (event_id, seq, member_id, kind, args, at) VALUES (?, ?, ?, ?, ?, ?)"
