"""The unit of work of a chouette (:class:`ChouetteStep`, a :class:`club.work.Step`): what one use-case call applies
to the :class:`~club.chouette.table.ChouetteTable` — the actions to log, the dice series used (RULES A1), the
deadlines (RULES A2, C5, C9), the finished games' rows in ``chouette_results`` (RULES C11) — in one
:class:`~storage.chouettes.ChouetteCommit`; and :func:`policy_decision`, what the club decides at a deadline."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from backgammon.chouette.cubes import LEVELS, Ending
from backgammon.chouette.events import Decision
from backgammon.chouette.sheet import EndedBy
from backgammon.errors import ChouetteError
from storage.chouettes import (
    ChouetteCommit,
    ChouetteDeadline,
    ChouetteRecord,
    DeadlineRow,
    DiceSeries,
    NewChouetteAction,
)

from ..beacon import Round, start_ms_of
from ..commitments import BEACON, CLIENT_SEED, UNUSED_SEED, DiceBook, contribution_text, luck_for, unused_args
from ..dice import RECIPE_V2, RECIPE_V3, DiceSource
from ..errors import NotAPlayerError, NotNowError, StaleVersionError
from ..requests import Request
from ..settings import MemberPreferences
from ..work import DiceInUse, Step
from .describe import describe, points_line
from .table import (
    Awaited,
    ChouetteAction,
    ChouetteTable,
    ClubStep,
    DeadlineStage,
    Pending,
    TablePhase,
    TableStatus,
    member_id,
    name,
)

if TYPE_CHECKING:
    from .service import ChouetteService

MAX_AUTO_STEPS = 400

_NO_NEW_IMAGE = (ChouetteAction.SIT, ChouetteAction.STAND, ChouetteAction.PROXY, ChouetteAction.BACK,
                 ChouetteAction.AWAY, ChouetteAction.RETIRE, CLIENT_SEED, BEACON)  # fmt: skip
"""Logged kinds that change nothing on the board image of a game in progress."""


@dataclass
class _Series(DiceInUse):
    """A dice series used by a step (:class:`club.work.DiceInUse`, mutable copy of a
    :class:`~storage.chouettes.DiceSeries`), ``revealed`` once its seed is shown."""

    revealed: bool = False

    @classmethod
    def of(cls, stored: DiceSeries, book: DiceBook) -> _Series:
        """The series as stored, with its recipe and client seeds from the table's ``book``."""
        seed = None if stored.seed is None else bytes.fromhex(stored.seed)
        return cls(stored.series, stored.dice, seed, stored.seed_hash, stored.rolls, *book.recipe_of(stored.series),
                   book.randomness(stored.series), revealed=stored.seed_revealed)  # fmt: skip

    def record(self, session_id: int) -> DiceSeries:
        """The series as stored."""
        return DiceSeries(session_id, self.number, self.dice, self.seed_hash,
                          None if self.seed is None else self.seed.hex(), self.revealed, self.rolls)  # fmt: skip


