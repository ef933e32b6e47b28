"""Correspondence play (RULES A2): away periods, away days, claims, more time, nudges, pings.

Built on the one clock (:mod:`club.scheduler`): every table's deadlines are :class:`~club.clocks.Deadline` s
and each table moves its own (:meth:`~club.clocks.TableClock.move`).

- **Away** (:meth:`Correspondence.away`): a member away for ``days`` in a club has each of his clocks there paused —
  the time he had left starts again when the period ends — and one notice is posted in each of his games there. The
  days come out of the club's allowance (``away_days`` per member per calendar year); coming back early
  (:meth:`Correspondence.back`) gives back the whole days not used (at least one day is always used, so that away
  and back cannot pause a game for ever). A deadline that falls while he is away moves to the end of the period
  plus the time it gave.
- **Away days** (:func:`before_expiry`): a clock that would lapse uses one away day automatically (24 hours more)
  while the member has any left this year. Both are bounded by the allowance: **clocks always end**.
- **Claims** (expiry policy ``claim``): at the deadline the opponent may claim the game or the match (the late
  member forfeits, RULES M5) or give 24 hours more (:meth:`Correspondence.claim`, :meth:`Correspondence.more_time`).
- **Nudge** (:meth:`Correspondence.nudge`): after ``nudge_hours`` of waiting, at most once per ``nudge_hours``.
- **Ping** (:meth:`Correspondence.ping`): a message in each of a member's games, mentioning his opponents.

Every call returns :class:`~club.clocks.Notice` s to post (the front end posts them); bad requests raise
:class:`~club.errors.InvalidRequestError` (or :class:`~club.errors.NotNowError`) and change nothing.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from backgammon.game import Action

from .clocks import MEMBER, ChouetteClock, Claim, Deadline, MatchClock, Notice, NoticeKind, StepNotice, TableClock
from .errors import InvalidRequestError, NotAPlayerError, NotNowError, StaleVersionError
from .requests import Request
from .settings import DAY, HOUR, ClubSettings, ExpiryPolicy, MemberPreferences
from .table import MatchStatus, Pending, TableAction, TableType
from .wording import plural

CLAIMS: dict[str, str] = {Claim.CLAIM_GAME: Action.FORFEIT, Claim.CLAIM_MATCH: TableAction.FORFEIT_MATCH}
"""The action each claim makes the club take (RULES A2, M5)."""


def _year(now: float) -> str:
    return time.strftime("%Y", time.gmtime(now))


@dataclass(frozen=True, slots=True)
class AwayState:
    """A member's away state in one club: ``until`` (Unix s; None = not away), ``reason``, and the days ``used``
    and ``left`` of the club's allowance this calendar year."""

    until: float | None
    reason: str
    used: float
    left: int

    def granted(self, told: int, back: str) -> str:
        """The answer to an away period just begun: until when (a Discord timestamp), ``told`` games told, the days
        left and ``back`` (the front end's command that ends it early). Raises ValueError if he is not away."""
        if self.until is None:
            raise ValueError("not away: there is no period to describe")
        return (f"You are away until <t:{int(self.until)}:f>; {plural(told, 'game')} told. "
                f"{plural(self.left, 'away day')} left this year. {back} ends it early.")  # fmt: skip


async def _prefs(service, member: int):
    return await service.preferences(member)


AWAY_DAYS_OFF = (
    "Away days are not enabled in this club: an admin sets how many each member may take a year with "
    "/bg config away_days:14 (any number of days up to 366)."
)
"""The refusal of an away request in a club whose yearly allowance (``ClubSettings.away_days``) is 0, in Discord's
words (the console says ``config away_days 14``)."""


async def club_reminders(service, club_id: int, due: float, now: float) -> list[float]:
    """When to remind the member of a deadline moved to ``due`` (seconds): the club's ``reminders`` before it that
    are still to come after ``now`` — the same after an away day, an away period or more time as for a new
    deadline (RULES A2)."""
    from .practice import settings_of  # a practice room follows its club's settings

    club = await service.db.get_club_by_id(club_id)
    reminders = (await settings_of(service.db, club)).reminders if club else ClubSettings().reminders
    return [due - before for before in reminders if due - before > now]


