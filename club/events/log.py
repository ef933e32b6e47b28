"""An event as its log makes it: the :class:`Event` aggregate and the one function that applies a logged action.

The log is the record (DESIGN "Events over tables"): replaying an event's actions in seq order with :func:`replay`
rebuilds exactly the state the use-cases worked on. Logged actions (``kind`` — ``args``):

==================  ==========================================================================================
``create``          name, settings (:func:`settings_json`), cap, seeding, rules, entry, channel
``join``            member — into the field, or onto the waiting list when the field is full
``leave``           member — before the start; the first on the waiting list moves up
``checkin_open``    until (Unix s) — the organiser opens check-in; only those checked in are seeded
``checkin``         member
``start``           seeds (best first) and, for a league, divisions
``pair``            pairings (:func:`pairing_json`): the matches made, byes included
``result``          key, winner, loser, won, lost, how — one pairing decided
``withdraw``        member — he forfeits what he has left (walkovers follow as ``result`` actions)
``ask``             key, default_at, and late and claim when a player acted — a deadline passed with the
                    match undecided and nobody forfeited: the organiser decides; ``late`` the member the match
                    waits for, ``claim`` true when the club's ``claim`` policy lets his opponent claim it
``replay``          key, deadline — the organiser orders a pairing played again (a new match)
``close``           the event is over (``cancel``: called off)
``post``            what, id — where a front end posts the event: its ``forum`` post, its ``picture`` message
``live``            id, start, end, where — a live night a front end scheduled (Discord's scheduled event id)
``next``            name — the league season made from this finished one (made once)
==================  ==========================================================================================
"""

# No postponed annotations here: the payloads' NotRequired keys are read at run time (``__optional_keys__``).

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, NotRequired, TypedDict, cast

from .formats import EventError, EventState, Format, How, Pairing, Result, Settings


class Status(StrEnum):
    """An event's life: ``open`` (members join), ``running``, ``over``, ``cancelled``."""

    OPEN = "open"
    RUNNING = "running"
    OVER = "over"
    CANCELLED = "cancelled"


class EventAction(StrEnum):
    """The logged actions of an event (see the module docstring); stored as their values: old logs replay the same."""

    CREATE = "create"
    JOIN = "join"
    LEAVE = "leave"
    CHECKIN_OPEN = "checkin_open"
    CHECKIN = "checkin"
    START = "start"
    PAIR = "pair"
    RESULT = "result"
    WITHDRAW = "withdraw"
    ASK = "ask"
    REPLAY = "replay"
    CLOSE = "close"
    CANCEL = "cancel"
    POST = "post"
    LIVE = "live"
    NEXT = "next"


class Post(StrEnum):
    """Where a front end posts an event (the ``post`` action's ``what``): its forum post, or the message of its
    bracket or standings picture."""

    FORUM = "forum"
    PICTURE = "picture"


class Seeding(StrEnum):
    """How the field is seeded at the start: by the club rating (best first) or at random (from the event's dice)."""

    RATING = "rating"
    RANDOM = "random"


class CreateArgs(TypedDict):
    """A ``create`` action's payload: the event's ``name`` and ``settings`` (:func:`settings_json`); the field's
    ``cap`` (0: none), ``seeding`` (a :class:`Seeding` value), the ``rules`` text, the ``entry`` fee and the
    ``channel`` id (logs written before these existed lack them: :func:`new_event` reads their defaults)."""

    name: str
    settings: dict[str, Any]
    cap: NotRequired[int]
    seeding: NotRequired[str]
    rules: NotRequired[str | None]
    entry: NotRequired[int]
    channel: NotRequired[int | None]


class MemberArgs(TypedDict):
    """A ``join``, ``leave``, ``checkin`` or ``withdraw`` action's payload: the ``member`` id."""

    member: int


class CheckinOpenArgs(TypedDict):
    """A ``checkin_open`` action's payload: check-in closes at ``until`` (Unix s)."""

    until: float


class StartArgs(TypedDict):
    """A ``start`` action's payload: the ``seeds`` (member ids, best first) and, for a league, its ``divisions``."""

    seeds: list[int]
    divisions: NotRequired[list[list[int]]]


