"""Match ratings with the FIBS formula (RULES A3), per club.

FIBS ``help formula``: two players rated ``r1`` and ``r2`` play an ``n``-point match.

- ``D = |r1 − r2|``; ``P_upset = 1 / (10^(D·√n / 2000) + 1)`` — the probability that the underdog wins;
- ``P = 1 − P_upset`` if the underdog wins, ``P = P_upset`` if the favourite wins (with ``D = 0`` both are ½);
- each player's ``K = max(1, 5 − experience/100)``, where experience is the sum of the lengths of all matches he
  has finished (before this one);
- the winner gains ``4·K·√n·P`` (his own K), the loser loses ``4·K·√n·P`` (his own K).

Every player starts at 1500 with experience 0. Only one's own experience affects one's change, so while either
player has experience below 400 the two changes differ and ratings are not zero-sum. (MacFIBS's glossary writes
``K = max(1, 5 − (experience + n)/100)``; the server's own ``help formula`` text, used here, does not add ``n``.)
Ratings are kept unrounded; show them with two decimals as FIBS does.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

START_RATING = 1500.0
"""Every player's first rating."""

FULL_EXPERIENCE = 400
"""From this experience on, K is 1."""


def p_upset(difference: float, length: int) -> float:
    """The probability that the lower-rated player wins an ``length``-point match when the ratings differ by
    ``difference`` points: ``1 / (10^(D·√n/2000) + 1)``. Raises ``ValueError`` for a length below 1."""
    if length < 1:
        raise ValueError(f"a match is at least 1 point long, not {length}")
    return 1.0 / (10.0 ** (abs(difference) * math.sqrt(length) / 2000.0) + 1.0)


def k_factor(experience: int) -> float:
    """FIBS's experience factor ``max(1, 5 − experience/100)``: 5 for a new player, 1 from 400 on."""
    return max(1.0, 5.0 - experience / 100.0)


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one match does: ``gain`` (added to the winner) and ``loss`` (taken from the loser), both ≥ 0; ``p`` the
    FIBS ``P`` (the probability that the winner would have lost)."""

    gain: float
    loss: float
    p: float


def rating_change(
    winner_rating: float, loser_rating: float, length: int, winner_experience: int, loser_experience: int
) -> RatingChange:
    """The FIBS change for a ``length``-point match that the player rated ``winner_rating`` won (see the module
    docstring). Raises ``ValueError`` for a length below 1 or a negative experience."""
    if winner_experience < 0 or loser_experience < 0:
        raise ValueError("experience is the sum of match lengths played, never negative")
    upset = p_upset(winner_rating - loser_rating, length)
    p = upset if winner_rating > loser_rating else 1.0 - upset
    scale = 4.0 * math.sqrt(length) * p
    return RatingChange(scale * k_factor(winner_experience), scale * k_factor(loser_experience), p)


@dataclass(frozen=True, slots=True)
class Rating:
    """A member's match rating: ``rating``, ``experience`` (sum of the lengths of his finished matches), ``wins`` and
    ``losses`` (matches), and ``last_change`` (his change in his latest match, 0 before any)."""

    member: int
    rating: float = START_RATING
    experience: int = 0
    wins: int = 0
    losses: int = 0
    last_change: float = 0.0

    @property
    def matches(self) -> int:
        """Matches finished."""
        return self.wins + self.losses


def rate(matches: Iterable[tuple[int, int, int]], start: dict[int, Rating] | None = None) -> dict[int, Rating]:
    """Every player's :class:`Rating` after ``matches`` — ``(winner, loser, length)`` in the order they ended — each
    moving both ratings by :func:`rating_change`, from the ratings ``start`` (default: none yet; not changed).
    Players not in any match are not listed."""
    ratings: dict[int, Rating] = dict(start or {})
    for winner, loser, length in matches:
        w = ratings.get(winner) or Rating(winner)
        l_ = ratings.get(loser) or Rating(loser)
        change = rating_change(w.rating, l_.rating, length, w.experience, l_.experience)
        ratings[winner] = Rating(
            winner, w.rating + change.gain, w.experience + length, w.wins + 1, w.losses, change.gain
        )
        ratings[loser] = Rating(
            loser, l_.rating - change.loss, l_.experience + length, l_.wins, l_.losses + 1, -change.loss
        )
    return ratings