@dataclass
class ChouetteStep(Step):
    """One use-case call's unit of work on one session (:class:`club.work.Step`): the actions to log, the dice used,
    the results written."""

    service: ChouetteService
    record: ChouetteRecord
    table: ChouetteTable
    names: dict[int, str]
    prefs: dict[int, MemberPreferences]
    series: dict[int, _Series]
    old_deadlines: dict[int, ChouetteDeadline]
    actions: list[NewChouetteAction] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    touched: set[int] = field(default_factory=set)
    results: list[tuple[int, int, int, int]] = field(default_factory=list)
    finished: list[int] = field(default_factory=list)
    revealed: list[tuple[int, str, str]] = field(default_factory=list)
    acted: set[int] = field(default_factory=set)
    image_due: bool = False
    stored_sheet: list[dict] = field(default_factory=list)
    book: DiceBook = field(default_factory=DiceBook)
    club_guild: int | None = None
    """The guild id of the session's club (club isolation, RULES A2)."""
    request: Request | None = None
    """The member's request this step serves (None: the club's own step)."""

    # -- the hooks of club.work.Step ---------------------------------------------------------------------------------
    def check_fresh(self, seen: str | None) -> None:
        """Staleness by *mark* (the game and board step a button was drawn for), not by version: the Team's members
        act concurrently in one window, so another member's answer does not make a button stale."""
        if seen is not None and seen != self.table.mark:
            raise StaleVersionError(
                "Already done: the chouette has moved on since this was shown (another turn or game). "
                "Look at the latest board."
            )

    # -- recording ------------------------------------------------------------------------------------------------
    def log(self, kind: str, member: int | None, args: dict[str, Any], *, auto: bool = False, dice: Any = None,
            series: int | None = None, roll_index: int | None = None) -> dict[str, Any]:  # fmt: skip
        """Apply ``kind`` to the table and queue its log entry (raises the rules' errors; nothing queued then)."""
        table = self.table
        rows_before = table.session.games_on_sheet
        captain_before = table.session.captain if table.board_live else None
        logged = table.apply(kind, member, args)
        game_number = table.game_number or None
        self.actions.append(NewChouetteAction(kind, member, game_number, logged, dice, series, roll_index, auto))
        if member is not None:
            self.acted.add(logged.get("member", member))
        line = describe(kind, member, logged, self.names, auto=auto)
        if line:
            self.lines.append(line)
        if game_number is not None and kind not in _NO_NEW_IMAGE:
            self.image_due = True
        if table.board_live and captain_before is not None and table.session.captain != captain_before:
            change = table.session.captain_changes[-1]
            self.lines.append(
                f"{self.names.get(member_id(change['to']), change['to'])} is now {change['role']} ({change['rule']})."
            )
        for row in table.session.sheet_rows(rows_before):
            self._finish_game(row)
        if (
            kind == ChouetteAction.CLOSE or table.status != TableStatus.OPEN
        ):  # closed by the last member leaving the lobby too
            self._reveal(0)
        return logged

    def _finish_game(self, row) -> None:
        points = {member_id(m): p for m, p in row.points.items()}
        self.results.extend((row.game, member, value, self.table.stake) for member, value in points.items())
        self.finished.append(row.game)
        how = {EndedBy.DROPS: " (every cube dropped)", EndedBy.RESIGNATION: " (forfeit)"}.get(row.ended_by, "")
        self.lines.append(f"Game {row.game} is over{how}: {points_line(points, self.names)} (sum 0, RULES C11).")
        if single := self._counted_single():
            self.lines.append(f"Counted single (Jacoby: never turned, RULES D4) on the cube of {', '.join(single)}.")
        self.lines.append(f"Next: Box {self._n(row.next_order[0])}, Captain {self._n(row.next_captain)}.")
        self._reveal(row.game)

    def _counted_single(self) -> list[str]:
        """The members whose cube a gammon or backgammon of the board scored only as a single (RULES D4, Jacoby: the
        cube was never turned), by name."""
        game = self.table.session.game
        if game is None or game.result is None or LEVELS[game.result["result"]] < LEVELS["gammon"]:
            return []
        return [self._n(s.member) for s in game.cubes.values() if s.ended == Ending.SCORED and abs(s.points) == s.value]

    def _n(self, engine_name: str) -> str:
        return self.names.get(member_id(engine_name), engine_name)

    def _reveal(self, number: int) -> None:
        series = self.series.get(number)
        if series is None or series.revealed or series.seed is None or series.seed_hash is None:
            return
        series.revealed = True
        self.touched.add(number)
        self.revealed.append((number, series.seed.hex(), series.seed_hash))

    # -- dice -----------------------------------------------------------------------------------------------------
    def new_series(self, number: int) -> _Series:
        """The dice of game ``number`` (RULES A1): the seed committed ahead (when the session opened, or when the
        game before started), rolled by :data:`~club.dice.RECIPE_V3` with the members' luck fixed since (none is
        added once it has started) and, with ``[dice] beacon``, the round due for it (named now, fetched before the
        opening roll); the next game's seed is drawn and committed now. Injected dice for tests."""
        service = self.service.club
        if service._dice is not None:
            series = _Series(number, **DiceInUse.fresh_seed(service._seeds, True))
        else:
            seed, commitment, _ahead = self.book.start(number, service._seeds, keep=(0,), now=self.now,
                                                       recipe=RECIPE_V3)  # fmt: skip
            series = _Series(number, DiceSource.FAIR, seed, commitment, 0, RECIPE_V3, self.book.contributions(number))
            if service.beacon is not None:
                value = None if self.request is None else self.request.contribution
                self.book.name_round(service.beacon, start_ms_of(value, self.now))
        self.series[number] = series
        self.touched.add(number)
        return series

    def luck_targets(self) -> list[tuple[int, float]]:
        """The series a member's luck joins now, with when each was committed: the seat throws' (v3) until the seat
        roll, and the game committed ahead — each waits for its first roll (:data:`~club.dice.RECIPE_V3`, step 8)."""
        out = []
        seating = self.series.get(0)
        if (self.book.standing_recipe == RECIPE_V3 and seating is not None and seating.rolls == 0
                and not seating.revealed and self.table.phase == TablePhase.LOBBY and self.book.standing_beacon is None):  # fmt: skip
            out.append((0, self.book.standing_at))
        if self.book.ahead is not None:
            out.append((self.book.ahead.number, self.book.ahead.at))
        return out

    def add_luck(self, member: int, text: str, set_at: float | None = None) -> None:
        """Log ``text`` as ``member``'s luck in every series that waits for its first roll (:meth:`luck_targets`,
        :func:`club.commitments.luck_for`): ``set_at`` when he set it (default now: typed in the luck modal).
        Raises :class:`NotAPlayerError` for someone not at the chouette, :class:`NotNowError` when no series waits
        for its dice."""
        table = self.table
        if member not in table.lobby and member not in table.members:
            raise NotAPlayerError(f"You do not sit in chouette {self.record.id}: join it with /bg chouette join.")
        targets = self.luck_targets()
        if not targets:
            raise NotNowError("No game of this chouette waits for its dice now: a game's luck is fixed at its first "
                              "roll.")  # fmt: skip
        self._luck(member, targets, text, self.now if set_at is None else set_at)
        what = " and ".join("the seat roll" if number == 0 else f"game {number}" for number, _ in targets)
        self.lines.append(f"{self.names.get(member, member)} added luck of their own to the dice of {what} (fixed at "
                          "its first roll; /bg chouette verify lists it when the game is over).")  # fmt: skip

    async def contribute(self, member: int) -> None:
        """``member`` acts himself: his standing ``/player seed`` phrase becomes his luck in each series that waits
        for its first roll where he has none yet (:meth:`add_luck`; protected only when he set the phrase after that
        commitment). A series still rolled by :data:`~club.dice.RECIPE_V2` (a session started before v3) gets his
        v2 client seed as before: the phrase and the contribution of :attr:`request`. Nothing for injected dice, a
        closed session, the club acting in his name, or someone not registered (his action is refused anyway)."""
        request = self.request
        if self.service.club._dice is not None or self.table.status != TableStatus.OPEN or (request and request.behalf):
            return
        if member not in self.prefs and (record := await self.service.club.db.get_member(member)) is not None:
            self.prefs[member] = MemberPreferences.from_json(record.preferences)
        if member not in self.prefs:
            return
        prefs = self.prefs[member]
        old = [(n, s.rolls) for n, s in self.series.items()
               if s.recipe == RECIPE_V2 and not s.revealed and not self.book.has(n, member)]  # fmt: skip
        if old:
            text = contribution_text(prefs.seed, None if request is None else request.contribution,
                                     self.service.club._contributions)  # fmt: skip
            for number, start in old:
                self.log(CLIENT_SEED, member, {"game": number, "from_roll": start, "seed": text})
                self.book.clients.append((number, member, start, text))
                self.series[number].contributions.append((start, text))
        if not prefs.seed or (member not in self.table.lobby and member not in self.table.members):
            return
        targets = [(number, at) for number, at in self.luck_targets() if not self.book.has(number, member)]
        self._luck(member, targets, prefs.seed, prefs.seed_at)

    def _luck(self, member: int, targets: list[tuple[int, float]], text: str, set_at: float) -> None:
        """Log ``text`` (set at ``set_at``) as ``member``'s luck in each series of ``targets`` (number, committed)."""
        for number, committed in targets:
            self.log(CLIENT_SEED, member, luck_for(number, committed, text, set_at))
            self.book.clients.append((number, member, 0, text))
            if number in self.series:
                self.series[number].contributions.append((0, text))

    def use_beacon(self, found: Round, number: int | None = None) -> None:
        """Log the verified beacon round ``found`` of series ``number`` (default: the current game; 0: the seat
        throws) as a ``beacon`` action and roll with it."""
        number = self.table.game_number if number is None else number
        self.log(BEACON, None, self.book.use_round(found, number))
        self.series[number].beacon = found.randomness

    def seat(self, member: int) -> None:
        """``member`` calls the seat roll (RULES C1): the throws at once — or, with ``[dice] beacon`` on v3 seat
        throws, the round due for them named in a ``seat_call`` (their luck and the lobby are closed from then on)
        and the throws once it is fetched (:meth:`seat_round`). Raises :class:`NotNowError` once called."""
        beacon, seating = self.service.club.beacon, self.series.get(0)
        if (beacon is None or seating is None or seating.dice != DiceSource.FAIR
                or self.book.standing_recipe != RECIPE_V3):  # fmt: skip
            self.throw(ChouetteAction.SEAT, member, list(self.table.lobby))
        elif self.book.standing_beacon is None:
            value = None if self.request is None else self.request.contribution
            named = self.book.name_round(beacon, start_ms_of(value, self.now), standing=True)
            self.log(ChouetteAction.SEAT_CALL, member, {"beacon": named})
        else:
            raise NotNowError("The seat roll is called: its throws wait for their beacon round.")

    def seat_round(self) -> int | None:
        """The beacon round the called seat throws wait for, or None (none called, or fetched)."""
        return self.book.beacon_due(standing=True) if self.table.phase == TablePhase.LOBBY else None

    def require_lobby_open(self) -> None:
        """Raise :class:`NotNowError` when the seat roll is called and waits for its beacon round: nobody joins or
        leaves the lobby then (who throws is fixed with the round)."""
        if self.seat_round() is not None:
            raise NotNowError("The seat roll is called and waits for its beacon round: come and go once the members "
                              "are seated.")  # fmt: skip

    def roll_dice(self, number: int, count: int = 2) -> tuple[list[int], int]:
        """The next ``count`` dice of series ``number`` and the counter they came from."""
        self.touched.add(number)
        return self.series[number].roll(self.service.club._dice, self.record.id, count)

    def throw(self, kind: str, member: int | None, members: list[int]) -> None:
        """Log ``kind`` (``seat`` or ``rethrow``): one throw per member in ``members`` (one or two dice, RULES C1)
        from the seating series 0, in order; the log's dice are ``[[member, dice], …]`` from the first counter on."""
        count = self.table.rules.seating_dice
        throws, ordered, first = {}, [], None
        for thrower in members:
            dice, index = self.roll_dice(0, count)
            first = index if first is None else first
            throws[name(thrower)] = dice
            ordered.append([thrower, dice])
        self.log(kind, member, {"throws": throws}, dice=ordered, series=0, roll_index=first)

    # -- automatic steps -------------------------------------------------------------------------------------------
    def autoplay(self) -> None:
        """Do what needs no decision (see :meth:`ChouetteTable.next_step`); an automatic roll only for a roller who
        keeps the ``auto_roll`` preference."""
        table = self.table
        for _ in range(MAX_AUTO_STEPS):
            step = table.next_step()
            if step is None:
                return
            if step == ClubStep.RETHROW:
                self.throw(ChouetteAction.RETHROW, None, table.throwers())
            elif step == ClubStep.RETIRE:
                self.log(ChouetteAction.RETIRE, None, {"member": table.retiring[0]})
            elif step == ClubStep.CLOSE:
                self.log(ChouetteAction.CLOSE, None, {})
            elif step == ClubStep.START_GAME:
                number = table.game_number + 1
                series = self.new_series(number)
                args = {"number": number, "dice": series.dice, "seed_hash": series.seed_hash}
                if series.recipe == RECIPE_V3:
                    args.update(recipe=RECIPE_V3, next_seed_hash=self._ahead_hash())
                    args.update({"beacon": dict(self.book.beacon)} if self.book.beacon else {})
                self.log(ChouetteAction.START_GAME, None, args)
                self.lines[-1] = self._game_line(series)
            elif step == ClubStep.OPENING_ROLL:
                if self.book.beacon_due() is not None:
                    return  # the game's beacon round is fetched first (ChouetteService)
                dice, index = self.roll_dice(table.game_number)
                self.log(ChouetteAction.OPENING_ROLL, None, {"dice": dice}, dice=dice, series=table.game_number,
                         roll_index=index)  # fmt: skip
            elif step == ClubStep.TURN:
                self.log(ChouetteAction.TURN, None, {"side": table.board_side()})
            elif step == ClubStep.GAME_OVER:
                self.log(ChouetteAction.GAME_OVER, None, {})
            elif step == ClubStep.ROLL:
                roller = table.roller()
                if roller is None or not self.prefs.get(roller, MemberPreferences()).auto_roll:
                    return
                self.roll(None)
            elif step == ClubStep.PLAY:
                self.log(ChouetteAction.PLAY, None, {}, auto=True)
            elif step == ClubStep.STAND_IN and (standing_in := table.session.stand_in_due()) is not None:
                self.log(ChouetteAction.STAND_IN, None, {"member": member_id(standing_in)}, auto=True)
            elif step == ClubStep.DECIDE and not self._decide_at_once():
                return

    def _decide_at_once(self) -> bool:
        """Log the first decision the club makes at once that the rules accept now (a standing order, a member passed
        over: :meth:`ChouetteTable.automatic`); False if none is accepted yet (e.g. rotation order, 5.8)."""
        for kind, args in self.table.automatic():
            try:
                self.log(kind, None, args, auto=True)
            except ChouetteError:
                continue
            return True
        return False

    def roll(self, member: int | None) -> None:
        """Roll the board's dice for the roller (``member``, or the club for an automatic roll)."""
        number = self.table.game_number
        dice, index = self.roll_dice(number)
        self.log(ChouetteAction.ROLL, member, {"dice": dice}, dice=dice, series=number, roll_index=index,
                 auto=member is None)  # fmt: skip

    def _ahead_hash(self) -> str:
        """The SHA-256 of the next series' seed, committed ahead (:meth:`new_series` drew it)."""
        if self.book.ahead is None:
            raise NotNowError("The next game's dice are not committed yet.")
        return self.book.ahead.seed_hash

    def _game_line(self, series: _Series) -> str:
        game = self.table.game
        team = ", ".join(self._n(m) for m in game.team[1:]) or "nobody else"
        partner = f"; Partner {self._n(game.partner)} (RULES C7)" if game.partner else ""
        text = f"Game {game.number}: Box {self._n(game.box)} against Captain {self._n(game.captain)}; Team: {team}"
        text += partner + "."
        text += f" Dice commitment: {series.seed_hash}." if series.seed_hash else ""
        beacon = self.book.beacon if series.dice == DiceSource.FAIR else None
        if beacon:
            text += (f" Its dice wait for drand {beacon['chain']} round {beacon['round']}, the first published 30 s or "
                     "more after the message that started it.")  # fmt: skip
        return text

    # -- deadlines -------------------------------------------------------------------------------------------------
    def deadline_rows(self, new_version: int) -> list[DeadlineRow]:
        """The deadlines after this step: a decision still awaited from the same actor in the same turn keeps its
        time; a new one gets ``now`` + its time limit (reminders per the club's settings)."""
        table, rows = self.table, []
        for pending in table.pending():
            stage = pending.stage
            old = self.old_deadlines.get(pending.subject)
            if (
                old is not None
                and (old.actor_id, old.pending, old.stage, old.mark)
                == (pending.actor, pending.pending, stage, table.mark)
                and pending.subject not in self.acted
            ):
                rows.append(DeadlineRow.of(old))
                continue
            if pending.pending in (Awaited.ROLL, Awaited.PLAY):
                limit = table.move_time
            else:
                limit = table.proxy_time if stage == DeadlineStage.PROXY else table.decision_time
            due = self.now + limit
            reminders = tuple(due - r for r in self.settings.reminders if due - r > self.now)
            rows.append(DeadlineRow(pending.subject, pending.actor, pending.pending, stage, table.mark, new_version,
                                    self.now, due, reminders))  # fmt: skip
        return rows

    def _state(self) -> dict[str, Any]:
        state = self.table.to_json()
        if self.book.ahead is not None or self.book.standing:
            state["dice"] = self.book.to_json()  # the secret seed ahead, the client seeds (club.commitments)
        return state

    def commit(self) -> tuple[ChouetteCommit, list[DeadlineRow]]:
        """The transaction for everything this step did, and the deadlines it writes; a closed session reveals the
        seed it committed ahead (``unused_seed``: every published commitment is opened, whatever the ending)."""
        table = self.table
        if table.status == TableStatus.CLOSED and (unused := unused_args(self.book)) is not None:
            self.log(UNUSED_SEED, None, unused)
        new_version = self.record.version + len(self.actions)
        rows = self.deadline_rows(new_version)
        commit = ChouetteCommit(
            session_id=self.record.id,
            expected_version=self.record.version,
            now=self.now,
            actions=self.actions,
            status=table.status,
            state=self._state(),
            game_number=table.game_number,
            dice=[self.series[n].record(self.record.id) for n in sorted(self.touched)],
            deadlines=rows,
            stored=tuple(self.old_deadlines),
            results=self.results,
            sheet=[(row.game, row.to_json()) for row in table.session.sheet_rows()],
        )
        return commit, rows