async def away_state(service, club_id: int, member: int, now: float | None = None) -> AwayState:
    """The away state of ``member`` in club ``club_id`` at ``now`` (an unknown member: not away, nothing used)."""
    now = service.clock.now() if now is None else now
    club = await service.db.get_club_by_id(club_id)
    from .practice import settings_of  # a practice room follows its club's settings

    allowance = (await settings_of(service.db, club)).away_days if club else 0
    try:
        prefs = await _prefs(service, member)
    except Exception:
        return AwayState(None, "", 0.0, allowance)
    period = prefs.away.get(str(club_id))
    until = period["until"] if period and period["until"] > now else None
    used = float(prefs.away_used.get(f"{club_id}:{_year(now)}", 0))
    return AwayState(until, period["reason"] if until else "", used, max(0, math.floor(allowance - used)))


async def _prefs_with_days(service, club_id: int, member: int, days: float, now: float) -> MemberPreferences:
    """``member``'s preferences once ``days`` more away days are used in club ``club_id`` in ``now``'s year."""
    prefs = await _prefs(service, member)
    key = f"{club_id}:{_year(now)}"
    used = dict(prefs.away_used)
    used[key] = float(used.get(key, 0)) + days
    return prefs.updated(away_used=used)


async def _use_days(service, club_id: int, member: int, days: float, now: float) -> None:
    await service.set_preferences(member, away_used=(await _prefs_with_days(service, club_id, member, days, now)).away_used)


async def before_expiry(clock, deadline: Deadline, now: float) -> Notice | None:
    """Called by :func:`club.scheduler.run_due` before a table's expiry rule: a deadline of a member who is away
    moves to the end of his period plus the time it gave; else, with away days left this year, one is used (24 hours
    more), spent in the very transaction of the move. Returns the notice of what was done (recorded pending with
    the move), or None to let the table's rule apply. Unanswered challenges are not postponed."""
    if deadline.pending == Pending.ANSWER_CHALLENGE or deadline.stage != MEMBER:
        return None
    service = clock.service if isinstance(clock, MatchClock) else clock.chouettes.club
    club_id = await clock.club_id(deadline)
    state = await away_state(service, club_id, deadline.actor, now)
    names = await clock.names([deadline.actor])
    who = names.get(deadline.actor, str(deadline.actor))
    where = f"{clock.noun} {deadline.table_id}"
    if state.until is not None:
        given = max(HOUR, deadline.due_at - deadline.set_at) if deadline.set_at else DAY
        due = state.until + given
        text = f"{who} is away: the clock in {where} waits until the end of the away period."
        notice = Notice(NoticeKind.PAUSED, deadline.table, deadline.table_id, deadline.subject, deadline.actor,
                        deadline.pending, due, text, ())  # fmt: skip
        moved = await clock.move(deadline, due, await club_reminders(service, club_id, due, now), notice, now)
        return notice if moved else None
    if state.left < 1:
        return None
    due = max(deadline.due_at, now) + DAY
    left = state.left - 1
    text = (
        f"Time ran out for {who} in {where}: one away day was used automatically, 24 hours more "
        f"({left} away day{'s' if left != 1 else ''} left this year)."
    )
    notice = Notice(NoticeKind.AWAY_DAY, deadline.table, deadline.table_id, deadline.subject, deadline.actor,
                    deadline.pending, due, text, (deadline.actor,))  # fmt: skip
    spent = await _prefs_with_days(service, club_id, deadline.actor, 1, now)
    reminders = await club_reminders(service, club_id, due, now)
    moved = await clock.move(deadline, due, reminders, notice, now, preferences=(deadline.actor, spent.to_json()))
    return notice if moved else None


