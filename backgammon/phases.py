"""The phases of a game of backgammon and the checks of who may act in which (RULES G2, G9, D1–D3, G12): :class:`Phase`,
:data:`ACTIONS` and :class:`PhaseChecks`, the checks :class:`~backgammon.game.Game` runs before every action (each
raises :class:`~backgammon.errors.WrongPhaseError`, :class:`~backgammon.errors.WrongTurnError`,
:class:`~backgammon.errors.CubeError` or :class:`~backgammon.errors.GameError`; none changes anything). Split out of
:mod:`backgammon.game`, which re-exports :class:`Phase` and :data:`ACTIONS`."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from . import cube as cubes
from .errors import BackgammonError, GameError, WrongPhaseError, WrongTurnError


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


_OFFER_PHASES = {"double": Phase.CUBE_OFFERED, "beaver": Phase.BEAVER_OFFERED, "raccoon": Phase.RACCOON_OFFERED}
ACTIONS = (
    "opening_roll",
    "roll",
    "play",
    "double",
    "take",
    "drop",
    "beaver",
    "raccoon",
    "resign",
    "accept_resignation",
    "reject_resignation",
    "forfeit",
)


def _check_side(side: Any) -> int:
    if side not in (0, 1) or isinstance(side, bool):
        raise GameError(f"a side is 0 or 1, not {side!r}")
    return side


class PhaseChecks:
    """The checks of :class:`~backgammon.game.Game` for the actions of the phases and turns (a mixin: it reads the
    game's ``phase``, ``turn``, ``on_roll``, ``dice``, ``cube``, ``rules`` and match fields), and
    :meth:`legal_actions`, which runs them all. The resignation and forfeit checks live with those actions
    (:class:`~backgammon.resignation.ResignationActions`)."""

    def legal_actions(self, side: int) -> set[str]:
        """Names of the action methods ``side`` may call now (a subset of :data:`ACTIONS`).

        ``"resign"`` means a resignation of some level may be offered; ``"opening_roll"`` is listed for both sides
        while the opening roll is due. Raises :class:`GameError` for a side other than 0/1.
        """
        _check_side(side)
        checks = {
            "opening_roll": self._check_opening_roll,
            "roll": self._check_roll,
            "play": self._check_play,
            "double": self._check_double,
            "take": self._check_take,
            "drop": self._check_drop,
            "beaver": self._check_beaver,
            "raccoon": self._check_raccoon,
            "resign": self._check_resign,
            "accept_resignation": self._check_answer_resignation,
            "reject_resignation": self._check_answer_resignation,
            "forfeit": self._check_forfeit,
        }
        allowed = set()
        for name, check in checks.items():
            try:
                check(side)
            except BackgammonError:
                continue
            allowed.add(name)
        return allowed

    # -- checks (each raises, none changes anything) ----------------------------------------------------------------
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
        cubes.check_answer(self.cube, "drop", self.rules)

    def _check_beaver(self, side: int) -> None:
        self._check_answer(side)
        cubes.check_answer(self.cube, "beaver", self.rules)

    def _check_raccoon(self, side: int) -> None:
        self._check_answer(side)
        cubes.check_answer(self.cube, "raccoon", self.rules)
