"""The chouette table: one chouette session as the club keeps it — a pure state machine over its action log.

A :class:`ChouetteTable` holds the :class:`~backgammon.chouette.ChouetteSession` (seats, cubes, sheet; members are
named by their Discord user ids as text), the board :class:`~backgammon.game.Game` of the current game between Box
(side 0) and the Captain for the Team (side 1), the lobby before the seat roll and the members leaving after this
game. Every change is one logged action ``(kind, member, args)``; :meth:`ChouetteTable.apply` performs a new one and
returns the ``args`` to log, and replaying the log through the same method rebuilds the table exactly (DESIGN: the
log is the record).

Logged actions (``member``: who acted, None = the club):

==================  ================================================================================================
kind                meaning (args)
==================  ================================================================================================
``open``            create the table (club, channel, creator, rules, stake, times, no_talk; the seating dice commitment)
``sit``             join: the lobby before the seat roll, else the end of the Team (RULES C2), or come back (``stake``)
``stand``           leave: the lobby; between games at once; during a game away now and out after it (RULES C2, C9)
``seat_call``       the seat roll is called with the beacon on: ``beacon``, the round its throws wait for (the lobby
                    is closed from then on; nothing else changes)
``seat``            the seat roll (``throws``: member → dice, RULES C1); ``rethrow``: ties throw again
``retire``          a member who left during a game goes, between games (RULES C2)
``proxy``           ``member`` names ``proxy`` (``by``: the one acting for him, 003 Atlanta 7.1, RULES C9)
``away``            ``member`` missed his deadline: his proxy, else the Captain, acts for him now (RULES C9)
``back``            ``member`` acts himself again (RULES C9)
``stand_in``        ``member`` becomes Acting Captain: the Team's player is away (RULES C9; the club's step)
``order``           ``member`` leaves a standing order (``pass_doubles``, ``take_upto``, ``drop_above``, ``until``
                    ``game``/``back``), or ``clear`` s it (RULES C9; see below)
``start_game``      the next game (``number``, dice commitment and recipe, the next game's commitment; v3: its
                    ``members`` Box first, the beacon round due; Partner ``auto``, RULES C3, C7)
``opening_roll``    the board's opening roll (``dice``: Box's die, the Captain's; a tie may raise the cubes, G2, G3)
``turn``            the board has ``side`` (``box``/``team``) to roll: the time to double (RULES D1, C5)
``roll``/``play``   the board (RULES G4–G10): ``dice``; the play's moves
``double``          ``member`` doubles (Box: ``targets``, ``in_order`` 5.6/5.8; a Team member his cube, 5.9; an extra)
``pass``            ``member`` does not double in the Team's window (5.9); ``why``: ``order`` / ``passed_over``
``answer``          ``member`` answers the offers to him (``decision``, ``cube``, ``by``, ``why``; RULES D2–D3, C4, C5)
``box_answer``      Box answers the Team's doubles (``decisions``: one for all, or cube → decision; 5.10, 5.11)
``extra``           a dropper offers the lone taker an extra or not (``offer``, ``why``; 5.7)
``team_settle``     a settlement between Team members, by ``step``: offer, preempt (Box), accept, decline (4.4; see
                    below)
``forfeit``         the board side ``side`` loses at the club's time limit (RULES A2)
``game_over``       the board ended: every cube in play is scored (RULES C3, C8, C11)
``close``           the session ends (nobody left)
``client_seed``     a member's luck in a dice series (:mod:`club.commitments`): game, from_roll, seed (v3: set_at,
                    protected); changes nothing at the table
``beacon``          the game's verified beacon round (:mod:`club.beacon`): game, chain, round, start_ms, signature,
                    randomness; changes nothing at the table
``unused_seed``     the session closed before series ``game`` started: its committed seed is revealed
==================  ================================================================================================

Settlements between Team members (RULES C10; 003 Atlanta 4.4): one logged kind, ``team_settle``, in four steps.

003 Atlanta 4.4: "Box may preempt a settlement between players in the Team. For example, 'A' has elected to double,
but 'B' has not. 'A' offers 'B' ½ the cube value for his interest in the game in order to double. If 'B' accepts
the offer, Box may preempt the offer, paying 'B' in order to reduce the Team."

==============  ======================================================================================================
step            meaning (logged args: ``step``, ``buyer``, ``seller``, ``points``, ``preempt``)
==============  ======================================================================================================
``offer``       the buyer ('A', a Team member with a cube in play) offers the seller ('B', a Team member with a cube
                with Box in play) ``points`` (whole points, 4.2–4.3; negative: the seller pays) for his interest
``preempt``     Box declares, while the offer stands, that he preempts it: if the seller accepts, Box pays him
``accept``      the seller accepts: the buyer pays him and takes over his cube(s) — or, preempted, Box pays him and
                his cube(s) are settled with Box (the engine's ``team_settle``)
``decline``     the seller declines, or the buyer withdraws: the offer is gone
==============  ======================================================================================================

Reading of the text (a club choice, documented here): in a game played at a distance Box cannot be asked between
the seller's acceptance and its effect, so Box preempts while the offer is open and his preemption takes effect on
the acceptance ("If 'B' accepts the offer, Box may preempt"); the seller gets the same points either way. The
points are transfers of the game, so they enter the game's row on the score sheet (RULES C11, the row sums to zero)
and from it the club's ledger (RULES A3) when the game ends. One offer at a time; an offer lives in its game only.

Absent members (RULES C9; 003 Atlanta 6.2, 7.1 — the club's reading, in docs/rules.md). Nobody waits on a member who
is away:

- The Team's player away (he left, or missed his deadline to roll or play): the next Team member in rank order who is
  present and still in the game stands in as Acting Captain (``stand_in``) and plays the checkers until the game
  ends; the Captain keeps his cube (decided by his proxy, else the Acting Captain), his seat and his rotation place.
- A standing order (``order``): "pass my doubles" (``pass_doubles``), "take any double up to N" (``take_upto``: the
  cube offered shows N or less), "drop above N" (``drop_above``), for the rest of this game (``until`` ``game``) or
  while he is away (``back``: giving it marks him away now, and it ends when he comes back). The club applies it at
  once, as a logged ``pass`` / ``answer`` with ``why: "order"``.
- Passed over (``why: "passed_over"``): an away member with no named proxy present and no standing order that
  answers gets no double in the Team's window (5.9) and offers no extra (5.7) — only he, his proxy or his order turns
  his cube; an answer he owes with nobody present to give it (his proxy and the Captain away too) is a drop (his
  count before the double, 000 Ch.8) — nobody raises an absent member's stake without his word. Answers to Box's
  doubles otherwise go to his proxy, else the (Acting) Captain (7.1), who is present.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypedDict

from backgammon.chouette import ChouetteRules, ChouetteSession
from backgammon.chouette.cubes import BOX_SIDE, SIDES, Side
from backgammon.chouette.events import EXTRA_ACTIONS, WINDOW_ACTIONS, Decision, SessionPhase
from backgammon.chouette.game import ChouetteGame
from backgammon.chouette.seating import is_resolved, tied_groups
from backgammon.chouette.session import AUTO_PARTNER
from backgammon.cube import Stage
from backgammon.errors import ChouetteError, GameError
from backgammon.game import Action, Game, Phase

from ..dice import RECIPE_V3
from ..errors import InvalidRequestError, NotNowError, NotYourTurnError
from ..vocabulary import ChouetteAction

STATE_FORMAT = 3
"""The format of ``chouette_sessions.state`` written now: 3 = hot state — seats, the current game and board, the
sheet's columns and running totals; the finished games' sheet rows are in ``chouette_sheet``. Format 2 also held
every sheet row, format 1 the session's whole event history too. :mod:`club.states` reads them all and upgrades them
to 3 by replaying the log."""


class TableStatus(StrEnum):
    """A chouette's ``status``: open, or closed once nobody is left (stored as its value)."""

    OPEN = "open"
    CLOSED = "closed"