async def roll_for_late_doublers(service, now: float) -> list[Notice]:
    """Roll (RULES D1: he gives up doubling this turn) for each member on roll who may double and has waited longer
    than his ``roll_after`` preference (hours; 0 = never). One query over the pending ``roll_or_double`` deadlines
    (one per waiting match); returns a notice per roll, carrying the outcome to publish (recorded pending with the
    roll, :class:`~club.clocks.StepNotice`)."""
    notices = []
    for row in await service.db.deadlines_pending("roll_or_double"):
        try:
            prefs = await _prefs(service, row.member_id)
        except Exception:
            continue
        if not prefs.roll_after or now < row.set_at + prefs.roll_after * HOUR:
            continue
        who = (await service._names([row.member_id])).get(row.member_id, str(row.member_id))
        text = f"{who} did not double within {prefs.roll_after:g} hours: rolled for them, as they asked.\n"
        notice = StepNotice(
            lambda outcome, row=row, text=text: Notice(NoticeKind.AUTO_ROLL, "match", row.match_id, row.member_id,
                                                       row.member_id, Pending.ROLL_OR_DOUBLE, row.due_at,
                                                       text + outcome.message, ())  # fmt: skip
        )
        try:
            request = Request(row.member_id, version=row.version, behalf=True)  # no client seed of his
            outcome = await service.roll(row.match_id, request, notice=notice)
        except (StaleVersionError, NotNowError, InvalidRequestError):
            continue
        if (shown := notice.shown(outcome)) is not None:
            notices.append(shown)
    return notices


