"""What the use-cases return: :class:`TableOutcome` (after an action) — the 1-on-1's :class:`Outcome` and the
chouette's :class:`~club.chouette.views.ChouetteOutcome` are its two variants — and the views they carry.

Everything a front end needs and nothing Discord-specific: the new state (:class:`TableView` with the current
:class:`GameView`), what happened in words, who must act next (to notify), and whether a new board image is due.
The board image itself is the renderer's job (``rendering/``); :class:`GameView` holds its inputs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from backgammon.errors import BackgammonError
from backgammon.game import Action, Game, GameResult
from backgammon.ids import encode_match_id
from backgammon.moves import Move, format_moves
from backgammon.position import Position

from .commitments import luck_line
from .describe import pending_words
from .table import Event, MatchStatus, Pending, Table


@dataclass(frozen=True, slots=True)
class GameView:
    """One game as a board image and an embed need it. Sides are 0 and 1 (see :attr:`TableView.players`).

    ``board``: the position seen by side 0 (side 0 moves 24 → 1; :meth:`board_for` gives other views).
    ``phase``: ``backgammon.game.Phase`` value; ``on_roll``/``turn``: the side on roll / to act (None at the opening
    or when over). ``dice``: the dice to play (None when not rolled). ``cube_value``, ``cube_owner`` (None =
    centred), ``cube_offered`` (a pending double/beaver/raccoon). ``pips``/``off``: per side. ``last_play``:
    ``(side, notation, dice)`` of the latest play, or None; ``last_moves``: its moves as played (the renderer draws
    their arrows from them, not from the notation). ``resignation``: ``(side, level)`` pending.
    ``seed_hash``: the dice commitment; ``seed``: the revealed server seed (only once the game is over).
    ``position_id``/``match_id``: gnubg IDs (``match_id`` None when the cube cannot be encoded).
    ``cube_factor``: the automatic-double factor of add-one raises (RULES G3, 000 §20b; 1 without), drawn beside the
    power-of-two cube (RULES D6).
    """

    number: int
    phase: str
    on_roll: int | None
    turn: int | None
    dice: tuple[int, int] | None
    board: Position
    cube_value: int
    cube_owner: int | None
    cube_offered: int | None
    crawford: bool
    pips: tuple[int, int]
    off: tuple[int, int]
    last_play: tuple[int, str, tuple[int, int]] | None
    resignation: tuple[int, int] | None
    result: GameResult | None
    seed_hash: str | None
    seed: str | None
    position_id: str
    match_id: str | None
    cube_factor: int = 1
    last_moves: tuple[Move, ...] = ()

    def board_for(self, side: int) -> Position:
        """The position seen by ``side`` (its checkers as ``player``)."""
        return self.board if side == 0 else self.board.swap()

    @property
    def on_roll_position_id(self) -> str:
        """gnubg's Position ID, seen by the side on roll (the side to act before the opening roll, side 0 when
        neither) — the one every board of this game prints, text or PNG, whoever looks at it."""
        side = self.on_roll if self.on_roll is not None else (self.turn or 0)
        return self.board_for(side).position_id()

    @classmethod
    def of(cls, game: Game, number: int, *, seed_hash: str | None, seed: str | None) -> GameView:
        """The view of ``game`` (game ``number``), with its dice commitment and, once over, the revealed seed."""
        board = game.board_for(0)
        last_play = None
        last_moves: tuple[Move, ...] = ()
        dice = None
        for entry in reversed(game.history):
            if entry["action"] in (Action.ROLL, Action.OPENING_ROLL) and last_play is not None:
                dice = tuple(entry["dice"])
                last_play = (last_play[0], last_play[1], dice)
                break
            if entry["action"] == Action.PLAY and last_play is None:
                last_moves = tuple(Move(m[0], m[1], m[2], bool(m[3])) for m in entry["moves"])
                last_play = (entry["side"], format_moves(last_moves) or "(no legal play)", (0, 0))
        try:
            match_id = encode_match_id(game.match_state())
        except BackgammonError:
            match_id = None
        return cls(
            number=number,
            phase=game.phase.value,
            on_roll=game.on_roll,
            turn=game.turn,
            dice=game.dice,
            board=board,
            cube_value=game.cube_value,
            cube_owner=game.cube_owner,
            cube_offered=game.offered_value,
            crawford=game.crawford_game,
            pips=(board.pips_player, board.pips_opponent),
            off=(board.off_player, board.off_opponent),
            last_play=last_play,
            resignation=game.resignation,
            result=game.result,
            seed_hash=seed_hash,
            seed=seed,
            position_id=board.position_id(),
            match_id=match_id,
            cube_factor=game.automatic_factor,
            last_moves=last_moves,
        )


@dataclass(frozen=True, slots=True)
class TableView:
    """A match or money session as it stands.

    ``version``: pass it back with the next action (a stale click then fails with ``StaleVersionError``).
    ``players``: member ids of sides 0 and 1; ``names``: their display names. ``score``: match score (money: net
    totals). ``waiting_for``: the member who must act (None when nobody); ``pending``: what is awaited (see
    :meth:`club.table.Table.waiting`), ``pending_text`` the same in words; ``due_at``: its deadline (Unix s).
    ``legal``: the actions ``waiting_for`` may take now (names of the use-cases). ``game``: the current game.
    ``engine_side``/``strength``: a practice game's engine seat (:mod:`club.practice`), else None.
    ``stop_by``: in a money session, the side (0/1) that asked to end it when the current game ends, else None.
    ``plays``: when ``waiting_for`` must play, the legal plays of his dice (notation, ``pass`` when none: what
    :meth:`club.service.ClubService.legal_plays` says), else None.
    """

    match_id: int
    club_id: int
    kind: str
    length: int
    players: tuple[int, int]
    names: tuple[str, str]
    stake: int
    rules: dict[str, Any]
    rules_text: str
    status: str
    version: int
    game_number: int
    score: tuple[int, int]
    crawford_next: bool
    winner: int | None
    waiting_for: int | None
    pending: str | None
    pending_text: str
    due_at: float | None
    legal: tuple[str, ...]
    game: GameView | None
    engine_side: int | None = None
    strength: str | None = None
    stop_by: int | None = None
    plays: tuple[str, ...] | None = None
    luck_game: int | None = None
    """The game whose dice wait for the players' luck (committed, not started), or None."""
    lucky: tuple[int, ...] = ()
    """The players who have added luck to game ``luck_game``'s dice (never the values)."""

    @property
    def luck_text(self) -> str:
        """Who has added luck to the next game's dice, in words (:func:`club.commitments.luck_line`)."""
        return luck_line(self.luck_game, (self.names[self.players.index(m)] for m in self.lucky))

    @property
    def practice(self) -> bool:
        """True for a practice game against the engine (unrated; hints allowed)."""
        return self.engine_side is not None

    @property
    def engine_to_act(self) -> bool:
        """True when the engine seat of a practice game is to act (the front ends then run its turn)."""
        return self.engine_side is not None and self.waiting_for == self.players[self.engine_side]

    @property
    def table_id(self) -> int:
        """The match or session id (:attr:`TableOutcome.table_id`)."""
        return self.match_id

    def side_of(self, member_id: int) -> int | None:
        """The side ``member_id`` plays, or None."""
        return self.players.index(member_id) if member_id in self.players else None

    def name_of(self, member_id: int) -> str:
        """The display name of player ``member_id`` (his id as text when he does not play here)."""
        side = self.side_of(member_id)
        return str(member_id) if side is None else self.names[side]

    @classmethod
    def of(
        cls,
        match_id: int,
        table: Table,
        *,
        version: int,
        names: tuple[str, str],
        due_at: float | None,
        seed_hash: str | None,
        seed: str | None,
    ) -> TableView:
        """The view of ``table`` at ``version``."""
        side, pending = table.waiting()
        game = table.game
        legal: tuple[str, ...] = ()
        if side is not None and game is not None and pending != Pending.ANSWER_CHALLENGE:
            legal = tuple(sorted(game.legal_actions(side) - {"forfeit", "opening_roll"}))
        elif pending == Pending.ANSWER_CHALLENGE:
            legal = ("accept", "decline")
        return cls(
            match_id=match_id,
            club_id=table.club_id,
            kind=table.kind,
            length=table.length,
            players=table.players,
            names=names,
            stake=table.stake,
            rules=table.rules.to_json(),
            rules_text=table.rules.describe(),
            status=table.status,
            version=version,
            game_number=table.game_number,
            score=table.score,
            crawford_next=table.match.is_crawford(),
            winner=table.winner,
            waiting_for=None if side is None else table.players[side],
            pending=pending if side is not None else None,
            pending_text=pending_words(
                pending if side is not None else None,
                beaver="beaver" in legal,
                raccoon="raccoon" in legal,
            ),
            due_at=due_at,
            legal=legal,
            game=None if game is None else GameView.of(game, table.game_number, seed_hash=seed_hash, seed=seed),
            engine_side=table.engine_side,
            strength=table.strength,
            stop_by=table.stop_by,
            plays=tuple(p.notation() or "pass" for p in table.legal_plays())
            if side is not None and pending == Pending.PLAY and table.status == MatchStatus.ACTIVE
            else None,
        )


