"""The chouette use-cases: :class:`ChouetteService` — what the cogs, the console and the tests call for chouettes.

Built on a :class:`~club.service.ClubService` (its database, clock, dice source and per-table locks). Each call
loads the session, checks who may do what, applies the action to the :class:`~club.chouette.table.ChouetteTable`
(plus what follows by itself: the seat roll's ties, the next game, the board's opening roll and turns, automatic
rolls and forced plays, the scoring when the board ends), appends every step to the session's log and saves the new
state, its deadlines and any finished game's rows in ``chouette_results`` in one conditional transaction
(:meth:`storage.chouettes.ChouetteStore.commit`). It returns a :class:`~club.chouette.views.ChouetteOutcome` or
raises a typed error (:mod:`club.errors`, or the rules' :class:`~backgammon.errors.ChouetteError`) and changes
nothing stored.

Buttons carry the ``mark`` of the game and board turn they were drawn for: a press from an older turn is refused as
"already done" (:class:`~club.errors.StaleVersionError`). Team members act concurrently, so there is no version
check between them: the per-session lock orders their calls and the rules refuse what no longer fits.

Deadlines (RULES A2, C5, C9): every decision the session waits for has one (``decision_time``; the board's rolls and
plays ``move_time``). A Team member who misses his is marked away and his proxy — the one he named, else the
Captain (003 Atlanta 7.1) — gets ``proxy_time`` to decide for him (``by=``). When that passes too, the club decides
by this policy (:func:`policy_decision`): a missed doubling window is no double (5.9 "closes at the deadline"); a
missed answer to Box's double is a take if the proxy (or Captain) took his own cube in that round, else a drop; a
classic partner goes along with the Captain's double (000 Ch.8); a dropper offers no extra (5.7). Box is nobody's to
represent: his missed answer accepts every cube (always allowed by 5.10/5.11). A late Team player (roll or play)
is marked away and an Acting Captain stands in (RULES C9, :mod:`club.chouette.table`); otherwise the board's rolls
and plays follow the club's ``expiry_policy`` (nothing, or the late side forfeits the board game). Standing orders
and members passed over are decided at once, by the club, as logged decisions (:meth:`ChouetteService.standing_order`;
:meth:`~club.chouette.table.ChouetteTable.automatic`).

Not offered here (the engine has them): resignations of the board (each cube would need its own answer — the board is
played out, or forfeited at the time limit), settlements (C10), relinquishing the box (6.1), changing stakes between
games (2.3) and an extra's giver redoubling his taker (5.7).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from backgammon.chouette import ChouetteRules
from backgammon.chouette.cubes import Side
from backgammon.errors import BackgammonError, IllegalPlayError
from backgammon.moves import Play
from storage import VersionConflictError
from storage.chouettes import (
    ChouetteAction,
    ChouetteDeadline,
    ChouetteMessage,
    ChouetteStore,
    DeadlineRow,
    DiceSeries,
    NewChouetteAction,
)

from ..beacon import round_for_game
from ..clocks import StepNotice
from ..commitments import Ahead, DiceBook, check_luck
from ..dice import RECIPE_V3, DiceSource, seed_hash
from ..errors import (
    InvalidRequestError,
    NotAPlayerError,
    NotNowError,
    NotYourTurnError,
    StaleVersionError,
    UnknownGameError,
)
from ..refusals import explain_illegal
from ..requests import Request, as_request
from ..service import AwaitingBeacon, ClubService, _unsaved
from ..settings import HOUR, ClubSettings, MemberPreferences
from ..vocabulary import ChouetteAction as Kind
from ..work import Purpose, run_unit
from ..work import check_id as _check_id
from .describe import describe, humanize
from .expiry import ChouetteExpiry
from .step import ChouetteStep, _Series
from .table import (
    STEPS,
    Awaited,
    ChouetteTable,
    MemberAction,
    SettleStep,
    TablePhase,
    TableStatus,
    check_order,
    check_points,
    member_id,
    name,
)
from .views import ChouetteOutcome, ChouetteView, Decision, SheetData

DEFAULT_DECISION_HOURS = 24.0
DEFAULT_PROXY_HOURS = 12.0

MARK = re.compile(r"^[0-9]{1,6}\.[0-9]{1,6}$")
CONFLICT = "Already done: someone else acted on this chouette at the same moment. Look again."

ACTIONS = tuple(MemberAction)
"""What a member's buttons do (:meth:`ChouetteService.act`)."""