class PairingArgs(TypedDict):
    """A pairing as logged (:func:`pairing_json`): the fields of :class:`~club.events.formats.Pairing`."""

    key: str
    round: int
    a: int
    b: int | None
    why: str
    final: bool
    deadline: int


class PairArgs(TypedDict):
    """A ``pair`` action's payload: the ``pairings`` made, byes included."""

    pairings: list[PairingArgs]


class ResultArgs(TypedDict):
    """A ``result`` action's payload (:func:`result_json`): the fields of :class:`~club.events.formats.Result`,
    ``how`` by its :class:`~club.events.formats.How` value."""

    key: str
    winner: int | None
    loser: int | None
    won: int
    lost: int
    how: str


class AskArgs(TypedDict):
    """An ``ask`` action's payload: pairing ``key`` waits for the organiser until ``default_at`` (Unix s); when a
    player acted, ``late`` the member the match waits for and ``claim`` whether his opponent may claim it."""

    key: str
    default_at: float
    late: NotRequired[int]
    claim: NotRequired[bool]


class ReplayArgs(TypedDict):
    """A ``replay`` action's payload: pairing ``key`` is played again, by the new ``deadline`` (Unix s)."""

    key: str
    deadline: int


class PostArgs(TypedDict):
    """A ``post`` action's payload: ``what`` (a :class:`Post` value) and the front end's ``id`` of it."""

    what: str
    id: int


class LiveArgs(TypedDict):
    """A ``live`` action's payload (:func:`live_json`): the fields of :class:`LiveNight`."""

    id: int
    start: float
    end: float
    where: str


class NextArgs(TypedDict):
    """A ``next`` action's payload: the ``name`` of the league season made from this one."""

    name: str


class NoArgs(TypedDict):
    """The payload of ``close`` and ``cancel``: nothing."""


EventArgs = (
    CreateArgs
    | MemberArgs
    | CheckinOpenArgs
    | StartArgs
    | PairArgs
    | ResultArgs
    | AskArgs
    | ReplayArgs
    | PostArgs
    | LiveArgs
    | NextArgs
    | NoArgs
)
"""The payload of a logged action, by its kind (:data:`PAYLOADS`); stored as JSON, the same as ever."""

PAYLOADS: dict[EventAction, type] = {
    EventAction.CREATE: CreateArgs,
    EventAction.JOIN: MemberArgs,
    EventAction.LEAVE: MemberArgs,
    EventAction.CHECKIN_OPEN: CheckinOpenArgs,
    EventAction.CHECKIN: MemberArgs,
    EventAction.START: StartArgs,
    EventAction.PAIR: PairArgs,
    EventAction.RESULT: ResultArgs,
    EventAction.WITHDRAW: MemberArgs,
    EventAction.ASK: AskArgs,
    EventAction.REPLAY: ReplayArgs,
    EventAction.CLOSE: NoArgs,
    EventAction.CANCEL: NoArgs,
    EventAction.POST: PostArgs,
    EventAction.LIVE: LiveArgs,
    EventAction.NEXT: NextArgs,
}
"""The payload type of each kind of logged action."""


@dataclass(frozen=True, slots=True)
class LiveNight:
    """A live night of an event: the front end's scheduled event ``id`` (Discord's), ``start`` and ``end`` (Unix s)
    and ``where`` (a place's words, or a voice channel's mention)."""

    id: int
    start: float
    end: float
    where: str