class TablePhase(StrEnum):
    """Where a chouette stands (:attr:`ChouetteTable.phase`): the lobby before the seat roll, ties being thrown off
    (seating), a game being played, between games, or closed."""

    LOBBY = "lobby"
    SEATING = "seating"
    PLAYING = "playing"
    BETWEEN = "between"
    CLOSED = "closed"


class ClubStep(StrEnum):
    """What the club does by itself, needing no decision (:meth:`ChouetteTable.next_step`): a logged action of that
    kind, or ``decide`` (the decisions of :meth:`ChouetteTable.automatic`)."""

    RETHROW = "rethrow"
    RETIRE = "retire"
    CLOSE = "close"
    START_GAME = "start_game"
    OPENING_ROLL = "opening_roll"
    TURN = "turn"
    GAME_OVER = "game_over"
    ROLL = "roll"
    PLAY = "play"
    STAND_IN = "stand_in"
    DECIDE = "decide"


class SettleStep(StrEnum):
    """The steps of a settlement between Team members (see the module docstring)."""

    OFFER = "offer"
    PREEMPT = "preempt"
    ACCEPT = "accept"
    DECLINE = "decline"


class MemberAction(StrEnum):
    """What a member's buttons and commands do at a chouette (:meth:`~club.chouette.ChouetteService.act`): the
    board's roll and play, a double or a pass in the Team's window, an answer to a double, an extra offered or not."""

    ROLL = "roll"
    PLAY = "play"
    DOUBLE = "double"
    PASS = "pass"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    RACCOON = "raccoon"
    OFFER_EXTRA = "offer_extra"
    NO_EXTRA = "no_extra"


class DeadlineStage(StrEnum):
    """Who a deadline waits for (stored as its value): the member himself, or his proxy / the Captain once he missed
    it (RULES C9)."""

    MEMBER = "member"
    PROXY = "proxy"


class Why(StrEnum):
    """Why the club made a member's decision at once (a logged ``why``): his standing order, or passed over
    (RULES C9)."""

    ORDER = "order"
    PASSED_OVER = "passed_over"


class OrderUntil(StrEnum):
    """How long a standing order lasts (its ``until``): the rest of this game, or while he is away."""

    GAME = "game"
    BACK = "back"


class Awaited(StrEnum):
    """What a member may be awaited for: the Team's doubling window (5.9), an answer to Box's offers, Box's answer to
    the Team's doubles, a classic partner's consent (000 Ch.8), an extra (5.7), the board's roll (or double) and
    play. Stored as their values (deadlines, buttons)."""

    DOUBLE = "double"
    ANSWER = "answer"
    BOX_ANSWER = "box_answer"
    CONSENT = "consent"
    EXTRA = "extra"
    ROLL = "roll"
    PLAY = "play"


DECISION_KINDS = tuple(Awaited)
"""Every :class:`Awaited` value, in order."""


KINDS = tuple(ChouetteAction)
"""Every logged action kind, in the order of :class:`ChouetteAction`."""


def name(member: int) -> str:
    """A member's name in the chouette engine: his user id as text."""
    return str(member)


def member_id(engine_name: str) -> int:
    """The user id of an engine name."""
    return int(engine_name)


STEPS = tuple(SettleStep)
"""The steps of a settlement between Team members, in order."""

WHY = tuple(Why)
"""Every :class:`Why`."""

ORDER_UNTIL = tuple(OrderUntil)
"""Every :class:`OrderUntil`."""

MAX_ORDER_CUBE = 4096


def check_order(args: dict[str, Any]) -> dict[str, Any]:
    """A standing order as logged (RULES C9): ``pass_doubles`` (bool), ``take_upto`` / ``drop_above`` (a cube value
    2, 4, … 4096, or None; take up to N and drop above M need N ≤ M), ``until`` (one of :data:`ORDER_UNTIL`).
    Raises :class:`InvalidRequestError` for anything else or an order that says nothing."""
    until = args.get("until", OrderUntil.GAME)
    if until not in ORDER_UNTIL:
        raise InvalidRequestError(
            f"a standing order lasts until the game ends or you come back (game, back), not {until!r}"
        )
    values = {}
    for key, words in (("take_upto", "take up to"), ("drop_above", "drop above")):
        value = args.get(key)
        whole = isinstance(value, int) and not isinstance(value, bool)
        if value is not None and not (whole and 2 <= value <= MAX_ORDER_CUBE and not value & (value - 1)):
            raise InvalidRequestError(f"'{words}' takes a cube value (2, 4, 8 … {MAX_ORDER_CUBE}), not {value!r}")
        values[key] = value
    pass_doubles = args.get("pass_doubles", False)
    if not isinstance(pass_doubles, bool):
        raise InvalidRequestError(f"pass_doubles is yes or no, not {pass_doubles!r}")
    if not pass_doubles and values["take_upto"] is None and values["drop_above"] is None:
        raise InvalidRequestError("A standing order says something: pass my doubles, take up to N or drop above N.")
    take, drop = values["take_upto"], values["drop_above"]
    if take is not None and drop is not None and take > drop:
        raise InvalidRequestError(
            f"take up to {take} and drop above {drop} contradict each other: the take limit is at most the drop limit"
        )
    return {"pass_doubles": pass_doubles, **values, "until": OrderUntil(until)}


