"""The table: one match or money session as the club keeps it — a pure state machine over the action log.

A :class:`Table` holds the :class:`~backgammon.match.Match` (score, Crawford bookkeeping), the current
:class:`~backgammon.game.Game`, the challenge status and the two members. Every change is one *logged action*
``(kind, side, args)``; :meth:`Table.replay` applies a logged action and the use-case layer's :meth:`Table.act`
performs a new one and returns the ``args`` to log, through the same code, so that replaying a match's log rebuilds
exactly the stored state (DESIGN "storage": the log is the record).

Logged actions (``kind``; ``side`` is who acted, None = the club):

========================  =====  ==================================================================================
kind                      side   meaning
========================  =====  ==================================================================================
``challenge``             0      create the table: ``args`` = kind, length, rules, stake, players, club_id (and
                                 ``engine``, a practice game's engine seat: ``{"side", "strength"}``)
``accept``                1      the challenged member accepts; the first game follows
``decline``               1      the challenged member declines (status ``declined``)
``cancel``                0      the challenger withdraws before an answer (status ``cancelled``)
``lapse``                 None   the challenge was not answered in time (status ``expired``, RULES A2)
``new_game``              None   the next game starts (``args``: number, dice mode, seed commitment)
``opening_roll``          None   RULES G2/G3: one die each (``dice`` = side 0's, side 1's)
``roll`` ``play``         s      RULES G4–G10 (``args`` = the game's own history entry: dice, moves)
``double`` ``take``       s      RULES D1–D3
``drop`` ``beaver``       s
``raccoon``               s
``resign``                s      RULES G12 (``args.level`` 1/2/3)
``accept_resignation``    s
``reject_resignation``    s
``forfeit``               s      the late side forfeits the game (club time limit, RULES A2, M5)
``forfeit_match``         s      the late side forfeits the match / ends the money session (RULES A2, M5)
``stop``                  s      money session: end it when the current game ends
``client_seed``           s      a player's dice contribution (:mod:`club.commitments`): ``args``
                                 = game, from_roll, seed; changes nothing at the table
``beacon``                None   the game's verified beacon round (:mod:`club.beacon`): game, chain, round,
                                 start_ms, signature, randomness; changes nothing at the table
``unused_seed``           None   the table ended before game ``args.game`` started: its committed seed is
                                 revealed (``args`` = game, seed, seed_hash); changes nothing at the table
========================  =====  ==================================================================================

Statuses: ``challenged`` → ``active`` → ``over``; or ``declined`` / ``cancelled`` / ``expired``.

A *practice* table (:mod:`club.practice`) has an **engine seat**: ``engine_side`` is the side the bot's
engine plays, at ``strength`` (:data:`club.analysis.practice.STRENGTHS`). It is the same table with the same rules;
only the front ends and the unit of work treat that seat differently (the engine acts for it; it has no deadline).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypedDict

from backgammon.errors import GameError, WrongPhaseError, WrongTurnError
from backgammon.game import ACTIONS, Action, Game, Phase
from backgammon.match import Match
from backgammon.moves import Play, format_moves
from backgammon.rules import RuleSet

GAME_ACTIONS = ACTIONS
"""Logged actions that go straight to :class:`~backgammon.game.Game` (their ``args`` are its history entries)."""


class TableAction(StrEnum):
    """The logged actions the table handles itself (the game's are :class:`backgammon.game.Action`; see the module
    docstring). Stored as their values: old logs replay the same."""

    CHALLENGE = "challenge"
    ACCEPT = "accept"
    DECLINE = "decline"
    CANCEL = "cancel"
    LAPSE = "lapse"
    NEW_GAME = "new_game"
    FORFEIT_MATCH = "forfeit_match"
    STOP = "stop"
    CLIENT_SEED = "client_seed"
    UNUSED_SEED = "unused_seed"
    BEACON = "beacon"


MATCH_ACTIONS = tuple(TableAction)
"""Logged actions the table handles itself."""


class TableEvent(StrEnum):
    """The events that are not a logged action (:class:`Event`'s ``kind`` is one of these or an action's)."""

    GAME_OVER = "game_over"
    MATCH_OVER = "match_over"
    SESSION_OVER = "session_over"
    REVEAL = "reveal"  # a game's dice seed revealed (club.step)


class TableType(StrEnum):
    """Which kind of table: a 1-on-1 (a match or a money session) or a chouette. Stored as its value (the subject
    kind of the action store, deadlines, notices, button ids)."""

    MATCH = "match"
    CHOUETTE = "chouette"


class MatchKind(StrEnum):
    """A table to ``length`` points, or a money session (length 0)."""

    MATCH = "match"
    MONEY = "money"


class Pending(StrEnum):
    """What a table awaits (:meth:`MatchTable.waiting`); ``opening_roll`` and ``new_game`` are the club's, at once."""

    ANSWER_CHALLENGE = "answer_challenge"
    ROLL = "roll"
    ROLL_OR_DOUBLE = "roll_or_double"
    PLAY = "play"
    ANSWER_DOUBLE = "answer_double"
    ANSWER_BEAVER = "answer_beaver"
    ANSWER_RACCOON = "answer_raccoon"
    ANSWER_RESIGNATION = "answer_resignation"
    OPENING_ROLL = "opening_roll"
    NEW_GAME = "new_game"


