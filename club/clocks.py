"""The deadline model and the tables' clocks (RULES A2, M5, C5, C9): :class:`Deadline`, :class:`Notice`, the
:class:`TableClock` hooks and the two tables' clocks, :class:`MatchClock` (1-on-1 matches and money sessions) and
:class:`ChouetteClock`. :mod:`club.scheduler` fires them (:func:`club.scheduler.run_due`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from backgammon.game import Action

from .describe import claim_terms, pending_words
from .errors import ClubError, StaleVersionError, UnknownGameError
from .settings import ClubSettings, ExpiryPolicy
from .table import Pending, TableAction

if TYPE_CHECKING:
    from .chouette.service import ChouetteService
    from .service import ClubService

MEMBER, PROXY = "member", "proxy"


class NoticeKind(StrEnum):
    """What a :class:`Notice` tells: a deadline's ``reminder`` or ``expiry`` (:meth:`Deadline.classify`), or what
    the club did about a member's absence and answers (:mod:`club.correspondence`). Stored as its value."""

    REMINDER = "reminder"
    EXPIRY = "expiry"
    AUTO_ROLL = "auto_roll"
    AWAY = "away"
    AWAY_DAY = "away_day"
    BACK = "back"
    MORE_TIME = "more_time"
    NUDGE = "nudge"
    PAUSED = "paused"
    PING = "ping"


class Claim(StrEnum):
    """What the opponent of a late member may do under the ``claim`` expiry policy (RULES A2, M5): claim the game,
    claim the match, or give 24 hours more. Stored as its value (notices, button ids)."""

    CLAIM_GAME = "claim_game"
    CLAIM_MATCH = "claim_match"
    MORE_TIME = "more_time"


_FORFEITS = {ExpiryPolicy.FORFEIT_GAME: Action.FORFEIT, ExpiryPolicy.FORFEIT_MATCH: TableAction.FORFEIT_MATCH}
"""The action the club takes at a late member's expiry under each forfeiting policy (RULES A2, M5)."""


@dataclass(frozen=True, slots=True)
class Deadline:
    """One deadline of one table, whatever the table.

    ``table`` ``"match"`` (a 1-on-1 match or money session, ``table_id`` its match id) or ``"chouette"``
    (``table_id`` its session id); ``subject`` whose decision it is, ``actor`` who must make it now, ``stage``
    ``"member"`` or ``"proxy"``; ``pending`` what is awaited (``roll``, ``play``, ``answer_challenge``, ...);
    ``version`` the table version it was set at, ``mark`` the chouette turn mark (``"3.12"``; empty for a match);
    ``due_at`` the expiry, ``reminders`` the reminder times still to send (Unix s), ``reminders_sent`` how many were
    sent, ``expired_at`` when the expiry fired (None: not yet), ``next_at`` the next thing to fire (None: nothing).
    ``stored`` is the table's own stored row (for its hooks); ``set_at`` when the deadline was set."""

    table: str
    table_id: int
    subject: int
    actor: int
    stage: str
    pending: str
    version: int
    due_at: float
    reminders: tuple[float, ...]
    reminders_sent: int
    expired_at: float | None
    next_at: float | None
    mark: str = ""
    stored: Any = None
    set_at: float = 0.0

    def classify(self, now: float) -> NoticeKind | None:
        """What fires at ``now``: ``"expiry"`` (once ``due_at`` has passed and it has not fired), ``"reminder"``
        (a reminder time has passed), else None."""
        if self.next_at is None or self.next_at > now:
            return None
        if now >= self.due_at:
            return NoticeKind.EXPIRY if self.expired_at is None else None
        return NoticeKind.REMINDER if any(at <= now for at in self.reminders) else None