class Correspondence:
    """The correspondence use-cases over the club service (``service``) and, optionally, the chouettes."""

    def __init__(self, service, chouettes=None) -> None:
        self.service = service
        self.chouettes = chouettes
        self.clocks = [MatchClock(service)] + ([ChouetteClock(chouettes)] if chouettes is not None else [])

    async def _club(self, guild_id: int):
        club = await self.service.db.get_club(guild_id)
        if club is None:
            raise InvalidRequestError("this server has no club yet: play a game first")
        return club

    async def _my_deadlines(self, club_id: int, member: int) -> list[tuple[TableClock, Deadline]]:
        """The deadlines ``member`` must act on in club ``club_id`` (matches and chouettes), with their clock."""
        found: list[tuple[TableClock, Deadline]] = []
        db = self.service.db
        for summary in await db.waiting_for(member, club_id):
            record = await db.get_deadline(summary.id)
            if record is not None and record.member_id == member:
                found.append((self.clocks[0], MatchClock.of(record)))
        if self.chouettes is not None:
            for record in await self.chouettes.store.waiting_for(member):
                session = await self.chouettes.store.get(record.session_id)
                if session is not None and session.club_id == club_id and record.stage == MEMBER:
                    found.append((self.clocks[1], ChouetteClock.of(record)))
        return found

    async def _my_games(self, club_id: int, member: int) -> list[tuple[str, int, tuple[int, ...]]]:
        """``(table, id, opponents)`` of every game ``member`` plays in club ``club_id`` now."""
        games: list[tuple[str, int, tuple[int, ...]]] = []
        active = (MatchStatus.ACTIVE,)
        for summary in await self.service.db.matches_of(member, statuses=active, club_id=club_id, limit=500):
            opponent = summary.player1 if summary.player0 == member else summary.player0
            games.append((TableType.MATCH, summary.id, (opponent,)))
        if self.chouettes is not None:
            for session_id in await self.chouettes.store.session_ids(("open",)):
                view = await self.chouettes.state(session_id)
                record = await self.chouettes.store.get(session_id)
                members = tuple(getattr(view, "in_game", ()) or ())
                if record is not None and record.club_id == club_id and member in members:
                    games.append((TableType.CHOUETTE, session_id, tuple(m for m in members if m != member)))
        return games

    # -- away -----------------------------------------------------------------------------------------------------
    async def away(self, guild_id: int, member: int, days: int, reason: str = "") -> list[Notice]:
        """``member`` is away for ``days`` (whole days, 1 to what he has left this year) in the club of
        ``guild_id``: his clocks there are paused and one notice goes to each of his games. Raises
        :class:`InvalidRequestError` for bad days, a club that gives no away days (:data:`AWAY_DAYS_OFF`), no
        allowance left, or when he is away already."""
        if isinstance(days, bool) or not isinstance(days, int) or days < 1:
            raise InvalidRequestError(f"away is a whole number of days, 1 or more, not {days!r}")
        reason = " ".join(str(reason or "").split())[:200]
        club = await self._club(guild_id)
        service = self.service
        now = service.clock.now()
        from .practice import settings_of  # a practice room follows its club's settings

        if (await settings_of(service.db, club)).away_days == 0:
            raise InvalidRequestError(AWAY_DAYS_OFF)
        state = await away_state(service, club.id, member, now)
        if state.until is not None:
            raise InvalidRequestError(
                f"You are away already until <t:{int(state.until)}:f>: use /player back first to change it."
            )
        if days > state.left:
            raise InvalidRequestError(
                f"You have {state.left} away day{'s' if state.left != 1 else ''} left this year in this club "
                f"({state.used:g} used); ask for {state.left} or fewer."
            )
        until = now + days * DAY
        prefs = await _prefs(service, member)
        periods = dict(prefs.away)
        periods[str(club.id)] = {"from": now, "until": until, "reason": reason, "days": days}
        await service.set_preferences(member, away=periods)
        await _use_days(service, club.id, member, days, now)
        for clock, deadline in await self._my_deadlines(club.id, member):
            shift = until - now
            await clock.move(deadline, deadline.due_at + shift, [at + shift for at in deadline.reminders])
        names = await service._names([member])
        who = names.get(member, str(member))
        why = f" ({reason})" if reason else ""
        text = f"{who} is away until <t:{int(until)}:f>{why}: their clocks are paused until then."
        return [
            Notice(NoticeKind.AWAY, table, table_id, member, member, "", until, text, opponents)
            for table, table_id, opponents in await self._my_games(club.id, member)
        ]

    async def back(self, guild_id: int, member: int) -> list[Notice]:
        """``member`` is back before his away period ends: the whole days not used are given back (at least one
        day counts), his clocks run again with the time they had, one notice per game. Raises
        :class:`NotNowError` when he is not away."""
        club = await self._club(guild_id)
        service = self.service
        now = service.clock.now()
        state = await away_state(service, club.id, member, now)
        if state.until is None:
            raise NotNowError("You are not away: your clocks are running.")
        prefs = await _prefs(service, member)
        period = prefs.away[str(club.id)]
        unused = min(math.floor((state.until - now) / DAY), int(period["days"]) - 1)
        periods = dict(prefs.away)
        periods.pop(str(club.id))
        await service.set_preferences(member, away=periods)
        if unused > 0:
            await _use_days(service, club.id, member, -unused, now)
        shift = state.until - now
        for clock, deadline in await self._my_deadlines(club.id, member):
            if deadline.set_at >= period["from"] and deadline.due_at < state.until:
                continue  # set while he was away and never paused: it keeps its time
            due = max(now + HOUR, deadline.due_at - shift)
            moved = due - deadline.due_at
            await clock.move(deadline, due, [at + moved for at in deadline.reminders if at + moved > now])
        who = (await service._names([member])).get(member, str(member))
        text = f"{who} is back: their clocks are running again."
        return [
            Notice(NoticeKind.BACK, table, table_id, member, member, "", now, text, opponents)
            for table, table_id, opponents in await self._my_games(club.id, member)
        ]

    # -- claims and more time (expiry policy "claim") -------------------------------------------------------------
    async def _expired(self, match_id: int, member: int, what: str = "claim"):
        db = self.service.db
        match = await db.get_match(match_id)
        if match is None:
            raise InvalidRequestError(f"There is no match or session {match_id}.")
        if member not in match.players:
            raise NotAPlayerError(f"You do not play in match {match_id}.")
        deadline = await db.get_deadline(match_id)
        if deadline is None or deadline.member_id == member:
            raise NotNowError(f"There is nothing to {what}: your opponent is not the one keeping the game waiting.")
        return match, deadline

    async def claim(self, match_id: int, member: int, what: str, *, version: int | None = None):
        """``member`` claims the game (``claim_game``) or the match (``claim_match``) after his opponent's
        deadline passed (expiry policy ``claim``, RULES M5): the late member forfeits. Returns the outcome. Raises
        :class:`NotNowError` before the deadline, :class:`StaleVersionError` when the opponent has acted."""
        if what not in CLAIMS:
            raise InvalidRequestError(f"a claim is claim_game or claim_match, not {what!r}")
        match, deadline = await self._expired(match_id, member)
        if version is not None and version != deadline.version:
            raise StaleVersionError("Already done: your opponent has acted since.", version, deadline.version)
        if deadline.expired_at is None:
            left = max(0.0, (deadline.due_at - self.service.clock.now()) / HOUR)
            raise NotNowError(f"Your opponent still has {left:.1f} hours: a claim is possible at the deadline.")
        side = match.players.index(deadline.member_id)
        return await self.service.expire(match_id, side, CLAIMS[what], version=deadline.version)

    async def more_time(
        self, match_id: int, member: int, hours: float = 24.0, *, version: int | None = None, due: int | None = None
    ) -> list[Notice]:
        """``member`` gives his opponent ``hours`` more (1–720) once his deadline has lapsed (the ``claim`` policy's
        *Give 24 h more*): the deadline moves and its expiry may fire again. ``version`` and ``due`` (whole Unix s)
        name the deadline a notice's button was drawn for: a button of another deadline (an older notice, or one
        pressed again after the time was given) changes nothing. Returns the one notice to post. Raises
        :class:`NotNowError` before the lapse, :class:`StaleVersionError` for another deadline."""
        if isinstance(hours, bool) or not isinstance(hours, int | float) or not 1 <= hours <= 720:
            raise InvalidRequestError(f"more time is 1 to 720 hours, not {hours!r}")
        match, record = await self._expired(match_id, member)
        deadline = MatchClock.of(record)
        current = f"<t:{int(deadline.due_at)}:f>"
        if (version is not None and version != deadline.version) or (due is not None and due != int(deadline.due_at)):
            raise StaleVersionError(
                f"That notice was for an earlier deadline: nothing changed. The current deadline is {current}.",
                version, deadline.version,
            )  # fmt: skip
        if deadline.expired_at is None:
            raise NotNowError(f"Your opponent's deadline is {current}: more time can be given once it has passed.")
        now = self.service.clock.now()
        due_at = max(deadline.due_at, now) + hours * HOUR
        reminders = await club_reminders(self.service, match.club_id, due_at, now)
        if not await self.clocks[0].move(deadline, due_at, reminders):
            raise StaleVersionError("Already done: your opponent has acted or was given more time since.",
                                    deadline.version, None)  # fmt: skip
        names = await self.service._names([member, deadline.actor])
        text = (
            f"{names.get(member, member)} gives {names.get(deadline.actor, deadline.actor)} {hours:g} hours more in "
            f"match {match_id}: the new deadline is <t:{int(due_at)}:f>."
        )
        return [Notice(NoticeKind.MORE_TIME, "match", match_id, deadline.subject, deadline.actor, deadline.pending, due_at,
                       text, (deadline.actor,))]  # fmt: skip

    # -- nudges and pings ---------------------------------------------------------------------------------------------
    async def nudge(self, match_id: int, member: int) -> list[Notice]:
        """``member`` nudges the opponent who keeps match ``match_id`` waiting: allowed after the club's
        ``nudge_hours`` of waiting and at most once per ``nudge_hours``; returns a new message that pings him."""
        _match, record = await self._expired(match_id, member, "nudge")
        club = await self.service.db.get_club_by_id(_match.club_id)
        from .practice import settings_of  # a practice room follows its club's settings

        hours = (await settings_of(self.service.db, club)).nudge_hours
        now = self.service.clock.now()
        waited = (now - record.set_at) / HOUR
        if waited < hours:
            raise NotNowError(
                f"Your opponent has had {waited:.1f} hours: a nudge is possible after {hours:g} hours of waiting."
            )
        prefs = await _prefs(self.service, member)
        key = f"match:{match_id}"
        last = float(prefs.nudged.get(key, 0))
        if now - last < hours * HOUR:
            again = (last + hours * HOUR - now) / HOUR
            raise NotNowError(f"You nudged in this match already: the next nudge is possible in {again:.1f} hours.")
        await self.service.set_preferences(member, nudged={**prefs.nudged, key: now})
        names = await self.service._names([member, record.member_id])
        text = (
            f"Nudge from {names.get(member, member)}: match {match_id} has waited {waited:.0f} hours for "
            f"{names.get(record.member_id, record.member_id)}."
        )
        return [Notice(NoticeKind.NUDGE, "match", match_id, record.member_id, record.member_id, record.pending,
                       record.due_at, text, (record.member_id,))]  # fmt: skip

    async def ping(self, guild_id: int, member: int, text: str = "") -> list[Notice]:
        """A message from ``member`` in each of his games in the club of ``guild_id``, mentioning his opponents
        ("ping all my games")."""
        club = await self._club(guild_id)
        words = " ".join(str(text or "").split())[:300]
        who = (await self.service._names([member])).get(member, str(member))
        line = f"{who} pings all their games" + (f": {words}" if words else ".")
        return [
            Notice(NoticeKind.PING, table, table_id, member, member, "", 0.0, line, opponents)
            for table, table_id, opponents in await self._my_games(club.id, member)
        ]


