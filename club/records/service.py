"""The club-records use-cases: :class:`ClubRecords` — ledger, settle-up, sheets, ratings, statistics, leaderboards,
corrections and exports, for the Discord cogs, the console and the tests (RULES A3, A4). No Discord types.

Every query reads the stored games as they are (:mod:`storage.books`); the only thing written here is a correction,
which an admin makes with a reason and which is kept forever (the audit trail).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, tzinfo
from functools import partial

from storage import Database, books, prs, replies
from storage.books import CorrectionRecord, SessionSummary, SheetEntry

from ..errors import MAX_ID, InvalidRequestError, UnknownGameError, UnknownMemberError, shown
from ..service import ClubService
from ..wording import plural
from .leaderboards import LEADERBOARDS, Board, Leaderboard, chouette_board, match_board, money_board, pr_board
from .ledger import Ledger, Unit, build_ledger
from .periods import SOURCE_WORDS, Period, PeriodKind, SessionRef, Source, parse_period, period_at, session_period
from .ratings import Rating, rate
from .settle import Payment, settle_up
from .sheets import SessionSheet, build_sheet
from .stats import MemberStats, member_stats

MAX_REASON = 500
"""The longest reason a correction may give (characters)."""

MAX_AMOUNT = 10**12
"""The largest amount one correction may move (points or money)."""


@dataclass(frozen=True, slots=True)
class Settlement:
    """How to clear a :class:`~club.records.ledger.Ledger`: ``payments`` (at most n − 1 for n members not at zero)
    in ``unit`` (money, or points when no stake was set in the period)."""

    ledger: Ledger
    unit: Unit
    payments: tuple[Payment, ...]

    def name(self, member: int) -> str:
        """The display name of a member of the ledger."""
        line = self.ledger.line_of(member)
        return line.name if line is not None else str(member)


def _check_id(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < MAX_ID:
        raise InvalidRequestError(f"{what} is a whole number from 1 to 2^63 - 1, not {shown(value)}")
    return value


def _check_amount(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_AMOUNT:
        raise InvalidRequestError(f"{what} is a whole number from 0 to {MAX_AMOUNT}, not {value!r}")
    return value


def _sheet_members(
    columns: Iterable[int], entries: Iterable[SheetEntry], corrections: Iterable[CorrectionRecord]
) -> set[int]:
    """Everyone a sheet names: its columns, the members of its entries, the payers and payees of its corrections."""
    return {*columns, *(e.member for e in entries), *(c.payer for c in corrections), *(c.payee for c in corrections)}


def _sheet_title(ref: SessionRef, columns: tuple[int, ...], length: int, names: dict[int, str]) -> str:
    """``Money session 12: Alice v Bob``, ``Match 7 to 5: …``, ``Chouette 3``."""
    title = f"Match {ref.id} to {length}" if ref.source == Source.MATCH else ref.describe().capitalize()
    if columns:
        title += f": {names.get(columns[0], columns[0])} v {names.get(columns[1], columns[1])}"
    return title


async def period_sessions(
    db: Database, club_id: int, period: Period | None, *, member: int | None = None, limit: int | None = None
) -> list[SessionSummary]:
    """The sessions of club ``club_id`` with a game finished in ``period`` (None: ever; a session's period: that
    session), latest first, at most ``limit`` (None: all), only ``member``'s if given (:func:`storage.books.sessions`)."""
    if period is not None and period.session is not None:
        found = await books.sessions(db, club_id, member=member, limit=10_000)
        return [s for s in found if (s.source, s.id) == period.session.key]
    return await books.sessions(
        db,
        club_id,
        member=member,
        limit=limit,
        start=None if period is None else period.start,
        end=None if period is None else period.end,
    )


async def named_corrections(db: Database, club_id: int) -> dict[tuple[str, int], list[CorrectionRecord]]:
    """The corrections of club ``club_id`` that name a session, by session key (``("money", 12)`` …), oldest first."""
    named: dict[tuple[str, int], list[CorrectionRecord]] = {}
    for correction in await books.corrections(db, club_id):
        if correction.source is not None and correction.source_id is not None:
            named.setdefault((correction.source, correction.source_id), []).append(correction)
    return named


