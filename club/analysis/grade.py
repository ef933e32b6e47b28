"""Grade every decision of a game against the engine, and sum the grades per player.

For each :class:`~club.analysis.walk.Decision`:

- a checker play with more than one legal play: the equity lost against the engine's best play;
- a cube decision of the player on roll: the equity lost against the right action (no double, or double with the
  opponent's best answer); counted only when it was *close or actual*, as GNU Backgammon counts it — he doubled, or
  doubling was within 0.16 of the right action (a "very bad" error) — so a position far from the doubling window
  is an obvious decision and left out;
- an answer to a double: taking when the engine passes, or passing when it takes, loses the difference (a beaver is
  graded as a take, RULES D3);
- a roll: its luck, the equity after the best play of that roll minus the average over all rolls (15 rolls for the
  opening, RULES G2).

Equities are normalised per unit of the cube (EMG in a match), so the error rate is the same figure for a 1-point
match as for a long one: **no extra scaling for 1-point matches** (GNU Backgammon and eXtreme Gammon do not scale
either). Error rate ("PR") = 500 × equity lost ÷ counted decisions. Thresholds are GNU Backgammon's: an *error*
("bad") loses at least 0.08, a *blunder* ("very bad") at least 0.16; a *cube error* is a cube decision or answer that
loses anything.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from backgammon.moves import Play

from .engine import CubeEquities
from .walk import ANSWER, DOUBLE, PLAY, ROLL, Decision, DecisionKind

ERROR = 0.08  # GNU Backgammon's "bad"
BLUNDER = 0.16  # GNU Backgammon's "very bad"; also the window of a close cube decision
CUBE_EPSILON = 1e-6
MIN_DECISIONS = 20  # fewer counted decisions than this: the error rate is not worth a figure


@dataclass(slots=True)
class Grade:
    """One graded decision: the :class:`~club.analysis.walk.Decision`, ``loss`` (equity lost, ≥ 0), ``counted``
    (in the error rate), ``made``/``best`` (what was done and what the engine prefers, in words), their equities
    ``made_equity``/``best_equity`` (the decider's view), ``best_play`` (for a checker play), ``cube``
    (:class:`~club.analysis.engine.CubeEquities` of a cube decision) and ``luck`` (for a roll)."""

    decision: Decision
    loss: float = 0.0
    counted: bool = False
    made: str = ""
    best: str = ""
    made_equity: float = 0.0
    best_equity: float = 0.0
    best_play: Play | None = None
    cube: CubeEquities | None = None
    luck: float = 0.0
    game: int = 0

    @property
    def kind(self) -> DecisionKind:
        """The decision's kind."""
        return self.decision.kind

    @property
    def equities(self) -> CubeEquities:
        """The cube equities of a graded cube decision. Raises ``ValueError`` for another kind of grade."""
        if self.cube is None:
            raise ValueError(f"a {self.kind} grade has no cube equities")
        return self.cube

    @property
    def side(self) -> int:
        """The side (0/1) who decided."""
        return self.decision.side


@dataclass(slots=True)
class PlayerGrade:
    """One player's sums: ``decisions`` counted (non-forced plays + close or actual cube decisions), of which
    ``cube_decisions``; ``equity_lost``; ``errors``/``blunders`` (checker plays and cube decisions by GNU
    Backgammon's thresholds); ``cube_errors``; ``luck`` (sum of his rolls' luck, EMG)."""

    name: str
    decisions: int = 0
    cube_decisions: int = 0
    equity_lost: float = 0.0
    errors: int = 0
    blunders: int = 0
    cube_errors: int = 0
    luck: float = 0.0
    grades: list[Grade] = field(default_factory=list)

    @property
    def pr(self) -> float | None:
        """Error rate: 500 × equity lost ÷ counted decisions; ``None`` with no counted decision."""
        return 500 * self.equity_lost / self.decisions if self.decisions else None

    def costliest(self, count: int = 3) -> list[Grade]:
        """His ``count`` costliest checker plays (loss > 0), worst first."""
        plays = [g for g in self.grades if g.kind == PLAY and g.loss > 0]
        return sorted(plays, key=lambda g: -g.loss)[:count]

    def to_json(self) -> dict:
        """``{"pr", "decisions", "errors", "blunders", "cube_errors", "luck"}`` (PR and luck rounded)."""
        return {
            "pr": None if self.pr is None else round(self.pr, 2),
            "decisions": self.decisions,
            "errors": self.errors,
            "blunders": self.blunders,
            "cube_errors": self.cube_errors,
            "luck": round(self.luck, 3),
        }


def grade_play(decision: Decision, ranked) -> Grade:
    """Grade a checker play against ``ranked`` (the engine's :class:`~club.analysis.engine.PlayEquity` list)."""
    made = next((entry for entry in ranked if entry.play.position == decision.made.position), ranked[-1])
    best = ranked[0]
    return Grade(
        decision,
        loss=made.loss,
        counted=decision.choices > 1,
        made=decision.made.notation() or "no move",
        best=best.play.notation() or "no move",
        made_equity=made.equity,
        best_equity=best.equity,
        best_play=best.play,
    )


def grade_double(decision: Decision, cube: CubeEquities) -> Grade:
    """Grade the doubler's decision (RULES D1): doubled or not, against ``cube``."""
    made_equity = cube.double_equity if decision.acted else cube.no_double
    loss = max(0.0, cube.best - made_equity)
    close = cube.double_equity - cube.no_double > -BLUNDER
    return Grade(
        decision,
        loss=loss,
        counted=decision.acted or close or loss > CUBE_EPSILON,
        made="double" if decision.acted else "no double",
        best="double" if cube.should_double else "no double",
        made_equity=made_equity,
        best_equity=cube.best,
        cube=cube,
    )


def grade_answer(decision: Decision, cube: CubeEquities) -> Grade:
    """Grade the answer to a double (RULES D2, D3): the taker's equity is minus the doubler's."""
    made = -cube.double_take if decision.acted else -cube.double_pass
    best = max(-cube.double_take, -cube.double_pass)
    return Grade(
        decision,
        loss=max(0.0, best - made),
        counted=True,
        made="take" if decision.acted else "pass",
        best="take" if cube.should_take else "pass",
        made_equity=made,
        best_equity=best,
        cube=cube,
    )


def grade_roll(decision: Decision, equities: dict) -> Grade:
    """The luck of a roll: the equity of its best play minus the average over every roll (doublets weigh 1,
    other rolls 2; RULES G2 for the opening's 15)."""
    d1, d2 = decision.rolled
    key = (max(d1, d2), min(d1, d2))
    weights = {roll: (1 if roll[0] == roll[1] else 2) for roll in equities}
    average = sum(equities[r] * w for r, w in weights.items()) / sum(weights.values())
    return Grade(decision, luck=equities[key] - average, made_equity=equities[key], best_equity=average)


def grade_decisions(engine, found: Sequence[Decision], *, luck: bool = True) -> list[Grade]:
    """Grade ``found`` (one game's decisions, :func:`~club.analysis.walk.decisions`) with ``engine`` (a
    :class:`~club.analysis.sage.SageEngine` or anything with ``best_plays_many``, ``cube_decisions`` and
    ``roll_equities``), in order. ``luck=False`` skips the rolls (hints, the practice opponent)."""
    plays = [d for d in found if d.kind == PLAY and d.choices > 1]
    cubes = [d for d in found if d.kind in (DOUBLE, ANSWER)]
    ranked = dict(
        zip(map(id, plays), engine.best_plays_many([(d.position, d.dice, d.cube) for d in plays]), strict=True)
    )
    cube_eqs = dict(zip(map(id, cubes), engine.cube_decisions([(d.position, d.cube) for d in cubes]), strict=True))
    grades = []
    for decision in found:
        if decision.kind == PLAY:
            if decision.choices > 1:
                grades.append(grade_play(decision, ranked[id(decision)]))
            else:
                text = decision.made.notation() or "no move"
                grades.append(Grade(decision, made=text, best=text, best_play=decision.made))
        elif decision.kind == DOUBLE:
            grades.append(grade_double(decision, cube_eqs[id(decision)]))
        elif decision.kind == ANSWER:
            grades.append(grade_answer(decision, cube_eqs[id(decision)]))
        elif decision.kind == ROLL and luck:
            equities = engine.roll_equities(decision.position, decision.cube, opening=decision.opening)
            grades.append(grade_roll(decision, equities))
    return grades


def summarise(grades: Sequence[Grade], names: Sequence[str]) -> list[PlayerGrade]:
    """Per-player sums (see :class:`PlayerGrade`) of ``grades``, one entry per name (sides 0, 1)."""
    players = [PlayerGrade(name) for name in names]
    for grade in grades:
        player = players[grade.side]
        player.grades.append(grade)
        if grade.kind == ROLL:
            player.luck += grade.luck
            continue
        if not grade.counted:
            continue
        player.decisions += 1
        player.equity_lost += grade.loss
        if grade.kind in (DOUBLE, ANSWER):
            player.cube_decisions += 1
            if grade.loss > CUBE_EPSILON:
                player.cube_errors += 1
        if grade.loss >= BLUNDER:
            player.blunders += 1
        elif grade.loss >= ERROR:
            player.errors += 1
    return players


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Pearson's correlation of two equal-length series (``nan`` when either is constant or shorter than 2)."""
    try:
        return statistics.correlation(xs, ys)
    except statistics.StatisticsError:
        return float("nan")