def pinged_words(count: int) -> str:
    """The answer to a ping of ``count`` games: ``Pinged 2 games.``, or that there was none to ping."""
    if not count:
        return "You have no game in progress: there is nobody to ping."
    return f"Pinged {count} game{'s' if count != 1 else ''}."


async def away_state_in(service, guild_id: int, member: int) -> AwayState:
    """:func:`away_state` of ``member`` now in the club of guild ``guild_id`` (nothing used when it has no club)."""
    club = await service.db.get_club(guild_id)
    if club is None:
        return AwayState(None, "", 0.0, 0)
    return await away_state(service, club.id, member)


async def can_claim(service, match_id: int, member: int) -> bool:
    """Whether ``member`` may claim on match ``match_id`` now: the deadline of his opponent's turn has lapsed and
    the club's ``expiry_policy`` is ``claim`` (RULES A2)."""
    record = await service.db.get_deadline(match_id)
    if record is None or record.expired_at is None or record.member_id == member:
        return False
    match = await service.db.get_match(match_id)
    club = None if match is None else await service.db.get_club_by_id(match.club_id)
    return club is not None and ClubSettings.from_json(club.settings).expiry_policy == ExpiryPolicy.CLAIM


async def games_extras(service, member: int, guild_id: int | None, match_ids) -> tuple[dict[int, float], str]:
    """For ``/bg games``: the deadlines of ``match_ids`` (by match) and a line on the member's away days in the
    club of ``guild_id`` (``""`` when the club gives none and he is not away)."""
    due = {}
    for match_id in match_ids:
        record = await service.db.get_deadline(match_id)
        if record is not None:
            due[match_id] = record.due_at
    club = await service.db.get_club(guild_id) if guild_id is not None else None
    if club is None:
        return due, ""
    state = await away_state(service, club.id, member)
    allowance = ClubSettings.from_json(club.settings).away_days
    if not allowance and state.until is None:
        return due, ""
    line = f"Away days this year: {state.used:g} used, {state.left} left of {allowance}."
    if state.until is not None:
        line += f" You are away until <t:{int(state.until)}:f> (/player back ends it)."
    return due, line


