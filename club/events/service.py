"""The use-cases of club events: create, join, leave, check in, start, withdraw, ladder challenges, reports, the
organiser's decisions, the clock — and the hook that feeds a finished club match back into its event.

Every call loads the event (its log replayed, :mod:`club.events.log`), checks the request, applies it, lets the
format pair what is now due (:func:`~club.events.formats.settle`), and commits it all as one versioned append to the
event's log (:class:`storage.events.EventStore`). Two writers racing (two results of one round arriving together)
both read version *v*; one commits, the other's commit is refused and it starts again from the log — so the next
round is made once. The matches of new pairings are made after the commit, each claimed first
(:meth:`~storage.events.EventStore.claim_pairing`), so a restart or a second process never makes one twice and
:meth:`EventService.resume` makes any a crash left unmade.

Each pairing is an ordinary club match (:meth:`club.service.ClubService.challenge` from the first player to the
second, at the round's length and the event's rule set): the same clocks, reminders, away days, claims, dice proof
and review as any match. The match knows nothing of the event; when it ends, :meth:`EventService.match_ended`
(registered with :attr:`ClubService.match_end_hooks`) gets its id and reads its result:

- played out: the winner, and the match points won and lost (rated like any match);
- a forfeited or claimed match (the club's time policy): won by forfeit or claim, not rated;
- a challenge declined or left to lapse: the second player did not show — a forfeit to the first; a challenge
  cancelled by the first: a forfeit to the second.

At a pairing's deadline (:meth:`EventService.tick`) an unfinished match follows the club's ``expiry_policy``
(:data:`club.settings.EXPIRY_POLICIES`), for the member the match waits for:

- ``forfeit_match`` and ``forfeit_game``: he forfeits the match. A round must close: a forfeited game would leave
  the match, and so the round, open with no deadline left;
- ``claim``: nothing happens by itself. His opponent gets the claim notice (Claim the match) and the organiser is
  asked; a claim decides the pairing (a claim, not rated);
- ``nothing``: the organiser is asked.

The organiser is asked too when neither player has acted (award to either, replay, both out). While he is asked the
match may still be played out, or claimed, and then counts; after ``grace`` hours undecided both are out — the one
default, whatever the policy: the bot awards a match only where the club's policy forfeits the late member.

Refusals raise :class:`~club.errors.InvalidRequestError` (or :class:`~club.errors.UnknownMemberError`) with what was
wrong and what would be right; nothing is stored then.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, cast

from storage.errors import DuplicateError, VersionConflictError
from storage.events import Append, EventRecord, EventStore, NewEventAction
from storage.records import MatchRecord

from ..clocks import MatchClock, Notice
from ..errors import ClubError, InvalidRequestError, UnknownMemberError
from ..notices import EventNews
from ..settings import ClubSettings, ExpiryPolicy
from ..table import FINISHED, MatchStatus, TableAction
from ..wording import plural
from . import formats
from .formats import EventError, Format, How, Pairing, Result, Settings, finished, settle
from .log import (
    AskArgs,
    CheckinOpenArgs,
    CreateArgs,
    Event,
    EventAction,
    LiveNight,
    MemberArgs,
    NextArgs,
    NoArgs,
    PairArgs,
    Post,
    PostArgs,
    ReplayArgs,
    ResultArgs,
    Seeding,
    StartArgs,
    Status,
    apply,
    live_json,
    new_event,
    pairing_json,
    replay,
    result_json,
    settings_json,
)
from .standings import Row, standings
from .texts import name_of

if TYPE_CHECKING:
    from ..service import ClubService

log = logging.getLogger(__name__)

NEWS = (EventAction.RESULT, EventAction.PAIR, EventAction.ASK, EventAction.CLOSE)
"""The logged kinds of an event's action that a front end posts (results, new pairings, decisions asked, the end)."""
MAX_NAME = 40
RETRIES = 8
LARGE_FIELD = 64
"""Fields above this many players are paired in a worker thread."""
LIVE_HOURS = (1, 24)
"""The shortest and longest live night, in hours."""
LIVE_AHEAD = 365 * 86_400
"""How far ahead a live night may be scheduled, in seconds."""
WHEN_EXAMPLE = "2026-12-05 20:00"
"""How a live night's start is written (UTC), in examples and refusals."""


