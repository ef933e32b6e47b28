"""A whole match (or money session) analysed: every game's decisions graded, summed per player.

:func:`analyse_games` grades a list of :class:`~backgammon.game.Game` (one worker task per game across an
:class:`~club.analysis.pool.AnalysisPool`, or in this process without one); :func:`analyse_record` replays a match
file first (:func:`backgammon.replay.replay`, the project's own reader). The result, :class:`MatchAnalysis`, says
when its figures would mislead: a match abandoned before its end, or a player with fewer than
:data:`~club.analysis.grade.MIN_DECISIONS` counted decisions (his error rate is then not given).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from backgammon.game import Game
from backgammon.matfile import MatchRecord
from backgammon.replay import replay

from ..wording import plural
from .grade import MIN_DECISIONS, Grade, PlayerGrade, grade_decisions, summarise
from .walk import decisions

DEFAULT_LEVEL = "2ply"


def grade_game_task(game_json: dict, level: str = DEFAULT_LEVEL, luck: bool = True) -> list[Grade]:
    """Worker task: grade one game (``Game.to_json()``) with this process's engine at ``level``."""
    from .pool import engine

    game = Game.from_json(game_json)
    return grade_decisions(engine(level), decisions(game), luck=luck)


@dataclass(slots=True)
class MatchAnalysis:
    """The analysis of a match: ``names`` (sides 0, 1), ``length`` (0 = money), ``players`` (one
    :class:`~club.analysis.grade.PlayerGrade` per side), ``games`` analysed, ``level`` (engine depth), ``notes``
    (why figures are missing or partial: abandoned, too short, games that could not be replayed)."""

    names: tuple[str, str]
    length: int
    players: list[PlayerGrade]
    games: int
    level: str
    notes: list[str] = field(default_factory=list)

    def pr(self, side: int) -> float | None:
        """The error rate of ``side``, or ``None`` when too few decisions make it meaningless."""
        player = self.players[side]
        return player.pr if player.decisions >= MIN_DECISIONS else None

    def to_json(self) -> dict:
        """``{"players": {NAME: {"pr", "decisions", "errors", "blunders", "cube_errors", "luck"}}, "notes": [...],
        "engine": ..., "games": N}`` — ``pr`` is ``null`` where :meth:`pr` is ``None``."""
        players = {}
        for side, player in enumerate(self.players):
            figures = player.to_json()
            if self.pr(side) is None:
                figures["pr"] = None
            players[player.name] = figures
        return {"players": players, "notes": list(self.notes), "engine": f"Open Sage {self.level}", "games": self.games}

    def lines(self) -> list[str]:
        """The analysis for people, a few lines (one per player, then the notes)."""
        out = [
            f"{'match to ' + str(self.length) if self.length else 'money session'}, {plural(self.games, 'game')} "
            f"analysed by Open Sage {self.level}"
        ]
        out += [self.player_line(side) for side in range(len(self.players))]
        out += [f"note: {note}" for note in self.notes]
        return out

    def player_line(self, side: int, *, markdown: bool = False) -> str:
        """One player's figures in one line: his PR (``—`` with no counted decision), decisions, errors, blunders,
        cube errors and luck; ``markdown``: the PR in bold and ``·`` between the figures (the review's)."""
        player, pr = self.players[side], self.pr(side)
        shown = "PR —" if pr is None else f"PR **{pr:.2f}**" if markdown else f"PR {pr:.2f}"
        sep = " · " if markdown else ", "
        cube = "" if markdown else f" ({player.cube_decisions} cube)"
        figures = (plural(player.errors, "error"), plural(player.blunders, "blunder"),
                   plural(player.cube_errors, "cube error"), f"luck {player.luck:+.2f}")  # fmt: skip
        return f"{player.name}: {shown} over {plural(player.decisions, 'decision')}{cube}{sep}" + sep.join(figures)


def analyse_games(
    games: Sequence[Game],
    names: Sequence[str],
    *,
    length: int = 0,
    pool=None,
    level: str = DEFAULT_LEVEL,
    finished: bool = True,
    luck: bool = True,
) -> MatchAnalysis:
    """Grade every decision of ``games`` (in order) and sum them per player. ``pool`` (an
    :class:`~club.analysis.pool.AnalysisPool`) spreads the games over its workers; without it the work runs here.
    ``finished`` False notes the match as abandoned. Raises :class:`~club.analysis.AnalysisUnavailableError` without
    the engine."""
    payloads = [game.to_json() for game in games]
    if pool is None:
        graded = [grade_game_task(p, level, luck) for p in payloads]
    else:
        graded = pool.map(grade_game_task, payloads, [level] * len(payloads), [luck] * len(payloads))
    grades: list[Grade] = []
    for number, game_grades in enumerate(graded, start=1):
        for grade in game_grades:
            grade.game = number
        grades += game_grades
    analysis = MatchAnalysis((names[0], names[1]), length, summarise(grades, names), len(payloads), level)
    if not finished:
        analysis.notes.append("the match was not played to its end: the figures cover only the part played")
    for player in analysis.players:
        if player.decisions < MIN_DECISIONS:
            analysis.notes.append(
                f"{player.name} made only {plural(player.decisions, 'counted decision')} (fewer than {MIN_DECISIONS}): "
                "too few for a meaningful error rate, so none is given"
            )
    return analysis


def analyse_record(record: MatchRecord, *, pool=None, level: str = DEFAULT_LEVEL, luck: bool = True) -> MatchAnalysis:
    """Replay a parsed match file (:func:`backgammon.replay.replay`) and analyse the games it replays. Games the
    replay stopped at an illegal entry are analysed up to it, and said so."""
    report = replay(record)
    games = [g.game for g in report.games if g.game is not None]
    finished = report.winner is not None if record.length else all(g.result is not None for g in report.games)
    analysis = analyse_games(
        games, record.players, length=record.length, pool=pool, level=level, finished=finished, luck=luck
    )
    for game in report.games:
        if game.illegal is not None:
            analysis.notes.append(
                f"game {game.number} stops at an illegal entry (analysed up to it): "
                f"{game.illegal.describe(record.players)}"
            )
    return analysis