STATE_FORMAT = 2
"""The format of ``matches.state`` written now: 2 = hot state (no list of finished games); 1 also
held every finished game's result. :mod:`club.states` reads both and upgrades 1 to 2 by replaying the log."""


class MatchStatus(StrEnum):
    """The status of a match or money session (stored as its value: old rows and logs read the same):
    ``challenged`` → ``active`` → ``over``; or ``declined`` / ``cancelled`` / ``expired``."""

    CHALLENGED = "challenged"
    ACTIVE = "active"
    OVER = "over"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class GameStatus(StrEnum):
    """The status of one game's row (stored as its value): ``playing`` until its result, then ``over``."""

    PLAYING = "playing"
    OVER = "over"


FINISHED = (MatchStatus.OVER, MatchStatus.DECLINED, MatchStatus.CANCELLED, MatchStatus.EXPIRED)
"""Statuses in which nothing more can happen."""

PENDING_BY_PHASE = {
    Phase.PLAY: Pending.PLAY,
    Phase.CUBE_OFFERED: Pending.ANSWER_DOUBLE,
    Phase.BEAVER_OFFERED: Pending.ANSWER_BEAVER,
    Phase.RACCOON_OFFERED: Pending.ANSWER_RACCOON,
    Phase.RESIGNATION_OFFERED: Pending.ANSWER_RESIGNATION,
}
"""What is awaited from ``game.turn`` in each phase (ROLL is ``roll`` or ``roll_or_double``)."""


class DiceData(TypedDict, total=False):
    """An ``opening_roll`` or ``roll`` event's details: the ``dice``; for the opening roll whether it is a ``tie``,
    the ``cube`` value, and (no tie) the ``first`` side to play (RULES G2/G3)."""

    dice: tuple[int, ...]
    tie: bool
    cube: int
    first: int | None


class PlayData(TypedDict):
    """A ``play`` event's details: the ``play`` in notation (``24/18 13/11``) and how many checker ``moves``."""

    play: str
    moves: int


class OfferData(TypedDict):
    """A ``double``, ``beaver`` or ``raccoon`` event's details: the cube value ``offered`` (RULES D1, D3)."""

    offered: int


class TakeData(TypedDict):
    """A ``take`` event's details: the ``cube`` value now and its ``owner`` side (RULES D2)."""

    cube: int
    owner: int | None


class ResignData(TypedDict):
    """A ``resign`` event's details: the ``level`` (1 single, 2 gammon, 3 backgammon) and the ``points`` it is
    worth at the cube (RULES G12)."""

    level: int
    points: int


class GameOverData(TypedDict):
    """A ``game_over`` event's details: the game's ``number``, its ``result`` (:meth:`GameResult.to_json`) and the
    ``score`` after it."""

    number: int
    result: dict[str, Any]
    score: tuple[int, int]


class EndData(TypedDict):
    """A ``match_over`` / ``session_over`` event's details: the final ``score`` and how many ``games``."""

    score: tuple[int, int]
    games: int