@dataclass(frozen=True, slots=True)
class Rematch:
    """The terms of a rematch of finished match ``of``: ``challenger`` asks ``opponent`` for the same ``length``,
    rule set (``rules``: a preset name or None, ``overrides``: its options) and ``stake``."""

    of: int
    challenger: int
    opponent: int
    length: int
    rules: str | None
    overrides: dict
    stake: int

    async def challenge(self, service, guild_id: int):
        """Make the rematch challenge (:meth:`~club.service.ClubService.challenge`) unless match ``of`` has its
        rematch already (a second press, or both players pressing: one challenge, under the finished match's lock);
        returns its outcome. Raises :class:`NotNowError` when the rematch exists."""
        async with service._lock_for(self.of):
            await _check_no_rematch(service, guild_id, self.challenger, self.opponent, self.of)
            return await service.challenge(guild_id, self.challenger, self.opponent, length=self.length,
                                           rules=self.rules, overrides=dict(self.overrides), stake=self.stake)  # fmt: skip


async def _check_no_rematch(service, guild_id: int | None, member: int, opponent: int, match_id: int) -> None:
    """Raise :class:`NotNowError` when ``member`` and ``opponent`` have a match after ``match_id`` that was not
    declined, withdrawn or left to lapse (its rematch, challenged or played)."""
    dropped = (MatchStatus.DECLINED, MatchStatus.CANCELLED, MatchStatus.EXPIRED)
    for item in await service.history(member, guild_id=guild_id, limit=100):
        if item.match_id > match_id and item.opponent_id == opponent and item.status not in dropped:
            raise NotNowError(f"Match #{match_id} has its rematch already: match #{item.match_id}.")