@dataclass(frozen=True, slots=True)
class Notice:
    """A fired reminder or expiry to post: ``kind`` (``reminder``/``expiry``), the ``table`` and ``table_id``,
    whose decision (``subject``), who may make it (``actor``), ``pending``, ``due_at``, ``text`` (in words),
    ``ping`` (the members to mention, in order) and the ``outcome`` when the club acted (a lapse, a forfeit, a
    proxy's turn: the table's own outcome type). ``offer``: the buttons to show ``offer_to`` (``claim_game``,
    ``claim_match``, ``more_time``: the ``claim`` expiry policy), for the deadline set at table ``version``;
    ``terms``: what each claim scores, by action (:func:`club.describe.claim_terms`)."""

    kind: str
    table: str
    table_id: int
    subject: int
    actor: int
    pending: str
    due_at: float
    text: str
    ping: tuple[int, ...]
    outcome: Any = None
    offer: tuple[str, ...] = ()
    offer_to: int | None = None
    version: int = 0
    terms: dict[str, str] | None = None

    def body(self) -> dict[str, Any]:
        """What is kept of the notice while it waits to be posted (:mod:`club.notices`): everything but the
        table's outcome, as a JSON object."""
        body = {name: getattr(self, name) for name in _KEPT}
        body["ping"], body["offer"] = list(self.ping), list(self.offer)
        return body

    @classmethod
    def from_body(cls, body: dict[str, Any]) -> Notice:
        """The notice of a kept :meth:`body` (without its outcome)."""
        values: dict[str, Any] = {name: body.get(name) for name in _KEPT}  # a JSON object: checked by the fields
        values["ping"], values["offer"] = tuple(values["ping"] or ()), tuple(values["offer"] or ())
        values["version"] = values["version"] or 0
        return cls(**values)

    def key(self) -> str:
        """The notice's key: a digest of its :meth:`body` (the same notice recorded twice is one row)."""
        text = json.dumps(self.body(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    def recorded(self) -> tuple[str, dict[str, Any]]:
        """``(key, body)``, as a deadline's mark records the notice of its firing
        (:meth:`storage.store.Store.mark_deadline`)."""
        return self.key(), self.body()


class StepNotice:
    """The notice of the club's own step on a table at a deadline (a forfeit, a lapse, a proxy's turn, an
    auto-roll), recorded pending in that step's own commit (:mod:`club.notices`): the step and its notice are stored
    together or not at all. ``build(*facts)`` makes the :class:`Notice` from what the step did (its outcome as it
    will be once committed)."""

    def __init__(self, build: Callable[..., Notice]) -> None:
        self.build = build
        self.notice: Notice | None = None

    def recorded(self, *facts: Any) -> tuple[str, dict[str, Any]]:
        """Build the notice of ``facts`` and return it as its commit records it (:meth:`Notice.recorded`)."""
        self.notice = self.build(*facts)
        return self.notice.recorded()

    def into(self, commit: Any, *facts: Any) -> Any:
        """``commit`` (a storage commit with ``notices``) with the notice of ``facts`` among its notices."""
        return replace(commit, notices=(*commit.notices, self.recorded(*facts)))

    def shown(self, outcome: Any) -> Notice | None:
        """The notice built, carrying the table's ``outcome`` to publish (None: no step was committed)."""
        return None if self.notice is None else replace(self.notice, outcome=outcome)


_KEPT = ("kind", "table", "table_id", "subject", "actor", "pending", "due_at", "text", "ping", "offer", "offer_to",
         "version", "terms")  # fmt: skip


class TableClock(Protocol):
    """The hooks of one kind of table for the one clock."""

    table: str
    noun: str

    def now(self) -> float:
        """The table service's clock (Unix s)."""

    async def due_deadlines(self, now: float) -> list[Deadline]:
        """The stored deadlines with ``next_at <= now``, earliest first."""

    @property
    def db(self):
        """The table's database (:class:`storage.Database`)."""

    async def mark_reminded(self, deadline: Deadline, now: float, notice: Notice | None = None) -> bool:
        """Record that the reminders of ``deadline`` due at ``now`` fired, if it is still the same deadline, with
        ``notice`` recorded pending in the same transaction (:mod:`club.notices`); False (nothing written) when it
        was replaced or fired meanwhile."""

    async def names(self, members: Sequence[int]) -> dict[int, str]:
        """Display names of ``members``."""

    def words(self, pending: str) -> str:
        """``pending`` in words (after "to")."""

    async def expire(self, deadline: Deadline, now: float) -> Notice | None:
        """The table's rule at the expiry of ``deadline``: the notice, or None when it is stale (someone acted)."""

    async def move(
        self, deadline: Deadline, due_at: float, reminders: Sequence[float], notice: Notice | None = None,
        at: float = 0.0, preferences: tuple[int, dict] | None = None,
    ) -> bool:  # fmt: skip
        """Move ``deadline`` to ``due_at`` with ``reminders`` if it is still the same one (False: replaced), with
        ``notice`` recorded pending at ``at`` and ``preferences`` ``(member, preferences as JSON)`` written (an away
        day spent) in the same transaction (:mod:`club.notices`)."""

    async def club_id(self, deadline: Deadline) -> int:
        """The club the table belongs to."""


def _recorded(notice: Notice | None) -> tuple[str, dict[str, Any]] | None:
    return None if notice is None else notice.recorded()


def _left(deadline: Deadline, now: float) -> list[float]:
    return sorted(at for at in deadline.reminders if at > now)


# -- the 1-on-1's hooks -------------------------------------------------------------------------------------------
class MatchClock:
    """The hooks of 1-on-1 matches and money sessions (``deadlines`` table, one per match): a deadline is stale
    once the match version changed; at the expiry a challenge lapses, else the club's ``expiry_policy`` applies."""

    table = "match"
    noun = "match"

    def __init__(self, service: ClubService) -> None:
        self.service = service

    def now(self) -> float:
        """The service's clock."""
        return self.service.clock.now()

    @staticmethod
    def of(record) -> Deadline:
        """The :class:`Deadline` of a stored ``deadlines`` row (:class:`storage.DeadlineRecord`)."""
        return Deadline("match", record.match_id, record.member_id, record.member_id, MEMBER, record.pending,
                        record.version, record.due_at, tuple(record.reminders), record.reminders_sent,
                        record.expired_at, record.next_at, "", record, record.set_at)  # fmt: skip

    async def move(
        self, deadline: Deadline, due_at: float, reminders: Sequence[float], notice: Notice | None = None,
        at: float = 0.0, preferences: tuple[int, dict] | None = None,
    ) -> bool:  # fmt: skip
        """Move the match deadline if the match is still at its version and the deadline still due when it was
        read (two moves of one deadline: the second changes nothing); ``notice`` recorded and ``preferences``
        written with the move."""
        return await self.service.db.move_deadline(
            deadline.table_id, deadline.version, due_at=due_at, reminders=reminders, was=deadline.due_at,
            notice=_recorded(notice), at=at, preferences=preferences,
        )  # fmt: skip

    async def club_id(self, deadline: Deadline) -> int:
        """The match's club."""
        return (await self.service.match_row(deadline.table_id)).club_id

    async def due_deadlines(self, now: float) -> list[Deadline]:
        """The match deadlines due at ``now``."""
        return [self.of(record) for record in await self.service.db.due_deadlines(now)]

    async def _current(self, deadline: Deadline) -> Deadline | None:
        record = await self.service.db.get_deadline(deadline.table_id)
        return None if record is None else self.of(record)

    @property
    def db(self):
        """The club's database."""
        return self.service.db

    async def mark_reminded(self, deadline: Deadline, now: float, notice: Notice | None = None) -> bool:
        """Mark the reminders sent (``notice`` recorded with the mark), under the match's lock and only if the
        stored deadline is unchanged."""
        async with self.service._lock_for(deadline.table_id):
            current = await self._current(deadline)
            if current is None or current.version != deadline.version or current.classify(now) != NoticeKind.REMINDER:
                return False
            left = _left(current, now)
            return await self.service.db.mark_deadline(
                deadline.table_id, deadline.version, reminders=left, reminders_sent=current.reminders_sent + 1,
                expired_at=None, next_at=min([*left, current.due_at]), at=now, notice=_recorded(notice),
            )  # fmt: skip

    async def names(self, members: Sequence[int]) -> dict[int, str]:
        """Display names."""
        return await self.service._names(members)

    def words(self, pending: str) -> str:
        """``pending`` in words (:func:`club.describe.pending_words`)."""
        return pending_words(pending)

    async def expire(self, deadline: Deadline, now: float) -> Notice | None:
        """RULES A2, M5: lapse an unanswered challenge; else the club's ``expiry_policy``."""
        service, db = self.service, self.service.db
        async with service._lock_for(deadline.table_id):
            current = await self._current(deadline)
            if current is None or current.version != deadline.version or current.classify(now) != NoticeKind.EXPIRY:
                return None  # someone acted, or another scheduler fired it
            match = await service.match_row(deadline.table_id)
            names = await service._names(match.players)
            who = names.get(deadline.subject, str(deadline.subject))
            what = pending_words(deadline.pending)
            club = await db.get_club_by_id(match.club_id)
            if club is None or club.guild_id < 0:  # its club gone (a damaged database), or a practice game's
                # deadline stored before they had none: it ends quietly
                await db.mark_deadline(deadline.table_id, deadline.version, reminders=(),
                                       reminders_sent=current.reminders_sent, expired_at=now, next_at=None)  # fmt: skip
                return None
            settings = ClubSettings.from_json(club.settings)
            lapse = deadline.pending == Pending.ANSWER_CHALLENGE
            policy = settings.expiry_policy
            if not lapse and policy in (ExpiryPolicy.NOTHING, ExpiryPolicy.CLAIM):
                text = f"Time is up: {who} did not {what} in time in match {deadline.table_id}. "
                if policy == ExpiryPolicy.NOTHING:
                    notice = Notice(NoticeKind.EXPIRY, "match", deadline.table_id, deadline.subject, deadline.actor,
                                    deadline.pending, deadline.due_at, text + "The club waits for the move.",
                                    tuple(match.players))  # fmt: skip
                else:
                    notice = await self._claim_notice(deadline, match, text, tuple(Claim))
                marked = await db.mark_deadline(deadline.table_id, deadline.version, reminders=(),
                                                reminders_sent=current.reminders_sent, expired_at=now,
                                                next_at=None, notice=_recorded(notice))  # fmt: skip
                return notice if marked else None
        # the club acts through the use-case layer (its own lock and version check), its notice in its commit
        side = match.players.index(deadline.subject)
        what_to_do = TableAction.LAPSE if lapse else _FORFEITS[policy]
        expiry = StepNotice(
            lambda outcome: Notice(NoticeKind.EXPIRY, "match", deadline.table_id, deadline.subject, deadline.actor,
                                   deadline.pending, deadline.due_at,
                                   f"Time is up for {who} in match {deadline.table_id}.\n{outcome.message}",
                                   tuple(match.players))  # fmt: skip
        )
        try:
            outcome = await service.expire(deadline.table_id, None if lapse else side, what_to_do,
                                           version=deadline.version, notice=expiry)  # fmt: skip
        except (StaleVersionError, ClubError):
            return None
        return expiry.shown(outcome)

    async def open_claim(self, match_id: int, now: float, text: str) -> Notice | None:
        """Let the waiting opponent claim match ``match_id`` now, before its own deadline (an event round's
        deadline under the ``claim`` policy, RULES A2, M5): its pending deadline is marked lapsed (unless it has
        lapsed already), so that :meth:`club.correspondence.Correspondence.claim` takes his claim. Returns the claim
        notice for him (``text`` then the offer: Claim the match), or None when the match waits for an answer to a
        challenge, for nobody, or changed meanwhile."""
        service, db = self.service, self.service.db
        async with service._lock_for(match_id):
            record = await db.get_deadline(match_id)
            if record is None or record.pending == Pending.ANSWER_CHALLENGE:
                return None
            if record.expired_at is None and not await db.mark_deadline(
                match_id, record.version, reminders=(), reminders_sent=record.reminders_sent, expired_at=now,
                next_at=None,
            ):  # fmt: skip
                return None
            match = await db.get_match(match_id)
            if match is None or record.member_id not in match.players:
                return None
            return await self._claim_notice(self.of(record), match, text, (Claim.CLAIM_MATCH,))

    async def _claim_notice(self, deadline: Deadline, match, text: str, offer: tuple[str, ...]) -> Notice:
        """The notice of a lapsed deadline under the ``claim`` policy: ``text``, then what the late member's
        opponent may do (``offer``: ``claim_game``, ``claim_match``, ``more_time``), with what each claim scores."""
        names = await self.service._names(match.players)
        who = names.get(deadline.subject, str(deadline.subject))
        late = match.players.index(deadline.subject)
        opponent = match.players[1 - late]
        table, _version = await self.service.table_state(deadline.table_id)
        terms = claim_terms(table, late)
        words: dict[str, str] = {Claim.CLAIM_GAME: f"claim the game ({terms[Claim.CLAIM_GAME]})",
                 Claim.CLAIM_MATCH: f"claim the match ({terms[Claim.CLAIM_MATCH]})",
                 Claim.MORE_TIME: f"give {who} 24 hours more"}  # fmt: skip
        said = [words[action] for action in offer]
        choice = said[0] if len(said) == 1 else f"{', '.join(said[:-1])}, or {said[-1]}"
        text += f"{names.get(opponent, str(opponent))}, you may {choice}."
        return Notice(NoticeKind.EXPIRY, "match", deadline.table_id, deadline.subject, deadline.actor, deadline.pending,
                      deadline.due_at, text, (opponent, deadline.subject), offer=offer, offer_to=opponent,
                      version=deadline.version, terms=terms)  # fmt: skip


# -- the chouette's hooks -----------------------------------------------------------------------------------------
class ChouetteClock:
    """The hooks of chouettes (``chouette_deadlines``, one per member the session waits for): a deadline is stale
    once its actor, stage, turn mark or version changed; at the expiry the late member is marked away for his
    proxy (RULES C9), or the club's policy decides (:meth:`ChouetteService.expire`)."""

    table = "chouette"
    noun = "chouette"

    def __init__(self, chouettes: ChouetteService) -> None:
        self.chouettes = chouettes

    def now(self) -> float:
        """The service's clock."""
        return self.chouettes.clock.now()

    @staticmethod
    def of(record) -> Deadline:
        """The :class:`Deadline` of a stored ``chouette_deadlines`` row (:class:`storage.ChouetteDeadline`)."""
        return Deadline("chouette", record.session_id, record.subject_id, record.actor_id, record.stage,
                        record.pending, record.version, record.due_at, tuple(record.reminders),
                        record.reminders_sent, record.expired_at, record.next_at, record.mark, record,
                        record.set_at)  # fmt: skip

    async def move(
        self, deadline: Deadline, due_at: float, reminders: Sequence[float], notice: Notice | None = None,
        at: float = 0.0, preferences: tuple[int, dict] | None = None,
    ) -> bool:  # fmt: skip
        """Move the chouette deadline if it is still the same one; ``notice`` recorded and ``preferences`` written
        with the move."""
        return await self.chouettes.store.move_deadline(deadline.stored, due_at=due_at, reminders=reminders,
                                                        notice=_recorded(notice), at=at, preferences=preferences)  # fmt: skip

    async def club_id(self, deadline: Deadline) -> int:
        """The session's club; :class:`~club.errors.UnknownGameError` if there is no such session."""
        record = await self.chouettes.store.get(deadline.table_id)
        if record is None:
            raise UnknownGameError(f"There is no chouette {deadline.table_id}.")
        return record.club_id

    async def due_deadlines(self, now: float) -> list[Deadline]:
        """The chouette deadlines due at ``now``."""
        return [self.of(record) for record in await self.chouettes.store.due_deadlines(now)]

    @property
    def db(self):
        """The club's database."""
        return self.chouettes.club.db

    async def mark_reminded(self, deadline: Deadline, now: float, notice: Notice | None = None) -> bool:
        """Mark the reminders sent (``notice`` recorded with the mark) if the stored deadline is still the same."""
        stored = deadline.stored
        return await self.chouettes.store.mark_deadline(
            stored, reminders=_left(deadline, now), reminders_sent=stored.reminders_sent + 1, expired_at=None, at=now,
            notice=_recorded(notice),
        )  # fmt: skip

    async def names(self, members: Sequence[int]) -> dict[int, str]:
        """Display names."""
        return await self.chouettes.club._names(members)

    def words(self, pending: str) -> str:
        """A chouette decision in words (:data:`club.chouette.views.DECISION_WORDS`)."""
        from .chouette.views import DECISION_WORDS

        return DECISION_WORDS.get(pending, "act")

    async def expire(self, deadline: Deadline, now: float) -> Notice | None:
        """RULES C9: the proxy's turn, or the policy's decision (:meth:`ChouetteService.expire`)."""
        notice = StepNotice(lambda text, outcome: self._notice(deadline, text, outcome))
        fired = await self.chouettes.expire(deadline.stored, notice)
        return None if fired is None else notice.shown(fired[1])

    @staticmethod
    def _notice(deadline: Deadline, text: str, outcome) -> Notice:
        """The expiry notice of ``deadline``: ``text`` then what the club did (``outcome``, pinging who must decide
        now), or ``text`` to its actor (None: nothing was done)."""
        if outcome is not None:
            text, ping = f"{text}\n{outcome.message}".strip(), tuple(outcome.ping)
        else:
            ping = (deadline.actor,)
        return Notice(NoticeKind.EXPIRY, "chouette", deadline.table_id, deadline.subject, deadline.actor, deadline.pending,
                      deadline.due_at, text, ping)  # fmt: skip


def clocks_of(service: ClubService | None = None, chouettes: ChouetteService | None = None) -> list[TableClock]:
    """The table hooks of a bot or console: the 1-on-1's (``service``) and the chouette's (``chouettes``)."""
    clocks: list[TableClock] = []
    if service is not None:
        clocks.append(MatchClock(service))
    if chouettes is not None:
        clocks.append(ChouetteClock(chouettes))
    return clocks