EventData = DiceData | PlayData | OfferData | TakeData | ResignData | GameOverData | EndData | dict[str, Any]
"""The details of an :class:`Event`, by its kind (a ``new_game``'s are its logged args with ``score`` and
``crawford``; a ``reveal``'s the seed revealed; the other actions have none)."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened at the table, for the message in words (see :mod:`club.describe`).

    ``kind``: an :class:`~backgammon.game.Action`, a :class:`TableAction` or a :class:`TableEvent`. ``side``: who
    (None = the club). ``auto``: done for the member (auto-roll, forced play, no legal play). ``data``: its details
    (:data:`EventData`: dice, the play in notation, cube values, the result …).
    """

    kind: str
    side: int | None = None
    auto: bool = False
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class MatchTable:
    """One match (``kind == "match"``, to ``length`` points) or money session (``"money"``, length 0).

    ``players``: the member ids of sides 0 (challenger) and 1. ``status``: see the module docstring. ``match``:
    the score keeper (its score and Crawford bookkeeping; the finished games' results are in their own rows, not
    here); ``game``: the current game (None before the first); ``game_number``: 1, 2, … ``games_played``: how many
    games have ended and been scored. ``stop_by``: in a money session, the side that asked to stop after the current
    game. ``engine_side``/``strength``: a practice game's engine seat (None: both seats are members).
    """

    kind: str
    length: int
    players: tuple[int, int]
    rules: RuleSet
    stake: int
    club_id: int
    status: MatchStatus
    match: Match
    game: Game | None = None
    game_number: int = 0
    stop_by: int | None = None
    games_played: int = 0
    engine_side: int | None = None
    strength: str | None = None

    # -- construction -----------------------------------------------------------------------------------------------
    @classmethod
    def challenge(
        cls,
        *,
        club_id: int,
        players: tuple[int, int],
        length: int,
        rules: RuleSet,
        stake: int,
        engine: dict[str, Any] | None = None,
    ) -> tuple[Table, dict[str, Any]]:
        """A new table in status ``challenged`` and the ``args`` of its ``challenge`` action. ``engine``: a practice
        game's engine seat, ``{"side": 0|1, "strength": name}`` (None: a game between members).

        Raises :class:`~backgammon.errors.RuleSetError` when ``rules`` do not suit ``length`` (RULES G3, M2, D3, M6).
        """
        args = {
            "club_id": club_id,
            "kind": "money" if length == 0 else "match",
            "length": length,
            "players": list(players),
            "rules": rules.to_json(),
            "stake": stake,
        }
        if engine is not None:
            args["engine"] = {"side": int(engine["side"]), "strength": str(engine["strength"])}
        return cls.from_challenge(args), args

    @classmethod
    def from_challenge(cls, args: dict[str, Any]) -> Table:
        """The table a logged ``challenge`` action creates."""
        rules = RuleSet.from_json(args["rules"])
        length = args["length"]
        engine = args.get("engine") or {}
        return cls(
            kind=args["kind"],
            length=length,
            players=(args["players"][0], args["players"][1]),
            rules=rules,
            stake=args["stake"],
            club_id=args["club_id"],
            status=MatchStatus.CHALLENGED,
            match=Match(rules, length),
            engine_side=engine.get("side"),
            strength=engine.get("strength"),
        )

    @classmethod
    def from_state(
        cls,
        *,
        kind: str,
        length: int,
        players: tuple[int, int],
        rules: dict,
        stake: int,
        club_id: int,
        state: dict,
        game_state: dict | None,
    ) -> Table:
        """Rebuild from stored rows: the match row's columns and ``state`` (:meth:`state_json`, or the older format 1
        that also listed every finished game's result), the current game's ``Game.to_json()`` (or None)."""
        match = Match.from_json(state["match"])
        played = state.get("games_played", len(match.games))
        engine = state.get("engine") or {}
        match.games = []  # hot state: the history is in the games rows and the log
        return cls(
            kind=kind,
            length=length,
            players=players,
            rules=RuleSet.from_json(rules),
            stake=stake,
            club_id=club_id,
            status=MatchStatus(state["status"]),
            match=match,
            game=None if game_state is None else Game.from_json(game_state),
            game_number=state["game_number"],
            stop_by=state["stop_by"],
            games_played=played,
            engine_side=engine.get("side"),
            strength=engine.get("strength"),
        )

    def state_json(self) -> dict[str, Any]:
        """The table's hot state (stored in ``matches.state``, format :data:`STATE_FORMAT`): status, score keeper and
        counters only — its size does not grow with the games played (the current game is stored in its own row,
        finished games in theirs)."""
        match = self.match.to_json()
        match["games"] = []
        state = {
            "format": STATE_FORMAT,
            "status": self.status,
            "match": match,
            "games_played": self.games_played,
            "game_number": self.game_number,
            "stop_by": self.stop_by,
        }
        if self.engine_side is not None:
            state["engine"] = {"side": self.engine_side, "strength": self.strength}
        return state

    # -- the hooks of club.work.TableBase (a protocol), and views ------------------------------------------------------
    store_kind = TableType.MATCH

    @property
    def finished(self) -> bool:
        """True when nothing more can happen (over, declined, cancelled, expired)."""
        return self.status in FINISHED

    def acting(self) -> list[tuple[int, str]]:
        """``[(member, pending)]`` for the one member the table waits for, or ``[]`` (:meth:`waiting`)."""
        side, pending = self.waiting()
        return [] if side is None or pending is None else [(self.players[side], pending)]

    def to_state(self) -> dict[str, Any]:
        """The hot state to store: :meth:`state_json`."""
        return self.state_json()

    @property
    def practice(self) -> bool:
        """True for a practice game (a seat the engine plays: unrated, outside the club's records)."""
        return self.engine_side is not None

    def engine_to_act(self) -> bool:
        """True when the table waits for its engine seat (a practice game, the engine's turn or answer)."""
        return self.engine_side is not None and self.waiting()[0] == self.engine_side

    def side_of(self, member_id: int) -> int | None:
        """The side ``member_id`` plays (0 or 1), or None if he does not play here."""
        if member_id == self.players[0]:
            return 0
        if member_id == self.players[1]:
            return 1
        return None

    def waiting(self) -> tuple[int | None, str | None]:
        """``(side, pending)``: who must act now and what is awaited, or ``(None, None)``.

        ``pending`` is ``answer_challenge``, ``roll``, ``roll_or_double``, ``play``, ``answer_double``,
        ``answer_beaver``, ``answer_raccoon`` or ``answer_resignation``; ``(None, "opening_roll")`` while the opening
        roll is due and ``(None, "new_game")`` between games (both transient: the club acts at once).
        """
        if self.status == MatchStatus.CHALLENGED:
            return 1, Pending.ANSWER_CHALLENGE
        if self.status != MatchStatus.ACTIVE:
            return None, None
        game = self.game
        if game is None or game.phase == Phase.OVER:
            return None, Pending.NEW_GAME
        if game.phase == Phase.OPENING:
            return None, Pending.OPENING_ROLL
        side = game.turn
        if side is None:  # after the opening roll every phase has a side to act
            return None, None
        if game.phase == Phase.ROLL:
            return side, Pending.ROLL_OR_DOUBLE if self.can_double(side) else Pending.ROLL
        return side, PENDING_BY_PHASE[game.phase]

    def can_double(self, side: int) -> bool:
        """Whether ``side`` may double now (RULES D1, D5, M3, M4)."""
        return self.game is not None and self.game.allows(side, Action.DOUBLE)

    @property
    def score(self) -> tuple[int, int]:
        """The match score (money: running net totals) of sides 0 and 1."""
        return self.match.score

    @property
    def winner(self) -> int | None:
        """The side that won the match (None while playing and in money sessions)."""
        return self.match.winner if self.kind == MatchKind.MATCH else None

    # -- actions ----------------------------------------------------------------------------------------------------
    def act(self, kind: str, side: int | None, value: Any = None) -> tuple[dict[str, Any], list[Event]]:
        """Perform a new action and return ``(args to log, events)``.

        ``value``: the dice for ``opening_roll``/``roll`` (a pair), the play for ``play`` (notation text or a
        :class:`~backgammon.moves.Play`), the level for ``resign``, the ``new_game`` args. Raises the rules' typed
        errors (nothing changes then: every check runs before any state is touched).
        """
        if kind in GAME_ACTIONS:
            game = self._require_game()
            if kind == Action.OPENING_ROLL:
                game.opening_roll(*value)
            elif kind == Action.ROLL:
                game.roll(_side(kind, side), value)
            elif kind == Action.PLAY:
                game.play(_side(kind, side), value)
            elif kind == Action.RESIGN:
                game.resign(_side(kind, side), value)
            else:
                getattr(game, kind)(side)
            args = dict(game.history[-1])
            return args, self._after_game_action(kind, side, args)
        args = dict(value or {})
        return args, self._match_action(kind, side, args)

    def replay(self, kind: str, side: int | None, args: dict[str, Any]) -> list[Event]:
        """Re-apply a logged action (``challenge`` excepted: see :meth:`from_challenge`). Raises what the action
        raises, :class:`~backgammon.errors.GameError` for an unknown kind."""
        if kind in GAME_ACTIONS:
            self._require_game().apply(args)
            return self._after_game_action(kind, side, args)
        return self._match_action(kind, side, args)

    def _require_game(self) -> Game:
        if self.status != MatchStatus.ACTIVE or self.game is None:
            raise WrongPhaseError(f"no game is being played here (status {self.status})")
        return self.game

    def _match_action(self, kind: str, side: int | None, args: dict[str, Any]) -> list[Event]:
        if kind == TableAction.ACCEPT or kind == TableAction.DECLINE or kind == TableAction.CANCEL:
            if self.status != MatchStatus.CHALLENGED:
                raise WrongPhaseError(f"there is no open challenge to {kind} (status {self.status})")
            needed = 0 if kind == TableAction.CANCEL else 1
            if side != needed:
                who = "the challenger" if needed == 0 else "the challenged member"
                raise WrongTurnError(f"only {who} can {kind} the challenge")
            self.status = {TableAction.ACCEPT: MatchStatus.ACTIVE, TableAction.DECLINE: MatchStatus.DECLINED,
                           TableAction.CANCEL: MatchStatus.CANCELLED}[TableAction(kind)]  # fmt: skip
            return [Event(kind, side)]
        if kind in (TableAction.CLIENT_SEED, TableAction.UNUSED_SEED, TableAction.BEACON):
            return []  # the dice's business (club.commitments): nothing changes at the table
        if kind == TableAction.LAPSE:
            if self.status != MatchStatus.CHALLENGED:
                raise WrongPhaseError(f"there is no open challenge to lapse (status {self.status})")
            self.status = MatchStatus.EXPIRED
            return [Event(kind, None)]
        if kind == TableAction.NEW_GAME:
            if self.status != MatchStatus.ACTIVE or (self.game is not None and not self.game.is_over):
                raise WrongPhaseError("a new game starts only when the previous one is over")
            number = args.get("number")
            if number != self.game_number + 1:
                raise GameError(f"the next game is number {self.game_number + 1}, not {number!r}")
            self.game = self.match.new_game()
            self.game_number = number
            return [
                Event(
                    TableAction.NEW_GAME,
                    None,
                    data={"number": number, "score": self.score, "crawford": self.game.crawford_game, **args},
                )
            ]
        if kind == TableAction.STOP:
            if self.kind != MatchKind.MONEY:
                raise GameError("only a money session can be stopped; a match is played to its length or resigned")
            if self.status != MatchStatus.ACTIVE:
                raise WrongPhaseError(f"the session is not being played (status {self.status})")
            if self.stop_by is not None:
                raise WrongPhaseError("the session already ends after this game")
            self.stop_by = side
            events = [Event(TableAction.STOP, side)]
            if self.game is None or self.game.is_over:
                events += self._end(TableEvent.SESSION_OVER)
            return events
        if kind == TableAction.FORFEIT_MATCH:
            if self.status != MatchStatus.ACTIVE:
                raise WrongPhaseError(f"nothing to forfeit (status {self.status})")
            events = [Event(TableAction.FORFEIT_MATCH, side)]
            side = _side(kind, side)
            if self.game is not None and not self.game.is_over:
                self.game.forfeit(side)
                events += self._after_game_action(Action.FORFEIT, side, dict(self.game.history[-1]), announce=False)
            if self.status == MatchStatus.ACTIVE:
                if self.kind == MatchKind.MATCH:
                    self.match.forfeit(side)
                    events += self._end(TableEvent.MATCH_OVER)
                else:
                    events += self._end(TableEvent.SESSION_OVER)
            return events
        raise GameError(f"unknown logged action {kind!r}")

    def _after_game_action(
        self, kind: str, side: int | None, args: dict[str, Any], announce: bool = True
    ) -> list[Event]:
        game = self.game
        result = game.result if game is not None and game.is_over else None
        events = [Event(kind, side, data=self._event_data(kind, args))] if announce else []
        if result is not None and self.games_played < self.game_number:
            self.match.record(result)
            self.match.games.clear()  # scores and Crawford bookkeeping only: the result is in the game's row
            self.games_played += 1
            events.append(
                Event(
                    TableEvent.GAME_OVER,
                    result.winner,
                    data=GameOverData(number=self.game_number, result=result.to_json(), score=self.score),
                )
            )
            if self.match.is_over:
                events += self._end(TableEvent.MATCH_OVER)
            elif self.kind == MatchKind.MONEY and self.stop_by is not None:
                events += self._end(TableEvent.SESSION_OVER)
        return events

    def _event_data(self, kind: str, args: dict[str, Any]) -> EventData:
        game = self.game
        assert game is not None  # a game action was just applied to it
        if kind in (Action.OPENING_ROLL, Action.ROLL):
            dice = DiceData(dice=tuple(args["dice"]))
            if kind == Action.OPENING_ROLL:
                dice["tie"] = args["dice"][0] == args["dice"][1]
                dice["cube"] = game.cube_value
                if not dice["tie"]:
                    dice["first"] = game.on_roll
            return dice
        if kind == Action.PLAY:
            from backgammon.moves import Move

            moves = tuple(Move(m[0], m[1], m[2], bool(m[3])) for m in args["moves"])
            return PlayData(play=format_moves(moves), moves=len(moves))
        if kind in (Action.DOUBLE, Action.BEAVER, Action.RACCOON) and game.offered_value is not None:
            return OfferData(offered=game.offered_value)
        if kind == Action.TAKE:
            return TakeData(cube=game.cube_value, owner=game.cube_owner)
        if kind == Action.RESIGN:
            return ResignData(level=args["level"], points=args["level"] * game.cube_count)
        return {}

    def _end(self, what: str) -> list[Event]:
        self.status = MatchStatus.OVER
        return [Event(what, self.winner, data=EndData(score=self.score, games=self.games_played))]

    # -- plays ------------------------------------------------------------------------------------------------------
    def legal_plays(self) -> list[Play]:
        """The legal plays of the current dice (``[]`` unless a play is awaited)."""
        return [] if self.game is None else self.game.legal_plays()


