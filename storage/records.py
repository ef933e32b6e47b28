"""The rows the storage layer reads and writes, as plain frozen dataclasses (no SQL, no Discord types).

Read records (:class:`ClubRecord`, :class:`MemberRecord`, :class:`MatchRecord`, :class:`GameRecord`,
:class:`ActionRecord`, :class:`DeadlineRecord`, :class:`MessageRecord`, :class:`MatchSummary`) mirror the tables of
``schema.sql``; JSON columns come back parsed (``dict``/``list``). Write records (:class:`NewAction`,
:class:`MatchWrite`, :class:`GameWrite`, :class:`DeadlineWrite`, :class:`Commit`) describe one transaction.
Times are Unix seconds (float, UTC).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any, ClassVar


def dumps(value: Any) -> str:
    """Canonical JSON (sorted keys, no spaces, UTF-8 kept), so equal values are stored as equal bytes."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _dice_text(dice: Sequence[int] | None) -> str | None:
    return None if dice is None else "".join(str(die) for die in dice)


def _dice_tuple(text: str | None) -> tuple[int, ...] | None:
    return None if text is None else tuple(int(char) for char in text)


def _json_or_none(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _json_tuple(text: str) -> tuple:
    return tuple(json.loads(text))


@cache
def _names(cls) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def _build(cls, row: sqlite3.Row, **convert):
    """A record from a row: each dataclass field from the column of the same name, through ``convert[name]``."""
    return cls(**{name: convert.get(name, _same)(row[name]) for name in _names(cls)})


def _same(value: Any) -> Any:
    return value


Converters = dict[str, Callable[[Any], Any]]
"""Column name → the function that turns its stored value into the field's (JSON parsed, 0/1 as bool …)."""


class Row:
    """The base of the read records: :meth:`from_row` builds one from a row of its table, each field from the
    column of the same name through ``CONVERT`` (default: as stored)."""

    __slots__ = ()
    CONVERT: ClassVar[Converters] = {}

    @classmethod
    def from_row(cls, row: sqlite3.Row):
        """Build from a row of the record's table (or a query giving the same columns)."""
        return _build(cls, row, **cls.CONVERT)


# -- read records ------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ClubRecord(Row):
    """A club: one Discord guild (``guild_id``) and its settings (a JSON object, see ``club.settings``)."""

    id: int
    guild_id: int
    name: str
    settings: dict
    created_at: float
    updated_at: float

    CONVERT: ClassVar[Converters] = {"settings": json.loads}


@dataclass(frozen=True, slots=True)
class MemberRecord(Row):
    """A member: a Discord user id, the name to show and preferences (a JSON object, see ``club.settings``)."""

    user_id: int
    display_name: str
    preferences: dict
    created_at: float
    updated_at: float

    CONVERT: ClassVar[Converters] = {"preferences": json.loads}


@dataclass(frozen=True, slots=True)
class MatchRecord(Row):
    """A match to ``length`` points or a money session (``kind == 'money'``, ``length == 0``) with its state.

    ``version`` is the sequence number of the match's last logged action. ``player0``/``player1`` are the members
    (Discord user ids) playing sides 0 and 1. ``waiting_for``/``pending``: who must act now and what is awaited.
    """

    id: int
    club_id: int
    kind: str
    length: int
    player0: int
    player1: int
    rules: dict
    stake: int
    status: str
    state: dict
    version: int
    game_number: int
    waiting_for: int | None
    pending: str | None
    score0: int
    score1: int
    winner: int | None
    created_at: float
    updated_at: float
    ended_at: float | None

    @property
    def players(self) -> tuple[int, int]:
        """``(player0, player1)``: the member ids of sides 0 and 1."""
        return (self.player0, self.player1)

    CONVERT: ClassVar[Converters] = {"rules": json.loads, "state": json.loads}


@dataclass(frozen=True, slots=True)
class MatchSummary(Row):
    """A match without its state (for lists): who plays, what is awaited, the score, the deadline if any."""

    id: int
    club_id: int
    kind: str
    length: int
    player0: int
    player1: int
    stake: int
    status: str
    version: int
    game_number: int
    waiting_for: int | None
    pending: str | None
    score0: int
    score1: int
    winner: int | None
    updated_at: float
    ended_at: float | None
    due_at: float | None


@dataclass(frozen=True, slots=True)
class GameRecord(Row):
    """One game of a match or session: its state (``Game.to_json()``), version and dice commitment.

    ``dice`` is ``'fair'`` (derived from ``seed``; ``seed_hash`` = SHA-256 of it, shown at the start) or
    ``'injected'`` (a test or replay gave the dice; nothing to prove). ``seed`` is hex; it is secret until the game
    ends (``seed_revealed``). ``rolls`` is the next roll counter.
    """

    id: int
    match_id: int
    number: int
    state: dict
    version: int
    status: str
    dice: str
    seed_hash: str | None
    seed: str | None
    seed_revealed: bool
    rolls: int
    result: dict | None
    started_at: float
    ended_at: float | None

    CONVERT: ClassVar[Converters] = {"state": json.loads, "seed_revealed": bool, "result": _json_or_none}


@dataclass(frozen=True, slots=True)
class ActionRecord(Row):
    """One logged action: who (``member_id``, None = the club), which side, what (``kind`` + ``args``), the dice and
    the roll counter they came from, whether it was played for the member (``auto``), and when (``at``)."""

    id: int
    match_id: int
    seq: int
    game_number: int | None
    member_id: int | None
    side: int | None
    kind: str
    args: dict
    dice: tuple[int, ...] | None
    roll_index: int | None
    auto: bool
    at: float

    CONVERT: ClassVar[Converters] = {"args": json.loads, "dice": _dice_tuple, "auto": bool}


@dataclass(frozen=True, slots=True)
class DeadlineRecord(Row):
    """The deadline of a match's pending action (RULES A2).

    ``reminders``: times of reminders still to send; ``next_at``: the earliest of those and ``due_at`` while the
    expiry has not fired, else None. ``version``: the match version the deadline was set at.
    """

    match_id: int
    member_id: int
    pending: str
    version: int
    set_at: float
    due_at: float
    reminders: tuple[float, ...]
    reminders_sent: int
    expired_at: float | None
    next_at: float | None

    CONVERT: ClassVar[Converters] = {"reminders": _json_tuple}


@dataclass(frozen=True, slots=True)
class MessageRecord(Row):
    """A Discord message that shows a match (``game_number`` None) or one of its games."""

    id: int
    match_id: int
    game_number: int | None
    channel_id: int
    message_id: int
    purpose: str
    created_at: float


# -- write records -----------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MessageWrite:
    """A Discord message to remember with a commit: it shows the table (or game ``game_number``) for ``purpose``;
    posted at ``created_at``."""

    channel_id: int
    message_id: int
    game_number: int | None = None
    purpose: str = "board"
    created_at: float = 0.0


@dataclass(frozen=True, slots=True)
class NewAction:
    """An action to append to the log. ``game_number`` None = a match-level action (challenge, accept, ...)."""

    kind: str
    side: int | None = None
    member_id: int | None = None
    game_number: int | None = None
    args: dict = field(default_factory=dict)
    dice: tuple[int, ...] | None = None
    roll_index: int | None = None
    auto: bool = False

    def params(self, match_id: int, seq: int, at: float) -> tuple:
        """The SQL parameters of this action as row ``seq`` of match ``match_id`` at time ``at``."""
        return (
            match_id,
            seq,
            self.game_number,
            self.member_id,
            self.side,
            self.kind,
            dumps(self.args),
            _dice_text(self.dice),
            self.roll_index,
            int(self.auto),
            at,
        )


@dataclass(frozen=True, slots=True)
class MatchWrite:
    """The new state columns of a match row."""

    status: str
    state: dict
    game_number: int
    waiting_for: int | None
    pending: str | None
    score0: int
    score1: int
    winner: int | None = None
    ended: bool = False


@dataclass(frozen=True, slots=True)
class GameWrite:
    """A game row to insert (``expected_version`` None) or to update if its version is still ``expected_version``."""

    number: int
    state: dict
    version: int
    status: str
    rolls: int
    expected_version: int | None = None
    dice: str = "fair"
    seed_hash: str | None = None
    seed: str | None = None
    seed_revealed: bool = False
    result: dict | None = None
    ended: bool = False


@dataclass(frozen=True, slots=True)
class DeadlineWrite:
    """The deadline to store with a commit (replacing the match's previous one)."""

    member_id: int
    pending: str
    due_at: float
    reminders: tuple[float, ...] = ()

    @property
    def next_at(self) -> float:
        """The earliest thing to fire: the first reminder or the expiry."""
        return min((*self.reminders, self.due_at))


@dataclass(frozen=True, slots=True)
class Commit:
    """One transaction on a match: append ``actions`` (seq ``expected_version + 1`` ...), write ``match`` and
    ``games``, replace the deadline (None = the match has no pending deadline), remember ``messages`` (the board
    message posted after the match's previous commit) and record ``notices`` ``(key, body)`` pending (the club's own
    step and its notice, :mod:`storage.notices`). Applied only if the match's
    version is still ``expected_version`` (and each updated game's version its ``expected_version``)."""

    match_id: int
    expected_version: int
    now: float
    actions: Sequence[NewAction]
    match: MatchWrite
    games: Sequence[GameWrite] = ()
    deadline: DeadlineWrite | None = None
    messages: Sequence[MessageWrite] = ()
    notices: Sequence[tuple[str, dict]] = ()

    @property
    def new_version(self) -> int:
        """The match version after this commit."""
        return self.expected_version + len(self.actions)


CHUNK = 100
"""Rows turned into records between two yields to the event loop (:func:`built`): a few milliseconds of work."""


async def built(rows: Sequence[Any], build) -> list:
    """``[build(row) for row in rows]``, yielding to the event loop every :data:`CHUNK` rows, so that reading a long
    log (13,000 actions of a 300-game session) never stalls the other games for more than a few milliseconds."""
    records: list[Any] = []
    for start in range(0, len(rows), CHUNK):
        if start:
            await asyncio.sleep(0)
        records.extend(build(row) for row in rows[start : start + CHUNK])
    return records
