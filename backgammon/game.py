"""One game of backgammon as a state machine, from the opening roll to the result (RULES G1–G12, D1–D6, M3, M4, M6).

Sides are 0 and 1, as GNU Backgammon's players 0 and 1 (in a ``.mat`` file 0 is the first-named player). Dice come
from outside (RULES A1 is the club's job). Each action is a method; an action by the wrong side raises
:class:`~backgammon.errors.WrongTurnError`, in the wrong phase :class:`~backgammon.errors.WrongPhaseError`, against
the cube rules :class:`~backgammon.errors.CubeError`, and bad input a typed error from :mod:`backgammon.errors` —
in every case **nothing changes** (every check runs before any state is touched).

Phases (:class:`Phase`) and who acts (``turn``)::

    OPENING ──opening_roll (tie: again, G3 raise)──► PLAY (higher die plays both, G2)
    ROLL ──roll──► PLAY ──play──► ROLL (other side)  … or OVER (G11)
    ROLL ──double──► CUBE_OFFERED ──take──► ROLL (doubler rolls)   ──drop──► OVER
                         └─beaver─► BEAVER_OFFERED ──take──► ROLL   ──drop──► OVER
                                        └─raccoon─► RACCOON_OFFERED ──take──► ROLL  ──drop──► OVER
    ROLL/PLAY ──resign──► RESIGNATION_OFFERED ──accept──► OVER / ──reject──► back where it was
    any but OVER ──forfeit──► OVER

``history`` lists every action as a JSON-friendly dict; :meth:`Game.apply` re-applies one and
:meth:`Game.replay_history` rebuilds a game from a history, so a stored action log is the record (DESIGN "storage").

How a game ends and scores is :mod:`backgammon.result`; this module holds the phases, the checks of who may act, the
play, cube, resignation and forfeit actions, the replay, the gnubg Match ID fields and the JSON form.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any

from . import cube as cubes
from .cube import Cube
from .errors import (
    BackgammonError,
    GameError,
    IllegalPlayError,
    InvalidPlayError,
    RuleSetError,
    WrongPhaseError,
    WrongTurnError,
)
from .ids import GAME_DROP, GAME_OVER, GAME_PLAYING, GAME_RESIGNED, MatchState
from .moves import Move, Play, apply_move, check_dice, dice_text, legal_plays
from .notation import parse_play
from .position import CHECKERS, Position
from .result import ENDINGS, KIND_LEVELS, RESULT_KINDS, Ending, GameResult, point_game_count, result_level
from .rules import ForfeitValuation, RuleSet

__all__ = [
    "ACTIONS",
    "Action",
    "ENDINGS",
    "KIND_LEVELS",
    "RESULT_KINDS",
    "Ending",
    "Game",
    "GameResult",
    "Phase",
    "point_game_count",
    "result_level",
]


class Phase(StrEnum):
    """Where the game stands; ``Game.turn`` is the side that must act in it."""

    OPENING = "opening"  # each side rolls one die (RULES G2); either side may trigger the roll
    ROLL = "roll"  # the player on roll may double (if the cube allows) or roll
    PLAY = "play"  # dice rolled: the player on roll must play them (an empty play when none is possible, G9)
    CUBE_OFFERED = "cube_offered"  # a double awaits take / drop / beaver from the taker (D1–D3)
    BEAVER_OFFERED = "beaver_offered"  # a beaver awaits take / drop / raccoon from the doubler (D3)
    RACCOON_OFFERED = "raccoon_offered"  # a raccoon awaits take / drop from the beaverer (D3)
    RESIGNATION_OFFERED = "resignation_offered"  # a resignation awaits acceptance or refusal (G12)
    OVER = "over"


class Action(StrEnum):
    """The actions of a game, as its history logs them (``{"action": …}``) and the club's log names them (stored as
    their values: old logs replay the same)."""

    OPENING_ROLL = "opening_roll"  # RULES G2/G3
    ROLL = "roll"  # G4
    PLAY = "play"  # G5–G10
    DOUBLE = "double"  # D1
    TAKE = "take"  # D2
    DROP = "drop"  # D2
    BEAVER = "beaver"  # D3
    RACCOON = "raccoon"  # D3
    RESIGN = "resign"  # G12
    ACCEPT_RESIGNATION = "accept_resignation"  # G12
    REJECT_RESIGNATION = "reject_resignation"  # G12
    FORFEIT = "forfeit"  # the club's time limit (A2, M5)


ACTIONS = tuple(Action)
"""Every action, in the order of :class:`Action`."""
_SIDE_ACTIONS = (Action.DOUBLE, Action.TAKE, Action.DROP, Action.BEAVER, Action.RACCOON, Action.ACCEPT_RESIGNATION,
                 Action.REJECT_RESIGNATION)  # fmt: skip
"""The actions whose history entry is only the side (:meth:`Game.apply` calls the method of that name)."""

_OFFER_PHASES = {
    Action.DOUBLE: Phase.CUBE_OFFERED, Action.BEAVER: Phase.BEAVER_OFFERED, Action.RACCOON: Phase.RACCOON_OFFERED,
}  # fmt: skip


def _check_side(side: Any) -> int:
    if side not in (0, 1) or isinstance(side, bool):
        raise GameError(f"a side is 0 or 1, not {side!r}")
    return side


def _passes(check: Callable[[int], None], side: int) -> bool:
    """Whether ``check(side)`` raises no :class:`BackgammonError`."""
    try:
        check(side)
    except BackgammonError:
        return False
    return True


class Game:
    """A game between sides 0 and 1 under ``rules`` (:class:`~backgammon.rules.RuleSet`).

    ``match_length`` 0 is money play; otherwise ``score`` is the match score before this game (points of sides 0
    and 1, each below the length) and ``crawford_game`` marks the Crawford game (RULES M3). In money play ``score`` is
    only carried into the Match ID (points won so far by each side, ≥ 0). Raises
    :class:`~backgammon.errors.RuleSetError` when the rule set does not suit the match (RULES G3, M2) or a Crawford game
    is asked outside a match with the Crawford rule, :class:`GameError` for an impossible score.

    State (read it; change it only through the actions): ``phase``; ``on_roll`` (the side whose turn it is, ``None``
    before the opening roll); ``turn`` (the side that must act now: the player on roll, the side answering an offer,
    ``None`` when the opening roll is due or the game is over); ``dice``; ``cube`` (:class:`~backgammon.cube.Cube`),
    also as ``cube_value``/``cube_owner``/``offered_value``; ``resignation`` (``(side, level)`` or ``None``);
    ``opening_ties``; ``result`` (:class:`GameResult` or ``None``); ``history`` (list of action dicts).
    """

    def __init__(
        self, rules: RuleSet, match_length: int = 0, score: tuple[int, int] = (0, 0), crawford_game: bool = False
    ) -> None:
        if not isinstance(rules, RuleSet):
            raise RuleSetError(f"a game needs a RuleSet (see RuleSet.preset), not {type(rules).__name__}")
        rules.validate_for(match_length)
        try:
            score = (int(score[0]), int(score[1]))
        except (TypeError, ValueError, IndexError):
            raise GameError(f"a score is two whole numbers, not {score!r}") from None
        if min(score) < 0:
            raise GameError(f"scores are ≥ 0, not {score}")
        if match_length and max(score) >= match_length:
            raise GameError(f"at {score[0]}-{score[1]} a {match_length}-point match is already over (RULES M1)")
        if crawford_game and not (match_length and rules.crawford):
            raise RuleSetError("a Crawford game exists only in a match played with the Crawford rule (RULES M3)")
        if crawford_game and match_length - 1 not in score:
            raise GameError(f"a Crawford game is played when a side has {match_length - 1} points (RULES M3)")
        self.rules = rules
        self.match_length = match_length
        self.score: tuple[int, int] = score
        self.crawford_game = bool(crawford_game)
        self.phase = Phase.OPENING
        self.on_roll: int | None = None
        self.turn: int | None = None
        self.dice: tuple[int, int] | None = None
        self.cube = Cube()
        self.opening_ties = 0
        self.resignation: tuple[int, int] | None = None
        self.result: GameResult | None = None
        self.history: list[dict[str, Any]] = []
        self._board = Position.initial(rules.variant)  # seen by side 0 (RULES G1)
        self._resume: Phase | None = None  # the phase a refused resignation returns to
        self._legal: tuple[Any, list[Play]] | None = None  # cache of legal plays for (board, on_roll, dice)

    # -- set-up from a position ---------------------------------------------------------------------------------
    @classmethod
    def from_position(
        cls,
        rules: RuleSet,
        position: Position,
        *,
        on_roll: int,
        dice: Sequence[int] | None = None,
        cube_value: int = 1,
        cube_owner: int | None = None,
        cube_turned: bool | None = None,
        match_length: int = 0,
        score: tuple[int, int] = (0, 0),
        crawford_game: bool = False,
    ) -> Game:
        """A game set up mid-way: ``position`` seen by ``on_roll``, who is to roll (``dice`` None: phase ROLL) or to
        play ``dice`` (phase PLAY). For worked positions, puzzles and tests.

        ``cube_turned`` (RULES D4) defaults to "the cube has an owner". Raises :class:`GameError` for a finished
        position, a side other than 0/1 or an impossible cube (a Crawford game has the cube at 1, centred, RULES M3;
        the cap, RULES D5), :class:`~backgammon.errors.InvalidDiceError` for bad dice, and what the constructor raises.
        The set-up is the first entry of ``history`` so that :meth:`replay_history` can rebuild the game.
        """
        game = cls(rules, match_length, score, crawford_game)
        entry = {
            "action": "setup",
            "board": (position if on_roll == 0 else position.swap()).position_id() if on_roll in (0, 1) else None,
            "on_roll": on_roll,
            "dice": None if dice is None else list(dice),
            "cube": {
                "value": cube_value,
                "owner": cube_owner,
                "turned": cube_owner is not None if cube_turned is None else bool(cube_turned),
            },
        }
        game._setup(entry)
        return game

    def _setup(self, entry: dict[str, Any]) -> None:
        if self.history or self.phase != Phase.OPENING:
            raise WrongPhaseError("a set-up can only be the first entry of a game's history")
        on_roll = _check_side(entry["on_roll"])
        board = Position.from_position_id(entry["board"])
        if board.is_over():
            raise GameError("the position is already over: a side has borne off all 15 checkers (RULES G11)")
        dice = None if entry["dice"] is None else check_dice(entry["dice"])
        spec = entry["cube"]
        value, owner = spec["value"], spec["owner"]
        if not isinstance(value, int) or value < 1 or owner not in (None, 0, 1):
            raise GameError(f"a cube has a value ≥ 1 and an owner None (centred), 0 or 1; got {value!r}, {owner!r}")
        if self.crawford_game and (value, owner) != (1, None):
            raise GameError("in the Crawford game the cube stays at 1, centred (RULES M3)")
        if self.rules.cube_cap is not None and value > self.rules.cube_cap:
            raise GameError(f"cube {value} is over this rule set's limit of {self.rules.cube_cap} (RULES D5)")
        self._board = board
        self.cube = Cube(value=value, owner=owner, turned=bool(spec["turned"]))
        self.on_roll = self.turn = on_roll
        self.dice = dice
        self.phase = Phase.PLAY if dice else Phase.ROLL
        self.history.append(_plain_copy(entry))

    # -- views ----------------------------------------------------------------------------------------------------
    def board_for(self, side: int) -> Position:
        """The position seen by ``side`` (its checkers as ``player``). Raises :class:`GameError` for a bad side."""
        _check_side(side)
        return self._board if side == 0 else self._board.swap()

    @property
    def position(self) -> Position:
        """The position seen by the player on roll (by side 0 before the opening roll)."""
        return self.board_for(0 if self.on_roll is None else self.on_roll)

    @property
    def cube_value(self) -> int:
        """The cube's face in the game, a power of two (an offer still pending is :attr:`offered_value`); the count
        that scores is :attr:`cube_count` (RULES D6)."""
        return self.cube.value

    @property
    def automatic_factor(self) -> int:
        """The automatic-double factor of add-one raises (RULES G3, 000 §20b), shown beside the cube; 1 without."""
        return self.cube.factor

    @property
    def cube_count(self) -> int:
        """The count in the game (000 §20): the cube's face times the automatic-double factor (RULES D6)."""
        return self.cube.count

    @property
    def cube_owner(self) -> int | None:
        """``None`` when the cube is centred, else the side that owns it (RULES D1)."""
        return self.cube.owner

    @property
    def offered_value(self) -> int | None:
        """The value a pending double/beaver/raccoon proposes, else ``None`` (RULES D1–D3)."""
        return self.cube.offered

    @property
    def automatic_raises(self) -> int:
        """How many opening ties raised the count this game (RULES G3)."""
        return self.cube.automatic_raises

    @property
    def is_over(self) -> bool:
        """True once the game has a result."""
        return self.phase == Phase.OVER

    def legal_plays(self) -> list[Play]:
        """The legal plays of the dice for the player on roll (RULES G4–G9); ``[]`` outside the PLAY phase.

        Each :class:`~backgammon.moves.Play` has the resulting position seen by the mover; when no move is possible
        the list holds one empty play (RULES G9), which :meth:`play` accepts.
        """
        if self.phase != Phase.PLAY:
            return []
        key = (self._board, self.on_roll, self.dice)
        if self._legal is None or self._legal[0] != key:
            plays = legal_plays(self.position, self.dice, high_die_first_in_bear_off=self.rules.bear_off_high_die_first)
            self._legal = (key, plays)
        return list(self._legal[1])

    # -- actions --------------------------------------------------------------------------------------------------
    def opening_roll(self, die0: int, die1: int) -> None:
        """Each side rolls one die: ``die0`` for side 0, ``die1`` for side 1 (RULES G2).

        A tie re-rolls; in money play it may raise the count automatically (RULES G3, the cube stays centred). Else
        the higher die moves first and plays both numbers: phase PLAY with ``dice == (die0, die1)``. Raises
        :class:`WrongPhaseError` outside the opening, :class:`~backgammon.errors.InvalidDiceError` for bad dice.
        """
        self._check_opening_roll()
        die0, die1 = check_dice((die0, die1))
        self.history.append({"action": Action.OPENING_ROLL, "dice": [die0, die1]})
        if die0 == die1:
            self.opening_ties += 1
            self.cube = cubes.automatic_raise(self.cube, self.rules, self.match_length)
            return
        self.on_roll = self.turn = 0 if die0 > die1 else 1
        self.dice = (die0, die1)
        self.phase = Phase.PLAY

    def roll(self, side: int, dice: Sequence[int] | str) -> None:
        """``side`` rolls ``dice`` (two values 1–6, e.g. ``(3, 1)`` or ``"31"``), passing up a double: phase PLAY.

        Raises :class:`WrongTurnError` if ``side`` is not on roll, :class:`WrongPhaseError` outside ROLL,
        :class:`~backgammon.errors.InvalidDiceError` for bad dice.
        """
        self._check_roll(side)
        dice = check_dice(dice)
        self.history.append({"action": Action.ROLL, "side": side, "dice": list(dice)})
        self.dice = dice
        self.phase = Phase.PLAY

    def play(self, side: int, play: Play | str, *, route_policy: str | None = None) -> Play:
        """``side`` plays the dice (RULES G4–G10): a :class:`~backgammon.moves.Play` or notation (``"24/18 13/11"``,
        parsed by :func:`backgammon.notation.parse_play` with ``route_policy``, by default the rule set's
        ``joined_move_routes``).

        An empty play (``""``, ``"pass"`` or a Play without moves) is accepted exactly when no move is possible
        (RULES G9) and passes the turn. A play is final (RULES G10); the game ends when the mover bears off his last
        checker (RULES G11). Returns the play applied. Raises :class:`WrongTurnError`/:class:`WrongPhaseError`,
        :class:`~backgammon.errors.InvalidPlayError`, :class:`~backgammon.errors.IllegalPlayError` (``.legal`` lists
        the legal plays) or :class:`~backgammon.errors.AmbiguousPlayError`.
        """
        self._check_play(side)
        chosen = self._resolve_play(play, route_policy)
        self.history.append(
            {
                "action": Action.PLAY,
                "side": side,
                "moves": [[m.source, m.target, m.die, bool(m.hit)] for m in chosen.moves],
            }
        )
        self._after_play(side, chosen.position)
        return chosen

    def _after_play(self, side: int, mover_view: Position) -> None:
        """The board after ``side``'s play (seen by him); the game ends when he has borne off his last checker
        (RULES G11), else the other side is to roll."""
        self._board = mover_view if side == 0 else mover_view.swap()
        self.dice = None
        if mover_view.off_player == CHECKERS:
            loser_board = mover_view.opponent
            level = result_level(loser_board)
            self.on_roll = 1 - side
            cube = self.cube
            if self.rules.point_game:
                count = point_game_count(loser_board)
                points = count * cube.count if self.rules.point_game_counts_cube else count
                self._finish(GameResult(side, points, RESULT_KINDS[level], Ending.PLAY, cube.value, count, cube.factor))
            else:
                multiplier = cubes.scored_multiplier(level, cube, self.rules, self.match_length)
                self._finish(
                    GameResult(
                        side,
                        cube.count * multiplier,
                        RESULT_KINDS[level],
                        Ending.PLAY,
                        cube.value,
                        multiplier,
                        cube.factor,
                    )
                )
        else:
            self.on_roll = self.turn = 1 - side
            self.phase = Phase.ROLL

    def impose(self, side: int, action: str, moves: Sequence[tuple[int, int]] = ()) -> None:
        """Apply what another program recorded although these rules refuse it — only for importing a real site's
        match file leniently (``replay(..., lenient=True)``; GNU Backgammon's importer takes such doubles and
        warns about such plays); play on the club's tables never calls it.

        ``action`` ``"double"``: ``side``, on roll and before rolling, turns the cube although the cube rules refuse
        it (the Crawford game RULES M3, a dead cube M4, the cap D5, a cube the opponent owns D1). ``"play"``:
        ``side``, having rolled, plays ``moves`` (``(source, target)`` pairs, 25 = bar, 0 = off) one by one as
        written, each needing a checker to move and a point not held by two or more opposing checkers, although
        they are not a legal play of the dice (RULES G4–G8). The history records the entry with ``"imposed": True``
        so that :meth:`replay_history` rebuilds it. Raises :class:`WrongTurnError`/:class:`WrongPhaseError` when
        it is not ``side``'s turn for that action, :class:`IllegalPlayError` for a move that cannot be made at all,
        :class:`GameError` for another ``action``."""
        _check_side(side)
        if action == Action.DOUBLE:
            self._require_phase(Phase.ROLL)
            self._require_turn(side, "a double is offered only on one's own turn, RULES D1")
            self.history.append({"action": Action.DOUBLE, "side": side, "imposed": True})
            self.cube = cubes.offer_double(self.cube, side)
            self.phase = Phase.CUBE_OFFERED
            self.turn = 1 - side
            return
        if action != Action.PLAY:
            raise GameError(f"only a double or a play can be imposed, not {action!r}")
        self._check_play(side)
        position = self.position
        made: list[list] = []
        for source, target in moves:
            if not (1 <= source <= 25 and 0 <= target < source) or not position.player[source - 1]:
                raise IllegalPlayError(f"{source}/{target}: no checker of side {side} can move there", [])
            if target and position.opponent[24 - target] >= 2:
                raise IllegalPlayError(f"{source}/{target}: point {target} is held by the opponent", [])
            position, hit = apply_move(position, source, target)
            made.append([source, target, source - target, hit])
        self.history.append({"action": Action.PLAY, "side": side, "moves": made, "imposed": True})
        self._after_play(side, position)

    def _resolve_play(self, play: Play | str, route_policy: str | None) -> Play:
        legal = self.legal_plays()
        if isinstance(play, str):  # parse_play also takes "" / "pass" exactly when no move is possible (RULES G9)
            parsed = parse_play(
                self.position,
                self.dice,
                play,
                route_policy=route_policy or self.rules.joined_move_routes,
                high_die_first_in_bear_off=self.rules.bear_off_high_die_first,
            )
            return self._match_legal(parsed, legal)
        if isinstance(play, Play):
            return self._match_legal(play, legal)
        raise InvalidPlayError(f"a play is notation text or a Play, not {type(play).__name__}")

    def _match_legal(self, play: Play, legal: list[Play]) -> Play:
        for candidate in legal:
            if candidate.position == play.position:
                if _moves_reach(self.position, play.moves) == play.position:
                    return play
                return candidate
        texts = [p.notation() for p in legal]
        raise IllegalPlayError(
            f"that play is not legal with {dice_text(self.dice)}; the legal plays are: {', '.join(texts)}",
            texts,
        )

    def double(self, side: int) -> None:
        """``side`` offers a double before rolling (RULES D1): phase CUBE_OFFERED, the opponent to answer.

        Raises :class:`WrongTurnError` (not his turn), :class:`WrongPhaseError` (after rolling, or no turn now),
        :class:`~backgammon.errors.CubeError` (Crawford game M3, the opponent owns the cube D1, cap D5, dead cube M4).
        """
        self._check_double(side)
        self.history.append({"action": Action.DOUBLE, "side": side})
        self.cube = cubes.offer_double(self.cube, side)
        self.phase = Phase.CUBE_OFFERED
        self.turn = 1 - side

    def take(self, side: int) -> None:
        """``side`` accepts the pending double, beaver or raccoon (RULES D2, D3): the cube takes the offered value,
        owned by the side that was doubled; the doubler then rolls (phase ROLL). Raises :class:`WrongPhaseError`
        (no offer) or :class:`WrongTurnError` (not the side to answer)."""
        self._check_take(side)
        self.history.append({"action": Action.TAKE, "side": side})
        self.cube = cubes.take(self.cube)
        self.phase = Phase.ROLL
        self.turn = self.on_roll

    def drop(self, side: int) -> GameResult:
        """``side`` refuses the pending offer and loses the value before it (RULES D2; a dropped beaver costs the
        beavered-from value, D3): the game is over. Returns the result. Raises :class:`WrongPhaseError`,
        :class:`WrongTurnError`, or :class:`~backgammon.errors.CubeError` for a compulsory raccoon (option)."""
        self._check_drop(side)
        self.history.append({"action": Action.DROP, "side": side})
        points = cubes.drop_cost(self.cube)
        face = self.cube.value
        return self._finish(GameResult(1 - side, points, RESULT_KINDS[1], Ending.DROP, face, 1, self.cube.factor))

    def beaver(self, side: int) -> None:
        """``side`` beavers the double (RULES D3, 003 Atlanta 5.3): takes it, keeps the cube and turns it again at
        once; the doubler answers (phase BEAVER_OFFERED). Raises :class:`WrongPhaseError`, :class:`WrongTurnError`,
        :class:`~backgammon.errors.CubeError` (beavers off, cap, or a raccoon without further redoubles)."""
        self._check_beaver(side)
        self.history.append({"action": Action.BEAVER, "side": side})
        self.cube = cubes.beaver(self.cube, self.rules)
        self.phase = Phase.BEAVER_OFFERED
        self.turn = self.cube.responder

    def raccoon(self, side: int) -> None:
        """The doubler (``side``) raccoons the beaver (RULES D3, 003 Atlanta 5.4): accepts it and turns the cube once
        more, ownership unchanged; the beaverer answers (phase RACCOON_OFFERED). Raises :class:`WrongPhaseError`,
        :class:`WrongTurnError`, :class:`~backgammon.errors.CubeError` (raccoons off, cap)."""
        self._check_raccoon(side)
        self.history.append({"action": Action.RACCOON, "side": side})
        self.cube = cubes.raccoon(self.cube, self.rules)
        self.phase = Phase.RACCOON_OFFERED
        self.turn = self.cube.responder

    def _finish(self, result: GameResult) -> GameResult:
        if result.ended_by != Ending.RESIGNATION:
            self.resignation = None
        self._resume = None
        self.cube = Cube(
            value=self.cube.value,
            owner=self.cube.owner,
            turned=self.cube.turned,
            automatic_raises=self.cube.automatic_raises,
            factor=self.cube.factor,
        )
        self.result = result
        self.phase = Phase.OVER
        self.turn = None
        self.dice = None
        return result

    def legal_actions(self, side: int) -> set[Action]:
        """Names of the action methods ``side`` may call now (a subset of :data:`ACTIONS`).

        ``"resign"`` means a resignation of some level may be offered; ``"opening_roll"`` is listed for both sides
        while the opening roll is due. Raises :class:`GameError` for a side other than 0/1.
        """
        _check_side(side)
        return {action for action, check in self._checks().items() if _passes(check, side)}

    def allows(self, side: int, action: Action) -> bool:
        """Whether ``side`` may call ``action`` now (one of :meth:`legal_actions`, checked alone). Raises
        :class:`GameError` for a side other than 0/1."""
        _check_side(side)
        return _passes(self._checks()[action], side)

    def _checks(self) -> dict[Action, Callable[[int], None]]:
        return {
            Action.OPENING_ROLL: self._check_opening_roll,
            Action.ROLL: self._check_roll,
            Action.PLAY: self._check_play,
            Action.DOUBLE: self._check_double,
            Action.TAKE: self._check_take,
            Action.DROP: self._check_drop,
            Action.BEAVER: self._check_beaver,
            Action.RACCOON: self._check_raccoon,
            Action.RESIGN: self._check_resign,
            Action.ACCEPT_RESIGNATION: self._check_answer_resignation,
            Action.REJECT_RESIGNATION: self._check_answer_resignation,
            Action.FORFEIT: self._check_forfeit,
        }

    # -- checks (each raises, none changes anything) --------------------------------------------------------------
    def _require_phase(self, *phases: Phase) -> None:
        if self.phase not in phases:
            raise WrongPhaseError(self._phase_message(phases))

    def _phase_message(self, wanted: Sequence[Phase]) -> str:
        now = {
            Phase.OPENING: "the opening roll is due",
            Phase.ROLL: f"side {self.on_roll} is to roll or double",
            Phase.PLAY: f"side {self.on_roll} has rolled {self.dice} and must play",
            Phase.CUBE_OFFERED: f"a double to {self.cube.offered} awaits side {self.turn}'s answer",
            Phase.BEAVER_OFFERED: f"a beaver to {self.cube.offered} awaits side {self.turn}'s answer",
            Phase.RACCOON_OFFERED: f"a raccoon to {self.cube.offered} awaits side {self.turn}'s answer",
            Phase.RESIGNATION_OFFERED: f"a resignation awaits side {self.turn}'s answer",
            Phase.OVER: "the game is over",
        }[self.phase]
        return f"not now: {now} (this needs: {', '.join(p.value for p in wanted)})"

    def _require_turn(self, side: int, who: str = "on roll") -> None:
        if side != self.turn:
            raise WrongTurnError(f"it is side {self.turn}'s turn, not side {side}'s ({who})")

    def _check_opening_roll(self, side: int | None = None) -> None:
        self._require_phase(Phase.OPENING)

    def _check_roll(self, side: int) -> None:
        _check_side(side)
        if self.phase in (Phase.ROLL, Phase.PLAY):
            self._require_turn(side)
        self._require_phase(Phase.ROLL)

    def _check_play(self, side: int) -> None:
        _check_side(side)
        if self.phase in (Phase.ROLL, Phase.PLAY):
            self._require_turn(side)
        if self.phase == Phase.ROLL:
            raise WrongPhaseError(f"side {side} must roll (or double) before playing")
        self._require_phase(Phase.PLAY)

    def _check_double(self, side: int) -> None:
        _check_side(side)
        if self.phase in (Phase.ROLL, Phase.PLAY):
            self._require_turn(side, "a double is offered only on one's own turn, RULES D1")
        if self.phase == Phase.PLAY:
            raise WrongPhaseError("a double may be offered only before rolling (RULES D1, 000 §20, 003 5.4)")
        self._require_phase(Phase.ROLL)
        cubes.check_double(
            self.cube,
            side,
            self.rules,
            match_length=self.match_length,
            score=self.score,
            crawford_game=self.crawford_game,
        )

    def _check_answer(self, side: int) -> None:
        _check_side(side)
        self._require_phase(Phase.CUBE_OFFERED, Phase.BEAVER_OFFERED, Phase.RACCOON_OFFERED)
        self._require_turn(side, "the side the cube was turned to answers")

    def _check_take(self, side: int) -> None:
        self._check_answer(side)
        cubes.check_answer(self.cube, "take", self.rules)

    def _check_drop(self, side: int) -> None:
        self._check_answer(side)
        cubes.check_answer(self.cube, cubes.Answer.DROP, self.rules)

    def _check_beaver(self, side: int) -> None:
        self._check_answer(side)
        cubes.check_answer(self.cube, "beaver", self.rules)

    def _check_raccoon(self, side: int) -> None:
        self._check_answer(side)
        cubes.check_answer(self.cube, "raccoon", self.rules)

    # -- resigning and forfeiting ---------------------------------------------------------------------------------
    def max_resignation(self, side: int) -> int:
        """The most ``side`` can still lose by the board (RULES G11; positions.json BG15): 1 once he has borne off a
        checker; 3 while a backgammon is possible (a checker on the bar or in the opponent's home board, or contact
        left); else 2. A resignation above it concedes more than the board can take."""
        board = self.board_for(side)
        if board.off_player:
            return 1
        if any(board.player[18:25]) or not board.is_race():
            return 3
        return 2

    def _check_resign(self, side: int, level: int = 3) -> None:
        _check_side(side)
        if level not in RESULT_KINDS or isinstance(level, bool):
            raise GameError(f"a resignation is of level 1 (single), 2 (gammon) or 3 (backgammon), not {level!r}")
        self._require_phase(Phase.ROLL, Phase.PLAY)
        declined = self.declined_resignation(side)
        if level <= declined:
            raise GameError(f"the opponent has already declined your offer of a {RESULT_KINDS[declined]} this turn: "
                            "offer a higher one, or play on (RULES G12)")  # fmt: skip

    def declined_resignation(self, side: int) -> int:
        """The highest resignation level ``side`` offered and the opponent refused since the last play (the current
        turn), 0 if none — as GNU Backgammon, which refuses such an offer again until the turn passes (RULES G12)."""
        declined = 0
        for later, entry in zip(reversed(self.history), reversed([None, *self.history[:-1]]), strict=True):
            if later["action"] in (Action.PLAY, Action.OPENING_ROLL):
                break
            if later["action"] == Action.REJECT_RESIGNATION and entry is not None and entry["action"] == Action.RESIGN \
                    and entry["side"] == side:  # fmt: skip
                declined = max(declined, entry["level"])
        return declined

    def _check_answer_resignation(self, side: int) -> None:
        _check_side(side)
        self._require_phase(Phase.RESIGNATION_OFFERED)
        self._require_turn(side, "the opponent of the resigning side answers")

    def _check_forfeit(self, side: int) -> None:
        _check_side(side)
        if self.phase == Phase.OVER:
            raise WrongPhaseError("the game is already over")

    def resign(self, side: int, level: int) -> None:
        """``side`` offers to resign a single game (``level`` 1), a gammon (2) or a backgammon (3) (RULES G12,
        003 4.9); the opponent accepts or refuses. Allowed to either side while a turn is in progress (phases ROLL and
        PLAY). Raises :class:`GameError` for a bad level, :class:`WrongPhaseError` otherwise."""
        self._check_resign(side, level)
        self.history.append({"action": Action.RESIGN, "side": side, "level": level})
        self._resume = self.phase
        self.resignation = (side, level)
        self.phase = Phase.RESIGNATION_OFFERED
        self.turn = 1 - side

    def accept_resignation(self, side: int) -> GameResult:
        """``side`` accepts the opponent's resignation (RULES G12): he wins level × cube (the Jacoby rule, D4, may
        count it single). Returns the result. Raises :class:`WrongPhaseError`/:class:`WrongTurnError`."""
        self._check_answer_resignation(side)
        self.history.append({"action": Action.ACCEPT_RESIGNATION, "side": side})
        assert self.resignation is not None  # set while a resignation is offered
        level = self.resignation[1]
        multiplier = cubes.scored_multiplier(level, self.cube, self.rules, self.match_length, resignation=True)
        cube = self.cube
        return self._finish(
            GameResult(
                side,
                cube.count * multiplier,
                RESULT_KINDS[level],
                Ending.RESIGNATION,
                cube.value,
                multiplier,
                cube.factor,
            )
        )

    def reject_resignation(self, side: int) -> None:
        """``side`` refuses the opponent's resignation (RULES G12): the game goes on where it was; the offer binds
        nobody. Raises :class:`WrongPhaseError`/:class:`WrongTurnError`."""
        self._check_answer_resignation(side)
        self.history.append({"action": Action.REJECT_RESIGNATION, "side": side})
        assert self._resume is not None  # set while a resignation is offered
        self.phase = self._resume
        self._resume = None
        self.resignation = None
        self.turn = self.on_roll

    def forfeit(self, side: int) -> GameResult:
        """``side`` loses the game now (time limits, RULES A2/M5; any phase but OVER) at the current cube, the Jacoby
        rule (D4) applying, valued as the rule set's ``forfeit_valuation`` says: ``"board"`` (default) per RULES G11 on
        the board as it stands (gammon if he has borne off none, backgammon if also on the bar or in the winner's home
        board), so timing out never saves a gammon; ``"single"`` a single game (Backgammon Galaxy's "Losses 1
        point"); ``"worst"`` the worst result still possible for him (:meth:`max_resignation`). Returns the result."""
        self._check_forfeit(side)
        result = self.forfeit_result(side)
        self.history.append({"action": Action.FORFEIT, "side": side})
        return self._finish(result)

    def forfeit_result(self, side: int) -> GameResult:
        """What :meth:`forfeit` would score if ``side`` forfeited now, without forfeiting (a claim's terms, said
        before it is made). Raises :class:`GameError` when the game cannot be forfeited."""
        self._check_forfeit(side)
        valuation = self.rules.forfeit_valuation
        if valuation == ForfeitValuation.WORST:
            level = self.max_resignation(side)
        elif valuation == ForfeitValuation.BOARD:
            level = result_level(self.board_for(side).player)
        else:
            level = 1
        multiplier = cubes.scored_multiplier(level, self.cube, self.rules, self.match_length)
        cube = self.cube
        return GameResult(
            1 - side, cube.count * multiplier, RESULT_KINDS[level], Ending.FORFEIT, cube.value, multiplier, cube.factor
        )

    # -- replay ---------------------------------------------------------------------------------------------------
    def apply(self, action: dict[str, Any]) -> None:
        """Re-apply one ``history`` entry (as :attr:`history` records it): ``{"action": name, ...}``.

        Raises what the action raises, and :class:`GameError` for an unknown or malformed entry.
        """
        try:
            name = action["action"]
            if name == "setup":
                self._setup(action)
            elif name == Action.OPENING_ROLL:
                self.opening_roll(*action["dice"])
            elif name == Action.ROLL:
                self.roll(action["side"], action["dice"])
            elif action.get("imposed"):
                imposed = [(m[0], m[1]) for m in action.get("moves", ())]
                self.impose(action["side"], name, imposed)
            elif name == Action.PLAY:
                side = action["side"]
                self._check_play(side)
                moves = tuple(Move(m[0], m[1], m[2], bool(m[3])) for m in action["moves"])
                reached = _moves_reach(self.position, moves)
                if reached is None:
                    raise IllegalPlayError(f"the recorded moves {action['moves']} cannot be played here")
                self.play(side, Play(moves, reached, start=self.position))
            elif name == Action.RESIGN:
                self.resign(action["side"], action["level"])
            elif name in _SIDE_ACTIONS:
                getattr(self, name)(action["side"])
            elif name == Action.FORFEIT:
                self.forfeit(action["side"])
            else:
                raise GameError(f"unknown action {name!r}; actions are: setup, {', '.join(ACTIONS)}")
        except (KeyError, TypeError, IndexError) as error:
            raise GameError(f"malformed action {action!r}: {error!r}") from None

    @classmethod
    def replay_history(
        cls,
        rules: RuleSet,
        history: Sequence[dict[str, Any]],
        match_length: int = 0,
        score: tuple[int, int] = (0, 0),
        crawford_game: bool = False,
    ) -> Game:
        """Rebuild a game by applying ``history`` (a list like :attr:`history`) to a fresh game; the result equals the
        game that recorded it. Raises what the first failing action raises."""
        game = cls(rules, match_length, score, crawford_game)
        for action in history:
            game.apply(action)
        return game

    # -- gnubg Match ID -------------------------------------------------------------------------------------------
    def score_after(self) -> tuple[int, int]:
        """The score once this game's result is added (the score before it while the game runs); in a match capped
        at the length when ``rules.cap_match_score`` (RULES M1, case SC19)."""
        if self.result is None:
            return self.score
        score = list(self.score)
        score[self.result.winner] += self.result.points
        if self.match_length and self.rules.cap_match_score:
            score[self.result.winner] = min(score[self.result.winner], self.match_length)
        return (score[0], score[1])

    def match_state(self) -> MatchState:
        """The gnubg Match ID fields of this game (:func:`backgammon.ids.encode_match_id` encodes them).

        ``on_roll`` is the side whose turn it is (after a game won by play, the loser's, as gnubg), ``turn`` the side
        to decide (the answerer of an offer or a resignation). Before the opening roll side 0 is shown on roll. The
        score is :meth:`score_after` (with ``cap_match_score`` off it may pass the length: the ID gnubg 1.07 itself
        writes then, and refuses to read, case SC19). The cube is its power-of-two face: the automatic-double factor of add-one raises
        (RULES G3, D6) has no place in a Match ID and is left out (gnubg knows no such factor).
        """
        on_roll = 0 if self.on_roll is None else self.on_roll
        turn = on_roll if self.turn is None else self.turn
        game_state = GAME_PLAYING
        resignation = 0
        if self.phase == Phase.RESIGNATION_OFFERED and self.resignation is not None:
            resignation = self.resignation[1]
        if self.result is not None:
            ended = self.result.ended_by
            game_state = {Ending.PLAY: GAME_OVER, Ending.DROP: GAME_DROP}.get(ended, GAME_RESIGNED)
            if ended in (Ending.RESIGNATION, Ending.FORFEIT):
                resignation = KIND_LEVELS[self.result.kind]
        return MatchState(
            cube=self.cube.value,
            cube_owner=self.cube.owner,
            on_roll=on_roll,
            crawford=self.crawford_game,
            game_state=game_state,
            turn=turn,
            double_offered=self.cube.offered is not None,
            resignation=resignation,
            dice=self.dice or (0, 0),
            match_length=self.match_length,
            score=self.score_after(),
            jacoby=self.rules.jacoby and not self.match_length,
        )

    # -- JSON -----------------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole state as a JSON-friendly dict, deterministic (same state → same dict, same key order);
        :meth:`from_json` rebuilds an equal game. ``board`` is the gnubg Position ID seen by side 0. The ``history``
        list is new but its entries are shared with the game (recorded entries are never changed): treat them as
        read-only, as the game does."""
        return {
            "version": 1,
            "rules": self.rules.to_json(),
            "match_length": self.match_length,
            "score": list(self.score),
            "crawford_game": self.crawford_game,
            "phase": self.phase.value,
            "on_roll": self.on_roll,
            "turn": self.turn,
            "dice": None if self.dice is None else list(self.dice),
            "board": self._board.position_id(),
            "cube": self.cube.to_json(),
            "opening_ties": self.opening_ties,
            "resignation": None
            if self.resignation is None
            else {
                "side": self.resignation[0],
                "level": self.resignation[1],
                "resume": None if self._resume is None else self._resume.value,
            },
            "result": None if self.result is None else self.result.to_json(),
            "history": list(self.history),  # entries are never mutated once recorded, so they can be shared
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        """Rebuild a game from :meth:`to_json`. Raises :class:`GameError` (or a more specific
        :class:`~backgammon.errors.BackgammonError`) for a malformed or inconsistent record."""
        try:
            game = cls(
                RuleSet.from_json(data["rules"]), data["match_length"], tuple(data["score"]), data["crawford_game"]
            )
            game.phase = Phase(data["phase"])
            game.on_roll = None if data["on_roll"] is None else _check_side(data["on_roll"])
            game.turn = None if data["turn"] is None else _check_side(data["turn"])
            game.dice = None if data["dice"] is None else check_dice(data["dice"])
            game._board = Position.from_position_id(data["board"])
            game.cube = Cube.from_json(data["cube"])
            game.opening_ties = int(data["opening_ties"])
            resignation = data["resignation"]
            if resignation is not None:
                game.resignation = (_check_side(resignation["side"]), int(resignation["level"]))
                game._resume = None if resignation["resume"] is None else Phase(resignation["resume"])
            game.result = None if data["result"] is None else GameResult.from_json(data["result"])
            game.history = list(data["history"])
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, BackgammonError):
                raise
            raise GameError(f"malformed game record: {error!r}") from None
        if (game.phase == Phase.OVER) != (game.result is not None):
            raise GameError("inconsistent game record: a game is over exactly when it has a result")
        playing = game.phase == Phase.PLAY or (game.phase == Phase.RESIGNATION_OFFERED and game._resume == Phase.PLAY)
        if playing != (game.dice is not None):
            raise GameError("inconsistent game record: dice are set exactly while they wait to be played")
        if (game.phase in _OFFER_PHASES.values()) != (game.cube.offered is not None):
            raise GameError("inconsistent game record: a cube offer needs an offer phase")
        if (game.phase == Phase.RESIGNATION_OFFERED) != (game._resume is not None):
            raise GameError("inconsistent game record: a pending resignation needs the phase to return to")
        return game

    # -- equality -------------------------------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"Game(phase={self.phase.value}, on_roll={self.on_roll}, turn={self.turn}, dice={self.dice}, "
            f"cube={self.cube.value}/{self.cube.owner}, result={self.result})"
        )


def _plain_copy(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars), much faster than ``copy.deepcopy``."""
    if isinstance(value, dict):
        return {key: _plain_copy(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain_copy(item) for item in value]
    return value


def _moves_reach(position: Position, moves: Sequence[Move]) -> Position | None:
    """The position after playing ``moves`` one by one (no legality check), or ``None`` if a move has no checker."""
    try:
        for move in moves:
            if not 1 <= move.source <= 25 or not 0 <= move.target <= 24:
                return None
            if position.player[move.source - 1] == 0:
                return None
            position, _ = apply_move(position, move.source, move.target)
    except BackgammonError:
        return None
    return position
