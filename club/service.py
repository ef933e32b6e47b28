"""The use-cases: :class:`ClubService` — every call a front end (Discord cogs, console, tests) makes.

Its members are the actions on a match (challenge, the game, the cube, resignations, deadlines), the queries (the
state, a game, the legal plays, what waits for a member, his history, the log: none changes anything stored) and the
club and its members (registering, the club's settings, a member's preferences; RULES A1).

Each action loads the match, checks who may do what, applies one ``backgammon`` transition (plus what follows by
itself: auto-roll, a forced play, a passed turn, the next game's opening roll), appends every step to the log and
saves the new state in one conditional transaction, under a per-match ``asyncio.Lock`` (a match plays one game at
a time, so this is the per-game lock; money sessions alike). It returns an
:class:`~club.results.Outcome`. A refused call raises a typed error (:mod:`club.errors`, or the rules' own
:mod:`backgammon.errors`) and changes nothing stored.

Concurrency: within one process the per-match lock orders calls; between processes (or bot instances) the storage's
``UPDATE … WHERE version = ?`` lets exactly one writer win; the loser gets :class:`~club.errors.StaleVersionError`.
Callers may pass ``version`` (from the last :class:`~club.results.TableView` they showed, e.g. in a button's id):
an action on an older version is refused as "already done".
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, overload

from backgammon.errors import IllegalPlayError, WrongPhaseError
from backgammon.game import Action, Game
from backgammon.moves import Play
from backgammon.rules import RuleSet
from storage import (
    ActionRecord,
    Commit,
    Database,
    DeadlineWrite,
    GameRecord,
    MatchRecord,
    MemberRecord,
    MessageRecord,
    MessageWrite,
)
from storage.lease import Lease
from storage.pgerrors import hide_password

from . import dice as _dice
from .admission import Admission
from .beacon import Beacon, round_for_game
from .clock import Clock, SystemClock
from .clocks import StepNotice
from .commitments import Ahead, DiceBook, check_luck
from .describe import describe, pending_words
from .dice import RECIPE, DiceSource, new_seed
from .errors import (
    InvalidRequestError,
    NotAPlayerError,
    NotNowError,
    UnknownGameError,
    UnknownMemberError,
    shown,
)
from .export import keep_mat_file
from .refusals import explain_illegal
from .requests import Request, as_request
from .results import GameView, Outcome, TableView
from .settings import ClubSettings, MemberPreferences
from .step import MatchStep, _GameInfo, store_challenge
from .table import (
    FINISHED,
    Event,
    GameStatus,
    MatchKind,
    MatchStatus,
    Pending,
    Table,
    TableAction,
    TableEvent,
    TableType,
)
from .work import Purpose, TableLocks, UnsavedBoards, run_unit
from .work import check_id as _check_id

log = logging.getLogger(__name__)

DiceInjector = Callable[[int, int, int], tuple[int, int]]
"""``(match_id, game_number, roll counter) -> (d1, d2)``: dice from outside (tests, replays)."""

MAX_LENGTH = 99

DM_RETRY_SECONDS = 6 * 3600.0
"""How long a member's refusal of direct messages (Discord's 50007) is kept before they are tried again."""

KEEP_INLINE = 2000
"""A table that ends with at most this many logged actions has its match file made before its last action returns
(tens of milliseconds); a longer one (a session of hundreds of games: seconds) in the background."""


@dataclass(frozen=True, slots=True)
class WaitingItem:
    """A match or session waiting for a member: ``pending`` (and in words), since when, and the deadline."""

    match_id: int
    kind: str
    length: int
    opponent_id: int
    opponent_name: str
    pending: str
    pending_text: str
    score: tuple[int, int]  # the member's, the opponent's
    game_number: int
    version: int
    since: float
    due_at: float | None


@dataclass(frozen=True, slots=True)
class HistoryItem:
    """A match or session a member played or plays: ``outcome`` is ``won``/``lost`` (matches), ``+n``/``-n``
    (money: the member's net), or the status (``active``, ``declined`` …)."""

    match_id: int
    kind: str
    length: int
    opponent_id: int
    opponent_name: str
    status: str
    outcome: str
    score: tuple[int, int]  # the member's, the opponent's
    games: int
    stake: int
    updated_at: float
    ended_at: float | None


def _unsaved(record_type, table_id: int, write: MessageWrite):
    """A message kept until the next commit as a record of ``record_type`` (``MessageRecord``, ``ChouetteMessage``):
    id 0 (not stored yet)."""
    return record_type(0, table_id, write.game_number, write.channel_id, write.message_id, write.purpose,
                       write.created_at)  # fmt: skip


class AwaitingBeacon(Exception):
    """Raised inside a unit of work whose game waits for its beacon round ``due``: nothing is done in it."""

    def __init__(self, due: int) -> None:
        super().__init__(due)
        self.due = due


def _with_luck(view: TableView, book: DiceBook) -> TableView:
    """``view`` with the game whose dice wait for luck (the one committed ahead) and who has added his."""
    ahead = book.ahead
    if ahead is None or view.status not in (MatchStatus.CHALLENGED, MatchStatus.ACTIVE):
        return view
    return replace(view, luck_game=ahead.number, lucky=tuple(view.players[side] for side in book.lucky(ahead.number)))


def _check_version(version: Any) -> int | None:
    if version is None:
        return None
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise InvalidRequestError(f"version is a whole number ≥ 1 (from the last view shown), not {version!r}")
    return version


ENDING = (TableEvent.GAME_OVER, TableEvent.MATCH_OVER, TableEvent.SESSION_OVER, TableAction.DECLINE,
          TableAction.CANCEL, TableAction.LAPSE)  # fmt: skip
"""The events after which both players are told (a game or the table ended, a challenge was answered no)."""


class ClubService:
    """The use-case layer over one :class:`~storage.Database` (see the module docstring).

        ``clock``: where "now" comes from (default the system clock). ``defaults``: the settings a new club starts with
        (from the bot's configuration; default :class:`~club.settings.ClubSettings`). ``dice``: a :data:`DiceInjector`
        for tests and replays (games are then marked ``'injected'``); by default every game has provably fair dice
        (:mod:`club.dice`). ``seeds``: the seed source (default :func:`club.dice.new_seed`); ``contributions``: a member's
    client seed when neither his phrase nor the front end gives one (default :func:`club.dice.new_contribution`,
        looked up at each call). ``max_auto_actions``: a
        bound on automatic steps per call (a position where both sides can only dance never loops forever).
        ``beacon``: a :class:`~club.beacon.Beacon` whose round due for each game enters its dice (``[dice] beacon``;
        default none). ``admission``: the backpressure on actions (:class:`~club.admission.Admission`; default none — every action
        starts at once; the bot passes the default limit, so a flood of clicks is answered "busy, try again" instead of
        queueing without bound).
    """

    def __init__(
        self,
        database: Database,
        *,
        clock: Clock | None = None,
        defaults: ClubSettings | None = None,
        dice: DiceInjector | None = None,
        seeds: Callable[[], bytes] = new_seed,
        contributions: Callable[[], str] | None = None,
        max_auto_actions: int = 400,
        admission: Admission | None = None,
        beacon: Beacon | None = None,
    ) -> None:
        self.db = database
        self.beacon = beacon
        """The public randomness beacon in every game's dice (``[dice] beacon``, :mod:`club.beacon`), or None."""
        self.admission = admission if admission is not None else Admission(None)
        self.clock: Clock = clock or SystemClock()
        self.defaults = defaults or ClubSettings()
        self._dice = dice
        self._seeds = seeds
        self._contributions = contributions or (lambda: _dice.new_contribution())
        self.max_auto_actions = max_auto_actions
        self._locks = TableLocks()
        self._background: set[asyncio.Task] = set()
        self.unsaved = UnsavedBoards()
        """The board messages posted after a table's last commit (stored with its next one)."""
        self.match_end_hooks: list[Callable[[int], Awaitable[Any]]] = []
        """Called with the match id when a match or session ends (over, declined, cancelled, lapsed) — how an
        event (:mod:`club.events`) hears of its matches; a hook that fails is logged, the action stands."""

    # -- challenges ---------------------------------------------------------------------------------------------------
    async def challenge(
        self,
        guild_id: int,
        challenger: int,
        opponent: int,
        *,
        length: int = 0,
        rules: str | None = None,
        overrides: dict[str, Any] | None = None,
        stake: int = 0,
    ) -> Outcome:
        """``challenger`` challenges ``opponent`` to a match to ``length`` points (RULES M1) or, with ``length`` 0,
        a money session. ``rules``: a preset name (default: the club's for that kind); ``overrides``: rule-set
        options on top of the club's (see ``backgammon.rules``); ``stake``: per point (money sessions).

        Raises :class:`InvalidRequestError` (bad length, stake, self-challenge, not in the club),
        :class:`UnknownMemberError`, :class:`~backgammon.errors.RuleSetError` (rules that do not suit the length,
        RULES G3, M2, D3, M6).
        """
        _check_id(guild_id, "guild_id")
        _check_id(challenger, "challenger")
        _check_id(opponent, "opponent")
        if challenger == opponent:
            raise InvalidRequestError("you cannot challenge yourself")
        if isinstance(length, bool) or not isinstance(length, int) or not 0 <= length <= MAX_LENGTH:
            raise InvalidRequestError(f"length is 0 (a money session) or 1–{MAX_LENGTH} points, not {length!r}")
        club = await self.db.get_club(guild_id)
        if club is None:
            raise InvalidRequestError("this server has no club yet: register members first")
        settings = ClubSettings.from_json(club.settings)
        settings.check_terms(stake, overrides)
        if rules is not None and (not isinstance(rules, str) or len(rules) > 40):
            raise InvalidRequestError(f"rules is the name of a rule-set preset, not {shown(rules)}")
        members = await self.db.get_members([challenger, opponent])
        for user in (challenger, opponent):
            if user not in members:
                raise UnknownMemberError(f"user {user} is not a member yet: use the bot once to register")
            if not await self.db.is_club_member(club.id, user):
                raise InvalidRequestError(f"{members[user].display_name} is not a member of this club")
        preset = rules or (settings.money_rules if length == 0 else settings.match_rules)
        rule_set = RuleSet.preset(preset, **{**settings.rule_overrides, **(overrides or {})})
        rule_set.validate_for(length)
        table, args = Table.challenge(
            club_id=club.id, players=(challenger, opponent), length=length, rules=rule_set, stake=stake
        )
        state = table.state_json()
        commitment = None
        if self._dice is None:  # game 1's server seed, committed now: before anyone's client seed
            ahead = Ahead.draw(1, self._seeds, self.clock.now())
            commitment = args["next_seed_hash"] = ahead.seed_hash
            state["dice"] = DiceBook(ahead).to_json()
        now = self.clock.now()
        due = now + settings.time_limit(Pending.ANSWER_CHALLENGE)
        deadline = DeadlineWrite(
            opponent, Pending.ANSWER_CHALLENGE, due, tuple(due - r for r in settings.reminders if due - r > now)
        )
        record = await store_challenge(self.db, table, state, args, deadline=deadline, now=now)
        names = (members[challenger].display_name, members[opponent].display_name)
        event = Event(TableAction.CHALLENGE, 0, data={"rules": rule_set.describe(), "stake": stake})
        text = describe(event, names, money=length == 0, length=length)
        text += f" Rules: {rule_set.describe()}." + (f" Stake: {stake} per point." if stake else "")
        if commitment is not None:
            text += (f" Game 1 dice commitment (SHA-256 of its server seed, fixed before either player's client "
                     f"seed): {commitment}.")  # fmt: skip
        view = TableView.of(
            record.id, table, version=record.version, names=names, due_at=due, seed_hash=None, seed=None
        )
        return Outcome(view, text, notify=(opponent,), events=(event,))

    async def accept(self, match_id: int, member: int | Request, *, version: int | None = None) -> Outcome:
        """The challenged member accepts; game 1 starts (its seed committed in the challenge, his client seed fixed
        now; the opening roll made, RULES G2)."""
        return await self._simple(match_id, member, "accept", version)

    async def decline(self, match_id: int, member: int | Request, *, version: int | None = None) -> Outcome:
        """The challenged member declines the challenge."""
        return await self._simple(match_id, member, "decline", version)

    async def cancel(self, match_id: int, member: int | Request, *, version: int | None = None) -> Outcome:
        """The challenger withdraws the challenge before it is answered."""
        return await self._simple(match_id, member, "cancel", version)

    # -- the game ------------------------------------------------------------------------------------------------------
    async def roll(
        self, match_id: int, member: int | Request, *, version: int | None = None, notice: StepNotice | None = None
    ) -> Outcome:
        """Roll the dice (provably fair, :mod:`club.dice`) instead of doubling (RULES D1); a forced play or no
        legal play is then played for the member (RULES G7, G9). ``notice``: the club rolls in his name (his
        ``roll_after``), and the notice of it is recorded with the roll (:class:`~club.clocks.StepNotice`)."""
        return await self._simple(match_id, member, "roll", version, notice=notice)

    async def play(
        self, match_id: int, member: int | Request, play: str | Play, *, version: int | None = None
    ) -> Outcome:
        """Play the dice: notation (``"24/18 13/11"``, ``"bar/22*"``, ``"pass"`` when no move is possible) or one
        of the legal :class:`~backgammon.moves.Play` objects (RULES G4–G10). Raises the notation errors
        (:class:`~backgammon.errors.InvalidPlayError`, ``IllegalPlayError`` with ``.legal``, ``AmbiguousPlayError``)."""
        if not isinstance(play, str | Play) or (isinstance(play, str) and len(play) > 200):
            raise InvalidRequestError(f"a play is notation like '24/18 13/11' or a legal Play, not {play!r:.60}")
        return await self._simple(match_id, member, "play", version, play)

    async def double(self, match_id: int, member: int | Request, *, version: int | None = None) -> Outcome:
        """Offer a double before rolling (RULES D1; refused in the Crawford game M3, with a dead cube M4, at the cap
        D5, or when the opponent owns the cube: :class:`~backgammon.errors.CubeError`)."""
        return await self._simple(match_id, member, "double", version)

    async def take(self, match_id: int, member: int | Request, *, version: int | None = None) -> Outcome:
        """Take the pending double, beaver or raccoon (RULES D2, D3)."""
        return await self._simple(match_id, member, "take", version)

    async def drop(self, match_id: int, member: int | Request, *, version: int | None = None) -> Outcome:
        """Drop the pending double (or beaver/raccoon) and lose the value before it (RULES D2, D3)."""
        return await self._simple(match_id, member, "drop", version)

    async def beaver(self, match_id: int, member: int | Request, *, version: int | None = None) -> Outcome:
        """Beaver the double: take and redouble at once, keeping the cube (RULES D3, if the rule set allows)."""
        return await self._simple(match_id, member, "beaver", version)

    async def raccoon(self, match_id: int, member: int | Request, *, version: int | None = None) -> Outcome:
        """Raccoon the beaver: redouble once more, ownership unchanged (RULES D3, if the rule set allows)."""
        return await self._simple(match_id, member, "raccoon", version)

    async def resign(
        self, match_id: int, member: int | Request, level: int = 1, *, version: int | None = None
    ) -> Outcome:
        """Offer to resign a single game (``level`` 1), a gammon (2) or a backgammon (3) (RULES G12)."""
        if isinstance(level, bool) or level not in (1, 2, 3):
            raise InvalidRequestError(
                f"a resignation is of level 1 (single), 2 (gammon) or 3 (backgammon), not {level!r}"
            )
        return await self._simple(match_id, member, "resign", version, level)

    async def accept_resignation(self, match_id: int, member: int | Request, *, version: int | None = None) -> Outcome:
        """Accept the opponent's resignation: the game ends at the offered level (RULES G12)."""
        return await self._simple(match_id, member, "accept_resignation", version)

    async def reject_resignation(self, match_id: int, member: int | Request, *, version: int | None = None) -> Outcome:
        """Reject the opponent's resignation: play goes on (RULES G12)."""
        return await self._simple(match_id, member, "reject_resignation", version)

    async def stop(self, match_id: int, member: int | Request, *, version: int | None = None) -> Outcome:
        """Money session: end it when the current game ends (either player may ask)."""
        return await self._simple(match_id, member, "stop", version)

    async def add_luck(self, match_id: int, member: int | Request, text: str) -> Outcome:
        """A player adds luck of his own to the next game's dice (:data:`club.dice.RECIPE_V3`, step 7): ``text``
        (1–100 printable characters, typed in the luck modal of the challenge or the board) joins the client seeds
        of the game committed ahead, fixed at its first roll; typed after its commitment, it protects him. Raises
        :class:`InvalidRequestError` for bad text, :class:`NotNowError` when no game waits for its dice,
        :class:`GameFinishedError` on an ended table."""
        text = check_luck(text)
        request = as_request(member)

        added: list[str] = []

        async def operation(step: MatchStep, side: int) -> None:
            step.require_open()
            if self._dice is not None:
                raise NotNowError("This table's dice are given from outside (a test or a replay): no luck to add.")
            number = step.add_luck(side, text)
            added[:] = [f"{step.names[side]} added luck of their own to the dice of game {number} "
                        "(fixed at its first roll; /bg verify lists it when the game is over)."]  # fmt: skip

        outcome = await self._mutate(match_id, request, operation)
        return replace(outcome, message="\n".join([outcome.message, *added]).strip())

    async def _simple(
        self, match_id: int, member: int | Request, kind: str, version: int | None, value: Any = None,
        notice: StepNotice | None = None,
    ) -> Outcome:  # fmt: skip
        request = as_request(member, version)

        async def operation(step: MatchStep, side: int) -> None:
            if (due := step.beacon_due()) is not None:
                raise AwaitingBeacon(due)  # the game's opening waits for its beacon round: fetch it first
            if step.table.status == MatchStatus.ACTIVE and step.table.waiting()[0] is None:
                step.autoplay()  # finish what the club had left to do (e.g. an opening roll), then judge the call
            step.require_turn(side, kind)
            if kind not in (TableAction.DECLINE, TableAction.CANCEL):
                step.contribute(side)  # his client seed, if one is due
            try:
                if kind == Action.ROLL:
                    game = step.table.game
                    if game is None or Action.ROLL not in game.legal_actions(side):
                        raise step.not_now(side, kind)
                    dice, index = step.roll_dice()
                    step.act(Action.ROLL, side, dice, dice=dice, roll_index=index)
                else:
                    step.act(kind, side, value)
            except NotNowError:
                raise
            except WrongPhaseError:
                raise step.not_now(side, kind) from None
            except IllegalPlayError as error:
                if kind == Action.PLAY and isinstance(value, str) and step.table.game is not None:
                    raise explain_illegal(error, step.table.game, value) from None
                raise

        try:
            return await self._mutate(match_id, request, operation, notice=notice)
        except AwaitingBeacon as waiting:
            board = Outcome(await self.state(match_id), "")
            return await self._beacon_roll(board, request.member, waiting.due)

    # -- time limits (called by club.scheduler) ------------------------------------------------------------------------
    async def expire(
        self, match_id: int, side: int | None, what: str, *, version: int, notice: StepNotice | None = None
    ) -> Outcome:
        """The club acts at a deadline (RULES A2, M5): ``what`` is ``lapse`` (an unanswered challenge),
        ``forfeit`` (``side`` forfeits the game) or ``forfeit_match`` (``side`` forfeits the match / session).
        Only if the match is still at ``version`` (else :class:`StaleVersionError`: someone acted in time).
        ``notice``: the notice of it, recorded pending in the same transaction (:class:`~club.clocks.StepNotice`)."""

        async def operation(step: MatchStep, _side: int | None) -> None:
            step.require_open()
            step.act(what, side, by_club=True)

        return await self._mutate(match_id, None, operation, version, notice)

    # -- the unit of work ----------------------------------------------------------------------------------------------
    def _lock_for(self, key) -> asyncio.Lock:
        """The lock of table ``key``: a match id, or ``(kind, id)`` (:class:`club.work.TableLocks`)."""
        return self._locks((TableType.MATCH, key) if isinstance(key, int) else key)

    @overload
    async def _mutate(
        self, match_id: int, request: Request, operation: Callable[[MatchStep, int], Awaitable[None]],
        version: int | None = None, notice: StepNotice | None = None,
    ) -> Outcome: ...  # fmt: skip

    @overload
    async def _mutate(
        self, match_id: int, request: None, operation: Callable[[MatchStep, None], Awaitable[None]],
        version: int | None = None, notice: StepNotice | None = None,
    ) -> Outcome: ...  # fmt: skip

    async def _mutate(
        self,
        match_id: int,
        request: Request | None,
        operation: Callable[[MatchStep, Any], Awaitable[None]],  # his side (int) with a request, else None
        version: int | None = None,
        notice: StepNotice | None = None,
    ) -> Outcome:
        """The unit of work of one call on match ``match_id``: ``request`` the member's (None: the club's own step,
        at ``version``); ``operation(step, his side)`` applies it; ``notice`` (built from the outcome) is recorded
        pending in its commit. Club isolation and staleness are checked on the snapshot loaded (RULES A2)."""
        _check_id(match_id, "match id")
        member = None if request is None else request.member
        version = _check_version(version if request is None else request.version)
        steps: list[MatchStep] = []

        async def act(step: MatchStep) -> None:
            steps.append(step)
            step.request = request
            side = None
            if member is not None:
                side = step.table.side_of(member)
                if side is None:
                    raise NotAPlayerError(
                        f"You do not play in {'session' if step.table.kind == MatchKind.MONEY else 'match'} {match_id}: "
                        f"it is {step.names[0]} against {step.names[1]}."
                    )
            await operation(step, side)

        async def save(commit: Commit) -> int:
            if notice is not None:  # the club's own step: its notice lands with it
                commit = notice.into(commit, self._outcome(steps[-1], commit.new_version, member, commit))
            return await self._commit(match_id, commit)

        unit = await run_unit(
            self._lock_for(match_id),
            lambda: self._load_step(match_id, request),
            version,
            act,
            save,
            "Already done: someone else acted on this game at the same moment. Look at the board again.",
            self.admission,
        )
        if unit.step.table.finished and unit.step.record.status not in FINISHED:
            await self._match_ended(match_id)
        if unit.step.table.status == MatchStatus.OVER and unit.step.record.status != MatchStatus.OVER:
            if unit.version <= KEEP_INLINE:
                await self._keep_mat_file(match_id)
            else:  # a long session: its last action does not wait for the replay
                task = asyncio.create_task(self._keep_mat_file(match_id))
                self._background.add(task)
                task.add_done_callback(self._background.discard)
        outcome = self._outcome(unit.step, unit.version, member, unit.commit)
        due = unit.step.beacon_due()
        return outcome if due is None else await self._beacon_roll(outcome, member, due)

    async def _beacon_roll(self, first: Outcome, member: int | None, due: int) -> Outcome:
        """The game started in ``first`` waits for its beacon round ``due``: fetch and verify it (waiting until it
        is published, with retries) and roll the opening with it in a second unit of work (RULES A1,
        :mod:`club.beacon`). When the round cannot be had, nothing is rolled or stored: ``first`` says why, and the
        next action on the table tries again."""
        if self.beacon is None:  # committed under a beacon that this process was not started with
            waits = "The dice of this game wait for a beacon round, and this bot has no [dice] beacon set."
            return replace(first, message=f"{first.message}\n{waits}".strip())
        found, named = await round_for_game(self.beacon, due, first.view.game_number)
        if found is None:
            return replace(first, message=f"{first.message}\n{named}".strip())

        async def operation(step: MatchStep, _side: int | None) -> None:
            if step.beacon_due() == due:
                step.use_beacon(found)
                step.autoplay()

        second = await self._mutate(first.match_id, None, operation, first.view.version)
        return replace(second, message=f"{first.message}\n{named}\n{second.message}".strip(),
                       events=first.events + second.events)  # fmt: skip

    async def _match_ended(self, match_id: int) -> None:
        for hook in self.match_end_hooks:
            try:
                await hook(match_id)
            except Exception:
                log.exception("match %s: a match-end hook failed", match_id)

    async def _commit(self, match_id: int, commit: Commit) -> int:
        """Store ``commit`` with the board messages posted since the match's previous commit (:meth:`board_posted`):
        one write transaction per action. Returns the new version."""
        return await self.unsaved.save((TableType.MATCH, match_id), commit, self.db.commit)

    async def _keep_mat_file(self, match_id: int) -> None:
        """Keep the ``.mat`` file of a table that has just ended (exports read it, never replay); a table
        whose file cannot be made is logged and left for the export to report."""
        try:
            await keep_mat_file(self, match_id)
        except Exception:
            log.warning("match %s: its .mat file could not be kept", match_id, exc_info=True)

    async def drain(self) -> None:
        """Wait for the work started in the background (the match files of long sessions that just ended)."""
        while self._background:
            await asyncio.gather(*self._background, return_exceptions=True)

    async def _load_step(self, match_id: int, request: Request | None = None) -> MatchStep:
        """The step of match ``match_id`` as stored. Raises :class:`UnknownGameError` for an unknown match or, for a
        ``request`` from another server than the match's club's, "no match here" (club isolation, RULES A2)."""
        loaded = await self.db.load_table(match_id)
        if loaded is None:
            here = "" if request is None or request.guild_id is None else " here"
            raise UnknownGameError(f"There is no match or session {match_id}{here}.")
        record, game_record, club, members = loaded.match, loaded.game, loaded.club, loaded.members
        if request is not None and not request.in_club(club.guild_id):
            raise UnknownGameError(f"There is no match or session {match_id} here.")
        table = self._table(record, game_record)
        shown = [members[p].display_name if p in members else str(p) for p in record.players]
        kept = [MemberPreferences.from_json(members[p].preferences if p in members else {}) for p in record.players]
        names, prefs = (shown[0], shown[1]), (kept[0], kept[1])
        from .practice import settings_of  # a practice room follows its club's settings

        step = MatchStep(self, record, table, self.clock.now(), await settings_of(self.db, club), names, prefs)
        step.book = DiceBook.from_json(record.state.get("dice"))
        if game_record is not None:
            v2 = step.book.current == game_record.number and game_record.dice == DiceSource.FAIR
            step.games[game_record.number] = _GameInfo(
                number=game_record.number,
                dice=game_record.dice,
                seed=None if game_record.seed is None else bytes.fromhex(game_record.seed),
                seed_hash=game_record.seed_hash,
                rolls=game_record.rolls,
                expected_version=game_record.version,
                version=game_record.version,
                was_over=game_record.status == GameStatus.OVER,
                recipe=step.book.recipe if v2 else RECIPE,
                beacon=(step.book.beacon or {}).get("randomness") if v2 else None,
                contributions=step.book.contributions(game_record.number) if v2 else [],
            )
        return step

    @staticmethod
    def _table(record: MatchRecord, game_record: GameRecord | None) -> Table:
        return Table.from_state(
            kind=record.kind,
            length=record.length,
            players=record.players,
            rules=record.rules,
            stake=record.stake,
            club_id=record.club_id,
            state=record.state,
            game_state=None if game_record is None else game_record.state,
        )

    def _outcome(self, step: MatchStep, version: int, member: int | None, commit: Commit) -> Outcome:
        table = step.table
        money = table.kind == MatchKind.MONEY
        lines = []
        for event, _ in step.events:
            lines.append(describe(event, step.names, money=money, length=table.length))
        info = step.games.get(table.game_number)
        view = _with_luck(
            TableView.of(
                step.record.id,
                table,
                version=version,
                names=step.names,
                due_at=None if commit.deadline is None else commit.deadline.due_at,
                seed_hash=None if info is None else info.seed_hash,
                seed=None
                if info is None or info.seed is None or not (table.game and table.game.is_over)
                else info.seed.hex(),
            ),
            step.book,
        )
        notify: list[int] = []
        if view.waiting_for is not None and view.waiting_for != member:
            notify.append(view.waiting_for)
        ended = any(event.kind in ENDING for event, _ in step.events)
        if ended or member is None:
            notify.extend(p for p in table.players if p != member and p not in notify)
        image_due = any(game_number is not None for _, game_number in step.events)
        return Outcome(
            view=view,
            events=tuple(event for event, _ in step.events),
            message="\n".join(lines),
            notify=tuple(notify),
            image_due=image_due,
            revealed=tuple(step.revealed),
            direct=tuple(player for player, prefs in zip(table.players, step.prefs, strict=True) if prefs.notify),
        )

    async def match_row(self, match_id: int) -> MatchRecord:
        """The stored row of match ``match_id`` (who plays, in which club, its status). Raises
        :class:`UnknownGameError`."""
        record = await self.db.get_match(match_id)
        if record is None:
            raise UnknownGameError(f"There is no match or session {match_id}.")
        return record

    # -- Discord messages (ids only) -----------------------------------------------------------------------------------
    async def remember_message(
        self,
        match_id: int,
        channel_id: int,
        message_id: int,
        *,
        game_number: int | None = None,
        purpose: str = Purpose.BOARD,
    ) -> MessageRecord:
        """Remember that a message shows a match (or one of its games), to edit it later."""
        _check_id(match_id, "match id")
        _check_id(channel_id, "channel id")
        _check_id(message_id, "message id")
        await self.match_row(match_id)
        return await self.db.add_message(
            match_id, channel_id, message_id, self.clock.now(), game_number=game_number, purpose=purpose
        )

    def board_posted(
        self, match_id: int, channel_id: int, message_id: int, *, game_number: int | None
    ) -> MessageRecord:
        """Remember the board message just posted for match ``match_id`` (the view of its last commit): it is stored
        with the match's next commit or by :meth:`flush` (:class:`~club.work.UnsavedBoards`: why this is safe), so an
        action is one write transaction. Until then :meth:`messages` and :meth:`match_of_message` know it (its
        ``id`` is 0: not stored yet)."""
        write = self.unsaved.board((TableType.MATCH, match_id), channel_id, message_id, game_number, self.clock.now())
        return _unsaved(MessageRecord, match_id, write)

    async def flush(self) -> None:
        """Store the board messages of matches not stored yet (:meth:`board_posted`), each in its own transaction:
        before the database is closed. One that cannot be stored (its match is gone) is logged and skipped."""
        await self.unsaved.flush(TableType.MATCH, self.db.store)

    async def messages(self, match_id: int, *, purpose: str | None = None) -> list[MessageRecord]:
        """The messages remembered for a match, oldest first (the boards not stored yet last)."""
        stored = await self.db.messages(_check_id(match_id, "match id"), purpose=purpose)
        return stored + [
            _unsaved(MessageRecord, match_id, w) for w in self.unsaved.of((TableType.MATCH, match_id), purpose)
        ]

    async def match_of_message(self, channel_id: int, message_id: int) -> int | None:
        """The match a remembered message shows, or None."""
        found = self.unsaved.table_of(TableType.MATCH, channel_id, message_id)
        if found is not None:
            return found
        record = await self.db.message(channel_id, message_id)
        return None if record is None else record.match_id

    async def match_in_thread(
        self, channel_id: int, member: int, guild_id: int | None = None, *, open_only: bool = True
    ) -> int | None:
        """The match whose thread ``channel_id`` is, if ``member`` plays in it and it is of the club of guild
        ``guild_id`` or its practice room (None: any); with ``open_only`` (game actions) only while it is challenged
        or being played. None otherwise. One read (a thread is opened from a message remembered at once, never from
        a board waiting for the next commit)."""
        if not channel_id:
            return None
        statuses = (MatchStatus.CHALLENGED, MatchStatus.ACTIVE) if open_only else None
        return await self.db.thread_match(channel_id, member, guild_id=guild_id, statuses=statuses)

    # -- what the front ends look up (they never read the database themselves) --------------------------------------
    async def match_status(self, match_id: int) -> str | None:
        """The status of match ``match_id`` (``challenged``, ``active``, ``over`` …), None if there is none."""
        record = await self.db.get_match(_check_id(match_id, "match id"))
        return None if record is None else record.status

    async def club_id_of(self, guild_id: int) -> int | None:
        """The database id of the club of guild ``guild_id``, or None if it has none yet."""
        club = await self.db.get_club(_check_id(guild_id, "guild_id"))
        return None if club is None else club.id

    async def guild_of(self, club_id: int) -> int | None:
        """The Discord guild of the club with database id ``club_id``, or None if there is no such club."""
        club = await self.db.get_club_by_id(club_id)
        return None if club is None else club.guild_id

    async def dm_channel(self, member_id: int) -> int | None:
        """The direct-message channel remembered for ``member_id``: 0 when he refused direct messages less than
        :data:`DM_RETRY_SECONDS` ago; None if unknown, or once that refusal is older (the front end opens his
        channel again: his direct messages resume when he opens them)."""
        found = await self.db.dm_channel_since(member_id)
        if found is None or (found[0] == 0 and self.clock.now() - found[1] >= DM_RETRY_SECONDS):
            return None
        return found[0]

    async def remember_dm_channel(self, member_id: int, channel_id: int) -> int:
        """Remember ``channel_id`` as the direct-message channel of ``member_id`` (0: he accepts none); returns it."""
        await self.db.dm_channel(member_id, channel_id, self.clock.now())
        return channel_id

    def scheduler_lease(self) -> Lease:
        """The reminder scheduler's lease on this database: one bot process at a time runs the scheduler (on
        PostgreSQL an advisory lock; on SQLite, one process per file, always granted)."""
        return self.db.scheduler_lease()

    async def next_deadline_at(self) -> float | None:
        """When the next reminder or expiry of a match is due, or None (RULES A2)."""
        return await self.db.next_deadline_at()

    async def display_names(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The display names of the members among ``user_ids``, by user id (who is not a member is left out)."""
        return await self._names(user_ids)

    def verify_target(self) -> tuple[str, bool] | None:
        """What ``python -m club verify`` is given to check this database: the file's absolute path, or the
        PostgreSQL URL with its password shown as ``<hidden>``; and whether a password was hidden. None for a
        database that is neither (in memory)."""
        path = getattr(self.db, "path", None)
        if path is not None:
            return str(Path(path).resolve()), False
        url = getattr(self.db, "url", None)
        if not url:
            return None
        shown = hide_password(url)
        return shown, shown != url

    # -- clubs and their members (RULES A1) ----------------------------------------------------------------------------
    async def register(self, guild_id: int, user_id: int, display_name: str, *, club_name: str = "") -> MemberRecord:
        """Make ``user_id`` a member of the club of guild ``guild_id`` (created with the default settings if new) and
        remember his display name. Raises :class:`InvalidRequestError` for bad ids or an empty name."""
        _check_id(guild_id, "guild_id")
        _check_id(user_id, "user_id")
        if not isinstance(display_name, str) or not display_name.strip():
            raise InvalidRequestError(f"a display name is a non-empty text, not {display_name!r}")
        now = self.clock.now()
        club = await self.db.ensure_club(guild_id, now, name=club_name, settings=self.defaults.to_json())
        return await self.db.ensure_member(user_id, display_name.strip()[:100], now, club_id=club.id)

    async def club_settings(self, guild_id: int) -> ClubSettings:
        """The settings of the club of guild ``guild_id`` (defaults if it has none yet)."""
        club = await self.db.get_club(_check_id(guild_id, "guild_id"))
        return self.defaults if club is None else ClubSettings.from_json(club.settings)

    async def configure_club(self, guild_id: int, **changes: Any) -> ClubSettings:
        """Change club settings (see :class:`~club.settings.ClubSettings`; a value of None leaves that setting as it
        is); returns the settings then — only read, nothing written, when no value is given (the front ends' "show
        the settings"). Applies to deadlines set from now on. Raises :class:`InvalidRequestError` for unknown
        settings or bad values."""
        changes = {key: value for key, value in changes.items() if value is not None}
        if not changes:
            return await self.club_settings(guild_id)
        _check_id(guild_id, "guild_id")
        now = self.clock.now()
        club = await self.db.ensure_club(guild_id, now, settings=self.defaults.to_json())
        settings = ClubSettings.from_json(club.settings).updated(**changes)
        await self.db.set_club_settings(guild_id, settings.to_json(), now)
        return settings

    async def preferences(self, user_id: int) -> MemberPreferences:
        """A member's preferences. Raises :class:`UnknownMemberError`."""
        member = await self._member(user_id)
        return MemberPreferences.from_json(member.preferences)

    async def set_preferences(self, user_id: int, **changes: Any) -> MemberPreferences:
        """Change a member's preferences (e.g. ``auto_roll=False``); returns them. Raises
        :class:`UnknownMemberError`, :class:`InvalidRequestError`."""
        member = await self._member(user_id)
        if "seed" in changes:
            changes["seed_at"] = self.clock.now()  # a phrase protects only games committed before it was set
        preferences = MemberPreferences.from_json(member.preferences).updated(**changes)
        await self.db.set_preferences(user_id, preferences.to_json(), self.clock.now())
        if changes.get("notify") and await self.db.dm_channel(user_id) == 0:
            await self.db.dm_channel(user_id, -1)  # asked for direct messages again: try at once, not after the pause
        return preferences

    async def standing_take(self, match_id: int, member: int | Request, upto: int | None) -> str:
        """``member`` pre-decides his answer in money session ``match_id``: take at once any double to a cube of at
        most ``upto`` (2, 4, 8 …; None withdraws it). Kept in his own preferences, told to him alone, applied when
        the double arrives — the opponent learns it only from the take (RULES D2, C9). Returns the private
        confirmation. Raises :class:`InvalidRequestError` (not his money session, a bad value),
        :class:`UnknownGameError`."""
        request = as_request(member)
        step = await self._load_step(_check_id(match_id, "match id"), request)
        table = step.table
        if request.member not in table.players:
            raise InvalidRequestError(f"You do not play in game {match_id}.")
        if table.kind != MatchKind.MONEY or table.finished:
            raise InvalidRequestError("A standing take answer is for a money session in play.")
        prefs = MemberPreferences.from_json((await self._member(request.member)).preferences)
        standing = dict(prefs.take_upto)
        key = f"match:{match_id}"
        if upto is None:
            standing.pop(key, None)
            text = f"Only you see this: in session {match_id} you answer every double yourself again."
        else:
            standing[key] = upto
            text = (f"Only you see this: in session {match_id} you take at once any double to a cube of {upto} or "
                    "less; a bigger one is yours to answer.")  # fmt: skip
        await self.set_preferences(request.member, take_upto=standing)
        return text

    async def _member(self, user_id: int) -> MemberRecord:
        member = await self.db.get_member(_check_id(user_id, "user_id"))
        if member is None:
            raise UnknownMemberError(f"user {user_id} is not a member yet: use the bot once to register")
        return member

    # -- queries -------------------------------------------------------------------------------------------------------
    async def state(self, match_id: int) -> TableView:
        """The current state of a match or session. Raises :class:`UnknownGameError`."""
        _check_id(match_id, "match id")
        step = await self._load_step(match_id)
        info = step.games.get(step.table.game_number)
        deadline = await self.db.get_deadline(match_id)
        over = step.table.game is not None and step.table.game.is_over
        return _with_luck(
            TableView.of(
                match_id,
                step.table,
                version=step.record.version,
                names=step.names,
                due_at=None if deadline is None else deadline.due_at,
                seed_hash=None if info is None else info.seed_hash,
                seed=info.seed.hex() if info is not None and info.seed is not None and over else None,
            ),
            step.book,
        )

    async def table_state(self, match_id: int):
        """``(table, version)``: the :class:`~club.table.MatchTable` of match ``match_id`` as stored and its version
        (for a front end that decides from the whole table, e.g. the practice engine, :mod:`club.practice`). Raises
        :class:`UnknownGameError`."""
        _check_id(match_id, "match id")
        step = await self._load_step(match_id)
        return step.table, step.record.version

    async def game(self, match_id: int, number: int) -> GameView:
        """Game ``number`` (1, 2, …) of a match as it stands or ended (its seed only if revealed). Raises
        :class:`UnknownGameError`."""
        _check_id(match_id, "match id")
        _check_id(number, "game number")
        record = await self.db.get_game(match_id, number)
        if record is None:
            raise UnknownGameError(f"There is no game {number} in match {match_id}.")
        return GameView.of(
            Game.from_json(record.state),
            number,
            seed_hash=record.seed_hash,
            seed=record.seed if record.seed_revealed else None,
        )

    async def legal_plays(self, match_id: int, member: int) -> list[str]:
        """The legal plays (notation) of the member's dice, for a choose-a-play menu; ``[]`` when he is not to play.
        Raises :class:`UnknownGameError`, :class:`NotAPlayerError`, :class:`~club.admission.BusyError`."""
        _check_id(member, "member id")
        async with self.admission.slot():  # a load and a search: under the same backpressure as the actions
            view_step = await self._load_step(_check_id(match_id, "match id"))
        table = view_step.table
        side = table.side_of(member)
        if side is None:
            raise NotAPlayerError(f"You do not play in match {match_id}.")
        if table.status != MatchStatus.ACTIVE or table.waiting() != (side, "play"):
            return []
        return [play.notation() or "pass" for play in table.legal_plays()]

    async def waiting(self, member: int, *, guild_id: int | None = None, practice: bool = False) -> list[WaitingItem]:
        """The matches and sessions waiting for ``member`` to act (oldest first), in one club if ``guild_id`` (its
        practice room with ``practice``: the games against the engine, :mod:`club.practice`)."""
        _check_id(member, "member id")
        club_id = await self._club_id(guild_id, practice)
        rows = await self.db.waiting_for(member, club_id)
        items = []
        for row, _mine, opponent, name, score in await self._seen_by(member, rows):
            items.append(
                WaitingItem(
                    row.id,
                    row.kind,
                    row.length,
                    opponent,
                    name,
                    row.pending,
                    await self._answer_words(row.id, row.pending),
                    score,
                    row.game_number,
                    row.version,
                    row.updated_at,
                    row.due_at,
                )
            )
        return items

    async def _answer_words(self, match_id: int, pending: str | None) -> str:
        """``pending`` in words as the board says it: for a double or beaver offered, the answers the rule set
        allows now (:meth:`backgammon.game.Game.legal_actions`: "take, drop or beaver the double" only where beavers
        are allowed, RULES D3). Loads the table only for those two (the rest need no state)."""
        if pending not in (Pending.ANSWER_DOUBLE, Pending.ANSWER_BEAVER):
            return pending_words(pending)
        table = (await self._load_step(match_id)).table
        side, now = table.waiting()
        if table.game is None or side is None or now != pending:
            return pending_words(pending)
        legal = table.game.legal_actions(side)
        return pending_words(pending, beaver="beaver" in legal, raccoon="raccoon" in legal)

    async def history(
        self,
        member: int,
        *,
        guild_id: int | None = None,
        limit: int = 20,
        before: float | None = None,
        practice: bool = False,
    ) -> list[HistoryItem]:
        """The member's matches and sessions, newest first (``limit`` at most, changed before ``before``; with
        ``practice`` those of the practice room of ``guild_id``)."""
        _check_id(member, "member id")
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 500:
            raise InvalidRequestError(f"limit is 1–500, not {limit!r}")
        club_id = await self._club_id(guild_id, practice)
        rows = await self.db.matches_of(member, club_id=club_id, limit=limit, before=before)
        items = []
        for row, mine, opponent, name, score in await self._seen_by(member, rows):
            if row.status == MatchStatus.OVER and row.kind == MatchKind.MATCH and row.winner is not None:
                outcome = "won" if row.winner == mine else "lost"
            elif row.kind == MatchKind.MONEY and row.status in (MatchStatus.ACTIVE, MatchStatus.OVER):
                outcome = f"{score[0]:+d}"
            else:
                outcome = row.status
            games = row.game_number
            items.append(
                HistoryItem(
                    row.id,
                    row.kind,
                    row.length,
                    opponent,
                    name,
                    row.status,
                    outcome,
                    score,
                    games,
                    row.stake,
                    row.updated_at,
                    row.ended_at,
                )
            )
        return items

    async def log(self, match_id: int) -> list[ActionRecord]:
        """The whole action log of a match (who, what, dice, when). Raises :class:`UnknownGameError`."""
        _check_id(match_id, "match id")
        actions = await self.db.actions(match_id)
        if not actions:
            raise UnknownGameError(f"There is no match or session {match_id}.")
        return actions

    async def _seen_by(self, member: int, rows) -> list[tuple]:
        """Each summary row as ``member`` sees it: ``(row, his side, the opponent, the opponent's name, (his score,
        the opponent's))``."""
        names = await self._names(row.player1 if row.player0 == member else row.player0 for row in rows)
        seen = []
        for row in rows:
            mine = 0 if row.player0 == member else 1
            opponent = row.player1 if mine == 0 else row.player0
            score = (row.score0, row.score1)
            seen.append((row, mine, opponent, names.get(opponent, str(opponent)), (score[mine], score[1 - mine])))
        return seen

    async def _club_id(self, guild_id: int | None, practice: bool = False) -> int | None:
        if guild_id is None:
            return None
        guild = _check_id(guild_id, "guild_id")
        club = await self.db.get_club(-guild if practice else guild)  # the practice room: club.practice.room_guild
        return -1 if club is None else club.id

    async def _names(self, user_ids) -> dict[int, str]:
        members = await self.db.get_members(user_ids)
        return {user: member.display_name for user, member in members.items()}
