"""The record of a game of backgammon (DESIGN "storage"): re-applying ``history`` entries
(:meth:`GameRecordMixin.apply`, :meth:`GameRecordMixin.replay_history`), the gnubg Match ID fields
(:meth:`GameRecordMixin.match_state`, RULES M1, M3, D4) and the JSON form (:meth:`GameRecordMixin.to_json` /
:meth:`GameRecordMixin.from_json`) of :class:`~backgammon.game.Game`. Split out of :mod:`backgammon.game`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .cube import Cube
from .errors import BackgammonError, GameError, IllegalPlayError
from .ids import GAME_DROP, GAME_OVER, GAME_PLAYING, GAME_RESIGNED, MatchState
from .moves import Move, Play, apply_move, check_dice
from .phases import _OFFER_PHASES, ACTIONS, Phase, _check_side
from .position import Position
from .result import KIND_LEVELS, GameResult
from .rules import RuleSet

if TYPE_CHECKING:
    from .game import Game


class GameRecordMixin:
    """Replay, Match ID and JSON of :class:`~backgammon.game.Game` (a mixin: ``cls`` is the game class, and every
    entry re-applied goes through the game's own actions, so a record that breaks a rule raises as play would)."""

    # -- replay ---------------------------------------------------------------------------------------------------
    def apply(self, action: dict[str, Any]) -> None:
        """Re-apply one ``history`` entry (as :attr:`history` records it): ``{"action": name, ...}``.

        Raises what the action raises, and :class:`GameError` for an unknown or malformed entry.
        """
        try:
            name = action["action"]
            if name == "setup":
                self._setup(action)
            elif name == "opening_roll":
                self.opening_roll(*action["dice"])
            elif name == "roll":
                self.roll(action["side"], action["dice"])
            elif action.get("imposed"):
                moves = [(m[0], m[1]) for m in action.get("moves", ())]
                self.impose(action["side"], name, moves)
            elif name == "play":
                side = action["side"]
                self._check_play(side)
                moves = tuple(Move(m[0], m[1], m[2], bool(m[3])) for m in action["moves"])
                reached = _moves_reach(self.position, moves)
                if reached is None:
                    raise IllegalPlayError(f"the recorded moves {action['moves']} cannot be played here")
                self.play(side, Play(moves, reached, start=self.position))
            elif name == "resign":
                self.resign(action["side"], action["level"])
            elif name in ("double", "take", "drop", "beaver", "raccoon", "accept_resignation", "reject_resignation"):
                getattr(self, name)(action["side"])
            elif name == "forfeit":
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

    # -- gnubg Match ID ---------------------------------------------------------------------------------------------
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
        if self.phase == Phase.RESIGNATION_OFFERED:
            resignation = self.resignation[1]
        if self.result is not None:
            ended = self.result.ended_by
            game_state = {"play": GAME_OVER, "drop": GAME_DROP}.get(ended, GAME_RESIGNED)
            if ended in ("resignation", "forfeit"):
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

    # -- JSON -------------------------------------------------------------------------------------------------------
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