def policy_decision(table: ChouetteTable, pending: Pending) -> tuple[ChouetteAction, dict[str, Any]]:
    """What the club does for ``pending.subject`` when his (and his proxy's) time is up (see the module docstring;
    RULES C5, C9, 003 Atlanta 5.9, 7.1): the action kind and its args."""
    subject = pending.subject
    if pending.pending == Awaited.DOUBLE:
        return ChouetteAction.PASS, {"member": subject}
    if pending.pending == Awaited.EXTRA:
        return ChouetteAction.EXTRA, {"member": subject, "offer": False}
    if pending.pending == Awaited.CONSENT:
        return ChouetteAction.ANSWER, {"member": subject, "decision": Decision.TAKE}
    if pending.pending == Awaited.BOX_ANSWER:
        return ChouetteAction.BOX_ANSWER, {"decisions": Decision.TAKE}
    decision: str = Decision.DROP
    game = table.game
    if pending.actor != subject and game.round is not None:
        for key in game.round["keys"]:
            slot = game.cubes.get(key)
            if slot is not None and slot.team == name(pending.actor) and not slot.pending:
                decision = Decision.TAKE if slot.live else Decision.DROP
                break
    if decision not in pending.actions:
        decision = pending.actions[0]
    return ChouetteAction.ANSWER, {"member": subject, "decision": decision}


_Step = ChouetteStep
"""The former name of :class:`ChouetteStep`."""