async def rematch_terms(service, guild_id: int | None, member: int, match_id: int) -> Rematch:
    """The rematch ``member`` asks for after finished match ``match_id`` (same length, rules and
    stake; the *Rematch* button, the console's ``rematch``). Raises :class:`~club.errors.UnknownGameError` for a
    match not in this club, :class:`NotAPlayerError` for someone who did not play it, :class:`NotNowError` while
    it is not over or once it has its rematch (a money session has no rematch button: it ends when its players stop)."""
    from backgammon.rules import PRESETS

    from .frontend import in_club

    view = await service.state(await in_club(service, match_id, guild_id))
    side = view.side_of(member)
    if side is None:
        raise NotAPlayerError(f"Only {view.names[0]} and {view.names[1]} can ask for a rematch of match "
                              f"#{match_id}; challenge someone with /bg challenge.")  # fmt: skip
    if view.status != MatchStatus.OVER:
        raise NotNowError(f"Match #{match_id} is not over yet: a rematch is offered once it is.")
    if view.practice:
        raise NotNowError(f"Match #{match_id} was practice against the engine: start another with /study practice.")
    rules = dict(view.rules)
    await _check_no_rematch(service, guild_id, member, view.players[1 - side], match_id)
    name = rules.pop("name", None)
    return Rematch(match_id, member, view.players[1 - side], view.length, name if name in PRESETS else None, rules,
                   view.stake)  # fmt: skip


def autoroll_words(prefs) -> str:
    """What a member's auto-roll preferences (:class:`~club.settings.MemberPreferences`) mean, in one sentence."""
    if not prefs.auto_roll:
        return "Auto-roll is off: you roll yourself, also when you may not double."
    if prefs.roll_after:
        return f"Auto-roll is on, and I roll for you when you have not doubled within {prefs.roll_after:g} hours."
    return "Auto-roll is on: I roll for you when you may not double (opponent's cube, dead, Crawford)."


async def their_turn_games(service, member: int, guild_id: int | None, *, lapsed: bool = False) -> list:
    """The member's open matches waiting for his **opponent** (what a nudge, a claim or more time is about), as
    :class:`~club.frontend.GameChoice` s (key: the match id, ``waiting`` True); ``lapsed``: only those whose
    deadline has passed with nothing done (a claim is possible there under the ``claim`` policy)."""
    from .frontend import GameChoice, describe_item, open_games

    _waiting, others = await open_games(service, member, guild_id)
    now = service.clock.now()
    choices = []
    for item in others:
        if item.status != MatchStatus.ACTIVE:
            continue
        record = await service.db.get_deadline(item.match_id)
        if record is None or record.member_id == member or (lapsed and record.expired_at is None):
            continue
        choices.append(GameChoice(item.match_id, describe_item(item, False, due_at=record.due_at, now=now), True))
    return choices


async def resolve_their_turn(
    service, member: int, *, guild_id: int | None, given: int | None = None, here: int | None = None,
    lapsed: bool = False, how: str = "say which one with game: (its number)", links=None,
) -> int:  # fmt: skip
    """The match a nudge (or, ``lapsed``, a claim / more time) means: ``given``; else ``here`` (the game of the
    thread) if he plays in it; else **the one** game waiting for his opponent (:func:`their_turn_games`) — the
    game-addressing rule, never the last one named. ``links``: an optional ``async (ids) -> {id:
    url}`` for the list. Raises :class:`InvalidRequestError` with none or several, listing them."""
    from .frontend import GameChoice, in_club

    if given is not None:
        return await in_club(service, given, guild_id)
    if here is not None:
        record = await service.db.get_match(here)
        if record is not None and member in record.players:
            return await in_club(service, here, guild_id)
    choices = await their_turn_games(service, member, guild_id, lapsed=lapsed)
    if len(choices) == 1:
        return choices[0].key
    if links is not None and choices:
        found = await links([choice.key for choice in choices])
        choices = [GameChoice(c.key, f"{c.label} · {found[c.key]}" if found.get(c.key) else c.label, True)
                   for c in choices]  # fmt: skip
    shown = "\n".join(choice.label for choice in choices[:10])
    if len(choices) > 10:
        shown += f"\n… and {len(choices) - 10} more"
    if choices:
        raise InvalidRequestError(f"{len(choices)} of your games wait for your opponents: {how}.\n{shown}")
    if lapsed:
        raise InvalidRequestError("No opponent of yours has let their time run out: there is nothing to claim yet.")
    raise InvalidRequestError("None of your games is waiting for your opponent: there is nobody to nudge.")
