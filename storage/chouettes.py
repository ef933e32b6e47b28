"""Chouette sessions in the club database (schema version 2): records and :class:`ChouetteStore`.

A session is stored like a match: a row with its current state and a version (the seq of its last logged action),
an append-only action log, its dice series (one seed each, RULES A1), a deadline per member the session waits for
(RULES A2, C9), the results of its finished games (RULES C11, A3) and the Discord messages that show it. Every change
is one :class:`ChouetteCommit`, applied in one ``BEGIN IMMEDIATE`` transaction only if the session is still at the
expected version (else :class:`~storage.errors.VersionConflictError`, nothing written).

No rules and no Discord types here: ``club.chouette`` decides what to write.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from . import tallies
from .database import Database, write_with_move
from .records import Converters, MessageWrite, Row, _json_or_none, dumps
from .store import Tx


# -- read records ------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ChouetteRecord(Row):
    """A chouette session row: where it is played (``channel_id``), its ``rules`` (``ChouetteRules.to_json()``),
    ``stake`` (money per point, 0 = none), ``state`` (the club's table as JSON) and ``version``."""

    id: int
    club_id: int
    channel_id: int
    status: str
    rules: dict
    stake: int
    state: dict
    version: int
    game_number: int
    created_by: int
    created_at: float
    updated_at: float
    ended_at: float | None

    CONVERT: ClassVar[Converters] = {"rules": json.loads, "state": json.loads}


@dataclass(frozen=True, slots=True)
class DiceSeries(Row):
    """One seed of a session (RULES A1): ``series`` 0 = seating and joining throws, n = the board of game n.
    ``dice`` ``'fair'`` (``seed`` hex, committed by ``seed_hash``) or ``'injected'``; ``rolls`` = next counter."""

    session_id: int
    series: int
    dice: str
    seed_hash: str | None
    seed: str | None
    seed_revealed: bool
    rolls: int

    CONVERT: ClassVar[Converters] = {"seed_revealed": bool}


@dataclass(frozen=True, slots=True)
class ChouetteAction(Row):
    """One logged action of a session: who (``member_id``, None = the club), what (``kind`` + ``args``), the dice
    (JSON: a roll ``[d1, d2]``, or throws ``{member: throw}``) with the ``series`` and first ``roll_index`` they came
    from, whether it was done for the member (``auto``) and when (``at``, Unix s)."""

    id: int
    session_id: int
    seq: int
    game_number: int | None
    member_id: int | None
    kind: str
    args: dict
    dice: Any
    series: int | None
    roll_index: int | None
    auto: bool
    at: float

    CONVERT: ClassVar[Converters] = {"args": json.loads, "dice": _json_or_none, "auto": bool}


@dataclass(frozen=True, slots=True)
class ChouetteDeadline(Row):
    """The deadline of one member's decision (RULES A2, C9): ``subject_id`` must decide, ``actor_id`` may decide now
    (``stage`` ``'member'``, or ``'proxy'`` once the member missed his time); ``pending`` what is awaited;
    ``version`` the session version it was set at; ``reminders`` the times of reminders still to send; ``next_at``
    the next thing to fire (None once expired)."""

    session_id: int
    subject_id: int
    actor_id: int
    pending: str
    stage: str
    mark: str
    version: int
    set_at: float
    due_at: float
    reminders: tuple[float, ...]
    reminders_sent: int
    expired_at: float | None
    next_at: float | None

    CONVERT: ClassVar[Converters] = {"reminders": lambda text: tuple(json.loads(text))}


@dataclass(frozen=True, slots=True)
class ChouetteResult(Row):
    """A member's points in one finished game (RULES C11) and the money per point (``stake``) at ``at``."""

    session_id: int
    game_number: int
    member_id: int
    points: int
    stake: int
    at: float


@dataclass(frozen=True, slots=True)
class ChouetteMessage(Row):
    """A Discord message (or thread, ``purpose`` ``'thread'``) that shows a session."""

    id: int
    session_id: int
    game_number: int | None
    channel_id: int
    message_id: int
    purpose: str
    created_at: float


# -- write records -----------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class NewChouetteAction:
    """An action to append: see :class:`ChouetteAction` for the fields."""

    kind: str
    member_id: int | None = None
    game_number: int | None = None
    args: dict = field(default_factory=dict)
    dice: Any = None
    series: int | None = None
    roll_index: int | None = None
    auto: bool = False

    def params(self, session_id: int, seq: int, at: float) -> tuple:
        """The SQL parameters of this action as row ``seq`` of session ``session_id`` at time ``at``."""
        dice = None if self.dice is None else dumps(self.dice)
        return (session_id, seq, self.game_number, self.member_id, self.kind, dumps(self.args), dice, self.series,
                self.roll_index, int(self.auto), at)  # fmt: skip


@dataclass(frozen=True, slots=True)
class DeadlineRow:
    """A deadline to keep or write with a commit (all columns but the session id)."""

    subject_id: int
    actor_id: int
    pending: str
    stage: str
    mark: str
    version: int
    set_at: float
    due_at: float
    reminders: tuple[float, ...] = ()
    reminders_sent: int = 0
    expired_at: float | None = None

    @property
    def next_at(self) -> float | None:
        """The first reminder still to send, else the expiry; None once expired."""
        if self.expired_at is not None:
            return None
        return min((*self.reminders, self.due_at))

    @classmethod
    def of(cls, record: ChouetteDeadline) -> DeadlineRow:
        """The stored deadline as a row to keep."""
        return cls(**{f.name: getattr(record, f.name) for f in fields(cls)})


@dataclass(frozen=True, slots=True)
class ChouetteCommit:
    """One transaction on a session: append ``actions``; write ``status``, ``state`` and ``game_number``; upsert the
    dice ``series`` rows; replace all its deadlines by ``deadlines`` (``stored``: whose deadlines the snapshot held,
    so that only those no longer due are deleted; None: unknown, any other is); insert ``results`` ``(game_number,
    member_id, points, stake)`` and the ``sheet`` rows ``(game_number, row JSON)`` (those already stored are kept as they are);
    remember ``messages`` (the board messages posted after the previous commit); record ``notices`` ``(key, body)``
    pending (the club's own step and its notice, :mod:`storage.notices`).
    Applied only if the session is still at ``expected_version``."""

    session_id: int
    expected_version: int
    now: float
    actions: Sequence[NewChouetteAction]
    status: str
    state: dict
    game_number: int
    dice: Sequence[DiceSeries] = ()
    deadlines: Sequence[DeadlineRow] = ()
    stored: Sequence[int] | None = None
    results: Sequence[tuple[int, int, int, int]] = ()
    sheet: Sequence[tuple[int, dict]] = ()
    messages: Sequence[MessageWrite] = ()
    notices: Sequence[tuple[str, dict]] = ()

    @property
    def new_version(self) -> int:
        """The session version after this commit."""
        return self.expected_version + len(self.actions)


class ChouetteStore:
    """The chouette tables of an open :class:`~storage.Database` (same connection, same lock)."""

    def __init__(self, database: Database) -> None:
        self.db = database
        self.store = database.store

    async def create(
        self,
        *,
        club_id: int,
        channel_id: int,
        created_by: int,
        rules: dict,
        stake: int,
        state: dict,
        action: NewChouetteAction,
        dice: DiceSeries,
        now: float,
    ) -> ChouetteRecord:
        """Insert a new open session (version 1) with its first action and its seating dice series."""
        row = {"club_id": club_id, "channel_id": channel_id, "status": "open", "rules": dumps(rules), "stake": stake,
               "state": dumps(state), "game_number": 0, "created_by": created_by}  # fmt: skip

        async def then(tx: Tx, session_id: int) -> None:
            await self.store.write_dice(tx, ("chouette", session_id), _dice_row(dice))

        record = await self.get(await self.store.create("chouette", row, action, now, then))
        assert record is not None  # just written, and a session is never deleted
        return record

    async def get(self, session_id: int) -> ChouetteRecord | None:
        """The session ``session_id``, or None."""
        row = await self.store.row(("chouette", session_id))
        return None if row is None else ChouetteRecord.from_row(row)

    async def open_in_channel(self, channel_id: int) -> ChouetteRecord | None:
        """The open session played in channel ``channel_id`` (at most one), or None."""
        row = await self.store.fetchone(
            "SELECT * FROM chouette_sessions WHERE channel_id = ? AND status = 'open' ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return None if row is None else ChouetteRecord.from_row(row)

    async def session_ids(self, statuses: Sequence[str] | None = None) -> list[int]:
        """The ids of all sessions (with one of ``statuses`` if given), ascending."""
        return await self.store.ids("chouette", statuses)

    async def dice(self, session_id: int, series: Sequence[int] | None = None) -> dict[int, DiceSeries]:
        """The dice series of a session (only those numbered in ``series`` if given), by series number."""
        rows = await self.store.dice(("chouette", session_id), series)
        return {
            row["series"]: DiceSeries(
                session_id,
                row["series"],
                row["dice"],
                row["seed_hash"],
                row["seed"],
                bool(row["seed_revealed"]),
                row["rolls"],
            )  # fmt: skip
            for row in rows
        }

    async def actions(self, session_id: int) -> list[ChouetteAction]:
        """The whole log of a session, in order."""
        return [ChouetteAction.from_row(row) for row in await self.store.log(("chouette", session_id))]

    async def load(
        self, session_id: int
    ) -> tuple[ChouetteRecord, dict[int, DiceSeries], list[ChouetteDeadline]] | None:
        """The session, all its dice series (by number) and its deadlines, read in one snapshot
        (:meth:`storage.store.Store.snapshot`: never rows of two different commits); None if there is no such
        session."""
        async with self.store.snapshot():
            record = await self.get(session_id)
            if record is None:
                return None
            return record, await self.dice(session_id), await self.deadlines(session_id)

    async def deadlines(self, session_id: int) -> list[ChouetteDeadline]:
        """The deadlines of a session."""
        return [ChouetteDeadline.from_row(row) for row in await self.store.deadlines(("chouette", session_id))]

    async def results(self, session_id: int) -> list[ChouetteResult]:
        """The results of a session's finished games, by game then member."""
        rows = await self.store.fetchall(
            "SELECT * FROM chouette_results WHERE session_id = ? ORDER BY game_number, member_id", (session_id,)
        )
        return [ChouetteResult.from_row(row) for row in rows]

    async def sheet(self, session_id: int, *, after: int = 0) -> list[dict]:
        """The stored score-sheet rows of a session's finished games (JSON, RULES C11) after game ``after``, by
        game."""
        rows = await self.store.fetchall(
            "SELECT row FROM chouette_sheet WHERE session_id = ? AND game_number > ? ORDER BY game_number",
            (session_id, after),
        )
        return [json.loads(row["row"]) for row in rows]

    async def add_sheet_rows(self, session_id: int, rows: Sequence[tuple[int, dict]], now: float) -> None:
        """Store sheet rows ``(game_number, row JSON)`` of a session outside a commit (the state upgrade); rows
        already stored are kept as they are."""
        async with self.store.transaction() as tx:
            await write_sheet(tx, session_id, rows, now)

    async def commit(self, commit: ChouetteCommit) -> int:
        """Apply ``commit`` in one transaction if the session is still at ``commit.expected_version``
        (:meth:`storage.store.Store.commit`); returns the new version. Raises
        :class:`~storage.errors.VersionConflictError` (nothing written) otherwise, ``ValueError`` for a commit
        without an action (every change of state is in the log)."""
        subject, now = ("chouette", commit.session_id), commit.now

        async def then(tx: Tx, sid: int) -> None:
            for series in commit.dice:
                await self.store.write_dice(tx, subject, _dice_row(series))
            await self.store.replace_deadlines(tx, subject, [_deadline_row(d) for d in commit.deadlines],
                                               stored=commit.stored)  # fmt: skip
            await tx.executemany(
                "INSERT INTO chouette_results (session_id, game_number, member_id, points, stake, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(sid, game, member, points, stake, now) for game, member, points, stake in commit.results],
            )
            await tallies.record_chouette(tx, sid, commit.results, now)
            await write_sheet(tx, sid, commit.sheet, now)
            for message in commit.messages:
                await self.store.put_message(tx, subject, message)

        row = {"status": commit.status, "state": dumps(commit.state), "game_number": commit.game_number}
        return await self.store.commit(
            subject, commit.expected_version, now, commit.actions, row, ended=commit.status == "closed", then=then,
            notices=commit.notices,
        )  # fmt: skip

    # -- deadlines ----------------------------------------------------------------------------------------------------
    async def due_deadlines(self, now: float, limit: int = 500) -> list[ChouetteDeadline]:
        """Deadlines with a reminder or an expiry due at ``now``, earliest first."""
        return [ChouetteDeadline.from_row(row) for row in await self.store.due_deadlines("chouette", now, limit)]

    async def next_deadline_at(self) -> float | None:
        """When the next chouette reminder or expiry is due, or None."""
        return await self.store.next_deadline_at("chouette")

    async def mark_deadline(
        self,
        deadline: ChouetteDeadline,
        *,
        reminders: Sequence[float],
        reminders_sent: int,
        expired_at: float | None,
        at: float | None = None,
        notice: tuple[str, dict] | None = None,
    ) -> bool:
        """Record that a reminder or the expiry of ``deadline`` fired, if it is still the same deadline (same actor,
        pending, stage, mark and version); ``at`` = the clock then (default ``expired_at``), ``notice`` the
        firing's notice recorded with it (:mod:`storage.notices`). Returns False (nothing written) when it was
        replaced meanwhile."""
        left = sorted(reminders)
        same = {"subject_id": deadline.subject_id, "actor_id": deadline.actor_id, "pending": deadline.pending,
                "stage": deadline.stage, "mark": deadline.mark, "version": deadline.version}  # fmt: skip
        return await self.store.mark_deadline(
            ("chouette", deadline.session_id), same, reminders=left, reminders_sent=reminders_sent,
            expired_at=expired_at, next_at=None if expired_at is not None else min((*left, deadline.due_at)), at=at,
            notice=notice,
        )  # fmt: skip

    async def move_deadline(
        self, deadline: ChouetteDeadline, *, due_at: float, reminders: Sequence[float],
        notice: tuple[str, dict] | None = None, at: float = 0.0, preferences: tuple[int, dict] | None = None,
    ) -> bool:  # fmt: skip
        """Move ``deadline`` (if it is still the same one) to ``due_at`` with the reminder times ``reminders``; its
        expiry may fire again. ``notice`` ``(key, body)``: the notice of the move, recorded pending at ``at`` in the
        same transaction (:mod:`storage.notices`); ``preferences`` ``(member, preferences)``: a member's
        preferences written with it (an away day spent). False (nothing written) when it was replaced meanwhile."""
        left = sorted(at for at in reminders if at < due_at)
        async with self.db.transaction() as tx:
            changed = await tx.execute(
                "UPDATE chouette_deadlines SET due_at = ?, reminders = ?, expired_at = NULL, next_at = ? "
                "WHERE session_id = ? AND subject_id = ? AND actor_id = ? AND pending = ? AND stage = ? "
                "AND mark = ? AND version = ?",
                (due_at, dumps(left), min([*left, due_at]), deadline.session_id, deadline.subject_id,
                 deadline.actor_id, deadline.pending, deadline.stage, deadline.mark, deadline.version),
            )  # fmt: skip
            if changed == 1:
                await write_with_move(tx, notice, preferences, at)
        return changed == 1

    async def waiting_for(self, member_id: int) -> list[ChouetteDeadline]:
        """The open decisions ``member_id`` must make now (as the member or a proxy), oldest first."""
        rows = await self.store.fetchall(
            "SELECT d.* FROM chouette_deadlines d JOIN chouette_sessions s ON s.id = d.session_id "
            "WHERE d.actor_id = ? AND s.status = 'open' ORDER BY d.set_at",
            (member_id,),
        )
        return [ChouetteDeadline.from_row(row) for row in rows]

    # -- messages ------------------------------------------------------------------------------------------------------
    async def add_message(
        self, session_id: int, channel_id: int, message_id: int, now: float, *, game_number=None, purpose="board"
    ) -> ChouetteMessage:
        """Remember that message ``message_id`` in ``channel_id`` shows session ``session_id``."""
        row = await self.store.add_message(
            ("chouette", session_id), channel_id, message_id, now, game_number=game_number, purpose=purpose
        )
        return ChouetteMessage.from_row(row)

    async def messages(self, session_id: int, *, purpose: str | None = None) -> list[ChouetteMessage]:
        """The messages of a session (of one ``purpose`` if given), oldest first."""
        rows = await self.store.messages(("chouette", session_id), purpose=purpose)
        return [ChouetteMessage.from_row(row) for row in rows]

    async def session_of_message(self, channel_id: int, message_id: int) -> int | None:
        """The session a remembered message (or thread) shows, or None."""
        row = await self.store.message("chouette", channel_id, message_id)
        return None if row is None else row["session_id"]


async def write_sheet(tx: Tx, session_id: int, rows: Sequence[tuple[int, dict]], now: float) -> None:
    """Insert a session's sheet rows ``(game_number, row JSON)`` in ``tx``; a game already stored keeps its row
    (the append-only record is never rewritten)."""
    await tx.executemany(
        "INSERT INTO chouette_sheet (session_id, game_number, row, at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (session_id, game_number) DO NOTHING",
        [(session_id, game, dumps(row), now) for game, row in rows],
    )


def _dice_row(series: DiceSeries) -> dict[str, Any]:
    return {"series": series.series, "dice": series.dice, "seed_hash": series.seed_hash, "seed": series.seed,
            "seed_revealed": series.seed_revealed, "rolls": series.rolls}  # fmt: skip


def _deadline_row(row: DeadlineRow) -> dict[str, Any]:
    return {"subject_id": row.subject_id, "actor_id": row.actor_id, "pending": row.pending, "stage": row.stage,
            "mark": row.mark, "version": row.version, "set_at": row.set_at, "due_at": row.due_at,
            "reminders": list(row.reminders), "reminders_sent": row.reminders_sent, "expired_at": row.expired_at,
            "next_at": row.next_at}  # fmt: skip