def _side(kind: str, side: int | None) -> int:
    """``side`` of an action that needs one (every game action but the opening roll); raises :class:`GameError`."""
    if side is None:
        raise GameError(f"{kind} needs the side that acts")
    return side


def replay_log(actions: Sequence[Any]) -> tuple[Table, dict[int, dict[str, Any]], dict[int, int]]:
    """Rebuild a table from its whole log (objects with ``kind``, ``side``, ``args``, ``game_number``; the first
    must be the ``challenge``). Returns ``(table, game states by number, logged action counts by game number)``.

    Raises what a failing action raises (a log that does not replay is corrupt)."""
    if not actions or actions[0].kind != TableAction.CHALLENGE:
        raise GameError("a match's log starts with its challenge")
    table = Table.from_challenge(actions[0].args)
    games: dict[int, dict[str, Any]] = {}
    counts: dict[int, int] = {}
    for action in actions[1:]:
        if action.kind == TableAction.NEW_GAME and table.game is not None:
            games[table.game_number] = table.game.to_json()
        table.replay(action.kind, action.side, action.args)
        if action.game_number is not None:
            counts[action.game_number] = counts.get(action.game_number, 0) + 1
    if table.game is not None:
        games[table.game_number] = table.game.to_json()
    return table, games, counts


Table = MatchTable
"""The name the use-cases and other modules know :class:`MatchTable` by."""