@dataclass(slots=True)
class Event:
    """One event of a club, rebuilt from its log. ``entrants`` in the order they joined; ``waiting`` the waiting
    list; ``channel_id`` where a front end posts its pairings (None: its choice); ``checked_in`` who checked in
    (when ``checkin_until`` is set); ``state`` the pure format state once
    started; ``asked``: pairings waiting for the organiser's decision → when the default applies; ``late``: those
    of them whose match waits for a member → that member; ``claims``: those his opponent may claim; ``replays``:
    pairings ordered replayed → how many times; ``posts``: where a front end posts the event (``forum``: its forum
    post, ``picture``: the message of its bracket or standings picture) → the id; ``live``: its live nights;
    ``next_season``: the name of the league season made from this one (None before it is made)."""

    id: int
    club_id: int
    name: str
    organiser: int
    settings: Settings
    cap: int = 0
    seeding: Seeding = Seeding.RATING
    rules: str | None = None
    entry: int = 0
    channel_id: int | None = None
    status: Status = Status.OPEN
    version: int = 0
    entrants: list[int] = field(default_factory=list)
    waiting: list[int] = field(default_factory=list)
    checkin_until: float | None = None
    checked_in: set[int] = field(default_factory=set)
    state: EventState | None = None
    asked: dict[str, float] = field(default_factory=dict)
    late: dict[str, int] = field(default_factory=dict)
    claims: set[str] = field(default_factory=set)
    replays: dict[str, int] = field(default_factory=dict)
    posts: dict[str, int] = field(default_factory=dict)
    live: list[LiveNight] = field(default_factory=list)
    next_season: str | None = None
    created_at: float = 0.0

    @property
    def format(self) -> Format:
        """The event's format."""
        return self.settings.format

    def pairing_of(self, member: int) -> Pairing | None:
        """``member``'s undecided pairing, or None."""
        if self.state is None:
            return None
        for pairing in self.state.pending():
            if member in pairing.players:
                return pairing
        return None

    def forget_asked(self, key: str) -> None:
        """Pairing ``key`` no longer waits for the organiser (decided, or ordered replayed)."""
        self.asked.pop(key, None)
        self.late.pop(key, None)
        self.claims.discard(key)

    def next_at(self) -> float | None:
        """When the event next needs the clock: the earliest deadline of an undecided pairing, or the time the
        default applies to one the organiser was asked to decide; None when nothing waits for time."""
        times: list[float] = []
        if self.status is Status.RUNNING and self.state is not None:
            for pairing in self.state.pending():
                times.append(self.asked.get(pairing.key, pairing.deadline))
        return min(times) if times else None


def settings_json(settings: Settings) -> dict[str, Any]:
    """The settings as logged (every field, the format by value)."""
    out = {f.name: getattr(settings, f.name) for f in fields(settings)}
    out["format"] = settings.format.value
    out["lengths"] = list(settings.lengths)
    return out


def settings_from(data: dict[str, Any]) -> Settings:
    """The settings from :func:`settings_json`'s form."""
    known = {f.name for f in fields(Settings)}
    values = {k: v for k, v in data.items() if k in known}
    values["format"] = Format(values["format"])
    values["lengths"] = tuple(values.get("lengths", (5,)))
    return Settings(**values)


def pairing_json(pairing: Pairing) -> PairingArgs:
    """A pairing as logged."""
    return PairingArgs(key=pairing.key, round=pairing.round, a=pairing.a, b=pairing.b, why=pairing.why,
                       final=pairing.final, deadline=pairing.deadline)  # fmt: skip


def pairing_from(data: PairingArgs) -> Pairing:
    """A pairing from :func:`pairing_json`'s form."""
    return Pairing(data["key"], data["round"], data["a"], data["b"], data["why"], data["final"], data["deadline"])


def result_json(result: Result) -> ResultArgs:
    """A result as logged."""
    return ResultArgs(key=result.key, winner=result.winner, loser=result.loser, won=result.won, lost=result.lost,
                      how=result.how.value)  # fmt: skip


def result_from(data: ResultArgs) -> Result:
    """A result from :func:`result_json`'s form."""
    return Result(data["key"], data["winner"], data["loser"], data["won"], data["lost"], How(data["how"]))


def live_json(night: LiveNight) -> LiveArgs:
    """A live night as logged."""
    return LiveArgs(id=night.id, start=night.start, end=night.end, where=night.where)


def live_from(data: LiveArgs) -> LiveNight:
    """A live night from :func:`live_json`'s form."""
    return LiveNight(data["id"], data["start"], data["end"], data["where"])


