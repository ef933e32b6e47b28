"""A match to N points, or a money session with running totals (RULES M1–M5).

The match keeps the score and the Crawford bookkeeping and hands out games with the right score and flags
(:meth:`Match.new_game`); the club records each finished game's :class:`~backgammon.game.GameResult`
(:meth:`Match.record`). Sides are 0 and 1 as in :mod:`backgammon.game`.

- RULES M1: the first to reach N points wins; a game worth more than needed still ends the match. With
  ``rules.cap_match_score`` (default) the official score stops at N and the raw total is kept (case SC19).
- RULES M2: gammons always count in matches (the rule set may not hold Jacoby, :meth:`RuleSet.validate_for`).
- RULES M3: the game after a side first reaches N−1 is the Crawford game (no cube); later games are post-Crawford.
- RULES M4: the dead cube is decided per game from the score (:func:`backgammon.cube.is_dead`).
- RULES M5: lateness is handled by the club's time limits; :meth:`Match.forfeit` ends the match for the late side.
- Money sessions (length 0) have no end of their own; ``score`` is the running net total of each side (they sum to
  zero) and ``points_won`` what each side has won in all.
"""

from __future__ import annotations

from typing import Any

from .errors import GameError, RuleSetError, WrongPhaseError
from .game import Game, GameResult
from .rules import RuleSet


