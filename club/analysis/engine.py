"""The engine interface: what analysis, hints and the practice opponent ask of a backgammon engine.

One small interface, :class:`Engine`, with two questions, each for a position seen by the player on roll
(:class:`~backgammon.position.Position`) and a :class:`CubeState` (cube, score, match or money):

- :meth:`Engine.best_plays` — every legal play of the dice with its cubeful equity, best first (:class:`PlayEquity`);
- :meth:`Engine.cube_decision` — the cube equities before the roll: no double, double/take, double/pass
  (:class:`CubeEquities`).

Equities are from the view of the player on roll, per unit of the cube's value, and normalised for match play
(EMG, "equivalent money game": 2 × match-winning chance scaled so winning the cube's value is +1), as GNU
Backgammon's normalised figures are; in money play they are money equities. The rules engine (``backgammon/``) stays
engine-free: the engines live behind this interface in :mod:`club.analysis.sage` (Open Sage, ``bgsage``). RULES
D1–D4 (cube), M3 (Crawford), M4 (dead cube) decide what the engine is asked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from backgammon.moves import Play
from backgammon.position import Position


@dataclass(frozen=True, slots=True)
class CubeState:
    """The cube and score around a decision, from the player on roll's view.

    ``value`` the cube (≥ 1); ``owner`` ``None`` centred, ``0`` the player on roll, ``1`` the opponent (RULES D1);
    ``match_length`` 0 for money play; ``score`` (player on roll, opponent) before the game; ``crawford`` the
    Crawford game (RULES M3); ``jacoby``/``beavers`` the money-play options (RULES D3, D4).
    """

    value: int = 1
    owner: int | None = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False

    @property
    def away(self) -> tuple[int, int]:
        """Points each side still needs (player on roll, opponent); ``(0, 0)`` in money play."""
        if not self.match_length:
            return (0, 0)
        return (self.match_length - self.score[0], self.match_length - self.score[1])

    def swapped(self) -> CubeState:
        """The same state seen by the other side (owner and score exchanged)."""
        owner = None if self.owner is None else 1 - self.owner
        return CubeState(
            self.value,
            owner,
            self.match_length,
            (self.score[1], self.score[0]),
            self.crawford,
            self.jacoby,
            self.beavers,
        )


@dataclass(frozen=True, slots=True)
class PlayEquity:
    """One legal play with its equity: ``play`` (:class:`~backgammon.moves.Play`), ``equity`` (cubeful, the mover's
    view, per cube unit) and ``loss`` (equity given up against the best play, ≥ 0)."""

    play: Play
    equity: float
    loss: float


@dataclass(frozen=True, slots=True)
class CubeEquities:
    """The cube decision of the player on roll: equities (his view, per cube unit) of ``no_double``,
    ``double_take`` and ``double_pass`` (+1 in money play). ``double_take`` is the beaver's equity when the opponent
    should beaver (``beaver`` True, money play with beavers, RULES D3)."""

    no_double: float
    double_take: float
    double_pass: float
    beaver: bool = False

    @property
    def double_equity(self) -> float:
        """What doubling is worth: the opponent answers best, so the lower of take and pass."""
        return min(self.double_take, self.double_pass)

    @property
    def best(self) -> float:
        """The equity of the right cube action (the higher of no double and double)."""
        return max(self.no_double, self.double_equity)

    @property
    def should_double(self) -> bool:
        """True when doubling is right (it gains against playing on)."""
        return self.double_equity > self.no_double

    @property
    def should_take(self) -> bool:
        """True when the opponent should take a double (take is better for him than the pass)."""
        return self.double_take <= self.double_pass

    def action(self) -> str:
        """The right action in words: ``no double, take`` / ``double, take`` / ``double, pass`` / ``too good, pass`` /
        ``no double, pass`` / ``double, beaver``."""
        answer = "beaver" if self.beaver else ("take" if self.should_take else "pass")
        if self.should_double:
            return f"double, {answer}"
        if not self.should_take and self.no_double >= self.double_pass:
            return "too good, pass"
        return f"no double, {answer}"


class Engine(Protocol):
    """What an engine provides (see the module docstring). ``name`` and ``level`` say which engine and how deep."""

    name: str
    level: str

    def best_plays(self, position: Position, dice: tuple[int, int], cube: CubeState) -> list[PlayEquity]:
        """Every legal play of ``dice`` from ``position`` (RULES G4–G9) with its equity, best first; one empty play
        when nothing can be played (G9). Raises :class:`~backgammon.errors.InvalidDiceError` for bad dice."""
        ...

    def cube_decision(self, position: Position, cube: CubeState) -> CubeEquities:
        """The cube equities before the roll for the player on roll (RULES D1–D4)."""
        ...