def new_event(event_id: int, club_id: int, organiser: int, args: CreateArgs, at: float) -> Event:
    """The event its ``create`` action makes."""
    return Event(
        event_id, club_id, args["name"], organiser, settings_from(args["settings"]), args.get("cap", 0),
        Seeding(args.get("seeding", Seeding.RATING)), args.get("rules"), args.get("entry", 0), args.get("channel"),
        created_at=at,
    )  # fmt: skip


def apply(event: Event, kind: EventAction | str, args: EventArgs | dict[str, Any], member: int | None) -> None:
    """Apply one logged action to ``event`` (see the module docstring): ``args`` is its payload, of the type
    :data:`PAYLOADS` names for ``kind``. Raises :class:`EventError` for an action that does not fit (a log is only
    ever written through the checks of :mod:`club.events.service`)."""
    if kind == EventAction.JOIN:
        who = cast(MemberArgs, args)["member"]
        if event.cap and len(event.entrants) >= event.cap:
            event.waiting.append(who)
        else:
            event.entrants.append(who)
    elif kind == EventAction.LEAVE:
        who = cast(MemberArgs, args)["member"]
        if who in event.waiting:
            event.waiting.remove(who)
        else:
            event.entrants.remove(who)
            event.checked_in.discard(who)
            if event.waiting:
                event.entrants.append(event.waiting.pop(0))
    elif kind == EventAction.CHECKIN_OPEN:
        event.checkin_until = cast(CheckinOpenArgs, args)["until"]
    elif kind == EventAction.CHECKIN:
        event.checked_in.add(cast(MemberArgs, args)["member"])
    elif kind == EventAction.START:
        start = cast(StartArgs, args)
        divisions = tuple(tuple(d) for d in start.get("divisions") or ())
        event.state = EventState(event.settings, tuple(start["seeds"]), divisions=divisions)
        event.status = Status.RUNNING
    elif kind == EventAction.PAIR:
        assert event.state is not None
        for data in cast(PairArgs, args)["pairings"]:
            event.state.record(pairing_from(data))
    elif kind == EventAction.RESULT:
        assert event.state is not None
        result = cast(ResultArgs, args)
        event.state.decide(result_from(result))
        event.forget_asked(result["key"])
    elif kind == EventAction.WITHDRAW:
        assert event.state is not None
        event.state.withdrawn.add(cast(MemberArgs, args)["member"])
    elif kind == EventAction.ASK:
        ask = cast(AskArgs, args)
        event.asked[ask["key"]] = ask["default_at"]
        if ask.get("late") is not None:
            event.late[ask["key"]] = ask["late"]
        if ask.get("claim"):
            event.claims.add(ask["key"])
    elif kind == EventAction.REPLAY:
        assert event.state is not None
        replayed = cast(ReplayArgs, args)
        key = replayed["key"]
        old = event.state.pairings[key]
        event.state.pairings[key] = Pairing(old.key, old.round, old.a, old.b, old.why, old.final, replayed["deadline"])
        event.forget_asked(key)
        event.replays[key] = event.replays.get(key, 0) + 1
    elif kind == EventAction.POST:
        post = cast(PostArgs, args)
        event.posts[post["what"]] = post["id"]
    elif kind == EventAction.LIVE:
        event.live.append(live_from(cast(LiveArgs, args)))
    elif kind == EventAction.NEXT:
        event.next_season = cast(NextArgs, args)["name"]
    elif kind == EventAction.CLOSE:
        event.status = Status.OVER
    elif kind == EventAction.CANCEL:
        event.status = Status.CANCELLED
    else:
        raise EventError(f"unknown event action {kind!r}")


def replay(event_id: int, club_id: int, actions: Iterable[Any]) -> Event:
    """The event rebuilt from its whole log (objects with ``seq``, ``member_id``, ``kind``, ``args``, ``at``)."""
    event: Event | None = None
    for action in actions:
        if event is None:
            if action.kind != EventAction.CREATE:
                raise EventError("an event's log starts with its creation")
            event = new_event(event_id, club_id, action.member_id, cast(CreateArgs, action.args), action.at)
        else:
            apply(event, action.kind, action.args, action.member_id)
        event.version = action.seq
    if event is None:
        raise EventError(f"event {event_id} has no log")
    return event
