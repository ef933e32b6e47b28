"""What the chouette use-cases return: :class:`ChouetteOutcome` and the views it carries. No Discord types.

:class:`ChouetteView` is a session as a front end shows it — seats in rotation order, every cube's value and state
(RULES C5), who must decide now and by when (:class:`Decision`, RULES A2, C9), the board (a
:class:`~club.results.GameView`) and the score sheet with member ids (:class:`SheetData`, RULES C11).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

from backgammon.chouette import ChouetteRules
from backgammon.chouette.cubes import SIDES, ChouetteCube, Side
from backgammon.chouette.events import SessionPhase
from backgammon.chouette.sheet import EndedBy, SheetRow
from backgammon.game import Action

from ..commitments import luck_line
from ..results import GameView, TableOutcome
from .table import (
    Awaited,
    ChouetteTable,
    DeadlineStage,
    Pending,
    TablePhase,
    TableStatus,
    TeamOffer,
    member_id,
    order_text,
)

DECISION_WORDS: dict[str, str] = {
    Awaited.DOUBLE: "double or pass (the Team's window, 003 Atlanta 5.9)",
    Awaited.ANSWER: "answer Box's offer",
    Awaited.BOX_ANSWER: "answer the Team's doubles",
    Awaited.CONSENT: "go along with or refuse the Captain's double (000 Ch.8)",
    Awaited.EXTRA: "offer the lone taker an extra or not (5.7)",
    Awaited.ROLL: "roll",
    Awaited.PLAY: "play",
}
"""A decision in words (after "must")."""


class CubeState(StrEnum):
    """The state of a cube for displays: in play (centred, an offer pending, taken = owned by one side) or out of it
    (its :class:`~backgammon.chouette.cubes.CubeStatus`)."""

    CENTRED = "centred"
    OFFERED = "offered"
    BEAVERED = "beavered"
    RACCOONED = "raccooned"
    TAKEN = "taken"
    DROPPED = "dropped"
    SETTLED = "settled"
    SCORED = "scored"


CUBE_STATES = tuple(CubeState)
"""Every :class:`CubeState`."""

OFFER_STATES = (CubeState.OFFERED, CubeState.BEAVERED, CubeState.RACCOONED)
"""The states of a cube with an offer pending (its value shown is the one proposed)."""

_OUT = (CubeState.DROPPED, CubeState.SETTLED, CubeState.SCORED)


@dataclass(frozen=True, slots=True)
class CubeView:
    """One cube of the current game (RULES C5): ``key`` (the member's id as text, or ``"giver>taker"`` for an extra),
    ``member`` whose cube it was, ``team``/``box`` its holders now, ``stake`` (RULES C6), ``count`` and ``value``
    (points: stake × count × factor), ``owner`` (``"box"``, ``"team"`` or None = centred), ``state`` (one of
    :data:`CUBE_STATES`), ``offered`` (points proposed by a pending offer), ``points`` (what the Team side won once
    out of play), ``extra`` (003 Atlanta 5.7), ``factor`` (the add-one automatic-double factor beside the
    power-of-two face ``count``; RULES D6, G3)."""

    key: str
    member: int
    team: int
    box: int
    stake: int
    count: int
    value: int
    owner: Side | None
    state: CubeState
    offered: int | None
    points: int
    extra: bool
    factor: int = 1

    def summary(self) -> str:
        """The cube for a panel, e.g. ``4 centred``, or with an add-one factor (RULES D6)
        ``2 ×3 (automatic doubles: 6 points) taken`` — the face, the factor and the value in points. While an offer
        is pending (offered, beavered, raccooned) the value is the one proposed (``8 beavered``), as the board
        image shows it."""
        value, count = self.value, self.count
        if self.state in OFFER_STATES and self.offered:
            value = self.offered
            count = self.offered // (self.stake * self.factor) if self.stake * self.factor else count * 2
        if self.factor == 1:
            return f"{value} {self.state}"
        return f"{count} ×{self.factor} (automatic doubles: {value} points) {self.state}"


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision the session waits for: ``subject`` must decide; ``actor`` may decide now (the subject, or his
    proxy / the Captain once he missed his deadline: ``stage`` ``"proxy"``, RULES C9); ``pending`` (a key of
    :data:`DECISION_WORDS`), ``actions`` open to him, ``cubes`` concerned, ``due_at`` (Unix s) and ``new`` (it
    became due with this outcome: ping the actor)."""

    subject: int
    actor: int
    pending: Awaited
    actions: tuple[str, ...]
    cubes: tuple[str, ...]
    due_at: float | None
    stage: DeadlineStage = DeadlineStage.MEMBER
    new: bool = False

    @classmethod
    def of(cls, pending: Pending, due_at: float | None, new: bool) -> Decision:
        """The decision the table waits for (``pending``), due at ``due_at`` (its deadline), ``new`` with this
        outcome; the stage is ``proxy`` when another acts for the subject (RULES C9)."""
        return cls(
            pending.subject, pending.actor, pending.pending, pending.actions, pending.cubes, due_at, pending.stage, new
        )

    @property
    def words(self) -> str:
        """What must be done, in words (``roll or double`` when Box may double at his roll, as a match says it)."""
        if self.pending == Awaited.ROLL and Action.DOUBLE in self.actions:
            return "roll or double"
        return DECISION_WORDS.get(self.pending, self.pending)


@dataclass(frozen=True, slots=True)
class SheetRowData:
    """One finished game on the score sheet (RULES C11; 003 Atlanta 10.1): ``points`` member → points (members
    seated then), ``circled`` losers, ``crossed`` circles crossed through, ``b`` the losing Captain who follows Box,
    ``next_captain``, ``ended_by`` (play, resignation, drops)."""

    game: int
    box: int
    captain: int
    partner: int | None
    points: dict[int, int]
    circled: tuple[int, ...]
    crossed: tuple[int, ...]
    b: int | None
    next_captain: int
    ended_by: EndedBy


@dataclass(frozen=True, slots=True)
class SheetData:
    """A session's score sheet with member ids: columns ``members`` (order of arrival), ``rows``, ``totals`` (sum to
    zero, RULES C11), ``stake`` (money per point, 0 = none) and the ``next_captain`` (10.1)."""

    members: tuple[int, ...]
    rows: tuple[SheetRowData, ...]
    totals: dict[int, int]
    stake: int
    next_captain: int | None

    @property
    def zero_sum(self) -> bool:
        """True when every game and the totals sum to zero (10.1 "the total of all scores adds to zero")."""
        return sum(self.totals.values()) == 0 and all(sum(row.points.values()) == 0 for row in self.rows)

    def money(self, member: int) -> int:
        """``member``'s total in money (points × the stake per point)."""
        return self.totals.get(member, 0) * self.stake


@dataclass(frozen=True)
class ChouetteView:
    """A chouette session as it stands (see the module docstring).

    ``phase``: ``lobby``, ``seating``, ``playing``, ``between`` or ``closed``. ``order``: Box, Captain, Team in
    rotation order (the current game's, or the next game's between games); ``waiting``: joined during the game;
    ``lobby``: waiting for the seat roll. ``away`` / ``proxies``: RULES C9. ``mark``: the game and turn buttons are
    drawn for. ``in_game``: Box and the members whose cube is in play ("no cube, no talk"). ``team_offer``: a
    settlement between Team members on offer (``buyer``, ``seller``, ``points``, ``preempt``; 003 Atlanta 4.4).
    ``player``: who plays the Team's checkers — the Captain, or the Acting Captain standing in while he is away;
    ``orders``: the standing orders in force, member → in words (RULES C9).
    ``plays``: while a decision is a play, the legal plays of the board's dice (notation, ``pass`` when none: what
    :meth:`club.chouette.ChouetteService.legal_plays` says), else None.
    """

    session_id: int
    version: int
    status: TableStatus
    phase: TablePhase
    channel_id: int
    rules: ChouetteRules
    stake: int
    names: dict[int, str]
    lobby: tuple[int, ...]
    order: tuple[int, ...]
    waiting: tuple[int, ...]
    away: tuple[int, ...]
    proxies: dict[int, int]
    retiring: tuple[int, ...]
    game_number: int
    box: int | None
    captain: int | None
    partner: int | None
    team: tuple[int, ...]
    cubes: tuple[CubeView, ...]
    board: GameView | None
    board_live: bool
    on_roll: Side | None
    decisions: tuple[Decision, ...]
    mark: str
    sheet_source: Callable[[], SheetData] = field(repr=False, compare=False)
    decision_time: float
    proxy_time: float
    move_time: float
    no_talk: bool
    in_game: tuple[int, ...] = ()
    seed_hash: str | None = None
    team_offer: TeamOffer | None = None
    player: int | None = None
    orders: dict[int, str] = field(default_factory=dict)
    plays: tuple[str, ...] | None = None
    luck_game: int | None = None
    """The game whose dice wait for the members' luck (committed, not started; in the lobby the seat roll's too)."""
    lucky: tuple[int, ...] = ()
    """The members who have added luck to them (never the values)."""

    @property
    def luck_text(self) -> str:
        """Who has added luck to the next dice, in words (:func:`club.commitments.luck_line`)."""
        return luck_line(self.luck_game, map(self.name, self.lucky), seat=self.phase == TablePhase.LOBBY)

    @cached_property
    def sheet(self) -> SheetData:
        """The score sheet (RULES C11), built the first time it is asked for: a decision that does not end a game
        and is not shown with the sheet never builds it, so its cost does not grow with the games played."""
        return self.sheet_source()

    def seat_lines(self, *, team: str = "", notes: bool = False, cubes_between: bool = False) -> list[str]:
        """The seats in rotation order, one line each — role (``team``: how a Team member's is written), name, his
        cube while the board is played (``cubes_between``: also once it ended, until the next game), away and his
        proxy (``notes``: a proxy named while present, and who leaves after this game), and who holds his cube after a
        Team settlement (``held by cy (settled)``; the buyer's ``carries dee's cube too``, 003 Atlanta 4.4) — then the
        extras, the open settlement offer and who joins for the next game (RULES C3, C5, C9). The seat panel of every
        front end."""
        cubes = {cube.member: cube for cube in self.cubes if not cube.extra}
        carried: dict[int, list[str]] = {}
        for held in cubes.values():
            if held.team != held.member and held.state not in _OUT:
                carried.setdefault(held.team, []).append(self.name(held.member))
        lines = []
        for member in self.order:
            role = "Box" if member == self.box else "Partner" if member == self.partner else team
            if self.board_live and member == self.captain:
                role = "Captain"
            if self.board_live and member == self.player != self.captain:
                role = "Acting Captain"
            cube = (
                cubes.get(member) if self.board_live or (cubes_between and self.phase == TablePhase.PLAYING) else None
            )
            cube_text = f" — cube {cube.summary()}" if cube is not None else ""
            if cube is not None and cube.team != member:  # a Team settlement: another member holds it (4.4)
                cube_text += f", held by {self.name(cube.team)} (settled)"
            if cube is not None and carried.get(member):
                cube_text += f", carries {', '.join(carried[member])}'s cube too (003 Atlanta 4.4)"
            proxy = f"proxy {self.name(self.proxies[member])}" if member in self.proxies else ""
            away = f" (away{', ' + proxy if proxy else ''})" if member in self.away else ""
            if notes:
                away = away or (f" ({proxy})" if proxy else "")
                away += " (leaves after this game)" if member in self.retiring else ""
            order = f" (standing order: {self.orders[member]})" if member in self.orders else ""
            lines.append(f"{role + ' ' if role else ''}{self.name(member)}{cube_text}{away}{order}")
        for cube in self.cubes:
            if cube.extra:
                lines.append(f"extra {self.name(cube.box)} → {self.name(cube.team)} — {cube.summary()}")
        if self.offer_text():
            lines.append(self.offer_text())
        if self.waiting:
            lines.append("Next game: " + ", ".join(self.name(m) for m in self.waiting))
        return lines

    @property
    def team_seat(self) -> str:
        """The Team's seat at the board in words: ``Captain Bob``, or ``Acting Captain Cy (for Bob)`` while one
        stands in for the away Captain (RULES C9)."""
        if self.board_live and self.player is not None and self.player != self.captain:
            return f"Acting Captain {self.name(self.player)} (for {self.name(self.captain)})"
        return f"Captain {self.name(self.captain)}"

    def offer_text(self) -> str:
        """The open settlement between Team members in one line for the seat panels (003 Atlanta 4.4), e.g.
        ``Offer: Bob buys Cy's interest for 1 point — Cy accepts or declines (chouette team-settle)``; ``""`` if none."""
        offer = self.team_offer
        if not offer:
            return ""
        points = offer["points"]
        seller = self.name(offer["seller"])
        amount = f"{abs(points)} point{'s' if abs(points) != 1 else ''}"
        amount = f"for {amount}" if points >= 0 else f"with {seller} paying {amount}"
        preempt = " (Box preempts: Box pays instead)" if offer["preempt"] else ""
        return (f"Offer: {self.name(offer['buyer'])} buys {seller}'s interest {amount}{preempt} — {seller} accepts "
                "or declines (chouette team-settle)")  # fmt: skip

    @property
    def table_id(self) -> int:
        """The session's id (:attr:`club.results.TableOutcome.table_id`)."""
        return self.session_id

    def name(self, member: int | None) -> str:
        """The display name of ``member`` (his id if unknown; ``"-"`` for None)."""
        if member is None:
            return "-"
        return self.names.get(member, str(member))

    @property
    def members(self) -> tuple[int, ...]:
        """Everyone at the session: the lobby, or the order then those waiting to be seated."""
        return self.lobby if self.phase == TablePhase.LOBBY else (*self.order, *self.waiting)

    @property
    def rules_text(self) -> str:
        """The rule set in one line (``ChouetteRules.describe``)."""
        return self.rules.describe()

    def decision_of(self, actor: int) -> list[Decision]:
        """The decisions ``actor`` may make now (his own, or as a proxy)."""
        return [decision for decision in self.decisions if decision.actor == actor]

    @classmethod
    def of(
        cls,
        session_id: int,
        table: ChouetteTable,
        *,
        version: int,
        names: dict[int, str],
        decisions: tuple[Decision, ...],
        seed_hash: str | None = None,
        seed: str | None = None,
        stored_sheet: Sequence[dict] = (),
    ) -> ChouetteView:
        """The view of ``table`` at ``version`` with display ``names`` and the ``decisions`` (with their deadlines);
        ``stored_sheet``: the finished games' sheet rows as stored (``chouette_sheet``, JSON)."""
        session = table.session
        game = session.game
        playing = game if session.phase == SessionPhase.PLAYING else None  # the game being played
        ids = [member_id(m) for m in session.order] if session.phase != SessionPhase.SEATING else []
        cubes: tuple[CubeView, ...] = ()
        if game is not None:
            cubes = tuple(_cube(slot) for slot in game.cubes.values())
        in_game: tuple[int, ...] = ()
        if playing is not None:
            in_game = (member_id(playing.box), *dict.fromkeys(c.team for c in cubes if c.state not in _OUT))
        board = None
        if table.board is not None and game is not None:
            board = GameView.of(table.board, game.number, seed_hash=seed_hash, seed=seed)
        return cls(
            session_id=session_id,
            version=version,
            status=table.status,
            phase=table.phase,
            channel_id=table.channel_id,
            rules=table.rules,
            stake=table.stake,
            names=dict(names),
            lobby=tuple(table.lobby),
            order=tuple(member_id(m) for m in playing.order) if playing else tuple(ids),
            waiting=tuple(member_id(m) for m in session.waiting),
            away=tuple(member_id(m) for m in session.away),
            proxies={member_id(k): member_id(v) for k, v in session.proxies.items()},
            retiring=tuple(table.retiring),
            game_number=table.game_number,
            box=None if session.box is None else member_id(session.box),
            captain=None if session.captain is None else member_id(session.captain),
            partner=None if playing is None or playing.partner is None else member_id(playing.partner),
            team=tuple(member_id(m) for m in playing.team) if playing else tuple(ids[1:]),
            cubes=cubes,
            board=board,
            board_live=table.board_live,
            on_roll=playing.on_roll if playing else None,
            decisions=decisions,
            mark=table.mark,
            sheet_source=_sheet_source(table, stored_sheet),
            decision_time=table.decision_time,
            proxy_time=table.proxy_time,
            move_time=table.move_time,
            no_talk=table.no_talk,
            in_game=in_game,
            seed_hash=seed_hash,
            team_offer=None if (offer := table.open_offer()) is None else TeamOffer(**offer),
            player=None if session.player is None else member_id(session.player),
            orders={member: order_text(order) for member in table.members if (order := table.order_of(member))},
            plays=tuple(p.notation() or "pass" for p in table.board.legal_plays())
            if table.board is not None and any(d.pending == Awaited.PLAY for d in decisions)
            else None,
        )


def _cube(slot: ChouetteCube) -> CubeView:
    cube = slot.cube
    taken = slot.live and cube.stage is None and cube.owner is not None
    state = CubeState.TAKEN if taken else CubeState(slot.state)  # the engine's word, but one word for a taken cube
    owner = None if cube.owner is None else SIDES[cube.owner]
    return CubeView(
        key=slot.key,
        member=member_id(slot.member),
        team=member_id(slot.team),
        box=member_id(slot.box),
        stake=slot.stake,
        count=cube.value,
        factor=cube.factor,
        value=slot.value,
        owner=owner,
        state=state,
        offered=slot.offered_value,
        points=slot.points,
        extra=slot.extra,
    )


def sheet_rows(table: ChouetteTable, stored: Sequence[dict] = ()) -> list[SheetRow]:
    """Every finished game's sheet row: the ``stored`` ones (``chouette_sheet``) and those ``table`` holds (finished
    since it was loaded, or all of them for a table replayed or read from an older state), by game. A circled loser
    is crossed through once he has been Box in a later game (003 Atlanta 10.1) — derived here, as the rows are
    never rewritten."""
    game = table.session.game
    return _rows(table.session.sheet_rows(), stored, None if game is None else (game.number, game.box))


def _rows(held: list[SheetRow], stored: Sequence[dict], game: tuple[int, str] | None) -> list[SheetRow]:
    rows = {row["game"]: SheetRow.from_json(row) for row in stored}
    rows.update((row.game, row) for row in held)
    ordered = [rows[number] for number in sorted(rows)]
    boxes_after: set[str] = {game[1]} if game is not None else set()
    for row in reversed(ordered):
        if game is not None and game[0] <= row.game:
            boxes_after.discard(game[1])
        circled = (row.marks or {}).get("circled", [])
        row.crossed = [m for m in circled if m in boxes_after]
        boxes_after.add(row.box)
    return ordered


def _sheet_source(table: ChouetteTable, stored: Sequence[dict]) -> Callable[[], SheetData]:
    """A function building the score sheet of ``table`` with member ids (RULES C11) as it is now (``stored``: the rows
    kept in ``chouette_sheet``, :func:`sheet_rows`): what it needs of the table is copied at once
    — the sheet's columns and totals and the rows the table holds, a few games at most (the table may change
    afterwards) — and the rows from ``stored`` (never rewritten) are read only when it is called."""
    session = table.session
    sheet = session.sheet()
    held = session.sheet_rows()
    game = None if session.game is None else (session.game.number, session.game.box)
    next_captain = None
    if session.phase == SessionPhase.READY and session.captain is not None:
        next_captain = member_id(session.captain)
    members = tuple(member_id(m) for m in sheet.members)
    totals = {member_id(m): t for m, t in sheet.totals().items()}
    stake = table.stake

    def build() -> SheetData:
        rows = []
        for row in _rows(held, stored, game):
            marks = row.marks or {}
            rows.append(
                SheetRowData(
                    game=row.game,
                    box=member_id(row.box),
                    captain=member_id(row.captain),
                    partner=None if row.partner is None else member_id(row.partner),
                    points={member_id(m): p for m, p in row.points.items()},
                    circled=tuple(member_id(m) for m in marks.get("circled", [])),
                    crossed=tuple(member_id(m) for m in row.crossed),
                    b=None if marks.get("b") is None else member_id(marks["b"]),
                    next_captain=member_id(row.next_captain),
                    ended_by=row.ended_by,
                )
            )
        return SheetData(members=members, rows=tuple(rows), totals=dict(totals), stake=stake, next_captain=next_captain)

    return build


@dataclass(frozen=True)
class ChouetteOutcome(TableOutcome):
    """What a chouette use-case did (:class:`~club.results.TableOutcome`): ``view`` is a :class:`ChouetteView`,
    ``notify`` the members who must decide because of it (the actors of new decisions, RULES C5, C9; also
    :attr:`ping`); ``finished``: game numbers that ended in this call (their rows are on the sheet and in
    ``chouette_results``)."""

    finished: tuple[int, ...] = ()

    @property
    def ping(self) -> tuple[int, ...]:
        """The members to mention: :attr:`notify`."""
        return self.notify

    @property
    def session_id(self) -> int:
        """The session's id."""
        return self.view.session_id