ORDER_USAGE = "[pass] [take N] [drop N] [until game|back], or clear; e.g. take 4 drop 8"


def parse_order(text: str) -> dict[str, Any]:
    """A standing order typed as words — ``pass take 4 drop 8 until back`` (any of them, in any order) or
    ``clear`` — as :meth:`~club.chouette.ChouetteService.standing_order`'s keywords (checked by
    :func:`check_order`). Raises :class:`InvalidRequestError` with the usage."""
    words = text.lower().split()
    if words == ["clear"]:
        return {"clear": True}
    order: dict[str, Any] = {"pass_doubles": False, "take_upto": None, "drop_above": None, "until": OrderUntil.GAME}
    limits = {"take": "take_upto", "drop": "drop_above"}
    while words:
        word = words.pop(0)
        if word == "pass":
            order["pass_doubles"] = True
        elif word == "until" and words:
            order["until"] = words.pop(0)
        elif word in limits and words:
            value = words.pop(0)
            if not (value.isdigit() and len(value) < 6):
                raise InvalidRequestError(f"'{word}' takes a cube value (2, 4, 8 …), not {value[:20]!r}")
            order[limits[word]] = int(value)
        else:
            raise InvalidRequestError(f"A standing order is {ORDER_USAGE}.")
    check_order(order)
    return order


def order_text(order: dict[str, Any]) -> str:
    """A standing order in words, e.g. ``no doubles, takes up to 4, drops above 8 (this game)``."""
    parts = ["no doubles"] if order["pass_doubles"] else []
    if order["take_upto"] is not None:
        parts.append(f"takes up to {order['take_upto']}")
    if order["drop_above"] is not None:
        parts.append(f"drops above {order['drop_above']}")
    return ", ".join(parts) + (" (this game)" if order["until"] == OrderUntil.GAME else " (until they are back)")


def check_points(points: Any) -> int:
    """A settlement's points: a whole number (003 Atlanta 4.2–4.3), at most 10,000 either way. Raises
    :class:`InvalidRequestError`."""
    if isinstance(points, bool) or not isinstance(points, int) or abs(points) > 10_000:
        raise InvalidRequestError(f"a settlement is a whole number of points (003 Atlanta 4.2–4.3), not {points!r}")
    return points


class TeamOffer(TypedDict):
    """A settlement between Team members on offer (see the module docstring): in game ``game``, ``buyer`` offers
    ``seller`` ``points`` for his interest; ``preempt`` once Box has preempted it."""

    game: int
    buyer: int
    seller: int
    points: int
    preempt: bool


@dataclass(frozen=True, slots=True)
class Pending:
    """A decision the table waits for: ``subject`` must decide (``actor`` may decide now: he, or his proxy / the
    Captain while he is away, RULES C9); ``pending`` one of :data:`DECISION_KINDS`; ``actions`` what he may do;
    ``cubes`` the cube keys concerned."""

    subject: int
    actor: int
    pending: Awaited
    actions: tuple[str, ...]
    cubes: tuple[str, ...] = ()

    @property
    def stage(self) -> DeadlineStage:
        """``proxy`` when another decides for the subject (RULES C9), else ``member``."""
        return DeadlineStage.PROXY if self.actor != self.subject else DeadlineStage.MEMBER


