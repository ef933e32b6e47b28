"""Screening finished games for clear errors, cheaply: the first step of the club quiz (:mod:`club.quiz`) and of a
member's blunders (:mod:`club.blunders`).

A game's screen lists every decision a quiz can ask about — a checker play with at least three legal plays, a cube
decision (double or roll, RULES D1) and an answer to a double (take or pass, RULES D2) — that lost at least
:data:`FLOOR`, as ``(loss, history index, side)``. The losses are the engine's at :data:`SCREEN_LEVEL` (Open Sage's
raw network, in a worker process: :func:`club.quiz.screen_task`): checker plays through
:meth:`~club.analysis.sage.SageEngine.play_losses` (the engine's own list of plays, ours not listed again), cube
decisions as :mod:`club.analysis.grade` grades them.

A finished game never changes, so its screen is kept — in memory (:class:`ScreenCache`, one per
:class:`~club.analysis.pool.AnalysisPool`, keyed by match, game number and history length) and in the club's database
(:func:`storage.quizzes.keep_screens`, across restarts) — and the review computed when a match ends fills both with its
own losses (:func:`from_grades`): a quiz then screens only the games that no review and no earlier quiz has seen.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from backgammon.game import Game

from .grade import grade_answer, grade_double
from .walk import ANSWER, DOUBLE, PLAY, Decision, decisions

SCREEN_LEVEL = "1ply"
FLOOR = 0.04
"""The smallest loss a screen keeps: the lowest quiz threshold a club can set, and the blunders' floor."""
CACHE_GAMES = 5000
"""The most games a :class:`ScreenCache` keeps (the oldest are forgotten first)."""

Screened = list[tuple[float, int, int]]
"""A game's screen: ``(loss, history index, side)`` per decision that lost at least :data:`FLOOR`, costliest first."""
GameKey = tuple[int, int, int]
"""``(match id, game number, history length)``: a finished game's identity in a :class:`ScreenCache`."""


def askable(decision: Decision) -> bool:
    """True for a decision a quiz can ask about: a checker play with at least three legal plays, a cube decision,
    an answer to a double."""
    if decision.kind == PLAY:
        return decision.choices >= 3
    return decision.kind in (DOUBLE, ANSWER)


def game_key(match_id: int, number: int, game: dict | Game) -> GameKey:
    """The :data:`GameKey` of game ``number`` of match ``match_id`` (as stored, ``Game.to_json()``, or the game)."""
    history = game.history if isinstance(game, Game) else game.get("history", ())
    return (match_id, number, len(history))


def screen_game(engine, game_json: dict) -> Screened:
    """The :data:`Screened` list of one game (``Game.to_json()``) by ``engine`` (anything with ``play_losses`` and
    ``cube_decisions``: :class:`~club.analysis.sage.SageEngine`)."""
    found = [d for d in decisions(Game.from_json(game_json)) if askable(d)]
    plays = [d for d in found if d.kind == PLAY]
    cubes = [d for d in found if d.kind != PLAY]
    losses = engine.play_losses([(d.position, d.dice, d.cube, d.made.position) for d in plays])
    equities = engine.cube_decisions([(d.position, d.cube) for d in cubes])
    graded = list(zip(plays, losses, strict=True))
    for decision, cube in zip(cubes, equities, strict=True):
        grade = grade_double if decision.kind == DOUBLE else grade_answer
        graded.append((decision, grade(decision, cube).loss))
    kept = [(loss, d.index, d.side) for d, loss in graded if loss >= FLOOR]
    return sorted(kept, reverse=True)


def from_grades(grades: Sequence) -> Screened:
    """The :data:`Screened` list of one game from its review's grades (:class:`~club.analysis.grade.Grade`)."""
    kept = [(g.loss, g.decision.index, g.side) for g in grades if askable(g.decision) and g.loss >= FLOOR]
    return sorted(kept, reverse=True)


class ScreenCache:
    """The screens of finished games (:data:`GameKey` → :data:`Screened`), at most :data:`CACHE_GAMES`."""

    def __init__(self, limit: int = CACHE_GAMES) -> None:
        self.limit = limit
        self._games: OrderedDict[GameKey, Screened] = OrderedDict()

    def get(self, key: GameKey) -> Screened | None:
        """The screen of ``key``, or None when it was not screened (or was forgotten)."""
        return self._games.get(key)

    def put(self, key: GameKey, screened: Screened) -> None:
        """Keep the screen of ``key`` (forgetting the oldest beyond the limit)."""
        self._games[key] = screened
        self._games.move_to_end(key)
        while len(self._games) > self.limit:
            self._games.popitem(last=False)

    def __len__(self) -> int:
        return len(self._games)

    def keep_review(self, match_id: int, games: Sequence[Game], grades: Sequence) -> list[tuple[GameKey, Screened]]:
        """Keep the screens of finished match ``match_id`` from its review: ``games`` in order and their
        ``grades`` (each with ``game`` numbered from 1). Returns them (to be stored too)."""
        kept = [
            (game_key(match_id, number, game), from_grades([g for g in grades if g.game == number]))
            for number, game in enumerate(games, start=1)
        ]
        for key, screened in kept:
            self.put(key, screened)
        return kept
