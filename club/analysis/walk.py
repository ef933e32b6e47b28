"""Walk a game's history and list the decisions its players made (what the analysis grades).

A :class:`~backgammon.game.Game` records every action in ``history``; :func:`decisions` re-applies them to a fresh
game with the same rules, length, score and Crawford flag (:meth:`~backgammon.game.Game.apply`, so the rules engine
checks each one again) and, before each action, notes the decision it answers:

- ``"play"`` — a checker play: the position and dice of the mover, the play made, how many legal plays there were
  (one = forced, RULES G9/G10);
- ``"double"`` — the player on roll could double (RULES D1; not in the Crawford game M3, not with the opponent
  owning the cube, not a dead cube M4) and either doubled or rolled;
- ``"answer"`` — the side doubled took (a beaver counts as a take, RULES D3) or passed.
- ``"roll"`` — a roll of the dice, for luck (not a decision).

The same walk serves a match file replayed by :func:`backgammon.replay.replay` and a game played in the club.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from backgammon.cube import double_refusal
from backgammon.game import Action, Game, Phase
from backgammon.moves import Play, apply_move
from backgammon.position import Position

from .engine import CubeState


class DecisionKind(StrEnum):
    """What a :class:`Decision` decided (see the module docstring); stored in reviews by value."""

    PLAY = "play"
    DOUBLE = "double"
    ANSWER = "answer"
    ROLL = "roll"


PLAY, DOUBLE, ANSWER, ROLL = DecisionKind.PLAY, DecisionKind.DOUBLE, DecisionKind.ANSWER, DecisionKind.ROLL


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision (or roll) of a game.

    ``kind`` one of ``"play"``, ``"double"``, ``"answer"``, ``"roll"``; ``side`` the side (0/1) who decided (for
    ``"answer"`` the side doubled; for ``"roll"`` the roller); ``index`` the position of the action in the game's
    history; ``position`` and ``cube`` from the view of the player on roll (the mover, the doubler — for an answer
    too, so the equities read from his side); ``dice`` (``"play"`` and ``"roll"``); ``play`` the play made;
    ``choices`` the number of legal plays; ``acted`` True when he doubled (``"double"``) or took (``"answer"``);
    ``opening`` for the opening roll (luck has 15 rolls then, RULES G2).
    """

    kind: DecisionKind
    side: int
    index: int
    position: Position
    cube: CubeState
    dice: tuple[int, int] | None = None
    play: Play | None = None
    choices: int = 0
    acted: bool = False
    opening: bool = False

    @property
    def made(self) -> Play:
        """The play made (a ``play`` decision). Raises ``ValueError`` for a decision that made none."""
        if self.play is None:
            raise ValueError(f"a {self.kind} decision makes no checker play")
        return self.play

    @property
    def rolled(self) -> tuple[int, int]:
        """The dice of a ``play`` or ``roll`` decision. Raises ``ValueError`` for a decision with none."""
        if self.dice is None:
            raise ValueError(f"a {self.kind} decision has no dice")
        return self.dice


def cube_state(game: Game, side: int) -> CubeState:
    """The :class:`~club.analysis.engine.CubeState` of ``game`` seen by ``side`` (owner and score from his view)."""
    owner = game.cube_owner
    relative = None if owner is None else (0 if owner == side else 1)
    score = game.score if side == 0 else (game.score[1], game.score[0])
    return CubeState(
        value=game.cube_value,
        owner=relative,
        match_length=game.match_length,
        score=(score[0], score[1]),
        crawford=game.crawford_game,
        jacoby=bool(game.rules.jacoby) and not game.match_length,
        beavers=bool(game.rules.beavers) and not game.match_length,
    )


def decisions(game: Game) -> list[Decision]:
    """Every decision and roll of ``game`` in order (see the module docstring). Raises what
    :meth:`~backgammon.game.Game.apply` raises if the history does not replay (it always does for a real game)."""
    fresh = Game(game.rules, game.match_length, game.score, game.crawford_game)
    found: list[Decision] = []
    history = game.history
    for index, action in enumerate(history):
        name = Action(action["action"])
        if fresh.phase == Phase.ROLL and name in (Action.ROLL, Action.DOUBLE):
            side = _on_roll(fresh)
            if name is Action.DOUBLE or _may_double(fresh, side):
                doubled = name is Action.DOUBLE
                found.append(Decision(DOUBLE, side, index, fresh.position, cube_state(fresh, side), acted=doubled))
            if name is Action.ROLL:
                found.append(
                    Decision(ROLL, side, index, fresh.position, cube_state(fresh, side), dice=tuple(action["dice"]))
                )
        elif fresh.phase == Phase.CUBE_OFFERED and name in (Action.TAKE, Action.DROP, Action.BEAVER):
            state = cube_state(fresh, _on_roll(fresh))
            found.append(Decision(ANSWER, action["side"], index, fresh.position, state, acted=name is not Action.DROP))
        elif name is Action.OPENING_ROLL and action["dice"][0] != action["dice"][1]:
            die0, die1 = action["dice"]
            side = 0 if die0 > die1 else 1
            dice = (die0, die1) if side == 0 else (die1, die0)
            found.append(
                Decision(ROLL, side, index, fresh.board_for(side), cube_state(fresh, side), dice=dice, opening=True)
            )
        fresh.apply(action)
        if fresh.phase == Phase.PLAY and name in (Action.ROLL, Action.OPENING_ROLL):
            side = _on_roll(fresh)
            plays = fresh.legal_plays()
            nxt = history[index + 1] if index + 1 < len(history) else None
            if nxt is not None and nxt["action"] == Action.PLAY:
                start = fresh.position
                found.append(
                    Decision(
                        PLAY,
                        side,
                        index + 1,
                        start,
                        cube_state(fresh, side),
                        dice=fresh.dice,
                        play=_chosen(start, nxt, plays),
                        choices=len(plays),
                    )
                )
    return found


def _on_roll(game: Game) -> int:
    """The side on roll of a game past its opening roll (which always has one)."""
    side = game.on_roll
    if side is None:
        raise ValueError("the game has no side on roll before its opening roll")
    return side


def _may_double(game: Game, side: int) -> bool:
    """True when ``side``, on roll before rolling, may turn the cube (RULES D1, D5, M3, M4): what
    :meth:`~backgammon.game.Game.legal_actions` says of ``"double"`` then, without checking every other action."""
    refusal = double_refusal(
        game.cube, side, game.rules, match_length=game.match_length, score=game.score, crawford_game=game.crawford_game
    )
    return refusal is None


def _chosen(start: Position, action: dict, plays: list[Play]) -> Play:
    """The legal play the history's ``play`` entry made (matched by the moves' end position)."""
    reached = start
    for source, target, *_ in action["moves"]:
        reached, _hit = apply_move(reached, source, target)
    for play in plays:
        if play.position == reached:
            return play
    return plays[0]
