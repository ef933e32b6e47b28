"""Resigning and forfeiting a game of backgammon (RULES G11, G12, D4, A2/M5): the actions of
:class:`~backgammon.game.Game` that end a game other than by play or a dropped cube — a resignation offered,
accepted or refused, a forfeit (time limits) — and :meth:`ResignationActions.max_resignation`, the most a side can
still lose by the board. Split out of :mod:`backgammon.game`."""

from __future__ import annotations

from . import cube as cubes
from .errors import GameError, WrongPhaseError
from .phases import Phase, _check_side
from .result import RESULT_KINDS, GameResult, result_level


class ResignationActions:
    """The resignation and forfeit actions of :class:`~backgammon.game.Game` and their checks (a mixin over the
    game's state; each check raises before anything changes, as every action of the game)."""

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

    def _check_resign(self, side: int, level: int = 1) -> None:
        _check_side(side)
        if level not in RESULT_KINDS or isinstance(level, bool):
            raise GameError(f"a resignation is of level 1 (single), 2 (gammon) or 3 (backgammon), not {level!r}")
        self._require_phase(Phase.ROLL, Phase.PLAY)

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
        self.history.append({"action": "resign", "side": side, "level": level})
        self._resume = self.phase
        self.resignation = (side, level)
        self.phase = Phase.RESIGNATION_OFFERED
        self.turn = 1 - side

    def accept_resignation(self, side: int) -> GameResult:
        """``side`` accepts the opponent's resignation (RULES G12): he wins level × cube (the Jacoby rule, D4, may
        count it single). Returns the result. Raises :class:`WrongPhaseError`/:class:`WrongTurnError`."""
        self._check_answer_resignation(side)
        self.history.append({"action": "accept_resignation", "side": side})
        level = self.resignation[1]
        multiplier = cubes.scored_multiplier(level, self.cube, self.rules, self.match_length, resignation=True)
        cube = self.cube
        return self._finish(
            GameResult(
                side, cube.count * multiplier, RESULT_KINDS[level], "resignation", cube.value, multiplier, cube.factor
            )
        )

    def reject_resignation(self, side: int) -> None:
        """``side`` refuses the opponent's resignation (RULES G12): the game goes on where it was; the offer binds
        nobody. Raises :class:`WrongPhaseError`/:class:`WrongTurnError`."""
        self._check_answer_resignation(side)
        self.history.append({"action": "reject_resignation", "side": side})
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
        self.history.append({"action": "forfeit", "side": side})
        valuation = self.rules.forfeit_valuation
        if valuation == "worst":
            level = self.max_resignation(side)
        elif valuation == "board":
            level = result_level(self.board_for(side).player)
        else:
            level = 1
        multiplier = cubes.scored_multiplier(level, self.cube, self.rules, self.match_length)
        cube = self.cube
        return self._finish(
            GameResult(
                1 - side, cube.count * multiplier, RESULT_KINDS[level], "forfeit", cube.value, multiplier, cube.factor
            )
        )