def parse_when(text: str) -> float:
    """A date and time as typed — ISO 8601 (``2026-12-05 20:00``, ``2026-12-05T20:00+01:00``; UTC when it names
    no offset) — as Unix seconds. Raises :class:`InvalidRequestError` saying what is expected."""
    try:
        when = dt.datetime.fromisoformat(str(text).strip())
    except ValueError:
        raise InvalidRequestError(
            f"{str(text)[:40]!r} is not a date and time: write it as {WHEN_EXAMPLE} (UTC) or "
            f"{WHEN_EXAMPLE.replace(' ', 'T')}+01:00."
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return when.timestamp()


class Decision(StrEnum):
    """The organiser's decision on an undecided pairing: award it to its first player (``a``) or its second (``b``),
    have it played again (a new match, a new deadline) or put both players out."""

    A = "a"
    B = "b"
    REPLAY = "replay"
    BOTH_OUT = "both_out"


Check = Callable[[Event], Sequence[NewEventAction] | Awaitable[Sequence[NewEventAction]]]
"""A use-case's check of the event as it stands: the actions to log (none: nothing to do), or a refusal raised."""


@dataclass(frozen=True, slots=True)
class EventUpdate:
    """What an event call did: the ``event`` as it now stands, ``text`` in words, the ``matches`` made for new
    pairings (``(pairing, match id)``: ping both players once), the ``results`` recorded, the pairings the organiser
    is ``asked`` to decide, whether the event ``ended`` with this call, and the claim ``notices`` to post in the
    matches of pairings now open to a claim (:class:`~club.clocks.Notice`, the ``claim`` policy; with
    :attr:`EventService.outbox`, recorded pending in the event's commit and posted from there)."""

    event: Event
    text: str
    matches: tuple[tuple[Pairing, int], ...] = ()
    results: tuple[Result, ...] = ()
    asked: tuple[str, ...] = ()
    ended: bool = False
    names: dict[int, str] = field(default_factory=dict)
    notices: tuple[Notice, ...] = ()
    news: EventNews | None = None
    """Its news in the outbox (:attr:`EventService.outbox`): the front end posts it under its nonces, then marks it
    posted (:func:`club.notices.news_posted`); None when there is none."""


@dataclass(frozen=True, slots=True)
class MemberEvents:
    """A member's finished events in a club: how many he ``played`` and his ``best`` finish as ``(place, event
    name)`` (None before his first)."""

    played: int
    best: tuple[int, str] | None

    def text(self) -> str:
        """ "Events: 3 played, best finish 1st in Spring Open." (or "no event finished yet")."""
        if not self.played or self.best is None:
            return "Events: no event finished yet."
        place, name = self.best
        return f"Events: {self.played} played, best finish {ordinal(place)} in {name}."


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st …"""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


@dataclass(frozen=True, slots=True)
class NextMatch:
    """A member's next event match (``/event my``): the event, the pairing, its club match (None until made),
    the opponent and the deadline."""

    event: str
    pairing: Pairing
    match_id: int | None
    opponent: int
    opponent_name: str
    deadline: float


class EventService:
    """The event use-cases over one :class:`~club.service.ClubService` (its database, clock and matches).
    ``grace``: hours the organiser has to decide a pairing neither player touched before both are out."""

    def __init__(self, service: ClubService, *, grace: float = 24) -> None:
        self.club = service
        self.db = service.db
        self.store = EventStore(service.db)
        self.grace = grace * 3600
        self._locks: dict[int, asyncio.Lock] = {}
        self.listeners: list[Callable[[EventUpdate], Awaitable[Any]]] = []
        """Called with every update that made matches or recorded results (whatever caused it: a command, a match's
        end, the clock) — how the Discord side posts pairings and pictures; a listener that fails is logged."""
        self.outbox = False
        """True when the front end posts what events do through the notices outbox (:mod:`club.notices`, the
        Discord bot): each commit that has something to post records it pending — its news
        (:class:`~club.notices.EventNews`) and its claim notices — so that a process killed before posting it loses
        nothing (the holder of the scheduler's lease posts what is pending)."""
        self.news: list[EventUpdate] = []
        """What the match-end hook did (results, new pairings) since a front end last took it (:meth:`take_news`):
        the hook runs inside a player's action, whose answer is about his match."""
        service.match_end_hooks.append(self.match_ended)

    def take_news(self) -> list[EventUpdate]:
        """The updates the match-end hook made since the last call (oldest first), and forget them."""
        news, self.news = self.news, []
        return news

    async def next_at(self) -> float | None:
        """When the next event deadline or organiser's default is due (for a clock that jumps), or None."""
        return await self.store.next_at()

    # -- reading ------------------------------------------------------------------------------------------------------
    async def load(self, event_id: int) -> Event:
        """The event ``event_id`` rebuilt from its log."""
        record = await self.store.get(event_id)
        if record is None:
            raise InvalidRequestError(f"There is no event {event_id}.")
        return replay(record.id, record.club_id, await self.store.log(event_id))

    async def find(self, guild_id: int, name: str) -> Event:
        """The club's event called ``name``. Raises :class:`InvalidRequestError` naming the club's events when
        there is none."""
        club_id = await self._club_id(guild_id)
        record = await self.store.named(club_id, name) if isinstance(name, str) else None
        if record is None:
            known = [r.name for r in await self.store.of_club(club_id, limit=10)]
            hint = f" This club's events: {', '.join(known)}." if known else " This club has no events yet."
            raise InvalidRequestError(f"There is no event called {name!r}.{hint}")
        return await self.load(record.id)

    async def named(self, guild_id: int, prefix: str = "", limit: int = 25) -> list[EventRecord]:
        """The club's events whose name starts with ``prefix`` (case-insensitive), the newest first (for
        autocomplete)."""
        club_id = await self._club_id(guild_id)
        records = await self.store.of_club(club_id, limit=200)
        low = prefix.lower()
        return [r for r in records if r.name.lower().startswith(low)][:limit]

    async def names(self, members: Sequence[int]) -> dict[int, str]:
        """Display names of ``members``."""
        found = await self.db.get_members(list(members))
        return {m: found[m].display_name if m in found else str(m) for m in members}

    async def may_organise(self, guild_id: int, *, admin: bool, roles: Iterable[str] = ()) -> bool:
        """Whether a member may organise the club's events: an ``admin`` (the front end's word), or a member holding
        the role the club names (``organiser_role`` of :class:`~club.settings.ClubSettings`, compared without case;
        "" names none) among his ``roles`` (their names)."""
        if admin:
            return True
        wanted = (await self.club.club_settings(guild_id)).organiser_role.casefold()
        return bool(wanted) and any(role.strip().casefold() == wanted for role in roles)

    async def standings(self, guild_id: int, name: str) -> tuple[Event, list[list[Row]]]:
        """The standings of an event: one table per division of a league, else one table."""
        event = await self.find(guild_id, name)
        state = self._started(event)
        if event.format is Format.LEAGUE:
            return event, [standings(state, division) for division in state.divisions]
        return event, [standings(state)]

    async def pairings(self, guild_id: int, name: str, round_no: int | None = None) -> Event:
        """The event ``name`` whose pairings of round ``round_no`` (None: the latest) a front end shows
        (:func:`~club.events.texts.pairings_text`). Raises :class:`InvalidRequestError` naming the rounds it has
        when it has no round ``round_no``."""
        event = await self.find(guild_id, name)
        rounds = {p.round for p in event.state.pairings.values()} if event.state is not None else set()
        if round_no is not None and rounds and round_no not in rounds:
            last = max(rounds)
            has = f"rounds 1–{last}" if last > 1 else "round 1 only"
            raise InvalidRequestError(f"{event.name} has {has}: there is no round {round_no}.")
        return event

    async def my(self, guild_id: int, member: int) -> list[NextMatch]:
        """``member``'s undecided pairings in the club's running events."""
        club_id = await self._club_id(guild_id)
        out = []
        for record in await self.store.of_club(club_id, (Status.RUNNING,)):
            event = await self.load(record.id)
            pairing = event.pairing_of(member)
            if pairing is None or pairing.b is None:
                continue
            links = await self.store.matches(event.id)
            opponent = pairing.other(member)
            assert opponent is not None
            names = await self.names([opponent])
            deadline = event.asked.get(pairing.key, pairing.deadline)
            out.append(NextMatch(event.name, pairing, links.get(self._link(event, pairing.key)), opponent,
                                 names[opponent], deadline))  # fmt: skip
        return out

    async def member_events(self, guild_id: int, member: int) -> MemberEvents:
        """``member``'s finished events in the club and his best finish (his place in the final standings)."""
        club_id = await self._club_id(guild_id)
        played, best = 0, None
        for record in await self.store.of_club(club_id, (Status.OVER,), limit=1000):
            event = await self.load(record.id)
            if event.state is None or member not in event.state.seeds:
                continue
            played += 1
            groups = list(event.state.divisions) or [event.state.seeds]
            number, group = next((i, g) for i, g in enumerate(groups, 1) if member in g)
            place = next(row.place for row in standings(event.state, group) if row.player == member)
            where = event.name + (f" (division {number})" if len(groups) > 1 else "")
            if best is None or place < best[0]:
                best = (place, where)
        return MemberEvents(played, best)

    async def export(self, guild_id: int, name: str) -> tuple[str, bytes]:
        """``(file name, ZIP bytes)`` of an event's results: ``results.csv`` (one line per pairing: round, key,
        players, winner, points, how, rated), ``event.json`` (settings, seeds, pairings with why, results,
        standings) and every played match's ``.mat`` file (:func:`club.export.export_mat`). Built in a worker
        thread."""
        from ..export import export_mat

        event = await self.find(guild_id, name)
        state = self._started(event)
        names = await self.names(event.entrants)
        links = await self.store.matches(event.id)
        mats = {}
        for key, match_id in links.items():
            if match_id is not None and key.split("#")[0] in state.results:
                mats[key] = await export_mat(self.club, match_id)
        tables = [standings(state, d) for d in state.divisions] or [standings(state)]
        return f"event-{event.id}.zip", await asyncio.to_thread(_zip, event, names, links, mats, tables)

    # -- before the start ---------------------------------------------------------------------------------------------
    async def create(
        self,
        guild_id: int,
        member: int,
        name: str,
        settings: Settings,
        *,
        organiser: bool,
        cap: int = 0,
        seeding: Seeding | str = Seeding.RATING,
        rules: str | None = None,
        entry: int = 0,
        channel_id: int | None = None,
    ) -> EventUpdate:
        """Create an event (open for joining). ``organiser``: the front end's word that ``member`` may organise
        (an admin, or a member with the club's organiser role). ``cap``: the most players (0: no cap; more join a
        waiting list). ``seeding``: ``rating`` or ``random``. ``rules``: a rule-set preset (default the club's).
        ``entry``: an entry fee, recorded only (no money changes hands). ``channel_id``: where a front end posts
        the event's pairings and pictures."""
        club_id, args = await self._creation(guild_id, member, name, settings, organiser=organiser, cap=cap,
                                             seeding=seeding, rules=rules, entry=entry, channel_id=channel_id)  # fmt: skip
        try:
            record = await self.store.create(
                club_id=club_id, name=args["name"], format=settings.format.value, created_by=member,
                action=NewEventAction(EventAction.CREATE, args, member), now=self.club.clock.now(),
            )  # fmt: skip
        except DuplicateError:
            raise _taken(args["name"]) from None
        event = await self.load(record.id)
        return EventUpdate(event, f"{event.name} is open: members join with /event join until the organiser starts it.")

    async def _creation(self, guild_id: int, member: int, name: str, settings: Settings, *, organiser: bool,
                        cap: int = 0, seeding: Seeding | str = Seeding.RATING, rules: str | None = None,
                        entry: int = 0, channel_id: int | None = None) -> tuple[int, CreateArgs]:  # fmt: skip
        """Check a new event's request (see :meth:`create`): its club's id and its creation's payload."""
        if not organiser:
            role = (await self.club.club_settings(guild_id)).organiser_role
            if not role:
                raise InvalidRequestError("Only a club admin can create an event: this club names no organiser "
                                          "role (an admin names one with organiser_role in the club settings).")  # fmt: skip
            raise InvalidRequestError(
                f"Only a club admin or a member with the club's organiser role ({role}) can create an event."
            )
        club_id = await self._club_id(guild_id)
        await self._require_member(club_id, member)
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
            raise InvalidRequestError(f"An event's name is 1 to {MAX_NAME} characters, for example 'Spring Open'.")
        name = " ".join(name.split())
        if isinstance(cap, bool) or not isinstance(cap, int) or not 0 <= cap <= 1024:
            raise InvalidRequestError("cap is the most players, 0 (no cap) to 1024.")
        if cap and cap < settings.min_players:
            raise InvalidRequestError(f"A cap below {settings.min_players} players leaves no event to play.")
        try:
            how = Seeding(seeding)
        except ValueError:
            raise InvalidRequestError("seeding is 'rating' (the club rating, best first) or 'random'.") from None
        if not isinstance(entry, int) or entry < 0:
            raise InvalidRequestError("entry is a whole number ≥ 0 (0: no entry).")
        if rules is not None:
            self._check_rules(rules, settings)
        return club_id, CreateArgs(name=name, settings=settings_json(settings), cap=cap, seeding=how.value,
                                   rules=rules, entry=entry, channel=channel_id)  # fmt: skip

    async def join(self, guild_id: int, name: str, member: int) -> EventUpdate:
        """``member`` joins (or, when the field is full, goes onto the waiting list)."""

        def check(event: Event) -> list[NewEventAction]:
            _not_called_off(event)
            if event.status is not Status.OPEN:
                raise InvalidRequestError(f"{event.name} has started: joining is closed.")
            if member in event.entrants or member in event.waiting:
                where = "in the field" if member in event.entrants else "on the waiting list"
                raise InvalidRequestError(f"You are already {where} of {event.name}.")
            return [NewEventAction(EventAction.JOIN, MemberArgs(member=member), member)]

        club_id = await self._club_id(guild_id)
        await self._require_member(club_id, member)
        update = await self._update(guild_id, name, check)
        place = "on the waiting list" if member in update.event.waiting else "in the field"
        count = len(update.event.entrants)
        return _with_text(update, f"You are {place} of {update.event.name} ({count} player"
                                  f"{'s' if count != 1 else ''} in the field).")  # fmt: skip

    async def leave(self, guild_id: int, name: str, member: int) -> EventUpdate:
        """``member`` leaves before the start (after it, :meth:`withdraw`)."""

        def check(event: Event) -> list[NewEventAction]:
            _not_called_off(event)
            if event.status is not Status.OPEN:
                raise InvalidRequestError(f"{event.name} has started: leaving is closed; "
                                          "use /event withdraw (you forfeit your remaining matches).")  # fmt: skip
            if member not in event.entrants and member not in event.waiting:
                raise InvalidRequestError(f"You are not in {event.name}.")
            return [NewEventAction(EventAction.LEAVE, MemberArgs(member=member), member)]

        update = await self._update(guild_id, name, check)
        return _with_text(update, f"You left {update.event.name}.")

    async def open_checkin(self, guild_id: int, name: str, member: int, hours: int, *, organiser: bool) -> EventUpdate:
        """Open check-in for ``hours``: at the start only those who checked in are seeded."""

        def check(event: Event) -> list[NewEventAction]:
            self._require_organiser(event, member, organiser)
            _not_called_off(event)
            if event.status is not Status.OPEN:
                raise InvalidRequestError(f"{event.name} has started.")
            if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= 168:
                raise InvalidRequestError("Check-in lasts 1 to 168 hours.")
            until = CheckinOpenArgs(until=self.club.clock.now() + hours * 3600)
            return [NewEventAction(EventAction.CHECKIN_OPEN, until, member)]

        update = await self._update(guild_id, name, check)
        return _with_text(update, f"Check-in for {update.event.name} is open for {hours} h: /event checkin.")

    async def checkin(self, guild_id: int, name: str, member: int) -> EventUpdate:
        """``member`` checks in."""

        def check(event: Event) -> list[NewEventAction]:
            _not_called_off(event)
            if event.status is not Status.OPEN or event.checkin_until is None:
                raise InvalidRequestError(f"{event.name} has no check-in open.")
            if self.club.clock.now() > event.checkin_until:
                raise InvalidRequestError(f"Check-in for {event.name} has closed.")
            if member in event.waiting:
                raise InvalidRequestError(f"You are on the waiting list of {event.name}: only its field checks in.")
            if member not in event.entrants:
                raise InvalidRequestError(f"You are not in the field of {event.name}: /event join first.")
            if member in event.checked_in:
                raise InvalidRequestError(f"You have already checked in to {event.name}.")
            return [NewEventAction(EventAction.CHECKIN, MemberArgs(member=member), member)]

        update = await self._update(guild_id, name, check)
        return _with_text(update, f"You are checked in to {update.event.name}.")

    async def start(self, guild_id: int, name: str, member: int, *, organiser: bool) -> EventUpdate:
        """Start the event: lock the field, seed it (club rating or random), make the first pairings."""
        ratings = await self._ratings(guild_id)

        def check(event: Event) -> list[NewEventAction]:
            self._require_organiser(event, member, organiser)
            _not_called_off(event)
            if event.status is not Status.OPEN:
                raise InvalidRequestError(f"{event.name} has already started.")
            field_ = [p for p in event.entrants if event.checkin_until is None or p in event.checked_in]
            need = event.settings.min_players
            if len(field_) < need:
                raise InvalidRequestError(
                    f"{event.name} needs at least {need} players to start; it has {len(field_)}"
                    + (" checked in." if event.checkin_until is not None else ".")
                )
            if event.seeding is Seeding.RANDOM:
                rng = secrets.SystemRandom()
                seeds = list(field_)
                rng.shuffle(seeds)
            else:
                seeds = sorted(field_, key=lambda p: (-ratings.get(p, 1500.0), field_.index(p)))
            args = StartArgs(seeds=seeds)
            if event.format is Format.LEAGUE:
                args["divisions"] = [list(d) for d in formats.divide(seeds, event.settings.division_size)]
            return [NewEventAction(EventAction.START, args, member)]

        update = await self._update(guild_id, name, check)
        state = update.event.state
        assert state is not None
        text = f"{update.event.name} has started with {plural(len(state.seeds), 'player')}."
        if update.event.format in (Format.SINGLE, Format.DOUBLE):
            lucky = [a if b == -1 else b for m, a, b, _ in formats.bracket_view(state)
                     if m.key.startswith("W1-") and -1 in (a, b)]  # fmt: skip
            if lucky:
                text += f" Byes to round 2: {', '.join(update.names.get(p, str(p)) for p in lucky if p)}."
        return _with_text(update, text)

    # -- while it runs -------------------------------------------------------------------------------------------------
    async def withdraw(self, guild_id: int, name: str, member: int) -> EventUpdate:
        """``member`` withdraws from a running event: he forfeits what he has left."""

        def check(event: Event) -> list[NewEventAction]:
            state = self._started(event)
            if member not in state.seeds:
                raise InvalidRequestError(f"You do not play in {event.name}.")
            if member in state.withdrawn:
                raise InvalidRequestError(f"You have already withdrawn from {event.name}.")
            if event.status is not Status.RUNNING:
                raise InvalidRequestError(f"{event.name} is over.")
            return [NewEventAction(EventAction.WITHDRAW, MemberArgs(member=member), member)]

        update = await self._update(guild_id, name, check)
        return _with_text(update, f"You withdrew from {update.event.name}; your remaining matches are forfeited.")

    async def challenge(self, guild_id: int, name: str, member: int, defender: int) -> EventUpdate:
        """A ladder challenge from ``member`` to ``defender`` (up to ``reach`` places above)."""

        def check(event: Event) -> list[NewEventAction]:
            state = self._started(event)
            if event.status is not Status.RUNNING:
                raise InvalidRequestError(f"{event.name} is over.")
            number = sum(1 for k in state.pairings if k.startswith("X")) + 1
            pairing = formats.challenge(state, member, defender, number)
            pairing = Pairing(pairing.key, pairing.round, pairing.a, pairing.b, pairing.why, False,
                              int(self.club.clock.now()) + event.settings.round_hours * 3600)  # fmt: skip
            return [NewEventAction(EventAction.PAIR, PairArgs(pairings=[pairing_json(pairing)]), member)]

        return await self._update(guild_id, name, check)

    async def report(self, guild_id: int, name: str, member: int, winner: int) -> EventUpdate:
        """``member`` reports that ``winner`` won his pairing. The club match's own result decides: a report that
        agrees records it (if the match's end was not recorded yet); one that disagrees, or about a match still
        being played, is refused; only the two players may report."""
        event = await self.find(guild_id, name)
        state = self._started(event)
        mine = [p for p in state.pairings.values() if member in p.players and p.b is not None]
        if not mine:
            raise InvalidRequestError(f"You have no match in {event.name}: only its two players report a result.")
        pairing = next((p for p in reversed(mine) if p.key not in state.results), mine[-1])
        if winner not in pairing.players:
            first, second = (await self.names(pairing.players)).values()
            raise InvalidRequestError(f"You report only your own match: {pairing.key} in {event.name} is "
                                      f"{first} against {second}.")  # fmt: skip
        links = await self.store.matches(event.id)
        match_id = links.get(self._link(event, pairing.key))
        record = None if match_id is None else await self.db.get_match(match_id)
        if pairing.key in state.results:
            recorded = state.results[pairing.key]
            if recorded.winner != winner:
                raise InvalidRequestError(
                    f"Match {pairing.key} is already recorded as won by "
                    f"{(await self.names([recorded.winner]))[recorded.winner] if recorded.winner else 'nobody'}."
                )
            return EventUpdate(event, f"Match {pairing.key} is already recorded; nothing to change.")
        if record is None or record.status not in FINISHED:
            raise InvalidRequestError(
                f"Match {pairing.key} is still being played"
                + (f" (match {match_id})" if match_id else "")
                + "; its result is recorded by itself when it ends."
            )
        result = await self._result_of(pairing, record, claimed=pairing.key in event.claims)
        if result.winner != winner:
            names = await self.names(pairing.players)
            won_by = "nobody" if result.winner is None else names[result.winner]
            raise InvalidRequestError(
                f"Match {record.id} was won by {won_by}, not {names[winner]}: the match's own result stands."
            )
        update = await self.match_ended(record.id)
        if update is None:
            return EventUpdate(event, "Recorded.")
        self.news.remove(update)  # the answer to the report, not news
        return update

    async def decide(
        self, guild_id: int, name: str, member: int, key: str, decision: Decision | str, *, organiser: bool
    ) -> EventUpdate:
        """The organiser decides pairing ``key``: a :class:`Decision` (or its value as typed)."""
        now = self.club.clock.now()
        try:
            chosen = Decision(decision)
        except ValueError:
            raise InvalidRequestError("The decision is a (award to the first player), b, replay or both_out.") from None

        def check(event: Event) -> list[NewEventAction]:
            self._require_organiser(event, member, organiser)
            state = self._started(event)
            pairing = state.pairings.get(key)
            if pairing is None or key in state.results or pairing.b is None:
                open_ = ", ".join(p.key for p in state.pending()) or "none"
                raise InvalidRequestError(f"{key!r} is not an undecided match of {event.name} (undecided: {open_}).")
            if chosen is Decision.REPLAY:
                deadline = int(now) + event.settings.round_hours * 3600
                return [NewEventAction(EventAction.REPLAY, ReplayArgs(key=key, deadline=deadline), member)]
            if chosen is Decision.BOTH_OUT:
                both_out = Result(key, None, None, 0, 0, How.BOTH_OUT)
                return [NewEventAction(EventAction.RESULT, result_json(both_out), member)]
            winner = pairing.a if chosen is Decision.A else pairing.b
            result = Result(key, winner, pairing.other(winner), 0, 0, How.FORFEIT)
            return [NewEventAction(EventAction.RESULT, result_json(result), member)]

        update = await self._update(guild_id, name, check)
        assert update.event.state is not None
        pairing = update.event.state.pairings[key]
        said = {Decision.A: f"awarded to <@{pairing.a}>", Decision.B: f"awarded to <@{pairing.b}>",
                Decision.REPLAY: "replayed — a new match and a new deadline", Decision.BOTH_OUT: "both out"}  # fmt: skip
        return _with_text(update, f"Decided {key}: {said[chosen]}.")

    async def close(self, guild_id: int, name: str, member: int, *, organiser: bool) -> EventUpdate:
        """The organiser ends the event (a ladder or a league season ends here; any other event is called off if
        it has matches left)."""

        def check(event: Event) -> list[NewEventAction]:
            self._require_organiser(event, member, organiser)
            if event.status in (Status.OVER, Status.CANCELLED):
                raise InvalidRequestError(f"{event.name} is already over.")
            done = event.state is not None and (event.format is Format.LADDER or finished(event.state))
            return [NewEventAction(EventAction.CLOSE if done else EventAction.CANCEL, NoArgs(), member)]

        update = await self._update(guild_id, name, check)
        if update.event.status is Status.CANCELLED:
            return _with_text(update, f"{update.event.name} is called off.")
        return update

    async def next_season(self, guild_id: int, name: str, member: int, new_name: str, *, organiser: bool
                          ) -> EventUpdate:  # fmt: skip
        """A new league season from a finished one: the same settings and players, the top ``up`` of each
        division promoted and the bottom ``down`` relegated (:func:`~club.events.formats.promote`); it starts at
        once. A season is followed once: the old one logs its next (``next``), and a second is refused. The new
        event's creation, its joins and start (with its first pairings) and the old one's ``next`` are one write:
        a crash leaves both seasons as they were, or the new one started."""
        old = await self.find(guild_id, name)
        state = self._started(old)
        if old.format is not Format.LEAGUE or not finished(state):
            raise InvalidRequestError(f"{old.name} is not a finished league season.")
        if old.next_season is not None:
            raise InvalidRequestError(f"{old.name}'s next season is {old.next_season} already.")
        tables = [[row.player for row in standings(state, d) if row.player not in state.withdrawn]
                  for d in state.divisions]  # fmt: skip
        divisions = formats.promote(tables, old.settings.up, old.settings.down)
        club_id, args = await self._creation(guild_id, member, new_name, old.settings, organiser=organiser,
                                             rules=old.rules)  # fmt: skip
        seeds = [p for d in divisions for p in d]
        now = self.club.clock.now()
        event = new_event(0, club_id, member, args, now)
        event.version = 1
        joins = [NewEventAction(EventAction.JOIN, MemberArgs(member=p), p) for p in seeds]
        start = NewEventAction(
            EventAction.START, StartArgs(seeds=seeds, divisions=[list(d) for d in divisions]), member
        )
        try:
            then = await self._with_consequences(event, [*joins, start], now)
        except EventError as error:
            raise InvalidRequestError(await self._named(str(error))) from None
        news: list[EventNews] = []

        def pending(event_id: int) -> list[tuple[str, dict]]:
            told = self.outbox and any(a.kind in NEWS for a in then)
            news[:] = [EventNews(event_id, 1, 1 + len(then))] if told else []
            return [item.recorded() for item in news]

        followed = Append(old.id, old.version, [NewEventAction(EventAction.NEXT, NextArgs(name=args["name"]), member)],
                          old.status.value, old.next_at())  # fmt: skip
        try:
            record = await self.store.create(
                club_id=club_id, name=args["name"], format=old.settings.format.value, created_by=member,
                action=NewEventAction(EventAction.CREATE, args, member), now=now, then=then,
                status=event.status.value, next_at=event.next_at(), notices=pending, also=followed,
            )  # fmt: skip
        except DuplicateError:
            raise _taken(args["name"]) from None
        except VersionConflictError:
            raise InvalidRequestError(f"{old.name} changed meanwhile; try again.") from None
        event = await self.load(record.id)
        made = await self._make_matches(event)
        names = await self.names(event.entrants)
        results = tuple(event.state.results.values()) if event.state else ()
        update = EventUpdate(event, _describe(event, made, results, (), names), made, results, names=names,
                             news=news[0] if news else None)  # fmt: skip
        if made or results or news:
            await self._tell(update)
        text = f"{event.name} has started: {plural(len(divisions), 'division')} from {old.name}."
        for d in range(len(divisions) - 1):
            went_up = [f"<@{p}>" for p in divisions[d] if p in tables[d + 1]]
            went_down = [f"<@{p}>" for p in divisions[d + 1] if p in tables[d]]
            if went_up or went_down:
                text += (f" Up to division {d + 1}: {', '.join(went_up) or 'nobody'}; down to division {d + 2}: "
                         f"{', '.join(went_down) or 'nobody'}.")  # fmt: skip
        return _with_text(update, text)

    # -- what a front end posts -------------------------------------------------------------------------------------
    async def remember(self, event_id: int, what: Post, post_id: int) -> Event:
        """Log where a front end posts event ``event_id``: ``what`` is its :class:`~club.events.log.Post` (the
        picture's message is edited after each result), ``post_id`` the id. Returns the event as it now stands.
        Raises ``ValueError`` for another kind of post."""
        where = Post(what)
        return await self._note(event_id, NewEventAction(EventAction.POST, PostArgs(what=where.value, id=post_id)))

    async def check_live(self, guild_id: int, name: str, member: int, start: float, hours: int, *, organiser: bool
                         ) -> Event:  # fmt: skip
        """Check a live night before a front end schedules it: the organiser's, of an event not over, starting in
        the future (within a year) and lasting ``hours`` (1 to 24). Returns the event; raises
        :class:`InvalidRequestError` (nothing is stored)."""
        event = await self.find(guild_id, name)
        self._require_organiser(event, member, organiser)
        if event.status in (Status.OVER, Status.CANCELLED):
            raise InvalidRequestError(f"{event.name} is over: there is no live night to schedule.")
        low, high = LIVE_HOURS
        if isinstance(hours, bool) or not isinstance(hours, int) or not low <= hours <= high:
            raise InvalidRequestError(f"A live night lasts {low} to {high} hours, not {hours!r}.")
        now = self.club.clock.now()
        if not now < start <= now + LIVE_AHEAD:
            today = dt.datetime.fromtimestamp(now, dt.UTC).strftime("%Y-%m-%d %H:%M")
            raise InvalidRequestError(f"A live night starts in the future, within a year (it is {today} UTC now).")
        return event

    async def record_live(self, event_id: int, member: int, night: LiveNight) -> Event:
        """Log the live night a front end scheduled (checked first with :meth:`check_live`)."""
        return await self._note(event_id, NewEventAction(EventAction.LIVE, live_json(night), member))

    async def _note(self, event_id: int, action: NewEventAction) -> Event:
        """Log ``action``, which changes no pairing or result (so nothing is settled), again from the log if
        another writer got there first."""
        lock = self._locks.setdefault(event_id, asyncio.Lock())
        for _ in range(RETRIES):
            async with lock:
                event = await self.load(event_id)
                try:
                    await self.store.commit(event_id, event.version, [action], self.club.clock.now(),
                                            status=event.status.value, next_at=event.next_at())  # fmt: skip
                except VersionConflictError:
                    continue
                apply(event, action.kind, dict(action.args), action.member_id)
                event.version += 1
                return event
        raise InvalidRequestError("The event changed too often at once; try again.")

    # -- the hook and the clock -----------------------------------------------------------------------------------------
    async def match_ended(self, match_id: int) -> EventUpdate | None:
        """Club match ``match_id`` has ended: record its result in its event (if it plays an event's pairing)
        and pair what is due. None when it is not an event match or its pairing is already decided."""
        found = await self.store.pairing_of_match(match_id)
        if found is None:
            return None
        event_id, link = found
        record = await self.db.get_match(match_id)
        if record is None:
            return None
        key = link.split("#")[0]

        async def check(event: Event) -> list[NewEventAction]:
            state = self._started(event)
            if key in state.results or self._link(event, key) != link:
                return []  # already decided (an award, a walkover), or a replayed match's old one
            result = await self._result_of(state.pairings[key], record, claimed=key in event.claims)
            return [NewEventAction(EventAction.RESULT, result_json(result))]

        update = await self._update_id(event_id, check)
        if update.text:
            self.news.append(update)
        return update

    async def tick(self, now: float | None = None) -> list[EventUpdate]:
        """Apply the events' deadlines at ``now`` (default the club clock): an unfinished match past its deadline
        follows the club's expiry policy (see the module docstring: the late member forfeits it, or it is open to
        a claim, or the organiser is asked); a match neither player touched asks the organiser; after the grace
        period both are out. Returns what changed."""
        now = self.club.clock.now() if now is None else now
        out = []
        for record in await self.store.due(now):
            update = await self._tick_event(record.id, now)
            if update is not None:
                out.append(update)
        return out

    async def _tick_event(self, event_id: int, now: float) -> EventUpdate | None:
        event = await self.load(event_id)
        self._started(event)
        club = await self.db.get_club_by_id(event.club_id)
        policy = ClubSettings.from_json(club.settings).expiry_policy if club is not None else ExpiryPolicy.NOTHING
        notices = []
        for pairing, record, late in await self._late_matches(event, now):
            if policy is ExpiryPolicy.CLAIM:  # his opponent may claim the match now: the claim notice, the event named
                names = await self.names(pairing.players)
                text = (f"{event.name} {pairing.key}: the round's deadline has passed and match {record.id} waits for "
                        f"{names[late]}. ")  # fmt: skip
                notice = await MatchClock(self.club).open_claim(record.id, now, text)
                if notice is not None:
                    notices.append(dataclasses.replace(notice, text=notice.text + _unless_decided(now + self.grace)))
            elif policy in (ExpiryPolicy.FORFEIT_MATCH, ExpiryPolicy.FORFEIT_GAME):
                try:  # the match ends as any match does; its end feeds the event through the hook
                    await self.club.expire(record.id, record.players.index(late), TableAction.FORFEIT_MATCH,
                                           version=record.version)  # fmt: skip
                except ClubError:
                    log.info("event %s: match %s changed at its deadline; read again next tick", event_id, record.id)

        async def check(event: Event) -> list[NewEventAction]:
            actions = []
            links = await self.store.matches(event_id)
            for pairing in self._started(event).pending():
                if pairing.b is None:
                    continue
                if pairing.key in event.asked:
                    if event.asked[pairing.key] <= now:  # nobody decided in the grace period: both are out
                        result = Result(pairing.key, None, None, 0, 0, How.BOTH_OUT)
                        actions.append(NewEventAction(EventAction.RESULT, result_json(result)))
                    continue
                if pairing.deadline > now:
                    continue
                match_id = links.get(self._link(event, pairing.key))
                record = None if match_id is None else await self.db.get_match(match_id)
                if record is not None and record.status in FINISHED:
                    result = await self._result_of(pairing, record, claimed=False)
                    actions.append(NewEventAction(EventAction.RESULT, result_json(result)))
                    continue
                late = None if record is None else await self._late(record, pairing)
                if late is None:
                    actions.append(
                        NewEventAction(EventAction.ASK, AskArgs(key=pairing.key, default_at=now + self.grace))
                    )
                elif policy in (ExpiryPolicy.NOTHING, ExpiryPolicy.CLAIM):
                    ask = AskArgs(key=pairing.key, default_at=now + self.grace, late=late,
                                  claim=policy is ExpiryPolicy.CLAIM)  # fmt: skip
                    actions.append(NewEventAction(EventAction.ASK, ask))
            return actions

        update = await self._update_id(event_id, check, tuple(notices))
        return update if update.text else None

    async def _late_matches(self, event: Event, now: float) -> list[tuple[Pairing, MatchRecord, int]]:
        """``(pairing, club match, late member)`` of each pairing past its deadline, not yet asked of the
        organiser, whose match is being played and waits for a member (:meth:`_late`)."""
        assert event.state is not None
        links = await self.store.matches(event.id)
        found = []
        for pairing in event.state.pending():
            if pairing.b is None or pairing.key in event.asked or pairing.deadline > now:
                continue
            match_id = links.get(self._link(event, pairing.key))
            record = None if match_id is None else await self.db.get_match(match_id)
            if record is None or record.status != MatchStatus.ACTIVE:
                continue
            late = await self._late(record, pairing)
            if late is not None:
                found.append((pairing, record, late))
        return found

    async def _late(self, record: MatchRecord, pairing: Pairing) -> int | None:
        """The member an unfinished event match waits for at its deadline, if either player has acted in it; None
        when neither has (the organiser decides) or it cannot be told."""
        acted = await self.store.acted(record.id)
        if not acted or record.status != MatchStatus.ACTIVE:
            return None
        if record.waiting_for in pairing.players:
            return record.waiting_for
        return next((p for p in pairing.players if p not in acted), None)

    async def news_of(self, news: EventNews) -> EventUpdate:
        """The update of the commit ``news`` names, rebuilt from the event's log (what a process killed before
        posting it left pending): its results, the pairings it made with their matches (those made so far), the
        decisions it asked, the claim notices aside (they are pending themselves)."""
        event = await self.load(news.event_id)
        actions = [a for a in await self.store.log(news.event_id, news.after) if a.seq <= news.version]
        state = event.state
        results: tuple[Result, ...] = ()
        made: list[tuple[Pairing, int]] = []
        if state is not None:
            results = tuple(state.results[key] for a in actions if a.kind == EventAction.RESULT
                            if (key := cast(ResultArgs, a.args)["key"]) in state.results)  # fmt: skip
            links = await self.store.matches(event.id)
            for pairing in (
                p for a in actions if a.kind == EventAction.PAIR for p in cast(PairArgs, a.args)["pairings"]
            ):
                match_id = links.get(self._link(event, pairing["key"]))
                if match_id is not None and pairing["key"] in state.pairings:
                    made.append((state.pairings[pairing["key"]], match_id))
        asked = tuple(cast(AskArgs, a.args)["key"] for a in actions if a.kind == EventAction.ASK)
        names = await self.names(event.entrants)
        return EventUpdate(event, _describe(event, made, results, asked, names), tuple(made), results, asked,
                           any(a.kind == EventAction.CLOSE for a in actions), names, (), news)  # fmt: skip

    async def resume(self) -> list[EventUpdate]:
        """Make the matches a crash left unmade (pairings claimed or logged without their match) in every running
        event; run once at start-up."""
        out = []
        rows = await self.store.due(float("inf"), limit=10_000)
        for record in rows:
            event = await self.load(record.id)
            made = await self._make_matches(event, force=True)
            if made:
                update = EventUpdate(event, f"{len(made)} match(es) of {event.name} made after a restart.", made)
                await self._tell(update)
                out.append(update)
        return out

    # -- the unit of work -------------------------------------------------------------------------------------------
    async def _update(self, guild_id: int, name: str, check: Check) -> EventUpdate:
        event = await self.find(guild_id, name)
        return await self._update_id(event.id, check)

    async def _update_id(self, event_id: int, check: Check,
                         notices: tuple[Notice, ...] = ()) -> EventUpdate:  # fmt: skip
        """Load, check, apply, settle, commit (again from the log if another writer got there first), then make
        the matches of new pairings; ``notices``: claim notices to hand on with the update."""
        lock = self._locks.setdefault(event_id, asyncio.Lock())
        for _ in range(RETRIES):
            async with lock:
                event = await self.load(event_id)
                now = self.club.clock.now()
                before = set(event.state.results) if event.state else set()
                try:
                    actions = check(event)
                    if isinstance(actions, Awaitable):
                        actions = await actions
                    if not actions:
                        return EventUpdate(event, "")
                    actions = await self._with_consequences(event, list(actions), now)
                except EventError as error:
                    raise InvalidRequestError(await self._named(str(error))) from None
                news = None
                if self.outbox and (notices or any(a.kind in NEWS for a in actions)):
                    news = EventNews(event_id, event.version, event.version + len(actions))
                recorded = [notice.recorded() for notice in notices] if self.outbox else []
                try:
                    await self.store.commit(event_id, event.version, actions, now, status=event.status.value,
                                            next_at=event.next_at(),
                                            notices=recorded + ([news.recorded()] if news else []))  # fmt: skip
                except VersionConflictError:
                    continue
                event.version += len(actions)
            made = await self._make_matches(event)
            state = event.state
            results = tuple(r for k, r in (state.results.items() if state else ()) if k not in before)
            await self._close_matches(event, results)
            asked = tuple(cast(AskArgs, a.args)["key"] for a in actions if a.kind == EventAction.ASK)
            names = await self.names(event.entrants)
            update = EventUpdate(event, _describe(event, made, results, asked, names), made, results, asked,
                                 any(a.kind == EventAction.CLOSE for a in actions), names, notices, news)  # fmt: skip
            if made or results or asked or notices or news is not None:
                await self._tell(update)
            return update
        raise InvalidRequestError("The event changed too often at once; try again.")

    async def _with_consequences(self, event: Event, actions: list[NewEventAction], now: float) -> list[NewEventAction]:
        """Apply ``actions`` to ``event`` and add what follows: the pairings now due (byes, walkovers) and the
        close when the last match is decided. A large field is paired in a worker thread (a late Swiss round of
        hundreds may take a tenth of a second), off the event loop."""
        for action in actions:
            apply(event, action.kind, dict(action.args), action.member_id)
        out = list(actions)
        state = event.state
        if event.status is Status.RUNNING and state is not None:
            if len(state.seeds) > LARGE_FIELD:
                due = await asyncio.to_thread(settle, state, int(now))
            else:
                due = settle(state, int(now))
            if due.pairings:
                out.append(NewEventAction(EventAction.PAIR, PairArgs(pairings=[pairing_json(p) for p in due.pairings])))
            out += [NewEventAction(EventAction.RESULT, result_json(r)) for r in due.results]
            for action in out[len(actions) :]:
                apply(event, action.kind, dict(action.args), None)
            if event.format is not Format.LADDER and finished(state):
                out.append(NewEventAction(EventAction.CLOSE, NoArgs()))
                apply(event, EventAction.CLOSE, NoArgs(), None)
        return out

    async def _close_matches(self, event: Event, results: Sequence[Result]) -> None:
        """End the club matches still open of pairings the event has just decided without them (an award, both
        out, a walkover), so that nobody plays a match that no longer counts: an unanswered challenge lapses, a
        match being played is forfeited by the loser (both out: by the member it waits for). Their end reaches the
        hook, which finds the pairing decided."""
        links = None
        for result in results:
            if result.how in (How.PLAYED, How.BYE):
                continue
            links = links if links is not None else await self.store.matches(event.id)
            match_id = links.get(self._link(event, result.key))
            record = None if match_id is None else await self.db.get_match(match_id)
            if record is None or record.status not in (MatchStatus.CHALLENGED, MatchStatus.ACTIVE):
                continue
            try:
                if record.status == MatchStatus.CHALLENGED:
                    await self.club.expire(record.id, None, TableAction.LAPSE, version=record.version)
                    continue
                loser = result.loser if result.loser is not None else record.waiting_for
                if loser in record.players:
                    side = record.players.index(loser)
                    await self.club.expire(record.id, side, TableAction.FORFEIT_MATCH, version=record.version)
            except ClubError:
                log.info("event %s: match %s changed while it was closed; it no longer counts", event.id, record.id)

    async def _make_matches(self, event: Event, *, force: bool = False) -> tuple[tuple[Pairing, int], ...]:
        """Make the club match of every undecided pairing that has none (claimed first: made once)."""
        if event.state is None or event.status is not Status.RUNNING:
            return ()
        links = await self.store.matches(event.id)
        club = await self.db.get_club_by_id(event.club_id)
        assert club is not None
        made = []
        for pairing in event.state.pending():
            if pairing.b is None:
                continue
            link = self._link(event, pairing.key)
            if link in links:
                if not (force and links[link] is None):
                    continue
            elif not await self.store.claim_pairing(event.id, link, self.club.clock.now()):
                continue
            try:
                outcome = await self.club.challenge(
                    club.guild_id, pairing.a, pairing.b, length=event.settings.length(pairing), rules=event.rules
                )
            except ClubError as error:
                log.warning("event %s: the match of %s could not be made: %s", event.id, pairing.key, error)
                continue
            await self.store.link_match(event.id, link, outcome.match_id)
            made.append((pairing, outcome.match_id))
        return tuple(made)

    async def _result_of(self, pairing: Pairing, record: MatchRecord, *, claimed: bool) -> Result:
        """The result of ``pairing`` as its ended club match ``record`` tells it (see the module docstring);
        ``claimed``: the pairing was open to a claim, so a forfeited match was claimed."""
        a, b = record.players
        if record.status in (MatchStatus.DECLINED, MatchStatus.EXPIRED):
            return Result(pairing.key, a, b, 0, 0, How.FORFEIT)
        if record.status == MatchStatus.CANCELLED:
            return Result(pairing.key, b, a, 0, 0, How.FORFEIT)
        if record.winner is None:
            return Result(pairing.key, None, None, 0, 0, How.BOTH_OUT)
        winner, loser = record.players[record.winner], record.players[1 - record.winner]
        scores = (record.score0, record.score1)
        game_forfeit, match_forfeit = await self.store.match_ending(record.id)
        how = How.PLAYED
        if match_forfeit or game_forfeit:  # a claim, or the club's forfeit policy
            how = How.CLAIM if claimed or not match_forfeit else How.FORFEIT
        return Result(pairing.key, winner, loser, scores[record.winner], scores[1 - record.winner], how)

    async def _tell(self, update: EventUpdate) -> None:
        for listener in self.listeners:
            try:
                await listener(update)
            except Exception:
                log.exception("event %s: a listener failed", update.event.id)

    async def _named(self, text: str) -> str:
        """``text`` with each member mention (``<@id>``) written as his display name."""
        ids = [int(m) for m in re.findall(r"<@(\d+)>", text)]
        for member, name in (await self.names(ids)).items():
            text = text.replace(f"<@{member}>", name)
        return text

    @staticmethod
    def _link(event: Event, key: str) -> str:
        """The ``event_matches`` key of the match now playing ``key`` (a replay gets a new one)."""
        count = event.replays.get(key, 0)
        return key if not count else f"{key}#{count}"

    # -- checks ---------------------------------------------------------------------------------------------------------
    async def _club_id(self, guild_id: int) -> int:
        club = await self.db.get_club(guild_id)
        if club is None:
            raise InvalidRequestError("This server has no club yet: register members first.")
        return club.id

    async def _require_member(self, club_id: int, member: int) -> None:
        if await self.db.get_member(member) is None:
            raise UnknownMemberError(f"User {member} is not a member yet: use the bot once to register.")
        if not await self.db.is_club_member(club_id, member):
            raise InvalidRequestError("Only members of this club can take part in its events.")

    @staticmethod
    def _require_organiser(event: Event, member: int, organiser: bool) -> None:
        if not organiser and member != event.organiser:
            raise InvalidRequestError(f"Only the organiser of {event.name} or a club admin can do that.")

    @staticmethod
    def _started(event: Event) -> formats.EventState:
        if event.state is None:
            _not_called_off(event)
            raise InvalidRequestError(f"{event.name} has not started yet.")
        return event.state

    def _check_rules(self, rules: str, settings: Settings) -> None:
        from backgammon.rules import RuleSet

        try:
            rule_set = RuleSet.preset(rules)
            for length in {*settings.lengths, settings.final_length or settings.lengths[-1]}:
                rule_set.validate_for(length)
        except Exception as error:  # the rules' own errors say what is wrong
            raise InvalidRequestError(f"rules: {error}") from None

    async def _ratings(self, guild_id: int) -> dict[int, float]:
        from ..records.service import ClubRecords

        try:
            ratings = await ClubRecords(self.club).ratings(guild_id)
        except ClubError:
            return {}
        return {member: rating.rating for member, rating in ratings.items()}


def _zip(event: Event, names: dict[int, str], links: dict[str, int | None], mats: dict[str, tuple[str, str]],
         tables: list[list[Row]]) -> bytes:  # fmt: skip
    """The export's ZIP (see :meth:`EventService.export`)."""
    import csv
    import io
    import json
    import zipfile

    state = event.state
    assert state is not None
    text = io.StringIO()
    out = csv.writer(text)
    out.writerow(["round", "match", "player_a", "player_b", "winner", "points_won", "points_lost", "how", "rated",
                  "club_match"])  # fmt: skip
    for key, pairing in state.pairings.items():
        result = state.results.get(key)
        out.writerow([
            pairing.round, key, names.get(pairing.a, pairing.a), "" if pairing.b is None else names.get(pairing.b),
            "" if result is None or result.winner is None else names.get(result.winner, result.winner),
            "" if result is None else result.won, "" if result is None else result.lost,
            "" if result is None else result.how.value, "" if result is None else int(result.how.rated),
            links.get(key) or "",
        ])  # fmt: skip
    data = {
        "name": event.name, "settings": settings_json(event.settings), "status": event.status.value,
        "seeds": [{"seed": i + 1, "member": p, "name": names.get(p, str(p))} for i, p in enumerate(state.seeds)],
        "pairings": [pairing_json(p) for p in state.pairings.values()],
        "results": [result_json(r) for r in state.results.values()],
        "standings": [[{"place": r.place, "member": r.player, "name": names.get(r.player, str(r.player)),
                        "wins": r.wins, "losses": r.losses, "head_to_head": r.head_to_head,
                        "buchholz": r.buchholz, "points_won": r.won, "points_lost": r.lost, "why": r.why}
                       for r in rows] for rows in tables],
    }  # fmt: skip
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("results.csv", text.getvalue())
        archive.writestr("event.json", json.dumps(data, ensure_ascii=False, indent=1))
        for key, (filename, mat) in sorted(mats.items()):
            archive.writestr(f"matches/{key.replace('#', '-replay')}-{filename}", mat)
    return buffer.getvalue()


def _taken(name: str) -> InvalidRequestError:
    return InvalidRequestError(f"This club already has an event called {name!r}; choose another name.")


def _not_called_off(event: Event) -> None:
    """Refuse any request on an event called off before its start (it neither started nor is open)."""
    if event.status is Status.CANCELLED and event.state is None:
        raise InvalidRequestError(f"{event.name} was called off.")


def _with_text(update: EventUpdate, text: str) -> EventUpdate:
    rest = f"\n{update.text}" if update.text else ""
    return dataclasses.replace(update, text=text + rest)


def _describe(event: Event, made: Sequence[tuple[Pairing, int]], results: Sequence[Result], asked: Sequence[str],
              names: dict[int, str]) -> str:  # fmt: skip
    """What an update did, in words: results, new pairings (with their match ids), decisions asked, the end."""
    lines = []
    for result in results:
        if result.how is How.BYE:
            lines.append(f"{result.key}: {name_of(names, result.winner)} has a bye.")
        elif result.how is How.BOTH_OUT:
            lines.append(f"{result.key}: both players are out.")
        elif result.how is How.PLAYED:
            lines.append(f"{result.key}: {name_of(names, result.winner)} beat "
                         f"{name_of(names, result.loser)} {result.won}–{result.lost}.")  # fmt: skip
        else:
            lines.append(f"{result.key}: {name_of(names, result.winner)} wins by {result.how.value} "
                         f"against {name_of(names, result.loser)} (not rated).")  # fmt: skip
    for pairing, match_id in made:
        lines.append(f"{pairing.key}: {name_of(names, pairing.a)} v {name_of(names, pairing.b)} — "
                     f"match {match_id}, {plural(event.settings.length(pairing), 'point')}.")  # fmt: skip
    for key in asked:
        assert event.state is not None
        a, b = (names.get(p, str(p)) for p in event.state.pairings[key].players)
        lines.append(f"{key}: {asked_words(event, key, names)} — the organiser decides (a: award to {a}, b: award to "
                     f"{b}, replay, both_out); both are out if nobody decides.")  # fmt: skip
    if event.status is Status.OVER:
        lines.append(f"{event.name} is over.")
    return "\n".join(lines)


def asked_words(event: Event, key: str, names: dict[int, str]) -> str:
    """Why the organiser is asked to decide pairing ``key``: "neither player has played by the deadline", or whom
    its match keeps waiting (and that his opponent may claim it)."""
    late = event.late.get(key)
    if late is None:
        return "neither player has played by the deadline"
    pairing = event.state.pairings[key] if event.state is not None else None
    other = pairing.other(late) if pairing is not None else None
    words = f"the match keeps waiting for {names.get(late, late)} past the deadline"
    if key in event.claims and other is not None:
        words += f"; {names.get(other, other)} may claim it"
    return words


def _unless_decided(default_at: float) -> str:
    """The end of an event's claim notice: who else decides, and the default."""
    when = f"<t:{int(default_at)}:f>"
    return f" The organiser may decide it too; if nobody has by {when}, both players are out of this match."