@dataclass
class ChouetteTable:
    """One chouette session kept by the club (see the module docstring). Build with :meth:`open`.

    ``stake``: money per point (0 = none; the engine's sheet base stake is then 1). ``decision_time`` /
    ``proxy_time``: seconds a member, then his proxy, has for a cube decision; ``move_time`` for the board's rolls and
    plays. ``no_talk``: the "no cube, no talk" thread is kept. ``lobby``: members waiting for the seat roll, with
    ``lobby_stakes`` (RULES C6). ``retiring``: members leaving once this game is over. ``turns``: turn events in the
    current game (a button's ``mark`` names the game and turn it was drawn for). ``team_offer``: a settlement between
    Team members on offer (see the module docstring), else None. ``orders``: standing orders, member id as text →
    the order (:func:`check_order`, with ``game`` for one that lasts the game).
    """

    club_id: int
    channel_id: int
    creator: int
    rules: ChouetteRules
    stake: int
    decision_time: float
    proxy_time: float
    move_time: float
    no_talk: bool
    session: ChouetteSession
    status: TableStatus = TableStatus.OPEN
    lobby: list[int] = field(default_factory=list)
    lobby_stakes: dict[str, int] = field(default_factory=dict)
    retiring: list[int] = field(default_factory=list)
    board: Game | None = None
    turns: int = 0
    team_offer: TeamOffer | None = None
    orders: dict[str, dict[str, Any]] = field(default_factory=dict)

    # -- construction -----------------------------------------------------------------------------------------------
    @classmethod
    def open(cls, args: dict[str, Any]) -> ChouetteTable:
        """The table a logged ``open`` action creates (``args``: club_id, channel_id, creator, rules (JSON), stake,
        decision_time, proxy_time, move_time, no_talk). Raises :class:`~backgammon.errors.RuleSetError` for bad
        rules, :class:`InvalidRequestError` for a bad stake."""
        rules = ChouetteRules.from_json(args["rules"])
        stake = args["stake"]
        if isinstance(stake, bool) or not isinstance(stake, int) or stake < 0:
            raise InvalidRequestError(f"the stake is a whole amount per point ≥ 0 (003 Atlanta 2.1), not {stake!r}")
        table = cls(
            club_id=args["club_id"],
            channel_id=args["channel_id"],
            creator=args["creator"],
            rules=rules,
            stake=stake,
            decision_time=float(args["decision_time"]),
            proxy_time=float(args["proxy_time"]),
            move_time=float(args["move_time"]),
            no_talk=bool(args["no_talk"]),
            session=ChouetteSession(rules, stake or 1),
        )
        table.lobby.append(args["creator"])
        return table

    def to_json(self) -> dict[str, Any]:
        """The table's hot state as JSON (stored in ``chouette_sessions.state``, format :data:`STATE_FORMAT`):
        seats, the current game, board, the sheet's columns and running totals — not the session's event history,
        which the log holds (replay it with :func:`replay`), nor the finished games' sheet rows
        (those held go to ``chouette_sheet`` with the commit); :meth:`from_json` inverts it (and reads formats 1 and
        2, whose rows it then holds)."""
        session = {key: value for key, value in self.session.to_json().items() if key not in ("history", "sheet")}
        session["sheet"] = self.session.sheet_summary()
        return {
            "club_id": self.club_id,
            "channel_id": self.channel_id,
            "creator": self.creator,
            "rules": self.rules.to_json(),
            "stake": self.stake,
            "decision_time": self.decision_time,
            "proxy_time": self.proxy_time,
            "move_time": self.move_time,
            "no_talk": self.no_talk,
            "status": self.status,
            "lobby": list(self.lobby),
            "lobby_stakes": dict(self.lobby_stakes),
            "retiring": list(self.retiring),
            "session": session,
            "board": None if self.board is None else self.board.to_json(),
            "turns": self.turns,
            "team_offer": self.team_offer,
            **({"orders": copy.deepcopy(self.orders)} if self.orders else {}),
            "format": STATE_FORMAT,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ChouetteTable:
        """Inverse of :meth:`to_json`."""
        return cls(
            club_id=data["club_id"],
            channel_id=data["channel_id"],
            creator=data["creator"],
            rules=ChouetteRules.from_json(data["rules"]),
            stake=data["stake"],
            decision_time=data["decision_time"],
            proxy_time=data["proxy_time"],
            move_time=data["move_time"],
            no_talk=data["no_talk"],
            session=ChouetteSession.from_json({**data["session"], "history": []}),
            status=TableStatus(data["status"]),
            lobby=list(data["lobby"]),
            lobby_stakes=dict(data["lobby_stakes"]),
            retiring=list(data["retiring"]),
            board=None if data["board"] is None else Game.from_json(data["board"]),
            turns=data["turns"],
            team_offer=data.get("team_offer"),
            orders=copy.deepcopy(data.get("orders") or {}),
        )._dice_from_board()

    def _dice_from_board(self) -> ChouetteTable:
        """Tell the session what the board knows: its dice of this turn are thrown (RULES D1; not stored twice)."""
        if self.board_live and self.live_board.phase == Phase.PLAY and self.game.on_roll is not None:
            self.session.dice_thrown()
        return self

    # -- the hooks of club.work.TableBase (a protocol) -----------------------------------------------------------------
    store_kind = "chouette"

    @property
    def finished(self) -> bool:
        """True once the session is closed."""
        return self.status == TableStatus.CLOSED

    def acting(self) -> list[tuple[int, str]]:
        """``[(actor, pending), …]``: one per decision the table waits for (:meth:`pending`)."""
        return [(p.actor, p.pending) for p in self.pending()]

    def to_state(self) -> dict[str, Any]:
        """The hot state to store: :meth:`to_json`."""
        return self.to_json()

    # -- views ------------------------------------------------------------------------------------------------------
    @property
    def phase(self) -> TablePhase:
        """``lobby`` (before the seat roll), ``seating`` (ties being thrown off), ``playing``, ``between`` (games),
        or ``closed``."""
        if self.status == TableStatus.CLOSED:
            return TablePhase.CLOSED
        if self.session.phase == SessionPhase.SEATING:
            return TablePhase.SEATING if self.session.ranking else TablePhase.LOBBY
        return TablePhase.PLAYING if self.session.phase == SessionPhase.PLAYING else TablePhase.BETWEEN

    @property
    def game_number(self) -> int:
        """The current (or last) game's number, 0 before the first."""
        return 0 if self.session.game is None else self.session.game.number

    @property
    def mark(self) -> str:
        """``"<game>.<step>"``: which game and board step (the board's logged actions so far: the opening roll,
        every roll and play) a button was drawn for; older ones are refused. It follows the board, not only the
        turn, so a Double drawn before the roll is stale after it (RULES D1); cube decisions leave the board as it
        is, so the Team's concurrent answers in one window share a mark."""
        return f"{self.game_number}.{0 if self.board is None else len(self.board.history)}"

    @property
    def members(self) -> list[int]:
        """Everyone in the session: the lobby, or the seated order then those waiting for the next game."""
        return list(self.lobby) if self.phase == TablePhase.LOBBY else [member_id(m) for m in self._seated()]

    def _seated(self) -> list[str]:
        session = self.session
        if session.phase == SessionPhase.SEATING:
            return [m for group in session.ranking for m in group]
        return [*session.members, *(m for group in session.joining for m in group)]

    @property
    def board_live(self) -> bool:
        """True while the board of the current game is being played."""
        return self.session.phase == SessionPhase.PLAYING and self.board is not None and not self.board.is_over

    @property
    def live_board(self) -> Game:
        """The board of the current game, being played. Raises :class:`NotNowError` when none is."""
        if not self.board_live or self.board is None:
            raise NotNowError("No game of this chouette is being played now.")
        return self.board

    @property
    def game(self) -> ChouetteGame:
        """The session's current (or last) game. Raises :class:`NotNowError` before the first."""
        if self.session.game is None:
            raise NotNowError("No game of this chouette has started yet.")
        return self.session.game

    def roller(self) -> int | None:
        """Who acts on the board now: Box for side 0, the (Acting) Captain for side 1; None if nobody."""
        if not self.board_live or self.live_board.turn is None:
            return None
        seat = self.session.box if self.live_board.turn == BOX_SIDE else self.session.player
        return None if seat is None else member_id(seat)

    def board_side(self) -> Side:
        """The side the live board has on turn (Box for board side 0, RULES C3). Raises :class:`NotNowError` with no
        board being played, :class:`GameError` before its opening roll."""
        return SIDES[_required_turn(self.live_board)]

    def may_double(self, member: int) -> list[str]:
        """The cube keys ``member`` may double now (RULES D1, C4, C5)."""
        if not self.board_live:
            return []
        return self.session.may_double(name(member))

    def pending(self) -> list[Pending]:
        """Every decision the table waits for now, one per member (his cube decision, Box's answer, the board's
        roll or play); ``[]`` when nobody must decide (between games, in the lobby, or a step the club does itself).
        """
        if self.status != TableStatus.OPEN or not self.board_live:
            return []
        session, board = self.session, self.live_board
        awaiting = session.awaiting()
        if awaiting:
            game = self.game
            merged: dict[str, Pending] = {}
            for item in awaiting:
                if item.actions == WINDOW_ACTIONS:
                    kind = Awaited.DOUBLE
                elif item.actions == EXTRA_ACTIONS:
                    kind = Awaited.EXTRA
                elif game.consent is not None:
                    kind = Awaited.CONSENT
                elif item.member == session.box:
                    kind = Awaited.BOX_ANSWER
                else:
                    kind = Awaited.ANSWER
                previous = merged.get(item.member)
                cubes = item.cubes if previous is None else previous.cubes + item.cubes
                actions = item.actions if previous is None else tuple(dict.fromkeys(previous.actions + item.actions))
                merged[item.member] = Pending(member_id(item.member), member_id(item.actor), kind, actions, cubes)
            return list(merged.values())
        if board.phase == Phase.OPENING:
            return []  # the club rolls the opening (once the game's beacon round is in, club.beacon)
        roller = self.roller()
        if board.phase == Phase.ROLL and self.game.on_roll == self.board_side() and roller is not None:
            keys = self.may_double(roller)
            actions = (Action.ROLL, Action.DOUBLE) if keys else (Action.ROLL,)
            return [Pending(roller, roller, Awaited.ROLL, actions, tuple(keys))]  # else the turn is the club's to log
        if board.phase == Phase.PLAY and roller is not None:
            return [Pending(roller, roller, Awaited.PLAY, (Action.PLAY,))]
        return []

    def next_step(self) -> ClubStep | None:
        """What the club does by itself now, needing no decision: ``rethrow`` (ties at the seat roll, RULES C1),
        ``retire`` (a member who left during the game), ``start_game``, ``opening_roll``, ``turn``, ``game_over``,
        ``roll`` (nobody may double: an automatic roll, if the roller wants it), ``play`` (a forced play), ``close``
        (nobody left), ``stand_in`` (an Acting Captain for an away player), ``decide`` (a standing order or a member
        passed over: :meth:`automatic`); None when a member must act."""
        if self.status != TableStatus.OPEN:
            return None
        session = self.session
        if session.phase == SessionPhase.SEATING:
            return ClubStep.RETHROW if session.ranking and not is_resolved(session.ranking) else None
        if session.joining:
            return ClubStep.RETHROW
        if session.phase == SessionPhase.READY:
            if self.retiring:
                return ClubStep.RETIRE
            if not session.members:
                return ClubStep.CLOSE
            return ClubStep.START_GAME if len(session.order) >= self.rules.min_members else None
        board = self.board
        if board is None or board.is_over:
            return ClubStep.GAME_OVER
        if session.stand_in_due() is not None:
            return ClubStep.STAND_IN
        if board.phase == Phase.OPENING:
            return ClubStep.OPENING_ROLL
        if board.phase == Phase.ROLL and self.game.on_roll != self.board_side():
            return ClubStep.TURN
        if self.automatic():
            return ClubStep.DECIDE
        if session.awaiting():
            return None
        roller = self.roller()
        if board.phase == Phase.ROLL and roller is not None and not self.may_double(roller):
            return ClubStep.ROLL
        if board.phase == Phase.PLAY and len(board.legal_plays()) == 1:
            return ClubStep.PLAY
        return None

    def order_of(self, member: int) -> dict[str, Any] | None:
        """``member``'s standing order in force now (RULES C9): one for this game, or one for while he is away (he
        is); else None."""
        order = self.orders.get(str(member))
        if order is None:
            return None
        if order["until"] == OrderUntil.GAME:
            return order if order.get("game") == self.game_number and self.board_live else None
        return order if name(member) in self.session.away else None

    def automatic(self) -> list[tuple[ChouetteAction, dict[str, Any]]]:
        """The decisions the club makes at once now, as ``(kind, args)`` to log (see the module docstring, "Absent
        members"): a standing order that answers, else a member passed over. The rules may refuse one for now (Box
        insisted on rotation order, 5.8): the caller tries them in turn."""
        session = self.session
        result: list[tuple[ChouetteAction, dict[str, Any]]] = []
        for pending in self.pending():
            subject = name(pending.subject)
            order = self.order_of(pending.subject)
            away = subject in session.away and session.named_proxy(subject) is None
            who = {"member": pending.subject}
            if pending.pending == Awaited.DOUBLE and order and order["pass_doubles"]:
                result.append((ChouetteAction.PASS, {**who, "cube": None, "why": Why.ORDER}))
            elif pending.pending == Awaited.DOUBLE and away:
                result.append((ChouetteAction.PASS, {**who, "cube": None, "why": Why.PASSED_OVER}))
            elif pending.pending == Awaited.ANSWER and order and (decision := self._ordered(pending, order)):
                result.append((ChouetteAction.ANSWER, {**who, "decision": decision, "cube": None, "why": Why.ORDER}))
            elif pending.pending == Awaited.EXTRA and away:
                result.append((ChouetteAction.EXTRA, {**who, "offer": False, "why": Why.PASSED_OVER}))
            elif pending.pending in (Awaited.ANSWER, Awaited.CONSENT) and name(pending.actor) in session.away:
                decision = Decision.DROP if Decision.DROP in pending.actions else pending.actions[0]
                args = {**who, "decision": decision, "cube": None, "why": Why.PASSED_OVER}
                result.append((ChouetteAction.ANSWER, args))
        return result

    def _ordered(self, pending: Pending, order: dict[str, Any]) -> str | None:
        """What ``order`` answers to the doubles offered to ``pending.subject`` (every cube's offered count within
        the take limit: take; every one above the drop limit: drop), else None."""
        slots = [self.game.cubes[key] for key in pending.cubes]
        counts = [n for slot in slots if slot.cube.stage == Stage.DOUBLE and (n := slot.cube.offered_count) is not None]
        if not slots or len(counts) < len(slots):
            return None
        take, drop = order["take_upto"], order["drop_above"]
        if take is not None and max(counts) <= take and Decision.TAKE in pending.actions:
            return Decision.TAKE
        if drop is not None and min(counts) > drop and Decision.DROP in pending.actions:
            return Decision.DROP
        return None

    def throwers(self) -> list[int]:
        """The members who throw now (RULES C1): every tied member at the seat roll or among joiners, in order."""
        session = self.session
        ranking = session.ranking if session.phase == SessionPhase.SEATING else session.joining
        return [member_id(m) for group in tied_groups(ranking) for m in group]

    # -- actions ----------------------------------------------------------------------------------------------------
    def apply(self, kind: str, member: int | None, args: dict[str, Any], *, atomic: bool = True) -> dict[str, Any]:
        """Perform action ``kind`` by ``member`` (None = the club) with ``args`` and return the args to log (the same
        args replay it). A refused action raises (the rules' :class:`~backgammon.errors.ChouetteError` /
        ``GameError``, or :mod:`club.errors`) and — when ``atomic`` (a replay need not be) — changes nothing."""
        if kind not in KINDS or kind == ChouetteAction.OPEN:
            raise InvalidRequestError(f"unknown chouette action {kind!r}")
        if self.status != TableStatus.OPEN and kind != ChouetteAction.UNUSED_SEED:
            raise NotNowError("This chouette is over: nothing more can be done in it.")
        if not atomic:
            return getattr(self, f"_{kind}")(member, dict(args))
        snapshot = self.to_json()
        try:
            return getattr(self, f"_{kind}")(member, dict(args))
        except BaseException:
            restored = ChouetteTable.from_json(snapshot)
            self.__dict__.update(restored.__dict__)
            raise

    # the board (RULES G2–G10, C3)
    def _start_game(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        number = args["number"]
        if number != self.game_number + 1:
            raise GameError(f"the next game is number {self.game_number + 1}, not {number!r}")
        self.session.start_game(args.get("partner", AUTO_PARTNER))
        self.orders = {member: order for member, order in self.orders.items() if order["until"] != OrderUntil.GAME}
        self.board = Game(self.rules.game)
        self.turns = 0
        dice: dict[str, Any] = {k: args[k] for k in ("recipe", "next_seed_hash", "beacon") if k in args}  # not in v1
        if dice.get("recipe") == RECIPE_V3:  # the players of its dice series, for the proof
            game = self.game
            players = (game.box, *game.team, *filter(None, [game.partner]))
            dice["members"] = [member_id(m) for m in dict.fromkeys(players)]
        return {"number": number, "partner": args.get("partner", AUTO_PARTNER), "dice": args["dice"],
                "seed_hash": args["seed_hash"], **dice}  # fmt: skip

    def _client_seed(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        return dict(args)  # a member's dice contribution (club.commitments): nothing changes at the table

    def _seat_call(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        self._seat_ready(member)
        return dict(args)  # the seat throws' beacon round, named (club.beacon): the throws follow once it is in

    def _beacon(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        return dict(args)  # the game's verified beacon round (club.beacon): nothing changes at the table

    def _unused_seed(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        return dict(args)  # the closed session's seed committed ahead, revealed (club.commitments)

    def _opening_roll(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        dice = list(args["dice"])
        self.live_board.opening_roll(*dice)
        raised = self.session.opening_tie() if dice[0] == dice[1] else []
        return {"dice": dice, "raised": raised}

    def _turn(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        if self.live_board.phase != Phase.ROLL or self.board_side() != args["side"]:
            raise GameError(f"the board does not have {args['side']} to roll")
        self.session.turn(args["side"])
        self.turns += 1
        return {"side": args["side"]}

    def _roll(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        board = self.live_board
        if member is not None:
            self._require_roller(member, Action.ROLL)
        if self.session.awaiting():
            raise NotNowError(self._waiting_text("roll"))
        board.roll(_required_turn(board), tuple(args["dice"]))
        self.session.dice_thrown()
        return {"dice": list(args["dice"])}

    def _play(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        board = self.live_board
        if member is not None:
            self._require_roller(member, Action.PLAY)
        side = _required_turn(board)
        if "moves" in args:
            board.apply(args)
        elif "play" in args:
            board.play(side, args["play"])
        else:
            plays = board.legal_plays()
            if len(plays) != 1:
                raise NotNowError("Several plays are legal: the player chooses.")
            board.play(side, plays[0])
        return dict(board.history[-1])

    def _forfeit(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        self.live_board.forfeit(args["side"])
        return {"side": args["side"]}

    def _game_over(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        result = None if self.board is None else self.board.result
        if result is None or self.session.phase != SessionPhase.PLAYING:
            raise GameError("the board game is not over")
        self.session.board_over(result, 0)
        return {"winner": SIDES[result.winner], "result": result.kind, "ended_by": result.ended_by}

    # members coming and going (RULES C1, C2, C6, C9)
    def _sit(self, member: int, args: dict[str, Any]) -> dict[str, Any]:
        stake = args.get("stake", 1)
        if self.phase == TablePhase.LOBBY:
            if member in self.lobby:
                raise InvalidRequestError("You are already at this chouette, waiting for the seat roll.")
            cap = self.rules.max_members
            if cap is not None and len(self.lobby) >= cap:
                raise ChouetteError(f"this chouette is limited to {cap} members (RULES C2; 003 Atlanta 6.4)")
            if stake != 1:
                self.session._check_stakes({name(member): stake}, [name(member)])
                self.lobby_stakes[name(member)] = stake
            self.lobby.append(member)
        elif member in self.retiring or (member in self.members and name(member) in self.session.away):
            if member in self.retiring:
                self.retiring.remove(member)
            if name(member) in self.session.away:
                self.session.come_back(name(member))
                self._end_order(member)
        elif member in self.members:
            raise InvalidRequestError("You already sit in this chouette.")
        elif self.phase == TablePhase.SEATING:
            raise NotNowError("The seat roll is being thrown: join once the members are seated.")
        else:
            self.session.join([name(member)], None, {name(member): stake} if stake != 1 else None)
        return {"stake": stake}

    def _stand(self, member: int, args: dict[str, Any]) -> dict[str, Any]:
        session = self.session
        if self.phase == TablePhase.LOBBY:
            if member not in self.lobby:
                raise InvalidRequestError("You are not at this chouette.")
            self.lobby.remove(member)
            self.lobby_stakes.pop(name(member), None)
            if not self.lobby:
                self.status = TableStatus.CLOSED
            return {}
        if member not in self.members:
            raise InvalidRequestError("You do not sit in this chouette.")
        if self.phase == TablePhase.SEATING:
            raise NotNowError("The seat roll is being thrown: leave once the members are seated.")
        if session.phase == SessionPhase.READY or name(member) in session.waiting:
            session.retire(name(member))
            if not session.members:
                self.status = TableStatus.CLOSED
            return {}
        if member in self.retiring:
            raise InvalidRequestError("You already leave at the end of this game.")
        if name(member) not in session.away:
            session.leave(name(member))
        self.retiring.append(member)
        return {}

    def _seat_ready(self, member: int | None) -> None:
        """Raise unless ``member`` (None: the club) may call the seat roll now (RULES C1; 000 Ch.1)."""
        if self.phase != TablePhase.LOBBY:
            raise NotNowError("The members are already seated (RULES C1): new members join at the end of the Team.")
        if member is not None and member not in self.lobby:
            raise InvalidRequestError("Only members at this chouette can call for the seat roll: join first.")
        if len(self.lobby) < self.rules.min_members:
            raise NotNowError(
                f"A chouette needs {self.rules.min_members} members for the seat roll (000 Ch.1); "
                f"{len(self.lobby)} so far: more must join."
            )

    def _seat(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        self._seat_ready(member)
        throws = {str(key): value for key, value in args["throws"].items()}
        if set(throws) != {name(m) for m in self.lobby}:
            raise InvalidRequestError("every member at the table throws for the seat roll (RULES C1)")
        self.session.seat({name(m): throws[name(m)] for m in self.lobby}, stakes=dict(self.lobby_stakes) or None)
        self.lobby, self.lobby_stakes = [], {}
        return {"throws": throws}

    def _rethrow(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        throws = {str(key): value for key, value in args["throws"].items()}
        self.session.rethrow(throws)
        return {"throws": throws}

    def _retire(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        leaving = args["member"]
        if leaving not in self.retiring:
            raise InvalidRequestError(f"{leaving} is not leaving")
        self.session.retire(name(leaving))
        self.retiring.remove(leaving)
        return {"member": leaving}

    def _proxy(self, member: int, args: dict[str, Any]) -> dict[str, Any]:
        subject, proxy = args.get("member", member), args["proxy"]
        by = None if member == subject else member
        if self.phase == TablePhase.LOBBY:
            raise NotNowError("Proxies are named once the members are seated (RULES C9).")
        self.session.appoint_proxy(name(subject), name(proxy), None if by is None else name(by))
        return {"member": subject, "proxy": proxy}

    def _away(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        self.session.leave(name(args["member"]))
        return {"member": args["member"]}

    def _back(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        self.session.come_back(name(args["member"]))
        self._end_order(args["member"])
        return {"member": args["member"]}

    def _end_order(self, member: int) -> None:
        """He is back: a standing order for while he was away ends (RULES C9)."""
        if self.orders.get(str(member), {}).get("until") == OrderUntil.BACK:
            del self.orders[str(member)]

    def _stand_in(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        self._require_board()
        away = self.session.player
        if away is None:
            raise NotNowError("Nobody plays the Team's checkers now: there is nobody to stand in for.")
        self.session.stand_in(name(args["member"]))
        return {"member": args["member"], "for": member_id(away)}

    def _order(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        if member is None or self.phase not in (TablePhase.PLAYING, TablePhase.BETWEEN) or member not in self.members:
            raise InvalidRequestError("Standing orders are for members seated at this chouette (RULES C9).")
        if args.get("clear"):
            if self.orders.pop(str(member), None) is None:
                raise InvalidRequestError("You have no standing order at this chouette.")
            return {"clear": True}
        order = check_order(args)
        if order["until"] == OrderUntil.GAME:
            if not self.board_live:
                raise NotNowError(
                    "No game is being played: an order for this game is given during one (or use until back)."
                )
            order["game"] = self.game_number
        elif name(member) not in self.session.away:
            self.session.leave(name(member))  # until he is back: he is away from now on
        self.orders[str(member)] = order
        return dict(order)

    def _close(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        if self.session.members or self.lobby:
            raise NotNowError("The chouette still has members.")
        self.status = TableStatus.CLOSED
        return {}

    # the cube (RULES C4, C5, D1–D3; 003 Atlanta 5.6–5.11): each refuses once the board's dice are thrown
    def _double(self, member: int, args: dict[str, Any]) -> dict[str, Any]:
        if self.live_board.phase != Phase.ROLL:
            raise ChouetteError("the dice are thrown: a cube is turned only before the roll (RULES D1)")
        session, game = self.session, self.game
        subject = args.get("member", member)
        by = None if member == subject else name(member)
        if name(subject) == session.box and game.on_roll == Side.BOX:
            if by is not None:
                raise NotYourTurnError("Box decides in person: nobody doubles for Box (RULES C9).")
            targets = args.get("targets")
            self.session.box_double(None if targets is None else [str(t) for t in targets], bool(args.get("in_order")))
            return {"member": subject, "targets": targets, "in_order": bool(args.get("in_order"))}
        if game.on_roll == Side.BOX:
            self.session.extra_double(name(subject), args.get("cube"), by)
        else:
            self.session.team_double(name(subject), args.get("cube"), by)
        return {"member": subject, "cube": args.get("cube")}

    def _pass(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        self._require_board()
        subject, by = _acting_for(member, args)
        self.session.no_double(name(subject), args.get("cube"), by)
        return {"member": subject, "cube": args.get("cube"), **_why(member, args)}

    def _answer(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        self._require_board()
        subject, by = _acting_for(member, args)
        self.session.answer(name(subject), args["decision"], args.get("cube"), by)
        return {"member": subject, "decision": args["decision"], "cube": args.get("cube"), **_why(member, args)}

    def _box_answer(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        self._require_board()
        if member is not None and name(member) != self.session.box:
            raise NotYourTurnError(f"Only Box ({self.session.box}) answers the Team's doubles.")
        decisions = args["decisions"]
        self.session.box_answer(decisions)
        return {"decisions": decisions}

    def _extra(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        self._require_board()
        subject, by = _acting_for(member, args)
        if args["offer"]:
            self.session.offer_extra(name(subject), by)
        else:
            self.session.no_extra(name(subject), by)
        return {"member": subject, "offer": bool(args["offer"]), **_why(member, args)}

    # settlements between Team members (RULES C10; 003 Atlanta 4.4, see the module docstring)
    def open_offer(self) -> TeamOffer | None:
        """The settlement between Team members on offer in the current game (``buyer``, ``seller``, ``points``,
        ``preempt``, ``game``), else None."""
        offer = self.team_offer
        if offer is None or offer.get("game") != self.game_number or not self.board_live:
            return None
        return offer

    def _team_settle(self, member: int | None, args: dict[str, Any]) -> dict[str, Any]:
        self._require_board()
        step = args.get("step")
        if step not in STEPS:
            raise InvalidRequestError(f"a Team settlement step is one of {', '.join(STEPS)}, not {step!r}")
        session = self.session
        offer = self.open_offer()
        if step == SettleStep.OFFER:
            if offer is not None:
                raise NotNowError(
                    f"An offer between Team members is open already ({offer['buyer']} to {offer['seller']}): it must "
                    "be accepted or declined first (003 Atlanta 4.4)."
                )
            if member is None:
                raise InvalidRequestError("a Team member makes the offer, not the club")
            seller, points = args.get("seller"), check_points(args.get("points"))
            if isinstance(seller, bool) or not isinstance(seller, int):
                raise InvalidRequestError(f"the seller is a member of the chouette, not {seller!r}")
            copy.deepcopy(session).team_settle(name(seller), name(member), points)  # the engine's checks, on a copy
            self.team_offer = {"game": self.game_number, "buyer": member, "seller": seller, "points": points,
                               "preempt": False}  # fmt: skip
            return {"step": step, "buyer": member, "seller": seller, "points": points, "preempt": False}
        if offer is None:
            raise NotNowError("No settlement between Team members is on offer in this game (003 Atlanta 4.4).")
        logged = {"step": step, "buyer": offer["buyer"], "seller": offer["seller"], "points": offer["points"]}
        if step == SettleStep.PREEMPT:
            if member is None or name(member) != session.box:
                raise NotYourTurnError(f"Only Box ({session.box}) may preempt a settlement in the Team (4.4).")
            if offer["preempt"]:
                raise NotNowError("Box has preempted this offer already.")
            copy.deepcopy(session).settle(name(offer["seller"]), offer["points"])  # Box may settle with him (C10)
            offer["preempt"] = True
            return {**logged, "preempt": True}
        if step == SettleStep.ACCEPT:
            if member != offer["seller"]:
                raise NotYourTurnError(f"Only {offer['seller']}, to whom the offer is made, accepts it (4.4).")
            session.team_settle(
                name(offer["seller"]), name(offer["buyer"]), offer["points"], box_preempts=offer["preempt"]
            )
            self.team_offer = None
            return {**logged, "preempt": offer["preempt"]}
        if member not in (offer["seller"], offer["buyer"]):
            raise NotYourTurnError(f"Only {offer['seller']} declines this offer, or {offer['buyer']} withdraws it.")
        self.team_offer = None
        return {**logged, "preempt": offer["preempt"], "by": member}

    # -- checks -----------------------------------------------------------------------------------------------------
    def _require_board(self) -> None:
        if not self.board_live:
            raise NotNowError("No game of this chouette is being played now.")

    def _require_roller(self, member: int, what: Action) -> None:
        roller = self.roller()
        if member != roller:
            raise NotYourTurnError(f"It is not your turn on the board: {roller} is to {what}.")
        wanted = Phase.ROLL if what == Action.ROLL else Phase.PLAY
        phase = self.live_board.phase
        if phase != wanted:
            raise NotNowError(f"You cannot {what} now: the board waits for a {phase.value.replace('_', ' ')}.")

    def _waiting_text(self, what: str) -> str:
        undecided = ", ".join(f"{p.subject}" for p in self.pending())
        return f"You cannot {what} yet: waiting for the cube decisions of {undecided} (003 Atlanta 5.9)."


def replay(actions) -> ChouetteTable:
    """Rebuild a table from its whole log (objects with ``kind``, ``member_id`` and ``args``; the first must be the
    ``open``). Raises what a failing action raises (a log that does not replay is corrupt)."""
    if not actions or actions[0].kind != ChouetteAction.OPEN:
        raise GameError("a chouette's log starts with its open action")
    table = ChouetteTable.open(actions[0].args)
    for action in actions[1:]:
        table.apply(action.kind, action.member_id, action.args, atomic=False)
    return table


def _required_turn(board: Game) -> int:
    """The side on turn of a board being played (0 or 1). Raises :class:`GameError` before the opening roll."""
    if board.turn is None:
        raise GameError("the board has nobody on turn before the opening roll")
    return board.turn


def _why(member: int | None, args: dict[str, Any]) -> dict[str, str]:
    """``{"why": …}`` for a decision the club made at once (:data:`WHY`; only the club's, ``member`` None)."""
    why = args.get("why")
    if why is None:
        return {}
    if member is not None or why not in WHY:
        raise InvalidRequestError(f"only the club decides by a standing order or passes a member over, not {why!r}")
    return {"why": why}


def _acting_for(member: int | None, args: dict[str, Any]) -> tuple[int, str | None]:
    """``(subject, by)``: whose decision it is (``args["member"]``, else the one acting) and the engine name of the
    one deciding for him (None for himself or for the club; RULES C9)."""
    subject = args.get("member", member)
    if subject is None:
        raise InvalidRequestError("the club's decision names the member it is for")
    return subject, None if member is None or member == subject else name(member)
