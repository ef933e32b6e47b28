"""The unit of work of a match or money session (:class:`MatchStep`, a :class:`club.work.Step`): the actions one
use-case call applies to the :class:`~club.table.MatchTable`, their log entries, the games rows and the deadline it
writes, in one storage :class:`~storage.Commit`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from backgammon.game import Action, Phase
from backgammon.moves import dice_text
from storage import Commit, DeadlineWrite, GameWrite, MatchRecord, MatchWrite, NewAction

from .beacon import Round, start_ms_of
from .commitments import BEACON, CLIENT_SEED, UNUSED_SEED, DiceBook, due, luck_args, unused_args
from .describe import pending_words
from .dice import RECIPE_V3, DiceSource
from .errors import GameFinishedError, NotNowError, NotYourTurnError, StaleVersionError
from .refusals import CUBE_KINDS, cube_reason, roll_reason
from .requests import Request
from .settings import MemberPreferences
from .table import GAME_ACTIONS, Event, GameStatus, MatchKind, MatchStatus, Pending, Table, TableAction, TableEvent
from .work import DiceInUse, Step

if TYPE_CHECKING:
    from .service import ClubService

MAX_OPENING_TIES = 64

VERBS = {
    "roll": "roll",
    "play": "play",
    "double": "double",
    "take": "take",
    "drop": "drop",
    "beaver": "beaver",
    "raccoon": "raccoon",
    "resign": "resign",
    "accept_resignation": "accept the resignation",
    "reject_resignation": "reject the resignation",
    "accept": "accept the challenge",
    "decline": "decline the challenge",
    "cancel": "withdraw the challenge",
    "stop": "stop the session",
}
_STATUS_WORDS = {
    MatchStatus.OVER: "is over",
    MatchStatus.DECLINED: "was declined",
    MatchStatus.CANCELLED: "was withdrawn",
    MatchStatus.EXPIRED: "lapsed (not answered in time)",
}


@dataclass
class _GameInfo(DiceInUse):
    """Bookkeeping of one game row touched by a step: its dice series (:class:`club.work.DiceInUse`) and version."""

    expected_version: int | None = None
    version: int = 0
    was_over: bool = False
    final_state: dict | None = None
    touched: bool = False


@dataclass
class MatchStep(Step):
    """One use-case call's unit of work on a match or money session (:class:`club.work.Step`): the actions to log
    and the games to write."""

    service: ClubService
    record: MatchRecord
    table: Table
    names: tuple[str, str]
    prefs: tuple[MemberPreferences, MemberPreferences]
    games: dict[int, _GameInfo] = field(default_factory=dict)
    actions: list[NewAction] = field(default_factory=list)
    events: list[tuple[Event, int | None]] = field(default_factory=list)
    revealed: list[tuple[int, str, str]] = field(default_factory=list)
    book: DiceBook = field(default_factory=DiceBook)
    request: Request | None = None
    """The member's request this step serves (None: the club's own step)."""

    # -- the hooks of club.work.Step ---------------------------------------------------------------------------------
    def check_fresh(self, seen: int | None) -> None:
        """Staleness by *version*: refuse a call made from a view of an older version (RULES: one action at a time)."""
        if seen is not None and seen != self.record.version:
            raise StaleVersionError(
                "Already done: this game has moved on since you looked "
                f"(version {self.record.version}, you saw {seen}). Look at the board again.",
                seen,
                self.record.version,
            )

    # -- recording ------------------------------------------------------------------------------------------------
    def act(
        self,
        kind: str,
        side: int | None,
        value: Any = None,
        *,
        auto: bool = False,
        by_club: bool = False,
        dice: tuple[int, ...] | None = None,
        roll_index: int | None = None,
    ) -> None:
        """Apply ``kind`` to the table and queue its log entry (raises the rules' errors; nothing queued then)."""
        table = self.table
        previous_game = table.game_number
        args, events = table.act(kind, side, value)
        if kind in GAME_ACTIONS or kind == TableAction.FORFEIT_MATCH:
            game_number = previous_game if table.game is not None else None
        elif kind == TableAction.NEW_GAME:
            game_number = table.game_number
        else:
            game_number = None
        if game_number is not None:
            info = self.games[game_number]
            info.version += 1
            info.touched = True
        member = None if side is None or by_club else table.players[side]
        self.actions.append(
            NewAction(
                kind,
                side=side,
                member_id=member,
                game_number=game_number,
                args=args,
                dice=dice,
                roll_index=roll_index,
                auto=auto,
            )
        )
        self.events.extend((event if not auto else _auto(event), game_number) for event in events)
        if table.game is not None and table.game.is_over:
            info = self.games[table.game_number]
            seed, seed_hash = info.seed, info.seed_hash
            told = info.was_over or any(r[0] == info.number for r in self.revealed)
            if seed is not None and seed_hash is not None and not told:
                self.revealed.append((info.number, seed.hex(), seed_hash))
                clients = [text for _, text in info.contributions]
                reveal: dict[str, Any] = {"number": info.number, "seed": seed.hex(), "seed_hash": seed_hash,
                                          "recipe": info.recipe, "clients": clients}  # fmt: skip
                sides = [who for series, who, _, _ in self.book.clients if series == info.number]
                if len(sides) == len(clients):  # whose each client seed is (the reveal names him)
                    reveal["sides"] = sides
                self.events.append((Event(TableEvent.REVEAL, None, data=reveal), info.number))

    def roll_dice(self) -> tuple[tuple[int, int], int]:
        """The next roll of the current game and its counter (provably fair, or injected)."""
        dice, index = self.games[self.table.game_number].roll(self.service._dice, self.record.id)
        return (dice[0], dice[1]), index

    def start_game(self) -> None:
        """Start the next game (then the opening roll follows, RULES G2, G3). Fair dice: its
        seed is the one committed ahead (in the challenge, or when the game before started), rolled by
        :data:`~club.dice.RECIPE_V3` with the luck fixed since (none is added once it has started); the next
        game's seed is drawn and its commitment published in this ``new_game`` action."""
        table = self.table
        if table.game is not None:
            self.games[table.game_number].final_state = table.game.to_json()
        number = table.game_number + 1
        if self.service._dice is not None:
            info = _GameInfo(number, **DiceInUse.fresh_seed(self.service._seeds, True))
            args = {"number": number, "dice": info.dice, "seed_hash": None}
        else:
            # a 1-point match has no game 2: no commitment for it (any win of game 1 ends the match, RULES M1)
            seed, commitment, ahead = self.book.start(number, self.service._seeds, last=table.length == 1,
                                                      now=self.now, recipe=RECIPE_V3)  # fmt: skip
            info = _GameInfo(number, DiceSource.FAIR, seed, commitment, 0, RECIPE_V3, self.book.contributions(number))
            args = {"number": number, "dice": DiceSource.FAIR, "seed_hash": commitment, "recipe": RECIPE_V3}
            if ahead is not None:
                args["next_seed_hash"] = ahead
            beacon = self.service.beacon
            if beacon is not None:  # the round due: named now, fetched before the opening roll (club.beacon)
                args["beacon"] = self.book.name_round(beacon, self.start_ms())
        self.games[number] = info
        self.act("new_game", None, args)

    def contribute(self, side: int) -> None:
        """``side`` acts himself: his standing ``/player seed`` phrase becomes his luck in the game committed
        ahead if he has none there yet (:data:`~club.dice.RECIPE_V3`, step 7; protected only when he set the
        phrase after that commitment). Nothing for injected dice, a finished table, the club acting in his name
        (``request.behalf``), or a member without a phrase — no value of the request (the interaction id, which
        he never sees) enters the dice."""
        table, request = self.table, self.request
        if self.service._dice is not None or table.finished or (request is not None and request.behalf):
            return
        prefs = self.prefs[side]
        if prefs.seed and due(self.book, side, []):
            self.add_luck(side, prefs.seed, prefs.seed_at)

    def add_luck(self, side: int, text: str, set_at: float | None = None) -> int:
        """Log ``text`` as ``side``'s luck in the game committed ahead (:func:`club.commitments.luck_args`):
        ``set_at`` when he set it (default now: typed in the luck modal). Returns that game's number. Raises
        :class:`NotNowError` when no game waits for its first roll (the last game of the table is being played)."""
        args = luck_args(self.book, text, self.now if set_at is None else set_at)
        if args is None:
            raise NotNowError("No game of this table waits for its dice: the last one has started, and a game's "
                              "luck is fixed at its first roll.")  # fmt: skip
        self.act(CLIENT_SEED, side, args)
        self.book.clients.append((args["game"], side, 0, text))
        return args["game"]

    def start_ms(self) -> int:
        """When the message that starts the game was sent (Unix ms): the Discord timestamp in the request's
        interaction id (a snowflake; Discord writes it, not the bot), else now (the console, the club's own step)."""
        return start_ms_of(None if self.request is None else self.request.contribution, self.now)

    def beacon_due(self) -> int | None:
        """The beacon round the current game waits for before its first roll, or None (no beacon, or fetched)."""
        return self.book.beacon_due()

    def use_beacon(self, found: Round) -> None:
        """Log the verified beacon round ``found`` of the current game (``beacon`` action) and roll with it."""
        self.act(BEACON, None, self.book.use_round(found, self.table.game_number), by_club=True)
        self.games[self.table.game_number].beacon = found.randomness

    def opening(self) -> None:
        """Roll the opening until it is not a tie (RULES G2; ties may raise the cube, G3); not before the game's
        beacon round is in (:meth:`beacon_due`)."""
        if self.beacon_due() is not None:
            return
        for _ in range(MAX_OPENING_TIES):
            game = self.table.game
            if game is None or game.phase != Phase.OPENING:
                return
            dice, index = self.roll_dice()
            self.act(Action.OPENING_ROLL, None, dice, dice=dice, roll_index=index)

    def autoplay(self) -> None:
        """Do what needs no decision: start the next game and roll its opening, roll for a member who cannot
        double (his ``auto_roll`` preference), play a forced play (one legal play) or pass (none, RULES G9), take a
        double his standing take answer covers (:meth:`takes_at_once`)."""
        table = self.table
        for _ in range(self.service.max_auto_actions):
            if table.status != MatchStatus.ACTIVE:
                return
            side, pending = table.waiting()
            if pending == Pending.NEW_GAME:
                self.start_game()
            elif pending == Pending.OPENING_ROLL:
                self.opening()
                if table.game is None or table.game.phase == Phase.OPENING:
                    return
            elif side is None:
                return
            elif pending == Pending.ROLL and self.prefs[side].auto_roll:
                dice, index = self.roll_dice()
                self.act(Action.ROLL, side, dice, auto=True, dice=dice, roll_index=index)
            elif pending == Pending.PLAY and len(plays := table.legal_plays()) == 1:
                self.act(Action.PLAY, side, plays[0], auto=True)
            elif pending == Pending.ANSWER_DOUBLE and self.takes_at_once(side):
                self.act(Action.TAKE, side, auto=True)
            else:
                return

    def takes_at_once(self, side: int) -> bool:
        """True when ``side``'s standing take answer (his private ``take_upto`` preference for this money session,
        RULES D2, C9) covers the double offered to him now."""
        upto = self.prefs[side].take_upto.get(f"match:{self.record.id}")
        offered = None if self.table.game is None else self.table.game.cube.offered_count
        return self.table.kind == MatchKind.MONEY and upto is not None and offered is not None and offered <= upto

    # -- checks ---------------------------------------------------------------------------------------------------
    def require_open(self) -> None:
        """Raise :class:`GameFinishedError` if the table is finished."""
        table = self.table
        if table.finished:
            text = f"{'Session' if table.kind == 'money' else 'Match'} {self.record.id} {_STATUS_WORDS[table.status]}"
            if table.status == MatchStatus.OVER and table.winner is not None:
                text += f" ({self.names[table.winner]} won {table.score[table.winner]}–{table.score[1 - table.winner]})"
            raise GameFinishedError(text + ": nothing more can be done.")

    def require_turn(self, side: int, kind: str) -> None:
        """Raise :class:`NotYourTurnError` when ``side`` is not the one to act (resigning is allowed to either side
        during a turn, RULES G12), :class:`NotNowError` when the table is not at the right stage."""
        self.require_open()
        table = self.table
        waiting_side, pending = table.waiting()
        answers = (TableAction.ACCEPT, TableAction.DECLINE, TableAction.CANCEL)
        if table.status == MatchStatus.CHALLENGED and kind not in answers:
            raise NotNowError("The challenge has not been accepted yet: no game is being played.")
        if kind == TableAction.CANCEL:
            if side != 0:
                raise NotYourTurnError(f"Only {self.names[0]}, who made the challenge, can withdraw it.")
            return
        if kind in (Action.RESIGN, TableAction.STOP) and waiting_side is not None:
            return  # a resignation (RULES G12) or ending a money session is not tied to whose turn it is
        if waiting_side is None:
            raise NotNowError(f"Nothing can be done here now ({pending_words(pending)}).")
        if waiting_side != side:
            raise NotYourTurnError(
                f"It is not your turn: {self.names[waiting_side]} must {self._pending_text(waiting_side, pending)}."
            )

    def _pending_text(self, side: int, pending: str | None) -> str:
        game = self.table.game
        legal = game.legal_actions(side) if game is not None and self.table.status == MatchStatus.ACTIVE else set()
        text = pending_words(pending, beaver="beaver" in legal, raccoon="raccoon" in legal)
        if pending == Pending.PLAY and game is not None and game.dice:
            text += f" {dice_text(game.dice)}"
        return text

    def not_now(self, side: int, kind: str) -> NotNowError:
        """A :class:`NotNowError` for ``kind`` by ``side``, naming the rule that refuses it (:mod:`club.refusals`)
        or saying what is awaited instead."""
        game = self.table.game if self.table.status == MatchStatus.ACTIVE else None
        if game is not None:
            reason = cube_reason(game, side, kind) if kind in CUBE_KINDS else None
            reason = reason or (roll_reason(game, side) if kind == Action.ROLL else None)
            if reason:
                return NotNowError(f"You cannot {VERBS.get(kind, kind)} now: {reason}.")
        if kind == TableAction.STOP and self.table.stop_by is not None:
            who = "You" if self.table.stop_by == side else self.names[self.table.stop_by]
            return NotNowError(f"{who} already asked to end the session: it ends when this game ends.")
        waiting_side, pending = self.table.waiting()
        if waiting_side is None:
            return NotNowError(f"You cannot {VERBS.get(kind, kind)} now.")
        who = "you" if waiting_side == side else self.names[waiting_side]
        return NotNowError(
            f"You cannot {VERBS.get(kind, kind)} now: {who} must {self._pending_text(waiting_side, pending)}."
        )

    # -- the commit -------------------------------------------------------------------------------------------------
    def commit(self) -> Commit:
        """The transaction for everything this step did; a table that has ended reveals the seed it committed
        ahead (``unused_seed``: every published commitment is opened, whatever the ending)."""
        table = self.table
        if table.finished and (unused := unused_args(self.book)) is not None:
            self.act(UNUSED_SEED, None, unused, by_club=True)
        side, pending = table.waiting()
        waiting_member = None if side is None else table.players[side]
        deadline = None
        if waiting_member is not None and pending is not None and not table.practice:  # a practice game: no clock
            due = self.now + self.settings.time_limit(pending)
            reminders = tuple(due - r for r in self.settings.reminders if due - r > self.now)
            deadline = DeadlineWrite(waiting_member, pending, due, reminders)
        score = table.score
        state = table.state_json()
        if self.book.ahead is not None or self.book.current is not None:
            state["dice"] = self.book.to_json()  # the secret seed ahead and the client seeds (club.commitments)
        match = MatchWrite(
            status=table.status,
            state=state,
            game_number=table.game_number,
            waiting_for=waiting_member,
            pending=pending if waiting_member is not None else None,
            score0=score[0],
            score1=score[1],
            winner=table.winner,
            ended=table.finished,
        )
        games = []
        for info in self.games.values():
            if not info.touched:
                continue
            if info.final_state is not None:
                state = info.final_state
            elif table.game is not None:
                state = table.game.to_json()
            else:
                continue
            over = state["result"] is not None
            games.append(
                GameWrite(
                    number=info.number,
                    state=state,
                    version=info.version,
                    status=GameStatus.OVER if over else GameStatus.PLAYING,
                    rolls=info.rolls,
                    expected_version=info.expected_version,
                    dice=info.dice,
                    seed_hash=info.seed_hash,
                    seed=None if info.seed is None else info.seed.hex(),
                    seed_revealed=over and info.seed is not None,
                    result=state["result"],
                    ended=over and not info.was_over,
                )
            )
        return Commit(self.record.id, self.record.version, self.now, self.actions, match, games, deadline)


def _auto(event: Event) -> Event:
    return Event(event.kind, event.side, True, event.data) if event.kind in (Action.ROLL, Action.PLAY) else event


_Step = MatchStep
"""The former name of :class:`MatchStep`."""


async def store_challenge(db, table: Table, state: dict[str, Any], args: dict[str, Any], *,
                          deadline: DeadlineWrite | None, now: float) -> MatchRecord:  # fmt: skip
    """Store a challenged ``table`` (RULES G12: side 0 challenges, side 1 must answer): its match row with the hot
    ``state``, the logged ``challenge`` action (``args``) and the answer's ``deadline`` (None: none, the practice
    opponent). Returns the new match record (version 1)."""
    return await db.create_match(
        club_id=table.club_id,
        kind=table.kind,
        length=table.length,
        players=table.players,
        rules=table.rules.to_json(),
        stake=table.stake,
        match=MatchWrite(table.status, state, 0, table.players[1], "answer_challenge", 0, 0),
        action=NewAction(TableAction.CHALLENGE, side=0, member_id=table.players[0], args=args),
        deadline=deadline,
        now=now,
    )