async def sheet_builders(
    db: Database,
    club_id: int,
    refs: Sequence[SessionRef],
    named: Mapping[tuple[str, int], Sequence[CorrectionRecord]],
) -> list[Callable[[], SessionSheet]]:
    """The score sheets of sessions ``refs`` of club ``club_id`` in two halves: their rows are read now (a few
    queries in all), and each returned callable builds one sheet (CPU work). ``named``: the corrections naming each
    session (:func:`named_corrections`). Sessions the club does not have are left out."""
    found = await books.sessions_entries(db, club_id, [ref.key for ref in refs])
    members: set[int] = set()
    for key, (columns, _length, entries) in found.items():
        members |= _sheet_members(columns, entries, named.get(key, ()))
    names = {member: record.display_name for member, record in (await db.get_members(members)).items()}
    sheets: list[Callable[[], SessionSheet]] = []
    for ref in refs:
        if ref.key not in found:
            continue
        columns, length, entries = found[ref.key]
        title = _sheet_title(ref, columns, length, names)
        sheets.append(partial(build_sheet, ref, title, entries, named.get(ref.key, []), names, columns))
    return sheets


class ClubRecords:
    """The club's books over a :class:`~club.service.ClubService` (its database and clock).

    ``tz``: the time zone in which days, weeks and months are cut (default UTC). Members are Discord user ids; a club
    is a Discord guild id. Periods are given as text (``"week"``, ``"last month"``, ``"all"``, ``"session"`` —
    see :func:`~club.records.periods.parse_period`) or as a :class:`~club.records.periods.Period`.
    """

    def __init__(self, service: ClubService, *, tz: tzinfo = UTC) -> None:
        self.service = service
        self.db = service.db
        self.tz = tz
        self._ratings: dict[int, tuple[int, tuple[float, int] | None, dict[int, Rating]]] = {}

    # -- helpers --------------------------------------------------------------------------------------------------
    async def _club_id(self, guild_id: int) -> int:
        club = await self.db.get_club(_check_id(guild_id, "guild_id"))
        if club is None:
            raise InvalidRequestError("this server has no club yet: nothing has been played here")
        return club.id

    async def names(self, members: Iterable[int]) -> dict[int, str]:
        """Display names of the known ``members`` (ids), by id."""
        found = await self.db.get_members(members)
        return {member: record.display_name for member, record in found.items()}

    async def period(
        self,
        guild_id: int,
        period: str | Period | None = "week",
        *,
        session: str | SessionRef | None = None,
        member: int | None = None,
    ) -> Period:
        """The :class:`Period` meant by ``period`` now. For ``"session"``: ``session`` (``money:12`` …), or else the
        latest session ``member`` played in, or else the club's latest; a ``session`` given always wins. Raises :class:`InvalidRequestError` (bad
        text), :class:`UnknownGameError` (no such session in the club, or none played yet)."""
        if isinstance(period, Period):
            return period
        kind, offset = parse_period(period)
        if session is not None:
            kind, offset = PeriodKind.SESSION, 0
        if kind is not PeriodKind.SESSION:
            return period_at(kind, self.service.clock.now(), offset=offset, tz=self.tz)
        return session_period(await self.session(guild_id, session, member=member))

    async def session(
        self, guild_id: int, session: str | SessionRef | None = None, *, member: int | None = None
    ) -> SessionRef:
        """The session meant: ``session`` (``money:12`` …), or else the latest one ``member`` played in, or else
        the club's latest. Raises :class:`InvalidRequestError` (bad text), :class:`UnknownGameError` (no such
        session in the club, or none played yet)."""
        club_id = await self._club_id(guild_id)
        if session is None:
            found = await books.sessions(self.db, club_id, member=member, limit=1)
            if not found:
                whose = "you have" if member is not None else "the club has"
                raise UnknownGameError(f"No session to show: {whose} no finished game yet.")
            return SessionRef.of(found[0])
        ref = SessionRef.parse(session)
        if not await books.session_exists(self.db, club_id, ref.key):
            raise UnknownGameError(f"This club has no {ref.describe()}.")
        return ref

    # -- the ledger and settling up ---------------------------------------------------------------------------------
    async def ledger(
        self,
        guild_id: int,
        period: str | Period | None = "week",
        *,
        session: str | SessionRef | None = None,
        member: int | None = None,
        kinds: tuple[str, ...] = books.KINDS,
    ) -> Ledger:
        """The club ledger of a period (see :meth:`period`): every member's points per kind of game, money at the
        stakes, games and corrections; zero-sum in every column. Raises :class:`InvalidRequestError`,
        :class:`UnknownGameError`."""
        club_id = await self._club_id(guild_id)
        chosen = await self.period(guild_id, period, session=session, member=member)
        totals = await books.ledger_totals(
            self.db,
            club_id,
            start=chosen.start,
            end=chosen.end,
            source=None if chosen.session is None else chosen.session.key,
            kinds=kinds,
        )
        names = await self.names({total.member for total in totals})
        return build_ledger(chosen, totals, names, kinds)

    async def settle(
        self,
        guild_id: int,
        period: str | Period | None = "week",
        *,
        session: str | SessionRef | None = None,
        member: int | None = None,
    ) -> Settlement:
        """The payments that clear the period's ledger (RULES A3): in money, or in points when no stake was set;
        at most n − 1 payments (see :mod:`club.records.settle`). Raises as :meth:`ledger`."""
        ledger = await self.ledger(guild_id, period, session=session, member=member)
        unit = Unit.MONEY if ledger.has_money else Unit.POINTS
        return Settlement(ledger, unit, tuple(settle_up(ledger.balances(unit))))

    # -- sheets ------------------------------------------------------------------------------------------------------
    async def sessions(
        self,
        guild_id: int,
        *,
        member: int | None = None,
        limit: int | None = 25,
        period: Period | None = None,
    ) -> list[SessionSummary]:
        """The club's sessions with a game finished in ``period`` (default: ever), latest first, at most ``limit``
        (None: all of them, for an export), only ``member``'s if given. Raises :class:`InvalidRequestError` for a
        bad limit."""
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 10_000):
            raise InvalidRequestError(f"limit is 1–10000, not {limit!r}")
        return await period_sessions(self.db, await self._club_id(guild_id), period, member=member, limit=limit)

    async def session_label(self, summary: SessionSummary) -> str:
        """A one-line label of a session for menus: ``money:12 — Alice v Bob, 14 games``."""
        names = await self.names(summary.members)
        who = " v ".join(names.get(m, str(m)) for m in summary.members[:4]) + ("…" if len(summary.members) > 4 else "")
        ref = SessionRef.of(summary)
        what = f"{summary.length}-point match" if ref.source is Source.MATCH else SOURCE_WORDS[ref.source]
        return f"{ref} — {what}: {who}, {plural(summary.games, 'game')}"

    async def sheet(
        self, guild_id: int, session: str | SessionRef | None = None, *, member: int | None = None
    ) -> SessionSheet:
        """The score sheet of a session (RULES A3, C11): ``session`` (``money:12`` …), or else the latest one
        ``member`` played in, or else the club's latest. Raises :class:`UnknownGameError`, :class:`InvalidRequestError`."""
        club_id = await self._club_id(guild_id)
        ref = await self.session(guild_id, session, member=member)
        entries = await books.session_entries(self.db, club_id, ref.key) or []
        corrections = await books.corrections(self.db, club_id, source=ref.key)
        columns: tuple[int, ...] = ()
        length = 0
        if ref.source != Source.CHOUETTE:
            record = await self.db.get_match(ref.id)
            if record is None:
                raise UnknownGameError(f"This club has no {ref.describe()}.")
            columns, length = record.players, record.length
        names = await self.names(_sheet_members(columns, entries, corrections))
        return build_sheet(ref, _sheet_title(ref, columns, length, names), entries, corrections, names, columns)

    async def sheets(self, guild_id: int, refs: Sequence[SessionRef]) -> list[SessionSheet]:
        """The score sheets of many sessions at once, as :meth:`sheet` gives each (a few queries in all, for an
        export); sessions the club does not have are left out. Raises :class:`InvalidRequestError`."""
        club_id = await self._club_id(guild_id)
        builders = await sheet_builders(self.db, club_id, refs, await named_corrections(self.db, club_id))
        return [build() for build in builders]

    # -- ratings, statistics, leaderboards -------------------------------------------------------------------------
    async def ratings(self, guild_id: int) -> dict[int, Rating]:
        """Every member's FIBS match rating in the club (members with no finished match are not listed).

        Kept up to date incrementally: the ratings of the club are remembered with the number of finished matches
        and the last one rated; a later call rates only the matches that ended since (a count that does not add up —
        a match that ended back in time, another process — rates them all again)."""
        club_id = await self._club_id(guild_id)
        count = await books.finished_match_count(self.db, club_id)
        known = self._ratings.get(club_id)
        if known is not None and known[0] == count:
            return dict(known[2])
        after = None if known is None else known[1]
        matches = await books.finished_matches(self.db, club_id, after=after)
        if known is None or known[0] + len(matches) != count:  # first call, or a match ended back in time: all again
            matches = await books.finished_matches(self.db, club_id)
            ratings: dict[int, Rating] = {}
        else:
            ratings = dict(known[2])
        ratings = rate(((m.players[m.winner], m.players[1 - m.winner], m.length) for m in matches), ratings)
        last = (matches[-1].ended_at, matches[-1].id) if matches else after
        self._ratings[club_id] = (count, last, ratings)
        return dict(ratings)

    async def rating(self, guild_id: int, member: int) -> tuple[Rating, int | None, int]:
        """``(rating, rank, rated)``: ``member``'s FIBS rating (1500 and no rank before his first match), his rank
        among the ``rated`` members. Raises :class:`UnknownMemberError` for someone who is not in the club."""
        await self._require_member(guild_id, member)
        ratings = await self.ratings(guild_id)
        mine = ratings.get(member)
        if mine is None:
            return Rating(member), None, len(ratings)
        rank = 1 + sum(r.rating > mine.rating for r in ratings.values())
        return mine, rank, len(ratings)

    async def stats(self, guild_id: int, member: int) -> MemberStats:
        """``member``'s statistics in the club (games, wins, gammons, cube actions, average cube, rating,
        chouettes). Raises :class:`UnknownMemberError`."""
        club_id = await self._require_member(guild_id, member)
        games = await books.played_games(self.db, club_id, member)
        actions = await books.cube_actions(self.db, club_id, member)
        rating = (await self.ratings(guild_id)).get(member) or Rating(member)
        chouette = await books.chouette_games(self.db, club_id, member)
        name = (await self.names([member])).get(member, str(member))
        stats = member_stats(member, name, games, actions, rating, chouette)
        count, mean, median = await replies.summary(self.db, club_id, member)
        waiting = len(await self.db.waiting_for(member, club_id))
        graded = (await prs.pr_totals(self.db, club_id, member=member)).get(member)
        return replace(
            stats, replies=count, reply_mean=mean, reply_median=median, waiting_on=waiting,
            pr=None if graded is None else graded.pr, pr_decisions=0 if graded is None else graded.decisions,
            pr_matches=0 if graded is None else graded.matches,
        )  # fmt: skip

    async def leaderboard(
        self, guild_id: int, kind: Board | str = Board.MONEY, period: str | Period | None = "all"
    ) -> Leaderboard:
        """The ``money``, ``matches``, ``chouette`` or ``pr`` leaderboard (see :mod:`club.records.leaderboards`);
        ``period`` applies to money, chouettes and PRs (ratings are all-time). Raises :class:`InvalidRequestError`."""
        if kind not in LEADERBOARDS:
            raise InvalidRequestError(f"a leaderboard is one of {', '.join(LEADERBOARDS)}, not {kind!r}")
        board = Board(kind)
        if board is Board.MATCHES:
            ratings = await self.ratings(guild_id)
            names = await self.names(ratings)
            return match_board(ratings.values(), names, period_at(PeriodKind.ALL, self.service.clock.now()))
        if board is Board.CHOUETTE:
            return chouette_board(await self.ledger(guild_id, period, kinds=(Source.CHOUETTE,)))
        if board is Board.PR:
            when = await self.period(guild_id, period)
            totals = await prs.pr_totals(self.db, await self._club_id(guild_id), low=when.start, high=when.end)
            return pr_board(totals.values(), await self.names(totals), when)
        return money_board(await self.ledger(guild_id, period))

    # -- corrections -------------------------------------------------------------------------------------------------
    async def _require_member(self, guild_id: int, member: int) -> int:
        club_id = await self._club_id(guild_id)
        if not await self.db.is_club_member(club_id, _check_id(member, "member id")):
            raise UnknownMemberError(f"user {member} is not a member of this club")
        return club_id

    async def correct(
        self,
        guild_id: int,
        admin: int,
        payer: int,
        payee: int,
        *,
        reason: str,
        points: int = 0,
        money: int = 0,
        session: str | SessionRef | None = None,
        counts_at: float | None = None,
    ) -> CorrectionRecord:
        """An admin's correction of the ledger (RULES A3): ``payer`` gives ``points`` and/or ``money`` to ``payee``,
        for ``reason`` (required), counted at ``counts_at`` (default now) and, if given, against ``session``. Being
        a transfer it keeps every period zero-sum; it can never be changed or deleted — undo it with another.

        Whether ``admin`` may do this is the front end's check (the same as for the club's settings). Raises
        :class:`InvalidRequestError` (no reason, nothing to move, payer = payee, bad amounts or time),
        :class:`UnknownMemberError` (payer or payee not in the club), :class:`UnknownGameError` (no such session).
        """
        _check_id(admin, "admin id")
        club_id = await self._require_member(guild_id, payer)
        await self._require_member(guild_id, payee)
        if payer == payee:
            raise InvalidRequestError("a correction moves points from one member to another: name two members")
        _check_amount(points, "points")
        _check_amount(money, "money")
        if not points and not money:
            raise InvalidRequestError("a correction must move some points or money (both are 0)")
        if not isinstance(reason, str) or not reason.strip():
            raise InvalidRequestError("a correction needs a reason: say why, for the audit trail")
        reason = " ".join(reason.split())
        if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in reason):
            raise InvalidRequestError("a reason is plain text: it may not contain control characters (such as \\x00)")
        if len(reason) > MAX_REASON:
            raise InvalidRequestError(f"a reason is at most {MAX_REASON} characters, not {len(reason)}")
        now = self.service.clock.now()
        if counts_at is None:
            counts_at = now
        elif isinstance(counts_at, bool) or not isinstance(counts_at, int | float) or not math.isfinite(counts_at):
            raise InvalidRequestError(f"counts_at is a time in Unix seconds, not {counts_at!r}")
        ref = None
        if session is not None:
            ref = SessionRef.parse(session)
            if not await books.session_exists(self.db, club_id, ref.key):
                raise UnknownGameError(f"This club has no {ref.describe()}.")
        return await books.add_correction(
            self.db,
            club_id=club_id,
            admin_id=admin,
            payer=payer,
            payee=payee,
            points=points,
            money=money,
            reason=reason,
            source=None if ref is None else ref.key,
            at=now,
            counts_at=float(counts_at),
        )

    async def corrections(self, guild_id: int, period: str | Period | None = "all") -> list[CorrectionRecord]:
        """The audit trail: every correction that counts in the period (or names its session), oldest first."""
        club_id = await self._club_id(guild_id)
        chosen = await self.period(guild_id, period)
        return await books.corrections(
            self.db,
            club_id,
            start=chosen.start,
            end=chosen.end,
            source=None if chosen.session is None else chosen.session.key,
        )
