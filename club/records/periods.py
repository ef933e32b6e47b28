"""Periods of the club's books and references to sessions (RULES A3).

A :class:`Period` is a half-open time interval ``start <= at < end`` (Unix seconds; None = unbounded) or one session
(a money session, a match or a chouette session, :class:`SessionRef`). Days, weeks (Monday to Sunday) and calendar
months are taken in the club's time zone (UTC unless the records service is given another).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from enum import StrEnum
from typing import TYPE_CHECKING

from ..errors import MAX_ID, InvalidRequestError

if TYPE_CHECKING:
    from storage.books import SessionSummary


class PeriodKind(StrEnum):
    """The kinds of period, shortest first: one session, a day, a week, a calendar month, all time."""

    SESSION = "session"
    DAY = "day"
    WEEK = "week"
    MONTH = "month"
    ALL = "all"


PERIODS = tuple(PeriodKind)
"""The kinds of period, shortest first."""


class Source(StrEnum):
    """The kinds of session the books know: a money session, a match, a chouette session (stored as their values)."""

    MONEY = "money"
    MATCH = "match"
    CHOUETTE = "chouette"


SOURCE_WORDS = {Source.MONEY: "money session", Source.MATCH: "match", Source.CHOUETTE: "chouette"}
"""What each kind of session is called."""

_SOURCE_NAMES = {"session": Source.MONEY, "money-session": Source.MONEY, **{source.value: source for source in Source}}
"""A session's kind as typed → the kind."""

_PERIOD_NAMES = {"today": PeriodKind.DAY, "yesterday": PeriodKind.DAY, "all time": PeriodKind.ALL,
                 "alltime": PeriodKind.ALL, "ever": PeriodKind.ALL, **{kind.value: kind for kind in PeriodKind}}  # fmt: skip
"""A period as typed (lower case, single spaces) → its kind."""

_PREVIOUS = ("last ", "previous ", "prev ")


@dataclass(frozen=True, slots=True)
class SessionRef:
    """One session of the club: its :class:`Source` and ``id`` (its number). Written ``money:12``, ``match:7``,
    ``chouette:3`` (:meth:`parse` also takes a space)."""

    source: Source
    id: int

    def __str__(self) -> str:
        return f"{self.source}:{self.id}"

    @property
    def key(self) -> tuple[str, int]:
        """``(source, id)`` as the storage queries take it."""
        return (self.source, self.id)

    def describe(self) -> str:
        """In words, e.g. ``money session 12``."""
        return f"{SOURCE_WORDS[self.source]} {self.id}"

    @classmethod
    def of(cls, row: SessionSummary) -> SessionRef:
        """The session a summary row of the books names (its ``source`` stored by value)."""
        return cls(Source(row.source), row.id)

    @classmethod
    def parse(cls, text: str | SessionRef) -> SessionRef:
        """``money:12``, ``match 7``, ``chouette:3`` → a :class:`SessionRef` (an id of ASCII digits, 1 to below
        :data:`~club.errors.MAX_ID`). Raises :class:`InvalidRequestError` saying what is accepted."""
        if isinstance(text, SessionRef):
            return text
        cleaned = str(text).strip().lower().replace(" ", ":")
        typed, _, number = cleaned.partition(":")
        source = _SOURCE_NAMES.get(typed)
        if source is None or not (number.isascii() and number.isdigit()) or not 0 < int(number) < MAX_ID:
            raise InvalidRequestError(
                f"a session is written money:ID, match:ID or chouette:ID (e.g. money:12), not {str(text)!r}"
            )
        return cls(source, int(number))


@dataclass(frozen=True, slots=True)
class Period:
    """A period of the books: its ``kind``, ``start <= at < end`` (Unix s, None = unbounded), the ``session`` for
    kind ``session``, and a ``label`` for people (``week of 2024-03-04``, ``March 2024``)."""

    kind: PeriodKind
    start: float | None
    end: float | None
    label: str
    session: SessionRef | None = None

    def contains(self, at: float) -> bool:
        """Whether time ``at`` falls in the period (sessions: always; their entries are chosen by session)."""
        return (self.start is None or at >= self.start) and (self.end is None or at < self.end)


def parse_period(text: str | None) -> tuple[PeriodKind, int]:
    """``"week"`` → ``("week", 0)``; ``"last month"`` → ``("month", 1)``; None or empty → ``("week", 0)``.

    Accepts the :data:`PERIODS`, ``today``, ``all time`` and a ``last``/``previous`` prefix. Raises
    :class:`InvalidRequestError` listing what is accepted."""
    cleaned = " ".join((text or "week").strip().lower().replace("-", " ").replace("_", " ").split())
    offset = 0
    for prefix in _PREVIOUS:
        if cleaned.startswith(prefix):
            cleaned, offset = cleaned[len(prefix) :], 1
    if cleaned == "yesterday":
        offset = 1
    kind = _PERIOD_NAMES.get(cleaned)
    if kind is None or (offset and kind in (PeriodKind.ALL, PeriodKind.SESSION)):
        raise InvalidRequestError(
            f"a period is session, day, week, month or all (add 'last' for the one before: 'last week'), not {text!r}"
        )
    return kind, offset


def period_at(kind: PeriodKind | str, now: float, *, offset: int = 0, tz: tzinfo = UTC) -> Period:
    """The period of ``kind`` (``day``, ``week``, ``month`` or ``all``) that contains ``now``, or the one
    ``offset`` periods before it. Weeks run Monday 00:00 to Monday 00:00 in ``tz``. Raises
    :class:`InvalidRequestError` for a bad kind or offset (sessions are :func:`session_period`)."""
    if kind not in PERIODS or kind == PeriodKind.SESSION:
        raise InvalidRequestError(f"a period of time is day, week, month or all, not {kind!r}")
    if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset <= 1200:
        raise InvalidRequestError(f"offset is 0 (the current period) to 1200 periods back, not {offset!r}")
    kind = PeriodKind(kind)
    if kind is PeriodKind.ALL:
        return Period(kind, None, None, "all time")
    local = datetime.fromtimestamp(now, tz)
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    if kind is PeriodKind.DAY:
        first = midnight - timedelta(days=offset)
        return _span(kind, first, first + timedelta(days=1), first.strftime("%A %Y-%m-%d"))
    if kind is PeriodKind.WEEK:
        first = midnight - timedelta(days=midnight.weekday() + 7 * offset)
        return _span(kind, first, first + timedelta(days=7), f"week of {first:%Y-%m-%d}")
    month_index = local.year * 12 + local.month - 1 - offset
    first = midnight.replace(year=month_index // 12, month=month_index % 12 + 1, day=1)
    following = first.replace(year=(month_index + 1) // 12, month=(month_index + 1) % 12 + 1)
    return _span(kind, first, following, first.strftime("%B %Y"))


def _span(kind: PeriodKind, first: datetime, following: datetime, label: str) -> Period:
    # aware datetimes in one zone add wall-clock time, so a daylight-saving day is still one whole local day
    return Period(kind, first.timestamp(), following.timestamp(), label)


def session_period(session: SessionRef) -> Period:
    """The period that is one session (all its games and the corrections that name it)."""
    return Period(PeriodKind.SESSION, None, None, session.describe(), session)
