"""How a game of backgammon ends and what it scores (RULES G11, G12, D2, D6, M6): :class:`GameResult` and the board
scoring of the loser's checkers (:func:`result_level`, :func:`point_game_count`). Split out of :mod:`backgammon.game`,
which re-exports every name here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .errors import GameError
from .position import CHECKERS

RESULT_KINDS = {1: "single", 2: "gammon", 3: "backgammon"}
KIND_LEVELS = {kind: level for level, kind in RESULT_KINDS.items()}


class Ending(StrEnum):
    """How a game ended (RULES G11, G12, D2; A2 for a forfeit); stored as its value."""

    PLAY = "play"
    DROP = "drop"
    RESIGNATION = "resignation"
    FORFEIT = "forfeit"


ENDINGS = tuple(Ending)


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended (RULES G11, G12, D2, D6).

    ``winner``: side 0/1. ``points``: what the winner scores — ``cube × multiplier × factor`` (RULES D6; before any
    match cap; with the Point Game and ``point_game_counts_cube`` off, just the count). ``kind``: ``"single"``,
    ``"gammon"`` or ``"backgammon"`` as the board (or the resignation, or the forfeit) stood — a dropped double is
    ``"single"``. ``ended_by``: an :class:`Ending`. ``cube``: the cube's face
    that counted (a power of two). ``multiplier``: the result multiplier that counted (1/2/3; 1 when the Jacoby rule
    applied, D4; the Point Game count, M6). ``factor``: the automatic-double factor of add-one raises (RULES G3,
    000 §20b; 1 without them), stored only when not 1 so that older results read unchanged.
    """

    winner: int
    points: int
    kind: str
    ended_by: Ending
    cube: int
    multiplier: int
    factor: int = 1

    @property
    def loser(self) -> int:
        """The side that lost."""
        return 1 - self.winner

    @property
    def counted_single(self) -> bool:
        """A gammon or backgammon scored as a single game: the Jacoby rule with the cube never turned (RULES D4)."""
        return counted_single(self.kind, self.multiplier)

    def to_json(self) -> dict[str, Any]:
        """The fields as a JSON-friendly dict."""
        return {
            "winner": self.winner,
            "points": self.points,
            "kind": self.kind,
            "ended_by": self.ended_by,
            "cube": self.cube,
            "multiplier": self.multiplier,
            **({"factor": self.factor} if self.factor != 1 else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameResult:
        """Inverse of :meth:`to_json`; raises :class:`GameError` for a malformed record."""
        try:
            result = cls(
                winner=data["winner"],
                points=int(data["points"]),
                kind=data["kind"],
                ended_by=Ending(data["ended_by"]),
                cube=int(data["cube"]),
                multiplier=int(data["multiplier"]),
                factor=int(data.get("factor", 1)),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise GameError(f"malformed game result {data!r}: {error}") from None
        if result.winner not in (0, 1) or result.kind not in KIND_LEVELS or result.ended_by not in ENDINGS:
            raise GameError(f"impossible game result {data!r}")
        return result


def counted_single(kind: str, multiplier: int | None) -> bool:
    """Whether a result of ``kind`` scored with ``multiplier`` (None: not known) counted as a single game — a
    gammon or backgammon under the Jacoby rule with the cube never turned (RULES D4)."""
    return kind != RESULT_KINDS[1] and multiplier == 1


def kind_words(kind: str, multiplier: int | None = None) -> str:
    """``kind`` for people, saying when it counted single: ``gammon, counted single (Jacoby)`` (RULES D4)."""
    return f"{kind}, counted single (Jacoby)" if counted_single(kind, multiplier) else kind


# -- board scoring (RULES G11, M6) --------------------------------------------------------------------------------
def result_level(loser_board: Sequence[int]) -> int:
    """RULES G11 for a loser's checkers (25 counts from the loser's own view, index 24 = bar): 1 single if he has
    borne off any, else 2 gammon, or 3 backgammon if he also has a checker on the bar or in the winner's home board
    (the loser's points 19–24) (000 §19, 001 §19, 004)."""
    if sum(loser_board) < CHECKERS:
        return 1
    if any(loser_board[18:25]):
        return 3
    return 2


def point_game_count(loser_board: Sequence[int]) -> int:
    """RULES M6 (000 §21): per loser's checker left, 1 in his home board (his points 1–6), 2 in his outer board
    (7–12), 3 in the winner's outer board (13–18), 4 in the winner's home board (19–24) or on the bar."""
    weights = [1] * 6 + [2] * 6 + [3] * 6 + [4] * 6 + [4]
    return sum(count * weight for count, weight in zip(loser_board, weights, strict=True))