class ChouetteService:
    """The chouette use-cases over a :class:`~club.service.ClubService` (see the module docstring); the deadlines'
    hook :meth:`expire` is served by its :class:`~club.chouette.expiry.ChouetteExpiry`."""

    def __init__(self, club: ClubService) -> None:
        self.club = club
        self.store = ChouetteStore(club.db)
        self._sheets: dict[int, list[dict]] = {}  # session → its stored sheet rows read so far (append-only rows)
        self._expiry = ChouetteExpiry(self)

    async def expire(
        self, deadline: ChouetteDeadline, notice: StepNotice | None = None
    ) -> tuple[str, ChouetteOutcome | None] | None:
        """The club acts at ``deadline`` (expired), ``notice`` recorded with what it did:
        :meth:`~club.chouette.expiry.ChouetteExpiry.expire`."""
        return await self._expiry.expire(deadline, notice)

    @property
    def clock(self):
        """The club's clock."""
        return self.club.clock

    # -- starting -------------------------------------------------------------------------------------------------
    async def start(
        self,
        guild_id: int,
        channel_id: int,
        member: int,
        *,
        rules: str | None = None,
        overrides: dict[str, Any] | None = None,
        stake: int = 0,
        decision_hours: float | None = None,
        proxy_hours: float | None = None,
        no_talk: bool = False,
    ) -> ChouetteOutcome:
        """``member`` opens a chouette in channel ``channel_id`` of the club of ``guild_id`` and sits in it.
        ``rules``: a chouette preset (``chouette-atlanta``, ``chouette-classic``, ``chouette-classic-1931``; default
        Atlanta) with ``overrides`` (RULES C1–C11 options); ``stake``: money per point (003 Atlanta 2.1, 0 = none);
        ``decision_hours`` / ``proxy_hours``: time for a cube decision, then for the proxy (RULES A2, C9);
        ``no_talk``: keep a "no cube, no talk" thread.

        Raises :class:`InvalidRequestError` (bad values, an open chouette in the channel, not a club member),
        :class:`~backgammon.errors.RuleSetError` (unknown preset or option)."""
        _check_id(guild_id, "guild_id")
        _check_id(channel_id, "channel id")
        _check_id(member, "member id")
        club = await self.club.db.get_club(guild_id)
        if club is None or not await self.club.db.is_club_member(club.id, member):
            raise InvalidRequestError("Register first: use the bot once in this server.")
        settings = ClubSettings.from_json(club.settings)
        settings.check_terms(stake, overrides, "chouette rule")
        times = []
        for value, default in ((decision_hours, DEFAULT_DECISION_HOURS), (proxy_hours, DEFAULT_PROXY_HOURS)):
            hours = default if value is None else value
            if isinstance(hours, bool) or not isinstance(hours, int | float) or not 0.02 <= hours <= 24 * 365:
                raise InvalidRequestError(f"hours are from 0.02 to a year's worth, not {value!r}")
            times.append(hours * HOUR)
        rule_set = ChouetteRules.preset(rules or "chouette-atlanta", **(overrides or {}))
        if await self.store.open_in_channel(channel_id) is not None:
            raise InvalidRequestError("A chouette is already running in this channel: join it with /bg chouette join.")
        now = self.clock.now()
        args = {
            "club_id": club.id,
            "channel_id": channel_id,
            "creator": member,
            "rules": rule_set.to_json(),
            "stake": stake,
            "decision_time": times[0],
            "proxy_time": times[1],
            "move_time": settings.move_time,
            "no_talk": bool(no_talk),
        }
        table = ChouetteTable.open(args)
        seed = None if self.club._dice is not None else self.club._seeds()
        series = DiceSeries(0, 0, DiceSource.FAIR if seed else DiceSource.INJECTED, seed_hash(seed) if seed else None,
                            seed.hex() if seed else None, False, 0)  # fmt: skip
        args["seed_hash"] = series.seed_hash
        state = table.to_json()
        if seed:  # the seat throws' series 0 and game 1's seed, committed now
            ahead = Ahead.draw(1, self.club._seeds, now)
            book = DiceBook(ahead, standing=[0], standing_recipe=RECIPE_V3, standing_at=now)
            args.update(recipe=RECIPE_V3, next_seed_hash=ahead.seed_hash)
            state["dice"] = book.to_json()
        record = await self.store.create(
            club_id=club.id,
            channel_id=channel_id,
            created_by=member,
            rules=rule_set.to_json(),
            stake=stake,
            state=state,
            action=NewChouetteAction(Kind.OPEN, member, None, args),
            dice=series,
            now=now,
        )
        names = await self.club._names([member])
        text = describe("open", member, args, names) + f" Rules: {rule_set.describe()}."
        if series.seed_hash:
            text += (f" Seat-roll dice commitment: {series.seed_hash}; game 1's: {args['next_seed_hash']}. Each "
                     "member may add their own luck to them (Add your luck, or their /player seed phrase) until the "
                     "seat roll; a game's luck is fixed at its first roll.")  # fmt: skip
        view = ChouetteView.of(record.id, table, version=record.version, names=names, decisions=())
        return ChouetteOutcome(view, text)

    async def session_in(self, channel_id: int) -> int | None:
        """The open chouette played in channel ``channel_id`` (or in a thread remembered for it), or None."""
        record = await self.store.open_in_channel(_check_id(channel_id, "channel id"))
        if record is not None:
            return record.id
        session_id = await self.store.session_of_message(channel_id, channel_id)
        if session_id is not None:
            record = await self.store.get(session_id)
            if record is not None and record.status == TableStatus.OPEN:
                return session_id
        return None

    async def channel_of(self, session_id: int) -> int | None:
        """The channel chouette ``session_id`` is played in, or None if there is no such session."""
        record = await self.store.get(_check_id(session_id, "session id"))
        return None if record is None else record.channel_id

    async def session_ids(self, statuses: Sequence[str] | None = None) -> list[int]:
        """The ids of every chouette (with one of ``statuses``, e.g. ``["open"]``, if given), ascending."""
        return await self.store.session_ids(statuses)

    async def next_deadline_at(self) -> float | None:
        """When the next chouette reminder or expiry is due, or None (RULES A2)."""
        return await self.store.next_deadline_at()

    # -- members (RULES C1, C2, C6, C9) ---------------------------------------------------------------------------
    async def join(self, session_id: int, member: int | Request, *, stake: int = 1) -> ChouetteOutcome:
        """``member`` joins: the lobby before the seat roll, else the end of the Team (seated after the current game,
        RULES C2), at ``stake`` times the base stake (RULES C6); a member who was away or leaving comes back.
        Raises :class:`InvalidRequestError` (already in, not a club member), :class:`ChouetteError` (the cap)."""
        request = as_request(member)
        member = request.member

        async def operation(step: ChouetteStep) -> None:
            if not await self.club.db.is_club_member(step.record.club_id, member):
                raise InvalidRequestError("Register first: use the bot once in this server.")
            step.require_lobby_open()
            step.log(Kind.SIT, member, {"stake": stake})
            await step.contribute(member)  # his standing phrase, now that he sits

        return await self._mutate(session_id, request, operation)

    async def add_luck(self, session_id: int, member: int | Request, text: str) -> ChouetteOutcome:
        """A member of the chouette (in the lobby, Box, Captain or Team) adds luck of his own to the dice
        (:data:`club.dice.RECIPE_V3`, step 7): ``text`` (1–100 printable characters, typed in the luck modal of the
        board) joins the client seeds of every series waiting for its first roll — the seat throws' until the seat
        roll, and the game committed ahead; typed after their commitment, it protects him. Raises
        :class:`InvalidRequestError` for bad text, :class:`NotAPlayerError` for someone not at the chouette,
        :class:`NotNowError` when nothing waits for its dice (or the dice are injected)."""
        text = check_luck(text)
        request = as_request(member)

        def operation(step: ChouetteStep) -> None:
            if self.club._dice is not None:
                raise NotNowError("This chouette's dice are given from outside (a test or a replay): no luck to add.")
            step.add_luck(request.member, text)

        return await self._mutate(session_id, request, operation)

    async def leave(self, session_id: int, member: int | Request) -> ChouetteOutcome:
        """``member`` leaves: at once between games (or from the lobby); during a game he is away now — his proxy or
        the Captain decides for him (RULES C9) — and leaves when it ends (RULES C2)."""
        request = as_request(member)
        member = request.member

        def operation(step: ChouetteStep) -> None:
            step.require_lobby_open()
            step.log(Kind.STAND, member, {})

        return await self._mutate(session_id, request, operation)

    async def seat(self, session_id: int, member: int | Request) -> ChouetteOutcome:
        """The seat roll (RULES C1): every member in the lobby throws (provably fair dice, series 0); ties throw
        again by themselves; the first game starts. Raises :class:`NotNowError` with too few members."""
        request = as_request(member)
        member = request.member

        async def operation(step: ChouetteStep) -> None:
            if step.table.phase != TablePhase.LOBBY:
                raise NotNowError("The members are already seated (RULES C1).")
            if (due := step.seat_round()) is not None:
                raise AwaitingBeacon(due)  # called already: fetch its round and throw
            step.seat(member)

        try:
            return await self._mutate(session_id, request, operation)
        except AwaitingBeacon as waiting:
            return await self._awaited(session_id, request, waiting.due, seat=True)

    async def proxy(
        self, session_id: int, member: int | Request, proxy: int, *, for_member: int | None = None
    ) -> ChouetteOutcome:
        """``member`` names ``proxy`` to decide for him when he is away or misses a deadline (RULES C9; 003 Atlanta
        7.1); ``for_member``: the one he acts for now appoints another ("the proxy may also appoint yet another")."""
        request = as_request(member)
        member = request.member
        _check_id(proxy, "proxy")
        args = {"proxy": proxy, "member": for_member or member}
        return await self._mutate(session_id, request, lambda step: step.log(Kind.PROXY, member, args))

    async def standing_order(
        self,
        session_id: int,
        member: int | Request,
        *,
        pass_doubles: bool = False,
        take_upto: int | None = None,
        drop_above: int | None = None,
        until: str = "game",
        clear: bool = False,
    ) -> ChouetteOutcome:
        """``member`` leaves standing answers (RULES C9): ``pass_doubles`` (never double in the Team's window),
        ``take_upto`` (take any double to a cube of N or less), ``drop_above`` (drop a double to a cube above N), for
        the rest of this game (``until="game"``) or while he is away (``"back"``: he is away from now on, and the
        order ends when he comes back); ``clear`` withdraws it. The club applies it at once, as a logged decision
        like any other. Raises :class:`InvalidRequestError` (a bad order, not seated), :class:`NotNowError` (an order
        for the game between games)."""
        request = as_request(member)
        member = request.member
        args = (
            {"clear": True}
            if clear
            else check_order(
                {"pass_doubles": pass_doubles, "take_upto": take_upto, "drop_above": drop_above, "until": until}
            )
        )
        return await self._mutate(session_id, request, lambda step: step.log(Kind.ORDER, member, args))

    # -- the game ---------------------------------------------------------------------------------------------------
    async def act(
        self,
        session_id: int,
        member: int | Request,
        action: str,
        *,
        subject: int | None = None,
        cube: str | None = None,
        value: Any = None,
        in_order: bool = False,
        mark: str | None = None,
    ) -> ChouetteOutcome:
        """``member`` presses ``action`` (one of :data:`ACTIONS`) for ``subject`` (default himself; another member
        only as his proxy while he is away, RULES C9) on ``cube`` (default all his), drawn at ``mark``. ``value``:
        the play for ``play``; Box's ``targets`` (member ids) for ``double``, with ``in_order`` when he insists that
        the Team answer in rotation order (003 Atlanta 5.8). Box's ``take``/``drop``/``beaver`` answer every cube
        waiting for him (``value``: cube key → decision, for a mixed answer). Raises the rules' errors,
        :class:`StaleVersionError` for an old button."""
        request = as_request(member, mark)
        member = request.member
        if action not in ACTIONS:
            raise InvalidRequestError(f"unknown chouette action {action!r}; actions are: {', '.join(ACTIONS)}")
        subject = member if subject is None else _check_id(subject, "member")

        async def operation(step: ChouetteStep) -> None:
            table = step.table
            if (due := step.book.beacon_due()) is not None:
                raise AwaitingBeacon(due)  # the board's opening waits for its beacon round: fetch it first
            if member not in table.members:
                raise NotAPlayerError(f"You do not sit in chouette {session_id}: join it with /bg chouette join.")
            if subject == member and name(member) in table.session.away and member not in table.retiring:
                step.log(Kind.BACK, member, {"member": member})
            if action == MemberAction.ROLL:
                self._roll(step, member)
            elif action == MemberAction.PLAY:
                if value is None:
                    raise InvalidRequestError("say which play, e.g. 24/18 13/11")
                step.log(Kind.PLAY, member, {"play": value})
            elif action == MemberAction.DOUBLE:
                args: dict[str, Any] = {"member": subject, "cube": cube}
                if name(subject) == table.session.box and table.game.on_roll == Side.BOX:
                    targets = None if value is None else [_check_id(t, "target") for t in value]
                    args = {"member": subject, "targets": targets, "in_order": bool(in_order)}
                step.log(Kind.DOUBLE, member, args)
            elif action == MemberAction.PASS:
                step.log(Kind.PASS, member, {"member": subject, "cube": cube})
            elif action in (MemberAction.OFFER_EXTRA, MemberAction.NO_EXTRA):
                step.log(Kind.EXTRA, member, {"member": subject, "offer": action == MemberAction.OFFER_EXTRA})
            elif table.board_live and name(subject) == table.session.box:
                if member != subject:
                    raise NotYourTurnError("Box answers in person (RULES C9 covers Team members).")
                step.log(Kind.BOX_ANSWER, member, {"decisions": value or action})
            else:
                step.log(Kind.ANSWER, member, {"member": subject, "decision": action, "cube": cube})

        try:
            return await self._mutate(session_id, request, operation)
        except AwaitingBeacon as waiting:
            return await self._awaited(session_id, request, waiting.due)

    async def team_settle(
        self, session_id: int, member: int | Request, step: str, *, seller: int | None = None, points: int | None = None
    ) -> ChouetteOutcome:
        """A settlement between Team members (RULES C10; 003 Atlanta 4.4), ``step`` by ``member``: ``offer`` (he buys
        ``seller``'s interest in the game for ``points``, whole points, negative: the seller pays), ``preempt`` (Box:
        if the seller accepts, Box pays him and settles his cubes), ``accept`` (the seller), ``decline`` (the seller,
        or the buyer withdrawing). The points are the game's transfers: they enter its row on the score sheet and
        the club's ledger when it ends (C11, A3). See :mod:`club.chouette.table`.

        Raises :class:`InvalidRequestError` (bad step, seller or points), :class:`NotYourTurnError` (the wrong member
        for the step), :class:`NotNowError` (no game, no offer, one open already) and the rules' ``ChouetteError``
        (settlements off, a decision pending, a seller or buyer without a cube in play); a refusal changes nothing."""
        request = as_request(member)
        member = request.member
        if step not in STEPS:
            raise InvalidRequestError(f"a Team settlement step is one of {', '.join(STEPS)}, not {step!r}")
        args: dict[str, Any] = {"step": step}
        if step == SettleStep.OFFER:
            args.update(seller=_check_id(seller, "seller"), points=check_points(points))

        async def operation(step_: ChouetteStep) -> None:
            if member not in step_.table.members:
                raise NotAPlayerError(f"You do not sit in chouette {session_id}: join it with /bg chouette join.")
            if seller is not None:
                step_.names.update(await self.club._names([seller]))
            step_.log(Kind.TEAM_SETTLE, member, args)

        return await self._mutate(session_id, request, operation)

    async def box_answer(
        self, session_id: int, member: int | Request, decisions: dict[str, str], *, mark: str | None = None
    ) -> ChouetteOutcome:
        """Box answers the Team's doubles cube by cube (``decisions``: cube key → take/drop/beaver; 003 Atlanta
        5.10: when every cube was turned from the centre, all at once and at least half accepted, or all dropped)."""
        if not isinstance(decisions, dict) or not decisions:
            raise InvalidRequestError("decisions are {cube: take/drop/beaver}")
        return await self.act(session_id, member, "take", value={str(k): v for k, v in decisions.items()}, mark=mark)

    def _roll(self, step: ChouetteStep, member: int) -> None:
        table = step.table
        waiting = table.pending()
        mine = [p for p in waiting if p.subject == member and p.pending == Awaited.DOUBLE]
        if mine and member == table.roller() and len(mine) == len(waiting):
            step.log(Kind.PASS, member, {"member": member, "cube": None})  # rolling passes the Captain's own double
            if table.pending() and table.pending()[0].pending != Awaited.ROLL:
                return
        step.roll(member)

    async def roll(self, session_id: int, member: int | Request, *, mark: str | None = None) -> ChouetteOutcome:
        """The roller (Box, or the Captain for the Team) rolls instead of doubling (RULES D1, G4)."""
        return await self.act(session_id, member, "roll", mark=mark)

    async def play(self, session_id: int, member: int | Request, play: str | Play, *, mark: str | None = None):
        """The roller plays his dice (notation, RULES G4–G10)."""
        if not isinstance(play, str | Play) or (isinstance(play, str) and len(play) > 200):
            raise InvalidRequestError(f"a play is notation like '24/18 13/11', not {play!r:.60}")
        try:
            return await self.act(session_id, member, "play", value=play, mark=mark)
        except IllegalPlayError as error:
            if not isinstance(play, str):
                raise
            board = (await self._load_step(session_id)).table.live_board  # what made it illegal (club.refusals)
            raise explain_illegal(error, board, play) from None

    # -- queries ----------------------------------------------------------------------------------------------------
    async def state(self, session_id: int) -> ChouetteView:
        """The session as it stands. Raises :class:`UnknownGameError`."""
        step = await self._load_step(_check_id(session_id, "chouette id"))
        rows = [DeadlineRow.of(d) for d in step.old_deadlines.values()]
        return self._view(step, step.record.version, rows, new=())

    async def sheet(self, session_id: int) -> SheetData:
        """The score sheet (RULES C11)."""
        return (await self.state(session_id)).sheet

    async def legal_plays(self, session_id: int, member: int) -> list[str]:
        """The legal plays of the board's dice for ``member`` when he is to play, else ``[]``."""
        step = await self._load_step(_check_id(session_id, "chouette id"))
        table = step.table
        if table.roller() != member:
            return []
        return [play.notation() or "pass" for play in table.live_board.legal_plays()]

    async def log(self, session_id: int) -> list[ChouetteAction]:
        """The session's whole action log. Raises :class:`UnknownGameError`."""
        actions = await self.store.actions(_check_id(session_id, "chouette id"))
        if not actions:
            raise UnknownGameError(f"There is no chouette {session_id}.")
        return actions

    async def waiting(self, member: int) -> list[ChouetteDeadline]:
        """The chouette decisions ``member`` must make now (his own, or as a proxy)."""
        return await self.store.waiting_for(_check_id(member, "member id"))

    async def remember_message(self, session_id: int, channel_id: int, message_id: int, *, purpose=Purpose.BOARD,
                               game_number: int | None = None):  # fmt: skip
        """Remember that a message (or a thread: ``purpose="thread"``) shows the session."""
        return await self.store.add_message(session_id, channel_id, message_id, self.clock.now(),
                                            game_number=game_number, purpose=purpose)  # fmt: skip

    def board_posted(self, session_id: int, channel_id: int, message_id: int, *, game_number: int | None):
        """Remember the board message just posted for chouette ``session_id``: stored with the session's next
        commit or by :meth:`flush` (:class:`~club.work.UnsavedBoards`), so a decision is one write transaction;
        :meth:`messages` knows it meanwhile (id 0)."""
        write = self.club.unsaved.board(("chouette", session_id), channel_id, message_id, game_number, self.clock.now())
        return _unsaved(ChouetteMessage, session_id, write)

    async def flush(self) -> None:
        """Store the board messages of chouettes not stored yet (:meth:`board_posted`): before the database is
        closed. One that cannot be stored is logged and skipped."""
        await self.club.unsaved.flush("chouette", self.store.store)

    async def messages(self, session_id: int, *, purpose: str | None = None):
        """The remembered messages of a session, oldest first (the boards not stored yet last)."""
        stored = await self.store.messages(session_id, purpose=purpose)
        unsaved = self.club.unsaved.of(("chouette", session_id), purpose)
        return stored + [_unsaved(ChouetteMessage, session_id, write) for write in unsaved]

    # -- the unit of work ---------------------------------------------------------------------------------------------
    async def _mutate(
        self, session_id: int, request: Request | None, operation: Callable[[ChouetteStep], Any]
    ) -> ChouetteOutcome:
        """The unit of work of one member's call on chouette ``session_id``: ``operation(step)`` applies
        ``request`` (whose ``version`` is the mark of the board he saw; None: the club's own step). Club isolation
        and staleness are checked on the snapshot loaded (RULES A2)."""
        _check_id(session_id, "chouette id")
        member, mark = (None, None) if request is None else (request.member, request.version)
        if mark is not None and (not isinstance(mark, str) or not MARK.match(mark)):
            raise InvalidRequestError(f"mark is '<game>.<turn>' from the board shown, not {mark!r}")

        async def act(step: ChouetteStep) -> None:
            step.request = request
            try:
                if member is None:  # the club's own step (a beacon round fetched)
                    operation(step)
                    return
                if member not in step.names:  # a presser outside the table (read with it otherwise)
                    step.names.update(await self.club._names([member]))
                await step.contribute(member)  # his client seeds, if due
                result = operation(step)
                if inspect.isawaitable(result):
                    await result
            except BackgammonError as error:
                error.args = (humanize(str(error), step.names),)
                raise

        unit = await run_unit(
            self.club._lock_for(("chouette", session_id)),
            lambda: self._load_step(session_id, request),
            mark,
            act,
            lambda commit: self.club.unsaved.save(("chouette", session_id), commit, self.store.commit),
            CONFLICT,
            self.club.admission,
        )
        outcome = self._outcome(unit.step, unit.version, unit.commit[1], member)
        if (seat := unit.step.seat_round()) is not None:
            return await self._beacon_roll(outcome, seat, seat=True)
        due = unit.step.book.beacon_due()
        return outcome if due is None else await self._beacon_roll(outcome, due)

    async def _awaited(self, session_id: int, request: Request, due: int, *, seat: bool = False) -> ChouetteOutcome:
        """A member's call found the chouette waiting for beacon round ``due`` (``seat``: the seat throws'): the
        board as it stands, then that round fetched and rolled with (:meth:`_beacon_roll`); his call is not made."""
        step = await self._load_step(session_id, request)
        board = ChouetteOutcome(self._view(step, step.record.version, [], new=()), "")
        return await self._beacon_roll(board, due, seat=seat)

    async def _beacon_roll(self, first: ChouetteOutcome, due: int, *, seat: bool = False) -> ChouetteOutcome:
        """The game started in ``first`` (``seat``: the seat throws called) waits for its beacon round ``due``:
        fetch and verify it (waiting until it is published, with retries) and roll with it in a second unit of work
        (RULES A1, :mod:`club.beacon`), as the 1-on-1's ``ClubService._beacon_roll`` does. When the round cannot be
        had, nothing is rolled or stored: ``first`` says why, and the next action on the chouette tries again."""
        beacon = self.club.beacon
        if beacon is None:  # no beacon in the club's dice: nothing waits for a round
            return first
        found, said = await round_for_game(beacon, due, 0 if seat else first.view.game_number)
        if found is None:
            return replace(first, message=f"{first.message}\n{said}".strip())

        def operation(step: ChouetteStep) -> None:
            if seat and step.seat_round() == due:
                step.use_beacon(found, 0)
                step.throw("seat", None, list(step.table.lobby))
            elif not seat and step.book.beacon_due() == due:
                step.use_beacon(found)

        second = await self._mutate(first.session_id, None, operation)
        return replace(second, message=f"{first.message}\n{said}\n{second.message}".strip(),
                       notify=tuple(dict.fromkeys(first.notify + second.notify)))  # fmt: skip

    async def _finish(
        self, step: ChouetteStep, member: int | None, notice: StepNotice | None = None, facts: tuple = ()
    ) -> ChouetteOutcome:
        """Autoplay, then commit ``step`` (``notice``, built from ``facts`` and the outcome, recorded pending in the
        same transaction: the club's own step); its outcome for ``member``."""
        step.autoplay()
        commit, rows = step.commit()
        if notice is not None:  # the club's own step: its notice lands with it
            commit = notice.into(commit, *facts, self._outcome(step, commit.new_version, rows, member))
        try:
            version = await self.club.unsaved.save(("chouette", step.record.id), commit, self.store.commit)
        except VersionConflictError as error:
            raise StaleVersionError(CONFLICT, error.expected, error.actual) from None
        return self._outcome(step, version, rows, member)

    def _outcome(self, step: ChouetteStep, version: int, rows: list[DeadlineRow], member: int | None):
        new = {row.subject_id for row in rows if row.version == version and row.set_at == step.now}
        view = self._view(step, version, rows, new=new)
        ping = tuple(dict.fromkeys(d.actor for d in view.decisions if d.new and d.actor != member))
        return ChouetteOutcome(
            view=view,
            message="\n".join(step.lines),
            notify=ping,
            image_due=step.image_due,
            finished=tuple(step.finished),
            revealed=tuple(step.revealed),
        )

    def _view(self, step: ChouetteStep, version: int, rows: list[DeadlineRow], *, new) -> ChouetteView:
        table = step.table
        due = {row.subject_id: row.due_at for row in rows}
        decisions = tuple(
            Decision.of(pending, due.get(pending.subject), pending.subject in new) for pending in table.pending()
        )
        series = step.series.get(table.game_number)
        seed = series.seed.hex() if series is not None and series.revealed and series.seed is not None else None
        view = ChouetteView.of(
            step.record.id,
            table,
            version=version,
            names=step.names,
            decisions=decisions,
            seed_hash=None if series is None else series.seed_hash,
            seed=seed,
            stored_sheet=step.stored_sheet,
        )
        targets = [number for number, _ in step.luck_targets()] if table.status == TableStatus.OPEN else []
        if not targets:
            return view
        lucky = dict.fromkeys(who for number in targets for who in step.book.lucky(number))
        return replace(view, luck_game=targets[-1], lucky=tuple(lucky))

    async def _load_step(self, session_id: int, request: Request | None = None) -> ChouetteStep:
        """The step of chouette ``session_id`` as stored, read in one snapshot (the session, its dice and deadlines
        agree). Raises :class:`UnknownGameError` for an unknown chouette or, for a ``request`` from another server
        than the chouette's club's, "no chouette here" (club isolation, RULES A2)."""
        here = request is not None and request.guild_id is not None
        try:
            async with self.store.store.snapshot():
                step = await self._read_step(session_id)
        except UnknownGameError:
            if here:
                raise UnknownGameError(f"There is no chouette {session_id} here.") from None
            raise
        if request is not None and request.guild_id is not None and step.club_guild != request.guild_id:
            raise UnknownGameError(f"There is no chouette {session_id} here.")
        return step

    async def _stored_sheet(self, session_id: int, table: ChouetteTable) -> list[dict]:
        """The session's stored sheet rows: those read before (a stored row never changes, RULES C11's record) and
        any written since — by this process or another one sharing the database — so an action reads only new
        rows, and none at all while no game ended since it last looked: ``table`` (as loaded)
        says how many games it does not hold itself."""
        known = self._sheets.setdefault(session_id, [])
        stored = table.session.games_on_sheet - len(table.session.sheet_rows())
        if len(known) < stored:
            known.extend(await self.store.sheet(session_id, after=known[-1]["game"] if known else 0))
        return known[:stored] if len(known) >= stored else list(known)

    async def _read_step(self, session_id: int) -> ChouetteStep:
        record = await self.store.get(session_id)
        if record is None:
            raise UnknownGameError(f"There is no chouette {session_id}.")
        table = ChouetteTable.from_json(record.state)
        club = await self.club.db.get_club_by_id(record.club_id)
        if club is None:  # its club is gone (a damaged database)
            raise UnknownGameError(f"There is no chouette {session_id}.")
        ids = set(table.lobby) | {member_id(m) for m in table.session.sheet_members} | set(table.members)
        members = await self.club.db.get_members(ids)
        names = {user: m.display_name for user, m in members.items()}
        prefs = {user: MemberPreferences.from_json(m.preferences) for user, m in members.items()}
        book = DiceBook.from_json(record.state.get("dice"))
        stored = await self.store.dice(session_id, (0, table.game_number))
        series = {n: _Series.of(each, book) for n, each in stored.items()}
        deadlines = {d.subject_id: d for d in await self.store.deadlines(session_id)}
        step = ChouetteStep(self, record, table, self.clock.now(), ClubSettings.from_json(club.settings), names, prefs,
                            series, deadlines, book=book, club_guild=club.guild_id)  # fmt: skip
        step.stored_sheet = await self._stored_sheet(session_id, table)
        return step