@dataclass(frozen=True)
class TableOutcome:
    """What a use-case call on a table did — the base of the 1-on-1's :class:`Outcome` and the chouette's
    :class:`~club.chouette.views.ChouetteOutcome` (its variants add what only they know).

    ``view``: the table's new state (a :class:`TableView` or a :class:`~club.chouette.views.ChouetteView`).
    ``message``: what happened in words, one sentence a line. ``notify``: the members to tell now (the 1-on-1: who
    must act next if not the caller, and both players when a game or the match ended; the chouette: exactly the
    actors of new decisions, RULES C5, C9). ``image_due``: the board changed (a new image should be posted or the
    old one edited). ``revealed``: ``(game number, seed hex, seed hash)`` of the dice seeds this call revealed.
    ``direct``: of the members to tell, those who asked for a direct message (``/bg notify on``), as the call read
    them; None when the call did not read them (the front end asks for each one's preferences then).
    """

    view: Any
    message: str
    notify: tuple[int, ...] = ()
    image_due: bool = False
    revealed: tuple[tuple[int, str, str], ...] = ()
    direct: tuple[int, ...] | None = None

    @property
    def table_id(self) -> int:
        """The table's id (a match's, or a chouette's: they overlap, so go with the kind)."""
        return self.view.table_id

    @property
    def version(self) -> int:
        """The version after this call."""
        return self.view.version


@dataclass(frozen=True)
class Outcome(TableOutcome):
    """The outcome of a match or money session (:class:`TableOutcome`): ``view`` is a :class:`TableView`;
    ``events``: what happened (auto-rolls, forced plays, a new game … included), ``message`` the same in words."""

    events: tuple[Event, ...] = ()

    @property
    def match_id(self) -> int:
        """The match or session id."""
        return self.view.match_id

    @property
    def waiting_for(self) -> int | None:
        """The member who must act now (None when nobody)."""
        return self.view.waiting_for