class Match:
    """A match to ``length`` points under ``rules``, or a money session when ``length`` is 0.

    ``score`` (keyword) starts the match at a given score: points won so far by sides 0 and 1 (in a money session,
    what each has won in all, ≥ 0); ``crawford_done`` says the Crawford game has already been played (RULES M3).
    Raises :class:`~backgammon.errors.RuleSetError` when the rule set does not suit a match (RULES G3, M2, D3, M6) and
    :class:`GameError` for an impossible starting score.
    """

    def __init__(
        self, rules: RuleSet, length: int, *, score: tuple[int, int] = (0, 0), crawford_done: bool = False
    ) -> None:
        if not isinstance(rules, RuleSet):
            raise RuleSetError(f"a match needs a RuleSet (see RuleSet.preset), not {type(rules).__name__}")
        rules.validate_for(length)
        try:
            raw = (int(score[0]), int(score[1]))
        except (TypeError, ValueError, IndexError):
            raise GameError(f"a score is two whole numbers, not {score!r}") from None
        if min(raw) < 0:
            raise GameError(f"scores are ≥ 0, not {raw}")
        if length and min(raw) >= length:
            raise GameError(f"at {raw[0]}-{raw[1]} both sides have already won a {length}-point match")
        if length > 1 and rules.crawford and not crawford_done and min(raw) == length - 1:
            raise GameError(
                f"at {raw[0]}-{raw[1]} in a {length}-point match the Crawford game has been played "
                "(RULES M3): pass crawford_done=True"
            )
        self.rules = rules
        self.length = length
        self.raw_score: tuple[int, int] = raw
        self.games: list[GameResult] = []
        self.crawford_done = bool(crawford_done) and bool(length) and rules.crawford
        self.forfeited_by: int | None = None

    # -- state ----------------------------------------------------------------------------------------------------
    @property
    def is_money(self) -> bool:
        """True for a money session (no length)."""
        return self.length == 0

    @property
    def score(self) -> tuple[int, int]:
        """Match: the score of sides 0 and 1, capped at the length when ``rules.cap_match_score`` (RULES M1, SC19).
        Money session: the running net totals (won minus lost; they sum to zero)."""
        a, b = self.raw_score
        if self.is_money:
            return (a - b, b - a)
        if self.rules.cap_match_score:
            return (min(a, self.length), min(b, self.length))
        return (a, b)

    @property
    def points_won(self) -> tuple[int, int]:
        """Points won in all by sides 0 and 1 (uncapped)."""
        return self.raw_score

    @property
    def is_over(self) -> bool:
        """True when a side has reached the length (RULES M1) or the match was forfeited (M5); never for money."""
        if self.forfeited_by is not None:
            return True
        return bool(self.length) and max(self.raw_score) >= self.length

    @property
    def winner(self) -> int | None:
        """The side that won the match, or ``None`` while it goes on (and always in a money session)."""
        if self.forfeited_by is not None:
            return 1 - self.forfeited_by
        if not self.is_over:
            return None
        return 0 if self.raw_score[0] >= self.length else 1

    def is_crawford(self) -> bool:
        """True when the next (or current, not yet recorded) game is the Crawford game (RULES M3, 003 5.5): the match
        uses the Crawford rule, a side has N−1 points and the Crawford game has not been played."""
        return (
            self.length > 1  # in a 1-point match nobody "reaches" N−1: it is where both start
            and self.rules.crawford
            and not self.crawford_done
            and not self.is_over
            and max(self.raw_score) == self.length - 1
        )

    @property
    def crawford_game_next(self) -> bool:
        """Same as :meth:`is_crawford`."""
        return self.is_crawford()

    @property
    def post_crawford(self) -> bool:
        """True once the Crawford game has been played and the match goes on (RULES M3): doubling is allowed again."""
        return self.crawford_done and not self.is_over

    def game_score(self) -> tuple[int, int]:
        """The score a new game starts from: the match score, or in money play the points won (for the Match ID)."""
        return self.raw_score if self.is_money else self.score

    # -- actions --------------------------------------------------------------------------------------------------
    def new_game(self) -> Game:
        """A fresh game at the opening roll with the cube at 1, centred (003 5.2), the current score and the Crawford
        flag (RULES M3). Raises :class:`WrongPhaseError` when the match is over (RULES M1)."""
        self._require_going()
        return Game(self.rules, self.length, self.game_score(), crawford_game=self.is_crawford())

    def record(self, result: GameResult) -> tuple[int, int]:
        """Add a finished game's result and return the new :attr:`score` (RULES M1, M3).

        The winner scores ``result.points``; the game that was the Crawford game marks the Crawford game played.
        Raises :class:`WrongPhaseError` when the match is over (a duplicate result after the last game, case BG21) and
        :class:`GameError` for a malformed result.
        """
        self._require_going()
        if not isinstance(result, GameResult) or result.winner not in (0, 1) or result.points < 0:
            raise GameError(f"a game result with a winner 0/1 and points ≥ 0 is needed, not {result!r}")
        was_crawford = self.is_crawford()
        raw = list(self.raw_score)
        raw[result.winner] += result.points
        self.raw_score = (raw[0], raw[1])
        self.games.append(result)
        if was_crawford:
            self.crawford_done = True
        return self.score

    def forfeit(self, side: int) -> None:
        """``side`` forfeits the match (RULES M5: lateness beyond the club's limits, A2); the other side wins.
        Raises :class:`GameError` in a money session (forfeit the game instead) or for a bad side, and
        :class:`WrongPhaseError` when the match is over."""
        if self.is_money:
            raise GameError("a money session has no match to forfeit: forfeit the game (Game.forfeit)")
        if side not in (0, 1) or isinstance(side, bool):
            raise GameError(f"a side is 0 or 1, not {side!r}")
        self._require_going()
        self.forfeited_by = side

    def _require_going(self) -> None:
        if self.is_over:
            a, b = self.score
            raise WrongPhaseError(f"the match is over ({a}-{b}, side {self.winner} won): no more games (RULES M1)")

    # -- JSON -------------------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The match as a JSON-friendly dict (deterministic); :meth:`from_json` rebuilds an equal match."""
        return {
            "version": 1,
            "rules": self.rules.to_json(),
            "length": self.length,
            "raw_score": list(self.raw_score),
            "crawford_done": self.crawford_done,
            "forfeited_by": self.forfeited_by,
            "games": [result.to_json() for result in self.games],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        """Inverse of :meth:`to_json`. Raises :class:`GameError`/:class:`RuleSetError` for a malformed record."""
        try:
            rules = RuleSet.from_json(data["rules"])
            match = cls(rules, data["length"])
            match.raw_score = (int(data["raw_score"][0]), int(data["raw_score"][1]))
            match.crawford_done = bool(data["crawford_done"])
            forfeited = data["forfeited_by"]
            if forfeited not in (None, 0, 1):
                raise GameError(f"forfeited_by is None, 0 or 1, not {forfeited!r}")
            match.forfeited_by = forfeited
            match.games = [GameResult.from_json(item) for item in data["games"]]
        except (KeyError, TypeError, ValueError, IndexError) as error:
            if isinstance(error, GameError | RuleSetError):
                raise
            raise GameError(f"malformed match record: {error!r}") from None
        return match

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        kind = "money session" if self.is_money else f"{self.length}-point match"
        return f"Match({kind}, score={self.score}, games={len(self.games)})"
